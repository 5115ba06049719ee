"""Dialogs that fit the screen: on a small laptop screen (1093x614 is a common one) a
dialog sized for a big one ran off the bottom, its OK and Cancel out of reach. A dialog
asks here for its size; what does not fit scrolls inside it instead of growing it."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# Room left for the window manager's frame and title bar around a dialog.
FRAME_W = 24
FRAME_H = 56


def available(widget: QWidget) -> QRect:
    """The part of the widget's screen a window may use (without panels and docks)."""
    parent = widget.parentWidget()
    screen = (parent.screen() if parent is not None else None) or widget.screen() \
        or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fit_to_screen(widget: QWidget, width: int, height: int, *, cap: bool = True) -> None:
    """Size ``widget`` to ``width`` x ``height`` or its screen's room, the smaller; with
    ``cap`` it never grows past that room either (its contents scroll)."""
    area = available(widget)
    room_w = max(200, area.width() - FRAME_W)
    room_h = max(200, area.height() - FRAME_H)
    if cap:
        widget.setMaximumSize(room_w, room_h)
    widget.resize(min(width, room_w), min(height, room_h))
