"""The d100 exchange: actions and borrowing, the strike roll, and the counterstrike
declared on it (docs/rulesets/d100.md#the-exchange); the defense is in ``defense.py``,
damage in ``damage.py``.

Each roll waits on the roll panel as a pending roll: the strike for the defender to
declare a counterstrike, the defense for the defender to choose how to defend, with the
exact odds of each choice. The whole exchange is one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...odds import (
    FUMBLE_TOP,
    d100_counterstrike,
    d100_strike_odds,
    one_and_a_half,
)
from ...pending_roll import Contribution, PendingRoll
from ...ruleset import ContributionOption, Odds
from . import values as v
from .damage import deal_damage, path

if TYPE_CHECKING:
    from ...dice import Roll
    from ...model import Fighter
    from ...ruleset import Context
    from .damage import Rulebook

# --- actions ---------------------------------------------------------------------------------


def use_action(ctx: Context, fighter: Fighter, what: str) -> dict[str, int]:
    """docs/rulesets/d100.md#actions: spend this round's action, or borrow next round's
    (one at a time); what was paid, so it can be given back."""
    if int(fighter.status.actions) > 0:
        ctx.set(path(fighter.id), "actions", int(fighter.status.actions) - 1)
        _spent(ctx, fighter, what)
        return {"action": 1}
    if not v.can_borrow(fighter):
        why = ("seriously wounded fighters cannot borrow" if v.seriously_wounded(fighter)
               else "next round's action is already borrowed")
        ctx.fail(f"{fighter.name} has no action left for {what} ({why})")
    ctx.set(path(fighter.id), "owes", True)
    ctx.say(f"{fighter.name} borrows next round's action for {what}", fighter_id=fighter.id,
            kind="note")
    # The summary's action tally: a borrowed action is one gained and spent now.
    ctx.say(f"{fighter.name} gains next round's action", fighter_id=fighter.id,
            kind="points-gain", pool="action", amount=1, why="borrowed from next round")
    _spent(ctx, fighter, what)
    return {"borrowed": 1}


def _spent(ctx: Context, fighter: Fighter, what: str) -> None:
    ctx.say(f"{fighter.name} spends an action on {what}", fighter_id=fighter.id,
            kind="points-spend", pool="action", amount=1, why=what)


def give_back(ctx: Context, fighter: Fighter, paid: dict[str, int]) -> None:
    if paid.get("action"):
        ctx.set(path(fighter.id), "actions", int(fighter.status.actions) + 1)
    if paid.get("borrowed"):
        ctx.set(path(fighter.id), "owes", False)
    if paid.get("action") or paid.get("borrowed"):
        ctx.say(f"{fighter.name} gets the action back", fighter_id=fighter.id,
                kind="points-gain", pool="action", amount=1, why="taken back")


# --- the strike ------------------------------------------------------------------------------


def open_strike(rules: Rulebook, ctx: Context, me: Fighter, foe: Fighter, weapon: v.Weapons,
                fierce: bool) -> None:
    """docs/rulesets/d100.md#the-exchange: the strike roll waits for the defender to
    declare a counterstrike before it is made."""
    paid = use_action(ctx, me, "a strike")
    if isinstance(weapon, list):
        ctx.set(path(me.id), "defense_penalty", v.SIMULTANEOUS_PENALTY)
        ctx.say(f"{me.name} strikes with every weapon: -{v.SIMULTANEOUS_PENALTY} to parry, "
                "dodge and entangle for the rest of the round", fighter_id=me.id, kind="note")
    bonus = v.value(me, "strike") - (v.FIERCE_PENALTY if fierce else 0)
    how = v.weapon_name(me, weapon) + (", Fierce" if fierce else "")
    label = f"{me.name} rolls Strike against {foe.name} ({how})"
    ctx.say(f"{me.name} strikes at {foe.name} ({how})", fighter_id=me.id, kind="act",
            maneuver="strike")
    rules.open_roll(ctx, PendingRoll(
        id=0, label=label, roller_id=me.id, by_player=me.side == "pc", sides=100,
        measure="strike bonus", base=bonus,
        data={"kind": "strike", "actor": me.id, "target": foe.id, "weapon": weapon,
              "fierce": fierce, "paid": paid}))
    ctx.summary = label


def counter_options(rules: Rulebook, ctx_enc: Any, roll: PendingRoll) -> list[ContributionOption]:
    """The defender may declare a counterstrike on a waiting strike (with a weapon in
    hand, or punches and kicks), if they have an action or may borrow one."""
    enc = ctx_enc
    foe = enc.fighters.get(str(roll.data.get("target")))
    if foe is None or rules.is_out(foe) or roll.contributions or v.entangled_by(foe) \
            or roll.data.get("riposte"):
        return []
    word = v.action_word(foe)
    if not word:
        return []
    cost = "their action" if word == "action" else "borrows next round's action"
    bonus = v.value(foe, "counterstrike")
    out = []
    for index in [*v.held_weapons(foe), None]:
        kind = "counter" if index is None else f"counter-{index}"
        out.append(ContributionOption(
            foe.id, foe.name, kind,
            f"counterstrike {bonus:+d} ({v.weapon_name(foe, index)})", 0, 0, 0, cost))
    return out


def pay_counter(ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str) -> Contribution:
    enc = ctx.enc
    target = str(roll.data.get("target"))
    if fighter_id != target:
        ctx.fail("only the one struck may counterstrike")
    if roll.contributions:
        ctx.fail("a counterstrike is already declared")
    foe = enc.fighters[target]
    if v.entangled_by(foe):
        ctx.fail(f"{foe.name} is entangled: no counterstrike")
    index = None if kind == "counter" else weapon_index(ctx, kind.removeprefix("counter-"))
    if index is not None and v.weapon(foe, index) is None:
        ctx.fail(f"{foe.name} does not hold weapon {index}")
    paid = use_action(ctx, foe, "a counterstrike")
    ctx.say(f"{foe.name} counterstrikes", fighter_id=foe.id, kind="interrupt",
            maneuver="counterstrike")
    bonus = v.value(foe, "counterstrike")
    cost = "action" if paid.get("action") else "next round's action (borrowed)"
    return Contribution(id=0, fighter_id=foe.id, kind=kind,
                        label=f"counterstrike {bonus:+d} ({v.weapon_name(foe, index)})",
                        amount=0, cost=cost, paid=paid)


def weapon_index(ctx: Context, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        ctx.fail(f"no weapon {text!r}")


def counter_weapon(contribution: Contribution) -> int | None:
    return None if contribution.kind == "counter" else int(contribution.kind.removeprefix("counter-"))


def strike_odds(rules: Rulebook, enc: Any, roll: PendingRoll) -> tuple[Odds, ...]:
    """Before the strike roll: with a counterstrike declared, who connects; otherwise the
    chance the strike hits against each defense the defender may choose."""
    foe = enc.fighters.get(str(roll.data.get("target")))
    if foe is None:
        return ()
    if roll.contributions:
        met = d100_counterstrike(roll.total, v.value(foe, "counterstrike") + v.around_cover(foe))
        return (Odds("only the strike hits", met.only_attack), Odds("both hit", met.both),
                Odds("only the counter hits", met.only_counter), Odds("neither", met.neither))
    around = v.around_cover(foe)
    out = [Odds("natural 01-10, fails", d100_strike_odds(roll.total, 0).fumbled)]
    riposte = int(roll.data.get("riposte") or 0)
    if riposte:
        got = d100_strike_odds(roll.total, v.value(foe, "dodge") + around - riposte)
        return (*out, Odds(f"hits against a dodge -{riposte}", got.hit))
    for name in v.DEFENSES:
        got = d100_strike_odds(roll.total, v.value(foe, name) + around)
        out.append(Odds(f"hits against {v.a_defense(name)}", got.hit))
    return tuple(out)


def resolve_strike(rules: Rulebook, ctx: Context, roll: PendingRoll, result: Roll) -> None:
    enc = ctx.enc
    data = roll.data
    me = enc.fighters.get(str(data["actor"]))
    foe = enc.fighters.get(str(data["target"]))
    if me is None or foe is None:
        ctx.summary = f"{roll.label}: nobody left to strike"
        return
    natural = result.faces[0]
    total = natural + roll.total
    counter = roll.contributions[0] if roll.contributions else None
    if natural <= FUMBLE_TOP:
        # docs/rulesets/d100.md#natural-01-10: no damage, no defense roll.
        weapon = data.get("weapon")
        used = weapon if isinstance(weapon, list) else [] if weapon is None else [int(weapon)]
        lost = [i for i in used if v.armed(me, i)]
        dropped = bool(lost)
        result.outcome = f"natural {natural:02d}: the strike fails" + (
            f", {me.name} drops the {v.weapon_name(me, lost)}" if dropped else "")
        if dropped:
            ctx.set(path(me.id), "dropped", sorted({*me.status.dropped, *lost}))
        ctx.summary = f"{me.name}'s strike fails (natural {natural:02d})"
        ctx.say(ctx.summary + (": the weapon is dropped" if dropped else ""),
                fighter_id=me.id, kind="resolve")
        if counter is not None:
            _counter_on_a_failed_strike(rules, ctx, me, foe, total, counter)
        return
    result.outcome = f"strike total {total}"
    common = {"actor": me.id, "target": foe.id, "weapon": data.get("weapon"),
              "fierce": bool(data.get("fierce")), "strike_total": total,
              "strike_natural": natural}
    if counter is not None:
        bonus = v.value(foe, "counterstrike") + v.around_cover(foe)
        label = f"{foe.name} rolls Counterstrike against {me.name}'s strike of {total}"
        rules.open_roll(ctx, PendingRoll(
            id=0, label=label, roller_id=foe.id, by_player=foe.side == "pc", sides=100,
            measure="counterstrike bonus", base=bonus,
            data={**common, "kind": "counter", "counter_weapon": counter_weapon(counter)}))
        ctx.summary = f"{me.name} strikes {foe.name}: {total}; {foe.name} counterstrikes"
        return
    around = v.around_cover(foe)
    riposte = int(data.get("riposte") or 0)
    label = f"{foe.name} rolls Defense against {me.name}'s strike of {total}"
    if riposte:
        label = f"{foe.name} rolls Dodge against {me.name}'s strike of {total} (-{riposte})"
    rules.open_roll(ctx, PendingRoll(
        id=0, label=label, roller_id=foe.id, by_player=foe.side == "pc", sides=100,
        measure="defense bonus", base=around - riposte,
        data={**common, "kind": "defense", "dodge_only": bool(riposte)}))
    ctx.summary = f"{me.name} strikes {foe.name}: {total}; {foe.name} chooses a defense"


def _counter_on_a_failed_strike(rules: Rulebook, ctx: Context, me: Fighter, foe: Fighter,
                                strike_total: int, counter: Contribution) -> None:
    """docs/rulesets/d100.md#counterstrike: against a natural 01-10 the attack never hits;
    the counter hits if its total beats the strike's."""
    weapon = counter_weapon(counter)
    bonus = v.value(foe, "counterstrike") + v.around_cover(foe)
    if foe.rolls_own_dice and not ctx.dice.typed_waiting:
        # The player rolls their own counter: it waits on the roll panel for the face.
        label = f"{foe.name} rolls Counterstrike against {me.name}'s failed strike"
        rules.open_roll(ctx, PendingRoll(
            id=0, label=label, roller_id=foe.id, by_player=True, sides=100,
            measure="counterstrike bonus", base=bonus,
            data={"kind": "counter", "fumbled": True, "actor": me.id, "target": foe.id,
                  "strike_total": strike_total, "counter_weapon": weapon}))
        return
    record = ctx.roll(1, 100, who=foe.name, purpose=f"Counterstrike against {me.name}",
                      fighter_id=foe.id)
    counter_after_a_failed_strike(rules, ctx, me, foe, strike_total, weapon, bonus, record)


def counter_after_a_failed_strike(rules: Rulebook, ctx: Context, me: Fighter, foe: Fighter,
                                  strike_total: int, weapon: int | None, bonus: int,
                                  record: Roll) -> None:
    """The counter's roll against a failed strike: it hits if its total beats the
    strike's; its own 01-10 fails."""
    natural = record.faces[0]
    total = natural + bonus
    if natural <= FUMBLE_TOP or total <= strike_total:
        record.outcome = f"{total}: the counter misses"
        if natural <= FUMBLE_TOP:
            _fumble(ctx, foe, weapon, natural)
        return
    record.outcome = f"{total}: the counter hits"
    ctx.say(f"{foe.name}'s counterstrike hits {me.name}", fighter_id=foe.id, kind="resolve")
    deal_damage(rules, ctx, foe, me, weapon, natural, fierce=False)


def _fumble(ctx: Context, fighter: Fighter, weapon: int | None, natural: int) -> None:
    dropped = v.armed(fighter, weapon)
    if dropped:
        assert weapon is not None
        ctx.set(path(fighter.id), "dropped", sorted({*fighter.status.dropped, weapon}))
    ctx.say(f"{fighter.name}'s counterstrike fails (natural {natural:02d})"
            + (": the weapon is dropped" if dropped else ""), fighter_id=fighter.id,
            kind="resolve")


# --- the counterstrike -----------------------------------------------------------------------


def counter_odds(enc: Any, roll: PendingRoll) -> tuple[Odds, ...]:
    """Once the strike is made: the counter's chances against the known strike total."""
    from fractions import Fraction

    strike = int(roll.data["strike_total"])
    bonus = roll.total

    def between(low: int, high: int) -> int:  # natural counters 11..100 with totals in low..high
        lo = max(low - bonus, FUMBLE_TOP + 1)
        hi = min(high - bonus, 100)
        return max(0, hi - lo + 1)

    if roll.data.get("fumbled"):  # the strike failed: the counter hits if it beats it
        return (Odds(f"the counter hits ({strike + 1} or more, not 01-10)",
                     Fraction(between(strike + 1, 10**6), 100)),)

    decisive = one_and_a_half(strike)
    only_counter = between(decisive, 10**6)
    both = between(strike + 1, decisive - 1)
    only_attack = 100 - only_counter - both
    return (Odds(f"only the strike hits ({strike} or less, or 01-10)", Fraction(only_attack, 100)),
            Odds(f"both hit ({strike + 1}-{decisive - 1})", Fraction(both, 100)),
            Odds(f"only the counter hits ({decisive} or more)", Fraction(only_counter, 100)))


def resolve_counter(rules: Rulebook, ctx: Context, roll: PendingRoll, result: Roll) -> None:
    """docs/rulesets/d100.md#counterstrike: at or below the strike only the strike hits;
    above it but below 1.5 x the strike both hit; at or above 1.5 x only the counter."""
    enc = ctx.enc
    me = enc.fighters.get(str(roll.data["actor"]))
    foe = enc.fighters.get(str(roll.data["target"]))
    if me is None or foe is None:
        return
    strike = int(roll.data["strike_total"])
    weapon = roll.data.get("counter_weapon")
    if roll.data.get("fumbled"):  # the player's counter against a natural 01-10 strike
        counter_after_a_failed_strike(rules, ctx, me, foe, strike,
                                      None if weapon is None else int(weapon), roll.total, result)
        return
    natural = result.faces[0]
    total = natural + roll.total
    attack_hits = counter_hits = False
    if natural <= FUMBLE_TOP:
        result.outcome = f"natural {natural:02d}: the counter fails"
        _fumble(ctx, foe, weapon, natural)
        attack_hits = True
    elif total <= strike:
        result.outcome = f"{total}: only the strike hits"
        attack_hits = True
    elif total < one_and_a_half(strike):
        result.outcome = f"{total}: both hit"
        attack_hits = counter_hits = True
    else:
        result.outcome = f"{total}: only the counter hits"
        counter_hits = True
    ctx.say(f"{foe.name}'s counterstrike {total} against {me.name}'s strike {strike}: "
            f"{result.outcome.split(': ', 1)[1]}", fighter_id=foe.id, kind="resolve")
    if attack_hits:
        deal_damage(rules, ctx, me, foe, roll.data.get("weapon"), int(roll.data["strike_natural"]),
                    fierce=bool(roll.data.get("fierce")))
    if counter_hits:
        deal_damage(rules, ctx, foe, me, weapon, natural, fierce=False)
