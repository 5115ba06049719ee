"""Ashes scenarios with pinned coins (typed in): each rule of docs/rulesets/ashes.md, able
to fail if the rule were wrong."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.odds import challenge_odds
from fightdesk.engine.ruleset import RollView
from fightdesk.engine.rulesets.ashes import commands as ash
from fightdesk.engine.turns import current_fighter, slots

from .fight import coins, fight, flip, flip_all, go_to

# The text's "Probabilities of Success" table, as printed.
TEXT_TABLE = {-6: Fraction(67, 2048), -5: Fraction(56, 1024), -4: Fraction(46, 512),
              -3: Fraction(37, 256), -2: Fraction(29, 128), -1: Fraction(22, 64),
              0: Fraction(16, 32), 1: Fraction(42, 64), 2: Fraction(99, 128),
              3: Fraction(219, 256), 4: Fraction(466, 512), 5: Fraction(968, 1024),
              6: Fraction(1981, 2048)}


def turn_of(engine: Engine) -> str | None:
    return current_fighter(engine.encounter.state.turns)


def status(engine: Engine, fid: str) -> Any:
    return engine.encounter.fighters[fid].status


def roll_view(engine: Engine) -> RollView:
    view = engine.ruleset.views.roll_view(engine.encounter)
    assert view is not None
    return view


def ok(engine: Engine, command: c.Command) -> None:
    out = engine.apply(command)
    assert out.ok, out.error


def defend(engine: Engine, fid: str, kind: str, amount: int = 0) -> str | None:
    roll = engine.encounter.state.roll
    assert roll is not None
    out = engine.apply(c.Contribute(roll_id=roll.id, fighter_id=fid, contribution=kind,
                                    amount=amount))
    return out.error


# --- odds -------------------------------------------------------------------------------------


def test_the_window_shows_the_texts_table_at_every_advantage_from_minus_6_to_6() -> None:
    """The success chance the roll panel shows, for an attack total set so the advantage
    runs -6..+6, equals the text's table exactly."""
    for advantage, chance in TEXT_TABLE.items():
        engine = fight(without=("ben", "trooper"), vader={"resist_body": 10},
                       han={"skills": [{"name": "Gun", "rating": 10 + advantage}]})
        ok(engine, c.StartRound())
        ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Gun"))
        view = engine.ruleset.views.roll_view(engine.encounter)
        assert view is not None and view.odds[0].chance == chance, advantage
        assert view.dice.startswith(f"{7 + abs(advantage)} coins")


def test_odds_update_live_as_defenses_change_the_advantage() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    enc = engine.encounter
    assert roll_view(engine).odds[0].chance == TEXT_TABLE[1]  # Blaster 5 against 4
    assert defend(engine, "vader", "skill:Absorb power") is None
    view = roll_view(engine)
    assert view.odds[0].chance == TEXT_TABLE[-1] and view.total_line.startswith("advantage -1")
    assert view.odds[1].chance == challenge_odds(-1).attacker_critical
    roll = enc.state.roll
    ok(engine, c.Withdraw(roll_id=roll.id, contribution_id=roll.contributions[0].id))
    assert roll_view(engine).odds[0].chance == TEXT_TABLE[1]


def test_beyond_six_the_disfavoured_side_has_no_critical() -> None:
    assert challenge_odds(7).defender_critical == 0 and challenge_odds(7).attacker_critical > 0
    assert challenge_odds(-7).attacker_critical == 0 and challenge_odds(-7).defender_critical > 0
    assert challenge_odds(7, automatic_beyond_six=False).defender_critical == Fraction(1, 2**14)


# --- challenges and the coins ------------------------------------------------------------------


def test_the_log_shows_the_coins_flip_by_flip_and_three_heads_win() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    out = flip(engine, "HHH TTT  TT")  # +1: 6 coins, then 2 for criticals
    texts = [e.text for e in out.entry.events]
    assert "Han: 8 coins for a challenge on Vader with Blaster at +1 typed in " \
           "[H H H T T T T T]" in texts
    assert "Challenge coins at +1: H H H T T T (3 heads, 3 tails); critical coins: T T" in texts
    assert status(engine, "vader").hp == 34  # the Blaster's 6 damage


def test_at_a_negative_advantage_the_defender_needs_three_tails() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "skill:Absorb power") is None  # advantage -1
    flip(engine, "HHHH TT  HH")  # two tails of six: the defender falls short
    assert status(engine, "vader").hp == 34
    go_to(engine, "ben")
    ok(engine, ash.Challenge(fighter_id="ben", target_id="vader", skill="Lightsaber"))  # 4 - 4
    assert defend(engine, "vader", "skill:Saber parry") is None  # -3: 8 coins
    out = flip(engine, "HHHHH TTT  HH")
    assert "Ben challenges Vader with Lightsaber (4 against 4): Vader holds" in \
        [e.text for e in out.entry.events]


def test_all_coins_heads_at_zero_is_a_critical_success_and_all_tails_a_critical_failure() -> None:
    engine = fight(han={"skills": [{"name": "Gun", "rating": 4, "attacks": 2}]})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Gun"))
    out = flip(engine, "HHHHH HH")
    assert "Critical success for Han: the GM says what good comes of it" in \
        [e.text for e in out.entry.events]
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Gun"))
    out = flip(engine, "TTTTT TT")
    assert out.entry.summary.endswith("Vader holds, critical for the defender")
    # Six heads of seven is no critical (7 or more are needed).
    engine = fight(han={"skills": [{"name": "Gun", "rating": 4}]})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Gun"))
    assert flip(engine, "HHHHH HT").entry.summary.endswith("Han wins")


def test_beyond_six_is_automatic_but_the_favoured_side_may_still_crit() -> None:
    engine = fight(han={"skills": [{"name": "Cannon", "rating": 12, "attacks": 2}]})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Cannon"))  # +8
    out = flip(engine, "T" * 15)  # all tails: no defender's critical against an automatic win
    assert out.entry.summary.endswith("Han wins (automatic beyond +/-6)")
    # Fifteen heads: the attacker's critical stands.
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Cannon"))
    out = flip(engine, "H" * 15)
    assert "critical for the attacker" in out.entry.summary


def test_with_the_automatic_rule_off_the_coins_decide_beyond_six() -> None:
    engine = fight(han={"skills": [{"name": "Cannon", "rating": 11}]})
    engine.encounter.options.automatic_beyond_six = False
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Cannon"))  # +7
    out = flip(engine, "HH" + "T" * 12)  # 2 heads of the first 12: Vader holds
    assert out.entry.summary.endswith("Vader holds")


def test_an_offensive_action_without_the_skill_is_at_minus_3() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill=None))
    roll = engine.encounter.state.roll
    assert roll.base == -3 - 1 and roll.data["parts"] == "without the skill -3"


def test_a_mind_challenge_uses_resist_mind() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    go_to(engine, "ben")
    ok(engine, ash.Challenge(fighter_id="ben", target_id="trooper", skill="Mind trick"))
    roll = engine.encounter.state.roll
    assert roll.base == 5 - 0  # the trooper's resist mind is 0
    assert status(engine, "ben").force == 18  # the skill's 2 Force


# --- one offensive action, extra attacks, several rounds ----------------------------------------


def test_one_offensive_action_a_round_but_a_gun_that_shoots_twice_makes_two_challenges() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    flip(engine, "TTTTTT TT")
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    flip(engine, "TTTTTT TT")
    out = engine.apply(ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert out.error == "Han has already used this round's offensive action (Blaster)"
    assert str(engine.apply(ash.Stance(fighter_id="han")).error).startswith("Han has already used")


def test_a_weapon_needing_two_rounds_challenges_on_the_second() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Bowcaster"))
    assert engine.encounter.state.roll is None and status(engine, "han").readied == 1
    ok(engine, c.EndRound())
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Bowcaster"))
    roll = engine.encounter.state.roll
    assert roll is not None and roll.base == 7 - 4
    assert status(engine, "han").readying is None


# --- defensive skills, stance, dodge --------------------------------------------------------------


def test_defensive_uses_cost_0_then_1_then_2_speed_capped_by_burst() -> None:
    engine = fight(vader={"burst": 3})
    ok(engine, c.StartRound())
    vader = engine.encounter.fighters["vader"]
    spent = []
    for attacker, skill in (("han", "Blaster"), ("han", "Blaster"), ("ben", "Lightsaber")):
        go_to(engine, attacker)
        ok(engine, ash.Challenge(fighter_id=attacker, target_id="vader", skill=skill))
        before = vader.status.speed
        assert defend(engine, "vader", "skill:Absorb power") is None
        spent.append(before - vader.status.speed)
        flip_all(engine, "T")
    assert spent == [0, 1, 2]
    assert vader.status.defense_speed == 3 and vader.status.speed == 5
    # The next use would cost 3: past burst 3.
    go_to(engine, "trooper")
    ok(engine, ash.Challenge(fighter_id="trooper", target_id="ben", skill="Rifle"))
    flip_all(engine, "T")
    ok(engine, c.EndRound())
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "skill:Absorb power") is None
    assert defend(engine, "vader", "skill:Saber parry") is None  # second use: 1 speed
    assert vader.status.speed == 7 and vader.status.defenses == 2


def test_past_burst_a_defense_is_refused() -> None:
    engine = fight(vader={"burst": 1})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "skill:Absorb power") is None  # free
    assert defend(engine, "vader", "skill:Saber parry") is None  # 1 speed: burst reached
    flip_all(engine, "H")
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "skill:Absorb power") == \
        "Vader's next defense costs 2 speed: past burst 1 this round"
    assert engine.ruleset.rules.contribution_options(engine.encounter, engine.encounter.state.roll) == ()


def test_only_the_defender_defends_and_a_skill_once_a_challenge() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "ben", "skill:Parry") == "only Vader defends against this challenge"
    assert defend(engine, "vader", "skill:Absorb power") is None
    assert defend(engine, "vader", "skill:Absorb power") == "Absorb power is already on this challenge"


def test_the_stance_gives_up_the_offense_and_makes_three_defenses_free() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    ok(engine, ash.Stance(fighter_id="vader"))
    out = engine.apply(ash.Challenge(fighter_id="vader", target_id="han", skill="Saber strike"))
    assert out.error == ("Vader has already used this round's offensive action "
                         "(defensive stance)")
    ok(engine, c.EndRound())  # the stance lasts the round it was taken in
    vader = engine.encounter.fighters["vader"]
    assert vader.status.free_defenses == 3
    ok(engine, c.StartRound())
    assert vader.status.free_defenses == 0
    go_to(engine, "vader")
    ok(engine, ash.Stance(fighter_id="vader"))
    go_to(engine, "trooper")
    for _ in range(2):
        ok(engine, ash.Challenge(fighter_id="trooper", target_id="vader", skill="Rifle"))
        assert defend(engine, "vader", "skill:Absorb power") is None
        assert defend(engine, "vader", "skill:Saber parry") is None
        flip_all(engine, "T")
        if engine.encounter.state.roll is not None:  # the parry's counter-challenge
            flip_all(engine, "T")
        engine.encounter.fighters["trooper"].status.offense = None
    # Three free uses, then the fourth costs 3 (the count kept running): 0+0+0+3.
    assert vader.status.defenses == 4 and vader.status.speed == 8 - 3


def test_the_stance_cannot_be_taken_once_the_offense_is_spent() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    flip_all(engine, "T")
    out = engine.apply(ash.Stance(fighter_id="han"))
    assert out.error == "Han has already used this round's offensive action (Blaster)"


def test_a_dodge_gives_one_defense_per_three_speed_up_to_burst() -> None:
    engine = fight(vader={"burst": 7, "speed": 10})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "dodge", 0) == \
        "a dodge takes at least 1 speed (+1 defense per 3, rounded down)"
    assert defend(engine, "vader", "dodge", 5) is None  # free use + 5 speed: +1
    roll = engine.encounter.state.roll
    assert roll.total == 1 - 1
    vader = engine.encounter.fighters["vader"]
    assert (vader.status.speed, vader.status.dodge_speed) == (5, 5)
    assert defend(engine, "vader", "skill:Absorb power") is None  # the second use: 1 speed
    flip(engine, "T" * 9)
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "dodge", 3) == \
        "Vader can dodge with 2 more speed this round (burst 7)"


# --- counter-challenges ------------------------------------------------------------------------------


def test_a_successful_parry_answers_with_a_counter_challenge_defended_by_skills_too() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    ok(engine, ash.Challenge(fighter_id="vader", target_id="ben", skill="Saber strike"))  # 6 - 2
    assert defend(engine, "ben", "skill:Parry") is None
    assert defend(engine, "ben", "skill:Deflect") is None
    assert defend(engine, "ben", "dodge", 3) is None
    assert engine.encounter.state.roll.total == 4 - 2 - 1 - 1
    flip(engine, "TTTTT  TT")  # +0: five tails, Ben holds (and crits)
    roll = engine.encounter.state.roll
    assert roll is not None and roll.data["kind"] == "counter"
    assert roll.label == "Ben counter-challenges Vader with Parry (2 against 4)"
    assert engine.ruleset.views.stack(engine.encounter)[0].reacts_to.startswith("Vader challenges Ben")
    assert defend(engine, "vader", "skill:Saber parry") is None  # a counter to the counter
    # 2 - 4 - 3 = -5: 10 coins for the challenge; Vader, favoured, needs 3 tails of them
    # and gets 2: Ben's counter lands (a win for the counter ends the exchange).
    out = flip(engine, "HHHHHHHH TT  HH")
    assert "Ben counter-challenges Vader with Parry (2 against 4): Ben wins" in \
        [e.text for e in out.entry.events]
    assert engine.encounter.state.roll is None


# --- holding, surprise, initiative, timer ------------------------------------------------------------


def test_initiative_order_and_only_a_higher_initiative_may_hold_for_someone() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    assert [s.id for s in slots(engine.encounter.state.turns)] == ["han", "ben", "vader", "trooper"]
    ok(engine, c.HoldTurn(after="vader"))
    assert [s.id for s in slots(engine.encounter.state.turns)] == ["ben", "vader", "han", "trooper"]
    assert turn_of(engine) == "ben"
    out = engine.apply(c.HoldTurn(after="han"))  # Ben 3 against Han 4
    assert out.error == "Ben cannot hold for Han: initiative 3 is not higher than Han's 4"


def test_the_surprise_round_is_for_the_initiators_then_initiative_rounds() -> None:
    engine = fight(ben={"negates_surprise": True})
    ok(engine, ash.SetInitiator(fighter_id="vader"))
    ok(engine, c.StartFight())
    order = engine.encounter.state.turns
    assert [(s.id, [x.id for x in s.slots]) for s in order.sections] == [
        ("surprise", ["ben", "vader"])]
    assert engine.session.log[-1].where == "surprise round, Ben's turn"
    ok(engine, c.NextStep())
    ok(engine, c.NextStep())
    assert engine.encounter.state.stage == "round-over"
    ok(engine, c.StartRound())
    assert engine.encounter.round == 2 and not engine.encounter.state.surprise
    assert turn_of(engine) == "han"


def test_extra_turns_from_skills_come_after_everyones_first_with_an_offensive_action() -> None:
    engine = fight(trooper={"extra_turns": 1})
    ok(engine, c.StartRound())
    assert [s.id for s in slots(engine.encounter.state.turns)] == [
        "han", "ben", "vader", "trooper", "trooper#2"]
    go_to(engine, "trooper")
    ok(engine, ash.Challenge(fighter_id="trooper", target_id="han", skill="Rifle"))
    flip_all(engine, "T")
    ok(engine, c.NextStep())
    assert turn_of(engine) == "trooper"
    ok(engine, ash.Challenge(fighter_id="trooper", target_id="han", skill="Rifle"))


def test_when_the_timer_runs_out_the_turn_passes_with_no_action() -> None:
    engine = fight()
    engine.encounter.options.turn_timer_seconds = 30
    ok(engine, c.StartRound())
    assert engine.ruleset.rules.turn_timer(engine.encounter) == 30
    number = engine.encounter.state.turns.turn_number
    ok(engine, c.TurnTimeout(turn_number=number))
    assert turn_of(engine) == "ben" and status(engine, "han").offense is None
    assert engine.apply(c.TurnTimeout(turn_number=number)).error == "that turn is already over"


# --- movement ----------------------------------------------------------------------------------------


def test_movement_one_metre_free_then_speed_up_to_burst_or_a_second_move() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Move(fighter_id="han", metres=3))  # 1 free + 2 speed
    han = engine.encounter.fighters["han"]
    assert (han.status.speed, han.status.move_speed) == (4, 2)
    out = engine.apply(ash.Move(fighter_id="han", metres=2))
    assert out.error == "Han can pay for 1 more metre(s) this round (burst 3)"
    ok(engine, ash.Move(fighter_id="han", metres=2, second=True))  # its own free metre + 1
    assert (han.status.speed, han.status.offense) == (3, "second move")


# --- cooperative actions -----------------------------------------------------------------------------


def test_a_cooperative_action_resolves_when_the_last_participant_completes_it() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.StartCooperative(fighter_id="han", target_id="vader", skill="Blaster"))
    assert engine.encounter.state.roll is None
    ok(engine, c.NextStep())
    ok(engine, ash.JoinCooperative(fighter_id="ben", skill="Lightsaber", complete=True))
    roll = engine.encounter.state.roll
    assert roll is not None and roll.base == 5 + 4 - 4
    assert roll.data["parts"] == "Han 5 + Ben 4"
    assert engine.encounter.state.cooperative is None


def test_a_cooperative_action_falls_apart_more_than_a_turn_apart() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.StartCooperative(fighter_id="han", target_id="trooper", skill="Blaster"))
    ok(engine, c.NextStep())  # Ben passes
    ok(engine, c.NextStep())
    assert engine.encounter.state.cooperative is None
    assert "falls apart" in " ".join(e.text for e in engine.session.log[-1].events)


# --- pumping, auxiliaries, DC --------------------------------------------------------------------------


def test_pumping_doubles_the_cost_capped_by_burst_and_auxiliaries_stack() -> None:
    engine = fight(vader={"burst": 12})
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    vader = engine.encounter.fighters["vader"]
    ok(engine, ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK", pump=2))
    roll = engine.encounter.state.roll
    assert roll.data["attack"] == 5 and vader.status.force == 30 - 12  # 3, 6, 12
    flip(engine, "T" * (7 + abs(roll.total)))
    ok(engine, c.EndRound())
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    out = engine.apply(ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK", pump=3))
    assert out.error == "pumping Basic TK to 6 costs 24, more than Vader's burst 12"
    ok(engine, ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK",
                             auxiliaries=True))
    roll = engine.encounter.state.roll
    assert roll.data["attack"] == 6 and vader.status.force == 18 - 6  # 6 for 6: a quarter


def test_a_dc_challenge_is_built_from_parts_as_in_the_texts_telekinesis_example() -> None:
    engine = fight(vader={"burst": 5, "skills": [{"name": "Basic TK", "rating": 4, "cost": 4},
                                     {"name": "Personal TK", "rating": 5, "cost": 5,
                                      "auxiliary_to": "Basic TK"}]})
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    ok(engine, ash.DcChallenge(fighter_id="vader", skill="Basic TK", auxiliaries=True,
                               parts=[("grip", 1), ("break grip", 1)], target_id="han"))
    roll = engine.encounter.state.roll
    assert (roll.data["attack"], roll.data["defense"], roll.base) == (9, 5, 4)
    assert roll.data["defense_parts"] == "grip 1 + break grip 1 + Han's resist body 3"
    assert engine.encounter.fighters["vader"].status.force == 30 - 9
    assert defend(engine, "han", "skill:Dodge roll") == "a DC challenge has a fixed difficulty"


# --- hit points ---------------------------------------------------------------------------------------


def test_losing_half_the_hp_in_a_round_costs_the_offensive_action() -> None:
    engine = fight(han={"max_hp": 11})  # half, rounded up: 6
    ok(engine, c.StartRound())
    ok(engine, c.HoldTurn(after="trooper"))
    go_to(engine, "trooper")
    ok(engine, ash.Challenge(fighter_id="trooper", target_id="han", skill="Rifle"))
    flip(engine, "HHHHHH HH")  # Rifle 2 against 3: six heads win; 4 damage of 11
    assert status(engine, "han").offense is None
    ok(engine, ash.Damage(fighter_id="han", amount=2, subdual=True))  # 6 this round
    assert status(engine, "han").offense == "lost: reeling from half HP lost this round"
    ok(engine, c.NextStep())
    assert turn_of(engine) == "han"
    out = engine.apply(ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    assert str(out.error).startswith("Han has already used")


def test_a_fighter_whose_skill_negates_it_keeps_the_action() -> None:
    engine = fight(han={"max_hp": 10, "negates_half_hp": True})
    ok(engine, c.StartRound())
    ok(engine, ash.Damage(fighter_id="han", amount=5))
    assert status(engine, "han").offense is None


def test_zero_hp_unconscious_below_zero_dead_a_physical_stat_at_zero_out() -> None:
    engine = fight()
    rs = engine.ruleset
    ok(engine, ash.Damage(fighter_id="trooper", amount=10))
    trooper = engine.encounter.fighters["trooper"]
    assert rs.rules.is_out(trooper)
    assert [v.text for v in rs.views.card(engine.encounter, "trooper").conditions] == [
        "Unconscious · bleeding out within 5 minutes"]
    ok(engine, ash.Damage(fighter_id="trooper", amount=1))
    assert [v.name for v in rs.views.card(engine.encounter, "trooper").conditions] == ["Dead"]
    han = engine.encounter.fighters["han"]
    assert not rs.rules.is_out(han)
    han.status.physical = {"strength": 0}
    assert rs.rules.is_out(han)



def test_a_challenge_starts_on_a_foe_still_in_the_fight() -> None:
    """Vader out of the fight: Han's Challenge form still lists him (the GM decides), named
    so, and starts on the trooper (it started on the first foe, dead or not)."""
    engine = fight()
    ok(engine, ash.Damage(fighter_id="vader", amount=41))
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "han") if f.id == "act")
    target = next(field for field in form.fields if field.name == "target")
    assert target.choices == (("vader", "Vader (out)"), ("trooper", "Trooper"))
    assert target.default == "trooper"
    ok(engine, ash.Damage(fighter_id="trooper", amount=10))
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "han") if f.id == "act")
    target = next(field for field in form.fields if field.name == "target")
    assert target.default == "vader"  # nobody standing: the first foe, as before

def test_recovery_between_fights() -> None:
    engine = fight()
    vader = engine.encounter.fighters["vader"]
    vader.status.force = 5  # 25 missing
    vader.status.hp = 30
    vader.status.physical = {"strength": 1, "agility": 3, "endurance": 3}
    ok(engine, ash.Recover(fighter_id="vader", quarters=2))
    assert vader.status.force == 5 + 2 * 2 and vader.status.physical["strength"] == 3
    ok(engine, ash.Recover(fighter_id="vader", days=1))
    assert (vader.status.force, vader.status.hp) == (30, 31)


# --- the card -------------------------------------------------------------------------------------------


def test_the_card_shows_speed_left_and_each_burst_used() -> None:
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Move(fighter_id="han", metres=2))
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "dodge", 3) is None
    card = {r.label: (r.value, r.maximum) for r in engine.ruleset.views.card(engine.encounter, "han").resources}
    assert card["Speed"] == (5, 6) and card["Move burst"] == (1, 3) and card["Offense"] == (0, 1)
    assert card["Attacks left"] == (1, None)
    vader = {r.label: (r.value, r.maximum)
             for r in engine.ruleset.views.card(engine.encounter, "vader").resources}
    assert vader["Dodge burst"] == (3, 4) and vader["Defense burst"] == (0, 4)
    assert vader["Speed"] == (5, 8)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_autopilot_plays_a_fight_to_its_end(seed: int) -> None:
    import random

    engine = fight(seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None
        out = engine.apply(command)
        assert out.ok, (command, out.error)
        enc = engine.encounter
        camps = {f.side in ("pc", "ally") for f in enc.fighters.values()
                 if not engine.ruleset.rules.is_out(f)}
        if len(camps) < 2:
            break
    else:
        raise AssertionError("the fight never ended")
    assert coins("HT") == [2, 1]


def test_the_summary_counts_challenges_damage_and_speed_and_shows_coins_as_heads_and_tails() -> None:
    from fightdesk.report import summarize, to_markdown

    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    assert defend(engine, "vader", "skill:Absorb power") is None
    assert defend(engine, "vader", "dodge", 3) is None  # the second use: 1 + 3 speed
    flip(engine, "HHHHHH HH H")  # -2: 7 coins for the challenge, all heads
    summary = summarize(engine.session)
    totals = {t.fighter: t for t in summary.totals}
    assert summary.points_label == "Speed"
    assert (totals["Han"].actions, totals["Han"].damage_dealt) == (1, 6)
    assert (totals["Vader"].damage_taken, totals["Vader"].points_spent) == (6, 4)
    text = to_markdown(summary)
    assert "[H, H, H, H, H, H, H, H, H]" in text


def test_the_simulator_plays_the_demo_and_the_lean_engine_plays_it_alike() -> None:
    from pathlib import Path

    from fightdesk.engine.simulate import play_fight, simulate
    from fightdesk.storage.sessions import load_session

    demo = load_session(Path(__file__).resolve().parents[3] / "resources" / "demo_ashes.json")
    enc_json = demo.encounter.model_dump_json()
    ids = tuple(demo.encounter.order)
    for policy in ("autopilot", "random"):
        lean = play_fight(enc_json, ids, 1, 5, policy, 3)
        full = play_fight(enc_json, ids, 1, 5, policy, 3, make_engine=Engine)
        assert lean == full
    result = simulate(demo, fights=12, seed=7, workers=1)
    assert result is not None and sum(result.wins.values()) + result.draws == 12
    assert result.wins["party"] and result.wins["enemies"]


def test_alone_in_a_fight_a_challenge_has_nobody_to_start_on() -> None:
    engine = fight(without=("ben", "vader", "trooper"))
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "han") if f.id == "act")
    target = next(field for field in form.fields if field.name == "target")
    assert target.choices == () and target.default is None
