"""Roll-under rules a mutation run found that no test pinned: each test fails when its
rule is changed the way the surviving mutant changed it (docs/testing.md "Mutation
testing")."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.roll_under import commands as ru
from fightdesk.engine.rulesets.roll_under.model import RollUnderWeapon
from fightdesk.engine.turns import current_fighter, slots
from tests.hold_offered import hold_offered

from .fight import begin, fight, start


def turn_of(engine: Engine) -> str | None:
    return current_fighter(engine.encounter.state.turns)


def roll_id(engine: Engine) -> int:
    roll = engine.encounter.state.roll
    assert roll is not None
    return roll.id


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
    options = engine.ruleset.rules.contribution_options(engine.encounter, roll)
    assert "rent-a-cop" not in [o.fighter_id for o in options]


def test_an_enemy_who_acts_twice_has_a_second_extra_turn() -> None:
    """An enemy with two turns a round has two lanes in the enemies' section, the second
    one an extra turn (docs/rulesets/roll-under.md#unusual-enemies)."""
    engine = fight()
    start(engine, miguel=20, ana=20)
    turns = [s for s in slots(engine.encounter.state.turns) if s.fighter_id == "enforcer"]
    assert [(s.id, s.extra) for s in turns] == [("enforcer", False), ("enforcer#2", True)]
    titles = [lane.title for lane in engine.ruleset.views.timeline(engine.encounter).lanes
              if lane.fighter_ids == ("enforcer",)]
    assert titles == ["Enforcer", "Enforcer (extra turn)"]


def test_a_rested_fighter_has_every_assist_back_but_keeps_lethal_damage() -> None:
    """A good night's rest gives every assist back; lethal damage and fatal wounds stay
    (docs/rulesets/roll-under.md#assists, docs/rulesets/roll-under.md#hit-points)."""
    engine = fight()
    values = engine.ruleset.rules.rested_values(engine.encounter.fighters["miguel"].sheet)
    assert values["assists"] == 3 and values["hp"] == 12
    assert "lethal" not in values and "fatal_wounds" not in values


def test_an_initiative_roll_above_twenty_is_refused() -> None:
    """Initiative is a d20 roll of Wisdom: a typed roll is 1 to 20
    (docs/rulesets/roll-under.md#initiative)."""
    engine = fight()
    assert begin(engine).ok
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
    preview = engine.ruleset.views.preview(engine.encounter, "act", "rent-a-cop",
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
    mine = engine.ruleset.views.preview(enc, "maneuver", "miguel",
                                  {"target": "rent-a-cop", "maneuver": "shove"})
    assert mine.lines == ("Miguel rolls Strength, 11 or less; a failure gives Rent-A-Cop a hit",)
    assert [(o.label, o.chance) for o in mine.odds] == [("the shove works", Fraction(11, 20))]
    theirs = engine.ruleset.views.preview(enc, "maneuver", "rent-a-cop",
                                    {"target": "miguel", "maneuver": "shove"})
    assert theirs.lines == ("Miguel rolls Strength to resist, 11 or less",)
    assert [(o.label, o.chance) for o in theirs.odds] == [("Miguel resists", Fraction(11, 20))]


def test_the_preview_of_removing_a_fatal_wound_with_the_roll_option() -> None:
    """With the option on, removing a Fatal Wound is a Dexterity roll
    (docs/rulesets/roll-under.md#fatal-wounds)."""
    engine = fight()
    assert engine.apply(c.SetOption(option="fatal_wound_needs_roll", value=True)).ok
    preview = engine.ruleset.views.preview(engine.encounter, "remove-wound", "ana", {})
    assert preview.lines == ("Ana rolls Dexterity, 14 or less",)
    assert [(o.label, o.chance) for o in preview.odds] == [("removed", Fraction(14, 20))]


def test_holding_the_turn_is_previewed_and_a_new_round_waits_for_the_end_of_this_one() -> None:
    """A held turn acts right after the named fighter; a round in progress must end
    before the next starts (docs/rulesets/roll-under.md#initiative)."""
    engine = fight()
    start(engine, miguel=20, ana=20)
    assert turn_of(engine) == "rent-a-cop"
    preview = engine.ruleset.views.preview(engine.encounter, "hold-turn", "rent-a-cop", {"after": "ana"})
    assert preview.lines == ("Rent-A-Cop waits and acts right after Ana's turn",)
    assert engine.apply(c.StartRound()).error == "finish this round first (End Round)"


def test_ending_round_one_in_the_surprise_step_ends_the_surprise_too() -> None:
    """End Round in the surprise step ends round 1 there; round 2 is an ordinary round
    that ends after its last turn, not a second surprise step that asks initiative again
    (docs/rulesets/roll-under.md#surprise). Found by reading a golden fight."""
    engine = fight()
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    assert begin(engine).ok
    assert engine.session.log[-1].summary == "Surprise! Rent-A-Cop acts first"
    assert engine.apply(c.EndRound()).ok
    assert not engine.encounter.state.surprise
    start(engine, miguel=1, ana=1)
    assert engine.encounter.round == 2
    assert engine.ruleset.views.where(engine.encounter) == "before the enemies, Miguel's turn"
    for _ in range(len(list(slots(engine.encounter.state.turns)))):
        assert engine.apply(c.NextStep()).ok
    assert engine.encounter.state.stage == "round-over" and engine.pending() is None


def test_several_ambushers_act_first_together() -> None:
    """The surprise step names every ambusher (docs/rulesets/roll-under.md#surprise)."""
    engine = fight()
    for fid in ("rent-a-cop", "mook-1"):
        assert engine.apply(ru.SetAmbusher(fighter_id=fid)).ok
    assert begin(engine).ok
    assert engine.session.log[-1].summary == "Surprise! Rent-A-Cop, Mook 1 act first"


def test_each_refused_command_says_why() -> None:
    """A turn is one action on a foe, with a weapon the fighter has; the fight starts
    once; ambushers are chosen before it (docs/rulesets/roll-under.md#action-economy,
    docs/rulesets/roll-under.md#surprise, docs/rulesets/roll-under.md#fatal-wounds,
    docs/rulesets/roll-under.md#combat-maneuvers)."""
    engine = fight()
    start(engine, miguel=1, ana=1)
    refused: list[tuple[c.Command, str]] = [
        (c.StartFight(), "the fight has already started"),
        (c.Answer(decision_id="initiative-1-new", values={}), "no such question is waiting"),
        (ru.Attack(fighter_id="miguel", target_id="miguel"), "choose someone else to attack"),
        (ru.Attack(fighter_id="miguel", target_id="mook-1", weapon=1), "Miguel has no weapon 1"),
        (ru.Attack(fighter_id="miguel", target_id="mook-1", weapon=-1),
         "Miguel has no weapon -1"),
        (ru.CombatManeuver(fighter_id="miguel", target_id="miguel", maneuver="trip"),
         "choose someone else"),
        (ru.RemoveFatalWound(fighter_id="miguel", target_id="ana"), "Ana has no Fatal Wound"),
        (ru.PickUpWeapon(fighter_id="miguel"), "Miguel is not disarmed"),
        (ru.SetAmbusher(fighter_id="miguel"), "ambushers are chosen before the fight starts"),
    ]
    for command, error in refused:
        assert engine.apply(command).error == error, command
    assert engine.encounter.fighters["miguel"].status.action is None
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1", weapon=0)).ok


def test_the_fight_cannot_start_twice_even_before_a_round_is_counted() -> None:
    """Start Fight works in setup only: during the first initiative the round is still 0
    (docs/rulesets/roll-under.md#surprise)."""
    engine = fight()
    assert begin(engine).ok
    assert engine.encounter.round == 0 and engine.pending() is not None
    assert begin(engine).error == "the fight has already started"


def test_an_assist_is_refused_unless_it_is_one_to_all_of_a_fighters_assists() -> None:
    """Assists are spent by a fighter in the fight, at least one and at most what they
    have (docs/rulesets/roll-under.md#assists)."""
    engine = fight()
    start(engine, miguel=1, ana=1)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1")).ok
    rid = roll_id(engine)
    engine.encounter.fighters["rent-a-cop"].status.lethal = 1
    refused = {
        ("ana", "ep", 1): "no contribution 'ep' in roll-under",
        (None, "assist", 1): "who assists?",
        ("nobody", "assist", 1): "who assists?",
        ("ana", "assist", 0): "Ana has 2 assist(s) to spend",
        ("ana", "assist", 3): "Ana has 2 assist(s) to spend",
        ("rent-a-cop", "assist", 1): "Rent-A-Cop is out of the fight",
    }
    for (fid, kind, amount), error in refused.items():
        out = engine.apply(c.Contribute(roll_id=rid, fighter_id=fid, contribution=kind,
                                        amount=amount))
        assert out.error == error, (fid, kind, amount)
    assert engine.apply(c.Contribute(roll_id=rid, fighter_id="ana", contribution="assist",
                                     amount=2)).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == roll.base + 2
    assert engine.encounter.fighters["ana"].status.assists == 0


def test_a_roll_whose_target_left_the_fight_is_made_for_nothing() -> None:
    """A waiting attack whose target was removed hits nobody and deals no damage
    (docs/rulesets/roll-under.md#attack)."""
    engine = fight()
    start(engine, miguel=1, ana=1)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1")).ok
    assert engine.apply(c.RemoveFighter(fighter_id="mook-1")).ok
    out = engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[1]]))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "Miguel rolls Attack against Mook 1, 15 or less: nobody left to roll against"
    assert [e.kind for e in out.entry.events] == ["roll"]


def test_a_helper_who_left_the_fight_gets_nothing_back() -> None:
    """Withdrawn assists come back to a helper still in the fight only
    (docs/rulesets/roll-under.md#assists)."""
    engine = fight()
    start(engine, miguel=1, ana=1)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1")).ok
    rid = roll_id(engine)
    for _ in range(2):
        assert engine.apply(c.Contribute(roll_id=rid, fighter_id="ana", contribution="assist",
                                         amount=1)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    first, second = (x.id for x in roll.contributions)
    back = engine.apply(c.Withdraw(roll_id=rid, contribution_id=first))
    assert back.ok and back.entry is not None
    assert [(e.text, e.data) for e in back.entry.events if e.kind == "points-gain"] == [
        ("Ana gets 1 assist(s) back", {"pool": "assists", "amount": 1,
                                       "why": "assist taken back"})]
    assert engine.encounter.fighters["ana"].status.assists == 1
    assert engine.apply(c.RemoveFighter(fighter_id="ana")).ok
    gone = engine.apply(c.Withdraw(roll_id=rid, contribution_id=second))
    assert gone.ok and gone.entry is not None
    assert [e for e in gone.entry.events if e.kind == "points-gain"] == []


def test_with_no_pc_in_the_fight_the_round_starts_without_initiative() -> None:
    """Only PCs and allies roll Wisdom: with none, the enemies' section is the round
    (docs/rulesets/roll-under.md#initiative)."""
    engine = fight(without=("miguel", "ana"))
    out = begin(engine)
    assert out.ok and engine.pending() is None
    assert engine.encounter.round == 1 and engine.encounter.state.stage == "turns"
    assert turn_of(engine) == "rent-a-cop"
    assert out.entry is not None and out.entry.summary == "Round 1: 0 before the enemies, 0 after"


def test_a_pc_removed_while_initiative_waits_rolls_nothing() -> None:
    """The initiative answer rolls for the PCs still in the fight
    (docs/rulesets/roll-under.md#initiative)."""
    engine = fight()
    assert begin(engine).ok
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.RemoveFighter(fighter_id="miguel")).ok
    out = engine.apply(c.Answer(decision_id=pending.id, values={"ana": 1}))
    assert out.ok and out.entry is not None
    assert [e.fighter_id for e in out.entry.events if e.kind == "roll"] == ["ana"]
    assert turn_of(engine) == "ana"


def test_lethal_damage_without_a_death_table_says_where_to_add_one() -> None:
    """Each lethal hit is a roll on the fight's Death and Dismemberment table; without
    one the log says where to add it (docs/rulesets/roll-under.md#hit-points)."""
    engine = fight()
    assert engine.apply(c.RemoveTable(table_id="death-and-dismemberment")).ok
    start(engine, miguel=1, ana=1)
    engine.encounter.fighters["mook-1"].status.hp = 2
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1", weapon=0)).ok
    out = engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[1], [5]]))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "Miguel hits Mook 1 for 5 (3 lethal)"
    assert [e.text for e in out.entry.events if e.kind == "note"] == [
        "Mook 1 takes 3 lethal damage",
        "No Death and Dismemberment table in this fight (Fight > Roll Tables)"]
    assert engine.encounter.fighters["mook-1"].status.lethal == 3


def test_the_forms_build_their_commands_and_previews_need_a_target() -> None:
    """The GM's card actions (rest, ambusher) become their commands; an attack preview
    without a target asks for one; a move previews nothing
    (docs/rulesets/roll-under.md#assists, docs/rulesets/roll-under.md#surprise)."""
    engine = fight()
    rules = engine.ruleset
    assert rules.views.build_command("rest", "ana", {}) == ru.Rest(fighter_id="ana")
    assert rules.views.build_command("ambusher-on", "ana", {}) == ru.SetAmbusher(
        fighter_id="ana", ambusher=True)
    assert rules.views.build_command("ambusher-off", "ana", {}) == ru.SetAmbusher(
        fighter_id="ana", ambusher=False)
    assert rules.views.build_command("remove-wound", "ana", {"target": "miguel"}) == (
        ru.RemoveFatalWound(fighter_id="ana", target_id="miguel"))
    assert rules.views.build_command("maneuver", "ana", {"target": "mook-1"}) == ru.CombatManeuver(
        fighter_id="ana", target_id="mook-1", maneuver="shove")
    assert rules.views.build_command("other", "ana", {}) == ru.OtherTurnAction(
        fighter_id="ana", action="run")
    enc = engine.encounter
    for form in ("act", "maneuver"):
        assert rules.views.preview(enc, form, "ana", {}).error == "choose a target"
    assert rules.views.preview(enc, "move", "ana", {}).lines == ()
    assert rules.views.preview(enc, "remove-wound", "ana", {}).lines == ()  # no roll by default


@pytest.mark.parametrize(("defense", "disarms"), [(19, True), (18, False)])
def test_the_autopilot_disarms_only_when_it_saves_more_than_the_attack_is_worth(
        defense: int, disarms: bool) -> None:
    """The autopilot's disarm: worth (the chance it works) x (the foe's weapon's mean less
    a fist's 3.5) / 2, less what a failed try costs, against the attack's chance to hit x
    the attacker's mean damage; never on its own side
    (docs/rulesets/roll-under.md#autopilot)."""
    # The unarmed Enforcer (Attack 14, a d6: mean 3.5) against Miguel (Dexterity 4: the
    # disarm always works; his katana is a d10, mean 5.5, so disarming is worth 1). Miguel's
    # Defense 19 leaves the Enforcer 1 - 15/20 to hit, 0.875 < 1: disarm; with Defense 18,
    # 0.3 x 3.5 = 1.05 > 1: attack. The Rent-A-Cop (the Enforcer's side) has a heavy
    # weapon and Attack 0, easy to disarm: never chosen.
    engine = fight(without=("ana", "mook"))
    enc = engine.encounter
    enc.fighters["enforcer"].sheet.weapons = []
    miguel = enc.fighters["miguel"].sheet
    miguel.dexterity, miguel.defense = 4, defense
    cop = enc.fighters["rent-a-cop"].sheet
    cop.weapons = [RollUnderWeapon(name="Maul", weapon_class="heavy")]
    cop.attack = 0
    engine.session.start = enc.model_copy(deep=True)
    engine.session.log.clear()
    start(engine, miguel=20)
    for _ in range(4):
        if turn_of(engine) == "enforcer":
            break
        assert engine.apply(c.NextStep()).ok
    command = engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0))
    if disarms:
        assert command == ru.CombatManeuver(fighter_id="enforcer", target_id="miguel",
                                            maneuver="disarm")
    else:
        assert command == ru.Attack(fighter_id="enforcer", target_id="miguel", weapon=None)


@pytest.mark.parametrize(("ana_dexterity", "expected"), [
    (7, ru.Attack(fighter_id="enforcer", target_id="ana", weapon=None)),
    (4, ru.CombatManeuver(fighter_id="enforcer", target_id="ana", maneuver="disarm")),
])
def test_the_autopilot_weighs_a_failed_disarm_and_takes_the_best_of_two(
        ana_dexterity: int, expected: ru.Attack | ru.CombatManeuver) -> None:
    """A failed disarm gives the foe an automatic hit: half its mean damage comes off the
    disarm's worth; of two foes worth disarming, the one worth more
    (docs/rulesets/roll-under.md#autopilot)."""
    # The unarmed Enforcer (Attack 14, mean 3.5) against Miguel and Ana, both at Defense
    # 19: 0.25 x 3.5 = 0.875 for an attack (on Ana, who has fewer HP). Ana's heavy
    # weapon (d12, mean 6.5): at Dexterity 7 she resists on 3 or less, the disarm works
    # 17/20 of the time: 0.85 x 3 / 2 - 0.15 x 6.5 / 2 = 0.7875, so the Enforcer attacks;
    # at Dexterity 4 it always works, worth 1.5, more than disarming Miguel's katana (1).
    engine = fight(without=("mook",))
    enc = engine.encounter
    enc.fighters["enforcer"].sheet.weapons = []
    miguel, ana = enc.fighters["miguel"].sheet, enc.fighters["ana"].sheet
    miguel.dexterity = 4 if ana_dexterity == 4 else 12
    miguel.defense = ana.defense = 19
    ana.dexterity = ana_dexterity
    ana.weapons = [RollUnderWeapon(name="Maul", weapon_class="heavy")]
    engine.session.start = enc.model_copy(deep=True)
    engine.session.log.clear()
    start(engine, miguel=20, ana=20)
    for _ in range(4):
        if turn_of(engine) == "enforcer":
            break
        assert engine.apply(c.NextStep()).ok
    assert engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0)) == expected


def test_the_autopilot_attacks_with_the_biggest_die_the_first_of_equals() -> None:
    """On its turn a fighter attacks with its best weapon: the biggest damage die, the
    first on the sheet among equals (docs/rulesets/roll-under.md#autopilot)."""
    engine = fight()
    enc = engine.encounter
    enc.fighters["miguel"].sheet.weapons = [
        RollUnderWeapon(name=name, weapon_class=kind)
        for name, kind in (("Knife", "light"), ("Maul", "heavy"), ("Hammer", "heavy"),
                           ("Rifle", "rifle"))]
    engine.session.start = enc.model_copy(deep=True)
    engine.session.log.clear()
    start(engine, miguel=1, ana=20)
    command = engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0))
    assert isinstance(command, ru.Attack) and command.weapon == 1


def test_the_initiative_question_names_the_wisdom_penalty_only_when_there_is_one() -> None:
    """The worst Wisdom penalty an enemy in the fight imposes comes off every PC's
    target, and the question says so (docs/rulesets/roll-under.md#unusual-enemies)."""
    plain = fight(without=("enforcer",))
    assert begin(plain).ok
    question = plain.pending()
    assert question is not None
    assert question.prompt == "Round 1 initiative: each PC rolls Wisdom"
    assert [f.label for f in question.fields] == [
        "Miguel: Wisdom, 12 or less (3/5, 60.0% to act before the enemies)",
        "Ana: Wisdom, 14 or less (7/10, 70.0% to act before the enemies)"]
    alone = fight(without=("cop", "enforcer", "mook"))
    assert begin(alone).ok
    question = alone.pending()
    assert question is not None
    assert question.prompt == "Round 1 initiative: each PC rolls Wisdom"
    assert [f.label for f in question.fields] == [
        "Miguel: Wisdom, 12 or less (3/5, 60.0% to act before the enemies)",
        "Ana: Wisdom, 14 or less (7/10, 70.0% to act before the enemies)"]
    penalised = fight()
    assert begin(penalised).ok
    question = penalised.pending()
    assert question is not None
    assert question.prompt == ("Round 1 initiative: each PC rolls Wisdom "
                               "(-2 for the enemies' presence)")


def test_assists_spent_and_given_back_count_in_the_round_summary() -> None:
    """Each spend of assists is logged with its amount, and so is each given back, so the
    round summary counts them (docs/rulesets/roll-under.md#assists)."""
    from fightdesk.report.summary import summarize

    engine = fight()
    start(engine, miguel=1, ana=1)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1")).ok
    rid = roll_id(engine)
    spent = engine.apply(c.Contribute(roll_id=rid, fighter_id="ana", contribution="assist",
                                      amount=2))
    assert spent.ok and spent.entry is not None
    roll = engine.encounter.state.roll
    assert roll is not None
    assert [(e.fighter_id, e.data) for e in spent.entry.events if e.kind == "points-spend"] == [
        ("ana", {"pool": "assists", "amount": 2, "why": roll.label})]
    assert engine.apply(c.Withdraw(roll_id=rid, contribution_id=roll.contributions[0].id)).ok
    assert engine.apply(c.Contribute(roll_id=rid, fighter_id="ana", contribution="assist",
                                     amount=1)).ok
    summary = summarize(engine.session, [1])
    ana = next(t for t in summary.rounds[0].tallies if t.fighter_id == "ana")
    assert (ana.points_spent, ana.points_gained) == (3, 2)


def test_choosing_an_ambusher_is_logged_under_that_fighter() -> None:
    """The GM's choice of who attacks by surprise is filed under the fighter
    (docs/rulesets/roll-under.md#surprise)."""
    engine = fight()
    out = engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop"))
    assert out.ok and out.entry is not None
    assert [(e.kind, e.fighter_id, e.text) for e in out.entry.events] == [
        ("override", "rent-a-cop", "GM: Rent-A-Cop attacks by surprise")]
    off = engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop", ambusher=False))
    assert off.entry is not None and off.entry.summary == "GM: Rent-A-Cop does not attack by surprise"


def test_nobody_assists_a_roll_whose_roller_left_the_fight() -> None:
    """Assists move the roller's target: with the roller gone there is nothing to help,
    and the refusal says why (docs/rulesets/roll-under.md#assists)."""
    engine = fight()
    start(engine, miguel=1, ana=1)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1")).ok
    rid = roll_id(engine)
    assert engine.apply(c.RemoveFighter(fighter_id="miguel")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert engine.ruleset.rules.contribution_options(engine.encounter, roll) == ()
    out = engine.apply(c.Contribute(roll_id=rid, fighter_id="ana", contribution="assist",
                                    amount=1))
    assert out.error == "the one rolling has left the fight: no roll to assist"


def test_end_round_in_the_surprise_step_leaves_no_surprise_column_on_the_timeline() -> None:
    """Round 1 ended in its surprise step: the timeline shows every fighter, as before
    any initiative, not a "Surprise" column with the ambusher alone
    (docs/rulesets/roll-under.md#surprise)."""
    engine = fight()
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    assert begin(engine).ok
    assert engine.ruleset.views.timeline(engine.encounter).columns == ("Surprise",)
    assert engine.apply(c.EndRound()).ok
    timeline = engine.ruleset.views.timeline(engine.encounter)
    assert "Surprise" not in timeline.columns
    assert [lane.fighter_ids[0] for lane in timeline.lanes] == engine.encounter.order
    assert timeline.caption == "Round 1 · end of round"
    engine.undo()
    assert engine.ruleset.views.timeline(engine.encounter).columns == ("Surprise",)


def test_the_end_of_the_surprise_step_is_no_round_end_for_durations() -> None:
    """The surprise step is the start of round 1, not a round: its end is logged as the
    surprise step's end, and a condition counted at the end of each round counts only
    when round 1 itself ends (docs/rulesets/roll-under.md#surprise)."""
    engine = fight()
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    assert begin(engine).ok
    assert engine.apply(c.AddCondition(fighter_id="miguel", name="Blinded", duration="rounds",
                                       rounds=1, tick="round-end")).ok
    assert engine.apply(c.NextStep()).ok
    entry = engine.session.log[-1]
    assert [(e.kind, e.text) for e in entry.events] == [
        ("step", "Round 1: the surprise step is over"),
        ("ask", "Round 1: initiative (Wisdom)")]
    assert [cond.name for cond in engine.encounter.fighters["miguel"].status.conditions] \
        == ["Blinded"]
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 1, "ana": 1})).ok
    assert engine.encounter.fighters["miguel"].status.conditions
    assert engine.apply(c.EndRound()).ok
    assert not engine.encounter.fighters["miguel"].status.conditions
    assert [e.text for e in engine.session.log[-1].events] == [
        "Round 1 ends", "Miguel is no longer blinded"]


def test_a_turn_is_held_before_its_action_and_move_not_after() -> None:
    """Holding puts the whole turn off: not while the fighter's roll waits, not once the
    turn's action or move is used, which the held turn would otherwise give back
    (docs/rulesets/roll-under.md#holding)."""
    engine = fight()
    start(engine, miguel=1, ana=1)
    assert turn_of(engine) == "miguel" and hold_offered(engine, "miguel") == ""
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1", weapon=0)).ok
    assert hold_offered(engine, "miguel") == "a roll is waiting: make it first"
    preview = engine.ruleset.views.preview(engine.encounter, "hold-turn", "miguel", {"after": "ana"})
    assert preview.lines == () and not preview.error
    out = engine.apply(c.HoldTurn(after="ana"))
    assert out.error == "Miguel cannot hold the turn: a roll is waiting: make it first"
    assert turn_of(engine) == "miguel" and engine.encounter.state.roll is not None
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[20]])).ok  # 20 misses
    assert hold_offered(engine, "miguel") == "already took this turn's action (attack)"
    out = engine.apply(c.HoldTurn(after="ana"))
    assert out.error == "Miguel cannot hold the turn: already took this turn's action (attack)"
    assert engine.apply(c.NextStep()).ok
    assert turn_of(engine) == "ana"
    assert engine.apply(ru.Move(fighter_id="ana")).ok
    assert hold_offered(engine, "ana") == "already moved this turn"
    assert engine.apply(c.HoldTurn(after="mook-1")).error == \
        "Ana cannot hold the turn: already moved this turn"


def test_only_the_turn_going_on_is_held() -> None:
    """A hold names the turn going on; another fighter's waiting turn, or the turn
    holder's own later turn, is not held (the GM drags those instead)
    (docs/rulesets/roll-under.md#holding)."""
    engine = fight()
    start(engine, miguel=20, ana=20)
    assert turn_of(engine) == "rent-a-cop"
    out = engine.apply(c.HoldTurn(after="ana", slot_id="enforcer#2"))
    assert out.error == "Enforcer cannot hold the turn: only on the fighter's own turn"
    assert engine.apply(c.NextStep()).ok and turn_of(engine) == "enforcer"
    out = engine.apply(c.HoldTurn(after="ana", slot_id="enforcer#2"))
    assert out.error == "Enforcer cannot hold the turn: only the turn going on now can be held"
    assert engine.apply(c.HoldTurn(after="ana", slot_id="enforcer")).ok
    assert turn_of(engine) == "enforcer"  # the extra turn comes next


def test_removing_the_ambusher_on_their_surprise_turn_ends_the_surprise_step() -> None:
    """docs/rulesets/roll-under.md#removing-a-fighter: the removed fighter's turn going
    on passes as Next turn would; the ambusher's was the surprise step's last turn, so the
    step ends there and round 1 asks for initiative, without the ambusher; undo gives
    the surprise turn back."""
    engine = fight()
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    assert begin(engine).ok
    assert turn_of(engine) == "rent-a-cop"
    out = engine.apply(c.RemoveFighter(fighter_id="rent-a-cop"))
    assert out.ok and out.entry is not None
    assert [(e.kind, e.text) for e in out.entry.events][:2] == [
        ("roster", "Removed Rent-A-Cop"), ("step", "Round 1: the surprise step is over")]
    pending = engine.pending()
    assert pending is not None and engine.encounter.state.stage == "initiative"
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 1, "ana": 1})).ok
    assert "rent-a-cop" not in [s.fighter_id for s in slots(engine.encounter.state.turns)]
    # The initiative question kept the step open: the removal and its answer are one step.
    assert engine.undo()
    assert turn_of(engine) == "rent-a-cop" and engine.encounter.state.stage == "turns"


def test_the_title_names_the_round_whose_initiative_is_asked() -> None:
    """A new round's initiative is asked before the round begins: the title says the
    round the question is for; the initiative after the surprise step is round 1's
    (docs/rulesets/roll-under.md#initiative)."""
    engine = fight()
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    assert begin(engine).ok
    assert engine.apply(c.NextStep()).ok  # the ambusher's surprise turn ends the step
    pending = engine.pending()
    assert pending is not None and pending.prompt.startswith("Round 1 initiative")
    assert engine.ruleset.views.describe_state(engine.encounter) == "Round 1 · initiative"
    engine = fight()
    assert begin(engine).ok
    pending = engine.pending()
    assert pending is not None and pending.prompt.startswith("Round 1 initiative")
    assert engine.ruleset.views.describe_state(engine.encounter) == "Round 1 · initiative"
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 1, "ana": 1},
                                 by="the players")).ok
    for _ in range(len(list(slots(engine.encounter.state.turns)))):
        assert engine.apply(c.NextStep()).ok
    assert engine.ruleset.views.describe_state(engine.encounter) == "Round 1 · end of round"
    assert engine.apply(c.StartRound()).ok
    pending = engine.pending()
    assert pending is not None and pending.prompt.startswith("Round 2 initiative")
    assert engine.encounter.round == 1
    assert engine.ruleset.views.describe_state(engine.encounter) == "Round 2 · initiative"
