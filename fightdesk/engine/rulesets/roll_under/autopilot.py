"""The roll-under autopilot: what a plain, sensible table does next, for the simulator.

Its choices (docs/rulesets/roll-under.md#autopilot): the players' Wisdom rows are left to
the app; on its turn a fighter attacks the foe it is most likely to hurt (the chance to
hit times the weapon's average damage, the exact odds of the roll), with its best weapon,
then ends its turn; an ally with assists to spare helps a roll of its own side that
succeeds less than half the time, one assist each, and a roll is made once nobody helps
any more. Combat maneuvers and holds are left to the GM. Deterministic: the same fight
gives the same command (``rng`` only breaks exact ties).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from ... import commands as c
from ...odds import d20_at_or_under
from ...turn_ruleset import TurnAutopilot
from . import commands as ru
from .targets import PARTY, attack_target, defense_target, disarmed, maneuver_target, player_faces

if TYPE_CHECKING:
    from ...model import Encounter, Fighter
    from ...pending_roll import PendingRoll
    from ...ruleset import ContributionOption
    from .rules import RollUnder


class Table(Protocol):
    """What the autopilot asks of the rules (rules.RollUnder is one): who is out, what
    may be added to a roll and what a helper adds, and a weapon's die."""

    def is_out(self, fighter: Fighter) -> bool: ...

    def contribution_options(self, enc: Encounter,
                             roll: PendingRoll) -> tuple[ContributionOption, ...]: ...

    def helps(self, roll: PendingRoll, enc: Encounter, fid: str) -> int: ...

    @staticmethod
    def weapon_die(fighter: Fighter, weapon: int | None) -> tuple[int, str]: ...


class RollUnderAutopilot(TurnAutopilot):
    """The roll-under autopilot (docs/rulesets/roll-under.md#autopilot)."""

    rules: RollUnder

    def next_command(self, enc: Encounter, rng: random.Random) -> c.Command | None:
        table: Table = self.rules
        return self.autopilot_step(enc, roll=lambda roll: _help_or_roll(table, enc),
                                   turn=lambda me: _turn(table, enc, me, rng))


def _turn(ruleset: Table, enc: Encounter, me: Fighter, rng: random.Random) -> c.Command:

    if disarmed(me) and me.sheet.weapons:
        return ru.PickUpWeapon(fighter_id=me.id)
    if me.status.action is None:
        attack = _best_attack(ruleset, enc, me, rng)
        if attack is not None:
            return attack
    return c.NextStep()


def _best_attack(ruleset: Table, enc: Encounter, me: Fighter,
                 rng: random.Random) -> c.Command | None:

    weapon = _best_weapon(ruleset, me)
    sides, _ = ruleset.weapon_die(me, weapon)
    mean = Fraction(sides + 1, 2)
    best: list[tuple[Fraction, int, str]] = []
    for fid in enc.order:
        foe = enc.fighters[fid]
        if (foe.side in PARTY) == (me.side in PARTY) or ruleset.is_out(foe):
            continue
        if player_faces(me, foe):
            hit = 1 - d20_at_or_under(defense_target(foe, me))
        else:
            hit = d20_at_or_under(attack_target(me, foe))
        best.append((hit * mean, -int(foe.status.hp), fid))
    if not best:
        return None
    top = max(best)[:2]
    choices = [fid for value, hp, fid in best if (value, hp) == top]
    target = choices[0] if len(choices) == 1 else rng.choice(choices)
    disarm = _worth_disarming(ruleset, enc, me, top[0])
    if disarm is not None:
        return ru.CombatManeuver(fighter_id=me.id, target_id=disarm, maneuver="disarm")
    return ru.Attack(fighter_id=me.id, target_id=target, weapon=weapon)


def _worth_disarming(ruleset: Table, enc: Encounter, me: Fighter,
                     attack_value: Fraction) -> str | None:
    """A foe with a big weapon is worth disarming when the damage that saves (for the
    round it takes to pick the weapon up, at even odds of hitting) beats this turn's
    attack less what a failed try costs (the foe's automatic hit)."""

    best: tuple[Fraction, str] | None = None
    for fid in enc.order:
        foe = enc.fighters[fid]
        if (foe.side in PARTY) == (me.side in PARTY) or ruleset.is_out(foe):
            continue
        if not foe.sheet.weapons or disarmed(foe):
            continue
        sides, _ = ruleset.weapon_die(foe, 0)
        if sides < 10:
            continue
        if player_faces(me, foe):
            works = 1 - d20_at_or_under(maneuver_target(foe, me, "disarm"))
        else:
            works = d20_at_or_under(maneuver_target(me, foe, "disarm"))
        foe_mean = Fraction(sides + 1, 2)
        value = works * (foe_mean - Fraction(7, 2)) / 2 - (1 - works) * foe_mean / 2
        if value > attack_value and (best is None or value > best[0]):
            best = (value, fid)
    return best[1] if best else None


def _best_weapon(ruleset: Table, me: Fighter) -> int | None:
    weapons = me.sheet.weapons
    if not weapons:
        return None
    return max(range(len(weapons)), key=lambda i: (ruleset.weapon_die(me, i)[0], -i))


def _help_or_roll(ruleset: Table, enc: Encounter) -> c.Command:
    roll = enc.state.roll
    assert roll is not None
    if d20_at_or_under(roll.total) < Fraction(1, 2):
        given = {x.fighter_id for x in roll.contributions}
        for option in ruleset.contribution_options(enc, roll):
            helps = ruleset.helps(roll, enc, option.fighter_id) > 0
            if helps and option.fighter_id not in given:
                return c.Contribute(roll_id=roll.id, fighter_id=option.fighter_id,
                                    contribution=option.kind, amount=1)
    return c.MakeRoll(roll_id=roll.id)
