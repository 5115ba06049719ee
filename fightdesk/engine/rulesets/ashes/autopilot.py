"""The ashes autopilot: what a plain, sensible table does next, for the simulator.

Its choices (docs/rulesets/ashes.md#autopilot): on its turn a fighter challenges the foe
it is most likely to hurt (the exact chance at the advantage before defenses, times the
skill's damage) with the skill it can pay for, auxiliaries added (without the skill when
it can pay for none); a fighter with little HP left and poor odds takes the defensive
stance instead. A defender always takes a free
defense, pays speed for one only when the hit matters and the defense is worth its
speed, and so keeps burst for the hits that count; a dodge likewise. Deterministic: the
same fight gives the same command (``rng`` only breaks exact ties).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from ... import commands as c
from ...changes import RuleViolation
from ...odds import challenge_success
from ...ruleset import LegalOption
from ...turn_ruleset import TurnAutopilot
from . import commands as ash
from .totals import (
    attacking_total,
    defending_total,
    defense_use_cost,
    foes_of,
    offensive_skills,
    pool_now,
)

if TYPE_CHECKING:
    from ...model import Encounter, Fighter
    from ...pending_roll import PendingRoll
    from ...ruleset import ContributionOption
    from .rules import Ashes


class Table(Protocol):
    """What the autopilot asks of the rules (rules.Ashes is one): who is out, and what
    a defender may still add to a waiting challenge."""

    def is_out(self, fighter: Fighter) -> bool: ...

    def contribution_options(self, enc: Encounter,
                             roll: PendingRoll) -> tuple[ContributionOption, ...]: ...


class AshesAutopilot(TurnAutopilot):
    """The ashes autopilot (docs/rulesets/ashes.md#autopilot)."""

    rules: Ashes

    def next_command(self, enc: Encounter, rng: random.Random) -> c.Command | None:
        rules = self.rules
        return self.autopilot_step(enc, roll=lambda roll: _defend_or_flip(rules, enc),
                                   turn=lambda me: _turn(rules, enc, me, rng))

    def legal_commands(self, enc: Encounter) -> tuple[LegalOption, ...]:
        """The views' commands, and while a challenge waits: each defense the defender may
        add, taking the latest back, and the flip."""
        roll = enc.state.roll
        if roll is None:
            return super().legal_commands(enc)
        rid = roll.id
        out = [LegalOption("make-roll", roll.roller_id or "", (),
                           lambda _v: c.MakeRoll(roll_id=rid))]
        for opt in self.rules.contribution_options(enc, roll):
            amounts = tuple(range(opt.minimum, max(opt.minimum, opt.maximum) + 1))
            out.append(LegalOption("contribute", opt.fighter_id, (("amount", amounts),),
                                   _contribute(rid, opt.fighter_id, opt.kind)))
        if roll.contributions:
            last = roll.contributions[-1].id
            out.append(LegalOption("withdraw", "", (),
                                   lambda _v: c.Withdraw(roll_id=rid, contribution_id=last)))
        return tuple(out)


def _contribute(rid: int, fid: str, kind: str) -> Any:
    return lambda v: c.Contribute(roll_id=rid, fighter_id=fid, contribution=kind,
                                  amount=int(v.get("amount", 0)))


def _turn(ruleset: Table, enc: Encounter, me: Fighter, rng: random.Random) -> c.Command:
    st = me.status
    if st.offense is None or st.attacks_left > 0:
        choice = _best_challenge(ruleset, enc, me, rng)
        if choice is not None:
            return choice
    return c.NextStep()


def _stake(enc: Encounter, damage: int, defender: Fighter) -> Fraction:
    """What a hit is worth to the defender: its damage, or a quarter of the HP when the
    skill's effect is the GM's to say."""
    return Fraction(damage) if damage else Fraction(max(1, int(defender.status.hp) // 4))


def _best_challenge(ruleset: Table, enc: Encounter, me: Fighter,
                    rng: random.Random) -> c.Command | None:
    auto = bool(enc.options.automatic_beyond_six)
    penalty = int(enc.options.unskilled_penalty)
    st = me.status
    skills = offensive_skills(me)
    if st.attacks_left > 0:
        skills = [s for s in skills if s.name == st.offense]
    best: list[tuple[Fraction, int, str, str | None, bool, Fraction]] = []
    for skill in [*skills, None]:
        if skill is None and (best or st.attacks_left > 0):
            continue  # without the skill only when no skill can be paid for
        for aux in (True, False):
            try:
                attack, costs, _ = attacking_total(me, skill, 0, aux, penalty)
            except RuleViolation:
                continue
            if any(pool_now(me, pool) < n for pool, n in costs.items()):
                continue
            for fid in foes_of(enc, me):
                foe = enc.fighters[fid]
                if ruleset.is_out(foe):
                    continue
                resisted = skill.resisted_by if skill else "body"
                chance = challenge_success(attack - defending_total(foe, resisted),
                                           automatic_beyond_six=auto)
                damage = int(skill.damage) if skill else 1
                best.append((chance * max(1, damage), -int(foe.status.hp), fid,
                             skill.name if skill else None, aux, chance))
            break  # with auxiliaries when they can be paid for, else without
    if not best:
        return None
    top = max(best)[:2]
    picks = [b for b in best if b[:2] == top]
    _, _, target, skill_name, aux, chance = picks[0] if len(picks) == 1 else rng.choice(picks)
    low = int(me.status.hp) * 2 <= int(me.sheet.max_hp)
    if low and st.offense is None and chance < Fraction(1, 4):
        return ash.Stance(fighter_id=me.id)
    return ash.Challenge(fighter_id=me.id, target_id=target, skill=skill_name, auxiliaries=aux)


def _defend_or_flip(ruleset: Table, enc: Encounter) -> c.Command:
    roll = enc.state.roll
    assert roll is not None
    make = c.MakeRoll(roll_id=roll.id)
    defender = enc.fighters.get(str(roll.data.get("target")))
    if defender is None:
        return make
    options = ruleset.contribution_options(enc, roll)
    if not options:
        return make
    auto = bool(enc.options.automatic_beyond_six)
    a = roll.total
    now = challenge_success(a, automatic_beyond_six=auto)
    if now == 0:
        return make
    stake = _stake(enc, int(roll.data.get("damage") or 0), defender)
    use = defense_use_cost(defender)
    hp = max(1, int(defender.status.hp))
    matters = stake * 3 >= hp or now >= Fraction(2, 3)
    best: tuple[Fraction, int, c.Command] | None = None
    for opt in options:
        if opt.kind == "dodge":
            amount = opt.default  # the least speed that gives +1 (a 1-2 speed dodge gives +0)
            bonus, spend = amount // 3, use + amount
        else:
            skill_name = opt.kind.removeprefix("skill:")
            skill = next((s for s in defender.sheet.skills if s.name == skill_name), None)
            if skill is None:
                continue
            amount, bonus, spend = 0, int(skill.rating), use
        saved = (now - challenge_success(a - bonus, automatic_beyond_six=auto)) * stake
        if saved <= 0:
            continue
        if spend and not (matters and saved * 2 >= spend):
            continue
        command = c.Contribute(roll_id=roll.id, fighter_id=defender.id, contribution=opt.kind,
                               amount=amount)
        if best is None or (saved, -spend) > best[:2]:
            best = (saved, -spend, command)
    return best[2] if best is not None else make
