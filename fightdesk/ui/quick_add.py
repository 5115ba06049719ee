"""Quick add: a fighter for this fight only, from a name, a side, a health and the few
numbers a one-off needs in the fight's ruleset (``Rules.quick_fields``: Attack and
Defense and a weapon class in roll-under, a skill in ashes...); the ruleset's defaults
fill the rest (editable later with the card's Edit...). The dialog knows no engine: it
hands back what was typed and the window builds the fighter."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from .form_fields import CappedSpinBox, FieldEditor, FieldSpec, warning_color
from .inline import error_label
from .plain import plain_label

SIDES = (("enemy", "Enemy"), ("ally", "Ally"), ("pc", "Player character"))


class QuickAddDialog(QDialog):
    """Name, side, health, the ruleset's few numbers and how many;
    ``chosen(name, side, health, count, values)`` on OK (values: quick field -> value)."""

    chosen = Signal(str, str, int, int, dict)

    def __init__(self, health: int, most: int, parent: QWidget | None = None,
                 fields: tuple[tuple[str, str, FieldSpec, Any], ...] = ()) -> None:
        super().__init__(parent)
        self.setObjectName("QuickAddDialog")
        self.setWindowTitle("Quick add a fighter")
        self.name = QLineEdit()
        self.name.setObjectName("quickName")
        self.name.setPlaceholderText("e.g. Harbour guard")
        self.side = QComboBox()
        self.side.setObjectName("quickSide")
        for key, label in SIDES:
            self.side.addItem(label, key)
        # A number typed past a box's bounds is capped, and the dialog says so.
        self.health = CappedSpinBox()
        self.health.setObjectName("quickHealth")
        self.health.setRange(1, max(most, health))
        self.health.setValue(health)
        self.count = CappedSpinBox()
        self.count.setObjectName("quickCount")
        self.count.setRange(1, 100)
        self.count.setToolTip("More than one makes a group of numbered copies")
        self.error = error_label()
        self.cap_note = plain_label()
        self.cap_note.setObjectName("capNote")
        self.cap_note.setWordWrap(True)
        self.cap_note.setVisible(False)
        palette = self.cap_note.palette()
        palette.setColor(QPalette.ColorRole.WindowText, warning_color(self))
        self.cap_note.setPalette(palette)
        for spin, label in ((self.health, "Health"), (self.count, "How many")):
            spin.capped.connect(lambda typed, s=spin, w=label: self._show_cap(
                s.cap_text(typed, w)))
            spin.lineEdit().textEdited.connect(lambda _text: self._show_cap(""))
        form = QFormLayout()
        form.addRow("&Name:", self.name)
        form.addRow("&Side:", self.side)
        form.addRow("&Health:", self.health)
        # The ruleset's few numbers, each starting at the sheet's default.
        self.fields: dict[str, FieldEditor] = {}
        for path, label, spec, value in fields:
            editor = FieldEditor(spec)
            editor.label.setVisible(False)
            if value is not None:
                editor.set_value(value)
            editor.input.setObjectName(f"quick-{path}")
            form.addRow(f"{label}:", editor)
            self.fields[path] = editor
        form.addRow("&How many:", self.count)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.cap_note)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

    def _show_cap(self, text: str) -> None:
        self.cap_note.setText(text)
        self.cap_note.setVisible(bool(text))

    def show_refusal(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _accept(self) -> None:
        name = self.name.text().strip()
        if not name:
            self.show_refusal("Give the fighter a name")
            self.name.setFocus()
            return
        values = {path: editor.value() for path, editor in self.fields.items()}
        self.chosen.emit(name, str(self.side.currentData()), self.health.value(),
                         self.count.value(), values)
