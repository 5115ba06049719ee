"""Session files: one fight saved as JSON, holding the live state and the whole log.

Loading checks everything before anything is shown, and every failure becomes one
:class:`FileProblem` whose single line names the file, the field path and what is wrong
(``demo.json at encounter.fighters.kaede.status.health: ...``). Loading never writes:
a file that fails to load stays exactly as it was. Saving is atomic and keeps the
previous version as ``<name>.bak`` (see :mod:`fightdesk.storage.files`).

pydantic and the engine are imported when a file is read or written, not when this
module is imported, so the main window can import it without slowing its first paint.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fightdesk.engine import model
from fightdesk.engine.model import (
    KNOWN_RULESETS,
    LogEntry,
    Session,
    upgrade_entry_v1,
)
from fightdesk.engine.rulesets import OLDEST, broken_line
from fightdesk.resources_path import DEMO_FILE, MissingResource, resource_path

from .files import FileProblem, atomic_write_text, gc_paused, one_error_type, read_text
from .trust import check_session

if TYPE_CHECKING:
    from pydantic import ValidationError

    from fightdesk.engine.model import Encounter, Session

SCHEMA_KEY = "schema_version"

Migration = Callable[[dict[str, Any]], dict[str, Any]]



def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2: log entries say where in the round they happened in the ruleset's words
    (``where``, was the street-fighter ``phase``), and EP events name their pool."""
    rounds_with_phases: set[Any] = set()
    for key in ("log", "redo"):
        entries = data.get(key)
        if not isinstance(entries, list):
            continue
        upgraded: list[Any] = []
        for entry in entries:
            if isinstance(entry, dict):
                if entry.get("phase") is not None:
                    rounds_with_phases.add(entry.get("round"))
                entry = upgrade_entry_v1(
                    entry, phases_seen=entry.get("round") in rounds_with_phases)
            upgraded.append(entry)
        data[key] = upgraded
    return data


# Upgrades for files written by older fightdesk versions: MIGRATIONS[n] turns the raw
# JSON of schema version n into that of version n + 1 (and sets its schema_version).
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2}

# Fields whose value is one of the rulesets' data classes (a union tagged by "ruleset").
_RULESET_FIELDS = frozenset({"sheet", "status", "options", "state"})


# --- loading ------------------------------------------------------------------------------


def load_session(path: Path | str) -> Session:
    """Read and fully validate a session file; raises FileProblem and never writes."""
    path = Path(path)
    with one_error_type(path):
        return session_from_json(read_text(path), path)


def session_from_json(text: str, source: Path | str) -> Session:
    """Validate session JSON (already read from ``source``, which is named in errors)."""
    from pydantic import ValidationError


    source = Path(source)
    with gc_paused():
        session = _current_session(text, Session, model.SCHEMA_VERSION)
        if session is not None:
            for root in ("encounter", "start"):
                _check_fighters_agree(getattr(session, root), root, source)
            # Checked with the collector still paused: the proof's thousands of validated
            # writes would otherwise set off collections that find no garbage.
            check_consistency(session, source)
            check_session(session, source)  # the ruleset's checks and the history proof (trust.py)
            return session
    with gc_paused():
        data = _parse_json(text, source)
        version = _schema_version(data, source, model.SCHEMA_VERSION)
        data = migrate(data, version, source)
        try:
            session = Session.model_validate(data)
        except ValidationError as exc:
            # Only a file the models refuse can name an unknown ruleset; the walk that
            # finds it is as slow as the parse itself on a big fight.
            _check_ruleset_ids(data, source)
            raise _validation_problem(exc, source) from None
        for root in ("encounter", "start"):
            check_parts_agree(data.get(root), root, source)
    check_consistency(session, source)
    check_session(session, source)  # the ruleset's checks and the history proof (trust.py)
    return session


def _current_session(text: str, model: type[Session], newest: int) -> Session | None:
    """A file of today's schema that the models accept, parsed straight into them in one
    pass (pydantic's own JSON parser, no Python dicts and lists in between); None for
    anything else, which the full path then reads again to upgrade it or to say plainly
    what is wrong (this halves a big fight's load)."""
    from pydantic import ValidationError

    text = text.removeprefix("\ufeff")
    # Only a file that opens with its schema version as a plain whole number (as every
    # saved file does) and names it once: the models would take "2", 2.0 or a missing
    # version for today's, where the full path refuses them by name.
    head = _CURRENT_HEAD.match(text)
    if head is None or int(head.group(1)) != newest or text.count(f'"{SCHEMA_KEY}"') != 1:
        return None
    try:
        session = model.model_validate_json(text)
    except (ValidationError, ValueError, RecursionError):
        return None
    return session if session.schema_version == newest else None


_CURRENT_HEAD = re.compile(r'[ \t\r\n]*\{[ \t\r\n]*"' + SCHEMA_KEY + r'"[ \t\r\n]*:[ \t\r\n]*([1-9][0-9]{0,8})[ \t\r\n]*,')


def _check_fighters_agree(enc: Encounter, root: str, source: Path) -> None:
    """:func:`check_parts_agree` on a fight the models accepted: they already hold its
    options and round state to its ruleset, and each fighter's status to its sheet."""
    for key, fighter in enc.fighters.items():
        found = fighter.sheet.ruleset
        if found != enc.ruleset:
            raise FileProblem(
                source, f"this part is for {found}, but the fight is {enc.ruleset}",
                _format_loc((root, "fighters", key, "sheet", "ruleset")),
            )


def _parse_json(text: str, source: Path) -> dict[str, Any]:
    text = text.removeprefix("\ufeff")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        body = text.rstrip()
        # An unclosed string runs to the end of the text by definition.
        if exc.pos >= len(body) or exc.msg.startswith("Unterminated string"):
            problem = (
                f"the file ends too early, in the middle of line {body.count(chr(10)) + 1} "
                "(cut off while saving or copying?)"
            )
        else:
            message = _lower_first(exc.msg).removesuffix(" at")
            problem = f"not valid JSON ({message} at line {exc.lineno}, column {exc.colno})"
        raise FileProblem(source, problem) from None
    except RecursionError:
        raise FileProblem(source, "not a fightdesk session: the JSON is nested too deeply") from None
    except ValueError:  # an integer of more than 4,300 digits
        raise FileProblem(source, "a number in the file is far too long (thousands of digits)") from None
    if not isinstance(data, dict):
        raise FileProblem(
            source,
            f"not a fightdesk session: expected a JSON object at the top, found {_json_kind(data)}",
        )
    return data


def _schema_version(data: dict[str, Any], source: Path, newest: int) -> int:
    """Checked before anything else, so a newer file is refused with the real reason."""
    if SCHEMA_KEY not in data:
        raise FileProblem(
            source, "no schema_version, so this is not a fightdesk session file", SCHEMA_KEY
        )
    version = data[SCHEMA_KEY]
    if isinstance(version, bool) or not isinstance(version, int):
        raise FileProblem(
            source, f"must be a whole number, found {_show(version)}", SCHEMA_KEY
        )
    if version > newest:
        raise FileProblem(
            source,
            f"written by a newer fightdesk (session schema version {version}; this fightdesk "
            f"reads up to version {newest}): update fightdesk to open it",
            SCHEMA_KEY,
        )
    if version < 1:
        raise FileProblem(source, f"{version} is not a fightdesk schema version", SCHEMA_KEY)
    return version


def migrate(data: dict[str, Any], version: int, source: Path | str) -> dict[str, Any]:
    """Bring raw session JSON of an older schema version up to the current one."""
    while version < model.SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise FileProblem(
                source,
                f"schema version {version} is too old for this fightdesk (no upgrade from it)",
                SCHEMA_KEY,
            )
        data = step(data)
        version += 1
        data[SCHEMA_KEY] = version
    return data


def _check_ruleset_ids(data: dict[str, Any], source: Path) -> None:
    """Name an unknown ruleset plainly (pydantic would only say a tag does not match),
    and a part of another ruleset than its fight's by its field."""
    for root in ("encounter", "start"):
        for loc, value in _ruleset_ids(data.get(root), (root,)):
            if isinstance(value, str) and value not in KNOWN_RULESETS:
                # A ruleset whose plugin failed to load says so in its one line.
                raise FileProblem(
                    source,
                    broken_line(value) or f"unknown ruleset id {value!r} (this fightdesk "
                    f"knows: {', '.join(KNOWN_RULESETS)})",
                    _format_loc(loc),
                )
        check_parts_agree(data.get(root), root, source)


def check_parts_agree(enc: Any, root: str, source: Path) -> None:
    """The parts of one fight name one ruleset (its options, sheets and round state)."""
    if not isinstance(enc, dict):
        return
    fight = enc.get("ruleset", OLDEST)
    parts: list[tuple[tuple[str | int, ...], Any]] = [
        ((root, part), enc.get(part)) for part in ("options", "state")]
    fighters = enc.get("fighters")
    if isinstance(fighters, dict):
        for key, fighter in fighters.items():
            if isinstance(fighter, dict):
                parts += [((root, "fighters", key, part), fighter.get(part))
                          for part in ("sheet", "status")]
    for loc, part in parts:
        if isinstance(part, dict) and part.get("ruleset", fight) != fight:
            raise FileProblem(
                source, f"this part is for {part.get('ruleset')}, but the fight is {fight}",
                _format_loc((*loc, "ruleset")),
            )


def _ruleset_ids(node: Any, loc: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    if isinstance(node, dict):
        if "ruleset" in node:
            yield (*loc, "ruleset"), node["ruleset"]
        for key, value in node.items():
            if key != "ruleset":
                yield from _ruleset_ids(value, (*loc, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _ruleset_ids(value, (*loc, index))


def _validation_problem(exc: ValidationError, source: Path) -> FileProblem:
    errors = exc.errors(include_url=False)
    first = errors[0]
    kind = first["type"]
    if kind == "missing":
        problem = "a required field is missing"
    elif kind == "extra_forbidden":
        problem = "unknown field (not part of a fightdesk session)"
    else:
        message = first["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        problem = f"{_lower_first(message)} (found {_show(first.get('input'))})"
    if len(errors) > 1:
        more = len(errors) - 1
        problem += f" (and {more} more problem{'s' if more > 1 else ''})"
    return FileProblem(source, problem, _format_loc(_clean_loc(first["loc"])))


def _clean_loc(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """Drop the parts pydantic adds for unions (ruleset tags, class and validator names),
    leaving the path as the GM would find it in the file."""
    cleaned: list[str | int] = []
    for part in loc:
        if isinstance(part, str):
            if cleaned and cleaned[-1] in _RULESET_FIELDS and part in KNOWN_RULESETS:
                continue
            if re.fullmatch(r"[A-Z]\w*", part) or "[" in part or "(" in part:
                continue
        cleaned.append(part)
    return tuple(cleaned)


def check_consistency(session: Session, source: Path) -> None:
    """Cross-field facts the models cannot check alone; a break here would crash a view."""
    for name in ("encounter", "start"):
        _check_encounter(getattr(session, name), name, source)
    seqs = [entry.seq for entry in session.log]
    if seqs == sorted(set(seqs)):  # rising throughout: checked at C speed
        return
    for index in range(1, len(seqs)):
        if seqs[index] <= seqs[index - 1]:
            raise FileProblem(
                source, f"log entries are out of order (seq {seqs[index]} after {seqs[index - 1]})",
                f"log[{index}].seq",
            )


def _check_encounter(enc: Encounter, name: str, source: Path) -> None:
    for key, fighter in enc.fighters.items():
        where = f"{name}.fighters.{key}"
        if fighter.id != key:
            raise FileProblem(
                source, f"the fighter's id {fighter.id!r} does not match its key {key!r}", f"{where}.id"
            )
        if fighter.ruleset != enc.ruleset:
            raise FileProblem(
                source, f"a {fighter.ruleset} fighter in a {enc.ruleset} fight", f"{where}.sheet.ruleset"
            )
        if fighter.group is not None and fighter.group not in enc.groups:
            raise FileProblem(source, f"no group {fighter.group!r} in this fight", f"{where}.group")
    seen: set[str] = set()
    for index, fighter_id in enumerate(enc.order):
        if fighter_id not in enc.fighters:
            raise FileProblem(
                source, f"{fighter_id!r} is not one of the fighters", f"{name}.order[{index}]"
            )
        if fighter_id in seen:
            raise FileProblem(source, f"{fighter_id!r} is listed twice", f"{name}.order[{index}]")
        seen.add(fighter_id)


# --- saving -------------------------------------------------------------------------------


def session_to_json(session: Session) -> str:
    """The text of a session file (current schema version), readable in any editor: the
    live fight and its start indented, then the log one entry to a line.

    Its changes and events leave out what is at its default (a change's ``"op": "set"``,
    an event's empty ``data``; see their fields), and the entries are not indented: the
    two were two thirds of a long fight's file. Any fightdesk that reads
    schema version 2 reads it, as the defaults fill back in."""
    if session.schema_version != model.SCHEMA_VERSION:
        session = session.model_copy(update={"schema_version": model.SCHEMA_VERSION})
    head = session.model_dump_json(indent=1, exclude={"log", "redo"})
    parts = [head.removesuffix("}").rstrip()]
    for name in ("log", "redo"):
        entries = getattr(session, name)
        if not entries:
            parts.append(f',\n "{name}": []')
            continue
        # One dump of the whole list, then a line break before each entry: inside a JSON
        # string a quote is always escaped, so '},{"seq":' is only ever between objects
        # (at worst a break inside an entry, which JSON allows anywhere between tokens).
        text = _entries_json(entries)[1:-1].replace('},{"seq":', '},\n{"seq":')
        parts.append(f',\n "{name}": [\n{text}\n ]')
    parts.append("\n}\n")
    return "".join(parts)


def _entries_json(entries: list[Any]) -> str:
    from pydantic import TypeAdapter


    global _LOG_ADAPTER
    if _LOG_ADAPTER is None:
        _LOG_ADAPTER = TypeAdapter(list[LogEntry])
    return _LOG_ADAPTER.dump_json(entries).decode("utf-8")


_LOG_ADAPTER: Any = None


def save_session(session: Session, path: Path | str) -> None:
    """Write atomically, keeping the previous file as ``<name>.bak``; FileProblem on failure
    (the file on disk is then untouched)."""
    from pydantic_core import PydanticSerializationError

    path = Path(path)
    try:
        text = session_to_json(session)
    except (PydanticSerializationError, ValueError, TypeError) as exc:
        raise FileProblem(path, f"could not save: the fight holds a value JSON cannot store ({exc})") from exc
    atomic_write_text(path, text)


# --- the bundled demo ---------------------------------------------------------------------


def demo_session() -> Session:
    """The demo fight shipped in ``resources/`` (what the app opens the very first time)."""
    try:
        path = resource_path(DEMO_FILE)
    except MissingResource as exc:
        raise FileProblem(DEMO_FILE, f"the bundled demo fight is missing ({exc})") from None
    return load_session(path)


# --- wording ------------------------------------------------------------------------------


def _format_loc(loc: tuple[str | int, ...]) -> str:
    """``("encounter", "fighters", "kaede", "sheet", "maneuvers", 2, "speed")`` ->
    ``encounter.fighters.kaede.sheet.maneuvers[2].speed``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _json_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return "a number"


def _show(value: Any) -> str:
    """A short JSON-ish rendering of a bad value for a one-line message."""
    if isinstance(value, dict | list):
        return _json_kind(value)
    text = json.dumps(value, ensure_ascii=False) if _is_jsonable(value) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:37] + "..."


def _is_jsonable(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text
