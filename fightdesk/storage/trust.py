"""What a session must prove before the window trusts it, beyond its field types.

A file can pass every field check and still break the fight: a log whose changes name a
fighter that is not there, a live fight out of step with its start and log, a move on
the interrupt stack whose die does not exist. Undo, redo and the rules would then fail
in the middle of a step. So a loaded session is checked whole:

* the ruleset's own checks of the live fight and of the start (``Rules.check_state``:
  every id the state refers to exists, every limit its rules assume holds);
* the history proof: the log replays from ``start`` to the live fight. Each entry's
  recorded changes are applied in order to a copy of the start, each ``before`` must be
  what the slot holds, the model must accept each value, and the result must equal the
  live fight. No rule runs again and no die is rolled, so the proof costs about one
  copy of the start plus one validated write per change (benchmarks/storage.py).

A history that does not replay raises :class:`HistoryProblem`, which still holds the
(validated) live fight: the window offers to open it without its history.
No Qt here.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fightdesk.engine import changes
from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import get_ruleset

from .files import FileProblem, shorten

if TYPE_CHECKING:
    from fightdesk.engine.changes import Change
    from fightdesk.engine.model import Encounter, LogEntry, Session


class HistoryProblem(FileProblem):
    """The file's log does not lead from its start to its live fight; the live fight
    itself passed every check and can be opened without the history."""

    def __init__(self, path: Path | str, problem: str, field: str | None,
                 session: Session) -> None:
        super().__init__(path, problem, field)
        self.session = session

    def without_history(self) -> Session:
        """The live fight with an empty log: it starts from here, nothing to undo."""
        live = self.session.encounter
        return Session(schema_version=self.session.schema_version, encounter=live,
                       start=live.model_copy(deep=True))


def check_session(session: Session, source: Path | str) -> None:
    """Refuse a session whose state or history would break the fight (FileProblem)."""
    source = Path(source)
    for name in ("encounter", "start"):
        enc: Encounter = getattr(session, name)
        problems = state_problems(enc)
        if problems:
            where, what = problems[0]
            raise FileProblem(source, what, f"{name}.{where}" if where else name)
    found = first_misfit(session)
    if found is not None:
        where, what = found
        raise HistoryProblem(source, what, where, session)


def state_problems(enc: Encounter) -> list[tuple[str, str]]:
    """The ruleset's checks of one encounter: ``(field path, problem)`` pairs."""
    try:
        ruleset = get_ruleset(enc.ruleset)
    except RuleViolation as exc:
        return [("ruleset", str(exc))]
    return ruleset.rules.check_state(enc)


def first_misfit(session: Session) -> tuple[str, str] | None:
    """Where the log stops replaying from the start to the live fight, and why; None
    when every entry replays and the result is the live fight."""
    proof = history_proof(session.start, session.encounter, session.log, session.redo)
    while True:
        try:
            next(proof)
        except StopIteration as done:
            return done.value


def history_proof(start: Encounter, live: Encounter, log: Sequence[LogEntry],
                  redo: Sequence[LogEntry], batch: int = 50,
                  ) -> Generator[None, None, tuple[str, str] | None]:
    """The proof of a history, a batch of log entries at a time (it yields between
    them, so a long fight's history can be proved between the GM's clicks,
    storage/history.py): the log must replay from ``start`` to ``live``, and the undone
    steps redo onto it. Returns where it stops and why, or None."""
    replay = _Replay(start.model_copy(deep=True))
    apply = replay.apply
    # A batch at a time, without counting each change: which of its entry's changes
    # does not fit is worked out only then (most entries of a long fight hold one or none).
    for first in range(0, len(log), batch):
        for offset, entry in enumerate(log[first:first + batch]):
            for change in entry.changes:
                problem = apply(change)
                if problem is not None:
                    number = _position(entry.changes, change)
                    return f"log[{first + offset}].changes[{number}]", (
                        f"log entry {entry.seq} (\u201c{shorten(entry.summary, 40)}\u201d) "
                        f"does not replay: {_path_text(change)} {problem}")
        if first + batch <= len(log):
            yield
    enc = replay.enc
    if enc != live:
        difference = _first_difference(enc.model_dump(mode="json"),
                                       live.model_dump(mode="json"), "encounter")
        return difference, ("the live fight is not where its start and log lead "
                            "(the log does not replay to it)")
    # The copy now equals the live fight: the undone steps must redo onto it, last
    # undone first, as Redo would take them.
    end = len(redo)
    while end > 0:
        begin = end
        while begin > 0 and redo[begin - 1].step == redo[end - 1].step:
            begin -= 1
        for index in range(begin, end):
            entry = redo[index]
            for number, change in enumerate(entry.changes):
                problem = replay.apply(change)
                if problem is not None:
                    return f"redo[{index}].changes[{number}]", (
                        f"undone entry {entry.seq} (\u201c{shorten(entry.summary, 40)}\u201d) "
                        f"does not redo: {_path_text(change)} {problem}")
        end = begin
    return None


def _position(items: Sequence[Any], item: Any) -> int:
    """Where ``item`` itself (not an equal one) is in ``items`` (a change read from a file
    is an object of its own, so it is there once)."""
    return next(i for i, each in enumerate(items) if each is item)


_PLAIN = (int, str, bool, float, type(None))
# The same, for a look-up by exact type (a subclass such as an enum takes the long way).
_PLAIN_TYPES = frozenset(_PLAIN)


class _Replay:
    """Applies recorded changes to a copy of the start, each checked first (the engine's
    modules are imported once here, not for each of thousands of changes)."""

    def __init__(self, enc: Encounter) -> None:
        from pydantic import BaseModel


        self.enc = enc
        self._model = BaseModel
        self._changes = changes
        # The field names of each model class met, looked up once for thousands of writes.
        self._fields: dict[type, frozenset[str]] = {}
        # What each path written to leads to. Most writes replace a number or a text in
        # a model; no path goes through such a value, so every path found stays where it
        # leads until a write replaces anything else (then they are all forgotten).
        self._holders: dict[tuple[Any, ...], Any] = {}

    def apply(self, change: Change) -> str | None:
        """Apply one change if it fits; else what is wrong (then nothing was applied)."""
        before = change.before
        if change.op == "set" and type(before) in _PLAIN_TYPES:
            # Most writes: a number, a text or None in a field of a model, checked and
            # written here in one go.
            try:
                target = change.target
                holder = self._holders.get(target)
                if holder is None:
                    holder = self._holders[target] = self._changes.resolve(self.enc, target)
                model = type(holder)
                names = self._fields.get(model)
                if names is None and isinstance(holder, self._model):
                    names = self._field_names(model)
                if names is not None:
                    key = change.key if type(change.key) is str else str(change.key)
                    if key not in names:
                        return "is not a field"
                    now = getattr(holder, key)
                    if type(now) is not type(before) or now != before:
                        problem = self._differs(now, holder, change)
                        if problem is not None:
                            return problem
                    # The slot held a plain value, so no path went through it: every
                    # path found still leads where it did.
                    setattr(holder, key, change.after)  # validated by the model
                    return None
            except self._changes.MISFIT_ERRORS as exc:
                return _misfit_text(exc)
        # Anything else may replace a model, a list or a dict some path goes through.
        self._holders.clear()
        try:
            holder = self._changes.resolve(self.enc, change.target)
            problem = self._before_problem(holder, change)
            if problem is None:
                self._changes.apply_change(self.enc, change)
        except self._changes.MISFIT_ERRORS as exc:
            problem = _misfit_text(exc)
        return problem

    def _field_names(self, model: type) -> frozenset[str]:
        names = self._fields.get(model)
        if names is None:
            names = self._fields[model] = self._changes.field_names(model)
        return names

    def _before_problem(self, holder: Any, change: Change) -> str | None:
        """What is wrong with the slot a change writes, before it is written."""
        key = change.key
        if change.op == "put":
            if isinstance(holder, dict) and key in holder:
                return "adds an entry that is there already"
            if isinstance(holder, list) and not 0 <= int(key) <= len(holder):
                return "adds past the end of the list"
            return None
        if isinstance(holder, self._model):
            if str(key) not in self._field_names(type(holder)):
                return "is not a field"
            now = getattr(holder, str(key))
        elif isinstance(holder, list):
            index = int(key)
            if not 0 <= index < len(holder):
                return "is past the end of the list"
            now = holder[index]
        elif isinstance(holder, dict):
            if key not in holder:
                return "is not there"
            now = holder[key]
        else:
            return "is not something a change can write"
        return self._differs(now, holder, change)

    def _differs(self, now: Any, holder: Any, change: Change) -> str | None:
        """What is wrong when the slot does not hold the change's ``before``."""
        if type(now) not in _PLAIN:
            now = self._changes.snapshot(now)
        if now != change.before or type(now) is not type(change.before):
            if now == change.before and isinstance(now, int | float):
                return None  # 3 and 3.0: JSON does not tell them apart
            if isinstance(change.before, dict | list) and now == self._as_read(holder, change):
                return None  # written before a field with a default was added to the model
            return f"held {_show(now)}, not {_show(change.before)} as the log says"
        return None

    def _as_read(self, holder: Any, change: Change) -> Any:
        """The logged ``before`` as today's model reads it (its new fields at their
        defaults), or a marker that equals nothing when the model refuses it."""
        from pydantic import TypeAdapter

        try:
            if isinstance(holder, self._model):
                annotation: Any = type(holder).model_fields[str(change.key)].annotation
                value = TypeAdapter(annotation).validate_python(change.before)
            else:
                value = self._changes.validated_item(self.enc, change.target, change.before)
            return self._changes.snapshot(value)
        except Exception:  # a refused value is simply not a match
            return _NO_MATCH


_NO_MATCH = object()


def _misfit_text(exc: Exception) -> str:
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"is refused by the model: {shorten(str(err.get('msg', 'invalid value')), 80)}"
    if isinstance(exc, LookupError):
        return f"names {shorten(str(exc.args[0]) if exc.args else '?', 40)}, which is not there"
    return f"does not fit ({shorten(str(exc) or type(exc).__name__, 80)})"


def _path_text(change: Change) -> str:
    return shorten(".".join(str(p) for p in (*change.target, change.key)), 60)


def _show(value: Any) -> str:
    import json

    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return shorten(json.dumps(value, ensure_ascii=False), 30)


def _first_difference(got: Any, want: Any, where: str) -> str:
    """The path of the first place two JSON values differ."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in list(want) + [k for k in got if k not in want]:
            if got.get(key, _MISSING) != want.get(key, _MISSING):
                return _first_difference(got.get(key), want.get(key), f"{where}.{key}")
    elif isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for index, (a, b) in enumerate(zip(got, want, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}[{index}]")
    return where


_MISSING = object()
