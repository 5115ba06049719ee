"""The campaign library's dock in the window: built once the first fight is shown, put
back where the GM left it, stepping aside during rounds, and its fighters dropped on
the window join the fight (through ui/operations.py, like any action).

The panel itself (ui/library_panel.py) is imported when the dock is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence

from . import operations, settings

if TYPE_CHECKING:
    from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent

    from fightdesk.engine.commands import Command

    from .library_panel import LibraryPanel
    from .main_window import MainWindow


class LibraryDock(QObject):
    """The window's library dock (``window.library_panel``, ``window.library_dock``)."""

    def __init__(self, window: MainWindow) -> None:
        # A child of the window: it goes with the window.
        super().__init__(window)
        self.w = window
        self._scheduled = False
        self._auto_hidden = False
        self.in_rounds_action: QAction | None = None

    def schedule(self) -> None:
        """After the first fight is on screen, build the dock (unless a staged start
        builds it itself)."""
        w = self.w
        if w.library_after_first_fight and w.library_panel is None and not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(0, w, w.add_library_panel)

    def build(self, library: object | None = None) -> LibraryPanel:
        """Build the campaign library dock (once); ``library`` is a storage ``Library``
        (the GM's data folder by default)."""
        from PySide6.QtCore import QByteArray
        from PySide6.QtWidgets import QDockWidget

        w = self.w
        if w.library_panel is not None:
            return w.library_panel
        from PySide6.QtCore import Qt

        from .library_panel import LibraryPanel
        from .main_window import set_tip

        panel = LibraryPanel(library, w)  # type: ignore[arg-type]
        w.library_panel = panel
        dock = QDockWidget("Campaign library", w)
        dock.setObjectName("LibraryPanelDock")
        dock.setWidget(panel)
        # Put it back where the GM left it: Qt restores a dock made after restoreState()
        # instead of adding it (adding first would leave it hidden).
        state = w.placement.saved_state
        saved = isinstance(state, QByteArray) and not state.isEmpty()
        restored = saved and w.restoreDockWidget(dock)
        if not restored:
            w.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
            w.resizeDocks([dock], [380], Qt.Orientation.Horizontal)
        # Hidden for the round at the last quit (not by the GM): back after the round.
        self._auto_hidden = w.placement.library_auto_hidden and not dock.isVisibleTo(w)
        toggle = dock.toggleViewAction()
        toggle.setShortcut(QKeySequence("Ctrl+Shift+L"))
        set_tip(toggle, "Show or hide the campaign library")
        w.view_menu.insertAction(w.reset_layout_separator, toggle)
        w.library_dock = dock
        # During a round the library gives its room to the timeline and the cards, and
        # comes back between rounds; the GM may turn that off (remembered).
        action = QAction("Hide Library During &Rounds", w)
        action.setCheckable(True)
        action.setChecked(
            bool(settings.app_settings().value("view/hide_library_in_rounds", True, type=bool)))
        action.toggled.connect(self.in_rounds_changed)
        w.view_menu.insertAction(w.reset_layout_separator, action)
        self.in_rounds_action = w.library_in_rounds_action = action
        w.views.show_views(auto_open=False)
        if restored or w.placement.saved_widths:  # at the widths it and the log had (Qt's
            w.placement.fit_docks_soon()  # state alone gets them wrong: docks added late)
        panel.addToEncounter.connect(self.add_from_library)
        panel.message.connect(lambda text: w.statusBar().showMessage(text, 8000))
        panel.set_encounter_source(
            lambda: w.document.engine.encounter if w.document.engine else None)
        # The library shows the open fight's ruleset, and says when a fighter cannot join.
        w.document.replaced.connect(panel.follow_fight)
        panel.follow_fight()
        return panel

    def in_rounds_changed(self, hide: bool) -> None:
        store = settings.app_settings()
        store.setValue("view/hide_library_in_rounds", hide)
        store.sync()
        self.follow_round(self.w.views.round_going)

    def follow_round(self, going: bool) -> None:
        """Hide the library dock while a round is going (if the GM wants that), and
        bring it back after the round if it was this that hid it."""
        dock = self.w.library_dock
        if dock is None or dock.isFloating() or self.in_rounds_action is None:
            return
        hide = self.in_rounds_action.isChecked()
        if going and hide and dock.isVisible():
            dock.hide()
            self._auto_hidden = True
        elif (not going or not hide) and self._auto_hidden:
            self._auto_hidden = False
            dock.show()

    def forget_auto_hidden(self) -> None:
        self._auto_hidden = False

    @property
    def auto_hidden(self) -> bool:
        """The dock is hidden for the round (not by the GM): it comes back after it."""
        return self._auto_hidden

    def add_from_library(self, command: Command) -> None:
        """Fighters from the library join the fight through the engine, like any action."""
        w = self.w
        if w.document.engine is None:
            w.statusBar().showMessage("Open or start a fight first", 8000)
            return
        w.gm.show_outcome(operations.apply(w.document, command))

    # --- fighters dragged onto the window --------------------------------------------------
    def accepts(self, event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> bool:
        from fightdesk.storage.library import FIGHTER_MIME

        w = self.w
        if not event.mimeData().hasFormat(FIGHTER_MIME) or w.document.engine is None:
            return False
        dock = w.library_dock
        # Dropping back onto the library itself adds nothing.
        if dock is not None and dock.isVisible():
            where = dock.mapFrom(w, event.position().toPoint())
            if dock.rect().contains(where):
                return False
        return True

    def drop(self, event: QDropEvent) -> None:
        from fightdesk.storage.library import FIGHTER_MIME, LibraryError, commands_from_drag

        w = self.w
        if not self.accepts(event):
            event.ignore()
            return
        try:
            commands = commands_from_drag(bytes(event.mimeData().data(FIGHTER_MIME).data()))
        except LibraryError as exc:
            w.gm.show_refusal(str(exc))
            event.ignore()
            return
        event.acceptProposedAction()
        outcome = operations.add_all(w.document, commands)
        if outcome is not None:
            w.gm.show_outcome(outcome)
