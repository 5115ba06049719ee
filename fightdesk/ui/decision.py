"""The decision panel: what the engine is waiting for, with a button per answer.

Shown above the cards (and inside the interrupt stack dialog) whenever the ruleset
reports a pending :class:`Decision`. It emits the answer; the main window turns it into
the ``Answer`` command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .inline import error_label, parse_typed_dice
from .plain import plain_label

if TYPE_CHECKING:
    from fightdesk.engine.base import Decision


class DecisionPanel(QFrame):
    """``answered(decision_id, choice, amount, dice)``: choice is "" and amount -1 when
    unused; dice are the GM's typed-in faces (empty: the app rolls)."""

    answered = Signal(str, str, int, list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DecisionPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self._decision: Decision | None = None
        self.prompt = plain_label()
        self.prompt.setWordWrap(True)
        font = self.prompt.font()
        font.setBold(True)
        self.prompt.setFont(font)
        self.choices = QHBoxLayout()
        self.amount = QSpinBox()
        self.amount.setObjectName("decisionAmount")
        self.amount_ok = QPushButton("OK")
        self.amount_ok.clicked.connect(self._answer_amount)
        self.dice = QLineEdit()
        self.dice.setObjectName("decisionDice")
        self.dice.setPlaceholderText("typed dice (empty: the app rolls)")
        self.error = error_label()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.prompt)
        row = QHBoxLayout()
        row.addLayout(self.choices)
        row.addWidget(self.amount)
        row.addWidget(self.amount_ok)
        row.addStretch(1)
        row.addWidget(self.dice)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.setVisible(False)

    def decision(self) -> Decision | None:
        return self._decision

    def show_decision(self, decision: Decision | None) -> None:
        if decision == self._decision:
            return
        self._decision = decision
        while self.choices.count():
            item = self.choices.takeAt(0)
            old = item.widget() if item is not None else None
            if old is not None:
                old.hide()
                old.deleteLater()
        self.error.setVisible(False)
        if decision is None:
            self.setVisible(False)
            return
        self.prompt.setText(decision.prompt)
        for n, choice in enumerate(decision.choices, start=1):
            button = QPushButton(f"&{n} {choice.label}" if n < 10 else choice.label)
            button.setObjectName(f"choice-{choice.id}")
            button.setToolTip(f"Answer: {choice.label}" + (f" (Alt+{n})" if n < 10 else ""))
            button.clicked.connect(lambda _=False, c=choice.id: self._answer(c, -1))
            self.choices.addWidget(button)
            button.setVisible(True)  # a layout only shows new children on the next event loop pass
        has_amount = decision.minimum is not None or decision.maximum is not None
        self.amount.setVisible(has_amount)
        self.amount_ok.setVisible(has_amount)
        if has_amount:
            self.amount.setRange(decision.minimum or 0, decision.maximum or 0)
            self.amount.setValue(decision.minimum or 0)
        self.dice.setVisible(bool(decision.dice_needed))
        self.dice.setToolTip(f"Dice needed: {decision.dice_needed}" if decision.dice_needed else "")
        self.dice.clear()
        self.setVisible(True)

    def show_refusal(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _answer_amount(self) -> None:
        self._answer("", self.amount.value())

    def _answer(self, choice: str, amount: int) -> None:
        if self._decision is None:
            return
        try:
            dice = parse_typed_dice(self.dice.text()) if self.dice.isVisible() else []
        except ValueError as exc:
            self.show_refusal(str(exc))
            return
        self.answered.emit(self._decision.id, choice, amount, dice)


__all__ = ["DecisionPanel"]
