"""What a roll-under roll needs and who rolls it: the targets of attack, defense and
maneuvers, player-facing rolls, a disarmed fighter. Read by the rules and the autopilot
alike (docs/rulesets/roll-under.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...model import Fighter

PARTY = ("pc", "ally")
STATUS = "status"
# docs/rulesets/roll-under.md#damage: the weapon classes' dice; unarmed as a light weapon.
DAMAGE_DIE = {"light": 6, "medium-one-handed": 8, "medium-two-handed": 10,
              "medium-ranged": 8, "rifle": 10, "heavy": 12}
UNARMED_DIE = 6
# docs/rulesets/roll-under.md#combat-maneuvers: the stat each maneuver is rolled with.
MANEUVER_STAT = {"shove": "strength", "grapple": "strength", "trip": "dexterity",
                 "disarm": "dexterity"}


def attack_target(attacker: Fighter, defender: Fighter) -> int:
    """docs/rulesets/roll-under.md#attack: Attack - (the target's Defense - 10)."""
    return int(attacker.sheet.attack) - (int(defender.sheet.defense) - 10)


def defense_target(defender: Fighter, attacker: Fighter) -> int:
    """docs/rulesets/roll-under.md#defense: Defense - (the attacker's Attack - 10)."""
    return int(defender.sheet.defense) - (int(attacker.sheet.attack) - 10)


def maneuver_target(roller: Fighter, opponent: Fighter, maneuver: str) -> int:
    """docs/rulesets/roll-under.md#combat-maneuvers: the stat - (opponent's Attack - 10)."""
    stat = int(getattr(roller.sheet, MANEUVER_STAT[maneuver]))
    return stat - (int(opponent.sheet.attack) - 10)


def player_faces(actor: Fighter, target: Fighter) -> bool:
    """docs/rulesets/roll-under.md#player-facing-rolls: an enemy acting on a PC is
    answered by the PC's roll; otherwise the one acting rolls."""
    return actor.side == "enemy" and target.side == "pc"


def disarmed(fighter: Fighter) -> bool:
    """docs/rulesets/roll-under.md#combat-maneuvers: a disarmed fighter strikes unarmed
    until they take their weapon back."""
    return any(c.name == "Disarmed" for c in fighter.status.conditions)
