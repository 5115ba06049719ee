"""The campaign fighter library: the GM's recurring fighters, kept between fights.

One JSON file per campaign in ``data_dir()/campaigns`` (the file name is the campaign's
name), written atomically like sessions and validated fighter by fighter on load, so a
bad file gives one message naming the file, the fighter and the field. Every edit is a
:class:`LibraryStep` of invertible :class:`FighterChange` s, which gives the library its
own undo history, separate from the fight's. No Qt here: the panel is a face over this.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from fightdesk.engine.changes import field_names
from fightdesk.engine.commands import AddFighters
from fightdesk.engine.listeners import Listeners
from fightdesk.engine.model import ID_PATTERN, KNOWN_RULESETS, Encounter, Fighter, Sheet, Status
from fightdesk.engine.rulesets import OLDEST
from fightdesk.engine.tables import RollTable, describe_error
from fightdesk.paths import data_dir
from fightdesk.resources_path import MissingResource, resource_dir

from ..engine.changes import RuleViolation
from ..engine.ruleset import get_ruleset
from .files import (
    FileProblem,
    atomic_write_bytes,
    atomic_write_text,
    describe_os_error,
    gc_paused,
    one_error_type,
    read_text,
    shorten,
)

LIBRARY_SCHEMA_VERSION = 1
CAMPAIGN_KIND = "campaign"
FIGHTERS_KIND = "fighters"
DRAG_KIND = "drag-fighters"
# The mime type of fighters dragged from the library panel onto the fight.
FIGHTER_MIME = "application/x-fightdesk-fighters+json"
HISTORY_LIMIT = 500
_TOP_KEYS = {"fightdesk", "schema_version", "fighters", "tables"}



class LibraryError(Exception):
    """A library request that cannot be done (unknown fighter, name taken); the message
    is shown to the GM as is."""


class UnsavedEdits(LibraryError):
    """The open campaign has edits that could not be saved: opening another would lose
    them (the GM may choose to)."""


class LibraryProblem(FileProblem):
    """A campaign or import file with a bad fighter: names the file, the fighter (by
    number and name) and the field at fault."""

    def __init__(self, path: Path | str, problem: str, field: str | None = None,
                 fighter: str | None = None) -> None:
        super().__init__(path, problem, field)
        self.fighter = fighter
        parts = [str(self.path)]
        if fighter:
            parts.append(shorten(fighter, 50))
        if self.field:
            parts.append(f"field {self.field}")
        self.args = (f"{', '.join(parts)}: {self.problem}",)

    def __str__(self) -> str:
        return str(self.args[0])


# --- the ruleset's data classes ---------------------------------------------------------


def _model_classes(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic classes inside a type (a class, a union, an annotated union)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found.extend(_model_classes(arg))
    return found


def _by_ruleset(annotation: Any) -> dict[str, type[BaseModel]]:
    return {str(cls.model_fields["ruleset"].default): cls for cls in _model_classes(annotation)}


SHEETS: dict[str, type[BaseModel]] = _by_ruleset(Sheet)
STATUSES: dict[str, type[BaseModel]] = _by_ruleset(Status)


def lasting_fields(ruleset: str) -> tuple[str, ...]:
    """What of a fighter's status outlasts one fight: each ruleset declares it
    (``Rules.lasting_status``); it is carried into the next fight and written back."""
    try:
        return get_ruleset(ruleset).rules.lasting_status
    except RuleViolation:
        return ()


def rested_pairs(ruleset: str) -> dict[str, str]:
    """Each lasting status value -> the sheet field holding its full rating, as the
    ruleset pairs them (``Rules.rested_pairs``: d100's Hp is full at Max hp)."""
    try:
        return get_ruleset(ruleset).rules.rested_pairs()
    except RuleViolation:
        return {}


def rested_status(sheet: BaseModel) -> Any:
    """A fresh status: every lasting value at the sheet's full rating."""
    ruleset = str(getattr(sheet, "ruleset", ""))
    try:
        values = get_ruleset(ruleset).rules.rested_values(sheet)
    except RuleViolation:
        values = {}
    return STATUSES[ruleset](**values)


def new_fighter(ruleset: str = OLDEST, name: str = "New fighter",
                fighter_id: str = "new") -> Fighter:
    """A blank fighter of ``ruleset`` with the sheet's defaults, fully rested."""
    if ruleset not in SHEETS:
        raise LibraryError(f"unknown ruleset {ruleset!r} (known: {', '.join(SHEETS)})")
    sheet = SHEETS[ruleset]()
    return Fighter(id=fighter_id, name=name, sheet=sheet, status=rested_status(sheet))


def fighter_problems(fighter: Fighter) -> list[tuple[str, str]]:
    """Checks pydantic cannot make on one field: ``(field path, message)`` pairs."""
    problems: list[tuple[str, str]] = []
    sheet, status = fighter.sheet, fighter.status
    sheet_class: type[BaseModel] = type(sheet)
    sheet_fields = field_names(sheet_class)  # looked up once per class, not per fighter
    # Each lasting value against the sheet field of its full rating, as the ruleset
    # pairs them (d100's Hp against Max hp), not only a field of the same name.
    for name, full_name in rested_pairs(fighter.ruleset).items():
        if full_name not in sheet_fields or not hasattr(status, name):
            continue
        now, full = getattr(status, name), getattr(sheet, full_name)
        if isinstance(now, dict) and isinstance(full, dict):  # named stats: each one
            for key, value in now.items():
                if key in full and value > full[key]:
                    problems.append((f"status.{name}",
                                     f"current {key} {value} is above the sheet's {full[key]}"))
            continue
        if now > full:
            rating = "" if full_name == name else f"{_label(full_name)} "
            problems.append((f"status.{name}",
                             f"current {_label(name)} {now} is above the sheet's "
                             f"{rating}{full}"))
    maneuvers = getattr(sheet, "maneuvers", None)
    if isinstance(maneuvers, list) and not _names_distinct(maneuvers):
        seen: dict[str, int] = {}
        for i, m in enumerate(maneuvers):
            name = str(getattr(m, "name", "")).strip()
            if not name:
                problems.append((f"sheet.maneuvers.{i}.name", "a maneuver needs a name"))
            elif name.casefold() in seen:
                problems.append((f"sheet.maneuvers.{i}.name",
                                 f"maneuver {name!r} is listed twice"))
            else:
                seen[name.casefold()] = i
    return problems


def _label(field: str) -> str:
    """A field name as the GM reads it ("max_hp" -> "max hp")."""
    return field.replace("_", " ")


def _names_distinct(maneuvers: list[Any]) -> bool:
    """Whether every maneuver has a name and no two share one (in any case): the usual
    answer, found without the walk that words a problem (a campaign of 2,000 fighters
    holds some 30,000 maneuvers)."""
    folded = {str(getattr(m, "name", "")).strip().casefold() for m in maneuvers}
    return len(folded) == len(maneuvers) and "" not in folded


# --- validation of files ----------------------------------------------------------------


def field_path(loc: Sequence[int | str]) -> str:
    parts = [str(p) for p in loc]
    # A discriminated union puts the ruleset tag into the path: drop it.
    return ".".join(p for p in parts if p not in KNOWN_RULESETS)


def error_text(err: Any) -> str:
    """A pydantic error in the GM's words, with the value that was given."""
    kind = err.get("type", "")
    if kind == "missing":
        return "is missing"
    if kind == "string_too_short":
        return "cannot be empty"
    if kind == "extra_forbidden":
        return "is not a field fightdesk knows"
    text = str(err.get("msg", "is not valid"))
    given = err.get("input")
    if isinstance(given, int | float | str | bool) and not isinstance(given, dict):
        text += f" (got {shorten(repr(given), 40)})"
    return text


def _fighter_label(index: int, raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, dict) else None
    if isinstance(name, str) and name.strip():
        return f'fighter #{index + 1} "{shorten(name, 40)}"'
    return f"fighter #{index + 1}"


def validate_fighter(raw: Any, path: Path, index: int) -> Fighter:
    """One fighter of a file, or a LibraryProblem naming file, fighter and field."""
    label = _fighter_label(index, raw)
    if not isinstance(raw, dict):
        raise LibraryProblem(path, "is not a fighter (expected a JSON object)", fighter=label)
    sheet = raw.get("sheet")
    if isinstance(sheet, dict):
        ruleset = sheet.get("ruleset")
        if isinstance(ruleset, str) and ruleset not in KNOWN_RULESETS:
            raise LibraryProblem(
                path, f"unknown ruleset id {ruleset!r} (known: {', '.join(KNOWN_RULESETS)})",
                "sheet.ruleset", label)
    try:
        fighter = Fighter.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise LibraryProblem(path, error_text(err), field_path(err["loc"]), label) from None
    problems = fighter_problems(fighter)
    if problems:
        where, what = problems[0]
        raise LibraryProblem(path, what, where, label)
    return fighter


def _parse_json(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LibraryProblem(
            path, f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise LibraryProblem(path, "the JSON is nested too deeply to be a fightdesk file") from None
    except ValueError:  # an integer of more than 4,300 digits
        raise LibraryProblem(path, "a number in the file is far too long "
                             "(thousands of digits)") from None


def _check_version(path: Path, data: dict[str, Any]) -> None:
    version = data.get("schema_version")
    if version is None:
        raise LibraryProblem(path, "is missing", "schema_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LibraryProblem(path, f"must be a whole number from 1 (got {version!r})",
                             "schema_version")
    if version > LIBRARY_SCHEMA_VERSION:
        raise LibraryProblem(
            path, f"written by a newer fightdesk (schema version {version}; this version "
            f"reads up to {LIBRARY_SCHEMA_VERSION}); update fightdesk to open it")


def _fighter_list(path: Path, data: dict[str, Any]) -> list[Any]:
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise LibraryProblem(path, "is not a field fightdesk knows", unknown[0])
    raw = data.get("fighters")
    if raw is None:
        raise LibraryProblem(path, "is missing", "fighters")
    if not isinstance(raw, list):
        raise LibraryProblem(path, "must be a list of fighters", "fighters")
    return raw


def _what_it_is(data: Any) -> str | None:
    if isinstance(data, dict) and "encounter" in data and "log" in data:
        return "this is a fight session file, not a campaign or fighter file"
    return None


class _CampaignFile(BaseModel):
    """A whole campaign file, validated in one pass (the fast path of a good file)."""

    model_config = ConfigDict(extra="forbid")

    fightdesk: Literal["campaign"]
    schema_version: StrictInt = Field(ge=1, le=LIBRARY_SCHEMA_VERSION)
    fighters: list[Fighter]
    # The campaign's roll tables (engine/tables.py); files without them load as before.
    tables: list[RollTable] = Field(default_factory=list)


def _check_fighters(path: Path, fighters: list[Fighter]) -> list[Fighter]:
    """What the types cannot say: one id per fighter, the cross-field checks."""
    seen: dict[str, int] = {}
    for i, fighter in enumerate(fighters):
        if fighter.id in seen:
            raise LibraryProblem(
                path, f"id {fighter.id!r} is also used by fighter #{seen[fighter.id] + 1}",
                "id", _fighter_label(i, {"name": fighter.name}))
        seen[fighter.id] = i
        problems = fighter_problems(fighter)
        if problems:
            where, what = problems[0]
            raise LibraryProblem(path, what, where, _fighter_label(i, {"name": fighter.name}))
    return fighters


def _table_label(index: int, raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, dict) else None
    if isinstance(name, str) and name.strip():
        return f'table #{index + 1} "{name.strip()}"'
    return f"table #{index + 1}"


def _campaign_tables(path: Path, data: dict[str, Any]) -> list[RollTable]:
    """The roll tables of a campaign file, each validated; LibraryProblem names the
    table (number and name) and the row or field at fault."""
    raw = data.get("tables", [])
    if not isinstance(raw, list):
        raise LibraryProblem(path, "must be a list of roll tables", "tables")
    tables: list[RollTable] = []
    for i, item in enumerate(raw):
        label = _table_label(i, item)
        if not isinstance(item, dict):
            raise LibraryProblem(path, "is not a roll table (expected a JSON object)",
                                 fighter=label)
        try:
            tables.append(RollTable.model_validate(item))
        except ValidationError as exc:
            raise LibraryProblem(path, describe_error(exc), fighter=label) from None
    return _check_tables(path, tables)


def _check_tables(path: Path, tables: list[RollTable]) -> list[RollTable]:
    seen: dict[str, int] = {}
    for i, table in enumerate(tables):
        if table.id in seen:
            raise LibraryProblem(
                path, f"id {table.id!r} is also used by table #{seen[table.id] + 1}", "id",
                _table_label(i, {"name": table.name}))
        seen[table.id] = i
    return tables


def parse_campaign_file(path: Path, text: str) -> tuple[list[Fighter], list[RollTable]]:
    """The fighters and roll tables of a campaign file's text, validated; LibraryProblem
    otherwise.

    A good file is parsed and validated in one pass by pydantic's JSON parser; only a
    file that fails goes through the slow path that finds the words for the GM."""
    try:
        with gc_paused():
            parsed = _CampaignFile.model_validate_json(text)
        return _check_fighters(path, parsed.fighters), _check_tables(path, parsed.tables)
    except ValidationError:
        pass
    data = _parse_json(path, text)
    foreign = _what_it_is(data)
    if foreign:
        raise LibraryProblem(path, foreign)
    if not isinstance(data, dict):
        raise LibraryProblem(path, "not a fightdesk campaign (expected a JSON object)")
    kind = data.get("fightdesk")
    if kind != CAMPAIGN_KIND:
        raise LibraryProblem(path, f"must be {CAMPAIGN_KIND!r} (got {kind!r})", "fightdesk")
    _check_version(path, data)
    raw_list = _fighter_list(path, data)
    fighters = _check_fighters(path, [validate_fighter(raw, path, i)
                                      for i, raw in enumerate(raw_list)])
    return fighters, _campaign_tables(path, data)


def parse_import(path: Path, text: str) -> list[Fighter]:
    """Fighters from an import file: a fighter export or a campaign (many fighters), a
    JSON list of fighters, or one fighter object. All valid, or a LibraryProblem."""
    data = _parse_json(path, text)
    foreign = _what_it_is(data)
    if foreign:
        raise LibraryProblem(path, foreign)
    if isinstance(data, list):
        raw_list: list[Any] = data
    elif isinstance(data, dict) and "fightdesk" in data:
        kind = data.get("fightdesk")
        if kind not in (CAMPAIGN_KIND, FIGHTERS_KIND):
            raise LibraryProblem(path, f"must be {FIGHTERS_KIND!r} or {CAMPAIGN_KIND!r} "
                                 f"(got {kind!r})", "fightdesk")
        _check_version(path, data)
        raw_list = _fighter_list(path, data)
    elif isinstance(data, dict) and "sheet" in data:
        raw_list = [data]
    else:
        raise LibraryProblem(path, "no fighters found (expected a fightdesk fighter or "
                             "campaign file, a list of fighters, or one fighter)")
    if not raw_list:
        raise LibraryProblem(path, "the file holds no fighters", "fighters")
    return [validate_fighter(raw, path, i) for i, raw in enumerate(raw_list)]


_FIGHTER_LIST: TypeAdapter[list[Fighter]] = TypeAdapter(list[Fighter])
_TABLE_LIST: TypeAdapter[list[RollTable]] = TypeAdapter(list[RollTable])


def dump_fighters(fighters: Iterable[Fighter], kind: str,
                  tables: Sequence[RollTable] = ()) -> bytes:
    """A campaign or fighter file: readable (indented) JSON, serialised by pydantic's
    fast encoder (a 2,000-fighter campaign in a few tens of milliseconds). A campaign
    without roll tables is written without the ``tables`` key, as before tables."""
    body = _FIGHTER_LIST.dump_json(list(fighters), indent=1)
    head = json.dumps({"fightdesk": kind, "schema_version": LIBRARY_SCHEMA_VERSION})
    tail = b""
    if tables:
        tail = b', "tables": ' + _TABLE_LIST.dump_json(list(tables), indent=1)
    return (head[:-1] + ', "fighters": ').encode("utf-8") + body + tail + b"}\n"


# --- ids and names ----------------------------------------------------------------------


def slug(name: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return text or "fighter"


def unique_id(base: str, taken: set[str] | Iterable[str]) -> str:
    taken = set(taken)
    if not ID_PATTERN.match(base):
        base = slug(base)
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


_BAD_NAME = re.compile(r'[<>:"/\\|?*\x00-\x1f]')


def check_campaign_name(name: str) -> str:
    """The campaign's name is its file name, so it must be a safe one on every system."""
    name = name.strip()
    if not name:
        raise LibraryError("a campaign needs a name")
    if len(name) > 80:
        raise LibraryError("a campaign name can be at most 80 characters")
    if name.startswith(".") or _BAD_NAME.search(name):
        raise LibraryError(f"{name!r}: a campaign name cannot start with '.' or contain "
                           '< > : " / \\ | ? *')
    return name


# --- search -----------------------------------------------------------------------------


@dataclass(frozen=True)
class FighterQuery:
    """The library filter: name text, and optionally one ruleset, side and tag."""

    text: str = ""
    ruleset: str | None = None
    side: str | None = None
    tag: str | None = None

    def matches(self, fighter: Fighter) -> bool:
        if self.text and self.text.strip().casefold() not in fighter.name.casefold():
            return False
        if self.ruleset and fighter.ruleset != self.ruleset:
            return False
        if self.side and fighter.side != self.side:
            return False
        return not self.tag or self.tag.casefold() in (t.casefold() for t in fighter.tags)


# --- history ----------------------------------------------------------------------------


@dataclass(frozen=True)
class FighterChange:
    """One invertible edit of the fighter list: insert (no before), remove (no after) or
    replace the fighter at ``index``."""

    index: int
    before: Fighter | None
    after: Fighter | None

    def inverse(self) -> FighterChange:
        return FighterChange(self.index, self.after, self.before)

    @property
    def kind(self) -> Literal["insert", "remove", "replace"]:
        if self.before is None:
            return "insert"
        return "remove" if self.after is None else "replace"


@dataclass(frozen=True)
class LibraryStep:
    """One undoable library edit as the GM sees it ("Duplicate Iron Bear")."""

    label: str
    changes: tuple[FighterChange, ...]

    def inverse(self) -> LibraryStep:
        return LibraryStep(self.label, tuple(ch.inverse() for ch in reversed(self.changes)))


@dataclass(frozen=True)
class CampaignNotice:
    """Told to listeners: ``before``/``after`` one fighter change (item models need both),
    ``history`` after a whole step, ``saved`` after an autosave (``problem`` if it failed),
    ``closed`` when the campaign is no longer the open one."""

    stage: Literal["before", "after", "history", "saved", "closed"]
    change: FighterChange | None = None
    problem: FileProblem | None = None


CampaignListener = Callable[[CampaignNotice], None]


# --- write-back -------------------------------------------------------------------------


@dataclass(frozen=True)
class WriteBackRow:
    """One lasting change of one library fighter: ``field`` is a dotted path."""

    fighter_id: str
    fighter_name: str
    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class WriteBackPlan:
    """What "write back" would change, shown to the GM before anything is written."""

    rows: tuple[WriteBackRow, ...] = ()
    skipped: tuple[str, ...] = ()

    @property
    def fighter_ids(self) -> list[str]:
        return list(dict.fromkeys(r.fighter_id for r in self.rows))


def describe_value(value: Any) -> str:
    """Short text for a value in the write-back diff."""
    if isinstance(value, list):
        if not value:
            return "none"
        names = [str(v.get("name")) for v in value if isinstance(v, dict) and "name" in v]
        if names and len(names) == len(value):
            return ", ".join(names)
        return f"{len(value)} item(s)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# --- the campaign -----------------------------------------------------------------------


class Campaign:
    """One campaign's fighters, its own undo history, and its file (saved after every
    edit; a failed save keeps the edit in memory and the last good file on disk)."""

    def __init__(self, path: Path, fighters: Sequence[Fighter] = (),
                 tables: Sequence[RollTable] = ()) -> None:
        self.path = Path(path)
        self._fighters: list[Fighter] = list(fighters)
        self._tables: list[RollTable] = list(tables)
        self._undo: list[LibraryStep] = []
        self._redo: list[LibraryStep] = []
        self._listeners: Listeners[CampaignNotice] = Listeners()
        self.dirty = False
        self.save_problem: FileProblem | None = None

    # --- reading -------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def fighters(self) -> tuple[Fighter, ...]:
        return tuple(self._fighters)

    def __len__(self) -> int:
        return len(self._fighters)

    def index_of(self, fighter_id: str) -> int:
        for i, f in enumerate(self._fighters):
            if f.id == fighter_id:
                return i
        raise LibraryError(f"no fighter {fighter_id!r} in campaign {self.name!r}")

    def get(self, fighter_id: str) -> Fighter:
        return self._fighters[self.index_of(fighter_id)]

    def search(self, query: FighterQuery) -> list[Fighter]:
        return [f for f in self._fighters if query.matches(f)]

    def tags(self) -> list[str]:
        found = {t for f in self._fighters for t in f.tags}
        return sorted(found, key=str.casefold)

    def rulesets(self) -> list[str]:
        return sorted({f.ruleset for f in self._fighters})

    # --- roll tables (saved at once; not part of the fighters' undo history) --------
    @property
    def tables(self) -> tuple[RollTable, ...]:
        return tuple(self._tables)

    def table(self, table_id: str) -> RollTable | None:
        return next((t for t in self._tables if t.id == table_id), None)

    def save_table(self, table: RollTable) -> None:
        """Add a roll table, or replace the one with its id, and save the campaign (the
        file before is kept as ``.bak``). A failed save keeps it in memory and sets
        ``save_problem``, like a fighter edit."""
        copy = RollTable.model_validate(table.model_dump())
        for i, old in enumerate(self._tables):
            if old.id == copy.id:
                self._tables[i] = copy
                break
        else:
            self._tables.append(copy)
        self.dirty = True
        self._autosave()

    def remove_table(self, table_id: str) -> None:
        if self.table(table_id) is None:
            raise LibraryError(f"campaign {self.name!r} has no roll table {table_id!r}")
        self._tables = [t for t in self._tables if t.id != table_id]
        self.dirty = True
        self._autosave()

    # --- listening -----------------------------------------------------------------
    def subscribe(self, listener: CampaignListener) -> None:
        self._listeners.subscribe(listener)

    def unsubscribe(self, listener: CampaignListener) -> None:
        self._listeners.unsubscribe(listener)

    def _notify(self, notice: CampaignNotice) -> None:
        self._listeners.notify(notice)

    # --- edits (each one undoable step) ---------------------------------------------
    def _taken_ids(self) -> set[str]:
        return {f.id for f in self._fighters}

    def _checked(self, fighter: Fighter) -> Fighter:
        problems = fighter_problems(fighter)
        if problems:
            where, what = problems[0]
            raise LibraryError(f"{fighter.name}: {where}: {what}")
        return fighter.model_copy(deep=True)

    def add(self, fighter: Fighter, *, index: int | None = None) -> Fighter:
        """Add a fighter (a fresh id from its name when its id is taken)."""
        taken = self._taken_ids()
        fid = fighter.id if fighter.id not in taken and fighter.id != "new" else unique_id(
            slug(fighter.name), taken)
        new = self._checked(fighter.model_copy(update={"id": fid}))
        at = len(self._fighters) if index is None else max(0, min(index, len(self._fighters)))
        self._do(LibraryStep(f"Add {new.name}", (FighterChange(at, None, new),)))
        return new

    def edit(self, fighter_id: str, fighter: Fighter) -> Fighter:
        """Replace a fighter's data; its id stays (fights link to it)."""
        i = self.index_of(fighter_id)
        old = self._fighters[i]
        new = self._checked(fighter.model_copy(update={"id": fighter_id}))
        if new == old:
            return old
        self._do(LibraryStep(f"Edit {new.name}", (FighterChange(i, old, new),)))
        return new

    def duplicate(self, fighter_id: str) -> Fighter:
        i = self.index_of(fighter_id)
        old = self._fighters[i]
        names = {f.name for f in self._fighters}
        name = f"{old.name} (copy)"
        n = 2
        while name in names:
            name = f"{old.name} (copy {n})"
            n += 1
        new = old.model_copy(deep=True, update={
            "id": unique_id(slug(name), self._taken_ids()), "name": name})
        self._do(LibraryStep(f"Duplicate {old.name}", (FighterChange(i + 1, None, new),)))
        return new

    def delete(self, fighter_ids: Iterable[str]) -> None:
        ids = list(dict.fromkeys(fighter_ids))
        if not ids:
            return
        indices = sorted((self.index_of(fid) for fid in ids), reverse=True)
        changes = tuple(FighterChange(i, self._fighters[i], None) for i in indices)
        label = (f"Delete {self._fighters[indices[0]].name}" if len(ids) == 1
                 else f"Delete {len(ids)} fighters")
        self._do(LibraryStep(label, changes))

    def add_many(self, fighters: Sequence[Fighter], label: str) -> list[Fighter]:
        """Add several fighters as one step (fresh ids where taken)."""
        taken = self._taken_ids()
        added: list[Fighter] = []
        changes: list[FighterChange] = []
        for f in fighters:
            fid = f.id if f.id not in taken else unique_id(slug(f.name), taken)
            taken.add(fid)
            new = self._checked(f.model_copy(update={"id": fid}))
            changes.append(FighterChange(len(self._fighters) + len(changes), None, new))
            added.append(new)
        if changes:
            self._do(LibraryStep(label, tuple(changes)))
        return added

    def import_file(self, path: Path) -> list[Fighter]:
        """Import every fighter of ``path`` as one undoable step, or none of them: a bad
        file raises LibraryProblem and the library is unchanged."""
        path = Path(path)
        with one_error_type(path):
            fighters = parse_import(path, read_text(path))
        label = (f"Import {fighters[0].name}" if len(fighters) == 1
                 else f"Import {len(fighters)} fighters from {path.name}")
        return self.add_many(fighters, label)

    def export(self, path: Path, fighter_ids: Iterable[str] | None = None) -> int:
        """Write the given fighters (all by default) to a fighter file; returns how many."""
        chosen = (list(self._fighters) if fighter_ids is None
                  else [self.get(fid) for fid in fighter_ids])
        atomic_write_bytes(Path(path), dump_fighters(chosen, FIGHTERS_KIND))
        return len(chosen)

    def write_back(self, plan: WriteBackPlan) -> None:
        """Apply a write-back plan to the fighters as they are now, as one step."""
        changes: list[FighterChange] = []
        for fid in plan.fighter_ids:
            i = self.index_of(fid)
            old = self._fighters[i]
            data = old.model_dump(mode="json")
            for row in plan.rows:
                if row.fighter_id == fid:
                    section, key = row.field.split(".", 1)
                    data[section][key] = row.new
            new = self._checked(Fighter.model_validate(data))
            if new != old:
                changes.append(FighterChange(i, old, new))
        if changes:
            label = (f"Write back {changes[0].before.name}" if len(changes) == 1  # type: ignore[union-attr]
                     else f"Write back {len(changes)} fighters")
            self._do(LibraryStep(label, tuple(changes)))

    # --- history -------------------------------------------------------------------
    def _apply(self, change: FighterChange) -> None:
        self._notify(CampaignNotice("before", change))
        if change.kind == "insert":
            assert change.after is not None
            self._fighters.insert(change.index, change.after)
        elif change.kind == "remove":
            del self._fighters[change.index]
        else:
            assert change.after is not None
            self._fighters[change.index] = change.after
        self._notify(CampaignNotice("after", change))

    def _run(self, step: LibraryStep) -> None:
        for change in step.changes:
            self._apply(change)
        self.dirty = True
        self._notify(CampaignNotice("history"))
        self._autosave()

    def _do(self, step: LibraryStep) -> None:
        self._run(step)
        self._undo.append(step)
        del self._undo[:-HISTORY_LIMIT]
        self._redo.clear()
        self._notify(CampaignNotice("history"))

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo_text(self) -> str:
        return self._undo[-1].label if self._undo else ""

    def redo_text(self) -> str:
        return self._redo[-1].label if self._redo else ""

    def undo(self) -> bool:
        if not self._undo:
            return False
        step = self._undo.pop()
        self._redo.append(step)
        self._run(step.inverse())
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        step = self._redo.pop()
        self._undo.append(step)
        self._run(step)
        return True

    # --- saving --------------------------------------------------------------------
    def save(self) -> None:
        """Write the campaign atomically; FileProblem (and the old file kept) on failure."""
        try:
            atomic_write_bytes(self.path, dump_fighters(self._fighters, CAMPAIGN_KIND,
                                                        self._tables))
        except FileProblem as exc:
            self.save_problem = exc
            raise
        self.dirty = False
        self.save_problem = None

    def _autosave(self) -> None:
        try:
            self.save()
        except FileProblem as exc:
            self._notify(CampaignNotice("saved", problem=exc))
        else:
            self._notify(CampaignNotice("saved"))

    def close(self) -> None:
        self._notify(CampaignNotice("closed"))
        self._listeners.clear()

    @classmethod
    def load(cls, path: Path) -> Campaign:
        path = Path(path)
        with one_error_type(path):
            fighters, tables = parse_campaign_file(path, read_text(path))
            return cls(path, fighters, tables)


# --- adding to the fight, writing back after it -----------------------------------------


def encounter_template(fighter: Fighter) -> dict[str, Any]:
    """The fighter as the fight should get it: linked to the library by ``source_id``,
    lasting status carried over, the fight-only status (EP, dice, conditions) fresh."""
    data = fighter.model_dump(mode="json")
    ruleset = fighter.ruleset
    fresh = STATUSES[ruleset](**{k: getattr(fighter.status, k) for k in lasting_fields(ruleset)})
    data["status"] = fresh.model_dump(mode="json")
    data["source_id"] = fighter.id
    data["group"] = None
    return data


def add_command(fighter: Fighter, count: int = 1) -> AddFighters:
    """The engine command that adds ``count`` copies (one numbered group when > 1)."""
    return AddFighters(fighter=encounter_template(fighter), count=count)


def drag_payload(fighters: Sequence[Fighter], count: int = 1) -> bytes:
    """The bytes of a library drag (mime type FIGHTER_MIME)."""
    payload = {"fightdesk": DRAG_KIND, "count": count,
               "fighters": [encounter_template(f) for f in fighters]}
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def commands_from_drag(data: bytes) -> list[AddFighters]:
    """Turn dropped library data back into AddFighters commands (one per fighter)."""
    try:
        payload = json.loads(bytes(data).decode("utf-8"))
        if not isinstance(payload, dict) or payload.get("fightdesk") != DRAG_KIND:
            raise ValueError("not fightdesk library fighters")
        count = payload.get("count", 1)
        return [AddFighters(fighter=f, count=count) for f in payload["fighters"]]
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        raise LibraryError(f"the dropped data is not a library fighter ({exc})") from None


def plan_write_back(campaign: Campaign, encounter: Encounter) -> WriteBackPlan:
    """The lasting changes of the fight's fighters that came from this campaign.

    Lasting status (``Rules.lasting_status``) and sheet changes (GM overrides, experience) are
    written back. Copies of one library fighter (a group of mooks) are skipped: which
    copy's injuries would be "the" thug's?"""
    by_source: dict[str, list[Fighter]] = {}
    for fid in encounter.order or list(encounter.fighters):
        f = encounter.fighters.get(fid)
        if f is not None and f.source_id:
            by_source.setdefault(f.source_id, []).append(f)
    known = {f.id: f for f in campaign.fighters}
    rows: list[WriteBackRow] = []
    skipped: list[str] = []
    for source_id, fought in by_source.items():
        if source_id not in known:
            skipped.append(f"{fought[0].name}: its library fighter is not in campaign "
                           f"{campaign.name!r}")
            continue
        lib = known[source_id]
        if len(fought) > 1:
            skipped.append(f"{lib.name}: {len(fought)} copies fought; copies are not "
                           "written back")
            continue
        now = fought[0]
        if now.ruleset != lib.ruleset:
            skipped.append(f"{lib.name}: the fight's fighter has another ruleset")
            continue
        for key in lasting_fields(lib.ruleset):
            old, new = getattr(lib.status, key), getattr(now.status, key)
            if old != new:
                rows.append(WriteBackRow(lib.id, lib.name, f"status.{key}", old, new))
        old_sheet = lib.sheet.model_dump(mode="json")
        new_sheet = now.sheet.model_dump(mode="json")
        for key, old in old_sheet.items():
            if new_sheet.get(key) != old:
                rows.append(WriteBackRow(lib.id, lib.name, f"sheet.{key}", old, new_sheet[key]))
    return WriteBackPlan(tuple(rows), tuple(skipped))


# --- the library of campaigns -----------------------------------------------------------


def default_folder() -> Path:
    return data_dir() / "campaigns"


def sample_folder() -> Path:
    """Where the bundled sample campaign lives (installed package, checkout or bundle)."""
    try:
        return resource_dir() / "campaigns"
    except MissingResource:
        return Path(__file__).resolve().parents[2] / "resources" / "campaigns"


@dataclass
class Library:
    """The GM's campaigns (one file each); one is open at a time."""

    folder: Path = field(default_factory=default_folder)
    current: Campaign | None = None

    def _path(self, name: str) -> Path:
        """The file of campaign ``name``: a new name must be a safe file name on every
        system (check_campaign_name); a campaign already in the folder is found by its
        file's own name, whatever characters it has ("Orcs <Boss>.json" on Linux)."""
        if (name and not name.startswith(".") and "\x00" not in name and os.sep not in name
                and (os.altsep is None or os.altsep not in name)):
            existing = self.folder / f"{name}.json"
            if existing.is_file():
                return existing
        return self.folder / f"{check_campaign_name(name)}.json"

    def campaigns(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        names = [p.stem for p in self.folder.glob("*.json")
                 if p.is_file() and not p.name.startswith(".")]
        return sorted(names, key=str.casefold)

    def first_run(self, sample: Path | None = None) -> list[str]:
        """On the very first run (no campaigns folder yet), copy the sample campaign(s) in
        so the GM has something to look at. Returns the names copied."""
        if self.folder.exists():
            return []
        source = sample or sample_folder()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            copied: list[str] = []
            for item in sorted(source.glob("*.json")) if source.is_dir() else []:
                shutil.copyfile(item, self.folder / item.name)
                copied.append(item.stem)
        except OSError as exc:
            raise FileProblem(self.folder, f"could not set up the library: "
                              f"{describe_os_error(exc)}") from exc
        return copied

    def create(self, name: str) -> str:
        path = self._path(name)
        if path.exists():
            raise LibraryError(f"a campaign called {path.stem!r} already exists")
        atomic_write_bytes(path, dump_fighters([], CAMPAIGN_KIND), keep_backup=False)
        return path.stem

    def open(self, name: str, *, discard_unsaved: bool = False) -> Campaign:
        """Open ``name`` as the current campaign. A bad file raises LibraryProblem and
        leaves the current one open; unsaved edits of the current one are not dropped
        silently (LibraryError unless ``discard_unsaved``)."""
        path = self._path(name)
        if not path.is_file():
            raise LibraryError(f"there is no campaign called {name!r}")
        self._leave(discard_unsaved)
        campaign = Campaign.load(path)
        if self.current is not None:
            self.current.close()
        self.current = campaign
        self._remember(campaign.name)
        return campaign

    def _leave(self, discard_unsaved: bool) -> None:
        current = self.current
        if current is None or not current.dirty or discard_unsaved:
            return
        try:
            current.save()
        except FileProblem as exc:
            raise UnsavedEdits(f"campaign {current.name!r} has edits that could not be "
                               f"saved ({exc.problem}); they would be lost") from exc

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
        self.current = None

    def rename(self, name: str, new_name: str) -> str:
        old, new = self._path(name), self._path(new_name)
        if not old.is_file():
            raise LibraryError(f"there is no campaign called {name!r}")
        if new.exists() and new.resolve() != old.resolve():
            raise LibraryError(f"a campaign called {new.stem!r} already exists")
        try:
            os.replace(old, new)
        except OSError as exc:
            raise FileProblem(old, f"could not rename: {describe_os_error(exc)}") from exc
        bak = old.with_name(old.name + ".bak")
        with contextlib.suppress(OSError):
            bak.unlink()
        if self.current is not None and self.current.path == old:
            self.current.path = new
            self._remember(new.stem)
        return new.stem

    def delete(self, name: str) -> Path:
        """Move a campaign into ``.deleted/`` (never destroyed: the GM can fetch it back
        by hand). Returns where it went."""
        path = self._path(name)
        if not path.is_file():
            raise LibraryError(f"there is no campaign called {name!r}")
        if self.current is not None and self.current.path == path:
            self.close()
        trash = self.folder / ".deleted"
        target = trash / f"{path.stem} {time.strftime('%Y-%m-%d %H%M%S')}.json"
        try:
            trash.mkdir(exist_ok=True)
            os.replace(path, target)
        except OSError as exc:
            raise FileProblem(path, f"could not delete: {describe_os_error(exc)}") from exc
        return target

    # --- which campaign was open last --------------------------------------------------
    @property
    def _last_file(self) -> Path:
        return self.folder / ".last-open"

    def _remember(self, name: str) -> None:
        # Nice to have, not worth an error for the GM: the campaign itself is saved.
        with contextlib.suppress(FileProblem):
            atomic_write_text(self._last_file, name + "\n", keep_backup=False)

    def last_open(self) -> str | None:
        """The campaign open last time if it still exists, else the first one."""
        names = self.campaigns()
        with contextlib.suppress(OSError, UnicodeDecodeError):
            name = self._last_file.read_text("utf-8").strip()
            if name in names:
                return name
        return names[0] if names else None


__all__ = [
    "FIGHTER_MIME",
    "Campaign",
    "CampaignNotice",
    "FighterChange",
    "FighterQuery",
    "Library",
    "LibraryError",
    "LibraryProblem",
    "LibraryStep",
    "UnsavedEdits",
    "WriteBackPlan",
    "WriteBackRow",
    "add_command",
    "commands_from_drag",
    "describe_value",
    "drag_payload",
    "new_fighter",
    "plan_write_back",
]
