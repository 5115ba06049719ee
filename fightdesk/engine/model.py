"""The fight's data: fighters, the encounter, the log, and the session that holds them.

Ruleset-specific parts (sheet, status, options, round state) are discriminated by their
``ruleset`` field; a new ruleset adds its classes to the unions below.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .base import Side, StateModel
from .changes import Change
from .dice import Roll
from .rulesets.street_fighter.model import (
    StreetFighterOptions,
    StreetFighterRound,
    StreetFighterSheet,
    StreetFighterStatus,
)
from .tables import RollTable

SCHEMA_VERSION = 1

# One entry per ruleset; with a single ruleset the union is the class itself.
Sheet = StreetFighterSheet
Status = StreetFighterStatus
RulesetOptions = StreetFighterOptions
RoundState = StreetFighterRound

KNOWN_RULESETS = ("street-fighter",)
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


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
        return self.sheet.ruleset


class Group(StateModel):
    """Identical mooks that share one card and one timeline lane (auto-numbered names)."""

    id: str
    name: str


class Encounter(StateModel):
    """Everything the rules read and write during one fight."""

    ruleset: str = "street-fighter"
    name: str = "Encounter"
    options: RulesetOptions = Field(default_factory=StreetFighterOptions)
    fighters: dict[str, Fighter] = Field(default_factory=dict)
    order: list[str] = Field(default_factory=list)
    groups: dict[str, Group] = Field(default_factory=dict)
    round: int = Field(0, ge=0)
    state: RoundState = Field(default_factory=StreetFighterRound)
    dice_seed: int = 0
    dice_drawn: int = Field(0, ge=0)
    # The fight's own copies of its roll tables, by id (engine/tables.py).
    tables: dict[str, RollTable] = Field(default_factory=dict)

    @field_validator("ruleset")
    @classmethod
    def _known_ruleset(cls, value: str) -> str:
        if value not in KNOWN_RULESETS:
            raise ValueError(
                f"unknown ruleset id {value!r} (known: {', '.join(KNOWN_RULESETS)})"
            )
        return value

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


class Event(BaseModel):
    """One readable line of what happened, with its roll if there was one."""

    model_config = ConfigDict(extra="forbid")

    text: str
    roll: Roll | None = None
    fighter_id: str | None = None
    kind: str = "note"
    data: dict[str, Any] = Field(default_factory=dict)


class LogEntry(BaseModel):
    """One applied command: what the GM asked, what happened, and the state changes.

    ``step`` groups entries into one undo step (a whole interrupt resolution with all
    its answers shares the step of its first entry)."""

    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=0)
    step: int = Field(ge=0)
    round: int = 0
    phase: int | None = None
    command: dict[str, Any]
    summary: str
    events: list[Event] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list)


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
