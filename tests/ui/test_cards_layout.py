"""Cards in the grid never overlap: a card whose lines wrap (a group's members) is laid out
at the height its own width needs, not at a height the grid guessed for another width
(at 1000x700, on a second start, two rows of the demo's cards with a quick-added group
ran into each other)."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session


def groups_fight(qtbot: Any) -> Any:
    """The demo plus a quick-added group of two harbour guards in phase 10 of round 1, in a
    window first shown at 1000x700."""
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.resize(1000, 700)
    window.show_session(Engine(demo_session()), None)
    window.show()
    window.add_library_panel()
    assert window.gm.quick_add_fighter("Harbour Guard", "enemy", 6, 2) == ""
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert window.document.apply(command).ok
    engine = window.document.engine
    assert engine is not None
    asked = engine.pending()  # Kaede's own action dice: the app rolls
    assert asked is not None and asked.id.startswith("action-dice-kaede")
    assert window.document.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    for fid in ("dock-thug-3", "harbour-guard-1"):
        assert window.document.apply(c.SetValue(fighter_id=fid, field="status.dice.0.face",
                                                value=10)).ok
    qtbot.wait(60)
    window.give_way_to_timeline()
    qtbot.wait(60)
    return window


def test_cards_in_two_rows_never_overlap(qtbot: Any) -> None:
    # The second start, with the layout the first one saved on closing restored: before
    # the fix (commit 4cb6860) the second row of cards ran into the first here.
    first = groups_fight(qtbot)
    first.document.undo_stack.setClean()
    first.close()
    window = groups_fight(qtbot)
    cards = window.cards.cards()
    assert len(cards) == 4 and window.cards.columns() < len(cards)  # more than one row
    for n, card in enumerate(cards):
        assert card.height() >= card.layout().totalHeightForWidth(card.width()) - 1
        for other in cards[n + 1:]:
            assert not card.geometry().intersects(other.geometry()), (
                card.geometry(), other.geometry())
