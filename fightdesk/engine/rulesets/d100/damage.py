"""d100 damage: what a hit does to the one struck, their armour or cover, or the weapon
that parried it (docs/rulesets/d100.md#damage), and the alternative hit point rules
(docs/rulesets/d100.md#alternative-hit-points)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ... import conditions
from ...odds import chart_multiplier, d100_hit_damage
from . import values as v

if TYPE_CHECKING:
    from ...model import Fighter
    from ...pending_roll import PendingRoll
    from ...ruleset import Context


class Rulebook(Protocol):
    """What the exchange's helpers (here, ``exchange``, ``defense``, the autopilot) ask
    of the d100 rules (rules.D100 is one): who is out of the fight, putting a roll on
    hold for the defender, and letting go of everyone a fighter entangles."""

    def is_out(self, fighter: Fighter) -> bool: ...

    def open_roll(self, ctx: Context, roll: PendingRoll) -> PendingRoll: ...

    def release(self, ctx: Context, fighter_id: str) -> None: ...

STATUS = "status"


def path(fid: str) -> tuple[str, ...]:
    """Where a fighter's status lives, for ``ctx.set``."""
    return ("fighters", fid, STATUS)


def deal_damage(rules: Rulebook, ctx: Context, attacker: Fighter, target: Fighter,
                weapon: v.Weapons, natural: int, *, fierce: bool) -> int:
    """docs/rulesets/d100.md#damage: the weapon's damage times the chart's multiplier for
    the natural roll, rounded down; inside the cover's range nothing; inside the armour's
    range the armour takes it; else Toughness comes off; never below 0. Returns the
    health lost."""
    enc = ctx.enc
    target = enc.fighters[target.id]
    base = v.weapon_damage(attacker, weapon, fierce, enc)
    cover = v.cover_range(enc, target)
    if cover is not None and cover[0] <= natural <= cover[1]:
        ctx.summary = f"{attacker.name} hits {target.name}'s cover (natural {natural:02d})"
        ctx.say(ctx.summary + ": no damage", fighter_id=target.id, kind="resolve")
        return 0
    amount, on_armour = d100_hit_damage(base, natural, toughness=v.value(target, "toughness"),
                                        armour=v.armour_range(target), chart=v.chart(enc))
    if on_armour:
        left = v.armour_left(target)
        taken = min(amount, left)
        ctx.set(path(target.id), "armour_hp", left - taken)
        ctx.summary = f"{attacker.name} hits {target.name}'s armour for {amount}"
        ctx.say(f"{target.name}'s armour takes {amount} damage ({left - taken} left)",
                fighter_id=target.id, kind="damage", target=target.id, amount=0,
                source=attacker.id)
        return 0
    hp = int(target.status.hp)
    now = max(0, hp - amount)
    if enc.options.alternative_hp:
        whole = int(base * chart_multiplier(v.chart(enc), natural))
        now = _alternative_damage(ctx, attacker, target, weapon, amount, whole)
        amount = hp - now
    ctx.set(path(target.id), "hp", now)
    ctx.say(f"{target.name} takes {amount} damage", fighter_id=target.id, kind="damage",
            target=target.id, amount=amount, source=attacker.id)
    ctx.summary = f"{attacker.name} hits {target.name} for {amount}"
    health_changed(rules, ctx, target.id, hp)
    return amount


def health_changed(rules: Rulebook, ctx: Context, fighter_id: str, before: int) -> None:
    """What a change of health from ``before`` does, whoever made it (a hit, the GM's
    typed change): out of the fight at 0 (docs/rulesets/d100.md#damage), seriously
    wounded at once at 1/5 or less, and no longer once healed above it
    (docs/rulesets/d100.md#serious-wounds)."""
    enc = ctx.enc
    target = enc.fighters[fighter_id]
    now = int(target.status.hp)
    if now <= 0 < before:
        ctx.say(f"{target.name} is out of the fight", fighter_id=target.id, kind="note")
        rules.release(ctx, target.id)
        if v.entangled_by(target):
            conditions.remove(ctx, target.id, "Entangled")
    elif v.below_the_line(enc, target) and target.status.wounded_round is None:
        ctx.set(path(target.id), "wounded_round", enc.round)
        ctx.say(f"{target.name} is seriously wounded: values halved, an action only every "
                "second round", fighter_id=target.id, kind="note")
    elif (now > 0 and not v.below_the_line(enc, target)
          and target.status.wounded_round is not None):
        ctx.set(path(target.id), "wounded_round", None)
        ctx.say(f"{target.name} is no longer seriously wounded", fighter_id=target.id,
                kind="note")


def _alternative_damage(ctx: Context, attacker: Fighter, target: Fighter, weapon: v.Weapons,
                        perceived: int, whole: int) -> int:
    """docs/rulesets/d100.md#alternative-hit-points: the hit's perceived damage (less
    Toughness, already taken off) comes off the health; its critical share by attack
    type, less Hit Points, is kept apart, and the health never stands above Build less
    the critical damage. Returns the health now."""
    share = v.CRITICAL_SHARE[v.attack_kind(attacker, weapon)]
    critical = max(0, int(whole * share) - v.value(target, "hit_points_skill"))
    total = int(target.status.critical) + critical
    if critical:
        ctx.set(path(target.id), "critical", total)
        ctx.say(f"{target.name} takes {critical} critical damage ({total} in all)",
                fighter_id=target.id, kind="note")
    return max(0, min(int(target.status.hp) - perceived, int(target.sheet.build) - total))


def damage_weapon(ctx: Context, owner: Fighter, index: int, amount: int, by: Fighter) -> None:
    """A weapon loses hit points: at 0 it is unusable but repairable; dealt twice its
    damage in all, it is destroyed (docs/rulesets/d100.md#weapon-destruction)."""
    count = len(owner.sheet.weapons)
    hp = [v.weapon_hp(owner, i) for i in range(count)]
    harm = [v.weapon_harm(owner, i) for i in range(count)]
    hp[index] = max(0, hp[index] - amount)
    harm[index] += amount
    ctx.set(path(owner.id), "weapon_hp", hp)
    ctx.set(path(owner.id), "weapon_harm", harm)
    owner = ctx.enc.fighters[owner.id]
    name = owner.sheet.weapons[index].name
    state = f"{hp[index]} HP left"
    if v.destroyed(owner, index):
        state = "destroyed beyond repair"
    elif hp[index] <= 0:
        state = "broken: unusable until repaired"
    ctx.summary = f"{by.name} strikes {owner.name}'s {name} for {amount}: {state}"
    ctx.say(ctx.summary, fighter_id=owner.id, kind="resolve")
