"""Roll tables: a die, numbered rows of results, and the roll that picks one.

A fight keeps its own copy of every table it uses (``Encounter.tables``), so a saved
fight reads the same without its campaign. The rules of the tables are checked here,
once: rows in order, no overlaps, every result of the die covered. Rulesets look rows up
(:func:`lookup`) or roll inside their own commands (:func:`roll_on_table`); the GM edits
and rolls through the core commands ``SetTable``, ``RemoveTable`` and ``RollOnTable``.
No Qt; dice notation is imported on first use (it stays off the start-up).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import Field, ValidationError, field_validator, model_validator

from fightdesk.resources_path import MissingResource, resource_path

from .base import StateModel
from .changes import RuleViolation

if TYPE_CHECKING:
    from .commands import Command
    from .model import Encounter
    from .ruleset import Context

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_MULTIPLIER = re.compile(r"^\s*[x×]\s*(\d+(?:\.\d+)?)\s*$", re.IGNORECASE)


class TableProblem(RuleViolation):
    """A table (from the GM, a campaign or a built-in file) that breaks a rule of tables;
    the message names the table, the row or field, and the problem."""


class TableRow(StateModel):
    """One result: the totals ``low``..``high`` (inclusive) give ``text``; ``effect`` is
    optional machine-readable data for a ruleset (``x0.5`` on the d100 damage chart)."""

    low: int
    high: int
    text: str = Field(min_length=1)
    effect: str = ""


class DieRange(NamedTuple):
    """The lowest and highest total a die expression can give."""

    low: int
    high: int


class RollTable(StateModel):
    """A table the GM can edit: its rows must cover every total of ``die`` exactly once."""

    id: str
    name: str = Field(min_length=1)
    die: str
    rows: list[TableRow] = Field(min_length=1)

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError("must be lower-case letters, digits, '-' or '_'")
        return value

    @field_validator("die")
    @classmethod
    def _die_rolls(cls, value: str) -> str:
        try:
            die_range(value)
        except TableProblem as exc:
            raise ValueError(str(exc)) from None
        return value.strip()

    @model_validator(mode="after")
    def _rows_cover_the_die(self) -> RollTable:
        problem = rows_problem(self.die, self.rows)
        if problem:
            raise ValueError(problem)
        return self


@lru_cache(maxsize=64)
def die_range(die: str) -> DieRange:
    """The totals ``die`` can give; a die a table cannot use raises TableProblem.
    Cached: a fight's few dice are checked again at every load and every edit."""
    from .notation import parse

    try:
        expr = parse(die)
    except RuleViolation as exc:
        raise TableProblem(str(exc)) from None
    if expr.counts_successes:
        raise TableProblem(f"{die.strip()!r} counts successes; a table's die adds its dice "
                           "up (1d100, 1d20, 2d6)")
    low = high = 0
    for term in expr.terms:
        if term.sides == 0:
            low += term.sign * term.count
            high += term.sign * term.count
        elif term.sign > 0:
            low += term.count
            high += term.count * term.sides
        else:
            low -= term.count * term.sides
            high -= term.count
    return DieRange(low, high)


def is_d100(die: str) -> bool:
    """A plain percentile die, read 01..00 at the table."""
    return re.sub(r"\s+", "", die.lower()) in ("1d100", "d100")


def show_total(die: str, total: int) -> str:
    """A total as the GM reads it: on a d100, 100 is ``00`` and 1..9 are ``01``..``09``."""
    if is_d100(die) and 1 <= total <= 100:
        return "00" if total == 100 else f"{total:02d}"
    return str(total)


def read_total(die: str, text: str) -> int:
    """The inverse of :func:`show_total`: ``00`` is 100 (on a d100 so is ``0``), so a
    d100 table keeps its rows while the GM changes its die. ValueError otherwise."""
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueError(f"{text or '(empty)'!r} is not a whole number")
    value = int(text)
    if value == 0 and (text == "00" or is_d100(die)):
        return 100
    return value


def show_range(die: str, row: TableRow) -> str:
    low, high = show_total(die, row.low), show_total(die, row.high)
    return low if row.low == row.high else f"{low}-{high}"


def rows_problem(die: str, rows: list[TableRow]) -> str | None:
    """The first way ``rows`` fail to cover the totals of ``die`` exactly once, in
    words that name the row; None when they are fine."""
    try:
        span = die_range(die)
    except TableProblem as exc:
        return f"die: {exc}"
    if not rows:
        return "the table has no rows"
    shown = show_total
    for i, row in enumerate(rows, start=1):
        if row.low > row.high:
            return (f"row {i}: it runs from {shown(die, row.low)} down to "
                    f"{shown(die, row.high)}; the low end comes first")
        if not row.text.strip():
            return f"row {i}: the result text is empty"
    for i in range(1, len(rows)):
        before, row = rows[i - 1], rows[i]
        if row.low < before.low:
            return (f"row {i + 1} ({show_range(die, row)}) comes after row {i} "
                    f"({show_range(die, before)}): list the rows from the lowest total up")
    first = rows[0]
    if first.low > span.low:
        return (f"row 1 starts at {shown(die, first.low)}, but {die} can roll "
                f"{shown(die, span.low)}: that total has no row")
    if first.low < span.low:
        return (f"row 1 starts at {shown(die, first.low)}, but {die} cannot roll "
                f"less than {shown(die, span.low)}")
    for i in range(1, len(rows)):
        before, row = rows[i - 1], rows[i]
        if row.low == before.high + 1:
            continue
        label = f"row {i + 1} ({show_range(die, row)})"
        if row.low <= before.high:
            return f"{label} overlaps row {i} ({show_range(die, before)})"
        gap = TableRow(low=before.high + 1, high=row.low - 1, text="gap")
        return f"{label} leaves a gap after row {i}: {show_range(die, gap)} has no row"
    last = rows[-1]
    if last.high < span.high:
        return (f"row {len(rows)} ends at {shown(die, last.high)}, but {die} can roll "
                f"up to {shown(die, span.high)}")
    if last.high > span.high:
        return (f"row {len(rows)} ends at {shown(die, last.high)}, but {die} cannot "
                f"roll more than {shown(die, span.high)}")
    return None


def describe_error(exc: ValidationError) -> str:
    """A pydantic error about a table in the GM's words: ``row 2, low: ...``."""
    err = exc.errors()[0]
    parts: list[str] = []
    loc = list(err.get("loc", ()))
    if len(loc) >= 2 and loc[0] == "rows" and isinstance(loc[1], int):
        parts.append(f"row {loc[1] + 1}")
        loc = loc[2:]
    parts.extend(str(p) for p in loc)
    kind = err.get("type", "")
    if kind == "missing":
        text = "is missing"
    elif kind == "string_too_short":
        text = "cannot be empty"
    elif kind == "too_short" and loc == ["rows"]:
        text = "the table needs at least one row"
        parts = []
    elif kind == "extra_forbidden":
        text = "is not a field fightdesk knows"
    else:
        text = str(err.get("msg", "is not valid")).removeprefix("Value error, ")
    return f"{', '.join(parts)}: {text}" if parts else text


def table_from_data(data: Any, where: str = "") -> RollTable:
    """A validated table from plain data; TableProblem names ``where``, the table and
    the field or row otherwise."""
    name = data.get("name") if isinstance(data, dict) else None
    label = f"table {name!r}" if isinstance(name, str) and name.strip() else "table"
    head = f"{where}: {label}" if where else label
    if not isinstance(data, dict):
        raise TableProblem(f"{head}: is not a table (expected a JSON object)")
    try:
        return RollTable.model_validate(data)
    except ValidationError as exc:
        raise TableProblem(f"{head}: {describe_error(exc)}") from None


def lookup(table: RollTable, total: int) -> TableRow:
    """The row of ``total``; a total outside the table (a modified roll) is a RuleViolation."""
    for row in table.rows:
        if row.low <= total <= row.high:
            return row
    raise RuleViolation(f"{table.name} has no row for {show_total(table.die, total)}")


def multiplier(effect: str) -> Fraction | None:
    """The multiplier an effect like ``x1.5`` names (exact), or None if it names none."""
    match = _MULTIPLIER.match(effect)
    return Fraction(match.group(1)) if match else None


# --- built-in tables ---------------------------------------------------------------------


def builtin_tables_file(ruleset_id: str) -> Path | None:
    """``resources/tables/<ruleset id>.json``, if that ruleset ships tables."""
    if not _ID.match(ruleset_id):
        return None
    try:
        return resource_path("tables", f"{ruleset_id}.json")
    except MissingResource:
        return None


def load_tables_file(path: Path) -> dict[str, RollTable]:
    """Every table of a tables file (``{"tables": [...]}``), by id; TableProblem naming
    the file, the table and the field otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TableProblem(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TableProblem(f"{path}: not a JSON file ({exc})") from None
    raw = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise TableProblem(f"{path}: needs a 'tables' list")
    tables: dict[str, RollTable] = {}
    for i, item in enumerate(raw):
        table = table_from_data(item, f"{path}, #{i + 1}")
        if table.id in tables:
            raise TableProblem(f"{path}: table id {table.id!r} is used twice")
        tables[table.id] = table
    return tables


def default_tables(ruleset_id: str) -> dict[str, RollTable]:
    """Fresh copies of the tables a new fight of ``ruleset_id`` starts with (none for a
    ruleset without built-in tables, or an unknown id)."""
    path = builtin_tables_file(ruleset_id)
    if path is None:
        return {}
    return load_tables_file(path)


def missing_builtin_tables(enc: Encounter) -> dict[str, RollTable]:
    """The built-in tables of the fight's ruleset that the fight does not have (a fight
    made before its ruleset had them)."""
    return {tid: t for tid, t in default_tables(enc.ruleset).items() if tid not in enc.tables}


# --- rolling -----------------------------------------------------------------------------


def fight_table(enc: Encounter, table_id: str) -> RollTable:
    """The fight's copy of a table; a RuleViolation that says how to add it otherwise."""
    try:
        return enc.tables[table_id]
    except KeyError:
        raise RuleViolation(
            f"this fight has no roll table {table_id!r} (add it under Fight > Roll Tables)"
        ) from None


def roll_on_table(ctx: Context, table_id: str, *, who: str = "",
                  fighter_id: str | None = None) -> TableRow:
    """Roll the table's die through the fight's dice (typed-in faces first), log the
    roll and the row it lands on (event kind ``table``), and return the row. A ruleset
    calls this inside its own command; ``RollOnTable`` is the GM's own roll."""
    from .notation import parse

    table = fight_table(ctx.enc, table_id)
    expr = parse(table.die)
    total = 0
    records = []
    for term in expr.terms:
        if term.sides == 0:
            total += term.sign * term.count
            continue
        record = ctx.dice.roll(term.count, term.sides, who=who, purpose=table.name)
        records.append(record)
        total += term.sign * sum(record.faces)
    row = lookup(table, total)
    shown = show_total(table.die, total)
    for record in records:
        record.outcome = shown if record is records[-1] else ""
        ctx.say(record.describe(), fighter_id=fighter_id, kind="roll", roll=record)
    effect = f" [{row.effect}]" if row.effect else ""
    ctx.say(f"{table.name}: {shown} -> {row.text}{effect}", fighter_id=fighter_id,
            kind="table", table=table.id, total=total, row=row.text, effect=row.effect)
    return row


# --- the core commands (dispatched from Engine._handle_core) ---------------------------


def handle_table_command(ctx: Context, command: Command) -> None:
    """``SetTable``, ``RemoveTable`` and ``RollOnTable``: each logged and undoable."""
    from . import commands as c

    if isinstance(command, c.SetTable):
        _set_table(ctx, command.table)
    elif isinstance(command, c.RemoveTable):
        table = fight_table(ctx.enc, command.table_id)
        ctx.tx.delete(("tables",), table.id)
        ctx.summary = f"GM removed the roll table {table.name}"
        ctx.say(ctx.summary, kind="override", table=table.id)
    elif isinstance(command, c.RollOnTable):
        roll_on_table(ctx, command.table_id, who=command.who)
        head = f"{command.who} on " if command.who else ""
        ctx.summary = f"{head}{ctx.events[-1].text}"
    else:  # pragma: no cover - the engine sends only the three above
        ctx.fail(f"no table handler for {command.kind}")


def _set_table(ctx: Context, data: dict[str, Any]) -> None:
    table = table_from_data(data)
    before = ctx.enc.tables.get(table.id)
    if before == table:
        ctx.fail(f"the roll table {table.name} already reads like this")
    ctx.tx.put(("tables",), table.id, table)
    verb = "changed" if before is not None else "added"
    ctx.summary = f"GM {verb} the roll table {table.name}"
    ctx.say(ctx.summary, kind="override", table=table.id)
