"""Run something once the event loop is free after a window has painted.

The start-up uses it to load the fight right after the first paint and to say "ready"
once the fight is on screen; autosave uses it to write a new fight's first snapshot
after the fight is shown rather than before.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

# If the window gets no paint event (hidden, or started minimized), run anyway.
FALLBACK_MS = 300


def after_first_paint(window: QWidget, callback: Callable[[], None]) -> None:
    """Call ``callback`` once, as soon as the event loop is free after ``window``'s first
    paint (a zero timer started right after ``show()`` would run before the paint)."""
    _after_paint(window, callback, children=False)


def after_next_paint(window: QWidget, callback: Callable[[], None]) -> None:
    """Call ``callback`` once the event loop is free after the next repaint of ``window``
    and the widgets in it (what showing a fight repaints is mostly child widgets)."""
    _after_paint(window, callback, children=True)


def _after_paint(window: QWidget, callback: Callable[[], None], *, children: bool) -> None:
    """Watch ``window``'s paints and call ``callback`` once after the first one; a
    fallback timer calls it anyway should no paint come (a hidden window).

    With ``children``, the window's update request counts too: Qt repaints every dirty
    widget of a window while it handles that one event, so a zero timer started then
    runs after they are all painted. Only the window itself is watched: an
    application-wide filter would hand PySide6 objects it has no wrapper for (Qt's
    internal window objects), and finding their type makes it set up hundreds of
    classes and enums, about 10 ms at start-up.
    """
    done = False
    wanted = (QEvent.Type.Paint, QEvent.Type.UpdateRequest) if children else (QEvent.Type.Paint,)

    def fire() -> None:
        nonlocal done
        if not done:
            done = True
            window.removeEventFilter(watcher)
            watcher.deleteLater()  # a window that shows many fights keeps no old watchers
            callback()

    class PaintWatcher(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() in wanted:
                QTimer.singleShot(0, self, fire)
            return False

    # The watcher is the window's child: were the window closed and deleted first, its
    # timers go with it and nothing runs.
    watcher = PaintWatcher(window)
    window.installEventFilter(watcher)
    QTimer.singleShot(FALLBACK_MS, watcher, fire)
