"""Roll-under data: the fighter sheet, live status, options and round state.

The sheet is the one docs/rulesets/roll-under.md "Fighter sheet" lists; the rules that
read it come with the ruleset's rules. The fighter's side (PC or enemy) is the fighter's
own ``side``, shared by every ruleset.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ...base import Condition, StateModel
from ...turn_state import TurnRoundState
from .targets import DAMAGE_DIE

RULESET_ID = "roll-under"
# docs/rulesets/roll-under.md#hit-points: "They max out at 20."
MAX_HP = 20


def assists_for_level(level: int) -> int:
    """docs/rulesets/roll-under.md#assists: level - 4 from level 5 (5: 1, 6: 2, 10: 6)."""
    return max(0, int(level) - 4)

WeaponClass = Literal["light", "medium-one-handed", "medium-two-handed", "medium-ranged",
                      "rifle", "heavy"]
# How a form offers each class: with the die it rolls, so the GM picks by the die.
WEAPON_CLASS_WORDS = {name: f"{name.replace('-', ' ').capitalize()} (d{die})"
                      for name, die in DAMAGE_DIE.items()}


class RollUnderWeapon(StateModel):
    """A weapon: its class says its damage die (docs/rulesets/roll-under.md#damage)."""

    name: str = Field(min_length=1, max_length=60)
    weapon_class: WeaponClass = Field(
        "light", json_schema_extra={"choice_labels": dict(WEAPON_CLASS_WORDS)})


class RollUnderSheet(StateModel):
    """The roll-under fighter sheet (docs/rulesets/roll-under.md#fighter-sheet)."""

    ruleset: Literal["roll-under"] = "roll-under"
    level: int = Field(1, ge=1, le=30)
    attack: int = Field(10, ge=0, le=30)
    defense: int = Field(10, ge=0, le=30)
    strength: int = Field(10, ge=0, le=30)
    dexterity: int = Field(10, ge=0, le=30)
    wisdom: int = Field(10, ge=0, le=30)
    constitution: int = Field(10, ge=0, le=30)
    # Entered by the GM (the text gives no table for it); never above 20.
    max_hp: int = Field(10, ge=1, le=MAX_HP)
    # Assists a fighter may spend until the GM restores them: level - 4 from level 5 when
    # the sheet gives none, and following the level while it is that; the GM may set
    # another number (templates, augments).
    assists: int = Field(0, ge=0, le=30)
    weapons: list[RollUnderWeapon] = Field(default_factory=list)
    # Enemies out of the ordinary.
    acts_out_of_order: bool = False
    turns_per_round: int = Field(1, ge=1, le=10)
    wisdom_penalty: int = Field(0, ge=0, le=20)
    immune_to_surprise: bool = False

    @model_validator(mode="before")
    @classmethod
    def _assists_by_level(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("assists") is None:
            data = {**data, "assists": assists_for_level(int(data.get("level") or 1))}
        return data


class RollUnderStatus(StateModel):
    """What changes about a roll-under fighter during a fight."""

    ruleset: Literal["roll-under"] = "roll-under"
    hp: int = Field(10, ge=0)
    # Damage taken past 0 HP (shown beside the HP, which never goes below 0).
    lethal: int = Field(0, ge=0)
    fatal_wounds: int = Field(0, ge=0)
    assists: int = Field(0, ge=0)
    conditions: list[Condition] = Field(default_factory=list)
    # Attacks by surprise: acts in the surprise step before round 1 (the GM's answer when
    # the fight starts).
    ambusher: bool = False
    # This turn: the one action taken (its name), and whether the fighter moved.
    action: str | None = None
    moved: bool = False


class RollUnderOptions(StateModel):
    """Per-fight options (docs/rulesets/roll-under.md#options)."""

    ruleset: Literal["roll-under"] = "roll-under"
    fatal_wound_needs_roll: bool = Field(
        False, description="Removing a Fatal Wound needs a Dexterity roll of the one "
        "removing it (the text: no roll)")
    assists_after_roll: bool = Field(
        False, description="Assists may still be spent once the roll's face is known, "
        "before it counts (the text: before the roll)")


class RollUnderRound(TurnRoundState):
    """Round state: the shared turn order, roll and question, and whether this is the
    surprise step."""

    ruleset: Literal["roll-under"] = "roll-under"
    surprise: bool = False


# What the session models take from this module (see fightdesk/engine/rulesets/__init__.py).
SHEET = RollUnderSheet
STATUS = RollUnderStatus
OPTIONS = RollUnderOptions
ROUND = RollUnderRound
