"""Edit a fighter in the fight: name, side and the numbers of their live status.

Every change becomes a ``SetValue`` GM override (logged and undoable; the changes made at
one OK land whole, as one ``Edits`` step: ui/operations.py); the
editor reads the fighter's fields but holds no rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .form_fields import CappedSpinBox, warning_color
from .plain import plain_label

if TYPE_CHECKING:
    from fightdesk.engine.model import Fighter

SIDES = (("pc", "Player character"), ("ally", "Ally"), ("enemy", "Enemy"))


class FighterEditor(QDialog):
    """``changesChosen([(field path, value), ...])`` when the GM presses OK."""

    changesChosen = Signal(list)

    def __init__(self, fighter: Fighter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("FighterEditor")
        self.setWindowTitle(f"Edit {fighter.name}")
        self._before: dict[str, Any] = {}
        self._inputs: dict[str, QWidget] = {}
        form = QFormLayout()
        name = QLineEdit(fighter.name)
        self._add(form, "name", "Name", name, fighter.name)
        side = QComboBox()
        for key, label in SIDES:
            side.addItem(label, key)
        side.setCurrentIndex(max(0, side.findData(fighter.side)))
        self._add(form, "side", "Side", side, fighter.side)
        status = fighter.status
        for field_name, info in type(status).model_fields.items():
            value = getattr(status, field_name)
            if isinstance(value, bool) or not isinstance(value, int):
                continue
            spin = CappedSpinBox()
            # A value the model lets go below 0 (a health that counts past 0) keeps its sign.
            lows = [int(m.ge) for m in info.metadata if getattr(m, "ge", None) is not None]
            spin.setRange(max(lows) if lows else -999, 999)
            spin.setValue(value)
            label = field_name.replace("_", " ").capitalize()
            # A number typed past the bounds is capped, and the editor says so.
            spin.capped.connect(lambda typed, s=spin, w=label: self._show_cap(
                s.cap_text(typed, w)))
            spin.lineEdit().textEdited.connect(lambda _text: self._show_cap(""))
            self._add(form, f"status.{field_name}", label, spin, value)
        self.cap_note = plain_label()
        self.cap_note.setObjectName("capNote")
        self.cap_note.setWordWrap(True)
        self.cap_note.setVisible(False)
        palette = self.cap_note.palette()
        palette.setColor(QPalette.ColorRole.WindowText, warning_color(self))
        self.cap_note.setPalette(palette)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._ok)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.cap_note)
        layout.addWidget(buttons)

    def _add(self, form: QFormLayout, path: str, label: str, widget: QWidget, value: Any) -> None:
        widget.setObjectName(f"edit-{path}")
        form.addRow(f"{label}:", widget)
        self._inputs[path] = widget
        self._before[path] = value

    def _show_cap(self, text: str) -> None:
        self.cap_note.setText(text)
        self.cap_note.setVisible(bool(text))

    def changes(self) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        for path, widget in self._inputs.items():
            if isinstance(widget, QLineEdit):
                value: Any = widget.text().strip()
            elif isinstance(widget, QComboBox):
                value = widget.currentData()
            elif isinstance(widget, QSpinBox):
                value = widget.value()
            else:  # pragma: no cover - every input kind is listed above
                continue
            if value != self._before[path]:
                out.append((path, value))
        return out

    def _ok(self) -> None:
        self.changesChosen.emit(self.changes())
        self.accept()
