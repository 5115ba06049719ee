"""The roll panel: a roll that is waiting for help or defenses before it is made.

It shows who rolls what, the target or advantage so far, the exact odds (updated after
every contribution), the contributions with a button to take each back, what may still
be added, and the Roll button with a field for the player's own faces. Faces a player
typed on their own device (a shared page) are offered here too, "typed by Kaede's
player", for the GM to roll with or reject. It only emits what the GM asks for; the main
window (or the share's controller) turns each request into a command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
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
    from fightdesk.engine.ruleset import RollView


class RollPanel(QFrame):
    """``contributeRequested(roll_id, fighter_id, kind, amount)``,
    ``withdrawRequested(roll_id, contribution_id)``, ``rollRequested(roll_id, dice)``
    (dice: the typed-in faces, empty for the app's roll); on a roll whose options are
    alternatives (one defense), ``pickRequested(roll_id, fighter_id, kind, dice)``: that
    option, then the roll, in one click; for faces a player typed on their own device,
    ``typedRollAccepted(roll_id, dice, fighter_id)`` or
    ``typedRollRejected(roll_id, fighter_id)``."""

    contributeRequested = Signal(int, str, str, int)
    withdrawRequested = Signal(int, int)
    rollRequested = Signal(int, list)
    pickRequested = Signal(int, str, str, list)
    typedRollAccepted = Signal(int, list, str)
    typedRollRejected = Signal(int, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("RollPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.AlternateBase)
        self._view: RollView | None = None
        self.title = plain_label(wrap=True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.total = plain_label(wrap=True)
        self.odds = plain_label(wrap=True)
        self.odds.setObjectName("rollOdds")
        self.rows = QGridLayout()
        self.rows.setContentsMargins(0, 0, 0, 0)
        # The lines take the width; each Take back button only what its text needs (a
        # line squeezed to half the panel wraps and is cut at its row's height).
        self.rows.setColumnStretch(0, 1)
        self.rows.setColumnStretch(1, 0)
        self.option = QComboBox()
        self.option.setObjectName("contributionOption")
        self.option.currentIndexChanged.connect(self._option_chosen)
        self.amount = CappedSpinBox()
        self.amount.setObjectName("contributionAmount")
        self.amount.setAccessibleName("Amount to add")
        self.option.setAccessibleName("Help or defense to add")
        # A number typed past what may be added is capped, and the panel says so.
        self.amount.capped.connect(lambda typed: self.show_refusal(self.amount.cap_text(typed)))
        self.add_button = QPushButton("&Add")
        self.add_button.setObjectName("addContribution")
        self.add_button.setToolTip("Add this help or defense to the roll (its cost is paid now; Alt+A)")
        self.add_button.clicked.connect(self._contribute)
        self.dice = QLineEdit()
        self.dice.setObjectName("rollDice")
        self.dice.setAccessibleName("Faces rolled at the table")
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setObjectName("makeRoll")
        self.roll_button.clicked.connect(self._roll)
        self.dice.returnPressed.connect(self._roll)
        self.error = error_label()
        # A player's faces from a shared page: (roll id, fighter id, faces as typed here).
        self._offer: tuple[int, str, str] | None = None
        self.typed_line = plain_label(wrap=True)
        self.typed_line.setObjectName("typedByPlayer")
        self.reject_button = QPushButton("Re&ject")
        self.reject_button.setObjectName("rejectTyped")
        self.reject_button.setToolTip("Send the player's faces back: nothing is rolled")
        self.reject_button.clicked.connect(self._reject)
        typed_row = QHBoxLayout()
        typed_row.addWidget(self.typed_line, 1)
        typed_row.addWidget(self.reject_button)
        self.typed_line.setVisible(False)
        self.reject_button.setVisible(False)

        add_row = QHBoxLayout()
        add_row.addWidget(self.option, 1)
        add_row.addWidget(self.amount)
        add_row.addWidget(self.add_button)
        # One button an alternative, with its odds: the pick is the answer and rolls.
        self.picks = QGridLayout()
        self.picks.setContentsMargins(0, 0, 0, 0)
        self._pick_buttons: list[QPushButton] = []
        roll_row = QHBoxLayout()
        roll_row.addWidget(self.dice, 1)
        roll_row.addWidget(self.roll_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.total)
        layout.addWidget(self.odds)
        layout.addLayout(self.rows)
        layout.addLayout(add_row)
        layout.addLayout(self.picks)
        layout.addLayout(typed_row)
        layout.addLayout(roll_row)
        layout.addWidget(self.error)
        self._take_back: list[QPushButton] = []
        self.setVisible(False)

    def view(self) -> RollView | None:
        return self._view

    def show_roll(self, view: RollView | None) -> None:
        if view == self._view:
            return
        same_roll = view is not None and self._view is not None and view.id == self._view.id
        self._view = view
        if view is None:
            self.setVisible(False)
            return
        if not same_roll:
            self.error.setVisible(False)
            self.dice.clear()
            self.clear_typed()
        self.title.setText(f"{view.title} ({view.roller} rolls {view.dice})")
        self.roll_button.setAccessibleName(f"Roll: {view.title}")
        self.total.setText(view.total_line)
        self.odds.setText("   ".join(f"{o.label}: {o.rounded}" for o in view.odds)
                          or "No odds for this roll")
        self.odds.setToolTip(plain_tip("\n".join(f"{o.label}: exactly {o.exact} ({o.percent})"
                                                  for o in view.odds)))
        self._show_rows(view)
        self.option.blockSignals(True)
        self.option.clear()
        for n, opt in enumerate(view.options):
            cost = f" ({opt.cost})" if opt.cost else ""
            # What the roll's chance becomes with it, to choose by.
            after = f" · then {view.roller}'s roll {_rounded(opt.chance)}" if opt.chance else ""
            self.option.addItem(f"{opt.fighter}: {opt.label}{cost}{after}", n)
        self.option.blockSignals(False)
        has_options = bool(view.options)
        for w in (self.option, self.amount, self.add_button):
            w.setEnabled(has_options)
        if not has_options:
            self.option.addItem("Nobody can add to this roll now")
        self._option_chosen()
        self._show_picks(view)
        what = "coins (H and T)" if view.coins else "faces"
        # A roll that waits for a choice cannot be made yet: say what is missing.
        self.roll_button.setEnabled(not view.blocked)
        self.roll_button.setToolTip(plain_tip(f"Not yet: {view.blocked}" if view.blocked
                                              else "Make the roll (typed faces, or the app's)"))
        self.dice.setPlaceholderText(
            f"{view.roller}'s {what} as rolled at the table (blank: the app rolls)"
            if view.by_player else f"typed {what} (blank: the app rolls)")
        self.dice.setToolTip(plain_tip(f"{view.dice}, then any roll that follows from it "
                                       f"(damage after a hit): {SEVERAL_ROLLS}"))
        self.setVisible(True)

    def _show_rows(self, view: RollView) -> None:
        for old in take_widgets(self.rows):
            old.hide()
            old.deleteLater()
        self._take_back = []
        for row, c in enumerate(view.contributions):
            sign = f"{c.amount:+d}" if c.amount else ""
            cost = f" ({c.cost})" if c.cost else ""
            line = f"{c.who}: {c.label} {sign}{cost}".strip()
            self.rows.addWidget(plain_label(line, wrap=True), row, 0)
            button = QPushButton("Take back")
            button.setObjectName(f"takeBack-{c.id}")
            button.setAccessibleName(f"Take back {line}")
            button.setToolTip("Take this contribution back; its cost is given back")
            button.clicked.connect(lambda _=False, cid=c.id: self._withdraw(cid))
            self.rows.addWidget(button, row, 1)
            self._take_back.append(button)

    def _show_picks(self, view: RollView) -> None:
        """A roll whose options are alternatives shows each as a button with its odds
        (no Add: a pick replaces, it does not add); any other roll, the Add row."""
        from fractions import Fraction

        from fightdesk.engine.ruleset import Odds

        for old in take_widgets(self.picks):
            old.hide()
            old.deleteLater()
        self._pick_buttons = []
        if not view.one_choice:
            self.option.setVisible(True)
            self.add_button.setVisible(True)
            return
        for w in (self.option, self.amount, self.add_button):
            w.setVisible(False)
        columns = 3
        for n, opt in enumerate(view.options):
            chance = Odds(opt.label, Fraction(opt.chance)) if opt.chance else None
            text = opt.label + (f" · {chance.rounded}" if chance else "")
            if opt.cost:
                text += f" ({opt.cost})"
            # A digit key picks it, wherever the focus is (Alt+1...), as a question's answers.
            key = f"&{n + 1} " if n < 9 else ""
            button = QPushButton(key + text.replace("&", "&&"))
            button.setObjectName(f"pick-{opt.kind}")
            button.setToolTip(plain_tip(
                f"{opt.fighter}: {opt.label}, then the roll (the faces typed below, or the "
                "app's)" + (f"\nChance: exactly {chance.exact} ({chance.percent})"
                            if chance else "")))
            button.clicked.connect(lambda _=False, o=opt: self._pick(o.fighter_id, o.kind))
            self.picks.addWidget(button, n // columns, n % columns)
            button.setVisible(True)
            self._pick_buttons.append(button)

    def pick_button(self, kind: str) -> QPushButton:
        return next(b for b in self._pick_buttons if b.objectName() == f"pick-{kind}")

    def pick_buttons(self) -> list[QPushButton]:
        return list(self._pick_buttons)

    def _pick(self, fighter_id: str, kind: str) -> None:
        if self._view is None:
            return
        try:
            dice = parse_typed_dice(self.dice.text())
        except ValueError as exc:
            self.show_refusal(str(exc))
            return
        self.pickRequested.emit(self._view.id, fighter_id, kind, dice)

    def offer_typed(self, roll_id: int, fighter_id: str, who: str, faces: str) -> bool:
        """Show a player's faces for the waiting roll ("typed by Kaede's player") in the
        faces field: Roll makes the roll with them, Reject sends them back. False when that
        roll is no longer the one waiting."""
        if self._view is None or self._view.id != roll_id:
            return False
        self._offer = (roll_id, fighter_id, faces)
        self.dice.setText(faces)
        self.typed_line.setText(f"Typed by {who}'s player: {faces}")
        self.typed_line.setVisible(True)
        self.reject_button.setVisible(True)
        self.error.setVisible(False)
        return True

    def typed_offer(self) -> tuple[int, str, str] | None:
        """(roll id, fighter id, faces) of a player's faces waiting for the GM, or None."""
        return self._offer

    def clear_typed(self) -> None:
        self._offer = None
        self.typed_line.setVisible(False)
        self.reject_button.setVisible(False)

    def _reject(self) -> None:
        offer = self._offer
        if offer is None:
            return
        self.clear_typed()
        self.dice.clear()
        self.typedRollRejected.emit(offer[0], offer[1])

    def take_back_button(self, contribution_id: int) -> QPushButton:
        return next(b for b in self._take_back if b.objectName() == f"takeBack-{contribution_id}")

    def show_refusal(self, text: str | None) -> None:
        self.error.setText(text or "")
        self.error.setVisible(bool(text))

    def _option_chosen(self, *_: object) -> None:
        view = self._view
        index = self.option.currentData()
        if view is None or not isinstance(index, int) or not 0 <= index < len(view.options):
            self.amount.setVisible(False)
            return
        opt = view.options[index]
        ranged = opt.maximum > opt.minimum
        self.amount.setVisible(ranged)
        self.amount.setRange(opt.minimum, opt.maximum)
        self.amount.setValue(opt.default)

    def _contribute(self) -> None:
        view = self._view
        index = self.option.currentData()
        if view is None or not isinstance(index, int) or not 0 <= index < len(view.options):
            return
        opt = view.options[index]
        amount = self.amount.value() if self.amount.isVisible() else opt.default
        self.contributeRequested.emit(view.id, opt.fighter_id, opt.kind, amount)

    def _withdraw(self, contribution_id: int) -> None:
        if self._view is not None:
            self.withdrawRequested.emit(self._view.id, contribution_id)

    def _roll(self) -> None:
        if self._view is None:
            return
        if self._view.blocked:  # Return in the faces field while the button is disabled
            self.show_refusal(f"Not yet: {self._view.blocked}")
            return
        try:
            dice = parse_typed_dice(self.dice.text())
        except ValueError as exc:
            self.show_refusal(str(exc))
            return
        offer = self._offer
        if offer is not None and offer[0] == self._view.id and self.dice.text() == offer[2]:
            self.clear_typed()
            self.typedRollAccepted.emit(self._view.id, dice, offer[1])
            return
        self.rollRequested.emit(self._view.id, dice)


def _rounded(chance: str) -> str:
    """"19/50" as the panel shows a chance: "38%" (or "<1%")."""
    from fractions import Fraction

    from fightdesk.engine.ruleset import Odds

    return Odds("", Fraction(chance)).rounded


__all__ = ["RollPanel"]
