"""Roll-under rules a mutation run found that no test pinned: each test fails when its
rule is changed the way the surviving mutant changed it (docs/testing.md "Mutation
testing")."""

from __future__ import annotations

from fractions import Fraction

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.roll_under import commands as ru
from fightdesk.engine.turns import slots

from .fight import fight, start


def test_the_attacker_cannot_assist_against_the_defense_roll_of_their_own_attack() -> None:
    """The two fighters of the exchange cannot assist its roll, the attacker included
    (docs/rulesets/roll-under.md#assists)."""
    engine = fight()
    start(engine, miguel=20, ana=20)
    assert engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="miguel", weapon=0)).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "miguel"
    out = engine.apply(c.Contribute(roll_id=roll.id, fighter_id="rent-a-cop",
                                    contribution="assist", amount=1))
    assert out.error == "Rent-A-Cop is in this exchange: no self-assists"
    options = engine.ruleset.contribution_options(engine.encounter, roll)
    assert "rent-a-cop" not in [o.fighter_id for o in options]


def test_an_enemy_who_acts_twice_has_a_second_extra_turn() -> None:
    """An enemy with two turns a round has two lanes in the enemies' section, the second
    one an extra turn (docs/rulesets/roll-under.md#unusual-enemies)."""
    engine = fight()
    start(engine, miguel=20, ana=20)
    turns = [s for s in slots(engine.encounter.state.turns) if s.fighter_id == "enforcer"]
    assert [(s.id, s.extra) for s in turns] == [("enforcer", False), ("enforcer#2", True)]
    titles = [lane.title for lane in engine.ruleset.timeline(engine.encounter).lanes
              if lane.fighter_ids == ("enforcer",)]
    assert titles == ["Enforcer", "Enforcer (extra turn)"]


def test_a_rested_fighter_has_every_assist_back_but_keeps_lethal_damage() -> None:
    """A good night's rest gives every assist back; lethal damage and fatal wounds stay
    (docs/rulesets/roll-under.md#assists, docs/rulesets/roll-under.md#hit-points)."""
    engine = fight()
    values = engine.ruleset.rested_values(engine.encounter.fighters["miguel"].sheet)
    assert values["assists"] == 3 and values["hp"] == 12
    assert "lethal" not in values and "fatal_wounds" not in values


def test_an_initiative_roll_above_twenty_is_refused() -> None:
    """Initiative is a d20 roll of Wisdom: a typed roll is 1 to 20
    (docs/rulesets/roll-under.md#initiative)."""
    engine = fight()
    assert engine.apply(c.StartFight()).ok
    decision = engine.pending()
    assert decision is not None
    assert [(f.minimum, f.maximum) for f in decision.fields] == [(1, 20), (1, 20)]
    out = engine.apply(c.Answer(decision_id=decision.id, values={"miguel": 21, "ana": 3},
                                by="the players"))
    assert not out.ok and engine.pending() is not None


def test_the_preview_of_an_enemys_attack_on_a_pc_is_the_pcs_defense() -> None:
    """An enemy attacking a PC is answered by the PC's Defense roll: Defense 14 less
    (Attack 12 - 10) = 12 or less (docs/rulesets/roll-under.md#player-facing-rolls,
    docs/rulesets/roll-under.md#defense)."""
    engine = fight()
    preview = engine.ruleset.preview(engine.encounter, "act", "rent-a-cop",
                                     {"target": "miguel", "weapon": 0})
    assert preview.lines[0] == "Miguel rolls Defense, 12 or less (the enemy does not roll)"
    assert [(o.label, o.chance) for o in preview.odds] == [("Miguel defends", Fraction(12, 20))]


def test_the_preview_of_a_maneuver_names_the_roll_and_who_makes_it() -> None:
    """Shoving is a Strength roll less the opponent's (Attack - 10); against a PC the PC
    rolls to resist (docs/rulesets/roll-under.md#combat-maneuvers)."""
    # Miguel (Strength 13) shoves the Rent-A-Cop (Attack 12): 13 - 2 = 11. The cop (Attack
    # 12) shoves Miguel: Miguel resists on his Strength 13 - 2 = 11 as well.
    engine = fight()
    enc = engine.encounter
    mine = engine.ruleset.preview(enc, "maneuver", "miguel",
                                  {"target": "rent-a-cop", "maneuver": "shove"})
    assert mine.lines == ("Miguel rolls Strength, 11 or less; a failure gives Rent-A-Cop a hit",)
    assert [(o.label, o.chance) for o in mine.odds] == [("the shove works", Fraction(11, 20))]
    theirs = engine.ruleset.preview(enc, "maneuver", "rent-a-cop",
                                    {"target": "miguel", "maneuver": "shove"})
    assert theirs.lines == ("Miguel rolls Strength to resist, 11 or less",)
    assert [(o.label, o.chance) for o in theirs.odds] == [("Miguel resists", Fraction(11, 20))]


def test_the_preview_of_removing_a_fatal_wound_with_the_roll_option() -> None:
    """With the option on, removing a Fatal Wound is a Dexterity roll
    (docs/rulesets/roll-under.md#fatal-wounds)."""
    engine = fight()
    assert engine.apply(c.SetOption(option="fatal_wound_needs_roll", value=True)).ok
    preview = engine.ruleset.preview(engine.encounter, "remove-wound", "ana", {})
    assert preview.lines == ("Ana rolls Dexterity, 14 or less",)
    assert [(o.label, o.chance) for o in preview.odds] == [("removed", Fraction(14, 20))]


def test_holding_the_turn_is_previewed_and_a_new_round_waits_for_the_end_of_this_one() -> None:
    """A held turn acts right after the named fighter; a round in progress must end
    before the next starts (docs/rulesets/roll-under.md#initiative)."""
    engine = fight()
    start(engine, miguel=20, ana=20)
    preview = engine.ruleset.preview(engine.encounter, "hold-turn", "miguel", {"after": "ana"})
    assert preview.lines == ("Miguel waits and acts right after Ana's turn",)
    assert engine.apply(c.StartRound()).error == "finish this round first (End Round)"


def test_ending_round_one_in_the_surprise_step_ends_the_surprise_too() -> None:
    """End Round in the surprise step ends round 1 there; round 2 is an ordinary round
    that ends after its last turn, not a second surprise step that asks initiative again
    (docs/rulesets/roll-under.md#surprise). Found by reading a golden fight."""
    engine = fight()
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    assert engine.apply(c.StartFight()).ok
    assert engine.session.log[-1].summary == "Surprise! Rent-A-Cop acts first"
    assert engine.apply(c.EndRound()).ok
    assert not engine.encounter.state.surprise
    start(engine, miguel=1, ana=1)
    assert engine.encounter.round == 2
    assert engine.ruleset.where(engine.encounter) == "before the enemies, Miguel's turn"
    for _ in range(len(list(slots(engine.encounter.state.turns)))):
        assert engine.apply(c.NextStep()).ok
    assert engine.encounter.state.stage == "round-over" and engine.pending() is None


def test_several_ambushers_act_first_together() -> None:
    """The surprise step names every ambusher (docs/rulesets/roll-under.md#surprise)."""
    engine = fight()
    for fid in ("rent-a-cop", "mook-1"):
        assert engine.apply(ru.SetAmbusher(fighter_id=fid)).ok
    assert engine.apply(c.StartFight()).ok
    assert engine.session.log[-1].summary == "Surprise! Rent-A-Cop, Mook 1 act first"
