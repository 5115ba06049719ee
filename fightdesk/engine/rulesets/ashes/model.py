"""Ashes data: the fighter sheet, live status, options and round state.

The sheet is the one docs/rulesets/ashes.md "Fighter sheet" lists; the rules that read it
come with the ruleset's rules.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...base import Condition, StateModel
from ...turn_state import TurnRoundState

RULESET_ID = "ashes"


class AshesSkill(StateModel):
    """A skill: offensive or defensive, its rating, and how it may be used."""

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["offensive", "defensive"] = "offensive"
    rating: int = Field(1, ge=0, le=100)
    pumpable: bool = False
    # The skill this one adds to (an auxiliary skill), by name.
    auxiliary_to: str | None = None
    # Answers a successful defense with a challenge of its own.
    counter_challenge: bool = False


def _physical() -> dict[str, int]:
    return {"strength": 3, "agility": 3, "endurance": 3}


class AshesSheet(StateModel):
    """The ashes fighter sheet (docs/rulesets/ashes.md#fighter-sheet)."""

    ruleset: Literal["ashes"] = "ashes"
    max_hp: int = Field(20, ge=1, le=10000)
    initiative: int = Field(0, ge=-100, le=100)
    speed: int = Field(6, ge=0, le=100)
    burst: int = Field(3, ge=0, le=100)
    resist_body: int = Field(0, ge=0, le=100)
    resist_mind: int = Field(0, ge=0, le=100)
    passive_defense: int = Field(0, ge=0, le=100)
    force: int = Field(0, ge=0, le=1000)
    physical: dict[str, int] = Field(default_factory=_physical)
    skills: list[AshesSkill] = Field(default_factory=list)
    # The fighter does not lose the offensive action for losing half their HP in a round.
    negates_half_hp: bool = False


class AshesStatus(StateModel):
    """What changes about an ashes fighter during a fight."""

    ruleset: Literal["ashes"] = "ashes"
    hp: int = Field(20)
    speed: int = Field(6, ge=0)
    force: int = Field(0, ge=0)
    # Physical stats now (missing: as on the sheet).
    physical: dict[str, int] = Field(default_factory=dict)
    conditions: list[Condition] = Field(default_factory=list)


class AshesOptions(StateModel):
    """Per-fight options of the ashes ruleset (its rules add theirs)."""

    ruleset: Literal["ashes"] = "ashes"


class AshesRound(TurnRoundState):
    """Round state: the shared turn order, roll and question."""

    ruleset: Literal["ashes"] = "ashes"


# What the session models take from this module (see fightdesk/engine/rulesets/__init__.py).
SHEET = AshesSheet
STATUS = AshesStatus
OPTIONS = AshesOptions
ROUND = AshesRound
