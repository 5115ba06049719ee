"""Each rule read the other way at its edge (who rolls, which penalty counts, which side an
assist is on) fails one of these tests: they kill the rule-level mutants of
tools/mutants/roll_under.toml (docs/testing.md "Rule-level mutants"). Dice are typed in;
every expected value is worked out by hand from the section of
docs/rulesets/roll-under.md the docstring names."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.roll_under import commands as ru
from fightdesk.engine.turns import current_fighter

from .fight import begin, fight, start


def go_to(engine: Engine, fid: str) -> None:
    for _ in range(12):
        if current_fighter(engine.encounter.state.turns) == fid:
            return
        out = engine.apply(c.NextStep())
        assert out.ok, out.error
    raise AssertionError(f"{fid} never got a turn")


def with_ally(**sheet: int) -> Engine:
    """The test fight with Ana an ally (an NPC on the party's side), not a PC."""
    engine = fight()
    ana = engine.encounter.fighters["ana"]
    ana.side = "ally"
    for key, value in sheet.items():
        setattr(ana.sheet, key, value)
    return engine


def wisdom_rows(engine: Engine) -> dict[str, str]:
    """Each row's "Name: Wisdom, N or less" (any odds shown after it left out)."""
    assert begin(engine).ok
    pending = engine.pending()
    assert pending is not None
    return {row.name: row.label.split(" (")[0] for row in pending.fields}


def test_an_enemy_attacking_an_ally_rolls_attack_itself() -> None:
    """Only the players roll: an enemy attacking an ally (the GM's NPC) makes its own
    Attack roll, 12 - (13 - 10) = 9 or less
    (docs/rulesets/roll-under.md#player-facing-rolls)."""
    engine = with_ally()
    start(engine, miguel=20, ana=20)
    go_to(engine, "rent-a-cop")
    assert engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="ana")).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "rent-a-cop" and not roll.by_player
    assert roll.label == "Rent-A-Cop rolls Attack against Ana, 9 or less"


def test_a_pc_attacking_a_pc_rolls_attack() -> None:
    """PC against PC is the attacker's Attack roll, 15 - (13 - 10) = 12 or less, not the
    other PC's Defense (docs/rulesets/roll-under.md#player-facing-rolls)."""
    engine = fight()
    start(engine, miguel=1, ana=20)
    go_to(engine, "miguel")
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="ana")).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "miguel"
    assert roll.label == "Miguel rolls Attack against Ana, 12 or less"


def test_an_enemy_out_of_the_fight_imposes_no_wisdom_penalty() -> None:
    """The largest penalty among the enemies still in the fight: the Enforcer's -2 is
    gone once it has taken lethal damage (docs/rulesets/roll-under.md#unusual-enemies)."""
    engine = fight()
    assert wisdom_rows(engine)["miguel"] == "Miguel: Wisdom, 10 or less"
    engine = fight()
    engine.encounter.fighters["enforcer"].status.lethal = 1
    assert wisdom_rows(engine)["miguel"] == "Miguel: Wisdom, 12 or less"


def test_an_allys_penalty_does_not_come_off_the_pcs_wisdom() -> None:
    """Only enemies impose a Wisdom penalty on the PCs
    (docs/rulesets/roll-under.md#unusual-enemies)."""
    engine = with_ally(wisdom_penalty=3)
    engine.encounter.fighters["enforcer"].status.lethal = 1
    assert wisdom_rows(engine)["miguel"] == "Miguel: Wisdom, 12 or less"


def test_an_ally_rolls_wisdom_and_may_act_before_the_enemies() -> None:
    """Allies roll Wisdom like PCs: Ana (Wisdom 14, -2 for the Enforcer) at 12 acts before
    the enemies (docs/rulesets/roll-under.md#initiative)."""
    engine = with_ally()
    rows = wisdom_rows(engine)
    assert rows["ana"] == "Ana: Wisdom, 12 or less"
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 20, "ana": 12})).ok
    before = engine.encounter.state.turns.sections[0]
    assert before.id == "before" and [s.fighter_id for s in before.slots] == ["ana"]


def test_an_allys_assist_raises_a_pcs_target() -> None:
    """An ally is on the PCs' side: their assist raises Miguel's Attack target, 13 -> 14
    (docs/rulesets/roll-under.md#assists)."""
    engine = with_ally()
    start(engine, miguel=1, ana=20)
    go_to(engine, "miguel")
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop")).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == 13
    assert engine.apply(c.Contribute(roll_id=roll.id, fighter_id="ana", contribution="assist",
                                     amount=1)).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == 14


def test_tripping_is_a_dexterity_roll_and_shoving_a_strength_roll() -> None:
    """Shoving and grappling roll Strength, tripping and disarming Dexterity, less the
    opponent's (Attack - 10): Miguel (Strength 13, Dexterity 12) against the Rent-A-Cop
    (Attack 12) (docs/rulesets/roll-under.md#combat-maneuvers)."""
    engine = fight()
    start(engine, miguel=1, ana=20)
    go_to(engine, "miguel")
    assert engine.apply(ru.CombatManeuver(fighter_id="miguel", target_id="rent-a-cop",
                                          maneuver="trip")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert roll.label == "Miguel rolls Dexterity to trip Rent-A-Cop, 10 or less"
    engine = fight()
    start(engine, miguel=1, ana=20)
    go_to(engine, "miguel")
    assert engine.apply(ru.CombatManeuver(fighter_id="miguel", target_id="rent-a-cop",
                                          maneuver="shove")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert roll.label == "Miguel rolls Strength to shove Rent-A-Cop, 11 or less"
