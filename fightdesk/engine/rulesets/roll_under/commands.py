"""The roll-under commands: plain data the rules in ``rules.py`` apply."""

# No ``from __future__ import annotations``: pydantic reads these annotations at class time.

from typing import Literal

from ...commands import Command

Maneuver = Literal["shove", "grapple", "trip", "disarm"]
OtherAction = Literal["run", "gear", "reload"]


class Attack(Command):
    """Attack a target with a weapon (its place on the sheet; none: unarmed, 1d6)."""

    kind: Literal["ru-attack"] = "ru-attack"
    fighter_id: str
    target_id: str
    weapon: int | None = None


class CombatManeuver(Command):
    """Shove, grapple, trip or disarm a target (docs/rulesets/roll-under.md#combat-maneuvers)."""

    kind: Literal["ru-maneuver"] = "ru-maneuver"
    fighter_id: str
    target_id: str
    maneuver: Maneuver


class OtherTurnAction(Command):
    """Run, activate gear or reload: the turn's one action, with nothing to roll."""

    kind: Literal["ru-action"] = "ru-action"
    fighter_id: str
    action: OtherAction


class Move(Command):
    """The turn's move (about 60 feet), besides the action."""

    kind: Literal["ru-move"] = "ru-move"
    fighter_id: str


class RemoveFatalWound(Command):
    """Remove a Fatal Wound from a fighter (the turn's action)."""

    kind: Literal["ru-remove-wound"] = "ru-remove-wound"
    fighter_id: str
    target_id: str


class SetAmbusher(Command):
    """The GM marks a fighter who attacks by surprise (acts in the surprise step)."""

    kind: Literal["ru-ambusher"] = "ru-ambusher"
    fighter_id: str
    ambusher: bool = True


class Rest(Command):
    """A good night's rest in a safe house: the fighter's assists come back."""

    kind: Literal["ru-rest"] = "ru-rest"
    fighter_id: str


class PickUpWeapon(Command):
    """A disarmed fighter takes their weapon back (free: retrieving an item is)."""

    kind: Literal["ru-pick-up"] = "ru-pick-up"
    fighter_id: str
