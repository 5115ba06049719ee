"""Street Fighter data: the fighter sheet, maneuvers, live status and round state.

RULINGS.md "street-fighter" lists the sheet; the seed is ``000_db53d128f111ab7b.txt``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...base import Condition, Decision, StateModel

RULESET_ID = "street-fighter"

Technique = Literal["punch", "kick", "block", "grab", "athletics", "focus"]
Special = Literal[
    "zen-no-mind",
    "teleport",
    "shrouded-moon",
    "ghostform",
    "punch-defense",
    "kick-defense",
    "yoga-flame",
    "fire-strike",
    "flame-fist",
    "toughskin",
    "stunning-shout",
    "kippup",
]


class Maneuver(StateModel):
    """A maneuver as the fighter knows it: modifiers, technique and rule flags."""

    name: str
    speed: int = 0
    damage: int = 0
    move: int = 0
    technique: Technique | None = "punch"
    abort: bool = False
    block: bool = False
    hold: bool = False
    knockdown: bool = False
    no_damage: bool = False
    special: Special | None = None
    # Stunning Shout's opposed pool (RULINGS.md: default Wits + Focus).
    shout_pool: list[str] = Field(default_factory=lambda: ["wits", "focus"])


class StreetFighterSheet(StateModel):
    """The street-fighter fighter sheet (RULINGS.md, street-fighter, first paragraph)."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    # Attributes
    strength: int = Field(2, ge=0, le=10)
    dexterity: int = Field(2, ge=0, le=10)
    stamina: int = Field(2, ge=0, le=10)
    charisma: int = Field(2, ge=0, le=10)
    manipulation: int = Field(2, ge=0, le=10)
    appearance: int = Field(2, ge=0, le=10)
    perception: int = Field(2, ge=0, le=10)
    intelligence: int = Field(2, ge=0, le=10)
    wits: int = Field(2, ge=0, le=10)
    # Abilities the text uses
    arena: int = Field(0, ge=0, le=10)
    style_lore: int = Field(0, ge=0, le=10)
    insight: int = Field(0, ge=0, le=10)
    intimidation: int = Field(0, ge=0, le=10)
    subterfuge: int = Field(0, ge=0, le=10)
    # Techniques
    punch: int = Field(0, ge=0, le=10)
    kick: int = Field(0, ge=0, le=10)
    block: int = Field(0, ge=0, le=10)
    grab: int = Field(0, ge=0, le=10)
    athletics: int = Field(0, ge=0, le=10)
    focus: int = Field(0, ge=0, le=10)
    # Pools (permanent ratings)
    health: int = Field(10, ge=1, le=30)
    chi: int = Field(0, ge=0, le=20)
    willpower: int = Field(1, ge=0, le=20)
    weenie: bool = False
    maneuvers: list[Maneuver] = Field(default_factory=list)


DieState = Literal["ready", "held", "spent", "lost", "converted"]


class ActionDie(StateModel):
    """One action die: its face is its phase (RULINGS.md, round start)."""

    id: int
    face: int = Field(ge=1, le=10)
    state: DieState = "ready"


class StreetFighterStatus(StateModel):
    """What changes about a street-fighter fighter during a fight."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    health: int = Field(10, ge=0)
    chi: int = Field(0, ge=0)
    willpower: int = Field(1, ge=0)
    ep: int = Field(0, ge=0)
    zen_ep: int = Field(0, ge=0)
    dice: list[ActionDie] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)


class StreetFighterOptions(StateModel):
    """Per-fight options (RULINGS.md: "Option" always means one of these)."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    ones_cancel_on_damage: bool = False
    ones_cancel_on_other_rolls: bool = True
    seconds_per_round: int = Field(3, ge=1, le=60)
    arena_tn: int = Field(8, ge=6, le=8)


class StreetFighterRound(StateModel):
    """Round state: where the fight is, and what the engine is waiting for."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    stage: Literal["setup", "fight-start", "phases", "round-over", "fight-over"] = "setup"
    phase: int | None = None
    pending: Decision | None = None
