"""Small pieces several widgets share: the inline refusal label and typed-in dice.

Kept apart so that a widget never imports another widget's module (docs/ARCHITECTURE.md),
and so the first window does not load the action dialog to get them.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel

from .plain import plain_label

# How several rolls are typed in one field, for the fields' placeholders and tooltips.
SEVERAL_ROLLS = "';' before the next roll (7 3 9; 4), or spaces where each roll is one die (14 6)"


def parse_typed_dice(text: str) -> list[list[int]]:
    """``"7 3 9; 4"`` -> ``[[7, 3, 9], [4]]``: rolls split by ``;`` (or ``|``), faces by
    spaces or commas. Where each roll is one die and no ``;`` is typed, the engine takes
    one face a roll, so ``"14 6"`` is two rolls as ``"14; 6"`` is. A roll typed as ``-``
    is left to the app (so the GM can type one player's roll and let the app roll the
    others, in any order);
    ``00`` is a d100's 100; coins are typed as H and T (``H T H`` or ``HTH``). Raises
    ValueError with a plain message."""
    rolls: list[list[int]] = []
    parts = re.split(r"[;|]", text)
    if len(parts) == 1 and not parts[0].strip():
        return []
    for part in parts:
        part = part.strip()
        if part in ("-", "?", ""):
            rolls.append([])  # the app rolls this one
            continue
        faces: list[int] = []
        for token in re.split(r"[\s,]+", part):
            faces.extend(_faces(token))
        rolls.append(faces)
    while rolls and not rolls[-1]:
        rolls.pop()  # nothing typed for the last rolls: the app rolls them anyway
    return rolls


def _faces(token: str) -> list[int]:
    if token == "00":
        return [100]
    if token.isdigit():
        return [int(token)]
    if token and set(token.upper()) <= {"H", "T"}:
        return [2 if ch == "H" else 1 for ch in token.upper()]
    raise ValueError(f"{token!r} is not a die face: type numbers like 7 3 9 (or H and T "
                     "for coins, - to let the app roll)")


def error_label() -> QLabel:
    """A label for inline refusals: bold, in the palette's link-visited/red family."""
    label = plain_label(wrap=True)
    label.setObjectName("inlineError")
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    pal = label.palette()
    dark = pal.color(QPalette.ColorRole.Window).lightness() < 128
    pal.setColor(QPalette.ColorRole.WindowText, Qt.GlobalColor.red if dark else Qt.GlobalColor.darkRed)
    label.setPalette(pal)
    label.setVisible(False)
    return label
