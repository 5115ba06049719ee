"""The Qt face of autosave: the restore question at start-up, and keeping the shown fight
autosaved (attach on every fight shown, compact on save, say so on quit).

The logic lives in :mod:`fightdesk.storage.autosave` (no Qt); this module only asks the
GM and connects signals. The window is used through its ``document`` (a
``FightDocument``: ``engine``, ``path``, ``replaced``, ``pathChanged``, ``undo_stack``)
and its status bar, so no widget module is imported here.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QMainWindow, QMessageBox, QWidget

from fightdesk.engine.engine import Engine
from fightdesk.storage.autosave import Autosave
from fightdesk.storage.files import FileProblem, describe_os_error, remove_leftovers

from .paint_watch import after_next_paint
from .plain import message_box, warn
from .settings import recent_files

if TYPE_CHECKING:
    from fightdesk.engine.engine import Engine
    from fightdesk.engine.model import Session
    from fightdesk.storage.autosave import Autosave, RecoveryInfo
    from fightdesk.storage.history import HistoryLoad

RESTORE_BUTTON = "restoreButton"
SKIP_BUTTON = "skipButton"


@dataclass
class StartChoice:
    """The fight to show at start-up, brought back by autosave."""

    session: Session
    path: Path | None
    fight_id: str
    unsaved: bool
    after_crash: bool
    # A long fight's history still to be read (it arrives after the fight is shown).
    history: HistoryLoad | None = None


def describe(info: RecoveryInfo) -> str:
    """What the restore question says about the fight (plain text, a few lines)."""
    when = datetime.datetime.fromtimestamp(info.changed_at).strftime("%a %d %b, %H:%M")
    lines = [f"\u201c{info.fight_name}\u201d, round {info.round}, "
             f"{info.actions} action{'s' if info.actions != 1 else ''} in the log."]
    if info.last_action:
        lines.append(f"Last action: {info.last_action}")
    lines.append(f"Autosaved: {when}")
    if info.path is None:
        lines.append("Never saved to a file.")
    elif info.unsaved:
        lines.append(f"Changed since it was saved to {info.path}.")
    else:
        lines.append(f"Saved to {info.path}.")
    if info.problem:
        lines.append(f"Note: part of the autosave could not be read ({info.problem}); "
                     "the fight comes back as far as it can be read.")
    return "\n".join(lines)


def restore_box(parent: QWidget | None, info: RecoveryInfo, number: int = 1,
                total: int = 1) -> QMessageBox:
    """The question asked after a crash: bring the fight back exactly as it was?
    ``number`` of ``total``: several windows crashed, each fight is asked about in
    turn, newest first."""
    detail = describe(info)
    if total > 1:
        detail += (f"\n\nFight {number} of {total} that fightdesk did not close normally "
                   "(newest first). Restore shows this one, and the others are offered "
                   "again at the next start; Start without it asks about the next.")
    # The description quotes the fight (its name, its last action): plain text.
    box = message_box(parent, QMessageBox.Icon.Question, "Restore the fight?",
                      "fightdesk did not close normally last time.\n"
                      "Restore the fight exactly as it was after the last action?",
                      detail, QMessageBox.StandardButton.NoButton)
    box.setObjectName("RestoreQuestion")
    restore = box.addButton("Restore", QMessageBox.ButtonRole.AcceptRole)
    restore.setObjectName(RESTORE_BUTTON)
    skip = box.addButton("Start without it", QMessageBox.ButtonRole.RejectRole)
    skip.setObjectName(SKIP_BUTTON)
    skip.setToolTip("The autosave stays in the fightdesk data folder; it is not offered again.")
    box.setDefaultButton(restore)
    box.setEscapeButton(skip)
    return box


def ask_to_restore(parent: QWidget | None, info: RecoveryInfo, number: int = 1,
                   total: int = 1) -> bool:
    box = restore_box(parent, info, number, total)
    box.exec()
    clicked = box.clickedButton()
    return clicked is not None and clicked.objectName() == RESTORE_BUTTON


def choose_start(parent: QWidget | None, autosave: Autosave, file: Path | None) -> StartChoice | None:
    """What to show first: after a crash, the fight if the GM wants it back (every
    fight whose window crashed is asked about, newest first); else, after a normal quit,
    the last fight (unless a file was named on the command line)."""
    crashed = autosave.crashed_fights()
    info: RecoveryInfo | None = None
    for number, offered in enumerate(crashed, start=1):
        if ask_to_restore(parent, offered, number, len(crashed)):
            info = offered
            break
        autosave.forget(offered.fight_id)
    if info is None:
        info = autosave.recoverable()
        # in_use: open in another fightdesk window; a crash left is one declined above
        if info is None or info.in_use or not info.clean_exit or file is not None:
            return None
    try:
        session, history = autosave.restore_live_first(info.fight_id)
    except FileProblem as problem:
        warn(parent, "Cannot restore the fight", str(problem))
        return None
    return StartChoice(session, info.path, info.fight_id, info.unsaved, info.crashed, history)


class AutosaveBinder(QObject):
    """Keeps whatever fight the window shows autosaved, and tells the GM when it cannot."""

    #: Autosave stopped (False) or works again (True), with the message for the GM.
    status = Signal(bool, str)

    def __init__(self, window: QMainWindow, autosave: Autosave) -> None:
        super().__init__(window)
        self.window = window
        self.document: Any = window.document  # type: ignore[attr-defined]
        self.autosave = autosave
        window.kept_by_autosave = True  # type: ignore[attr-defined]
        self._next: tuple[str, bool] | None = None  # (fight id, saved) for a restored fight
        self._warning: QMessageBox | None = None
        autosave.on_status = self.status.emit
        self.status.connect(self._show_status)
        self.document.replaced.connect(self._attach)
        self.document.pathChanged.connect(self._maybe_saved)
        self.document.undo_stack.cleanChanged.connect(self._maybe_saved)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.quit)

    @classmethod
    def install(cls, window: QMainWindow, autosave: Autosave | None = None) -> AutosaveBinder:
        return cls(window, autosave if autosave is not None else Autosave())

    def show_restored(self, choice: StartChoice, show: Any) -> None:
        """Show a restored fight with ``show(engine, path)`` (the window's
        ``show_session``), continuing its autosave folder and its unsaved marker."""
        self._next = (choice.fight_id, not choice.unsaved)
        show(Engine(choice.session, history=choice.history), choice.path)
        if choice.unsaved:
            self.document.undo_stack.resetClean()
        if choice.after_crash:
            self.window.statusBar().showMessage(
                "Restored the fight as it was after the last action.", 10000)

    def _attach(self) -> None:
        engine: Engine | None = self.document.engine
        if engine is None or engine is self.autosave.engine:
            return  # a reset the autosave already followed
        path = self.document.path
        if self._next is not None:
            fight_id, saved = self._next
            self._next = None
            self.autosave.attach(engine, path, fight_id=fight_id, saved=saved, write_now=False)
        else:
            self.autosave.attach(engine, path, write_now=False)
        # The first snapshot once the fight is painted: its writes and fsyncs would
        # otherwise hold back the GM's first sight of the fight. An earlier action, save
        # or quit writes it first (Autosave.attach). A long fight's history being read
        # after the fight is shown is waited for: the snapshot holds it.
        if engine.pending_history is not None:
            engine.when_history(lambda: self._history_in(engine))
        else:
            after_next_paint(self.window, self.autosave.write_attached)

    def _history_in(self, engine: Engine) -> None:
        """The shown fight's history is in: write the first snapshot. A history that
        could not be read leaves a new fight (the document says so): it gets a folder of
        its own, so the autosave it came from stays as it was."""
        if engine is not self.autosave.engine:
            return
        if self.document.history_problem is not None:
            self.autosave.attach(engine, None, saved=False, write_now=True)
        else:
            self.autosave.write_attached()

    def _maybe_saved(self, *_: object) -> None:
        """File > Save / Save As just wrote the fight: compact and remember the file."""
        doc = self.document
        if doc.engine is None or doc.engine is not self.autosave.engine or doc.path is None:
            return
        if doc.is_modified() or doc.history_pending:
            return  # a history still being read: written once it is in (_history_in)
        if doc.path != self.autosave.path or not self.autosave.is_saved:
            self.autosave.mark_saved(doc.path)

    def quit(self) -> None:
        self.document.complete_history()  # the last snapshot holds the whole history
        self.autosave.mark_clean_exit()

    def _show_status(self, ok: bool, message: str) -> None:
        bar = self.window.statusBar()
        bar.showMessage(message, 15000 if ok else 0)
        if ok:
            if self._warning is not None:
                self._warning.close()
                self._warning = None
            return
        if self._warning is None:
            # Once per failure: a dialog the GM cannot miss, not modal so play goes on.
            box = message_box(self.window, QMessageBox.Icon.Warning, "Autosave failed", message)
            box.setObjectName("AutosaveWarning")
            box.setWindowModality(Qt.WindowModality.NonModal)
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
            box.show()
            self._warning = box
        else:
            self._warning.setText(message)


def start_autosave(window: QMainWindow, file: Path | None) -> tuple[AutosaveBinder | None, StartChoice | None]:
    """At start-up: keep every fight the window shows autosaved, and pick the fight to
    bring back (None: show ``file`` or the demo as usual)."""
    try:
        autosave = Autosave()
    except OSError as exc:  # the data folder itself cannot be made
        window.statusBar().showMessage(f"Autosave is off: {describe_os_error(exc)}", 0)
        return None, None
    remove_leftovers_near(autosave, file)
    binder = AutosaveBinder(window, autosave)
    return binder, choose_start(window, autosave, file)


def remove_leftovers_near(autosave: Autosave, file: Path | None) -> None:
    """A save cut off by a kill leaves a temporary file beside the GM's file: a start
    removes those fightdesk left (and only those: storage.files.remove_leftovers) in the
    folders of the file named, the autosaved fights' files and the recent files."""
    known = [*([file] if file is not None else []), *autosave.gm_files(), *recent_files()]
    for folder in sorted({Path(path).parent for path in known}):
        remove_leftovers(folder)
