"""Which ruleset? The question File > New Fight and the library's New both ask: one row per
ruleset, its title and one line on what it is (and whether its rules are built yet).

A small shared dialog, kept apart so that no widget imports another widget's module.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fightdesk.engine import rulesets as registry
from fightdesk.engine.ruleset import get_ruleset


class RulesetChoice(QDialog):
    """A list of the rulesets with a line each; ``chosen()`` is the id picked."""

    def __init__(self, title: str, prompt: str, preselect: str | None = None,
                 parent: QWidget | None = None, *, name: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("rulesetChoice")
        label = QLabel(prompt)
        label.setTextFormat(Qt.TextFormat.PlainText)
        self.list = QListWidget()
        self.list.setObjectName("rulesetList")
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        for info in registry.registered().values():
            built = get_ruleset(info.id).rules.rules_built
            state = "" if built else "\nRules not built yet: fighters and editing only"
            item = QListWidgetItem(f"{info.title}\n{info.blurb}{state}")
            item.setData(Qt.ItemDataRole.UserRole, info.id)
            item.setToolTip(f"{info.title} ({info.id}): {info.blurb}\n"
                            f"Its rules: docs/rulesets/{info.id}.md")
            self.list.addItem(item)
            if info.id == preselect:
                self.list.setCurrentItem(item)
        for _, line in registry.BROKEN:  # a plugin that failed to load: named, not offered
            item = QListWidgetItem(line)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(item)
        if self.list.currentItem() is None:
            self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.list.setAccessibleName("Ruleset")
        label.setBuddy(self.list)
        layout = QVBoxLayout(self)
        # A new fight is named here too, so it never starts as a row of "New fight"s.
        self.name_edit: QLineEdit | None = None
        if name is not None:
            self.name_edit = QLineEdit(name)
            self.name_edit.setObjectName("fightName")
            self.name_edit.setAccessibleName("Fight name")
            self.name_edit.selectAll()
            form = QFormLayout()
            form.addRow("Fight &name:", self.name_edit)
            layout.addLayout(form)
        layout.addWidget(label)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.resize(520, 360)

    def chosen(self) -> str | None:
        item = self.list.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def chosen_name(self) -> str:
        """The fight's name as typed (the default when left empty)."""
        text = self.name_edit.text().strip() if self.name_edit is not None else ""
        return text or "New fight"


def ask_ruleset(parent: QWidget | None, title: str, prompt: str,
                preselect: str | None = None) -> str | None:
    """Ask modally; the ruleset id, or None when the GM cancels."""
    dialog = RulesetChoice(title, prompt, preselect, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.chosen()


def ask_new_fight(parent: QWidget | None, preselect: str | None = None,
                  ) -> tuple[str, str] | None:
    """File > New Fight's question: the fight's name and its ruleset, in one dialog;
    ``(ruleset id, name)``, or None when the GM cancels."""
    dialog = RulesetChoice("New Fight", "Which rules does this fight use?", preselect,
                           parent, name="New fight")
    if dialog.name_edit is not None:
        dialog.name_edit.setFocus()
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    chosen = dialog.chosen()
    return (chosen, dialog.chosen_name()) if chosen is not None else None
