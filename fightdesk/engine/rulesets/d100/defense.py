"""The d100 defense: the defender's choice on the roll panel, with the exact odds of
each (parry, with a weapon or not, dodge, entangle, shooting a projectile down, or a
parry or entangle with a strike of the other weapon), its roll, and the attacker's
choice after a failed parry with a weapon (docs/rulesets/d100.md#defense)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import conditions
from ...base import Choice, Condition, Decision
from ...odds import chart_multiplier, d100_beats_total, d100_hit_damage
from ...pending_roll import Contribution, PendingRoll
from ...ruleset import ContributionOption, Odds
from . import values as v
from .damage import damage_weapon, deal_damage
from .exchange import give_back, use_action

if TYPE_CHECKING:
    from ...dice import Roll
    from ...model import Fighter
    from ...ruleset import Context
    from .damage import Rulebook

TAKE = "none"


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


def parrying_with(fighter: Fighter, kind: str) -> int | None:
    """The weapon a parry choice puts at risk: the one named (``parry-N``), or in a
    parry-and-strike the melee weapon in hand that does not strike back (None: an unarmed
    parry, nothing at risk)."""
    if kind.startswith("parry-"):
        return int(kind.removeprefix("parry-"))
    if kind != "parry+strike":
        return None
    back = striking_back_with(fighter)
    return next((i for i in parrying_weapons(fighter) if i != back), None)


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


def defense_options(rules: Rulebook, enc: Any, roll: PendingRoll) -> list[ContributionOption]:
    """The defender's choices, free and unlimited except a strike with the other weapon
    (docs/rulesets/d100.md#defense); choosing another replaces the one chosen."""
    foe = enc.fighters.get(str(roll.data.get("target")))
    if foe is None:
        return []
    chosen = {c.kind for c in roll.contributions}
    strike = int(roll.data["strike_total"])

    def chance(kind: str) -> str:  # the chance this defense beats the strike total
        bonus = v.value(foe, defense_kind(kind)) + roll.base
        return str(d100_beats_total(bonus, strike))

    out = [ContributionOption(foe.id, foe.name, kind, label, 0, 0, 0,
                              "action" if kind in BOTH else "", chance(kind))
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


def defense_odds(rules: Rulebook, enc: Any, roll: PendingRoll) -> tuple[Odds, ...]:
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


def take_the_strike(rules: Rulebook, ctx: Context, roll: PendingRoll) -> None:
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


def resolve_defense(rules: Rulebook, ctx: Context, roll: PendingRoll, result: Roll) -> None:
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
        at_risk = parrying_with(foe, chosen)
        if at_risk is not None:
            # docs/rulesets/d100.md#weapon-destruction: any failed parry with a weapon, a
            # parry-and-strike's too; the strike back follows the attacker's choice.
            ask_weapon_or_defender(rules, ctx, me, foe, at_risk, roll,
                                   then_strike_back=chosen in BOTH)
            return
        deal_damage(rules, ctx, me, foe, roll.data.get("weapon"),
                    int(roll.data["strike_natural"]), fierce=bool(roll.data.get("fierce")))
    if chosen in BOTH:
        strike_back(rules, ctx, foe.id, me.id, held)


def strike_back(rules: Rulebook, ctx: Context, fid: str, at: str, held: bool,
                weapon: int | None = None) -> None:
    """docs/rulesets/d100.md#multiple-weapons: the other weapon's strike, which the
    opponent can only dodge, at -50 after a successful parry or entangle, else -20."""
    enc = ctx.enc
    me, foe = enc.fighters.get(fid), enc.fighters.get(at)
    if me is None or foe is None or rules.is_out(me) or rules.is_out(foe):
        return
    if weapon is None or v.weapon(me, weapon) is None:
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


def ask_weapon_or_defender(rules: Rulebook, ctx: Context, me: Fighter, foe: Fighter, index: int,
                           roll: PendingRoll, *, then_strike_back: bool = False) -> None:
    """docs/rulesets/d100.md#weapon-destruction: after a failed parry with a weapon the
    attacker chooses: damage the weapon or the defender."""
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
                                "to_weapon": to_weapon, "to_defender": to_defender,
                                **({"strike_back": striking_back_with(foe)}
                                   if then_strike_back else {})})
    where = "the armour" if on_armour else f"{to_defender} health"
    ctx.set(("state",), "pending", Decision(
        id=f"parry-{roll.id}", fighter_id=me.id,
        prompt=f"{me.name}'s strike beat {foe.name}'s parry: strike the {name} or {foe.name}?",
        choices=[Choice(id="weapon", label=f"the {name} ({to_weapon} damage, "
                        f"{v.weapon_hp(foe, index)} HP left)"),
                 Choice(id="defender", label=f"{foe.name} ({where})")],
        asks=f"{me.name}'s player" if me.side == "pc" else "the GM"))
    ctx.summary = f"{me.name}'s strike beats {foe.name}'s parry: the weapon or {foe.name}?"


def answer_hit(rules: Rulebook, ctx: Context, choice: str | None, by: str) -> None:
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
    else:
        damage_weapon(ctx, foe, int(hit["parry_weapon"]), int(hit["to_weapon"]), me)
    if "strike_back" in hit:
        back = hit["strike_back"]
        strike_back(rules, ctx, foe.id, me.id, False, None if back is None else int(back))
