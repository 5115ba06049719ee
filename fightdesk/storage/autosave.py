"""Autosave and crash recovery: nothing the GM does is ever lost.

Each fight shown in the window gets a folder ``<data dir>/autosave/<fight id>/`` with

* ``base-NNNNNN.json``: a full snapshot of the session (plain session JSON, written
  atomically), one per *generation*;
* ``journal-NNNNNN.jsonl``: every change of history since the snapshot of the same
  generation (see :mod:`fightdesk.storage.journal`), fsynced before the next click;
* ``round-NNN.json``: the fight as it stood at the end of round NNN, kept for the whole
  fight (these are ordinary session files: File > Open reads them).

A *compaction* writes the next generation's snapshot and starts its empty journal; it
runs when a round ends, when the GM saves, and when a fight is attached. The newest
snapshot that reads back, plus its journal, is the fight after the last action. The
previous generation stays on disk until the next compaction, so a damaged snapshot
still leaves a good one.

``state.json`` next to the fight folders says which fight is open, where the GM saved
it, and whether the app quit normally; on the next start the app offers to restore the
fight after a crash, and reopens it silently after a normal quit. See docs/autosave.md.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError

from ..engine.engine import Engine, Notice
from ..engine.model import Session
from ..engine.views import fight_title, picture_of
from ..paths import autosave_dir
from .autosave_folder import (
    BASE,
    FIGHT_ID,
    FIGHT_STATE,
    RECORD,
    STATE_FILE,
    FightLock,
    in_use,
)
from .files import (
    FileProblem,
    atomic_write_bytes,
    atomic_write_text,
    describe_os_error,
    fsync_dir,
    gc_paused,
    one_error_type,
    read_text,
)
from .history import HistoryLoad, open_live_first
from .journal import (
    ApplyRecord,
    Journal,
    StepRecord,
    read_journal,
    replay,
    step_record,
)
from .picture import keep_picture
from .sessions import check_consistency, session_from_json
from .trust import check_session

log = logging.getLogger(__name__)


#: ``on_status(ok, message)``: ``ok=False`` when autosave stopped working (show it to
#: the GM), ``ok=True`` when it works again after a failure.
StatusListener = Callable[[bool, str], None]


class AutosaveState(BaseModel):
    """The bookkeeping file: the open fight, where it was saved, and how the app ended."""

    model_config = ConfigDict(extra="ignore")

    version: int = 1
    fight_id: str | None = None
    path: str | None = None
    clean_exit: bool = True
    # The snapshot generation that equals the GM's saved file (None: unsaved changes).
    saved_gen: int | None = None


class RecoveryInfo(NamedTuple):
    """What the start-up question shows about the fight that can be brought back."""

    fight_id: str
    path: Path | None
    clean_exit: bool
    fight_name: str
    round: int
    actions: int
    last_action: str
    changed_at: float
    unsaved: bool
    problem: str | None = None
    # Open in another fightdesk window right now: neither crashed nor to be reopened.
    in_use: bool = False

    @property
    def crashed(self) -> bool:
        return not self.clean_exit and not self.in_use


@dataclass
class _Loaded:
    session: Session
    gen: int
    journal_records: int
    changed_at: float
    problem: str | None
    # The session's history still to be read (a long fight reopened live fight first).
    history: HistoryLoad | None = None


def _unsaved(path: object, saved_gen: int | None, gen: int, journal_records: int) -> bool:
    """The fight differs from the GM's file: it has none, or the generation that equals
    it is not the newest, or the journal holds actions since."""
    return path is None or saved_gen is None or gen != saved_gen or journal_records > 0


def new_fight_id() -> str:
    return f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"


def default_root() -> Path:
    return autosave_dir()


class Autosave:
    """Keeps the attached engine's fight on disk after every action (Qt-free)."""

    def __init__(
        self,
        root: Path | None = None,
        *,
        on_status: StatusListener | None = None,
        keep_fights: int = 20,
    ) -> None:
        self.root = Path(root) if root is not None else default_root()
        self.on_status = on_status
        self.keep_fights = keep_fights
        self._engine: Engine | None = None
        self._fight_id: str | None = None
        self._path: Path | None = None
        self._gen = 0
        self._saved_gen: int | None = None
        self._journal: Journal | None = None
        # (saved, continuing) of an attached fight whose first snapshot is not written yet.
        self._first_write: tuple[bool, bool] | None = None
        self._behind = 0  # actions since a write failed (0: everything is on disk)
        self._failing = False  # the GM was told autosave failed and not yet that it works
        self._state_pending = False  # state.json could not be written: write it again
        self._last_round = 0
        self._rounds_written: set[int] = set()
        self._cache: tuple[str, _Loaded] | None = None
        self._lock = FightLock()

    # --- where things are -----------------------------------------------------------
    @property
    def fight_id(self) -> str | None:
        return self._fight_id

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def engine(self) -> Engine | None:
        """The engine being autosaved, if any."""
        return self._engine

    @property
    def is_saved(self) -> bool:
        """True while the fight equals the file last passed to :meth:`mark_saved`."""
        return self._saved_gen is not None and self._saved_gen == self._gen

    @property
    def healthy(self) -> bool:
        """False from a failed write until a write succeeds again."""
        return not self._failing

    def fight_dir(self, fight_id: str | None = None) -> Path:
        fid = fight_id or self._fight_id
        if fid is None:
            raise ValueError("no fight is attached")
        return self.root / fid

    def round_snapshots(self, fight_id: str | None = None) -> list[Path]:
        """The end-of-round snapshots of the fight, oldest round first."""
        folder = self.fight_dir(fight_id)
        return sorted(folder.glob("round-[0-9][0-9][0-9].json"))

    # --- attaching --------------------------------------------------------------------
    def attach(
        self,
        engine: Engine,
        path: Path | None = None,
        *,
        fight_id: str | None = None,
        saved: bool | None = None,
        write_now: bool = True,
    ) -> None:
        """Start keeping ``engine``'s fight on disk.

        ``path`` is the GM's file the session came from (None for a new fight);
        ``saved`` says whether the session equals that file (default: it does when
        there is a path). Pass the ``fight_id`` of a restored fight to continue its
        folder and keep its round snapshots.

        The fight's first snapshot is written at once, or with ``write_now=False`` by
        :meth:`write_attached` (the window calls it once the fight is on screen, so its
        fsyncs do not delay the first sight of the fight). Until then nothing can be
        lost: the fight still equals what it was attached from, and the first action,
        a save or a quit writes the snapshot before anything else.
        """
        self._close_folder()
        self.detach()
        self._engine = engine
        self._path = Path(path) if path is not None else None
        if saved is None:
            saved = path is not None
        continuing = fight_id is not None and (self.root / fight_id).is_dir()
        if continuing and fight_id is not None and not self._lock.take(self.root / fight_id):
            continuing = False  # another fightdesk window keeps that fight: start a new one
        self._fight_id = fight_id if (fight_id is not None and continuing) else new_fight_id()
        if not continuing:
            self._lock.take(self.fight_dir())
        self._gen = self._highest_gen(self.fight_dir()) if continuing else 0
        self._rounds_written = set()
        self._last_round = engine.encounter.round
        self._behind = 0
        self._failing = False
        self._cache = None
        engine.subscribe(self._on_notice)
        self._first_write = (saved, continuing)
        if write_now:
            self.write_attached()

    def write_attached(self, *, acted: bool = False, round_no: int | None = None) -> None:
        """Write the attached fight's first snapshot and record it as the open fight,
        unless that is done already (see :meth:`attach`). ``acted``: an action already
        changed the fight (it is in the snapshot, so the journal starts after it, and the
        fight no longer equals its file); ``round_no``: the round that action ended."""
        if self._first_write is None or self._engine is None:
            return
        saved, continuing = self._first_write
        self._first_write = None
        self._remove_leftovers(self.fight_dir(), "*")
        self._remove_leftovers(self.root, STATE_FILE)
        problem = self._compact(round_no=round_no)
        if problem is not None:
            if acted:
                self._behind = 1  # that action is not on disk: the next one writes it all
            self._failed(problem)
        self._saved_gen = self._gen if problem is None and saved and not acted else None
        self._write_state(clean_exit=False)
        if not continuing:
            self._prune()

    def detach(self) -> None:
        """Stop listening; the files stay (call :meth:`mark_clean_exit` on quit)."""
        if self._engine is not None:
            self._engine.unsubscribe(self._on_notice)
        self._engine = None
        self._first_write = None  # never written: no action came, so nothing to keep
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        self._lock.release()

    def mark_saved(self, path: Path) -> None:
        """The GM saved the fight to ``path``: compact, and remember where it lives."""
        self._path = Path(path)
        if self._engine is None:
            return
        self.write_attached()
        journal = self._journal
        if self._needs_snapshot() or (journal is not None and journal.records):
            problem = self._compact()
            if problem is not None:
                self._failed(problem)
                self._write_state(clean_exit=False)
                return
            self._recovered()
        self._saved_gen = self._gen
        self._write_state(clean_exit=False)

    def mark_clean_exit(self) -> None:
        """The app quits normally: bring the disk up to date, say so, and detach."""
        self.write_attached()
        if self._engine is not None and self._needs_snapshot():
            problem = self._compact()
            if problem is not None:
                self._failed(problem)
        if self._fight_id is not None:
            self._write_state(clean_exit=True)
            if not self._state_pending and not self._failing:
                self._keep_picture()
        self.detach()

    def _keep_picture(self) -> None:
        """The fight's picture for the next start, which shows it while the rules load
        (storage/picture.py): the last write of a normal quit. A picture that cannot be
        made or written only makes that start a little slower."""
        engine, fight_id = self._engine, self._fight_id
        if engine is None or fight_id is None:
            return

        title = fight_title(engine.encounter.name, self._path)
        journal = self._journal
        unsaved = _unsaved(self._path, self._saved_gen, self._gen,
                           journal.records if journal is not None else 0)
        try:
            keep_picture(self.root, fight_id, picture_of(engine, title, unsaved))
        except FileProblem as problem:
            log.warning("the fight's picture is not kept: %s", problem)
        except Exception:  # a view a ruleset cannot make now must not stop the quit
            log.exception("the fight's picture could not be made")

    def forget(self, fight_id: str | None = None) -> None:
        """The GM declined to restore ``fight_id`` (default: the one ``state.json``
        names): do not ask again. Its folder is kept until it is pruned."""
        self._cache = None
        state = self.read_state()
        named = state.fight_id if state is not None else None
        fight_id = fight_id or named
        if fight_id is not None:
            folder = self.root / fight_id
            own = self._read_folder_state(folder)
            if own is not None:
                self._write_folder_state(folder, own.model_copy(update={"clean_exit": True}))
        if named is None or named == fight_id:
            self._write_state_model(AutosaveState(fight_id=None, clean_exit=True))

    def _close_folder(self) -> None:
        """The window leaves the attached fight for another (File > New, Open, a restored
        fight): its folder is closed normally, so no later start offers it as a crash."""
        if self._engine is None or self._fight_id is None or self._first_write is not None:
            return
        folder = self.fight_dir()
        if (folder / FIGHT_STATE).exists():
            self._write_folder_state(folder, AutosaveState(
                fight_id=self._fight_id, path=str(self._path) if self._path else None,
                clean_exit=True, saved_gen=self._saved_gen))

    # --- the listener -------------------------------------------------------------------
    def _on_notice(self, notice: Notice) -> None:
        try:
            self._record(notice)
        except Exception as exc:  # never let autosave break the GM's action
            log.exception("autosave failed")
            self._behind += 1
            self._failing = True
            if self._journal is not None:
                self._journal.broken = True  # the next action writes a full snapshot
            self._report(False, f"Autosave failed unexpectedly: {exc}. {self._advice()}")

    def _needs_snapshot(self) -> bool:
        journal = self._journal
        return self._behind > 0 or journal is None or journal.broken

    def _record(self, notice: Notice) -> None:
        engine = self._engine
        if engine is None:
            return
        self._cache = None
        if notice.kind == "reset":
            # File > New or Open swapped the session: a different fight from here on.
            self.attach(engine, None, saved=False)
            return
        self._saved_gen = None
        finished = self._round_finished(notice, engine)
        self._last_round = engine.encounter.round
        if self._first_write is not None:
            # The first snapshot was put off (attach): written now, it holds this action.
            self.write_attached(acted=True, round_no=finished)
            return
        if self._needs_snapshot():
            # An earlier write failed: this action goes to disk as a whole new snapshot.
            self._behind += 1
            problem = self._compact(round_no=finished)
            if problem is None:
                self._recovered()
            else:
                self._failed(problem)
            return
        journal = self._journal
        assert journal is not None
        records: list[ApplyRecord | StepRecord]
        if notice.kind == "apply":
            records = [ApplyRecord(entry=e) for e in notice.entries]
        else:
            records = [step_record(notice.kind, notice.entries)]
        try:
            for record in records:
                journal.append(record)
        except FileProblem as problem:
            self._behind = 1
            self._failed(problem)
            return
        if finished is not None:
            missing = self._compact(round_no=finished)
            if missing is not None:
                # The journal already holds the action; only the snapshot is missing.
                self._report(False, f"Autosave could not write the end-of-round snapshot "
                                    f"({missing}); every action is still in the journal.")

    def _round_finished(self, notice: Notice, engine: Engine) -> int | None:
        """The round that just ended: a ``round-end`` event, or the round counter moving on."""
        if notice.kind == "undo":
            return None
        for entry in notice.entries:
            for event in entry.events:
                if event.kind == "round-end":
                    number = event.data.get("round", entry.round)
                    ended = number if isinstance(number, int) else entry.round
                    self._rounds_written.add(ended)
                    return ended
        # No round-end event: the round counter moving on ends the round, unless that
        # round's end was already kept (its round-end event came before, maybe before a restart).
        previous, now = self._last_round, engine.encounter.round
        if now > previous >= 1 and previous not in self._rounds_written:
            self._rounds_written.add(previous)
            if not (self.fight_dir() / f"round-{previous:03d}.json").exists():
                return previous
        return None

    # --- compaction ---------------------------------------------------------------------
    def _compact(self, round_no: int | None = None) -> FileProblem | None:
        """Write the next generation's snapshot and start its journal.

        Returns the problem if the fight is not fully on disk afterwards. Until the new
        snapshot is in place the previous snapshot and journal are untouched; once it is,
        only the new generation's journal counts.
        """
        engine = self._engine
        assert engine is not None
        folder = self.fight_dir()
        gen = self._gen + 1
        base = folder / f"base-{gen:06d}.json"
        try:
            atomic_write_text(base, engine.session.model_dump_json(), keep_backup=False)
        except FileProblem as problem:
            return problem
        # base-<gen> is now the newest snapshot, so restore reads journal-<gen> from here on.
        if self._journal is not None:
            self._journal.close()
        self._journal = None
        self._gen = gen
        self._behind = 0
        if round_no is not None and round_no >= 1:
            try:
                _publish_copy(base, folder / f"round-{round_no:03d}.json")
            except FileProblem as problem:
                self._report(False, f"Autosave could not keep the snapshot of round "
                                    f"{round_no}: {problem}")
        journal = Journal(folder / f"journal-{gen:06d}.jsonl")
        try:
            journal.open()
        except FileProblem as problem:
            return problem
        self._journal = journal
        self._drop_generations_before(folder, gen - 1)
        if self._state_pending:
            self._write_state(clean_exit=False)
        return None

    def _drop_generations_before(self, folder: Path, keep_from: int) -> None:
        for child in folder.iterdir():
            m = RECORD.match(child.name)
            if m and int(m.group(1)) < keep_from:
                with contextlib.suppress(OSError):
                    child.unlink()

    @staticmethod
    def _highest_gen(folder: Path) -> int:
        gens = [int(m.group(1)) for p in folder.iterdir() if (m := BASE.match(p.name))]
        return max(gens, default=0)

    @staticmethod
    def _remove_leftovers(folder: Path, name: str) -> None:
        """Temporary files of a write that a crash interrupted (see files.atomic_write_bytes)."""
        if not folder.is_dir():
            return
        for child in folder.glob(f".{name}.*.tmp"):
            with contextlib.suppress(OSError):
                child.unlink()

    def _prune(self) -> None:
        """Keep the newest ``keep_fights`` fight folders (and always the open one)."""
        try:
            fights = [p for p in self.root.iterdir() if p.is_dir() and FIGHT_ID.match(p.name)]
            fights.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return
        for number, old in enumerate(fights):
            if old.name == self._fight_id:
                continue
            if in_use(old):
                continue  # open in another fightdesk window
            if self._unsaved_crash(old):
                continue  # a crash left work in it that no file holds: offered at a start
            # A folder without a snapshot was cut off before its first one: nothing in it.
            if number >= self.keep_fights or not any(old.glob("base-*.json")):
                shutil.rmtree(old, ignore_errors=True)

    # --- the bookkeeping file -------------------------------------------------------------
    def _write_state(self, *, clean_exit: bool) -> None:
        state = AutosaveState(
            fight_id=self._fight_id,
            path=str(self._path) if self._path is not None else None,
            clean_exit=clean_exit,
            saved_gen=self._saved_gen,
        )
        self._write_state_model(state)

    def _write_state_model(self, state: AutosaveState) -> None:
        try:
            if state.fight_id is not None and (self.root / state.fight_id).is_dir():
                atomic_write_text(self.root / state.fight_id / FIGHT_STATE,
                                  state.model_dump_json(indent=1), keep_backup=False)
            atomic_write_text(self.root / STATE_FILE, state.model_dump_json(indent=1),
                              keep_backup=False)
        except FileProblem as problem:
            # Still naming the fight before: written again with the next snapshot that
            # works, else a crash would bring back that other fight.
            self._state_pending = True
            self._failed(problem)
        else:
            self._state_pending = False

    def _write_folder_state(self, folder: Path, state: AutosaveState) -> None:
        """A fight's own state file alone (closing or declining it); best effort: at
        worst a later start offers the fight once more."""
        try:
            atomic_write_text(folder / FIGHT_STATE, state.model_dump_json(indent=1),
                              keep_backup=False)
        except FileProblem as problem:
            log.warning("the fight's state is not kept: %s", problem)

    @staticmethod
    def _read_folder_state(folder: Path) -> AutosaveState | None:
        """A fight folder's own state, or None (none: written by an older version, or
        cut off before its first snapshot)."""
        path = folder / FIGHT_STATE
        try:
            return AutosaveState.model_validate_json(read_text(path))
        except (FileProblem, ValidationError):
            return None

    def _unsaved_crash(self, folder: Path) -> bool:
        """The fight in ``folder`` was not closed normally and holds work its file does
        not: never pruned, offered at every start until restored or declined."""
        state = self._read_folder_state(folder)
        if state is None:
            root = self.read_state()
            if root is None or root.fight_id != folder.name or root.clean_exit:
                return False
            state = root
        elif state.clean_exit:
            return False
        try:
            gen = self._highest_gen(folder)
        except OSError:
            return True
        journal = folder / f"journal-{gen:06d}.jsonl"
        return _unsaved(state.path, state.saved_gen, gen, 0 if _empty(journal) else 1)

    def _fight_folders(self) -> list[Path]:
        try:
            return [p for p in self.root.iterdir() if p.is_dir() and FIGHT_ID.match(p.name)]
        except OSError:
            return []

    def read_state(self) -> AutosaveState | None:
        """The bookkeeping file, or None if there is none. A damaged one (it is written
        atomically, so only a damaged disk does that) counts as a crash of the newest fight."""
        path = self.root / STATE_FILE
        if not path.exists():
            return None
        try:
            return AutosaveState.model_validate_json(read_text(path))
        except (FileProblem, ValidationError):
            newest = self._newest_fight()
            return AutosaveState(fight_id=newest, clean_exit=False) if newest else None

    def _newest_fight(self) -> str | None:
        try:
            fights = [p for p in self.root.iterdir() if p.is_dir() and FIGHT_ID.match(p.name)]
        except OSError:
            return None
        if not fights:
            return None
        return max(fights, key=lambda p: p.stat().st_mtime).name

    # --- recovery -----------------------------------------------------------------------
    def recoverable(self) -> RecoveryInfo | None:
        """The fight that was open when the app last ended, or None.

        ``clean_exit`` tells a normal quit (reopen it) from a crash (ask the GM).
        """
        state = self.read_state()
        if state is None or state.fight_id is None or not (self.root / state.fight_id).is_dir():
            return None
        return self._info(state.fight_id, state)

    def crashed_fights(self) -> list[RecoveryInfo]:
        """Every fight whose window did not close normally (a crash, a kill, a power cut)
        and that no window keeps now, newest first: with two windows, one may have
        crashed while the other ran on and quit normally after it."""
        root = self.read_state()
        found: list[RecoveryInfo] = []
        for folder in self._fight_folders():
            if folder.name == self._fight_id:
                continue
            state = self._read_folder_state(folder)
            if state is None:  # a folder of an older version: state.json tells
                if root is None or root.fight_id != folder.name:
                    continue
                state = root
            if state.clean_exit or in_use(folder):
                continue
            info = self._info(folder.name, state.model_copy(update={"fight_id": folder.name}))
            if info is not None:
                found.append(info)
        found.sort(key=lambda info: info.changed_at, reverse=True)
        return found

    def open_elsewhere(self, path: Path) -> bool:
        """Whether another fightdesk window has the GM's file ``path`` open now."""
        try:
            wanted = Path(path).resolve()
        except (OSError, RuntimeError):
            return False
        for folder in self._fight_folders():
            if folder.name == self._fight_id or not (folder / FIGHT_STATE).exists():
                continue
            state = self._read_folder_state(folder)
            if state is None or state.path is None:
                continue
            try:
                same = Path(state.path).resolve() == wanted
            except (OSError, RuntimeError):
                continue
            if same and in_use(folder):
                return True
        return False

    def gm_files(self) -> list[Path]:
        """The GM's files the autosaved fights were saved to or opened from."""
        states = [self.read_state()]
        states.extend(self._read_folder_state(folder) for folder in self._fight_folders())
        return sorted({Path(state.path) for state in states
                       if state is not None and state.path is not None})

    def _info(self, fight_id: str, state: AutosaveState) -> RecoveryInfo | None:
        """What the start-up question says about a fight, or None if none of its
        snapshots can be read."""
        try:
            # After a normal quit the fight comes back without a question: a long one
            # shows at once and its history follows (storage/history.py). After a crash
            # the question tells the log's length, so it is read first.
            loaded = self._load(fight_id, live_first=state.clean_exit)
        except FileProblem as problem:
            log.warning("autosave cannot be restored: %s", problem)
            return None
        session = loaded.session
        last = session.log[-1].summary if session.log else ""
        unsaved = _unsaved(state.path, state.saved_gen, loaded.gen, loaded.journal_records)
        return RecoveryInfo(
            fight_id=fight_id,
            path=Path(state.path) if state.path else None,
            clean_exit=state.clean_exit,
            fight_name=session.encounter.name,
            round=session.encounter.round,
            actions=len(session.log),
            last_action=last,
            changed_at=loaded.changed_at,
            unsaved=unsaved,
            problem=loaded.problem,
            in_use=fight_id != self._fight_id and in_use(self.root / fight_id),
        )

    def restore(self, fight_id: str | None = None) -> Session:
        """The fight exactly as it was after its last recorded action (reads only).

        Raises FileProblem when no snapshot of the fight can be read.
        """
        session, history = self.restore_live_first(fight_id)
        if history is not None:
            history.complete()
        return session

    def restore_live_first(self, fight_id: str | None = None) -> tuple[Session, HistoryLoad | None]:
        """:meth:`restore`, with the history of a long fight reopened after a normal quit
        possibly still to be read (give it to the ``Engine``: it reads the rest before
        anything needs it)."""
        if fight_id is None:
            state = self.read_state()
            if state is None or state.fight_id is None:
                raise FileProblem(self.root, "there is no autosaved fight to restore")
            fight_id = state.fight_id
        if self._cache is not None and self._cache[0] == fight_id:
            loaded = self._cache[1]
            self._cache = None
            return loaded.session, loaded.history
        loaded = self._load(fight_id)
        return loaded.session, loaded.history

    def _load(self, fight_id: str, *, live_first: bool = False) -> _Loaded:
        if self._cache is not None and self._cache[0] == fight_id:
            return self._cache[1]
        with gc_paused():
            return self._load_newest(fight_id, live_first)

    def _load_newest(self, fight_id: str, live_first: bool = False) -> _Loaded:
        folder = self.root / fight_id
        try:
            gens = sorted(
                (int(m.group(1)) for p in folder.iterdir() if (m := BASE.match(p.name))),
                reverse=True,
            )
        except OSError as exc:
            raise FileProblem(folder, f"cannot read: {describe_os_error(exc)}") from exc
        problems: list[str] = []
        for gen in gens:
            base = folder / f"base-{gen:06d}.json"
            journal_path = folder / f"journal-{gen:06d}.jsonl"
            history: HistoryLoad | None = None
            try:
                if live_first and _empty(journal_path):
                    # Nothing to replay onto it: the snapshot's history can come later.
                    session, history = open_live_first(base)
                else:
                    session = load_snapshot(base)
            except FileProblem as problem:
                problems.append(str(problem))
                continue
            try:
                contents = read_journal(journal_path)
            except FileProblem as problem:
                problems.append(str(problem))
                contents = None
            done = 0
            if contents is not None:
                done, mismatch = replay(session, contents.records)
                if contents.problem:
                    problems.append(contents.problem)
                if mismatch:
                    problems.append(f"{journal_path}: {mismatch}")
            changed = max(
                (p.stat().st_mtime for p in (base, journal_path) if p.exists()), default=0.0
            )
            loaded = _Loaded(session, gen, done, changed, "; ".join(problems) or None, history)
            self._cache = (fight_id, loaded)
            return loaded
        detail = f" ({'; '.join(problems)})" if problems else ""
        raise FileProblem(folder, f"no readable autosave snapshot{detail}")

    # --- telling the GM -----------------------------------------------------------------
    def _failed(self, problem: FileProblem) -> None:
        self._failing = True
        self._report(False, f"Autosave failed: {problem}. {self._advice()}")

    def _recovered(self) -> None:
        if self._failing:
            self._failing = False
            self._report(True, "Autosave works again: every action is safe on disk.")

    def _advice(self) -> str:
        n = self._behind
        retry = "autosave retries after every action."
        if n <= 0:
            return f"The last good autosave is kept; {retry}"
        actions = "action is" if n == 1 else "actions are"
        return (f"Your last {n} {actions} only in memory; the last good autosave is kept. "
                f"Free some space or use File > Save As on another disk; {retry}")

    def _report(self, ok: bool, message: str) -> None:
        if ok:
            log.info("%s", message)
        else:
            log.warning("%s", message)
        if self.on_status is not None:
            self.on_status(ok, message)


def _publish_copy(source: Path, target: Path) -> None:
    """Make ``target`` a durable copy of the finished snapshot ``source`` (a hard link
    when the file system allows, else an atomic copy)."""
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        os.link(source, tmp)
    except OSError:
        try:
            data = source.read_bytes()
        except OSError as exc:
            raise FileProblem(source, f"cannot read: {describe_os_error(exc)}") from exc
        atomic_write_bytes(target, data, keep_backup=False)
        return
    try:
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise FileProblem(target, f"could not save: {describe_os_error(exc)}") from exc
    fsync_dir(target.parent)


def _empty(path: Path) -> bool:
    """A journal with nothing in it (or none at all)."""
    try:
        return path.stat().st_size == 0
    except OSError:
        return not path.exists()


def load_snapshot(path: Path) -> Session:
    """Read one autosave snapshot; FileProblem names the file and the field at fault."""
    path = Path(path)
    with one_error_type(path):
        data = read_text(path)
        try:
            # Fast path: snapshots are written by this code in the current schema.
            session = Session.model_validate_json(data)
        except ValidationError:
            # Slow path for the wording (and for snapshots of an older schema version).

            return session_from_json(data, path)

        check_consistency(session, path)
        check_session(session, path)  # a snapshot is trusted no more than any file
        return session
