"""Where the window and its docks go: the layout the GM left, kept and put back.

The window's geometry and its docks' state are saved at quit (``window.ini``, via
ui/settings.py) and restored at start; on a small screen the side docks give way so
that the whole timeline shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRect, QTimer

from . import settings

if TYPE_CHECKING:
    from .main_window import MainWindow


#: The default size of a first start (fitted to the screen).
DEFAULT_SIZE = (1280, 800)
#: The docks' widths at a first start and after Reset Layout.
DEFAULT_WIDTHS = {"FightLogDock": 330, "LibraryPanelDock": 380}


def available_screens() -> list[QRect]:
    """The screens' available rectangles (a test may give its own)."""
    from PySide6.QtGui import QGuiApplication

    return [screen.availableGeometry() for screen in QGuiApplication.screens()]


def fit_to_screens(rect: QRect, screens: list[QRect]) -> QRect:
    """``rect`` moved and shrunk to lie on one screen: the screen it overlaps most (the
    first when it overlaps none), so a window saved on a screen that is gone, or partly
    off one, comes back whole."""
    if not screens:
        return QRect(rect)
    screen = max(screens, key=lambda s: _area(s.intersected(rect)))
    if _area(screen.intersected(rect)) == 0:
        screen = screens[0]
    width = min(rect.width(), screen.width())
    height = min(rect.height(), screen.height())
    x = min(max(rect.x(), screen.x()), screen.x() + screen.width() - width)
    y = min(max(rect.y(), screen.y()), screen.y() + screen.height() - height)
    return QRect(x, y, width, height)


def _area(rect: QRect) -> int:
    return max(0, rect.width()) * max(0, rect.height()) if rect.isValid() else 0


def checked_widths(widths: dict[str, int], window_width: int) -> dict[str, int]:
    """Saved dock widths as the window can take them: none wider than half the window."""
    half = max(0, window_width // 2)
    return {name: max(100, min(int(width), half)) for name, width in widths.items()}


class WindowLayout(QObject):
    """The window's size, place and docks (``window.placement``)."""

    saved_widths: dict[str, int]
    library_auto_hidden: bool

    def __init__(self, window: MainWindow) -> None:
        # A child of the window: it goes with the window.
        super().__init__(window)
        self.w = window
        self.saved_state: object = None
        self.saved_widths = {}
        self.library_auto_hidden = False
        # The timeline gave some of its height to the cards while a panel is open.
        self._timeline_gave_way = False

    def restore_geometry(self) -> None:
        """Size and place the window as the GM left it, whole on a screen there is now;
        the docks follow in build_body."""
        w = self.w
        store = settings.app_settings()
        rect = _rect(store.value("window/rect"))
        frame = _rect(store.value("window/frame"), empty=True) or QRect()
        if rect is None:
            geometry = store.value("window/geometry")  # (as kept before the rect was)
            if geometry is not None:  # (a first start has none: nothing more to import)
                from PySide6.QtCore import QByteArray

                if isinstance(geometry, QByteArray) and not geometry.isEmpty():
                    w.restoreGeometry(geometry)
                    rect = w.geometry()
        screens = available_screens()
        if rect is None:  # a first start: the default size, as much of it as the screen has
            width, height = DEFAULT_SIZE
            if screens:
                width, height = min(width, screens[0].width()), min(height, screens[0].height())
            w.resize(width, height)
        else:  # the frame on screen too: the client rect grown by the last run's frame
            grown = rect.adjusted(-frame.x(), -frame.y(), frame.width(), frame.height())
            fitted = fit_to_screens(grown, screens)
            w.setGeometry(fitted.adjusted(frame.x(), frame.y(), -frame.width(), -frame.height()))
        if str(store.value("window/maximized", "false")).lower() == "true":
            from PySide6.QtCore import Qt

            w.setWindowState(w.windowState() | Qt.WindowState.WindowMaximized)
        self.saved_state = store.value("window/state")
        self.saved_widths = _widths(store.value("window/dock_widths"))
        self.library_auto_hidden = str(
            store.value("view/library_auto_hidden", "false")).lower() == "true"

    def restore_docks(self) -> None:
        """Put the docks back where the GM left them (call after every dock is added),
        at the widths they had, checked against the window (``fit_docks``)."""
        from PySide6.QtCore import QByteArray

        state = self.saved_state
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.w.restoreState(state)
        if self.saved_widths:  # (a first start's docks are as they were made)
            self.fit_docks_soon()

    def fit_docks_soon(self) -> None:
        """``fit_docks`` once the window has laid out the docks just put back (a dock
        resized before that is laid out again from the restored state)."""
        QTimer.singleShot(0, self.w, self.fit_docks)

    def fit_docks(self) -> None:
        """Each shown dock at the width the GM left it (the default one at a first start),
        none wider than half the window; then the timeline gets its room."""
        from PySide6.QtCore import Qt

        w = self.w
        if not w.body_built:
            return
        wanted = {**DEFAULT_WIDTHS, **self.saved_widths}
        docks = [d for d in self._side_docks() if d.isVisible() and d.objectName() in wanted]
        widths = checked_widths({d.objectName(): wanted[d.objectName()] for d in docks}, w.width())
        if any(d.width() != widths[d.objectName()] for d in docks):  # (a resize lays out)
            w.resizeDocks(docks, [widths[d.objectName()] for d in docks], Qt.Orientation.Horizontal)
        # Once the docks have their widths: the timeline's room is read from the layout.
        QTimer.singleShot(0, w, self.give_way_to_timeline)

    def _side_docks(self) -> list:
        w = self.w
        return [d for d in (w.library_dock, getattr(w, "log_dock", None))
                if d is not None and not d.isFloating()]

    def save(self) -> None:
        w = self.w
        store = settings.app_settings()
        store.setValue("window/geometry", w.saveGeometry())
        normal = w.normalGeometry() if w.isMaximized() else w.geometry()
        store.setValue("window/rect", f"{normal.x()},{normal.y()},{normal.width()},{normal.height()}")
        store.setValue("window/maximized", "true" if w.isMaximized() else "false")
        outer, inner = w.frameGeometry(), w.geometry()  # (left, top, right, bottom)
        store.setValue("window/frame", f"{inner.x() - outer.x()},{inner.y() - outer.y()},"
                       f"{outer.right() - inner.right()},{outer.bottom() - inner.bottom()}")
        if w.body_built:  # a frame closed before its docks exist keeps the old layout
            store.setValue("window/state", w.saveState())
            widths = {d.objectName(): d.width() for d in self._side_docks()
                      if d.isVisible() or (d is w.library_dock and w.library.auto_hidden)}
            kept = {**self.saved_widths, **widths}
            store.setValue("window/dock_widths",
                           ",".join(f"{name}={width}" for name, width in kept.items()))
            store.setValue("view/library_auto_hidden",
                           "true" if w.library.auto_hidden else "false")
        store.sync()

    def reset(self) -> None:
        """View > Reset Layout: the docks and bars where a first start puts them (the log
        on the right, the library on the left, the round bar above, the dice below), at
        their first widths, every one shown; the window keeps its size and place."""
        from PySide6.QtCore import Qt

        w = self.w
        if not w.body_built:
            return
        w.addToolBar(Qt.ToolBarArea.TopToolBarArea, w.round_bar)
        w.addToolBar(Qt.ToolBarArea.BottomToolBarArea, w.dice_toolbar)
        for bar in (w.round_bar, w.dice_toolbar):
            bar.show()
        for dock, side in ((w.log_dock, Qt.DockWidgetArea.RightDockWidgetArea),
                           (w.library_dock, Qt.DockWidgetArea.LeftDockWidgetArea)):
            if dock is None:
                continue
            dock.setFloating(False)
            w.addDockWidget(side, dock)
            dock.show()
        self.saved_widths = {}
        w.library.forget_auto_hidden()
        w.views.refit_timeline()
        w.library.follow_round(w.views.round_going)
        self.fit_docks()
        self.fit_docks_soon()

    def room_for_cards(self) -> None:
        """An open roll panel or question sits above the cards: the timeline gives way
        (down to its least, it scrolls) so that the cards keep room for the card of
        whoever acts; once the panels close, the timeline gets its own height back."""
        w = self.w
        if not w.body_built:
            return
        panels = [p for p in (w.roll_panel, w.decision_panel) if not p.isHidden()]
        sizes = w.splitter.sizes()
        if len(sizes) != 2 or sum(sizes) <= 0:
            return
        if not panels:
            if self._timeline_gave_way:
                self._timeline_gave_way = False
                w.views.refit_timeline()
            return
        lower = w.splitter.widget(1)
        layout = lower.layout() if lower is not None else None
        spacing = layout.spacing() if layout is not None else 0
        # A panel's wrapped lines take the height they need at the panel's width (its
        # size hint is worked out for another width, and a squeezed panel cuts its rows).
        width = lower.width() if lower is not None else 0
        taken = sum(max(p.sizeHint().height(),
                        p.heightForWidth(width) if p.hasHeightForWidth() and width > 0 else 0)
                    + spacing for p in panels)
        short = w.cards.least_height() - (sizes[1] - taken)
        give = min(short, sizes[0] - w.timeline.minimumSizeHint().height())
        if give > 0:
            self._timeline_gave_way = True
            w.splitter.setSizes([sizes[0] - give, sizes[1] + give])
        w.cards.keep_acting_in_view()

    def window_resized(self) -> None:
        if self.w.body_built:
            QTimer.singleShot(0, self.w, self._refit_after_resize)

    def _refit_after_resize(self) -> None:
        """A smaller window: the docks narrow for the timeline, then an open roll panel or
        question keeps its height and the cards their room (the timeline gives way)."""
        self.give_way_to_timeline()
        self.room_for_cards()

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


def _rect(value: object, *, empty: bool = False) -> QRect | None:
    """A rectangle kept as "x,y,width,height" (None: none kept, or not one; ``empty``:
    four numbers of a frame's margins, which may be 0)."""
    if isinstance(value, list):  # QSettings reads a comma-separated value as a list
        value = ",".join(str(v) for v in value)
    try:
        x, y, width, height = (int(part) for part in str(value).split(","))
    except ValueError:
        return None
    if empty:
        return QRect(x, y, width, height) if min(x, y, width, height) >= 0 else None
    return QRect(x, y, width, height) if width > 0 and height > 0 else None


def _widths(value: object) -> dict[str, int]:
    """Dock widths kept as "name=width,name=width" (what cannot be read is left out)."""
    if isinstance(value, list):  # QSettings reads a comma-separated value as a list
        value = ",".join(str(v) for v in value)
    widths: dict[str, int] = {}
    for part in str(value or "").split(","):
        name, _, width = part.partition("=")
        if name.strip() and width.strip().isdigit():
            widths[name.strip()] = int(width)
    return widths
