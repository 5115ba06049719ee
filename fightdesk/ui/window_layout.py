"""Where the window and its docks go: the layout the GM left, kept and put back.

The window's geometry and its docks' state are saved at quit (``window.ini``, via
ui/settings.py) and restored at start; on a small screen the side docks give way so
that the whole timeline shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from . import settings

if TYPE_CHECKING:
    from .main_window import MainWindow


class WindowLayout(QObject):
    """The window's size, place and docks (``window.placement``)."""

    def __init__(self, window: MainWindow) -> None:
        # A child of the window (made before its document): its slots are cut off
        # with the window, before the document's last signals.
        super().__init__(window)
        self.w = window
        self.saved_state: object = None

    def restore_geometry(self) -> None:
        """Size and place the window as the GM left it; the docks follow in build_body."""
        w = self.w
        store = settings.app_settings()
        geometry = store.value("window/geometry")
        restored = False
        if geometry is not None:  # (a first start has none: nothing more to import)
            from PySide6.QtCore import QByteArray

            if isinstance(geometry, QByteArray) and not geometry.isEmpty():
                w.restoreGeometry(geometry)
                restored = True
        if not restored:
            w.resize(1280, 800)
        self.saved_state = store.value("window/state")

    def restore_docks(self) -> None:
        """Put the docks back where the GM left them (call after every dock is added)."""
        from PySide6.QtCore import QByteArray

        state = self.saved_state
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.w.restoreState(state)

    def save(self) -> None:
        w = self.w
        store = settings.app_settings()
        store.setValue("window/geometry", w.saveGeometry())
        if w.body_built:  # a frame closed before its docks exist keeps the old layout
            store.setValue("window/state", w.saveState())
        store.sync()

    def reset(self) -> None:
        """View > Reset Layout: filled in below."""

    def window_resized(self) -> None:
        if self.w.body_built:
            QTimer.singleShot(0, self.w, self.give_way_to_timeline)

    def give_way_to_timeline(self) -> None:
        """On a small screen the side docks narrow (down to what they need) so that the
        whole timeline shows without scrolling sideways; the log dock keeps its place,
        the library dock gives way first."""
        from PySide6.QtCore import Qt

        w = self.w
        need = w.timeline.comfortable_width()
        have = w.centralWidget().width() if w.centralWidget() is not None else 0
        if have >= need:
            return
        short = need - have
        docks = [d for d in (w.library_dock, getattr(w, "log_dock", None))
                 if d is not None and d.isVisible() and not d.isFloating()]
        sizes: list[int] = []
        for dock in docks:
            least = max(dock.minimumSizeHint().width(), 200)
            give = max(0, min(short, dock.width() - least))
            short -= give
            sizes.append(dock.width() - give)
        if docks:
            w.resizeDocks(docks, sizes, Qt.Orientation.Horizontal)
        if short > 0 and w.library_dock is not None and w.library_dock.isVisible() \
                and not w.library_dock.isFloating():
            # Still not enough: the library tabs in with the log (a click brings it up).
            log_dock = getattr(w, "log_dock", None)
            if log_dock is not None and log_dock.isVisible() and not log_dock.isFloating():
                w.tabifyDockWidget(log_dock, w.library_dock)
                log_dock.raise_()
