"""The dice bar: free rolls typed as dice notation (``3d10``, ``1d100+20``, ``5d10>=6``).

It only asks (``rollRequested``); the main window turns the text into a ``FreeRoll``
command, so the roll comes from the session's seeded source and lands in the log.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from .inline import error_label
from .plain import plain_label, plain_tip


class DiceBar(QWidget):
    rollRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DiceBar")
        self.setAccessibleName("Dice bar")
        self.setWindowTitle("Dice")
        self.edit = QLineEdit()
        self.edit.setObjectName("diceNotation")
        self.edit.setAccessibleName("Dice to roll")
        self.edit.setPlaceholderText("3d10, 1d100+20, 5d10>=6")
        self.edit.setToolTip("Free roll in dice notation; >=N counts successes (Ctrl+D, Enter rolls)")
        self.edit.setClearButtonEnabled(True)
        self.roll_button = QPushButton("Roll")
        self.roll_button.setObjectName("diceRoll")
        # Not the roll panel's "Roll": a screen reader tells the two apart.
        self.roll_button.setAccessibleName("Roll free dice")
        self.result = plain_label()
        self.result.setObjectName("diceResult")
        self.result.setTextFormat(Qt.TextFormat.PlainText)  # the notation is the GM's text
        self.error = error_label()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(QLabel("Dice:"))
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.roll_button)
        layout.addWidget(self.result, 1)
        layout.addWidget(self.error, 1)
        self.edit.returnPressed.connect(self._roll)
        self.roll_button.clicked.connect(self._roll)

    def _roll(self) -> None:
        text = self.edit.text().strip()
        if text:
            self.rollRequested.emit(text)

    def show_result(self, ok: bool, text: str, dice: list[tuple[int, list[int]]] | None = None,
                    target: int | None = None) -> None:
        """The roll's sentence with every die it rolled ((sides, faces) per roll; a face
        that counts as a success for ``target`` is ticked), or why the notation was
        refused (shown inline)."""
        if ok:
            shown = text
            faces = [(sides, f) for sides, rolled in dice or [] for f in rolled]
            if faces:
                marks = " ".join(f"{f}\N{CHECK MARK}" if target is not None and f >= target else str(f)
                                 for _, f in faces)
                shown = f"{text}  \N{MIDDLE DOT}  dice: {marks}"
            self.result.setText(shown)
            self.result.setToolTip(plain_tip(shown))
            self.error.setVisible(False)
            self.edit.selectAll()
        else:
            self.error.setText(text)
            self.error.setToolTip(plain_tip(text))
            self.error.setVisible(True)
        self.result.setVisible(ok)
