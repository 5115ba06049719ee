"""The d100 commands: plain data the rules in ``rules.py`` and ``exchange.py`` apply."""

# No ``from __future__ import annotations``: pydantic reads these annotations at class time.

from typing import Literal

from pydantic import Field

from ...commands import Command


class Strike(Command):
    """Strike a target with a weapon (its place on the sheet; none: punches and kicks),
    maybe Fierce (docs/rulesets/d100.md#the-exchange)."""

    kind: Literal["d100-strike"] = "d100-strike"
    fighter_id: str
    target_id: str
    weapon: int | None = None
    fierce: bool = False
    # docs/rulesets/d100.md#multiple-weapons: every weapon in hand at once.
    every_weapon: bool = False


class BreakFree(Command):
    """The entangled fighter's action: both roll 1d100 + Damage skill
    (docs/rulesets/d100.md#entangle)."""

    kind: Literal["d100-break-free"] = "d100-break-free"
    fighter_id: str


class Disarm(Command):
    """The entangler's action: beat 1.5 x the entangled fighter's roll
    (docs/rulesets/d100.md#entangle)."""

    kind: Literal["d100-disarm"] = "d100-disarm"
    fighter_id: str
    target_id: str


class PickUp(Command):
    """Pick up the dropped weapons (the fighter's action)."""

    kind: Literal["d100-pick-up"] = "d100-pick-up"
    fighter_id: str


class SetCover(Command):
    """The GM puts a fighter behind cover, partial or full, or out of it
    (docs/rulesets/d100.md#obstacles)."""

    kind: Literal["d100-cover"] = "d100-cover"
    fighter_id: str
    cover: Literal["none", "partial", "full"] = "none"


class Recover(Command):
    """Out of combat: minutes of rest, hours of sleep, medical attention
    (docs/rulesets/d100.md#alternative-hit-points)."""

    kind: Literal["d100-recover"] = "d100-recover"
    fighter_id: str
    minutes: int = Field(0, ge=0, le=100000)
    hours: int = Field(0, ge=0, le=10000)
    medical: bool = False


class RepairWeapon(Command):
    """The GM repairs a damaged weapon: back to its full hit points (not a destroyed one)."""

    kind: Literal["d100-repair"] = "d100-repair"
    fighter_id: str
    weapon: int = Field(ge=0)
