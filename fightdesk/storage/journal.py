"""The autosave journal: every change of the fight's history, on disk before the next click.

One JSON record per line, appended with a single write and fsynced:

* ``{"op": "apply", "entry": {...}}`` - a new log entry (its ``changes`` replay it);
* ``{"op": "undo", "seqs": [...]}`` / ``{"op": "redo", "seqs": [...]}`` - whole steps
  moved between the log and the redo list, named by the seqs of their entries (one step,
  or every step a Revert to here took back).

A crash can only cut the last line short; a line without its newline was never
written as far as :func:`read_journal` is concerned. Replaying applies the logged
changes (no rule runs again, no die is re-rolled) and moves undo steps with the
engine's own ``undo``/``redo``, so the restored history behaves exactly like the live one.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..engine.changes import MISFIT_ERRORS, apply_all_or_none
from ..engine.engine import Engine, StepFailed
from ..engine.model import LogEntry, Session, upgrade_entry_v1
from .files import FileProblem, describe_os_error, fsync_dir


class ApplyRecord(BaseModel):
    """A command was applied: the log grew by ``entry`` and the redo list was cleared."""

    # Built on first use, at the first action: the fight is shown without them.
    model_config = ConfigDict(extra="forbid", defer_build=True)

    op: Literal["apply"] = "apply"
    entry: LogEntry


class StepRecord(BaseModel):
    """A whole undo step (the log entries ``seqs``) was undone or redone."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    op: Literal["undo", "redo"]
    seqs: list[int]


Record = Annotated[ApplyRecord | StepRecord, Field(discriminator="op")]


@cache
def _records() -> TypeAdapter[ApplyRecord | StepRecord]:
    return TypeAdapter(Record)


def encode(record: ApplyRecord | StepRecord) -> bytes:
    """One journal line, newline included."""
    return _records().dump_json(record) + b"\n"


class Journal:
    """An append-only journal file; each :meth:`append` is durable when it returns.

    After a failed append the journal refuses further appends (the caller starts a
    fresh journal after a full snapshot instead), so a half-written line can only
    ever be the last one.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self._size = 0
        self.broken = False
        self.records = 0

    def open(self) -> None:
        """Create (or reopen) the file for appending and make its name durable."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            existed = self.path.exists()
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            self._size = os.fstat(fd).st_size
            self._fd = fd
            if not existed:
                os.fsync(fd)
                fsync_dir(self.path.parent)
        except OSError as exc:
            self.broken = True
            raise FileProblem(self.path, f"could not write: {describe_os_error(exc)}") from exc

    def append(self, record: ApplyRecord | StepRecord) -> None:
        """Write one whole line and fsync it; raise FileProblem if the disk says no."""
        if self._fd is None or self.broken:
            raise FileProblem(self.path, "the journal is closed after an earlier write failure")
        data = encode(record)
        fd = self._fd
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        except OSError as exc:
            self.broken = True
            # Best effort: cut the half line off so the file ends on a whole record.
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._size)
            raise FileProblem(self.path, f"could not write: {describe_os_error(exc)}") from exc
        self._size += len(data)
        self.records += 1

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


@dataclass
class JournalContents:
    """What :func:`read_journal` found: the whole records, and why it stopped early if it did."""

    records: list[ApplyRecord | StepRecord] = field(default_factory=list)
    torn_tail: bool = False
    problem: str | None = None


def read_journal(path: Path) -> JournalContents:
    """Read every whole record; a missing file is an empty journal, a torn last line is
    ignored, and a damaged line in the middle stops the reading with a ``problem``."""
    found = JournalContents()
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return found
    except OSError as exc:
        raise FileProblem(path, f"cannot read: {describe_os_error(exc)}") from exc
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends on a newline, else a torn line
    found.torn_tail = bool(tail.strip())
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            try:
                record: ApplyRecord | StepRecord = _records().validate_json(line)
            except ValidationError:
                older = _older_record(line)
                if older is None:
                    raise
                record = older
            found.records.append(record)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err.get("loc", ()))
            found.problem = f"{path}: line {number}{' at ' + where if where else ''}: {err['msg']}"
            break
    return found


def _older_record(line: bytes) -> ApplyRecord | None:
    """An ``apply`` record whose entry was written before schema version 2 (a journal left
    by the version before), read in today's words; None for any other line."""
    import json


    try:
        raw = json.loads(line)
    except (ValueError, RecursionError):
        return None
    entry = raw.get("entry") if isinstance(raw, dict) else None
    if not isinstance(entry, dict) or "phase" not in entry:
        return None
    record = _records().validate_python({**raw, "entry": upgrade_entry_v1(entry)})
    return record if isinstance(record, ApplyRecord) else None


class ReplayMismatch(Exception):
    """A record that does not fit the history it is replayed onto."""


def replay_record(engine: Engine, record: ApplyRecord | StepRecord) -> None:
    """Apply one journal record to the engine's session exactly as it happened live."""
    session = engine.session
    if isinstance(record, ApplyRecord):
        entry = record.entry
        expected = session.log[-1].seq + 1 if session.log else 0
        if entry.seq != expected:
            raise ReplayMismatch(f"entry {entry.seq} follows entry {expected - 1}")
        # The same steps as Engine.apply after its rule ran: changes, log, redo cleared.
        try:
            apply_all_or_none(session.encounter, entry.changes)
        except MISFIT_ERRORS as exc:
            raise ReplayMismatch(f"entry {entry.seq}'s changes do not fit the fight ({exc})") from exc
        session.log.append(entry)
        session.redo.clear()
        return
    # Undo moves the step's entries, in log order, to the end of the redo list; redo
    # takes them back from there. Either way the source list ends with exactly these.
    source = session.log if record.op == "undo" else session.redo
    present = [e.seq for e in source[-len(record.seqs):]] if record.seqs else []
    if not record.seqs or present != record.seqs:
        raise ReplayMismatch(f"{record.op} of entries {record.seqs}, but the list ends {present}")
    before = len(source)
    try:
        # One record may hold several steps (Revert to here tells its views once).
        while len(source) > before - len(record.seqs):
            if not (engine.undo() if record.op == "undo" else engine.redo()):
                break
    except StepFailed as exc:
        raise ReplayMismatch(str(exc)) from exc
    if before - len(source) != len(record.seqs):
        raise ReplayMismatch(f"{record.op} moved {before - len(source)} entries, not {record.seqs}")


def replay(session: Session, records: Iterable[ApplyRecord | StepRecord]) -> tuple[int, str | None]:
    """Replay ``records`` onto ``session`` in place; returns how many were applied and,
    if one did not fit, why the replay stopped there."""
    engine = Engine(session)
    done = 0
    for record in records:
        try:
            replay_record(engine, record)
        except ReplayMismatch as exc:
            return done, f"record {done + 1} does not fit: {exc}"
        done += 1
    return done, None


def step_record(op: Literal["undo", "redo"], entries: Iterable[LogEntry]) -> StepRecord:
    return StepRecord(op=op, seqs=[e.seq for e in entries])
