"""Which ruleset? The question File > New Fight and the library's New both ask: one row per
ruleset, its title and one line on what it is (and whether its rules are built yet).

A small shared dialog, kept apart so that no widget imports another widget's module.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)


class RulesetChoice(QDialog):
    """A list of the rulesets with a line each; ``chosen()`` is the id picked."""

    def __init__(self, title: str, prompt: str, preselect: str | None = None,
                 parent: QWidget | None = None) -> None:
        from fightdesk.engine.ruleset import get_ruleset
        from fightdesk.engine.rulesets import BROKEN, registered

        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("rulesetChoice")
        label = QLabel(prompt)
        label.setTextFormat(Qt.TextFormat.PlainText)
        self.list = QListWidget()
        self.list.setObjectName("rulesetList")
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        for info in registered().values():
            built = get_ruleset(info.id).rules_built
            state = "" if built else "\nRules not built yet: fighters and editing only"
            item = QListWidgetItem(f"{info.title}\n{info.blurb}{state}")
            item.setData(Qt.ItemDataRole.UserRole, info.id)
            item.setToolTip(f"{info.title} ({info.id}): {info.blurb}\n"
                            f"Its rules: docs/rulesets/{info.id}.md")
            self.list.addItem(item)
            if info.id == preselect:
                self.list.setCurrentItem(item)
        for _, line in BROKEN:  # a plugin that failed to load: named, not offered
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
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.resize(520, 360)

    def chosen(self) -> str | None:
        item = self.list.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None


def ask_ruleset(parent: QWidget | None, title: str, prompt: str,
                preselect: str | None = None) -> str | None:
    """Ask modally; the ruleset id, or None when the GM cancels."""
    dialog = RulesetChoice(title, prompt, preselect, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.chosen()
