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


def parse_typed_dice(text: str) -> list[list[int]]:
    """``"7 3 9; 4"`` -> ``[[7, 3, 9], [4]]``: rolls split by ``;`` (or ``|``), faces by
    spaces or commas. Raises ValueError with a plain message."""
    rolls: list[list[int]] = []
    for part in re.split(r"[;|]", text):
        if not part.strip():
            continue
        faces: list[int] = []
        for token in re.split(r"[\s,]+", part.strip()):
            if not token.isdigit():
                raise ValueError(f"{token!r} is not a die face: type numbers like 7 3 9")
            faces.append(int(token))
        rolls.append(faces)
    return rolls


def error_label() -> QLabel:
    """A label for inline refusals: bold, in the palette's link-visited/red family."""
    label = plain_label()
    label.setWordWrap(True)
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
