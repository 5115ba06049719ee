"""Ashes data: the fighter sheet, live status, options and round state.

The sheet is the one docs/rulesets/ashes.md "Fighter sheet" lists; the rules that read it
are in ``rules.py``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...base import Condition, StateModel
from ...turn_state import TurnRoundState, TurnTimerOption

RULESET_ID = "ashes"

Resist = Literal["body", "mind", "none"]


class AshesSkill(StateModel):
    """A skill: offensive or defensive, its rating, and how it may be used
    (docs/rulesets/ashes.md#skills)."""

    name: str = Field(min_length=1, max_length=60)
    kind: Literal["offensive", "defensive"] = "offensive"
    rating: int = Field(1, ge=0, le=100)
    pumpable: bool = False
    # The skill this one adds to (an auxiliary skill), by name.
    auxiliary_to: str | None = None
    # Answers a successful defense with a challenge of its own.
    counter_challenge: bool = False
    # Points one use costs at its rating (Force, or the physical stat ``pays_with``).
    cost: int = Field(0, ge=0, le=1000)
    pays_with: str = Field("force", max_length=40)
    # What the target defends an offensive skill with.
    resisted_by: Resist = "body"
    # Hit points an offensive skill's success takes off the target (0: the GM says).
    damage: int = Field(0, ge=0, le=1000)
    # Challenges one offensive action with this skill makes (a gun that shoots twice).
    attacks: int = Field(1, ge=1, le=10)
    # Rounds of offensive actions the skill needs before its challenge (a bowcaster).
    rounds: int = Field(1, ge=1, le=10)


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
    # A skill lets the fighter act in the surprise round without starting the fight.
    negates_surprise: bool = False
    # Skills that give turns beyond the one a round.
    extra_turns: int = Field(0, ge=0, le=5)


class AshesStatus(StateModel):
    """What changes about an ashes fighter during a fight."""

    ruleset: Literal["ashes"] = "ashes"
    hp: int = Field(20)
    speed: int = Field(6, ge=0)
    force: int = Field(0, ge=0)
    # Physical stats now (missing: as on the sheet).
    physical: dict[str, int] = Field(default_factory=dict)
    conditions: list[Condition] = Field(default_factory=list)
    # Starts the fight: acts in the surprise round (set by the GM before the fight).
    initiator: bool = False
    # This round (docs/rulesets/ashes.md#action-economy): what the offensive action went
    # on (None: still there), challenges left of it, defensive uses and the speed each
    # kind of spending took (each capped by burst), free defenses left from the stance.
    offense: str | None = None
    attacks_left: int = Field(0, ge=0)
    defenses: int = Field(0, ge=0)
    defense_speed: int = Field(0, ge=0)
    dodge_speed: int = Field(0, ge=0)
    move_speed: int = Field(0, ge=0)
    free_defenses: int = Field(0, ge=0)
    free_metres: int = Field(1, ge=0)
    damage_this_round: int = Field(0, ge=0)
    # A weapon that needs several rounds: its name and the rounds of actions put in.
    readying: str | None = None
    readied: int = Field(0, ge=0)


class AshesOptions(TurnTimerOption):
    """Per-fight options (docs/rulesets/ashes.md#options)."""

    ruleset: Literal["ashes"] = "ashes"
    automatic_beyond_six: bool = Field(
        True, description="Beyond +6 a challenge succeeds and below -6 it fails without "
        "the coins deciding (they are still flipped for criticals)")
    unskilled_penalty: int = Field(
        3, ge=0, le=20, description="The challenge of an offensive action without the skill")


class CoopPart(StateModel):
    """One participant of a cooperative action and what they put in."""

    fighter_id: str
    skill: str | None = None
    rating: int = 0


class Cooperative(StateModel):
    """A cooperative action under way (docs/rulesets/ashes.md#cooperative-actions)."""

    target_id: str
    resisted_by: Resist = "body"
    damage: int = 0
    parts: list[CoopPart] = Field(default_factory=list)
    # The turn number of the last participant's turn: the next must come within one turn.
    last_turn: int = 0


class AshesRound(TurnRoundState):
    """Round state: the shared turn order, roll and question; whether this is the
    surprise round; a cooperative action under way."""

    ruleset: Literal["ashes"] = "ashes"
    surprise: bool = False
    cooperative: Cooperative | None = None


# What the session models take from this module (see fightdesk/engine/rulesets/__init__.py).
SHEET = AshesSheet
STATUS = AshesStatus
OPTIONS = AshesOptions
ROUND = AshesRound
