"""Tool buttons that follow their action without gathering connections.

From Qt 6.10 on (6.11.3 too) every ``QToolButton.setDefaultAction`` connects the
action's ``changed`` signal to the button once more, and the button calls it again on
every change of its action (text, enabled, tip). The Undo button's text changes with
every step, so a long fight gathered one connection per step: memory that grew without
end, and each change ran every connection made before it (the soak benchmark,
benchmarks/soak.py, found it). The filter takes the button's earlier ``changed`` connections off just
before Qt makes its new one, so a button keeps the one connection its first
``setDefaultAction`` made, whatever Qt version draws it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMetaMethod, QObject
from PySide6.QtGui import QActionEvent
from PySide6.QtWidgets import QToolBar, QToolButton


class _OneConnection(QObject):
    """Before a button re-reads its changed action, drop what the last reading connected."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.ActionChanged and isinstance(event, QActionEvent)
                and isinstance(watched, QToolButton)):
            action = event.action()
            if action is watched.defaultAction():
                QObject.disconnect(action, QMetaMethod.fromSignal(action.changed), watched,
                                   QMetaMethod())
        return False  # the button still handles the change itself


def keep_button_lean(button: QToolButton) -> None:
    """``button`` (with a default action) keeps one ``changed`` connection however often
    its action changes."""
    button.installEventFilter(_OneConnection(button))


def keep_bar_lean(bar: QToolBar) -> None:
    """The same for every button ``bar`` made for its actions so far."""
    for action in bar.actions():
        button = bar.widgetForAction(action)
        if isinstance(button, QToolButton):
            keep_button_lean(button)
