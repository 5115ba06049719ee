"""The decision panel: what the engine is waiting for, with a button per answer.

Shown above the cards (and inside the interrupt stack dialog) whenever the ruleset
reports a pending :class:`Decision`. It emits the answer; the main window turns it into
the ``Answer`` command.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .form_fields import CappedSpinBox
from .inline import SEVERAL_ROLLS, error_label, parse_typed_dice
from .layouts import take_widgets
from .plain import plain_label, plain_tip

if TYPE_CHECKING:
    from fightdesk.engine.base import Decision


class DecisionPanel(QFrame):
    """``answered(decision_id, choice, amount, dice)``: choice is "" and amount -1 when
    unused; dice are the GM's typed-in faces (empty: the app rolls).
    ``answeredValues(decision_id, values, by)`` answers a decision with fields (several
    values at once; a blank optional field is None: the app rolls it)."""

    answered = Signal(str, str, int, list)
    answeredValues = Signal(str, dict, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DecisionPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self._decision: Decision | None = None
        self._buttons: list[QPushButton] = []  # the answers of the question shown
        self.prompt = plain_label()
        self.prompt.setWordWrap(True)
        font = self.prompt.font()
        font.setBold(True)
        self.prompt.setFont(font)
        self.choices = QHBoxLayout()
        self.amount = CappedSpinBox()
        self.amount.setObjectName("decisionAmount")
        self.amount.setAccessibleName("Amount")
        self.amount.capped.connect(lambda typed: self.show_refusal(self.amount.cap_text(typed)))
        self.amount_ok = QPushButton("&OK")  # Alt+O, wherever the focus is
        self.amount_ok.clicked.connect(self._answer_amount)
        # Return answers: in the amount, or in the typed dice of an amount question.
        self.amount.lineEdit().returnPressed.connect(self._answer_amount)
        self.dice = QLineEdit()
        self.dice.setObjectName("decisionDice")
        self.dice.setAccessibleName("Typed dice")
        self.dice.returnPressed.connect(self._return_in_dice)
        self.dice.setPlaceholderText("typed dice: 7 3 9; 4 (empty: the app rolls)")
        self.error = error_label()
        # A decision with fields: one input a field, and one button to answer them all.
        self.fields_box = QWidget()
        box = QVBoxLayout(self.fields_box)
        box.setContentsMargins(0, 0, 0, 0)
        rows = QWidget()
        self.fields_form = QFormLayout(rows)
        self.fields_form.setContentsMargins(0, 0, 0, 0)
        self._inputs: dict[str, QLineEdit | QComboBox] = {}
        self.fields_ok = QPushButton("OK")
        self.fields_ok.setObjectName("decisionFieldsOk")
        self.fields_ok.setToolTip("Answer with these values (blank rows: the app rolls)")
        self.fields_ok.clicked.connect(self._answer_fields)
        ok_row = QHBoxLayout()
        ok_row.addWidget(self.fields_ok)
        ok_row.addStretch(1)
        box.addWidget(rows)
        box.addLayout(ok_row)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.prompt)
        layout.addWidget(self.fields_box)
        row = QHBoxLayout()
        row.addLayout(self.choices)
        row.addWidget(self.amount)
        row.addWidget(self.amount_ok)
        row.addStretch(1)
        # Room for the placeholder that says how several rolls are typed.
        row.addWidget(self.dice, 2)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.setVisible(False)

    def decision(self) -> Decision | None:
        return self._decision

    def show_decision(self, decision: Decision | None) -> None:
        if decision == self._decision:
            return
        self._decision = decision
        for old in take_widgets(self.choices):
            old.hide()
            old.deleteLater()
        self._buttons = []
        self.error.setVisible(False)
        if decision is None:
            self.setVisible(False)
            return
        self.prompt.setText(decision.prompt + (f" (answered by {decision.asks})" if decision.asks else ""))
        for n, choice in enumerate(decision.choices, start=1):
            label = choice.label.replace("&", "&&")
            chance = ""
            if choice.chance:
                chance = f" · {percent(Fraction(choice.chance))}"
            button = QPushButton((f"&{n} {label}" if n < 10 else label) + chance)
            button.setObjectName(f"choice-{choice.id}")
            exact = f"\nChance of success: {choice.chance}" if choice.chance else ""
            button.setToolTip(plain_tip(f"Answer: {choice.label}" + (f" (Alt+{n})" if n < 10 else "")
                                         + exact))
            button.clicked.connect(lambda _=False, c=choice.id: self._answer(c, -1))
            button.setAutoDefault(True)  # Return on the focused answer gives it
            self.choices.addWidget(button)
            self._buttons.append(button)
            button.setVisible(True)  # a layout only shows new children on the next event loop pass
        has_amount = decision.minimum is not None or decision.maximum is not None
        self.amount.setVisible(has_amount)
        self.amount_ok.setVisible(has_amount)
        if has_amount:
            self.amount.setRange(decision.minimum or 0, decision.maximum or 0)
            self.amount.setValue(decision.minimum or 0)
        self.dice.setVisible(bool(decision.dice_needed))
        self.dice.setToolTip(plain_tip(f"Dice needed: {decision.dice_needed}. Faces by "
                                       f"spaces; {SEVERAL_ROLLS}")
                             if decision.dice_needed else "")
        self.dice.clear()
        self._show_fields(decision)
        self.setVisible(True)
        self._take_focus()

    def _take_focus(self) -> None:
        """A new question takes the keyboard: its first field, else its first answer,
        else its amount, so the GM answers it without reaching for the mouse."""
        for widget in (*self._inputs.values(), *self._buttons, self.amount):
            if not widget.isHidden() and widget.isEnabled():
                widget.setFocus(Qt.FocusReason.OtherFocusReason)
                return

    def _show_fields(self, decision: Decision) -> None:
        while self.fields_form.rowCount():
            self.fields_form.removeRow(0)
        self._inputs = {}
        for spec in decision.fields:
            widget: QLineEdit | QComboBox
            if spec.kind == "choice":
                widget = QComboBox()
                for choice in spec.choices:
                    widget.addItem(choice.label, choice.id)
                if spec.default is not None:
                    widget.setCurrentIndex(max(0, widget.findData(spec.default)))
            else:
                widget = QLineEdit()
                if spec.default is not None:
                    widget.setText(str(spec.default))
                if spec.kind == "number":
                    bounds = f"{spec.minimum}..{spec.maximum}"
                    widget.setPlaceholderText(
                        f"{bounds}, blank: the app rolls" if spec.optional else bounds)
            widget.setObjectName(f"field-{spec.name}")
            if isinstance(widget, QLineEdit):  # Return answers, as the OK button does
                widget.returnPressed.connect(self._answer_fields)
            else:  # a closed drop-down passes Return on: it answers here too
                widget.installEventFilter(self)
            widget.setAccessibleName(spec.label)
            label = plain_label(spec.label)
            self.fields_form.addRow(label, widget)
            self._inputs[spec.name] = widget
            widget.setVisible(True)
            label.setVisible(True)
        self.fields_box.setVisible(bool(decision.fields))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Return or Enter in a question's closed drop-down answers the question, as in
        its typed fields (an open drop-down's list takes the key itself: it picks)."""
        if (isinstance(watched, QComboBox) and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent)
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier):
            self._answer_fields()
            return True
        return super().eventFilter(watched, event)

    def field_input(self, name: str) -> QLineEdit | QComboBox:
        return self._inputs[name]

    def _answer_fields(self) -> None:
        decision = self._decision
        if decision is None:
            return
        values: dict[str, object] = {}
        for spec in decision.fields:
            widget = self._inputs[spec.name]
            if isinstance(widget, QComboBox):
                values[spec.name] = widget.currentData()
                continue
            text = widget.text().strip()
            if spec.kind == "number":
                if not text:
                    if not spec.optional:
                        self.show_refusal(f"{spec.label}: type a number")
                        return
                    values[spec.name] = None
                    continue
                if not text.lstrip("-").isdigit() or not spec.minimum <= int(text) <= spec.maximum:
                    self.show_refusal(
                        f"{spec.label}: {text!r} is not a number from {spec.minimum} to {spec.maximum}")
                    widget.setFocus()
                    return
                values[spec.name] = int(text)
            else:
                values[spec.name] = text
        self.answeredValues.emit(decision.id, values, decision.asks or "GM")

    def show_refusal(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _answer_amount(self) -> None:
        if not self.amount.isHidden():
            self.amount.interpretText()  # a number typed and not yet taken in
            self._answer("", self.amount.value())

    def _return_in_dice(self) -> None:
        """Return in the dice field answers an amount question, or one with one answer."""
        decision = self._decision
        if decision is None:
            return
        if not self.amount.isHidden():
            self._answer_amount()
        elif len(decision.choices) == 1:
            self._answer(decision.choices[0].id, -1)

    def _answer(self, choice: str, amount: int) -> None:
        if self._decision is None:
            return
        try:
            dice = parse_typed_dice(self.dice.text()) if self.dice.isVisible() else []
        except ValueError as exc:
            self.show_refusal(str(exc))
            return
        self.answered.emit(self._decision.id, choice, amount, dice)


def percent(chance: Fraction) -> str:
    """A chance in words for a button: "65%"; "<1%" and ">99%" for what can still go
    either way (the exact fraction is in the tooltip)."""
    from fightdesk.engine.ruleset import Odds

    return Odds("", chance).rounded


__all__ = ["DecisionPanel", "percent"]
