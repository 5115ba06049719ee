"""A one-line label that shrinks with its toolbar and elides, rather than leaving the bar
for the overflow menu where the GM never sees it."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from .plain import plain_tip

MIN_CHARS = 24  # what the label keeps when the bar is crowded: "Round 12 · phase 10 · ..."


class StatusLabel(QLabel):
    """``text()`` is always the whole line; it is painted elided when the space is short,
    with the whole line as the tooltip."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)  # the line names fighters from the file
        super().setText(text)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setToolTip(plain_tip(text))

    def setText(self, text: str) -> None:
        if text != self.text():
            super().setText(text)
            self.setToolTip(plain_tip(text))

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        least = self.fontMetrics().horizontalAdvance("x" * MIN_CHARS) + 8
        return QSize(min(hint.width(), least), hint.height())

    def sizeHint(self) -> QSize:
        # A small hint and an expanding policy: the toolbar keeps the label and gives it
        # the room left over, instead of moving it into the overflow menu.
        return self.minimumSizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        rect = self.contentsRect().adjusted(4, 0, -4, 0)
        line = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), line)
