"""roll-under rules pinned at their edge, for the sections of docs/rulesets/roll-under.md
that named no test: each fails if the rule were read the other way. Dice are typed in;
the fight is tests/engine/roll_under/fight.py's (Miguel, Attack 15, against a
Rent-A-Cop)."""

from __future__ import annotations

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.roll_under import commands as ru

from .fight import fight, start
from .test_rule_edges import wisdom_rows


def miguel_attacks(defense: int, face: int, hits: bool) -> Engine:
    """Miguel (Attack 15) attacks the Rent-A-Cop, whose Defense is set to ``defense``:
    the target is 15 - (defense - 10); the d20 shows ``face``, a hit's damage die 1 (a
    die typed in for a damage roll that does not come is refused)."""
    engine = fight()
    engine.encounter.fighters["rent-a-cop"].sheet.defense = defense
    start(engine, miguel=1, ana=20)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop", weapon=0)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    out = engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[face], [1]] if hits else [[face]]))
    assert out.ok, out.error
    return engine


def hit(engine: Engine) -> bool:
    return int(engine.encounter.fighters["rent-a-cop"].status.hp) < 8


@pytest.mark.parametrize(("defense", "face", "hits"), [
    (25, 1, False),   # target 0: even a natural 1 fails
    (24, 1, True),    # target 1: a natural 1 is at or under it
    (5, 20, True),    # target 20: even a natural 20 succeeds
    (6, 20, False),   # target 19: a natural 20 is over it
])
def test_a_natural_1_or_20_has_no_effect_of_its_own(defense: int, face: int,
                                                      hits: bool) -> None:
    """A d20 succeeds at or under its target; a target of 0 or less never succeeds, 20
    or more always does (docs/rulesets/roll-under.md#rolls)."""
    assert hit(miguel_attacks(defense, face, hits)) == hits


@pytest.mark.parametrize(("weapon_class", "sides"), [
    ("light", 6), ("medium-one-handed", 8), ("medium-two-handed", 10),
    ("medium-ranged", 8), ("rifle", 10), ("heavy", 12), (None, 6)])
def test_the_weapon_class_gives_the_damage_die_and_unarmed_is_a_d6(
        weapon_class: str | None, sides: int) -> None:
    """Each weapon class's die, one hand against two told apart, and a fighter
    without a weapon striking as a light weapon (docs/rulesets/roll-under.md#damage)."""
    engine = fight()
    if weapon_class is not None:
        engine.encounter.fighters["miguel"].sheet.weapons[0].weapon_class = weapon_class
    start(engine, miguel=1, ana=20)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop",
                                  weapon=0 if weapon_class else None)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[1], [1]])).ok
    damage = next(e.roll for e in engine.session.log[-1].events
                  if e.roll and e.roll.purpose.startswith("damage"))
    assert damage.sides == sides


@pytest.mark.parametrize(("penalties", "miguel"), [
    ({"enforcer": 2, "rent-a-cop": 3}, 9), ({"enforcer": 2, "rent-a-cop": 2}, 10),
    ({"enforcer": 2, "rent-a-cop": 1}, 10)])
def test_several_enemies_wisdom_penalties_take_the_largest_never_the_sum(
        penalties: dict[str, int], miguel: int) -> None:
    """The largest penalty among the enemies in the fight comes off the PCs' Wisdom
    (Miguel's 12: the sum would leave 7, 8 and 9) (docs/rulesets/roll-under.md#unusual-enemies)."""
    engine = fight()
    for fid, penalty in penalties.items():
        engine.encounter.fighters[fid].sheet.wisdom_penalty = penalty
    assert wisdom_rows(engine)["miguel"] == f"Miguel: Wisdom, {miguel} or less"
