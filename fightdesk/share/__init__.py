"""Sharing the fight with the players' own devices: a small web server in a thread of its
own, serving the player view's data (``engine/player_view.py``) to a page in the phone's
browser and taking back only the dice a player typed for their claimed fighter's waiting
roll. No Qt: the window's side is ``ui/share_dialog.py``. See docs/ui.md, "Sharing with
the players' phones".
"""
