"""Damage / heal: the GM types what happened to a fighter's health as a change ("-3",
"+2") or, as before, the new total ("7"). The dialog shows the result before OK and
says inline why a text cannot be used; it knows no engine (the window applies it). The
change goes through the rules (a loss is damage) unless "GM override" is ticked
(docs/rulesets/README.md#gm-changes)."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from .inline import error_label

_CHANGE = re.compile(r"^\s*([+-])?\s*(\d{1,5})\s*$")


def parse_health(text: str, now: int, most: int) -> int:
    """The new health for ``text`` typed while health is ``now``: "-3" takes 3 off,
    "+2" adds 2 (at most up to ``most``, the card's maximum, unless the GM types a new
    total), "7" sets 7; never below 0, as before. Raises ValueError with a plain message."""
    match = _CHANGE.match(text)
    if match is None:
        raise ValueError("Type damage as -3, healing as +2, or the new health as 7")
    sign, digits = match.groups()
    amount = int(digits)
    if sign == "-":
        return max(0, now - amount)
    if sign == "+":
        return max(now, min(now + amount, most)) if most > 0 else now + amount
    return amount


class HealthDialog(QDialog):
    """Asks for a health change; ``chosen(new_health)`` on OK."""

    chosen = Signal(int)

    def __init__(self, who: str, now: int, most: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("HealthDialog")
        self.setWindowTitle("Damage / heal")
        self.now, self.most = now, most
        self.prompt = QLabel(f"Damage or healing for {who} (now {now}/{most}):\n"
                             "-3 takes 3 off, +2 heals 2, 7 sets the health to 7.")
        self.prompt.setTextFormat(Qt.TextFormat.PlainText)
        self.prompt.setWordWrap(True)
        self.edit = QLineEdit()
        self.edit.setObjectName("healthChange")
        self.edit.setAccessibleName(f"Damage or healing for {who}")
        self.edit.setPlaceholderText("-3, +2 or 7")
        self.outcome = QLabel()
        self.outcome.setObjectName("healthResult")
        self.override_box = QCheckBox("GM override (no rules)")
        self.override_box.setObjectName("healthOverride")
        self.override_box.setToolTip("Set the health and nothing else: the rules a loss "
                                     "would trigger (stun, serious wounds, half HP...) are "
                                     "not applied, and the log says so")
        self.error = error_label()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.prompt)
        layout.addWidget(self.edit)
        layout.addWidget(self.outcome)
        layout.addWidget(self.override_box)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.edit.textChanged.connect(self._show)
        self.setMinimumWidth(340)
        self._show("")

    def override(self) -> bool:
        """True: a GM override, the value alone; False: the change goes through the rules."""
        return self.override_box.isChecked()

    def new_health(self) -> int | None:
        try:
            return parse_health(self.edit.text(), self.now, self.most)
        except ValueError:
            return None

    def _show(self, text: str) -> None:
        value = self.new_health()
        problem = None
        if text.strip() and value is None:
            try:
                parse_health(text, self.now, self.most)
            except ValueError as exc:
                problem = str(exc)
        self.error.setText(problem or "")
        self.error.setVisible(problem is not None)
        self.outcome.setText(f"Health {self.now} \N{RIGHTWARDS ARROW} {value}" if value is not None else "")
        self.ok.setEnabled(value is not None and value != self.now)

    def _accept(self) -> None:
        value = self.new_health()
        if value is None or value == self.now:
            return
        self.chosen.emit(value)
        self.accept()
