"""The open fight as the window sees it: the engine, its file, and the Qt face of its history.

The engine's log is the one history. :class:`FightDocument` listens to the engine's
notices and keeps a :class:`QUndoStack` in step with the log: every applied step
(whoever applied it) becomes one :class:`EngineStep` on the stack, a step that joins
the previous one (an interrupt stack being resolved) merges into it, and undo/redo on
the stack call ``Engine.undo``/``Engine.redo``. After a file is opened the stack is
rebuilt from the log and the redo list, so undo reaches back through the whole log.

No engine import at module level: the window must paint before pydantic loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

if TYPE_CHECKING:
    from fightdesk.engine.commands import Command
    from fightdesk.engine.engine import Engine, Notice, Outcome
    from fightdesk.engine.model import LogEntry


class EngineStep(QUndoCommand):
    """One undo step of the engine's log. Its first ``redo`` (from ``push``) does
    nothing: the engine already applied the step when the stack heard of it."""

    def __init__(self, document: FightDocument, step: int, text: str) -> None:
        super().__init__(text)
        self.document = document
        self.step = step
        self._fresh = True

    def redo(self) -> None:
        if self._fresh:
            self._fresh = False
            return
        self.document._engine_redo()

    def undo(self) -> None:
        self.document._engine_undo()


class FightDocument(QObject):
    """Holds the engine and the file path; turns engine notices into Qt signals."""

    #: A change the engine made (the :class:`Notice`); views redraw what it touched.
    changed = Signal(object)
    #: A whole new session is shown (open, new): views rebuild from scratch.
    replaced = Signal()
    #: The file path or the fight's name changed (window title).
    pathChanged = Signal()
    #: A command the rules refused: the message for the GM.
    refused = Signal(str)
    #: The history of a fight opened live fight first is in (the log view fills, undo
    #: reaches back); also when it could not be read (``history_problem`` says why).
    historyArrived = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.engine: Engine | None = None
        self.path: Path | None = None
        self.undo_stack = QUndoStack(self)
        # While the stack drives the engine, the engine's notice must not move the
        # stack again; while the engine was driven from elsewhere (Revert to here),
        # the stack's commands must not call the engine again.
        self._stack_driving = False
        self._engine_driving = False
        # A history still being read a slice at a time (see load_history_in_background).
        self.history_problem: str | None = None
        self._history_timer: QTimer | None = None
        self._rebuilding = False

    # --- the session ------------------------------------------------------------------
    def set_engine(self, engine: Engine, path: Path | None) -> None:
        if self.engine is not None:
            self.engine.unsubscribe(self._on_notice)
            self.engine.complete_history()  # its waiters (autosave...) get what they wait for
        self._stop_history_timer()
        self.engine = engine
        self.path = path
        self.history_problem = None
        engine.subscribe(self._on_notice)
        if engine.pending_history is not None:
            self.undo_stack.clear()  # rebuilt when the history is in
            self.undo_stack.setClean()
            pending = engine.pending_history
            engine.when_history(lambda: self._history_in(engine, pending.problem))
        else:
            self._rebuild_stack()
        self.replaced.emit()
        self.pathChanged.emit()

    # --- a history that arrives after the fight ---------------------------------------------
    @property
    def history_pending(self) -> bool:
        return self.engine is not None and self.engine.pending_history is not None

    def complete_history(self) -> None:
        """Whatever needs the history calls this first: a history still being read is
        read in full now (the GM waits for it once)."""
        if self.engine is not None:
            self.engine.complete_history()

    def load_history_in_background(self) -> None:
        """Read a pending history a slice at a time between the GM's clicks."""
        if not self.history_pending or self._history_timer is not None:
            return
        timer = QTimer(self)
        timer.setInterval(0)
        timer.timeout.connect(self._history_slice)
        self._history_timer = timer
        timer.start()

    def _history_slice(self) -> None:
        engine = self.engine
        pending = engine.pending_history if engine is not None else None
        if engine is None or pending is None:
            self._stop_history_timer()
            return
        if pending.step():
            engine.complete_history()  # all read: tells the waiters

    def _stop_history_timer(self) -> None:
        if self._history_timer is not None:
            self._history_timer.stop()
            self._history_timer.deleteLater()
            self._history_timer = None

    def _history_in(self, engine: Engine, problem: Exception | None) -> None:
        """The history is in: the stack reaches back through it. A history that could
        not be read leaves the fight as it is now, with nothing to undo, and unsaved,
        with no file (saving asks for a new name: the file stays as it was)."""
        if engine is not self.engine:
            return
        self._stop_history_timer()
        self._rebuild_stack()
        if problem is not None:
            self.history_problem = str(problem)
            self.path = None
            self.undo_stack.resetClean()
            self.pathChanged.emit()
        self.historyArrived.emit()

    @property
    def rebuilding(self) -> bool:
        """The stack is being rebuilt from the log (its signals say nothing yet)."""
        return self._rebuilding

    def undo(self) -> None:
        """Edit > Undo: the history first, if it is still being read."""
        self.complete_history()
        self.undo_stack.undo()

    def redo(self) -> None:
        self.complete_history()
        self.undo_stack.redo()

    def can_undo(self) -> bool:
        pending = self.engine.pending_history if self.engine is not None else None
        return pending.has_log if pending is not None else self.undo_stack.canUndo()

    def can_redo(self) -> bool:
        pending = self.engine.pending_history if self.engine is not None else None
        return pending.has_redo if pending is not None else self.undo_stack.canRedo()

    def set_path(self, path: Path | None) -> None:
        self.path = path
        self.pathChanged.emit()

    def mark_saved(self) -> None:
        self.undo_stack.setClean()

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def title(self) -> str:
        """The file name for the window title, or the fight's name if never saved."""
        if self.engine is None and self.path is None:
            return "No fight"
        from fightdesk.engine.views import fight_title

        return fight_title(self.engine.encounter.name if self.engine is not None else "", self.path)

    # --- changing the fight --------------------------------------------------------------
    def apply(self, command: Command, *, say_refusal: bool = True) -> Outcome:
        """The one way the widgets change the fight (ui/operations.py makes the GM's
        commands); a refusal is also signalled, unless the widget that asked shows it
        itself (``say_refusal`` False: a dialog, the dice bar)."""
        assert self.engine is not None, "no fight is open"
        outcome = self.engine.apply(command)
        if not outcome.ok and say_refusal:
            self.refused.emit(outcome.error or "not allowed")
        return outcome

    def check(self, command: Command) -> Outcome:
        assert self.engine is not None, "no fight is open"
        return self.engine.check(command)

    def revert_to(self, seq: int) -> int:
        """Undo back to log entry ``seq``; 0 and a ``refused`` line when it cannot (a
        damaged log: nothing changed)."""
        from fightdesk.engine.engine import StepFailed

        assert self.engine is not None, "no fight is open"
        try:
            return self.engine.revert_to(seq)
        except StepFailed as failed:
            self.refused.emit(str(failed))
            return 0

    # --- the Qt face of the history ----------------------------------------------------------
    def _engine_undo(self) -> None:
        self._drive_engine("undo")

    def _engine_redo(self) -> None:
        self._drive_engine("redo")

    def _drive_engine(self, what: str) -> None:
        """Called from inside QUndoStack.undo()/redo(): nothing may escape (it would
        cross a Qt override). A step that cannot be applied changed nothing in the
        engine; the stack, which has already moved, is put back where it was."""
        from fightdesk.engine.engine import StepFailed

        if self._engine_driving or self.engine is None:
            return
        self._stack_driving = True
        try:
            if what == "undo":
                self.engine.undo()
            else:
                self.engine.redo()
        except StepFailed as failed:
            # Qt moves the index after this returns: read now, it is where the stack was.
            index = self.undo_stack.index()
            QTimer.singleShot(0, self, lambda: self._put_stack_back(index))
            self.refused.emit(str(failed))
        finally:
            self._stack_driving = False

    def _put_stack_back(self, index: int) -> None:
        """Take back the stack's own move after a step the engine refused."""
        self._engine_driving = True
        try:
            self.undo_stack.setIndex(index)
        finally:
            self._engine_driving = False

    def _on_notice(self, notice: Notice) -> None:
        if notice.kind == "reset":
            self._rebuild_stack()
            self.replaced.emit()
            self.pathChanged.emit()
            return
        if not self._stack_driving:
            self._follow_engine(notice)
        self.changed.emit(notice)

    def _follow_engine(self, notice: Notice) -> None:
        """Move the stack to match a change the engine made on its own."""
        stack = self.undo_stack
        if notice.kind == "apply":
            assert self.engine is not None
            entry = notice.entries[0]
            top = stack.command(stack.index() - 1) if stack.index() > 0 else None
            if isinstance(top, EngineStep) and top.step == entry.step:
                return  # joins the open step (an interrupt stack being resolved)
            stack.push(EngineStep(self, entry.step, self.engine.undo_text()))
        else:
            self._engine_driving = True
            try:
                # One notice may take back several steps at once (Revert to here).
                for _ in range(max(1, len({e.step for e in notice.entries}))):
                    if notice.kind == "undo":
                        stack.undo()
                    else:
                        stack.redo()
            finally:
                self._engine_driving = False

    def _rebuild_stack(self) -> None:
        """One command per step of the log, then the undone steps above the index."""
        stack = self.undo_stack
        stack.clear()
        if self.engine is None:
            return
        session = self.engine.session
        done = _steps(session.log)
        undone = list(reversed(_steps(session.redo)))
        self._engine_driving = True
        self._rebuilding = True
        try:
            for step, text in done + undone:
                stack.push(EngineStep(self, step, text))
            stack.setIndex(len(done))
        finally:
            self._engine_driving = False
            self._rebuilding = False
        stack.setClean()


def _steps(entries: list[LogEntry]) -> list[tuple[int, str]]:
    """(step, text of its first entry) for each step, in log order."""
    steps: list[tuple[int, str]] = []
    for entry in entries:
        if not steps or steps[-1][0] != entry.step:
            steps.append((entry.step, entry.summary))
    return steps
