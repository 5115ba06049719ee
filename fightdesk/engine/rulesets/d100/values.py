"""What the d100 rules read off a fighter: bonuses halved by serious wounds, the weapon in
hand, the armour still standing, actions left. No state changes here (the rules in
``rules.py`` and ``exchange.py`` make them)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...odds import DAMAGE_CHART, DamageChart
from ...tables import multiplier

if TYPE_CHECKING:
    from ...model import Encounter, Fighter

DAMAGE_TABLE = "damage-chart"
DEFENSES = ("parry", "dodge", "entangle")
UNARMED = "punches and kicks"
# docs/rulesets/d100.md#obstacles: what a strike around full cover
# adds to the defense roll.
AROUND_COVER = 20
FIERCE_PENALTY = 20
SIMULTANEOUS_PENALTY = 20


def seriously_wounded(fighter: Fighter) -> bool:
    """docs/rulesets/d100.md#serious-wounds: marked so by the rules (the round it
    happened is kept) and still in the fight."""
    return fighter.status.wounded_round is not None and int(fighter.status.hp) > 0


def below_the_line(enc: Encounter, fighter: Fighter) -> bool:
    """1/5 of the health when unhurt (at least 1) or less, and still above 0."""
    hp = int(fighter.status.hp)
    return 0 < hp <= max(1, health_max(fighter, enc.options.alternative_hp) // 5)


def health_max(fighter: Fighter, alternative: bool) -> int:
    """The health when unhurt: max HP, or Build under the alternative hit point rules
    (docs/rulesets/d100.md#alternative-hit-points)."""
    return int(fighter.sheet.build) if alternative else int(fighter.sheet.max_hp)


# docs/rulesets/d100.md#alternative-hit-points: the share of the damage that is critical.
CRITICAL_SHARE = {"physical": Fraction(1, 2), "energy": Fraction(1, 4), "mind": Fraction(1)}


def a_defense(name: str) -> str:
    """A defense's name with its article, for the odds: "a parry", "an entangle"."""
    return f"an {name}" if name[:1] in "aeiou" else f"a {name}"


def attack_kind(fighter: Fighter, index: int | list[int] | None) -> str:
    first = index[0] if isinstance(index, list) and index else index
    held = weapon(fighter, first) if isinstance(first, int) else None
    return held.attack if held is not None else "physical"


def value(fighter: Fighter, name: str) -> int:
    """A sheet value as the rules use it now: halved, rounded down, while seriously
    wounded (docs/rulesets/d100.md#serious-wounds)."""
    raw = int(getattr(fighter.sheet, name))
    now = raw // 2 if seriously_wounded(fighter) else raw
    if name in DEFENSES:
        now -= int(fighter.status.defense_penalty)
    return now


Weapons = int | None | list[int]


def weapon(fighter: Fighter, index: int | None) -> Any:
    """The weapon at ``index`` if the fighter holds it (not dropped) and can use it (hit
    points left); None means punches and kicks."""
    weapons = fighter.sheet.weapons
    if index is None or not 0 <= index < len(weapons) or index in fighter.status.dropped:
        return None
    if weapon_hp(fighter, index) <= 0 or destroyed(fighter, index):
        return None  # unusable: it neither strikes nor parries (#weapon-destruction)
    return weapons[index]


def weapon_hp(fighter: Fighter, index: int) -> int:
    """docs/rulesets/d100.md#weapon-destruction: the weapon's hit points now."""
    now = fighter.status.weapon_hp
    if index < len(now):
        return int(now[index])
    return int(fighter.sheet.weapons[index].hp)


def weapon_harm(fighter: Fighter, index: int) -> int:
    harm = fighter.status.weapon_harm
    return int(harm[index]) if index < len(harm) else 0


def destroyed(fighter: Fighter, index: int) -> bool:
    """Dealt twice its damage in all: beyond repair."""
    damage = int(fighter.sheet.weapons[index].damage)
    return damage > 0 and weapon_harm(fighter, index) >= 2 * damage


def unusable(fighter: Fighter, index: int) -> str:
    """Why a weapon of the sheet cannot strike now ("" if it can)."""
    held = fighter.sheet.weapons[index]
    if index in fighter.status.dropped:
        return f"{fighter.name}'s {held.name} is on the floor: pick it up first"
    if destroyed(fighter, index):
        return f"{fighter.name}'s {held.name} is destroyed"
    if weapon_hp(fighter, index) <= 0:
        return f"{fighter.name}'s {held.name} is broken (0 HP): unusable until repaired"
    return ""


def weapon_name(fighter: Fighter, index: Weapons) -> str:
    if isinstance(index, list):
        return " and ".join(weapon_name(fighter, i) for i in index)
    held = weapon(fighter, index)
    return held.name if held is not None else UNARMED


def armed(fighter: Fighter, index: int | None) -> bool:
    """A weapon that can be dropped: anything but punches, kicks and unarmed 'weapons'."""
    held = weapon(fighter, index)
    return held is not None and held.kind != "unarmed"


def every_weapon(fighter: Fighter) -> list[int]:
    """docs/rulesets/d100.md#multiple-weapons: the weapons in hand a simultaneous strike
    uses (two or more, or none)."""
    held = [i for i in held_weapons(fighter) if fighter.sheet.weapons[i].kind != "unarmed"]
    return held if len(held) >= 2 else []


def weapon_damage(fighter: Fighter, index: Weapons, fierce: bool = False,
                  enc: Encounter | None = None) -> int:
    """docs/rulesets/d100.md#damage: the weapon's damage (a punch or kick does 1), +1 for
    a Fierce strike; with the option for weaker weapons, no more than its hit points now
    (docs/rulesets/d100.md#weapon-destruction). Several weapons at once: their damage
    summed (docs/rulesets/d100.md#multiple-weapons)."""
    if isinstance(index, list):
        return sum(weapon_damage(fighter, i, False, enc) for i in index) + (1 if fierce else 0)
    held = weapon(fighter, index)
    damage = int(held.damage) if held is not None else 1
    if held is not None and index is not None and enc is not None and enc.options.weaker_weapons:
        damage = min(damage, weapon_hp(fighter, index))
    return damage + (1 if fierce else 0)


def may_be_fierce(enc: Encounter, fighter: Fighter, index: int | None) -> str:
    """Why this strike may not be Fierce ("" if it may): punches and kicks, or melee
    weapons when the GM's option allows (docs/rulesets/d100.md#fierce-strikes)."""
    held = weapon(fighter, index)
    if held is None or held.kind == "unarmed":
        return ""
    if held.kind == "melee" and enc.options.fierce_with_weapons:
        return ""
    if held.kind == "melee":
        return "Fierce strikes are for punches and kicks (the options may allow melee weapons)"
    return f"no Fierce strike with a {held.kind} weapon"


def held_weapons(fighter: Fighter) -> list[int]:
    return [i for i in range(len(fighter.sheet.weapons)) if weapon(fighter, i) is not None]


def armour_of(fighter: Fighter) -> Any:
    """The suit of armour on the sheet, or None."""
    return fighter.sheet.armour[0] if fighter.sheet.armour else None


def armour_left(fighter: Fighter) -> int:
    """The armour's hit points now (0 with no armour)."""
    armour = armour_of(fighter)
    if armour is None:
        return 0
    now = fighter.status.armour_hp
    return int(armour.hp) if now is None else int(now)


def armour_range(fighter: Fighter) -> tuple[int, int] | None:
    """docs/rulesets/d100.md#armour: the natural rolls the armour stops, while it has hit
    points left (at 0 it counts as no armour)."""
    armour = armour_of(fighter)
    if armour is None or armour_left(fighter) <= 0:
        return None
    return int(armour.low), int(armour.high)


def around_cover(fighter: Fighter) -> int:
    """docs/rulesets/d100.md#obstacles: what full cover adds to every defense roll of the
    one behind it (a dodge, parry, entangle or counterstrike)."""
    return AROUND_COVER if fighter.status.cover == "full" else 0


def cover_range(enc: Encounter, fighter: Fighter) -> tuple[int, int] | None:
    """docs/rulesets/d100.md#obstacles: partial cover stops a range like armour."""
    if fighter.status.cover != "partial":
        return None
    return int(enc.options.partial_cover_low), int(enc.options.partial_cover_high)


def chart(enc: Encounter) -> DamageChart:
    """The fight's damage chart (an editable roll table), as multipliers by natural roll;
    the text's chart when the fight has none."""
    table = enc.tables.get(DAMAGE_TABLE)
    if table is None:
        return DAMAGE_CHART
    rows = []
    for row in table.rows:
        times = multiplier(row.effect)
        rows.append((row.low, row.high, times if times is not None else Fraction(1)))
    return tuple(rows)


def entangled_by(fighter: Fighter) -> str | None:
    """Who holds this fighter entangled (docs/rulesets/d100.md#entangle)."""
    for cond in fighter.status.conditions:
        if cond.name == "Entangled" and cond.imposed_by:
            return str(cond.imposed_by)
    return None


def can_borrow(fighter: Fighter) -> bool:
    """docs/rulesets/d100.md#actions: one borrowed action at a time; never while
    seriously wounded."""
    return not fighter.status.owes and not seriously_wounded(fighter)


def action_word(fighter: Fighter) -> str:
    """What using an action now costs: "" (none left, none to borrow), "action", or
    "borrow"."""
    if int(fighter.status.actions) > 0:
        return "action"
    return "borrow" if can_borrow(fighter) else ""
