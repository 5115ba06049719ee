"""Ashes scenarios with pinned coins for rules and words the mutation run and the golden
fights found unpinned (docs/mutation/ashes.md): each names its rule and the section of
docs/rulesets/ashes.md."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.engine import Engine
from fightdesk.engine.odds import challenge_odds
from fightdesk.engine.rulesets.ashes import commands as ash
from fightdesk.engine.rulesets.ashes.model import AshesSheet, Cooperative
from fightdesk.engine.rulesets.ashes.rules import Ashes
from fightdesk.engine.rulesets.ashes.totals import parse_parts
from tests.hold_offered import hold_offered

from .fight import fight, flip_all, go_to


def purpose(engine: Engine) -> str:
    """What the log will say the waiting challenge's coins are for."""
    ruleset, roll = engine.ruleset.rules, engine.encounter.state.roll
    assert isinstance(ruleset, Ashes) and roll is not None
    return ruleset.roll_purpose(roll, roll.roller_id)


def ok(engine: Engine, command: c.Command) -> None:
    out = engine.apply(command)
    assert out.ok, out.error


def test_a_challenge_without_the_skill_reads_unskilled() -> None:
    """docs/rulesets/ashes.md#offensive-action-without-the-skill: the log and the roll
    panel say "unskilled", not "with unskilled"."""
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill=None))
    roll = engine.encounter.state.roll
    assert roll is not None
    assert roll.label == "Han challenges Trooper unskilled (-3 against 1)"
    assert purpose(engine) == "a challenge on Trooper unskilled at -4"


def test_a_completed_cooperative_action_names_the_action_and_its_target() -> None:
    """docs/rulesets/ashes.md#cooperative-actions: the one who completes it makes the
    challenge with every rating together."""
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.StartCooperative(fighter_id="han", target_id="vader", skill="Blaster"))
    ok(engine, c.NextStep())
    ok(engine, ash.JoinCooperative(fighter_id="ben", skill="Lightsaber", complete=True))
    roll = engine.encounter.state.roll
    assert roll is not None
    assert roll.label == "Ben completes the cooperative action on Vader (9 against 4)"
    assert purpose(engine) == "a cooperative challenge on Vader at +5"


def status(engine: Engine, fid: str) -> Any:
    return engine.encounter.fighters[fid].status


# --- defenses taken back --------------------------------------------------------------------------


def two_defenses() -> Engine:
    """Han's blaster challenge on Vader, who defends with Absorb power, then Saber parry."""
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    roll = engine.encounter.state.roll
    assert roll is not None
    for kind in ("skill:Absorb power", "skill:Saber parry"):
        ok(engine, c.Contribute(roll_id=roll.id, fighter_id="vader", contribution=kind))
    return engine


def test_a_defense_taken_back_gives_its_speed_back() -> None:
    """docs/rulesets/ashes.md#defensive-skills: the first use in a round is free, each
    further one costs one more speed; taking one back refunds it."""
    engine = two_defenses()
    assert status(engine, "vader").speed == 8 - 1
    roll = engine.encounter.state.roll
    assert roll is not None
    ok(engine, c.Withdraw(roll_id=roll.id, contribution_id=roll.contributions[-1].id))
    assert status(engine, "vader").speed == 8 and status(engine, "vader").defenses == 1
    assert ("points-gain", "Vader gets 1 speed back") in [
        (e.kind, e.text) for e in engine.session.log[-1].events]


# --- DC challenges --------------------------------------------------------------------------------


def test_a_difficulty_is_read_from_its_parts() -> None:
    """docs/rulesets/ashes.md#dc-challenges: the difficulty is the sum of its parts, typed
    as "grip 1, break grip 1"; a bare number is a part of its own."""
    assert parse_parts("grip 1, break grip 1 + 2") == [("grip", 1), ("break grip", 1),
                                                       ("difficulty", 2)]
    with pytest.raises(RuleViolation, match=r"^difficulty part 'grip' does not end in a number$"):
        parse_parts("grip, 2")
    with pytest.raises(RuleViolation,
                       match=r"^give the difficulty \(at least one part, e.g. 'grip 1'\)$"):
        parse_parts(" , ")


# --- recovery -------------------------------------------------------------------------------------


def test_recovery_brings_back_a_single_missing_point_and_says_how_long() -> None:
    """docs/rulesets/ashes.md#recovery: per 15 minutes, 10% of each depleted stat's
    missing amount, at least 1; a day brings all of them back and 1 HP."""
    engine = fight()
    vader = engine.encounter.fighters["vader"]
    vader.status.force = 29  # 1 missing
    vader.status.physical = {"strength": 1, "agility": 3, "endurance": 3}
    ok(engine, ash.Recover(fighter_id="vader", quarters=1))
    assert vader.status.force == 30 and vader.status.physical["strength"] == 2
    assert [(e.kind, e.fighter_id, e.text) for e in engine.session.log[-1].events] == [
        ("points-gain", "vader", "Vader rests 15 minutes: 1 Force, 1 Strength")]
    vader.status.hp = 30
    ok(engine, ash.Recover(fighter_id="vader", days=2))
    assert engine.session.log[-1].summary == "Vader rests 2 day(s): 1 Strength, 2 HP"


def test_recovery_is_refused_during_a_round() -> None:
    """docs/rulesets/ashes.md#recovery: between fights (not in a round)."""
    engine = fight()
    ok(engine, c.StartRound())
    out = engine.apply(ash.Recover(fighter_id="vader", quarters=1))
    assert out.error == "recovery is between fights, not in a round"


# --- the sheet, the forms and the previews --------------------------------------------------------


def test_a_new_sheet_has_strength_agility_and_endurance_at_3() -> None:
    """docs/rulesets/ashes.md#fighter-sheet: the physical stats by name (strength,
    agility, endurance by default)."""
    assert AshesSheet().physical == {"strength": 3, "agility": 3, "endurance": 3}


def test_the_forms_build_their_commands() -> None:
    """docs/rulesets/ashes.md#pumping (the pump level), #hit-points (the GM's damage),
    #surprise-round (who starts the fight) and #defensive-skills (a defense to choose)."""
    rules = fight().ruleset
    built = rules.views.build_command("act", "vader", {"target": "han", "skill": "Basic TK", "pump": 2})
    assert isinstance(built, ash.Challenge) and built.pump == 2
    assert rules.views.build_command("damage", "han", {"amount": 4}) == \
        ash.Damage(fighter_id="han", amount=4)
    assert rules.views.build_command("initiator-off", "han", {}) == \
        ash.SetInitiator(fighter_id="han", initiator=False)
    with pytest.raises(RuleViolation, match=r"^choose a defense$"):
        rules.views.build_command("defend", "han", {"defense": ""})


def test_the_challenge_preview_adds_the_auxiliaries_and_shows_every_chance() -> None:
    """docs/rulesets/ashes.md#pumping: auxiliary skills add their ratings ("Add auxiliary
    skills" on the form, on by default); #criticals: the chance of each critical."""
    engine = fight()
    shown = engine.ruleset.views.preview(engine.encounter, "act", "vader",
                                   {"target": "han", "skill": "Basic TK"})
    assert shown.lines[0].startswith("Attack 6: ")
    assert [(o.label, o.chance) for o in shown.odds] == [
        ("success", challenge_odds(6 - 3).success),
        ("attacker's critical", challenge_odds(3).attacker_critical),
        ("defender's critical", challenge_odds(3).defender_critical)]


def test_the_cooperative_preview_leaves_the_challenge_to_the_last_participant() -> None:
    """docs/rulesets/ashes.md#cooperative-actions: the one who completes it makes the
    challenge."""
    engine = fight()
    shown = engine.ruleset.views.preview(engine.encounter, "coop-start", "han",
                                   {"target": "vader", "skill": "Blaster"})
    assert shown.lines[-1] == "The challenge is made when the last participant completes it"
    assert shown.odds == ()


def test_the_hold_preview_says_after_whom() -> None:
    """docs/rulesets/ashes.md#holding: to act right after a named fighter."""
    engine = fight()
    ok(engine, c.StartRound())
    shown = engine.ruleset.views.preview(engine.encounter, "hold-turn", "han", {"after": "trooper"})
    assert shown.lines == ("Han waits and acts right after Trooper's turn",)


# --- paying for skills ----------------------------------------------------------------------------


def test_an_auxiliary_paid_from_a_physical_stat_is_paid_beside_the_force() -> None:
    """docs/rulesets/ashes.md#force-and-physical-stats: a skill's cost is paid from Force
    or the physical stat it names; #pumping: auxiliaries add at their own costs."""
    engine = fight(vader={"skills": [
        {"name": "Basic TK", "rating": 3, "cost": 3},
        {"name": "Personal TK", "rating": 3, "cost": 1, "pays_with": "strength",
         "auxiliary_to": "Basic TK"}]})
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    ok(engine, ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK",
                             auxiliaries=True))
    vader = status(engine, "vader")
    assert vader.force == 30 - 3 and vader.physical["strength"] == 3 - 1
    card = engine.ruleset.views.card(engine.encounter, "vader")
    assert [(r.label, r.value, r.maximum) for r in card.resources if r.label == "Strength"] \
        == [("Strength", 2, 3)]


def test_a_skill_paid_from_a_stat_the_sheet_lacks_is_refused() -> None:
    """docs/rulesets/ashes.md#force-and-physical-stats: a use the fighter cannot pay for
    is refused."""
    engine = fight(han={"skills": [{"name": "Blaster", "rating": 5, "damage": 6, "cost": 1,
                                    "pays_with": "luck"}]})
    ok(engine, c.StartRound())
    out = engine.apply(ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert out.error == "Han has 0 Luck, needs 1"


# --- the log --------------------------------------------------------------------------------------


def test_a_challenge_and_its_damage_name_who_and_whom_in_the_log() -> None:
    """docs/rulesets/ashes.md#challenges and #hit-points: the round summary reads who
    challenged whom and who dealt the damage from the log lines."""
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    act = [e for e in engine.session.log[-1].events if e.kind == "act"]
    assert [e.data for e in act] == [{"maneuver": "Blaster", "target": "trooper"}]
    flip_all(engine, "H")
    hurt = [e for e in engine.session.log[-1].events if e.kind == "damage"]
    assert [e.data for e in hurt] == [{"target": "trooper", "amount": 6, "source": "han"}]


# --- the autopilot --------------------------------------------------------------------------------


def autopilot(engine: Engine) -> c.Command | None:
    return engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0))


def test_the_autopilot_reckons_a_mind_skill_against_resist_mind() -> None:
    """docs/rulesets/ashes.md#autopilot: it challenges the foe it is most likely to hurt,
    each defending with what the skill is resisted by (#challenges)."""
    engine = fight(ben={"skills": [{"name": "Mind trick", "rating": 5, "resisted_by": "mind",
                                    "damage": 3}]},
                   vader={"resist_body": 9, "resist_mind": 0},
                   trooper={"resist_body": 0, "resist_mind": 9})
    ok(engine, c.StartRound())
    go_to(engine, "ben")
    assert autopilot(engine) == ash.Challenge(fighter_id="ben", target_id="vader",
                                              skill="Mind trick", auxiliaries=True)


def test_the_autopilot_challenges_without_a_skill_when_it_has_none() -> None:
    """docs/rulesets/ashes.md#autopilot: with no skill it can pay for, it challenges
    without the skill."""
    engine = fight(trooper={"skills": []})
    ok(engine, c.StartRound())
    go_to(engine, "trooper")
    command = autopilot(engine)
    assert isinstance(command, ash.Challenge) and command.skill is None


def test_the_autopilot_defends_beyond_six_when_the_coins_decide() -> None:
    """docs/rulesets/ashes.md#challenges: with automatic_beyond_six off the coins decide
    even at -7, so a free defense is still worth taking (#autopilot)."""
    engine = fight(vader={"resist_body": 9})
    ok(engine, c.SetOption(option="automatic_beyond_six", value=False))
    ok(engine, c.StartRound())
    go_to(engine, "trooper")
    ok(engine, ash.Challenge(fighter_id="trooper", target_id="vader", skill="Rifle"))
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == 2 - 9
    command = autopilot(engine)
    assert isinstance(command, c.Contribute) and command.fighter_id == "vader"


def test_the_autopilot_pays_for_the_one_defense_worth_its_speed() -> None:
    """docs/rulesets/ashes.md#autopilot: it pays speed for a defense only when the
    expected damage it saves is at least half a point per speed; a weak defense not worth
    it does not stop it from weighing a stronger one."""
    engine = fight(han={"skills": [{"name": "Blaster", "rating": 7, "damage": 2}]})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    status(engine, "vader").defenses = 1  # the next use costs 1 speed
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == 7 - 4
    # Absorb power (2) saves 0.4 for 1 speed, Saber parry (3) 0.7.
    assert autopilot(engine) == c.Contribute(roll_id=roll.id, fighter_id="vader",
                                             contribution="skill:Saber parry", amount=0)


# --- a second, larger sample ----------------------------------------------------------------------


def test_the_autopilot_flips_at_once_when_beyond_six_is_automatic() -> None:
    """docs/rulesets/ashes.md#challenges: with automatic_beyond_six on (the default) a
    challenge at -7 fails whatever the defender does, so no defense is taken
    (#autopilot)."""
    engine = fight(vader={"resist_body": 9})
    ok(engine, c.StartRound())
    go_to(engine, "trooper")
    ok(engine, ash.Challenge(fighter_id="trooper", target_id="vader", skill="Rifle"))
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == -7
    assert autopilot(engine) == c.MakeRoll(roll_id=roll.id)


def test_a_fighter_at_0_hp_hit_again_is_dead() -> None:
    """docs/rulesets/ashes.md#hit-points: at 0 HP unconscious; below 0, dead."""
    engine = fight()
    ok(engine, c.SetValue(fighter_id="trooper", field="status.hp", value=0))
    ok(engine, ash.Damage(fighter_id="trooper", amount=1))
    assert ("note", "Trooper is dead") in [(e.kind, e.text)
                                            for e in engine.session.log[-1].events]


def test_a_rest_of_minutes_brings_no_hp_and_a_rest_needs_a_time() -> None:
    """docs/rulesets/ashes.md#recovery: HP come back only by the day (1 a day)."""
    engine = fight()
    vader = engine.encounter.fighters["vader"]
    vader.status.hp, vader.status.force = 30, 29
    ok(engine, ash.Recover(fighter_id="vader", quarters=1))
    assert vader.status.hp == 30
    assert engine.session.log[-1].summary == "Vader rests 15 minutes: 1 Force"
    out = engine.apply(ash.Recover(fighter_id="vader"))
    assert out.error == "give the time spent resting"


def test_a_rest_between_fights_restores_the_physical_stats_and_speed() -> None:
    """docs/rulesets/ashes.md#fighter-sheet: HP, Force and the physical stats outlast the
    fight; a full rest brings the sheet's physical stats and speed back."""
    engine = fight()
    sheet = engine.encounter.fighters["vader"].sheet
    values = engine.ruleset.rules.rested_values(sheet)
    assert values["physical"] == {"strength": 3, "agility": 3, "endurance": 3}
    assert values["speed"] == 8


def test_refusals_name_what_is_wrong() -> None:
    """docs/rulesets/ashes.md#free-actions and #skills: an unknown fighter or skill is
    refused by name."""
    engine = fight()
    ok(engine, c.StartRound())
    assert engine.apply(ash.FreeAction(fighter_id="nobody", what="talks")).error == \
        "no fighter 'nobody'"
    out = engine.apply(ash.Challenge(fighter_id="han", target_id="vader", skill="Whip"))
    assert out.error == "Han has no offensive skill 'Whip'"


def test_a_cooperative_action_naming_a_missing_fighter_is_a_state_problem() -> None:
    """docs/rulesets/ashes.md#cooperative-actions: a loaded fight whose cooperative action
    names someone not in it is reported by field."""
    engine = fight()
    engine.encounter.state.cooperative = Cooperative(target_id="ghost")
    assert ("state.cooperative", "names no fighter of this fight: 'ghost'") in \
        engine.ruleset.rules.check_state(engine.encounter)


def test_a_challenge_resisted_by_nothing_meets_the_passive_defense_alone() -> None:
    """docs/rulesets/ashes.md#challenges: the defending total is resist body, resist mind
    or nothing, plus the passive defense; #pumping: the log shows the pumped level."""
    engine = fight(vader={"passive_defense": 2, "burst": 12})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster",
                             resisted_by="none"))
    roll = engine.encounter.state.roll
    assert roll is not None and roll.data["defense"] == 2
    flip_all(engine, "T")
    ok(engine, c.EndRound())
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    ok(engine, ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK", pump=2))
    roll = engine.encounter.state.roll
    assert roll is not None and roll.data["parts"] == "Basic TK 5 (pumped 2)"


def test_the_dc_preview_asks_for_the_difficulty_and_the_defend_form_builds_a_defense() -> None:
    """docs/rulesets/ashes.md#dc-challenges (the difficulty's parts) and #dodge (+1 defense
    per 3 speed, the speed typed on the form)."""
    engine = fight()
    shown = engine.ruleset.views.preview(engine.encounter, "dc", "han", {"skill": "Blaster"})
    assert shown.error == "give the difficulty (at least one part, e.g. 'grip 1')"
    rules = engine.ruleset
    assert rules.views.build_command("defend", "vader", {"defense": "3:skill:Absorb power"}) == \
        c.Contribute(roll_id=3, fighter_id="vader", contribution="skill:Absorb power", amount=0)
    assert rules.views.build_command("defend", "vader", {"defense": "3:dodge", "speed": 6}) == \
        c.Contribute(roll_id=3, fighter_id="vader", contribution="dodge", amount=6)


def test_speed_given_back_says_why() -> None:
    """docs/rulesets/ashes.md#defensive-skills: a defense taken back refunds its speed;
    the round summary reads why from the log line."""
    engine = two_defenses()
    roll = engine.encounter.state.roll
    assert roll is not None
    ok(engine, c.Withdraw(roll_id=roll.id, contribution_id=roll.contributions[-1].id))
    back = [e.data for e in engine.session.log[-1].events if e.kind == "points-gain"]
    assert back == [{"pool": "speed", "amount": 1, "why": "defense taken back"}]


def test_the_action_is_held_before_it_is_used_and_only_for_lower_initiatives() -> None:
    """"Hold your action": not while its challenge waits, not once the offensive action
    is used; the form names only fighters of lower initiative
    (docs/rulesets/ashes.md#holding)."""
    engine = fight()
    assert engine.apply(c.StartRound()).ok
    assert engine.apply(c.HoldTurn(after="vader")).ok  # Han (4) after Vader (2)
    go_to(engine, "ben")
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "ben")
                if f.id == "hold-turn")
    assert form.enabled and form.fields[0].choices == (("vader", "Vader"), ("trooper", "Trooper"))
    assert engine.apply(ash.Challenge(fighter_id="ben", target_id="vader",
                                      skill="Lightsaber")).ok
    assert hold_offered(engine, "ben") == "a challenge is waiting: flip it first"
    assert engine.apply(c.HoldTurn(after="trooper")).error == \
        "Ben cannot hold the turn: a challenge is waiting: flip it first"
    flip_all(engine, "T")
    assert engine.encounter.state.roll is None
    assert hold_offered(engine, "ben") == \
        "already used this round's offensive action (Lightsaber)"
    assert engine.apply(c.HoldTurn(after="trooper")).error == \
        "Ben cannot hold the turn: already used this round's offensive action (Lightsaber)"


def test_the_surprise_round_is_a_round_for_durations() -> None:
    """The text's surprise round is a round of its own ("The next round, Solo goes
    first"): its end ends round 1, and what counts down at the end of each round counts
    then (docs/rulesets/ashes.md#surprise-round)."""
    engine = fight()
    assert engine.apply(ash.SetInitiator(fighter_id="vader")).ok
    assert engine.apply(c.StartFight()).ok
    assert engine.apply(c.AddCondition(fighter_id="han", name="Blinded", duration="rounds",
                                       rounds=2, tick="round-end")).ok
    assert engine.apply(c.NextStep()).ok
    assert engine.encounter.state.stage == "round-over"
    assert [(e.kind, e.text) for e in engine.session.log[-1].events] == [
        ("round-end", "Round 1: every turn is taken"), ("note", "Han: Blinded, 1 round left")]


def test_an_offensive_action_lost_to_the_half_hp_rule_cannot_be_held() -> None:
    """Losing half the HP in a round costs the offensive action, and with it the hold
    (docs/rulesets/ashes.md#holding, docs/rulesets/ashes.md#hit-points)."""
    engine = fight(han={"max_hp": 11})  # half, rounded up: 6
    assert engine.apply(c.StartRound()).ok
    assert engine.apply(ash.Damage(fighter_id="han", amount=6)).ok
    assert hold_offered(engine, "han") == \
        "no offensive action left to hold (lost: reeling from half HP lost this round)"
