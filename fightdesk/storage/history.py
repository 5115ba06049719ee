"""Open a session file live fight first: its history (log, redo list) arrives after.

A long fight's file is mostly its log: at 5,000 entries the live fight and its start
are a few kilobytes of several megabytes, and reading, checking and proving the log
costs far more than showing the fight. :func:`open_live_first` reads the file's head
(schema version, live fight, start) and checks it as a load does; the rest is a
:class:`HistoryLoad`, done a slice at a time (:meth:`HistoryLoad.step`) or at once
(:meth:`HistoryLoad.complete`) whenever something needs the history before it is in.

Nothing is checked less than by :func:`~fightdesk.storage.sessions.load_session`: the
log is parsed, validated, its order checked and replayed from the start to the live
fight (and the redo list onto it), as ``trust.py`` does. Whenever a slice finds
anything amiss the whole file goes through ``session_from_json``, so the GM reads the
same one-line message a load gives. A file the head reading does not expect (an older
schema, members in another order) is simply loaded whole. No Qt here.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fightdesk.engine import model
from fightdesk.engine.model import Encounter, LogEntry, Session

from .files import FileProblem, gc_paused, one_error_type, read_text
from .sessions import check_consistency, check_parts_agree, session_from_json
from .trust import HistoryProblem, history_proof, state_problems

if TYPE_CHECKING:
    from fightdesk.engine.model import Session

#: The members of a session file the head holds, and those of its history.
HEAD = frozenset({"schema_version", "encounter", "start"})
HISTORY = ("log", "redo")
#: Files shorter than this (about 180 log entries) load whole: it is quick anyway.
LIVE_FIRST_FROM = 256 * 1024
#: How many log entries one slice parses, validates or replays between looks at the clock.
BATCH = 50

_SPACE = re.compile(r"[ \t\n\r]*")
_LIST_START = re.compile(r"[ \t\n\r]*:[ \t\n\r]*\[[ \t\n\r]*(.)", re.DOTALL)
_DECODER = json.JSONDecoder()
_LOG_ADAPTER: Any = None


class _Unexpected(Exception):
    """Something the live-first reading does not handle: the whole load decides."""


def open_live_first(path: Path | str) -> tuple[Session, HistoryLoad | None]:
    """The session in ``path``: with its history still to come (a :class:`HistoryLoad`
    that fills in ``log`` and ``redo``), or, for a file the head reading does not
    expect, or a short one, loaded whole (None). Raises FileProblem as
    ``load_session`` does."""
    path = Path(path)
    with one_error_type(path):
        text = read_text(path)
        if len(text) < LIVE_FIRST_FROM:
            return session_from_json(text, path), None
        with gc_paused():
            try:
                session, tail, has = _read_head(text, path)
            except _Unexpected:
                return session_from_json(text, path), None
        return session, HistoryLoad(text, tail, path, session, has_log=has[0], has_redo=has[1])


def _read_head(text: str, source: Path) -> tuple[Session, int, tuple[bool, bool]]:
    """The live fight and its start, checked; where the history begins; whether the
    log and the redo list hold anything."""
    from pydantic import ValidationError



    text = text.removeprefix("\ufeff")
    pos = _skip(text, 0)
    if not text.startswith("{", pos):
        raise _Unexpected
    pos += 1
    head: dict[str, Any] = {}
    tail = -1
    while True:
        pos = _skip(text, pos)
        if not text.startswith('"', pos):
            raise _Unexpected
        key, after = _value(text, pos)
        if key in HISTORY:
            tail = pos
            break
        if key not in HEAD or key in head:
            raise _Unexpected
        pos = _skip(text, after)
        if not text.startswith(":", pos):
            raise _Unexpected
        head[key], pos = _value(text, _skip(text, pos + 1))
        pos = _skip(text, pos)
        if not text.startswith(",", pos):
            raise _Unexpected  # a file of no history: nothing to put off
        pos += 1
    if set(head) != HEAD or head["schema_version"] != model.SCHEMA_VERSION or \
            isinstance(head["schema_version"], bool):
        raise _Unexpected
    try:
        for root in ("encounter", "start"):
            check_parts_agree(head[root], root, source)
        session = Session(schema_version=model.SCHEMA_VERSION,
                          encounter=Encounter.model_validate(head["encounter"]),
                          start=Encounter.model_validate(head["start"]))
        check_consistency(session, source)
    except (ValidationError, FileProblem):
        raise _Unexpected from None  # the load names the first problem, as it would
    for name in ("encounter", "start"):
        if state_problems(getattr(session, name)):
            raise _Unexpected
    return session, tail, _has_entries(text, tail)


def _has_entries(text: str, tail: int) -> tuple[bool, bool]:
    """Whether the log and the redo list seem to hold anything (for the Undo and Redo
    buttons while the history loads): the first list at ``tail``, the other at its last
    mention in the file; a list not plainly empty counts as holding something."""
    found: dict[str, bool] = {}
    for name in HISTORY:
        at = tail if text.startswith(f'"{name}"', tail) else text.rfind(f'"{name}"', tail)
        match = _LIST_START.match(text, at + len(name) + 2) if at >= 0 else None
        found[name] = match is not None and match.group(1) != "]"
    return found["log"], found["redo"]


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


def _value(text: str, pos: int) -> tuple[Any, int]:
    try:
        return _DECODER.raw_decode(text, pos)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise _Unexpected from None


class HistoryLoad:
    """The history of a session opened live fight first, still to be read into it.

    ``step`` does a slice (about ``seconds`` of work) and says whether all is done;
    ``complete`` does the rest at once. Once done, the session holds its log and redo
    list, or, when the history cannot be read, none (``problem`` says why, in the words
    of a load; the start is then the live fight, as "open without its history" makes it).
    The live fight must not change before the history is in (the engine sees to it)."""

    def __init__(self, text: str, tail: int, source: Path, session: Session, *,
                 has_log: bool, has_redo: bool) -> None:
        self.source = source
        self.session = session
        self.has_log = has_log
        self.has_redo = has_redo
        self.problem: FileProblem | None = None
        self.done = False
        self._text = text
        self._work = self._slices(tail)
        self._entries = 0

    @property
    def entries(self) -> int:
        """How many log and redo entries are read so far (for a progress line)."""
        return self._entries

    def step(self, seconds: float = 0.008) -> bool:
        """Read on for about ``seconds``; True once the history is in (or refused)."""
        if self.done:
            return True
        until = time.perf_counter() + seconds
        with gc_paused():
            try:
                for _ in self._work:
                    if time.perf_counter() >= until:
                        return False
            except Exception:  # _Unexpected or worse: the whole file's load says what, in
                self._load_whole()  # a GM's words
        self._finish()
        return True

    def complete(self) -> None:
        """Read the rest of the history now."""
        while not self.step(3600.0):
            pass

    def _finish(self) -> None:
        self.done = True
        self._text = ""
        self._work = iter(())

    def _load_whole(self) -> None:
        """A slice found something amiss: the load of the whole file decides, and gives
        the message a load gives."""
        session = self.session
        try:
            with one_error_type(self.source):  # whatever it is, one line for the GM
                whole = session_from_json(self._text, self.source)
        except HistoryProblem as problem:
            self._without_history(problem)
            return
        except FileProblem as problem:
            self._without_history(problem)
            return
        # Stricter here than a load (it should not be): the load's history it is.
        session.start = whole.start
        session.log[:] = whole.log
        session.redo[:] = whole.redo

    def _without_history(self, problem: FileProblem) -> None:
        session = self.session
        self.problem = problem
        session.start = session.encounter.model_copy(deep=True)
        session.log.clear()
        session.redo.clear()

    # --- the slices ----------------------------------------------------------------------
    def _slices(self, pos: int) -> Iterator[None]:
        """The history's reading, proof and adoption, yielding between batches."""
        raw: dict[str, list[Any]] = {name: [] for name in HISTORY}
        yield from self._parse(pos, raw)
        entries: dict[str, list[Any]] = {name: [] for name in HISTORY}
        for name in HISTORY:
            rows = raw[name]
            for first in range(0, len(rows), BATCH * 4):
                entries[name].extend(_validated(rows[first:first + BATCH * 4]))
                yield
        log, redo = entries["log"], entries["redo"]
        if any(log[n].seq <= log[n - 1].seq for n in range(1, len(log))):
            raise _Unexpected
        yield from self._prove(log, redo)
        session = self.session
        session.log.extend(log)
        session.redo.extend(redo)

    def _parse(self, pos: int, raw: dict[str, list[Any]]) -> Iterator[None]:
        text = self._text
        seen: set[str] = set()
        while True:
            key, pos = _value(text, _skip(text, pos))
            if key not in HISTORY or key in seen:
                raise _Unexpected  # another member, or one twice: the load says what
            seen.add(key)
            pos = _skip(text, pos)
            if not text.startswith(":", pos):
                raise _Unexpected
            pos = _skip(text, pos + 1)
            if not text.startswith("[", pos):
                raise _Unexpected
            pos = _skip(text, pos + 1)
            rows = raw[key]
            if text.startswith("]", pos):
                pos += 1
            else:
                while True:
                    row, pos = _value(text, pos)
                    rows.append(row)
                    self._entries += 1
                    if len(rows) % BATCH == 0:
                        yield
                    pos = _skip(text, pos)
                    if text.startswith(",", pos):
                        pos = _skip(text, pos + 1)
                        continue
                    if text.startswith("]", pos):
                        pos += 1
                        break
                    raise _Unexpected
            pos = _skip(text, pos)
            if text.startswith(",", pos):
                pos += 1
                continue
            if text.startswith("}", pos) and not text[pos + 1:].strip():
                return
            raise _Unexpected

    def _prove(self, log: list[Any], redo: list[Any]) -> Iterator[None]:
        """trust.py's history proof, in slices: the log replays from the start to the
        live fight, and the undone steps redo onto it."""
        session = self.session
        misfit = yield from history_proof(session.start, session.encounter, log, redo,
                                          BATCH)
        if misfit is not None:
            raise _Unexpected  # the whole load names it, in its words
        yield


def _validated(rows: list[Any]) -> list[Any]:
    from pydantic import ValidationError

    global _LOG_ADAPTER
    if _LOG_ADAPTER is None:
        from pydantic import TypeAdapter


        _LOG_ADAPTER = TypeAdapter(list[LogEntry])
    try:
        return list(_LOG_ADAPTER.validate_python(rows))
    except ValidationError:
        raise _Unexpected from None
