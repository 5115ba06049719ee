"""The action dialog: a ruleset's ``ActionForm`` as widgets, a live preview with exact
odds, then the app's roll or the GM's typed-in dice, and the result in one sentence.

The dialog knows no rules and no engine: it is given a ``preview`` function (form id and
values -> ``Preview``) and a ``submit`` function (form id, values, typed dice -> the
result sentence or the refusal), so it can be driven alone in a test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .form_fields import CappedSpinBox
from .inline import SEVERAL_ROLLS, error_label, parse_typed_dice
from .plain import plain_label, plain_tip

if TYPE_CHECKING:
    from fightdesk.engine.ruleset import ActionForm, FormField, Preview

PreviewFn = Callable[[str, dict[str, Any]], "Preview"]
# Returns (ok, sentence): the result of the action, or why the rules refused it.
SubmitFn = Callable[[str, dict[str, Any], list[list[int]]], tuple[bool, str]]


class ActionDialog(QDialog):
    """Choose an action, see its odds, roll or type the dice, read what happened."""

    def __init__(self, fighter_name: str, forms: Sequence[ActionForm], preview: PreviewFn,
                 submit: SubmitFn, *, form_id: str | None = None,
                 preset: dict[str, Any] | None = None, own_dice: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ActionDialog")
        self.setWindowTitle(f"{fighter_name}: action")
        self._forms = list(forms)
        self._preview = preview
        self._submit = submit
        self._preset = dict(preset or {})
        self._inputs: dict[str, QWidget] = {}
        self.done_sentence = ""

        self.form_box = QComboBox()
        self.form_box.setObjectName("formChoice")
        for form in self._forms:
            self.form_box.addItem(form.title, form.id)
            row = self.form_box.count() - 1
            if not form.enabled:
                item = self.form_box.model().item(row)  # type: ignore[attr-defined]
                item.setEnabled(False)
                item.setToolTip(plain_tip(form.reason))
        self.form_reason = plain_label()
        self.form_reason.setWordWrap(True)
        self.fields_box = QGroupBox("Details")
        self.fields_layout = QFormLayout(self.fields_box)
        # What capping a typed number did ("EP is at most 2: 5 became 2").
        self.cap_note = plain_label()
        self.cap_note.setObjectName("capNote")
        self.cap_note.setWordWrap(True)
        self.cap_note.setVisible(False)
        self.fields_layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)

        preview_box = self._build_preview()
        # The error line and the preview keep their room when hidden: a problem coming
        # and going does not move the buttons under the GM's cursor.
        # The form's height is set when it is chosen; below it, a stretch takes what a
        # shorter preview leaves, so the buttons stay at the bottom.
        policy = self.error.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.error.setSizePolicy(policy)
        dice_row = self._build_dice_row()
        self._build_result_and_buttons()

        layout = QVBoxLayout(self)
        top = QFormLayout()
        top.addRow("&Action:", self.form_box)
        layout.addLayout(top)
        layout.addWidget(self.form_reason)
        layout.addWidget(self.fields_box)
        layout.addWidget(self.cap_note)
        layout.addWidget(preview_box)
        layout.addLayout(dice_row)
        layout.addStretch(1)
        layout.addWidget(self.result_label)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)

        self.form_box.currentIndexChanged.connect(self._form_chosen)
        self.dice_edit.textChanged.connect(self._update_preview)
        self.typed.toggled.connect(self._update_preview)
        # The form asked for opens even when it cannot be used now: it says why and
        # nothing can be confirmed, rather than another form (spending points) taking
        # its place under the same Enter key.
        start = next((n for n, f in enumerate(self._forms) if f.id == form_id), None)
        if start is None:
            start = next((n for n, f in enumerate(self._forms) if f.enabled), 0)
        self.form_box.setCurrentIndex(start)
        self._form_chosen(start)
        # A fighter whose player rolls their own dice is asked for them: the dialog
        # starts on typing them in.
        if own_dice:
            self.typed.setChecked(True)

    def _build_preview(self) -> QGroupBox:
        """What the action would do and its odds, before the roll, and why not."""
        self.preview_lines = plain_label()
        self.preview_lines.setWordWrap(True)
        self.preview_lines.setTextFormat(Qt.TextFormat.PlainText)
        self.odds_label = plain_label()
        self.odds_label.setObjectName("odds")
        # Plain text, one chance a line: the labels name fighters, whose names come from files.
        self.odds_label.setTextFormat(Qt.TextFormat.PlainText)
        self.odds_label.setWordWrap(True)
        self.error = error_label()
        self.preview_box = preview_box = QGroupBox("Before the roll")
        pv = QVBoxLayout(preview_box)
        pv.addWidget(self.preview_lines)
        pv.addWidget(self.odds_label)
        # An attack whose roll waits on the roll panel: the GM rolls or types its dice there.
        self.roll_waits_note = plain_label(
            "The roll then waits on the roll panel for the others' answers: roll its dice "
            "there, or type in the players' dice.")
        self.roll_waits_note.setObjectName("rollWaitsNote")
        self.roll_waits_note.setWordWrap(True)
        self.roll_waits_note.setVisible(False)
        pv.addWidget(self.roll_waits_note)
        pv.addWidget(self.error)
        return preview_box

    def _build_dice_row(self) -> QHBoxLayout:
        """The app rolls, or the GM types the players' dice."""
        self.app_rolls = QRadioButton("&Roll for me")
        self.typed = QRadioButton("&Type in the dice")
        self.app_rolls.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.app_rolls)
        group.addButton(self.typed)
        self.dice_edit = QLineEdit()
        self.dice_edit.setObjectName("typedDice")
        self.dice_edit.setAccessibleName("Typed-in dice")
        self.dice_edit.setPlaceholderText(f"faces by spaces; {SEVERAL_ROLLS}")
        self.dice_edit.setToolTip("The players' physical dice, in the order the rules roll "
                                  f"them (damage after the attack): faces by spaces; "
                                  f"{SEVERAL_ROLLS}. A roll typed as - is left to the app")
        self.dice_edit.setEnabled(False)
        self.typed.toggled.connect(self.dice_edit.setEnabled)
        self.typed.toggled.connect(lambda on: self.dice_edit.setFocus() if on else None)
        dice_row = QHBoxLayout()
        dice_row.addWidget(self.app_rolls)
        dice_row.addWidget(self.typed)
        dice_row.addWidget(self.dice_edit, 1)
        return dice_row

    def _build_result_and_buttons(self) -> None:
        self.result_label = plain_label()
        self.result_label.setObjectName("result")
        self.result_label.setWordWrap(True)
        big = QFont(self.result_label.font())
        big.setBold(True)
        big.setPointSizeF(big.pointSizeF() * 1.15)
        self.result_label.setFont(big)
        self.result_label.setVisible(False)

        self.buttons = QDialogButtonBox()
        self.go_button = QPushButton("Roll")
        self.go_button.setObjectName("go")
        self.go_button.setDefault(True)
        self.go_button.setToolTip("Apply the action with these dice (Enter)")
        self.buttons.addButton(self.go_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.go_button.clicked.connect(self._go)
        self.close_button.clicked.connect(self.reject)

    # --- the form ---------------------------------------------------------------------------
    def current_form(self) -> ActionForm | None:
        row = self.form_box.currentIndex()
        return self._forms[row] if 0 <= row < len(self._forms) else None

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, widget in self._inputs.items():
            if isinstance(widget, QComboBox):
                out[name] = widget.currentData()
            elif isinstance(widget, QSpinBox):
                out[name] = widget.value()
            elif isinstance(widget, QCheckBox):
                out[name] = widget.isChecked()
            elif isinstance(widget, QLineEdit):
                out[name] = widget.text()
        return out

    def input(self, name: str) -> QWidget | None:
        return self._inputs.get(name)

    def _form_chosen(self, row: int) -> None:
        while self.fields_layout.rowCount():
            self.fields_layout.removeRow(0)
        self._inputs = {}
        self._show_cap("")
        form = self.current_form()
        if form is None:
            self.fields_box.setVisible(False)
            self._update_preview()
            return
        self.form_reason.setText(form.reason)
        self.form_reason.setVisible(bool(form.reason))
        for fld in form.fields:
            widget = self._widget_for(fld)
            widget.setObjectName(f"field-{fld.name}")
            widget.setToolTip(plain_tip(fld.tooltip))
            self._inputs[fld.name] = widget
            self.fields_layout.addRow(f"{fld.label}:", widget)
        self.fields_box.setVisible(bool(form.fields))
        # An action that rolls nothing (holding a turn) offers no dice to roll or type; one
        # whose roll waits on the roll panel takes its dice there.
        self.preview_box.setTitle("Before the roll" if form.rolls else "What it does")
        for widget in (self.app_rolls, self.typed, self.dice_edit):
            widget.setVisible(self._dice_here(form))
        self.roll_waits_note.setVisible(form.rolls and form.roll_waits)
        self.go_button.setEnabled(form.enabled)
        self.go_button.setToolTip(plain_tip(f"{form.title} (Enter)"))
        self._update_preview()
        # Fit the new form: a shorter one must not keep the height of the one before
        # (an empty band above the preview). Again once the new fields have settled in:
        # their size hints are only final after the event loop has shown them.
        self.adjustSize()
        QTimer.singleShot(0, self, self.adjustSize)

    def _widget_for(self, fld: FormField) -> QWidget:
        value = self._preset.get(fld.name, fld.default)
        if fld.kind == "choice":
            box = QComboBox()
            for key, label in fld.choices:
                box.addItem(label, key)
            found = box.findData(value)
            box.setCurrentIndex(found if found >= 0 else 0)
            box.currentIndexChanged.connect(self._update_preview)
            return box
        if fld.kind == "number":
            spin = CappedSpinBox()
            spin.setRange(fld.minimum, max(fld.maximum, fld.minimum))
            spin.setValue(int(value) if isinstance(value, int) else fld.minimum)
            spin.valueChanged.connect(self._update_preview)
            # The field's own note says why the most is what it is ("never past burst").
            spin.capped.connect(lambda typed, f=fld, s=spin: self._show_cap(
                s.cap_text(typed, f.label) + (f" ({f.tooltip})" if f.tooltip else "")))
            spin.lineEdit().textEdited.connect(lambda _text: self._show_cap(""))
            return spin
        if fld.kind == "flag":
            check = QCheckBox()
            check.setChecked(bool(value))
            check.toggled.connect(self._update_preview)
            return check
        edit = QLineEdit("" if value is None else str(value))
        edit.textChanged.connect(self._update_preview)
        return edit

    def _show_cap(self, text: str) -> None:
        self.cap_note.setText(text)
        self.cap_note.setVisible(bool(text))

    # --- preview and go -----------------------------------------------------------------------
    @staticmethod
    def _dice_here(form: ActionForm) -> bool:
        """Whether this dialog offers the form's dice (it rolls them at once)."""
        return form.rolls and not form.roll_waits

    def typed_dice(self) -> list[list[int]]:
        form = self.current_form()
        if not self.typed.isChecked() or (form is not None and not self._dice_here(form)):
            return []
        return parse_typed_dice(self.dice_edit.text())

    def _update_preview(self, *_: object) -> None:
        form = self.current_form()
        if form is None:
            self._show_error("This fighter has nothing to do right now.")
            self.go_button.setEnabled(False)
            return
        preview = self._preview(form.id, self.values())
        self.preview_lines.setText("\n".join(preview.lines))
        self.preview_lines.setVisible(bool(preview.lines))
        # Percentages first, for a glance; the exact fractions in the tooltip.
        # Plain text: the labels name fighters, whose names come from files.
        self.odds_label.setText("\n".join(f"{o.rounded}  {o.label}" for o in preview.odds))
        self.odds_label.setToolTip(plain_tip("\n".join(
            f"{o.label}: exactly {o.exact} ({o.percent})" for o in preview.odds)))
        self.odds_label.setVisible(bool(preview.odds))
        self.go_button.setText(form.verb or ("Roll" if preview.odds else "Apply"))
        problem = preview.error or (form.reason if not form.enabled else None)
        if not form.enabled and not problem:
            problem = "This cannot be done right now."
        if problem is None and self.typed.isChecked() and self._dice_here(form):
            try:
                parse_typed_dice(self.dice_edit.text())
            except ValueError as exc:
                problem = str(exc)
        self._show_error(problem)
        # A form with nothing to tell before it is applied (a move) shows no empty box.
        self.preview_box.setVisible(bool(preview.lines or preview.odds or problem
                                         or not self.roll_waits_note.isHidden()))
        self.go_button.setEnabled(form.enabled and problem is None and not self.done_sentence)

    def _show_error(self, text: str | None) -> None:
        self.error.setText(text or "")
        self.error.setVisible(bool(text))

    def _go(self) -> None:
        form = self.current_form()
        if form is None or self.done_sentence:
            return
        try:
            dice = self.typed_dice()
        except ValueError as exc:
            self._show_error(str(exc))
            return
        ok, sentence = self._submit(form.id, self.values(), dice)
        if not ok:
            self._show_error(sentence)
            return
        # Applied: one click is enough. The dialog goes; the sentence stays in the log
        # and the window's status bar (done_sentence).
        self.done_sentence = sentence
        self.result_label.setText(sentence)
        self._show_error(None)
        self.go_button.setVisible(False)
        self.accept()
