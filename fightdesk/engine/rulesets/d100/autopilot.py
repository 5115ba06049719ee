"""The d100 autopilot: what a plain, sensible table does next, for the simulator.

Its choices (docs/rulesets/d100.md#autopilot): initiative rows are left to the app; on
its turn a fighter breaks free if entangled, picks up a dropped weapon that beats its
fists, else strikes the foe it is likely to hurt most (the exact damage odds against that
foe's best defense), Fierce when that does more; it never borrows to strike. Struck, it
declares a counterstrike when the damage the counter is expected to deal, less the extra
damage it lets through, beats what its own strike would deal later (only with an action
of this round left); otherwise it picks the defense with the best odds. Deterministic:
``rng`` only breaks exact ties.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from ... import commands as c
from ...odds import d100_counterstrike, d100_damage
from ...turn_ruleset import TurnAutopilot
from . import commands as dc
from . import exchange as ex
from . import values as v
from .damage import Rulebook

if TYPE_CHECKING:
    from ...base import Decision
    from ...model import Encounter, Fighter
    from ...pending_roll import PendingRoll
    from .rules import D100

PARTY = ("pc", "ally")


class Table(Rulebook, Protocol):
    """What the autopilot asks of the rules besides the exchange's: the question
    waiting."""

    def pending(self, enc: Encounter) -> Decision | None: ...


class D100Autopilot(TurnAutopilot):
    """The d100 autopilot (docs/rulesets/d100.md#autopilot)."""

    rules: D100

    def next_command(self, enc: Encounter, rng: random.Random) -> c.Command | None:
        ruleset = self.rules
        pending = ruleset.pending(enc)
        if pending is not None and pending.choices:
            # After a failed parry: strike the defender unless only the weapon would suffer.
            hit = enc.state.hit or {}
            pick = "defender" if int(hit.get("to_defender", 0)) > 0 else "weapon"
            return c.Answer(decision_id=pending.id, choice=pick, by="autopilot")
        return self.autopilot_step(enc, roll=lambda roll: _answer_roll(ruleset, enc, roll),
                                   turn=lambda me: _turn(ruleset, enc, me, rng))


def _turn(ruleset: Table, enc: Encounter, me: Fighter, rng: random.Random) -> c.Command:
    if int(me.status.actions) <= 0:
        return c.NextStep()
    if v.entangled_by(me):
        return dc.BreakFree(fighter_id=me.id)
    if me.status.dropped and any(me.sheet.weapons[i].damage > 1 for i in me.status.dropped
                                 if 0 <= i < len(me.sheet.weapons)):
        return dc.PickUp(fighter_id=me.id)
    strike = _best_strike(ruleset, enc, me, rng)
    return strike if strike is not None else c.NextStep()


def expected(dist: dict[int, Fraction]) -> Fraction:
    return sum((amount * p for amount, p in dist.items()), Fraction(0))


def strike_value(enc: Encounter, me: Fighter, foe: Fighter, weapon: int | None,
                 fierce: bool) -> Fraction:
    """The health ``foe`` is expected to lose to this strike, against their best defense."""
    bonus = v.value(me, "strike") - (v.FIERCE_PENALTY if fierce else 0)
    around = v.around_cover(foe)
    defense = max(v.value(foe, name) for name in v.DEFENSES) + around
    dist = d100_damage(bonus, defense, v.weapon_damage(me, weapon, fierce, enc),
                       toughness=v.value(foe, "toughness"), armour=v.armour_range(foe),
                       chart=v.chart(enc))
    return expected(dist)


def _best_strike(ruleset: Table, enc: Encounter, me: Fighter, rng: random.Random) -> c.Command | None:
    best: list[tuple[Fraction, int, str, int | None, bool]] = []
    for fid in enc.order:
        foe = enc.fighters[fid]
        if fid == me.id or (foe.side in PARTY) == (me.side in PARTY) or ruleset.is_out(foe):
            continue
        for weapon in [*v.held_weapons(me), None]:
            for fierce in (False, True):
                if fierce and v.may_be_fierce(enc, me, weapon):
                    continue
                worth = strike_value(enc, me, foe, weapon, fierce)
                best.append((worth, -int(foe.status.hp), fid, weapon, fierce))
    if not best:
        return None
    top = max(b[:2] for b in best)
    choices = [b for b in best if b[:2] == top]
    pick = choices[0] if len(choices) == 1 else choices[rng.randrange(len(choices))]
    return dc.Strike(fighter_id=me.id, target_id=pick[2], weapon=pick[3], fierce=pick[4])


def _answer_roll(ruleset: Table, enc: Encounter, roll: PendingRoll) -> c.Command:
    kind = roll.data.get("kind")
    if kind == "strike" and not roll.contributions:
        counter = _counter_if_it_pays(ruleset, enc, roll)
        if counter is not None:
            return c.Contribute(roll_id=roll.id, fighter_id=str(roll.data["target"]),
                                contribution=counter, amount=0)
    foe = enc.fighters.get(str(roll.data.get("target")))
    if kind == "defense" and not roll.contributions and foe is not None:  # not removed
        best = max(v.DEFENSES, key=lambda name: (v.value(foe, name), name == "entangle"))
        return c.Contribute(roll_id=roll.id, fighter_id=foe.id, contribution=best, amount=0)
    return c.MakeRoll(roll_id=roll.id)


def _counter_if_it_pays(ruleset: Table, enc: Encounter, roll: PendingRoll) -> str | None:
    attacker = enc.fighters.get(str(roll.data.get("actor")))
    me = enc.fighters.get(str(roll.data.get("target")))
    if attacker is None or me is None or int(me.status.actions) <= 0:
        return None
    if not ex.counter_options(ruleset, enc, roll):
        return None
    weapon = roll.data.get("weapon")
    fierce = bool(roll.data.get("fierce"))
    mine = max([*v.held_weapons(me), None],
               key=lambda i: (v.weapon_damage(me, i, enc=enc), -1 if i is None else -i))
    got = d100_counterstrike(roll.total, v.value(me, "counterstrike") + v.around_cover(me))
    # Average damage each way, on an average hit (the chart's x1 band).
    theirs = Fraction(max(0, v.weapon_damage(attacker, weapon, fierce, enc) - v.value(me, "toughness")))
    ours = Fraction(max(0, v.weapon_damage(me, mine, enc=enc) - v.value(attacker, "toughness")))
    taken = (got.only_attack + got.both) * theirs
    dealt = (got.only_counter + got.both) * ours
    defended = expected(d100_damage(roll.total, max(v.value(me, n) for n in v.DEFENSES),
                                    v.weapon_damage(attacker, weapon, fierce, enc),
                                    toughness=v.value(me, "toughness"),
                                    armour=v.armour_range(me), chart=v.chart(enc)))
    later = strike_value(enc, me, attacker, mine, False)
    if dealt - (taken - defended) > later:
        return "counter" if mine is None else f"counter-{mine}"
    return None
