"""Form inputs generated from pydantic model fields: each field becomes a widget chosen
by its type (a whole number a spin box with the field's bounds, a flag a check box, a
fixed set of words a combo box, text a line edit), with a message line under it. The
fighter form and the ruleset options dialog are both built from these."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QPalette, QValidator
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from .plain import plain_label, plain_tip

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

# Words the GM would use where a field name is not enough.
LABELS: dict[str, str] = {
    "style_lore": "Style Lore",
    "no_damage": "No damage",
    "shout_pool": "Shout pool",
    "effect_damage": "Effect dmg",
    "effect_soak": "Effect soak",
    "weenie": "Weenie (one die, no EP)",
    "rolls_own_dice": "Rolls own dice",
    "arena_tn": "Find an Angle TN (arena)",
    "seconds_per_round": "Seconds per round",
    "basics_for_all": "Basic maneuvers for every fighter",
}
SIDE_LABELS = {"pc": "Player character", "ally": "Ally", "enemy": "Enemy"}
DEFAULT_INT_RANGE = (-99, 99)


def label_for(name: str) -> str:
    return LABELS.get(name, name.replace("_", " ").capitalize())


def warning_color(widget: QWidget) -> QColor:
    """A red that reads on the current palette (light or dark)."""
    dark = widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return QColor(255, 128, 116) if dark else QColor(176, 0, 32)


# --- what a pydantic field is, for a form ----------------------------------------------


@dataclass(frozen=True)
class FieldSpec:
    """One model field as the form sees it."""

    name: str
    kind: Literal["int", "bool", "choice", "text", "multi", "pairs", "table", "other"]
    optional: bool = False
    choices: tuple[str, ...] = ()
    minimum: int = DEFAULT_INT_RANGE[0]
    maximum: int = DEFAULT_INT_RANGE[1]
    item_model: type[BaseModel] | None = None
    default: Any = None
    # The model's own words for some choices ("Heavy (d12)"), from the field's
    # ``json_schema_extra={"choice_labels": {...}}``.
    choice_labels: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return label_for(self.name)

    def choice_label(self, value: str) -> str:
        """How a choice reads in a form: the model's words for it, else its name."""
        return dict(self.choice_labels).get(value) or SIDE_LABELS.get(value) or label_for(value)


def _literal_values(annotation: Any) -> tuple[str, ...] | None:
    if typing.get_origin(annotation) is Literal:
        return tuple(str(v) for v in typing.get_args(annotation))
    return None


def field_spec(name: str, info: FieldInfo) -> FieldSpec:
    """Read a field's type and bounds (``ge``/``le`` metadata) into a FieldSpec."""
    from pydantic import BaseModel
    from pydantic_core import PydanticUndefined

    annotation = info.annotation
    optional = False
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(args) < len(typing.get_args(annotation))
        annotation = args[0] if len(args) == 1 else annotation
    default = None if info.default is PydanticUndefined else info.default
    if annotation is bool:
        return FieldSpec(name, "bool", optional, default=default)
    if annotation is int:
        low, high = DEFAULT_INT_RANGE
        for meta in info.metadata:
            if getattr(meta, "ge", None) is not None:
                low = int(meta.ge)
            if getattr(meta, "gt", None) is not None:
                low = int(meta.gt) + 1
            if getattr(meta, "le", None) is not None:
                high = int(meta.le)
            if getattr(meta, "lt", None) is not None:
                high = int(meta.lt) - 1
        return FieldSpec(name, "int", optional, minimum=low, maximum=high, default=default)
    if annotation is str:
        return FieldSpec(name, "text", optional, default=default)
    values = _literal_values(annotation)
    if values is not None:
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        words = extra.get("choice_labels")
        labels = tuple((str(k), str(v)) for k, v in words.items()) \
            if isinstance(words, dict) else ()
        return FieldSpec(name, "choice", optional, choices=values, default=default,
                         choice_labels=labels)
    if typing.get_origin(annotation) is dict and typing.get_args(annotation) == (str, int):
        return FieldSpec(name, "pairs", optional, default=default)
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation) or (Any,)
        if isinstance(item, type) and issubclass(item, BaseModel):
            return FieldSpec(name, "table", item_model=item)
        item_values = _literal_values(item)
        if item_values is not None or item is str:
            return FieldSpec(name, "multi", choices=item_values or ())
    return FieldSpec(name, "other")


def model_specs(model: type[BaseModel], skip: tuple[str, ...] = ("ruleset",)) -> list[FieldSpec]:
    return [field_spec(n, f) for n, f in model.model_fields.items() if n not in skip]


def split_words(text: str) -> list[str]:
    return [w.strip() for w in text.replace(";", ",").split(",") if w.strip()]


# --- one input with its message ----------------------------------------------------------


class CappedSpinBox(QSpinBox):
    """A spin box in which a number typed past either end becomes that end, and ``capped``
    says what was typed (a plain spin box refuses the keys: "25" in a box up to 20
    stayed "2"; or it quietly takes the nearest end: "5" in a box from 10 became 10)."""

    capped = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)

    def _outside(self, text: str) -> int | None:
        digits = text.strip()
        if not digits.lstrip("-").isdigit() or digits.count("-") > 1 or "-" in digits[1:]:
            return None
        typed = int(digits)
        return typed if not self.minimum() <= typed <= self.maximum() else None

    def validate(self, text: str, pos: int) -> object:
        if self._outside(text) is not None:
            return QValidator.State.Intermediate, text, pos
        return super().validate(text, pos)

    def fixup(self, text: str) -> str:
        typed = self._outside(text)
        if typed is not None:
            self.capped.emit(typed)
            return str(self.nearest(typed))
        return str(super().fixup(text))

    def nearest(self, typed: int) -> int:
        return min(max(typed, self.minimum()), self.maximum())

    def cap_text(self, typed: int, label: str = "") -> str:
        """What capping did, in words: "Max hp is at most 20: 25 became 20"."""
        end = self.nearest(typed)
        bound = f"at most {end}" if typed > end else f"at least {end}"
        head = f"{label} is {bound}" if label else bound[0].upper() + bound[1:]
        return f"{head}: {typed} became {end}"


class FieldEditor(QWidget):
    """A label, the input widget for one field, and the message under it."""

    changed = Signal()

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self._note = ""  # what capping a typed number did, until the GM types again
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setVerticalSpacing(1)
        self.label = QLabel(spec.label)
        self.input = self._make_input(spec)
        self.label.setBuddy(self.input)
        # Not word-wrapped: wrapped labels make the grid under-estimate its height.
        self.message = plain_label()
        self.message.setVisible(False)
        self.message.setObjectName("fieldMessage")
        if spec.kind == "bool":
            layout.addWidget(self.input, 0, 0, 1, 2)
            self.label.setVisible(False)
        else:
            layout.addWidget(self.label, 0, 0)
            layout.addWidget(self.input, 0, 1)
        layout.addWidget(self.message, 1, 0, 1, 2)
        layout.setColumnStretch(1, 1)

    def _make_input(self, spec: FieldSpec) -> QWidget:
        widget: QWidget
        if spec.kind == "int":
            spin = CappedSpinBox()
            spin.setRange(spec.minimum, spec.maximum)
            spin.setAccelerated(True)
            spin.setToolTip(f"{spec.label}: {spec.minimum} to {spec.maximum}")
            spin.capped.connect(self._capped)
            spin.lineEdit().textEdited.connect(self._typed)
            spin.valueChanged.connect(self.changed)
            widget = spin
        elif spec.kind == "bool":
            box = QCheckBox(spec.label)
            box.toggled.connect(self.changed)
            widget = box
        elif spec.kind == "choice":
            combo = QComboBox()
            if spec.optional:
                combo.addItem("(none)", None)
            for value in spec.choices:
                combo.addItem(spec.choice_label(value), value)
            combo.currentIndexChanged.connect(self.changed)
            widget = combo
        else:
            line = QLineEdit()
            if spec.kind == "multi":
                line.setPlaceholderText("comma separated")
            if spec.kind == "pairs":
                line.setPlaceholderText("a name and a number each, comma separated")
            line.textChanged.connect(self.changed)
            widget = line
        widget.setObjectName(f"field_{spec.name}")
        return widget

    def value(self) -> Any:
        w = self.input
        if isinstance(w, QSpinBox):
            return w.value()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return w.currentData()
        assert isinstance(w, QLineEdit)
        if self.spec.kind == "multi":
            return split_words(w.text())
        if self.spec.kind == "pairs":
            return parse_pairs(w.text())
        text = w.text().strip()
        return None if self.spec.optional and not text else text

    def set_value(self, value: Any) -> None:
        w = self.input
        if isinstance(w, QSpinBox):
            w.setValue(int(value))
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            i = w.findData(value)
            w.setCurrentIndex(max(i, 0))
        elif isinstance(w, QLineEdit) and isinstance(value, dict):
            w.setText(", ".join(f"{k} {v}" for k, v in value.items()))
        elif isinstance(w, QLineEdit):
            w.setText(", ".join(value) if isinstance(value, list) else str(value or ""))

    def _capped(self, typed: int) -> None:
        spin = self.input
        assert isinstance(spin, CappedSpinBox)
        self._note = spin.cap_text(typed, self.spec.label)
        self.set_message("")

    def _typed(self, _text: str) -> None:
        if self._note:
            self._note = ""
            self.set_message("")

    def set_message(self, text: str) -> None:
        """Show a problem under the input; with none, what capping a number did."""
        text = text or self._note
        self.message.setText(text)
        self.message.setVisible(bool(text))
        palette = self.message.palette()
        palette.setColor(QPalette.ColorRole.WindowText, warning_color(self))
        self.message.setPalette(palette)
        if text:
            self.input.setToolTip(plain_tip(text))


def parse_pairs(text: str) -> dict[str, int] | str:
    """'reach 3, grip 4' -> {'reach': 3, 'grip': 4}; text that is not such
    pairs comes back as it is, for the model's check to name the field."""
    out: dict[str, int] = {}
    for chunk in text.split(","):
        words = chunk.split()
        if not words:
            continue
        if len(words) < 2:
            return text
        try:
            out[" ".join(words[:-1])] = int(words[-1])
        except ValueError:
            return text
    return out
