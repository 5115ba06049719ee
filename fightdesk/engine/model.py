"""The fight's data: fighters, the encounter, the log, and the session that holds them.

Ruleset-specific parts (sheet, status, options, round state) are unions discriminated by
their ``ruleset`` field, made from the registry in :mod:`fightdesk.engine.rulesets`: a
new ruleset is one registry entry and one data module, and nothing here changes.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.dataclasses import dataclass

from .base import Side, StateModel
from .changes import Change
from .dice import Roll
from .rulesets import OLDEST, data_classes, known_ids, missing_line
from .tables import RollTable, default_tables

# 2: log entries say where in the round they happened (``where``, was ``phase``), and
# point events name their pool (``points-gain``/``points-spend``, were ``ep-*``).
SCHEMA_VERSION = 2

# Every registered ruleset, built in or installed as a plugin.
KNOWN_RULESETS: tuple[str, ...] = known_ids()
_PARTS = {rid: data_classes(rid) for rid in KNOWN_RULESETS}
_SHEETS: dict[str, type[StateModel]] = {rid: p[0] for rid, p in _PARTS.items()}
_STATUSES: dict[str, type[StateModel]] = {rid: p[1] for rid, p in _PARTS.items()}
_OPTIONS: dict[str, type[StateModel]] = {rid: p[2] for rid, p in _PARTS.items()}
_ROUNDS: dict[str, type[StateModel]] = {rid: p[3] for rid, p in _PARTS.items()}

if TYPE_CHECKING:
    # Each ruleset reads its own parts through its own typed accessors (for example
    # street_fighter/state.py), so for the type checker the union is open.
    Sheet = Any
    Status = Any
    RulesetOptions = Any
    RoundState = Any
else:
    def _union(classes: dict[str, type[StateModel]]) -> Any:
        members = tuple(classes.values())
        if len(members) == 1:
            return members[0]
        return Annotated[Union[members], Field(discriminator="ruleset")]  # noqa: UP007

    Sheet = _union(_SHEETS)
    Status = _union(_STATUSES)
    RulesetOptions = _union(_OPTIONS)
    RoundState = _union(_ROUNDS)

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")

# How the player view shows an enemy's health: the numbers, a bar without numbers, a word
# ("bloodied"), or nothing.
EnemyHealth = Literal["exact", "bar", "word", "hidden"]


class Fighter(StateModel):
    """A fighter in a fight (or in the campaign library): who, which side, sheet and status."""

    id: str
    name: str = Field(min_length=1)
    side: Side = "enemy"
    group: str | None = None
    tags: list[str] = Field(default_factory=list)
    notes: str = ""
    rolls_own_dice: bool = False
    # The campaign library fighter this one was added from (write-back after the fight).
    source_id: str | None = None
    # Hidden from the players (an ambusher before the surprise): not on the player view.
    hidden: bool = False
    sheet: Sheet
    status: Status

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not ID_PATTERN.match(value):
            raise ValueError("must be lower-case letters, digits, '-' or '_'")
        return value

    @property
    def ruleset(self) -> str:
        return str(self.sheet.ruleset)

    @model_validator(mode="after")
    def _one_ruleset(self) -> Fighter:
        if self.status.ruleset != self.sheet.ruleset:
            raise ValueError(
                f"the status is {self.status.ruleset} but the sheet is {self.sheet.ruleset}"
            )
        return self


class Group(StateModel):
    """Identical mooks that share one card and one timeline lane (auto-numbered names)."""

    id: str
    name: str


class Encounter(StateModel):
    """Everything the rules read and write during one fight.

    ``options`` and ``state`` left out are made empty for the encounter's ruleset
    (:func:`new_encounter` is the one constructor of a new fight); parts of another
    ruleset than the encounter's are refused, naming the field."""

    ruleset: str = OLDEST
    name: str = "Encounter"
    # Never left at None: ``model_post_init`` fills both in for the fight's ruleset.
    options: RulesetOptions = None
    fighters: dict[str, Fighter] = Field(default_factory=dict)
    order: list[str] = Field(default_factory=list)
    groups: dict[str, Group] = Field(default_factory=dict)
    round: int = Field(0, ge=0)
    state: RoundState = None
    dice_seed: int = 0
    dice_drawn: int = Field(0, ge=0)
    # What the player view shows of the enemies' health (engine/player_view.py).
    enemy_health: EnemyHealth = "bar"
    # The fight's own copies of its roll tables, by id (engine/tables.py).
    tables: dict[str, RollTable] = Field(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        """Options and round state left out are made empty for the fight's ruleset. Done
        here, on the built fight, and not in a "before" validator: that would make
        pydantic turn a whole fight read from JSON into Python dicts first."""
        if self.options is None:
            self.options = _OPTIONS[self.ruleset]()
        if self.state is None:
            self.state = _ROUNDS[self.ruleset]()

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        if value not in KNOWN_RULESETS:
            raise ValueError(missing_line(value))
        return value

    @model_validator(mode="after")
    def _parts_agree(self) -> Encounter:
        for part in ("options", "state"):
            # A part is None only while model_post_init fills the two in: it agrees.
            found = getattr(getattr(self, part), "ruleset", self.ruleset)
            if found != self.ruleset:
                raise ValueError(
                    f"{part} are for {found}, but this is a {self.ruleset} fight"
                    if part == "options" else
                    f"the round state is for {found}, but this is a {self.ruleset} fight"
                )
        return self

    @field_validator("tables")
    @classmethod
    def _tables_under_their_ids(cls, value: dict[str, RollTable]) -> dict[str, RollTable]:
        for key, table in value.items():
            if key != table.id:
                raise ValueError(f"the table under {key!r} has the id {table.id!r}")
        return value

    def fighter(self, fighter_id: str) -> Fighter:
        return self.fighters[fighter_id]

    def name_of(self, fighter_id: str | None) -> str:
        if fighter_id is None or fighter_id not in self.fighters:
            return fighter_id or ""
        return self.fighters[fighter_id].name


def _is_none(value: Any) -> bool:
    return value is None


@dataclass(slots=True, config=ConfigDict(extra="forbid"))
class Event:
    """One readable line of what happened, with its roll if there was one (a slotted
    dataclass, not a model: see :class:`~fightdesk.engine.changes.Change`)."""

    text: str
    # Saved only when they say something (most lines have no roll and no data).
    roll: Annotated[Roll | None, Field(exclude_if=_is_none)] = None
    fighter_id: Annotated[str | None, Field(exclude_if=_is_none)] = None
    kind: Annotated[str, Field(exclude_if=lambda kind: kind == "note")] = "note"
    data: Annotated[dict[str, Any], Field(exclude_if=lambda data: not data)] = field(
        default_factory=dict)


@dataclass(slots=True, kw_only=True, config=ConfigDict(extra="forbid"))
class LogEntry:
    """One applied command: what the GM asked, what happened, and the state changes.

    ``step`` groups entries into one undo step (a whole interrupt resolution with all
    its answers shares the step of its first entry). A slotted dataclass, not a model,
    like its changes and events (a long fight holds thousands)."""

    seq: Annotated[int, Field(ge=0)]
    step: Annotated[int, Field(ge=0)]
    round: int = 0
    # Where in the round it happened, in the ruleset's words ("phase 7", "Kaede's turn").
    where: str = ""
    command: dict[str, Any]
    summary: str
    events: list[Event] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    # No validator of its own: an entry written before schema version 2 is upgraded by
    # whoever reads the old file (storage/sessions.py, storage/journal.py), so the
    # thousands of today's entries in a long fight are parsed straight from JSON.


def upgrade_entry_v1(entry: dict[str, Any], *, phases_seen: bool = True) -> dict[str, Any]:
    """A schema-1 log entry in schema-2 words: ``phase`` becomes the ``where`` label, a
    ``phase`` event a ``step`` event, and EP events point events that name their pool.

    Schema 1 had no phase before a round's phases and after them alike: ``phases_seen``
    says whether this round's phases have begun (an entry without one is then at the end
    of the phases)."""
    entry = dict(entry)
    phase = entry.pop("phase", None)
    if "where" not in entry:
        if isinstance(phase, int) and not isinstance(phase, bool):
            entry["where"] = f"phase {phase}"
        elif phase is None and entry.get("round") and phases_seen:
            entry["where"] = "end of the phases"
        else:
            entry["where"] = "" if phase is None else str(phase)
    events = entry.get("events")
    if isinstance(events, list):
        entry["events"] = [_upgrade_event_v1(e) for e in events]
    return entry


def _upgrade_event_v1(event: Any) -> Any:
    if isinstance(event, dict) and event.get("kind") == "phase":
        return {**event, "kind": "step"}
    if isinstance(event, dict) and event.get("kind") in ("ep-gain", "ep-spend"):
        event = dict(event)
        event["kind"] = "points-gain" if event["kind"] == "ep-gain" else "points-spend"
        data = dict(event.get("data") or {})
        data.setdefault("pool", "EP")
        event["data"] = data
    return event


def new_encounter(ruleset: str, name: str = "New fight") -> Encounter:
    """An empty fight of ``ruleset``: its own options and round state, no fighters, and
    the roll tables the ruleset ships."""
    return Encounter(ruleset=ruleset, name=name, tables=default_tables(ruleset))


class Session(BaseModel):
    """A saved fight: the live encounter, where the log started, and the log itself."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    encounter: Encounter
    start: Encounter
    log: list[LogEntry] = Field(default_factory=list)
    redo: list[LogEntry] = Field(default_factory=list)

    @classmethod
    def begin(cls, encounter: Encounter) -> Session:
        return cls(encounter=encounter, start=encounter.model_copy(deep=True))
