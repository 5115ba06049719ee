"""Fight > Ruleset Options: the per-fight options of the fight's ruleset, one input each.

An option is a per-fight ruleset setting the GM can change (docs/rulesets/README.md#options).
The inputs
come from the ruleset's options model (so a new ruleset needs no dialog code); OK emits
the changed values, which the main window applies as one logged, undoable ``Edits`` of
``SetOption`` commands (one undo step, all or none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from .form_fields import FieldEditor, model_specs

if TYPE_CHECKING:
    from pydantic import BaseModel


class OptionsDialog(QDialog):
    """One input per option, set to the fight's current value."""

    optionsChosen = Signal(list)  # [(option name, new value), ...] for the changed ones

    def __init__(self, options: BaseModel, ruleset_title: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{ruleset_title} options for this fight")
        self.setMinimumWidth(480)
        self._options = options
        layout = QVBoxLayout(self)
        intro = QLabel("These change how the rules are read in this fight only; each "
                       "change is logged and can be undone.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        fields = type(options).model_fields
        self.editors: dict[str, FieldEditor] = {}
        for spec in model_specs(type(options)):
            editor = FieldEditor(spec, self)
            editor.set_value(getattr(options, spec.name))
            help_text = fields[spec.name].description
            layout.addWidget(editor)
            if help_text:
                editor.input.setToolTip(help_text)
                editor.label.setToolTip(help_text)
                # Said under the input too: a GM at the table does not hover to find out.
                caption = QLabel(help_text)
                caption.setWordWrap(True)
                caption.setForegroundRole(QPalette.ColorRole.PlaceholderText)
                caption.setContentsMargins(20, 0, 0, 6)
                layout.addWidget(caption)
            self.editors[spec.name] = editor
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.buttons = buttons
        # Wrapped captions need their height for the dialog's width, which a window's
        # first size does not ask for: ask the layout, and keep that as the minimum.
        height = layout.totalHeightForWidth(self.minimumWidth())
        if height > 0:
            self.setMinimumHeight(height)
            self.resize(self.minimumWidth(), height)

    def changes(self) -> list[tuple[str, Any]]:
        return [(name, editor.value()) for name, editor in self.editors.items()
                if editor.value() != getattr(self._options, name)]

    def accept(self) -> None:
        self.optionsChosen.emit(self.changes())
        super().accept()
