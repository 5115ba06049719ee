"""d100 data: the fighter sheet, live status, options and round state.

The sheet is the one docs/rulesets/d100.md "Fighter sheet" lists; the rules that read it
come with the ruleset's rules. Everything a rule writes lives here or in the shared turn
order, so undo, redo and the log rebuild cover it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ...base import Condition, StateModel
from ...turn_state import TurnRoundState

RULESET_ID = "d100"

WeaponKind = Literal["melee", "projectile", "bullet", "unarmed"]
AttackKind = Literal["physical", "energy", "mind"]


class D100Weapon(StateModel):
    """A weapon: its damage, its own hit points, and what kind of attack it makes."""

    name: str = Field(min_length=1, max_length=60)
    damage: int = Field(1, ge=0, le=1000)
    # docs/rulesets/d100.md#weapon-destruction: normally equal to the damage it deals
    # (a weapon given without hit points gets its damage).
    hp: int = Field(1, ge=0, le=10000)
    kind: WeaponKind = "melee"
    # docs/rulesets/d100.md#alternative-hit-points: how much of the damage is critical.
    attack: AttackKind = "physical"

    @model_validator(mode="before")
    @classmethod
    def _hp_from_damage(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("hp") is None:
            data = {**data, "hp": data.get("damage", 1)}
        return data


# docs/rulesets/d100.md#armour: the usual ranges of a suit of armour.
SUITS = {"full": (5, 95), "half": (25, 75), "quarter": (45, 70)}


class D100Armour(StateModel):
    """Armour covers the natural strike rolls from ``low`` to ``high`` and has hit points;
    a full, half or quarter suit has the usual range (custom: the GM's own)."""

    name: str = Field("Armour", min_length=1, max_length=60)
    suit: Literal["custom", "full", "half", "quarter"] = "custom"
    low: int = Field(1, ge=1, le=100)
    high: int = Field(100, ge=1, le=100)
    hp: int = Field(10, ge=0, le=10000)

    @model_validator(mode="before")
    @classmethod
    def _suit_range(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("suit") in SUITS:
            low, high = SUITS[data["suit"]]
            data = {**data, "low": low, "high": high}
        return data

    @model_validator(mode="after")
    def _range(self) -> D100Armour:
        if self.low > self.high:
            raise ValueError(f"the armour's range {self.low}-{self.high} runs backwards")
        return self


class D100Sheet(StateModel):
    """The d100 fighter sheet (docs/rulesets/d100.md#fighter-sheet)."""

    ruleset: Literal["d100"] = "d100"
    max_hp: int = Field(20, ge=1, le=10000)
    strike: int = Field(0, ge=-100, le=200)
    parry: int = Field(0, ge=-100, le=200)
    dodge: int = Field(0, ge=-100, le=200)
    entangle: int = Field(0, ge=-100, le=200)
    counterstrike: int = Field(0, ge=-100, le=200)
    combat_skill: int = Field(0, ge=0, le=200)
    wit_skill: int = Field(0, ge=0, le=200)
    damage_skill: int = Field(0, ge=-100, le=200)
    # The text's "defense bonus": taken off damage that lands outside the armour.
    toughness: int = Field(0, ge=0, le=1000)
    build: int = Field(0, ge=0, le=1000)
    recovery: int = Field(0, ge=0, le=1000)
    hit_points_skill: int = Field(0, ge=0, le=1000)
    running_speed: int = Field(0, ge=0, le=1000)
    # Place at the table, for initiative method D (0: not seated).
    seat: int = Field(0, ge=0, le=100)
    weapons: list[D100Weapon] = Field(default_factory=list)
    # At most one suit (a list, so the sheet's table can add and remove it).
    armour: list[D100Armour] = Field(default_factory=list, max_length=1)
    # The level 1 super power: critical damage recovers like perceived damage.
    healing_factor: bool = False


    @field_validator("armour", mode="before")
    @classmethod
    def _one_suit(cls, value: Any) -> Any:
        """A file may hold the armour as one object, or none."""
        if value is None:
            return []
        if isinstance(value, dict):
            return [value]
        return value


class D100Status(StateModel):
    """What changes about a d100 fighter during a fight."""

    ruleset: Literal["d100"] = "d100"
    hp: int = Field(20, ge=0)
    # Each weapon's hit points now, by position on the sheet (missing: as on the sheet).
    weapon_hp: list[int] = Field(default_factory=list)
    armour_hp: int | None = Field(None, ge=0)
    conditions: list[Condition] = Field(default_factory=list)
    # docs/rulesets/d100.md#actions: actions left this round (a borrowed one included),
    # and whether next round's action is already borrowed.
    actions: int = Field(1, ge=0, le=2)
    owes: bool = False
    # Weapons on the floor (their places on the sheet): dropped on a natural 01-10 or
    # taken by a disarm, until picked up.
    dropped: list[int] = Field(default_factory=list)
    # docs/rulesets/d100.md#serious-wounds: the round the fighter became seriously wounded
    # (None: not seriously wounded).
    wounded_round: int | None = None
    # docs/rulesets/d100.md#obstacles: behind cover (the GM sets it).
    cover: Literal["none", "partial", "full"] = "none"
    # docs/rulesets/d100.md#alternative-hit-points: critical damage taken (the option).
    critical: int = Field(0, ge=0)
    # docs/rulesets/d100.md#multiple-weapons: taken off parry, dodge and entangle for the
    # rest of the round after a strike with every weapon.
    defense_penalty: int = Field(0, ge=0)
    # docs/rulesets/d100.md#weapon-destruction: the damage each weapon has taken in all
    # (by position on the sheet); twice its damage destroys it.
    weapon_harm: list[int] = Field(default_factory=list)


InitiativeMethod = Literal["declared", "A", "B", "C", "D"]


class D100Options(StateModel):
    """Per-fight options (docs/rulesets/d100.md#options)."""

    ruleset: Literal["d100"] = "d100"
    initiative: InitiativeMethod = Field(
        "declared", description="Turn order: declared (the GM orders, no roll), or method "
        "A (1d100), B (1d100 + Combat), C (1d100 + Wit), D (1d100, then by seat)")
    initiative_every_round: bool = Field(
        True, description="Roll initiative every round (off: once, kept for the fight)")
    fierce_with_weapons: bool = Field(
        False, description="Fierce strikes (-20 to strike, +1 damage) with melee weapons too")
    alternative_hp: bool = Field(
        False, description="Alternative hit points: Build is the health, damage is perceived "
        "and critical (Toughness and Hit Points take each off)")
    weaker_weapons: bool = Field(
        False, description="A damaged weapon deals no more damage than its hit points now")
    partial_cover_low: int = Field(
        30, ge=1, le=100, description="Partial cover stops natural strike rolls from ...")
    partial_cover_high: int = Field(
        70, ge=1, le=100, description="... up to this one")


class D100Round(TurnRoundState):
    """Round state: the shared turn order, roll and question, and the initiative rolls
    kept for the fight (when initiative is rolled once)."""

    ruleset: Literal["d100"] = "d100"
    initiative: dict[str, int] = Field(default_factory=dict)
    # A hit waiting for the attacker's choice after a failed parry with a weapon: strike
    # the weapon or the defender (docs/rulesets/d100.md#weapon-destruction).
    hit: dict[str, Any] | None = None


# What the session models take from this module (see fightdesk/engine/rulesets/__init__.py).
SHEET = D100Sheet
STATUS = D100Status
OPTIONS = D100Options
ROUND = D100Round
