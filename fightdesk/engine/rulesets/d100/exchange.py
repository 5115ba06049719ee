"""The d100 exchange: a strike roll, then the defender's parry, dodge or entangle (or the
counterstrike declared before the strike), then damage by the chart
(docs/rulesets/d100.md#the-exchange).

Each roll waits on the roll panel as a pending roll: the strike for the defender to
declare a counterstrike, the defense for the defender to choose how to defend, with the
exact odds of each choice. The whole exchange is one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...base import Condition
from ...odds import (
    FUMBLE_TOP,
    chart_multiplier,
    d100_beats_total,
    d100_counterstrike,
    d100_hit_damage,
    d100_strike_odds,
    one_and_a_half,
)
from ...pending_roll import Contribution, PendingRoll
from ...ruleset import ContributionOption, Odds
from . import values as v

if TYPE_CHECKING:
    from ...dice import Roll
    from ...model import Fighter
    from ...ruleset import Context
    from .rules import D100

STATUS = "status"
TAKE = "none"


def path(fid: str) -> tuple[str, ...]:
    return ("fighters", fid, STATUS)


# --- actions ---------------------------------------------------------------------------------


def use_action(ctx: Context, fighter: Fighter, what: str) -> dict[str, int]:
    """docs/rulesets/d100.md#actions: spend this round's action, or borrow next round's
    (one at a time); what was paid, so it can be given back."""
    if int(fighter.status.actions) > 0:
        ctx.set(path(fighter.id), "actions", int(fighter.status.actions) - 1)
        return {"action": 1}
    if not v.can_borrow(fighter):
        why = ("seriously wounded fighters cannot borrow" if v.seriously_wounded(fighter)
               else "next round's action is already borrowed")
        ctx.fail(f"{fighter.name} has no action left for {what} ({why})")
    ctx.set(path(fighter.id), "owes", True)
    ctx.say(f"{fighter.name} borrows next round's action for {what}", fighter_id=fighter.id,
            kind="note")
    return {"borrowed": 1}


def give_back(ctx: Context, fighter: Fighter, paid: dict[str, int]) -> None:
    if paid.get("action"):
        ctx.set(path(fighter.id), "actions", int(fighter.status.actions) + 1)
    if paid.get("borrowed"):
        ctx.set(path(fighter.id), "owes", False)


# --- the strike ------------------------------------------------------------------------------


def open_strike(rules: D100, ctx: Context, me: Fighter, foe: Fighter, weapon: v.Weapons,
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


def counter_options(rules: D100, ctx_enc: Any, roll: PendingRoll) -> list[ContributionOption]:
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
    index = None if kind == "counter" else _index(ctx, kind.removeprefix("counter-"))
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


def _index(ctx: Context, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        ctx.fail(f"no weapon {text!r}")


def counter_weapon(contribution: Contribution) -> int | None:
    return None if contribution.kind == "counter" else int(contribution.kind.removeprefix("counter-"))


def strike_odds(rules: D100, enc: Any, roll: PendingRoll) -> tuple[Odds, ...]:
    """Before the strike roll: with a counterstrike declared, who connects; otherwise the
    chance the strike hits against each defense the defender may choose."""
    foe = enc.fighters.get(str(roll.data.get("target")))
    if foe is None:
        return ()
    if roll.contributions:
        met = d100_counterstrike(roll.total, v.value(foe, "counterstrike"))
        return (Odds("only the strike hits", met.only_attack), Odds("both hit", met.both),
                Odds("only the counter hits", met.only_counter), Odds("neither", met.neither))
    around = v.AROUND_COVER if foe.status.cover == "full" else 0
    out = [Odds("natural 01-10, fails", d100_strike_odds(roll.total, 0).fumbled)]
    riposte = int(roll.data.get("riposte") or 0)
    if riposte:
        got = d100_strike_odds(roll.total, v.value(foe, "dodge") + around - riposte)
        return (*out, Odds(f"hits against a dodge -{riposte}", got.hit))
    for name in v.DEFENSES:
        got = d100_strike_odds(roll.total, v.value(foe, name) + around)
        out.append(Odds(f"hits against a {name}", got.hit))
    return tuple(out)


def resolve_strike(rules: D100, ctx: Context, roll: PendingRoll, result: Roll) -> None:
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
        bonus = v.value(foe, "counterstrike")
        label = f"{foe.name} rolls Counterstrike against {me.name}'s strike of {total}"
        rules.open_roll(ctx, PendingRoll(
            id=0, label=label, roller_id=foe.id, by_player=foe.side == "pc", sides=100,
            measure="counterstrike bonus", base=bonus,
            data={**common, "kind": "counter", "counter_weapon": counter_weapon(counter)}))
        ctx.summary = f"{me.name} strikes {foe.name}: {total}; {foe.name} counterstrikes"
        return
    around = v.AROUND_COVER if foe.status.cover == "full" else 0
    riposte = int(data.get("riposte") or 0)
    label = f"{foe.name} rolls Defense against {me.name}'s strike of {total}"
    if riposte:
        label = f"{foe.name} rolls Dodge against {me.name}'s strike of {total} (-{riposte})"
    rules.open_roll(ctx, PendingRoll(
        id=0, label=label, roller_id=foe.id, by_player=foe.side == "pc", sides=100,
        measure="defense bonus", base=around - riposte,
        data={**common, "kind": "defense", "dodge_only": bool(riposte)}))
    ctx.summary = f"{me.name} strikes {foe.name}: {total}; {foe.name} chooses a defense"


def _counter_on_a_failed_strike(rules: D100, ctx: Context, me: Fighter, foe: Fighter,
                                strike_total: int, counter: Contribution) -> None:
    """docs/rulesets/d100.md#counterstrike: against a natural 01-10 the attack never hits;
    the counter hits if its total beats the strike's."""
    weapon = counter_weapon(counter)
    bonus = v.value(foe, "counterstrike")
    record = ctx.roll(1, 100, who=foe.name, purpose=f"Counterstrike against {me.name}",
                      fighter_id=foe.id)
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


# --- the defense -----------------------------------------------------------------------------

# The defenses beyond the three plain ones: the bonus each rolls with.
BOTH = ("parry+strike", "entangle+strike")
SHOOT_DOWN = "shoot-down"


def defense_kind(kind: str) -> str:
    """The bonus a defense choice rolls with: parry (also with a weapon, with a strike
    after it, or shooting a projectile down), dodge or entangle."""
    if kind == SHOOT_DOWN:
        return "parry"
    return kind.split("-", 1)[0].split("+", 1)[0]


def parrying_weapons(fighter: Fighter) -> list[int]:
    """Melee weapons in hand: a parry with one risks it (docs/rulesets/d100.md#weapon-destruction)."""
    return [i for i in v.held_weapons(fighter) if fighter.sheet.weapons[i].kind == "melee"]


def striking_back_with(fighter: Fighter) -> int | None:
    """docs/rulesets/d100.md#multiple-weapons: with two weapons or more in hand, the one
    that strikes while the other parries or entangles (the one doing the most damage)."""
    held = [i for i in v.held_weapons(fighter) if fighter.sheet.weapons[i].kind != "unarmed"]
    if len(held) < 2:
        return None
    return max(held, key=lambda i: (int(fighter.sheet.weapons[i].damage), -i))


def can_shoot_down(enc: Any, roll: PendingRoll, foe: Fighter) -> bool:
    """docs/rulesets/d100.md#projectile-parry: a projectile (never a bullet) shot down
    with a projectile weapon in hand."""
    attacker = enc.fighters.get(str(roll.data.get("actor")))
    weapon = roll.data.get("weapon")
    if attacker is None or not isinstance(weapon, int):
        return False
    held = v.weapon(attacker, weapon)
    if held is None or held.kind != "projectile":
        return False
    return any(foe.sheet.weapons[i].kind == "projectile" for i in v.held_weapons(foe))


def choices(enc: Any, roll: PendingRoll, foe: Fighter) -> list[tuple[str, str]]:
    """Every defense the defender may choose now: (kind, label)."""
    if roll.data.get("dodge_only"):
        return [("dodge", f"dodge {v.value(foe, 'dodge') + roll.base:+d}")]
    out = []
    for name in v.DEFENSES:
        bonus = v.value(foe, name)
        out.append((name, f"{name} {bonus:+d}"))
        if name == "parry":
            for index in parrying_weapons(foe):
                out.append((f"parry-{index}",
                            f"parry {bonus:+d} with the {foe.sheet.weapons[index].name}"))
    if can_shoot_down(enc, roll, foe):
        out.append((SHOOT_DOWN, f"shoot it down {v.value(foe, 'parry'):+d}"))
    back = striking_back_with(foe)
    if back is not None and v.action_word(foe) and not v.entangled_by(foe):
        weapon = foe.sheet.weapons[back].name
        for kind in BOTH:
            name = defense_kind(kind)
            out.append((kind, f"{name} {v.value(foe, name):+d} and strike with the {weapon} "
                              "(uses the action)"))
    return out


def defense_options(rules: D100, enc: Any, roll: PendingRoll) -> list[ContributionOption]:
    """The defender's choices, free and unlimited except a strike with the other weapon
    (docs/rulesets/d100.md#defense); choosing another replaces the one chosen."""
    foe = enc.fighters.get(str(roll.data.get("target")))
    if foe is None:
        return []
    chosen = {c.kind for c in roll.contributions}
    out = [ContributionOption(foe.id, foe.name, kind, label, 0, 0, 0,
                              "action" if kind in BOTH else "")
           for kind, label in choices(enc, roll, foe) if kind not in chosen]
    if TAKE not in chosen:
        out.append(ContributionOption(foe.id, foe.name, TAKE, "no defense (take the strike)",
                                      0, 0, 0, ""))
    return out


def pay_defense(ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str) -> Contribution:
    enc = ctx.enc
    target = str(roll.data.get("target"))
    if fighter_id != target:
        ctx.fail("only the one struck chooses the defense")
    foe = enc.fighters[target]
    offered = dict(choices(enc, roll, foe))
    if kind != TAKE and kind not in offered:
        ctx.fail(f"{foe.name} cannot {kind} now" if kind in (*v.DEFENSES, *BOTH, SHOOT_DOWN)
                 or kind.startswith("parry-") else
                 f"no defense {kind!r}: parry, dodge, entangle or none")
    for old in roll.contributions:
        # One defense per roll: the new choice replaces the old (an action comes back).
        give_back(ctx, foe, old.paid)
        foe = ctx.enc.fighters[target]
    if roll.contributions:
        ctx.set(("state", "roll"), "contributions", [])
    if kind == TAKE:
        return Contribution(id=0, fighter_id=foe.id, kind=TAKE, label="no defense", amount=0)
    paid: dict[str, int] = {}
    cost = ""
    if kind in BOTH:
        paid = use_action(ctx, foe, "a strike with the other weapon")
        ctx.say(f"{foe.name} will strike back with the other weapon", fighter_id=foe.id,
                kind="interrupt", maneuver=kind)
        cost = "action" if paid.get("action") else "next round's action (borrowed)"
    bonus = v.value(ctx.enc.fighters[target], defense_kind(kind))
    label = offered[kind].rsplit(" (", 1)[0]
    label = label.replace(f" {bonus:+d}", "", 1)
    return Contribution(id=0, fighter_id=foe.id, kind=kind, label=label, amount=bonus,
                        cost=cost, paid=paid)


def defense_odds(rules: D100, enc: Any, roll: PendingRoll) -> tuple[Odds, ...]:
    """The exact chance each defense beats the strike total, before the roll."""
    foe = enc.fighters.get(str(roll.data.get("target")))
    if foe is None:
        return ()
    strike = int(roll.data["strike_total"])
    chosen = roll.contributions[0].kind if roll.contributions else None
    names = ["dodge"] if roll.data.get("dodge_only") else list(v.DEFENSES)
    if not roll.data.get("dodge_only") and can_shoot_down(enc, roll, foe):
        names.append(SHOOT_DOWN)
    out = []
    for name in names:
        bonus = v.value(foe, defense_kind(name)) + roll.base
        mine = chosen is not None and (chosen == name or (
            name != SHOOT_DOWN and chosen != SHOOT_DOWN and defense_kind(chosen) == name))
        mark = " (chosen)" if mine else ""
        words = "shoot it down" if name == SHOOT_DOWN else name
        out.append(Odds(f"{words} {bonus:+d} beats {strike}{mark}",
                        d100_beats_total(bonus, strike)))
    return tuple(out)


def chosen_defense(roll: PendingRoll) -> str | None:
    return roll.contributions[0].kind if roll.contributions else None


def take_the_strike(rules: D100, ctx: Context, roll: PendingRoll) -> None:
    """No defense: nothing to roll, the strike hits."""
    ctx.set(("state",), "roll", None)
    enc = ctx.enc
    me = enc.fighters.get(str(roll.data["actor"]))
    foe = enc.fighters.get(str(roll.data["target"]))
    if me is None or foe is None:
        return
    ctx.say(f"{foe.name} does not defend: {me.name}'s strike hits", fighter_id=me.id,
            kind="resolve")
    deal_damage(rules, ctx, me, foe, roll.data.get("weapon"), int(roll.data["strike_natural"]),
                fierce=bool(roll.data.get("fierce")))


def resolve_defense(rules: D100, ctx: Context, roll: PendingRoll, result: Roll) -> None:
    """docs/rulesets/d100.md#defense: the defense total must beat the strike total; ties
    go to the attacker. A successful entangle holds the attacker; a shot-down projectile
    is gone; a parry or entangle with a strike after it opens that strike."""
    enc = ctx.enc
    me = enc.fighters.get(str(roll.data["actor"]))
    foe = enc.fighters.get(str(roll.data["target"]))
    if me is None or foe is None:
        return
    chosen = chosen_defense(roll) or "defense"
    kind = "shooting it down" if chosen == SHOOT_DOWN else defense_kind(chosen)
    strike = int(roll.data["strike_total"])
    total = result.faces[0] + roll.total
    held = total > strike
    if held:
        result.outcome = f"{kind} {total} beats {strike}"
        ctx.summary = f"{foe.name}'s {kind} beats {me.name}'s strike ({total} to {strike})"
        ctx.say(ctx.summary, fighter_id=foe.id, kind="resolve")
        if kind == "entangle":
            from ... import conditions

            conditions.add(ctx, me.id, Condition(name="Entangled", duration="until-removed",
                                                 imposed_by=foe.id))
            ctx.summary = f"{foe.name} entangles {me.name} ({total} to {strike})"
        if chosen == SHOOT_DOWN:
            ctx.summary = f"{foe.name} shoots {me.name}'s projectile down: both are destroyed"
            ctx.say(ctx.summary, fighter_id=foe.id, kind="note")
    else:
        result.outcome = f"{kind} {total} does not beat {strike}"
        ctx.say(f"{me.name}'s strike beats {foe.name}'s {kind} ({strike} to {total})",
                fighter_id=me.id, kind="resolve")
        if chosen.startswith("parry-"):
            ask_weapon_or_defender(rules, ctx, me, foe, int(chosen.removeprefix("parry-")), roll)
            return
        deal_damage(rules, ctx, me, foe, roll.data.get("weapon"),
                    int(roll.data["strike_natural"]), fierce=bool(roll.data.get("fierce")))
    if chosen in BOTH:
        strike_back(rules, ctx, foe.id, me.id, held)


def strike_back(rules: D100, ctx: Context, fid: str, at: str, held: bool) -> None:
    """docs/rulesets/d100.md#multiple-weapons: the other weapon's strike, which the
    opponent can only dodge, at -50 after a successful parry or entangle, else -20."""
    enc = ctx.enc
    me, foe = enc.fighters.get(fid), enc.fighters.get(at)
    if me is None or foe is None or rules.is_out(me) or rules.is_out(foe):
        return
    weapon = striking_back_with(me)
    if weapon is None:
        return
    penalty = 50 if held else 20
    label = (f"{me.name} rolls Strike against {foe.name} ({v.weapon_name(me, weapon)}; "
             f"-{penalty} to the dodge)")
    rules.open_roll(ctx, PendingRoll(
        id=0, label=label, roller_id=me.id, by_player=me.side == "pc", sides=100,
        measure="strike bonus", base=v.value(me, "strike"),
        data={"kind": "strike", "actor": me.id, "target": foe.id, "weapon": weapon,
              "fierce": False, "riposte": penalty}))


# --- a failed parry with a weapon ------------------------------------------------------------


def ask_weapon_or_defender(rules: D100, ctx: Context, me: Fighter, foe: Fighter, index: int,
                           roll: PendingRoll) -> None:
    """docs/rulesets/d100.md#weapon-destruction: after a failed parry with a weapon the
    attacker chooses: damage the weapon or the defender."""
    from ...base import Choice, Decision

    enc = ctx.enc
    natural = int(roll.data["strike_natural"])
    fierce = bool(roll.data.get("fierce"))
    base = v.weapon_damage(me, roll.data.get("weapon"), fierce, enc)
    to_weapon = int(base * chart_multiplier(v.chart(enc), natural))
    to_defender, on_armour = d100_hit_damage(
        base, natural, toughness=v.value(foe, "toughness"), armour=v.armour_range(foe),
        chart=v.chart(enc))
    cover = v.cover_range(enc, foe)
    if on_armour or (cover is not None and cover[0] <= natural <= cover[1]):
        to_defender = 0
    name = foe.sheet.weapons[index].name
    ctx.set(("state",), "hit", {"actor": me.id, "target": foe.id, "weapon": roll.data.get("weapon"),
                                "fierce": fierce, "natural": natural, "parry_weapon": index,
                                "to_weapon": to_weapon, "to_defender": to_defender})
    where = "the armour" if on_armour else f"{to_defender} health"
    ctx.set(("state",), "pending", Decision(
        id=f"parry-{roll.id}", fighter_id=me.id,
        prompt=f"{me.name}'s strike beat {foe.name}'s parry: strike the {name} or {foe.name}?",
        choices=[Choice(id="weapon", label=f"the {name} ({to_weapon} damage, "
                        f"{v.weapon_hp(foe, index)} HP left)"),
                 Choice(id="defender", label=f"{foe.name} ({where})")],
        asks=f"{me.name}'s player" if me.side == "pc" else "the GM"))
    ctx.summary = f"{me.name}'s strike beats {foe.name}'s parry: the weapon or {foe.name}?"


def answer_hit(rules: D100, ctx: Context, choice: str | None, by: str) -> None:
    enc = ctx.enc
    hit = enc.state.hit
    if choice not in ("weapon", "defender") or hit is None:
        ctx.fail("choose the weapon or the defender")
    ctx.set(("state",), "pending", None)
    ctx.set(("state",), "hit", None)
    me = enc.fighters.get(str(hit["actor"]))
    foe = enc.fighters.get(str(hit["target"]))
    if me is None or foe is None:
        return
    if choice == "defender":
        deal_damage(rules, ctx, me, foe, hit.get("weapon"), int(hit["natural"]),
                    fierce=bool(hit.get("fierce")))
        return
    damage_weapon(ctx, foe, int(hit["parry_weapon"]), int(hit["to_weapon"]), me)


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

    decisive = one_and_a_half(strike)
    only_counter = between(decisive, 10**6)
    both = between(strike + 1, decisive - 1)
    only_attack = 100 - only_counter - both
    return (Odds(f"only the strike hits ({strike} or less, or 01-10)", Fraction(only_attack, 100)),
            Odds(f"both hit ({strike + 1}-{decisive - 1})", Fraction(both, 100)),
            Odds(f"only the counter hits ({decisive} or more)", Fraction(only_counter, 100)))


def resolve_counter(rules: D100, ctx: Context, roll: PendingRoll, result: Roll) -> None:
    """docs/rulesets/d100.md#counterstrike: at or below the strike only the strike hits;
    above it but below 1.5 x the strike both hit; at or above 1.5 x only the counter."""
    enc = ctx.enc
    me = enc.fighters.get(str(roll.data["actor"]))
    foe = enc.fighters.get(str(roll.data["target"]))
    if me is None or foe is None:
        return
    strike = int(roll.data["strike_total"])
    natural = result.faces[0]
    total = natural + roll.total
    weapon = roll.data.get("counter_weapon")
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


# --- damage ----------------------------------------------------------------------------------


def deal_damage(rules: D100, ctx: Context, attacker: Fighter, target: Fighter,
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
    target = enc.fighters[target.id]
    if now <= 0 and hp > 0:
        ctx.say(f"{target.name} is out of the fight", fighter_id=target.id, kind="note")
        rules.release(ctx, target.id)
        if v.entangled_by(target):
            from ... import conditions

            conditions.remove(ctx, target.id, "Entangled")
    elif v.below_the_line(enc, target) and target.status.wounded_round is None:
        ctx.set(path(target.id), "wounded_round", enc.round)
        ctx.say(f"{target.name} is seriously wounded: values halved, an action only every "
                "second round", fighter_id=target.id, kind="note")
    return amount


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
