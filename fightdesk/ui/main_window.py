"""The main window: menus, the timeline, the fighter cards, the log dock, the dice bar.

It builds the widgets, owns the :class:`FightDocument`, and wires every signal in one
place (:meth:`MainWindow._connect_signals`); the widgets never import each other.
Nothing from ``fightdesk.engine`` (or pydantic) is imported at module level, so the
window paints before the engine loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

from . import settings
from .document import FightDocument

if TYPE_CHECKING:
    from fightdesk.engine.engine import Engine

FILE_FILTER = "fightdesk sessions (*.json);;All files (*)"


class MainWindow(QMainWindow):
    """The GM's desk. ``show_session`` displays a fight; ``open_file`` loads one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setWindowTitle("fightdesk[*]")
        self.document = FightDocument(self)
        self._build_widgets()
        self._build_actions()
        self._build_menus()
        self._connect_signals()
        self._restore_layout()

    # --- building ----------------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.state_label = QLabel("No fight open")
        self.state_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(self.state_label)

    def _build_actions(self) -> None:
        def action(text: str, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                   tip: str = "") -> QAction:
            act = QAction(text, self)
            if shortcut is not None:
                act.setShortcut(QKeySequence(shortcut))
            _set_tip(act, tip or text.replace("&", "").rstrip("."))
            return act

        self.new_action = action("&New Fight...", QKeySequence.StandardKey.New, "Start a new fight")
        self.open_action = action("&Open...", QKeySequence.StandardKey.Open, "Open a saved fight")
        self.save_action = action("&Save", QKeySequence.StandardKey.Save, "Save the fight")
        self.save_as_action = action("Save &As...", "Ctrl+Shift+S", "Save the fight under a new name")
        self.quit_action = action("&Quit", QKeySequence.StandardKey.Quit, "Quit fightdesk")
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        # Undo/redo follow the engine's history through the document's QUndoStack.
        stack = self.document.undo_stack
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence("Ctrl+Z"))
        self.redo_action = stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        _set_tip(self.undo_action, "Undo the last step")
        _set_tip(self.redo_action, "Redo the step you undid")

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.file_menu.addAction(self.new_action)
        self.file_menu.addAction(self.open_action)
        self.recent_menu = QMenu("Open &Recent", self)
        self.file_menu.addMenu(self.recent_menu)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.save_action)
        self.file_menu.addAction(self.save_as_action)
        # Print and export items go between this separator and Quit.
        self.file_export_separator = self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)

        self.edit_menu = bar.addMenu("&Edit")
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addAction(self.redo_action)

        self.view_menu = bar.addMenu("&View")
        self._fill_recent_menu()

    def _connect_signals(self) -> None:
        """Every signal between the document, the widgets and the window, in one place."""
        doc = self.document
        doc.replaced.connect(self._show_state)
        doc.changed.connect(self._show_state)
        doc.pathChanged.connect(self._update_title)
        doc.undo_stack.cleanChanged.connect(self._update_title)
        doc.refused.connect(self._show_refusal)

        self.new_action.triggered.connect(self.new_fight)
        self.open_action.triggered.connect(self._ask_open)
        self.save_action.triggered.connect(self.save)
        self.save_as_action.triggered.connect(self.save_as)
        self.quit_action.triggered.connect(self.close)

    # --- docks (the library panel and others add theirs here) ----------------------------
    def add_dock(self, widget: QWidget, area: Qt.DockWidgetArea, title: str = "") -> QDockWidget:
        """Put ``widget`` in a dock with a View-menu toggle; its layout is remembered."""
        dock = QDockWidget(title or widget.windowTitle(), self)
        dock.setObjectName(f"{widget.objectName() or type(widget).__name__}Dock")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.view_menu.addAction(dock.toggleViewAction())
        return dock

    # --- the session -------------------------------------------------------------------------
    def show_session(self, engine: Engine, path: Path | None) -> None:
        """Display ``engine``'s fight; ``path`` is its file (None for a fight never saved)."""
        self.document.set_engine(engine, path)
        if path is not None:
            self._remember(path)

    def open_file(self, path: Path) -> bool:
        """Load and show a session file; a bad file gets a dialog and changes nothing."""
        from fightdesk.engine.engine import Engine
        from fightdesk.storage.files import FileProblem
        from fightdesk.storage.sessions import load_session

        path = Path(path)
        try:
            session = load_session(path)
        except FileProblem as problem:
            QMessageBox.warning(self, "Cannot open this file", _problem_text(problem))
            return False
        self.show_session(Engine(session), path)
        return True

    def save(self) -> bool:
        if self.document.engine is None:
            return False
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        if self.document.engine is None:
            return False
        start = str(self.document.path or Path.home() / f"{self.document.engine.encounter.name}.json")
        name, _ = QFileDialog.getSaveFileName(self, "Save Fight As", start, FILE_FILTER)
        if not name:
            return False
        return self._save_to(Path(name))

    def _save_to(self, path: Path) -> bool:
        from fightdesk.storage.files import FileProblem
        from fightdesk.storage.sessions import save_session

        assert self.document.engine is not None
        try:
            save_session(self.document.engine.session, path)
        except FileProblem as problem:
            QMessageBox.warning(self, "Cannot save", _problem_text(problem))
            return False
        self.document.set_path(path)
        self.document.mark_saved()
        self._remember(path)
        return True

    def new_fight(self) -> None:
        """Start an empty fight (the ruleset is chosen in a dialog)."""
        from fightdesk.engine.engine import Engine
        from fightdesk.engine.model import Encounter, Session

        if not self._may_discard():
            return
        encounter = Encounter(name="New fight")
        self.show_session(Engine(Session.begin(encounter)), None)

    # --- slots ------------------------------------------------------------------------------
    def _ask_open(self) -> None:
        if not self._may_discard():
            return
        start = str(self.document.path.parent if self.document.path else Path.home())
        name, _ = QFileDialog.getOpenFileName(self, "Open Fight", start, FILE_FILTER)
        if name:
            self.open_file(Path(name))

    def _open_recent(self, path: Path) -> None:
        if self._may_discard():
            self.open_file(path)

    def _show_state(self, *_: object) -> None:
        engine = self.document.engine
        if engine is None:
            return
        self.state_label.setText(engine.ruleset.describe_state(engine.encounter))

    def _show_refusal(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

    def _update_title(self, *_: object) -> None:
        self.setWindowTitle(f"{self.document.title}[*] - fightdesk")
        self.setWindowModified(self.document.is_modified())

    def _remember(self, path: Path) -> None:
        settings.remember_file(path)
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        for path in files:
            act = self.recent_menu.addAction(path.name)
            act.setToolTip(str(path))
            act.triggered.connect(lambda _=False, p=path: self._open_recent(p))
        self.recent_menu.setEnabled(bool(files))

    def _may_discard(self) -> bool:
        """Ask before throwing away unsaved changes; True when it is fine to go on."""
        if not self.document.is_modified():
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", f"Save the changes to {self.document.title}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # --- layout memory ------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        store = settings.app_settings()
        geometry = store.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        self._saved_state = store.value("window/state")

    def restore_docks(self) -> None:
        """Put the docks back where the GM left them (call after every dock is added)."""
        state = getattr(self, "_saved_state", None)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)

    def save_layout(self) -> None:
        store = settings.app_settings()
        store.setValue("window/geometry", self.saveGeometry())
        store.setValue("window/state", self.saveState())
        store.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._may_discard():
            event.ignore()
            return
        self.save_layout()
        event.accept()


def _set_tip(action: QAction, tip: str) -> None:
    """Tooltip and status tip that name the shortcut, so the GM learns it."""
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    text = f"{tip} ({keys})" if keys else tip
    action.setToolTip(text)
    action.setStatusTip(text)


def _problem_text(problem: Exception) -> str:
    return str(problem)
