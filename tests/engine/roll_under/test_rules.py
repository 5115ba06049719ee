"""Roll-under scenarios with pinned dice (typed in, or a fixed seed): each rule of
docs/rulesets/roll-under.md, able to fail if the rule were wrong."""

from __future__ import annotations

from fractions import Fraction

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.roll_under import commands as ru
from fightdesk.engine.rulesets.roll_under.rules import attack_target, defense_target
from fightdesk.engine.turns import current_fighter, slots

from .fight import begin, fight, start


def turn_of(engine: Engine) -> str | None:
    return current_fighter(engine.encounter.state.turns)


def go_to(engine: Engine, fid: str) -> None:
    """Next turn until it is ``fid``'s."""
    for _ in range(12):
        if turn_of(engine) == fid:
            return
        assert engine.apply(c.NextStep()).ok
    raise AssertionError(f"{fid} never got a turn")


def roll_id(engine: Engine) -> int:
    roll = engine.encounter.state.roll
    assert roll is not None
    return roll.id


# --- the text's examples -----------------------------------------------------------------------


def test_the_texts_two_worked_examples() -> None:
    engine = fight()
    enc = engine.encounter
    miguel, cop = enc.fighters["miguel"], enc.fighters["rent-a-cop"]
    assert attack_target(miguel, cop) == 13  # Attack 15 against Defense 12: 13 or less
    cop.sheet.attack = 12
    miguel.sheet.defense = 14
    assert defense_target(miguel, cop) == 12  # Defense 14 against Attack 12: 12 or less


# --- initiative ---------------------------------------------------------------------------------


def test_wisdom_splits_the_pcs_before_and_after_the_enemies() -> None:
    engine = fight()
    # The Enforcer imposes -2: Miguel needs 10 or less, Ana 12 or less.
    assert begin(engine).ok
    pending = engine.pending()
    assert pending is not None
    assert [f.label for f in pending.fields] == [
        "Miguel: Wisdom, 10 or less (1/2, 50.0% to act before the enemies)",
        "Ana: Wisdom, 12 or less (3/5, 60.0% to act before the enemies)"]
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 11, "ana": 12})).ok
    sections = {s.id: [x.id for x in s.slots] for s in engine.encounter.state.turns.sections}
    assert sections == {"before": ["ana"], "enemies": ["rent-a-cop", "enforcer", "enforcer#2",
                                                        "mook-1", "mook-2"],
                        "after": ["miguel"]}
    assert turn_of(engine) == "ana"


def test_the_gm_reorders_inside_a_section_never_across_but_an_odd_enemy_anywhere() -> None:
    engine = fight()
    start(engine, miguel=1, ana=1)
    assert engine.apply(c.MoveTurn(slot_id="miguel", section="before", index=0)).ok
    refused = engine.apply(c.MoveTurn(slot_id="rent-a-cop", section="before", index=0))
    assert refused.error == ("Rent-A-Cop cannot go there: the GM orders freely inside a "
                             "section (before or after the enemies), never across")
    assert engine.apply(c.MoveTurn(slot_id="enforcer#2", section="after", index=0)).ok
    after = [s.id for s in engine.encounter.state.turns.sections[2].slots]
    assert after == ["enforcer#2"]


def test_a_blank_wisdom_row_is_rolled_by_the_app() -> None:
    engine = fight(seed=9)
    start(engine, miguel=None, ana=3)
    rolls = [e.roll for e in engine.session.log[-1].events if e.roll]
    assert [(r.who, r.source) for r in rolls] == [("Miguel", "app"), ("Ana", "typed")]
    before = [s.fighter_id for s in engine.encounter.state.turns.sections[0].slots]
    assert ("miguel" in before) == (rolls[0].faces[0] <= 10)


# --- surprise -----------------------------------------------------------------------------------


def test_ambushers_act_before_the_first_initiative_and_so_does_the_unsurprisable() -> None:
    engine = fight()
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    engine.encounter.fighters["ana"].sheet.immune_to_surprise = True
    assert begin(engine).ok
    order = engine.encounter.state.turns
    assert [(s.id, [x.id for x in s.slots]) for s in order.sections] == [
        ("surprise", ["rent-a-cop", "ana"])]
    assert engine.ruleset.views.where(engine.encounter) == "surprise, Rent-A-Cop's turn"
    assert engine.apply(c.NextStep()).ok and engine.apply(c.NextStep()).ok
    pending = engine.pending()
    assert pending is not None and pending.prompt.startswith("Round 1 initiative")
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 1, "ana": 1})).ok
    assert engine.encounter.round == 1
    assert turn_of(engine) == "miguel"
    ids = [s.id for s in slots(engine.encounter.state.turns)]
    assert ids[:2] == ["rent-a-cop", "ana"] and ids[2:4] == ["miguel", "ana#2"]


# --- attacks: player-facing ----------------------------------------------------------------------


def test_a_pc_rolls_attack_and_the_weapon_class_gives_the_damage() -> None:
    engine = fight()
    start(engine, miguel=1, ana=20)
    out = engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop", weapon=0))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "Miguel rolls Attack against Rent-A-Cop, 13 or less"
    roll = engine.encounter.state.roll
    assert roll is not None and roll.by_player and roll.roller_id == "miguel"
    assert engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[13], [7]])).ok
    cop = engine.encounter.fighters["rent-a-cop"].status
    assert (cop.hp, cop.lethal) == (1, 0)  # katana two-handed: 1d10 -> 7
    damage = next(e.roll for e in engine.session.log[-1].events
                  if e.roll and e.roll.purpose.startswith("damage"))
    assert damage is not None and damage.sides == 10


def test_a_pc_attack_roll_over_the_target_misses() -> None:
    engine = fight()
    start(engine, miguel=1, ana=20)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop", weapon=0)).ok
    out = engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[14]]))
    assert out.ok and out.entry is not None and out.entry.summary == "Miguel misses Rent-A-Cop"
    assert engine.encounter.fighters["rent-a-cop"].status.hp == 8


def test_an_enemy_attacking_a_pc_is_the_pcs_defense_roll() -> None:
    engine = fight()
    start(engine, miguel=20, ana=20)
    assert turn_of(engine) == "rent-a-cop"
    out = engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="miguel", weapon=0))
    assert out.ok and out.entry is not None
    # Defense 14 against Attack 12: 12 or less; the enemy does not roll.
    assert out.entry.summary == "Miguel rolls Defense against Rent-A-Cop, 12 or less"
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "miguel" and roll.by_player
    done = engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[12]]))
    assert done.entry is not None and done.entry.summary == "Miguel defends against Rent-A-Cop"
    assert engine.encounter.fighters["miguel"].status.hp == 12
    assert [e.roll.who for e in done.entry.events if e.roll] == ["Miguel"]


def test_a_failed_defense_is_a_hit() -> None:
    engine = fight()
    start(engine, miguel=20, ana=20)
    assert engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="miguel", weapon=0)).ok
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[13], [5]])).ok
    assert engine.encounter.fighters["miguel"].status.hp == 7  # light pistol: 1d6 -> 5


def test_enemy_against_enemy_is_the_attackers_roll_made_by_the_app() -> None:
    engine = fight()
    start(engine, miguel=20, ana=20)
    assert engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="mook-1", weapon=0)).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "rent-a-cop" and not roll.by_player
    assert roll.base == 12 - (10 - 10)


# --- assists ------------------------------------------------------------------------------------


def test_assists_from_allies_raise_the_target_and_enemies_lower_it() -> None:
    engine = fight()
    start(engine, miguel=20, ana=20)
    assert engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="miguel", weapon=0)).ok
    rid = roll_id(engine)
    view = engine.ruleset.views.roll_view(engine.encounter)
    assert view is not None and view.odds[0].chance == Fraction(12, 20)
    assert engine.apply(c.Contribute(roll_id=rid, fighter_id="ana", contribution="assist",
                                     amount=2)).ok
    assert engine.encounter.state.roll.total == 14
    assert engine.encounter.fighters["ana"].status.assists == 0
    refused = engine.apply(c.Contribute(roll_id=rid, fighter_id="miguel", contribution="assist",
                                        amount=1))
    assert refused.error == "Miguel is in this exchange: no self-assists"
    mook = engine.apply(c.Contribute(roll_id=rid, fighter_id="mook-1", contribution="assist",
                                     amount=1))
    assert mook.error == "Mook 1 has 0 assist(s) to spend"
    view = engine.ruleset.views.roll_view(engine.encounter)
    assert view is not None and view.odds[0].chance == Fraction(14, 20)
    first = engine.encounter.state.roll.contributions[0].id
    assert engine.apply(c.Withdraw(roll_id=rid, contribution_id=first)).ok
    assert engine.encounter.fighters["ana"].status.assists == 2
    assert engine.encounter.state.roll.total == 12


def test_an_enemy_assist_lowers_a_pcs_attack() -> None:
    engine = fight()
    start(engine, miguel=1, ana=20)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="mook-1", weapon=0)).ok
    rid = roll_id(engine)
    assert engine.apply(c.Contribute(roll_id=rid, fighter_id="rent-a-cop", contribution="assist",
                                     amount=1)).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == roll.base - 1


def test_rest_brings_the_assists_back() -> None:
    engine = fight()
    engine.encounter.fighters["miguel"].status.assists = 0
    out = engine.apply(ru.Rest(fighter_id="miguel"))
    assert out.ok and engine.encounter.fighters["miguel"].status.assists == 3
    assert not engine.apply(ru.Rest(fighter_id="miguel")).ok


# --- hit points, lethal damage, fatal wounds ----------------------------------------------------


def test_damage_past_zero_is_lethal_and_rolls_on_the_death_table() -> None:
    engine = fight()
    start(engine, miguel=1, ana=20)
    engine.encounter.fighters["rent-a-cop"].status.hp = 3
    engine.session.start = engine.encounter.model_copy(deep=True)
    engine.session.log.clear()
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop", weapon=0)).ok
    out = engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[2], [8], [4]]))
    assert out.ok and out.entry is not None
    cop = engine.encounter.fighters["rent-a-cop"].status
    assert (cop.hp, cop.lethal) == (0, 5)  # 8 damage on 3 HP: the overflow is lethal
    table = [e for e in out.entry.events if e.kind == "table"]
    assert len(table) == 1 and table[0].data["total"] == 4
    assert engine.ruleset.rules.is_out(engine.encounter.fighters["rent-a-cop"])


def test_a_table_row_marked_fatal_wound_gives_one_and_removing_it_is_an_action() -> None:
    engine = fight()
    table = engine.encounter.tables["death-and-dismemberment"].model_dump(mode="json")
    table["rows"][3]["effect"] = "fatal-wound"
    assert engine.apply(c.SetTable(table=table)).ok
    start(engine, miguel=20, ana=20)
    engine.encounter.fighters["miguel"].status.hp = 1
    assert engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="miguel", weapon=0)).ok
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[20], [3], [4]])).ok
    assert engine.encounter.fighters["miguel"].status.fatal_wounds == 1
    go_to(engine, "ana")
    out = engine.apply(ru.RemoveFatalWound(fighter_id="ana", target_id="miguel"))
    assert out.ok and engine.encounter.fighters["miguel"].status.fatal_wounds == 0
    again = engine.apply(ru.Move(fighter_id="ana"))
    assert again.ok  # the move is separate from the action
    second = engine.apply(ru.OtherTurnAction(fighter_id="ana", action="reload"))
    assert second.error == "Ana has already taken this turn's action (remove a Fatal Wound)"


def test_removing_a_fatal_wound_with_the_roll_option() -> None:
    engine = fight()
    assert engine.apply(c.SetOption(option="fatal_wound_needs_roll", value=True)).ok
    engine.encounter.fighters["miguel"].status.fatal_wounds = 1
    engine.session.start = engine.encounter.model_copy(deep=True)
    engine.session.log.clear()
    start(engine, miguel=1, ana=1)
    go_to(engine, "ana")
    failed = engine.apply(ru.RemoveFatalWound(fighter_id="ana", target_id="miguel", dice=[[15]]))
    assert failed.ok and engine.encounter.fighters["miguel"].status.fatal_wounds == 1
    engine.undo()
    done = engine.apply(ru.RemoveFatalWound(fighter_id="ana", target_id="miguel", dice=[[14]]))
    assert done.ok and engine.encounter.fighters["miguel"].status.fatal_wounds == 0


# --- the action economy -------------------------------------------------------------------------


def test_one_action_and_one_move_a_turn_and_they_come_back_next_turn() -> None:
    engine = fight()
    start(engine, miguel=1, ana=1)
    assert engine.apply(ru.OtherTurnAction(fighter_id="miguel", action="run")).ok
    assert engine.apply(ru.Move(fighter_id="miguel")).ok
    assert engine.apply(ru.Move(fighter_id="miguel")).error == "Miguel has already moved this turn"
    card = engine.ruleset.views.card(engine.encounter, "miguel")
    left = {r.label: r.value for r in card.resources}
    assert left["Action"] == 0 and left["Move"] == 0
    assert engine.apply(ru.Attack(fighter_id="ana", target_id="rent-a-cop")).error == "not Ana's turn"
    assert engine.apply(c.NextStep()).ok
    card = engine.ruleset.views.card(engine.encounter, "ana")
    assert {r.label: r.value for r in card.resources}["Action"] == 1


# --- combat maneuvers ---------------------------------------------------------------------------


def test_a_shove_that_works_leaves_the_target_shoved() -> None:
    engine = fight()
    start(engine, miguel=1, ana=20)
    out = engine.apply(ru.CombatManeuver(fighter_id="miguel", target_id="rent-a-cop", maneuver="shove"))
    assert out.entry is not None
    # Strength 13, the Rent-A-Cop's Attack 12 a penalty of 2: 11 or less.
    assert out.entry.summary == "Miguel rolls Strength to shove Rent-A-Cop, 11 or less"
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[11]])).ok
    assert [x.name for x in engine.encounter.fighters["rent-a-cop"].status.conditions] == ["Shoved"]


def test_a_failed_maneuver_gives_the_target_an_automatic_hit() -> None:
    engine = fight()
    start(engine, miguel=1, ana=20)
    assert engine.apply(ru.CombatManeuver(fighter_id="miguel", target_id="rent-a-cop", maneuver="trip")).ok
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[20], [4]])).ok
    assert engine.encounter.fighters["miguel"].status.hp == 8
    assert engine.encounter.fighters["rent-a-cop"].status.conditions == []


def test_an_enemys_grapple_on_a_pc_is_resisted_by_the_pcs_roll() -> None:
    engine = fight()
    start(engine, miguel=20, ana=20)
    go_to(engine, "enforcer")
    out = engine.apply(ru.CombatManeuver(fighter_id="enforcer", target_id="ana",
                                         maneuver="grapple"))
    assert out.entry is not None
    # Ana's Strength 10 with the Enforcer's (14 - 10) as the penalty: 6 or less.
    assert out.entry.summary == "Ana rolls Strength to resist Enforcer's grapple, 6 or less"
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[7]])).ok
    assert [x.name for x in engine.encounter.fighters["ana"].status.conditions] == ["Grappled"]


def test_an_unsurprisable_enemy_who_acts_twice_takes_each_turn_once() -> None:
    """Ambushed by Miguel, the Enforcer acts in the surprise step and twice in round 1:
    three turns, each taken once, and the round ends."""
    engine = fight()
    engine.encounter.fighters["enforcer"].sheet.immune_to_surprise = True
    assert engine.apply(ru.SetAmbusher(fighter_id="miguel")).ok
    assert begin(engine).ok
    assert engine.apply(c.NextStep()).ok and engine.apply(c.NextStep()).ok
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 1, "ana": 1})).ok
    ids = [s.id for s in slots(engine.encounter.state.turns)]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if i.startswith("enforcer")] == ["enforcer", "enforcer#2", "enforcer#3"]
    seen = []
    while engine.encounter.state.stage == "turns":
        seen.append(turn_of(engine))
        assert engine.apply(c.NextStep()).ok
        assert len(seen) < 20
    assert seen.count("enforcer") == 2


def test_a_disarmed_fighter_strikes_unarmed_until_taking_the_weapon_back() -> None:
    engine = fight()
    start(engine, miguel=20, ana=20)
    go_to(engine, "enforcer")
    assert engine.apply(ru.CombatManeuver(fighter_id="enforcer", target_id="miguel",
                                          maneuver="disarm")).ok
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[20]])).ok  # not resisted
    miguel = engine.encounter.fighters["miguel"]
    assert [x.name for x in miguel.status.conditions] == ["Disarmed"]
    go_to(engine, "miguel")
    preview = engine.ruleset.views.preview(engine.encounter, "act", "miguel",
                                     {"target": "rent-a-cop", "weapon": "0"})
    assert "Damage on a hit: 1d6 (unarmed)" in preview.lines
    assert engine.apply(ru.PickUpWeapon(fighter_id="miguel")).ok
    assert engine.encounter.fighters["miguel"].status.conditions == []
    assert engine.encounter.fighters["miguel"].status.action is None  # it was free
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop", weapon=0)).ok
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[1], [9]])).ok
    assert engine.encounter.fighters["rent-a-cop"].status.hp == 0  # the katana's d10 again


def test_the_autopilot_disarms_a_big_weapon_it_can_hardly_hit_past() -> None:
    import random

    engine = fight(without=("mook",))
    enforcer = engine.encounter.fighters["enforcer"]
    enforcer.sheet.defense = 22  # Ana can hardly hit it; its chainsaw is a d12
    enforcer.sheet.attack = 10  # and it is easy to disarm
    engine.session.start = engine.encounter.model_copy(deep=True)
    engine.session.log.clear()
    start(engine, miguel=20, ana=1)
    engine.encounter.fighters["rent-a-cop"].status.lethal = 1  # out: only the Enforcer left
    command = engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0))
    assert isinstance(command, ru.CombatManeuver) and command.maneuver == "disarm"
    assert command.target_id == "enforcer"


def test_an_attack_starts_on_a_foe_still_in_the_fight() -> None:
    """The Rent-A-Cop out (lethal damage): Miguel's Attack form still lists the cop, named
    so, and starts on the next foe standing (it started on the first foe, out or not)."""
    engine = fight()
    engine.encounter.fighters["rent-a-cop"].status.lethal = 3
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "miguel")
                if f.id == "act")
    target = next(field for field in form.fields if field.name == "target")
    assert target.choices[0] == ("rent-a-cop", "Rent-A-Cop (out)")
    assert all("(out)" not in label for _, label in target.choices[1:])
    assert target.default == target.choices[1][0] == "enforcer"


def test_with_every_foe_out_the_attack_starts_on_the_first_and_alone_on_nobody() -> None:
    engine = fight()
    for fighter in engine.encounter.fighters.values():
        if fighter.side == "enemy":
            fighter.status.lethal = 1
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "miguel")
                if f.id == "act")
    target = next(field for field in form.fields if field.name == "target")
    assert target.default == "rent-a-cop" == target.choices[0][0]
    assert all(label.endswith("(out)") for _, label in target.choices)
    alone = fight(without=("ana", "cop", "enforcer", "mook"))
    form = next(f for f in alone.ruleset.views.action_forms(alone.encounter, "miguel") if f.id == "act")
    target = next(field for field in form.fields if field.name == "target")
    assert target.choices == () and target.default is None


def test_a_turn_to_come_of_a_fighter_out_of_the_fight_leaves_until_they_are_back() -> None:
    """docs/rulesets/README.md#the-end-of-a-fight: the fallen's turns are passed by, so
    the timeline shows none of them (a waiting one looked like a turn to come)."""
    engine = fight()
    start(engine, miguel=5, ana=18)

    def chips_of(fid: str) -> list[str]:
        tl = engine.ruleset.views.timeline(engine.encounter)
        return [chip.state for lane in tl.lanes for chip in lane.chips if chip.fighter_id == fid]

    waiting = next(fid for fid in engine.encounter.order
                   if fid != turn_of(engine) and "waiting" in chips_of(fid))
    assert engine.apply(c.SetValue(fighter_id=waiting, field="status.lethal", value=2)).ok
    assert chips_of(waiting) == []
    assert engine.apply(c.SetValue(fighter_id=waiting, field="status.lethal", value=0)).ok
    assert "lost" not in chips_of(waiting) and "waiting" in chips_of(waiting)
