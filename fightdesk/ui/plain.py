"""Text from files is data: shown as plain text in every widget, tooltip and dialog.

Qt guesses whether a string is rich text (``Qt::mightBeRichText``) wherever the format
is not set: a fighter named ``<b>Bold</b>`` would be drawn in bold, ``<img src=x>`` as a
broken image. Labels and message boxes here are told the text is plain; tooltips (which
have no format of their own) get the text converted to rich text that shows it as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QWidget

if TYPE_CHECKING:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

# ``Qt`` and ``QMessageBox`` are imported where they are used, not here: importing a
# PySide6 class builds its enum classes (the ``Qt`` namespace about a hundred), and the
# window's frame imports this module before its first paint (docs/startup.md).


def _plain() -> Qt.TextFormat:
    from PySide6.QtCore import Qt

    return Qt.TextFormat.PlainText


def plain_label(text: str = "", parent: QWidget | None = None, *, wrap: bool = False) -> QLabel:
    label = QLabel(parent)
    label.setTextFormat(_plain())
    label.setText(text)
    label.setWordWrap(wrap)
    return label


def plain_tip(text: str | None) -> str:
    """A tooltip that shows ``text`` exactly (empty stays empty: no tooltip)."""
    if not text:
        return ""
    return shown_as_is(text)


def shown_as_is(text: str) -> str:
    """Rich text that shows ``text`` exactly, for the places that guess the format and
    cannot be told (tooltips, an input dialog's label, an informative text)."""
    from PySide6.QtGui import Qt as GuiQt  # convertFromPlainText is QtGui's

    return GuiQt.convertFromPlainText(text, GuiQt.WhiteSpaceMode.WhiteSpaceNormal)


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str,
                informative: str = "",
                buttons: QMessageBox.StandardButton | None = None) -> QMessageBox:
    """A message box whose texts are plain text, whatever they hold (an OK button unless
    ``buttons`` says otherwise)."""
    from PySide6.QtWidgets import QMessageBox

    if buttons is None:
        buttons = QMessageBox.StandardButton.Ok
    box = QMessageBox(icon, title, "", buttons, parent)
    box.setTextFormat(_plain())
    box.setText(text)
    if informative:
        # Qt 6 shows the informative text in the box's text format (plain, above); the
        # label that shows it is made plain as well, so no Qt version reads it as markup.
        box.setInformativeText(informative)
        for label in box.findChildren(QLabel):
            if label.text() == informative:
                label.setTextFormat(_plain())
    return box


def warn(parent: QWidget | None, title: str, text: str) -> None:
    """QMessageBox.warning, with the text shown as plain text."""
    from PySide6.QtWidgets import QMessageBox

    message_box(parent, QMessageBox.Icon.Warning, title, text).exec()


def confirm(parent: QWidget | None, title: str, text: str) -> bool:
    """QMessageBox.question (Yes/No), with the text shown as plain text."""
    from PySide6.QtWidgets import QMessageBox

    box = message_box(parent, QMessageBox.Icon.Question, title, text, buttons=(
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No))
    return box.exec() == QMessageBox.StandardButton.Yes
