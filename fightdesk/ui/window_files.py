"""The window's files: New, Open, Open Recent, Save, Save As, and the questions they ask.

A file that cannot be read gets a dialog and changes nothing; one whose history does
not lead to its fight may be opened without it; leaving a fight with unsaved changes
asks first (and says when autosave keeps the fight anyway). Saving writes through
``storage/sessions.py``.

No engine import at module level: the window paints before pydantic loads.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from fightdesk.storage.files import FileProblem

from . import settings
from .plain import message_box, plain_tip, warn

if TYPE_CHECKING:
    from fightdesk.engine.model import Session
    from fightdesk.storage.trust import HistoryProblem

    from .main_window import MainWindow

FILE_FILTER = "fightdesk sessions (*.json);;All files (*)"


def _problem_text(problem: Exception) -> str:
    return str(problem)


class WindowFiles(QObject):
    """File menu work for one window (which wires its actions to these)."""

    def __init__(self, window: MainWindow) -> None:
        # A child of the window: it goes with the window.
        super().__init__(window)
        self.w = window

    # --- opening -----------------------------------------------------------------------
    def open_file(self, path: Path) -> bool:
        """Load and show a session file; a bad file gets a dialog and changes nothing.
        A long fight shows at once and its history follows (storage/history.py)."""
        from fightdesk.engine.engine import Engine
        from fightdesk.storage.history import open_live_first
        from fightdesk.storage.trust import HistoryProblem

        path = Path(path)
        try:
            session, history = open_live_first(path)
        except HistoryProblem as problem:
            return self.open_without_history(problem)
        except FileProblem as problem:
            warn(self.w, "Cannot open this file", _problem_text(problem))
            return False
        self.w.show_session(Engine(session, history=history), path)
        return True

    def open_without_history(self, problem: HistoryProblem) -> bool:
        """The file's log does not lead to its fight: offer the fight as it is now, with
        nothing to undo. It opens as a new, unsaved fight, so the file stays as it is."""
        from PySide6.QtWidgets import QMessageBox

        from fightdesk.engine.engine import Engine

        box = message_box(
            self.w, QMessageBox.Icon.Warning, "Cannot open this file", _problem_text(problem),
            "The fight itself is sound. Open it as it is now, without its history (no "
            "undo, a new log)? The file is not changed; saving asks for a new name.",
            QMessageBox.StandardButton.Cancel)
        box.setObjectName("OpenWithoutHistory")
        opened = box.addButton("Open without its history", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is not opened:
            return False
        self.w.show_session(Engine(problem.without_history()), None)
        self.w.document.undo_stack.resetClean()  # unsaved: the GM's file holds the old one
        return True

    def ask_open(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        if not self.may_discard():
            return
        document = self.w.document
        start = str(document.path.parent if document.path else Path.home())
        name, _ = QFileDialog.getOpenFileName(self.w, "Open Fight", start, FILE_FILTER)
        if name:
            self.open_file(Path(name))

    def open_recent(self, path: Path) -> None:
        if self.may_discard():
            self.open_file(path)

    def new_fight(self) -> None:
        """Start an empty fight under a ruleset the GM chooses."""
        from fightdesk.engine.engine import Engine
        from fightdesk.engine.model import Session, new_encounter

        from .ruleset_choice import ask_new_fight

        if not self.may_discard():
            return
        engine = self.w.document.engine
        answer = ask_new_fight(self.w, engine.encounter.ruleset if engine is not None else None)
        if answer is None:
            return
        ruleset_id, name = answer
        self.w.show_session(Engine(Session.begin(new_encounter(ruleset_id, name))), None)

    def current_session(self) -> Session | None:
        """The fight on screen, for File > Print and Export Summary (with its whole
        history: one still being read is read now)."""
        engine = self.w.document.engine
        return engine.session if engine is not None else None

    # --- saving ------------------------------------------------------------------------
    def save(self) -> bool:
        document = self.w.document
        if document.engine is None:
            return False
        # A history still being read is read now; one that cannot be read leaves the
        # fight without a file, so Save asks for a new name (the old file stays).
        document.complete_history()
        if document.path is None:
            return self.save_as()
        return self.save_to(document.path)

    def save_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog

        document = self.w.document
        if document.engine is None:
            return False
        start = str(document.path or Path.home() / file_name(document.engine.encounter.name))
        name, _ = QFileDialog.getSaveFileName(self.w, "Save Fight As", start, FILE_FILTER)
        if not name:
            return False
        return self.save_to(Path(name))

    def save_to(self, path: Path) -> bool:
        from fightdesk.storage.sessions import save_session

        from . import save_questions

        document = self.w.document
        assert document.engine is not None
        document.complete_history()
        asked = save_questions.before_save(self.w, path)
        if asked is not None:
            return asked
        try:
            save_session(document.engine.session, path)
        except FileProblem as problem:
            warn(self.w, "Cannot save", _problem_text(problem))
            return False
        save_questions.saved(self.w, path)
        document.set_path(path)
        document.mark_saved()
        self.remember(path)
        return True

    def may_discard(self, *, closing: bool = False) -> bool:
        """Ask before leaving a fight with unsaved changes; True when it is fine to go on.

        When the window closes and autosave keeps the fight, nothing is thrown away: the
        question says so, and its "no" button is "Close without saving", not "Discard"."""
        from PySide6.QtWidgets import QMessageBox

        document = self.w.document
        if not document.is_modified():
            return True
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        box = message_box(self.w, QMessageBox.Icon.Question, "Unsaved changes",
                          f"Save the changes to {document.title}?", buttons=buttons)
        if closing and self.w.kept_by_autosave:
            box.setInformativeText(
                "Autosave keeps the fight as it is now: it reopens like this the next time "
                "fightdesk starts, whether or not you save it to a file.")
            discard = box.button(QMessageBox.StandardButton.Discard)
            if discard is not None:
                discard.setText("Close without saving")
        box.exec()
        answer = box.standardButton(box.clickedButton())
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # --- the recent files ----------------------------------------------------------------
    def remember(self, path: Path) -> None:
        settings.remember_file(path)
        self.fill_recent_menu()

    def fill_recent_menu(self) -> None:
        menu = self.w.recent_menu
        menu.clear()
        files = settings.recent_files()
        for path in files:
            act = menu.addAction(path.name)
            act.setToolTip(plain_tip(str(path)))
            act.setData(str(path))
            act.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        menu.setEnabled(bool(files))


# Characters one desktop system or another refuses in a file name (Windows the most).
_NOT_IN_FILE_NAMES = re.compile(r'[<>:"/\\|?*\x00-\x1f]+')


def file_name(fight_name: str) -> str:
    """The file name Save As suggests for a fight: its name, with what a desktop system
    refuses ("Ambush: round 2") turned into a dash."""
    stem = _NOT_IN_FILE_NAMES.sub(" - ", fight_name)
    stem = re.sub(r"\s+", " ", stem).strip(" .-") or "fight"
    return f"{stem}.json"
