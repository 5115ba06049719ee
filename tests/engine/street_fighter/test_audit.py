"""An independent audit of the street-fighter rules against docs/rulesets/street-fighter.md:
one test per rule that no other test would catch if it were wrong. Dice are typed in and
every expected value is worked out by hand from the rule the comment points to."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.dice import Roll
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import LogEntry
from fightdesk.engine.rulesets.street_fighter import commands as sf

from .helpers import (
    SHOUT,
    answer,
    begin,
    die_id,
    faces,
    fighter,
    make_engine,
    ok,
    pending,
    refused,
    same_as_rebuild,
    st,
    texts,
)


def _rolls(entry: LogEntry) -> list[Roll]:
    return [e.roll for e in entry.events if e.roll is not None]


def _to_phase(eng: Engine, phase: int) -> None:
    while eng.encounter.state.phase != phase:
        ok(eng, c.NextStep())


# --- round start -------------------------------------------------------------------------


def test_round_three_gain_is_half_intelligence_rounded_up_for_an_even_score() -> None:
    # docs/rulesets/street-fighter.md#ep-gain: Intelligence in round 1, half of it rounded
    # up later. Intelligence 4: +4, then +2, then +2 (no rounding to 3).
    eng = make_engine(fighter("ryo", intelligence=4, perception=0))
    begin(eng, [[9, 8]])
    assert st(eng, "ryo").ep == 4
    for expected in (6, 8):
        ok(eng, c.EndRound())
        ok(eng, c.StartRound())
        assert st(eng, "ryo").ep == expected
        ok(eng, c.NextStep(dice=[[9, 8]]))


def test_weenie_cannot_buy_dice_and_never_gets_zen_ep() -> None:
    # docs/rulesets/street-fighter.md#weenies: weenies never gain or spend EP, so buying
    # extra dice (2 EP each) is closed to them, and Zen No-Mind gives them nothing.
    zen = {"name": "Zen No-Mind", "special": "zen-no-mind", "technique": "focus",
           "no_damage": True}
    eng = make_engine(fighter("mook", weenie=True, intelligence=4, maneuvers=[zen]))
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    assert (st(eng, "mook").ep, st(eng, "mook").zen_ep) == (0, 0)
    assert "weenie" in refused(eng, sf.BuyDice(fighter_id="mook", count=1))


def test_zen_ep_pay_an_interrupt_before_the_fighters_own() -> None:
    # docs/rulesets/street-fighter.md#zen-no-mind: the 2 temporary EP are kept apart and
    # spent first. Ryu (Intelligence 1) interrupts on his 3 (not the phase: 1 EP) with 1 EP
    # on speed: 2 EP, both from Zen No-Mind; his own 1 EP stays.
    zen = {"name": "Zen No-Mind", "special": "zen-no-mind", "technique": "focus",
           "no_damage": True}
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3, intelligence=1,
                                                     maneuvers=[zen]))
    begin(eng, [[6, 1], [6, 3]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))  # 6 - 1 = 5
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken",
                         die_id=die_id(eng, "ryu", 3), ep_speed=1))  # 3 + 2 + 2 = 7 > 5
    assert (st(eng, "ryu").zen_ep, st(eng, "ryu").ep) == (0, 1)


# --- phases and the held die ----------------------------------------------------------------


def test_a_die_above_perception_for_a_fighter_already_holding_is_lost_but_a_low_one_asks() -> None:
    # docs/rulesets/street-fighter.md#a-die-whose-phase-comes-up: the die acts, is held, or
    # (showing at most Perception) becomes 1 EP; otherwise it is lost, and the conversion is
    # offered first. Ryo (Perception 3) holds his 9; his 3 comes up: no hold offered (one
    # held die at most), only convert or lose.
    eng = make_engine(fighter("ryo", perception=3, dexterity=2, intelligence=0))
    begin(eng, [[9, 3]])
    ok(eng, sf.HoldDie(fighter_id="ryo"))
    _to_phase(eng, 3)
    ok(eng, sf.PassDie(fighter_id="ryo"))
    assert [ch.id for ch in pending(eng).choices] == ["convert", "lose"]
    answer(eng, choice="convert")
    assert st(eng, "ryo").ep == 1 and faces(eng, "ryo", "converted") == [3]


def test_held_die_interrupts_free_at_the_current_phases_speed() -> None:
    # docs/rulesets/street-fighter.md#held-die: it counts as showing the current phase,
    # speed included; docs/rulesets/street-fighter.md#interrupt-cost: a die on the current
    # phase, or the held die, interrupts with any maneuver for free. Ken (Wits 1) holds his
    # 9. In phase 5 Ryu jabs: 5 + 2 = 7. Ken's Short on the held die: 5 + 1 = 6, not above 7
    # (had the held die kept its 9 it would be 10). Ken's Movement: 5 + 3 = 8 > 7, and free:
    # Ken keeps his 2 EP.
    eng = make_engine(fighter("ken", wits=1, dexterity=1, intelligence=2),
                      fighter("ryu", wits=3, dexterity=2, intelligence=0))
    begin(eng, [[9], [9, 5]])
    ok(eng, sf.HoldDie(fighter_id="ken"))
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Movement"))
    ok(eng, sf.ResolveNext())
    _to_phase(eng, 5)
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    error = refused(eng, sf.Interrupt(fighter_id="ken", maneuver="Short", target_id="ryu"))
    assert error == "Ken cannot interrupt: speed 6 is not above Ryu's 7"
    entry = ok(eng, sf.Interrupt(fighter_id="ken", maneuver="Movement"))
    interrupt = next(e for e in entry.events if e.kind == "interrupt")
    assert interrupt.data["speed"] == 8 and interrupt.data["ep"] == 0
    assert st(eng, "ken").ep == 2


def test_interrupt_on_a_later_die_with_an_abort_is_free_and_without_is_one_ep() -> None:
    # docs/rulesets/street-fighter.md#interrupt-cost: any other die costs 1 EP unless the
    # maneuver is an abort. Ryu's 2 in phase 6 against Ken's Jab (6 + 2 = 8): Block (abort)
    # 2 + 4 = 6 is not above 8, so he needs EP on speed: with 2 EP on speed 6 + 4 = 10 > 8 -
    # the abort costs no EP for the die, the 2 speed EP are all he pays.
    eng = make_engine(fighter("ken", wits=1, dexterity=1),
                      fighter("ryu", wits=3, intelligence=3))
    begin(eng, [[6], [6, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    two = die_id(eng, "ryu", 2)
    assert "speed 6 is not above Ken's 8" in refused(
        eng, sf.Interrupt(fighter_id="ryu", maneuver="Block", die_id=two))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Block", die_id=two, ep_speed=2))
    assert st(eng, "ryu").ep == 1


def test_interrupt_equal_to_the_speed_without_ep_is_refused_even_if_the_victim_paid_ep() -> None:
    # docs/rulesets/street-fighter.md#interrupts: valid only if its speed with its EP is
    # strictly above the interrupted move's speed without EP. Ken jabs on a 6 with 2 EP:
    # speed 8 without EP, 12 with. Ryu's Jab on his 6: 8, not above 8 - refused. With 1 EP:
    # 10 > 8, valid, though it resolves after Ken's 12 (the "slower interrupt").
    eng = make_engine(fighter("ken", wits=1, intelligence=2, dexterity=1),
                      fighter("ryu", wits=3, intelligence=1, dexterity=1))
    begin(eng, [[6], [6]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu", ep_speed=2))
    assert "speed 8 is not above Ken's 8" in refused(
        eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken", ep_speed=1))
    assert [r.fighter_id for r in eng.ruleset.views.stack(eng.encounter)] == ["ken", "ryu"]


def test_resolution_ties_go_to_higher_wits_the_opposite_of_the_acting_order() -> None:
    # docs/rulesets/street-fighter.md#resolution-order: ties go to the higher Wits, the
    # opposite direction from the acting order. Ken (Wits 1) acts first in phase 6 (lowest
    # Wits); his Movement 6 + 3 = 9 with 1 EP = 11; Ryu (Wits 3) Movement 6 + 3 + 2 = 11 >
    # 9. Tie at 11: Ryu (higher Wits) resolves first.
    eng = make_engine(fighter("ken", wits=1, dexterity=1), fighter("ryu", wits=3, dexterity=1))
    begin(eng, [[6], [6]])
    assert eng.ruleset.views.round_controls(eng.encounter).status == "Ken to act"
    ok(eng, sf.Act(fighter_id="ken", maneuver="Movement", ep_speed=1))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Movement", ep_speed=1))
    assert [r.fighter_id for r in eng.ruleset.views.stack(eng.encounter)] == ["ryu", "ken"]


def test_interrupting_fighters_faster_own_move_is_kept() -> None:
    # docs/rulesets/street-fighter.md#lost-moves: the interrupter's own moves that resolve
    # after the interrupt are lost - only those after. Ken jabs on a 6 with 2 EP (12). Ryu
    # interrupts with Movement (6 + 3 = 9 > 8). Ken interrupts Ryu's Movement with his 1:
    # Jab 1 + 2 + 2x4 EP = 11 > 9, paying 1 EP for the die. Order: Ken's Jab 12, Ken's 11,
    # Ryu's 9: Ken's act resolves before his interrupt, so nothing of his is lost.
    eng = make_engine(fighter("ken", wits=1, intelligence=7),
                      fighter("ryu", wits=3, intelligence=0, dexterity=1))
    begin(eng, [[6, 1], [6]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu", ep_speed=2))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Movement"))
    ok(eng, sf.Interrupt(fighter_id="ken", maneuver="Jab", target_id="ryu", ep_speed=4))
    assert st(eng, "ken").ep == 0  # 2 + 4 speed EP + 1 for the die
    assert [r.speed for r in eng.ruleset.views.stack(eng.encounter)] == [12, 11, 9]
    entry = ok(eng, sf.ResolveNext())
    assert not texts(entry, "die-lost")


# --- damage --------------------------------------------------------------------------------


def test_ones_do_not_cancel_on_damage_but_cancel_with_the_option() -> None:
    # docs/rulesets/street-fighter.md#successes-and-ones: on damage rolls 1s do not cancel,
    # by option they do. Ken's Fierce: Strength 2 + Punch 2 + 3 - Stamina 2 = 5 dice: 6, 7,
    # 1, 1, 2 -> 2.
    for option, health in ((False, 8), (True, 10)):
        eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                          fighter("ryu", wits=3, intelligence=0, dexterity=1),
                          options={"ones_cancel_on_damage": option})
        begin(eng, [[6], [5]])
        ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
        ok(eng, sf.ResolveNext(dice=[[6, 7, 1, 1, 2]]))
        assert st(eng, "ryu").health == health


def test_damage_pool_minimum_one_die_against_a_block() -> None:
    # docs/rulesets/street-fighter.md#damage-pool: Strength + technique + damage modifier -
    # Stamina (and - Block technique while a block holds), at least 1 die. Ryu blocks (Block
    # 3) on his 9; Ken's Jab on his 6: 2 + 2 - 1 - 2 - 3 = -2 -> 1 die: a 6 -> 1 damage; the
    # block absorbed it: +1 EP for Ryu.
    eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                      fighter("ryu", wits=3, intelligence=0, block=3, dexterity=2))
    begin(eng, [[6], [9, 1]])
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    _to_phase(eng, 6)
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    entry = ok(eng, sf.ResolveNext(dice=[[6]]))
    assert any("= 1 die (minimum one)" in t for t in texts(entry))
    assert st(eng, "ryu").health == 9 and st(eng, "ryu").ep == 1


def test_block_ends_when_the_fighter_next_acts_not_on_a_conversion() -> None:
    # docs/rulesets/street-fighter.md#blocks: a block lasts until the fighter next acts; EP
    # conversions and Willpower for EP are not actions.
    eng = make_engine(fighter("ryu", wits=1, dexterity=3, perception=2, block=3,
                              willpower=3, intelligence=0),
                      fighter("ken", wits=3, dexterity=1))
    begin(eng, [[9, 5, 2], [1]])
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    ok(eng, sf.ConvertDie(fighter_id="ryu", die_id=die_id(eng, "ryu", 2)))
    ok(eng, sf.WillpowerForEp(fighter_id="ryu"))
    assert st(eng, "ryu").block is not None
    _to_phase(eng, 5)
    entry = ok(eng, sf.Act(fighter_id="ryu", maneuver="Movement"))
    assert st(eng, "ryu").block is None
    assert "Ryu's Block ends (acts again)" in texts(entry)


def test_block_ends_with_the_round() -> None:
    eng = make_engine(fighter("ryu", wits=1, dexterity=1, block=3),
                      fighter("ken", wits=3, dexterity=1, perception=0))
    begin(eng, [[9], [1]])
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    entry = ok(eng, c.EndRound())
    assert st(eng, "ryu").block is None and "Ryu's block ends with the round" in texts(entry)
    ended = next(e for e in entry.events if e.text == "Ryu's block ends with the round")
    assert (ended.kind, ended.data) == ("condition-off", {"name": "Blocking"})


def test_ep_damage_dice_are_not_limited_by_the_defender_and_zero_after_removal_misses() -> None:
    # docs/rulesets/street-fighter.md#ep-damage-dice,
    # docs/rulesets/street-fighter.md#removing-damage-dice: the attacker's EP dice come
    # after soak, then the defender removes dice at 1 EP each; no dice left is a miss. Ken's
    # Jab: 1 die + 2 EP dice = 3; Ryu (4 EP) removes all 3: no roll, a miss.
    eng = make_engine(fighter("ken", wits=1, intelligence=2, dexterity=1),
                      fighter("ryu", wits=3, intelligence=4, dexterity=1))
    begin(eng, [[6], [5]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=2, expect="attack-ep")
    assert pending(eng).maximum == 3
    entry = answer(eng, amount=3, expect="defend-ep")
    assert not _rolls(entry) and "Ken's Jab misses Ryu" in texts(entry)
    assert "Ken's Jab has no damage dice left: a miss" in texts(entry)
    assert (st(eng, "ken").ep, st(eng, "ryu").ep, st(eng, "ryu").health) == (0, 1, 10)


def test_stun_with_no_pending_move_takes_the_held_die_as_the_highest() -> None:
    # docs/rulesets/street-fighter.md#stun: the highest unspent die and 1 EP; a held die
    # counts as showing the current phase. Ryu holds his 9 (shows 6 in phase 6) and has a 3.
    # Ken's Fierce (Strength 4, Punch 4: 4 + 4 + 3 - 2 = 9 dice): 6, 6, 6, then 2s -> 3 >
    # Stamina 2: Ryu loses the held die and 1 of his 2 EP.
    eng = make_engine(fighter("ryu", wits=1, dexterity=2, intelligence=2),
                      fighter("ken", wits=3, strength=4, punch=4, intelligence=0,
                              dexterity=1))
    begin(eng, [[9, 3], [6]])
    ok(eng, sf.HoldDie(fighter_id="ryu"))
    _to_phase(eng, 6)
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 6, 2, 2, 2, 2, 2, 2]])
    entry = answer(eng, choice="accept", expect="dodge")
    assert "Ryu's die 6 is lost (stunned)" in texts(entry)
    assert faces(eng, "ryu", "held") == [] and faces(eng, "ryu") == [3]
    assert st(eng, "ryu").ep == 1 and st(eng, "ryu").health == 7


def test_damage_equal_to_stamina_does_not_stun() -> None:
    # docs/rulesets/street-fighter.md#stun: more damage than Stamina in one blow. 2 damage against
    # Stamina 2: no stun, the dice stay.
    eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                      fighter("ryu", wits=3, intelligence=0, dexterity=2))
    begin(eng, [[6], [5, 4]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 2, 2, 2]]))
    assert st(eng, "ryu").health == 8 and faces(eng, "ryu") == [5, 4]
    assert not [t for t in texts(entry) if "stunned" in t]


# --- target numbers ------------------------------------------------------------------------


def test_target_numbers_never_go_above_ten() -> None:
    # docs/rulesets/street-fighter.md#target-numbers: never above 10. Rin recovers chi from round
    # start and concentrates (Power Up, TN 10 - Focus 1 = 9); the combined case puts the
    # concentration roll at 9 + 2 = 11 -> 10: 10, 9 -> 1 EP (at TN 9 it would be 2, at 11
    # none). The recovery roll: TN 8 + 2 = 10: 10, 9 -> chi 1 -> 2.
    eng = make_engine(fighter("rin", perception=2, insight=0, focus=1, dexterity=1,
                              intelligence=0, chi=4, status={"chi": 1}))
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="rin", pool="chi"))
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[6]]))
    ok(eng, sf.Concentrate(fighter_id="rin", concentration="power-up"))
    ok(eng, sf.ResolveNext())
    entry = ok(eng, c.NextStep(dice=[[10, 9]]))
    assert _rolls(entry)[0].purpose == "Power Up (TN 10)"
    assert st(eng, "rin").ep == 1
    assert "TN 10" in pending(eng).prompt
    answer(eng, choice="roll", dice=[[10, 9, 1]])
    assert st(eng, "rin").chi == 2


def test_find_an_angle_uses_the_arena_option_and_find_weakness_never_below_seven() -> None:
    # docs/rulesets/street-fighter.md#concentration-kinds: Find an Angle (Perception +
    # Arena; TN 8 open arena, 7 unusual environment, 6 obstacle-strewn), Find Weakness
    # (Perception + Style Lore, TN 7, the GM may raise it). Obstacle-strewn (6): Ana, 2 +
    # Arena 1 = 3 dice: 6, 6, 5 -> 2 EP. Bo asks Find Weakness at TN 5: kept at 7: 2 + Style
    # Lore 1 = 3 dice: 7, 6, 6 -> 1. Cy raises it to 9: 9, 8, 8 -> 1.
    eng = make_engine(fighter("ana", arena=1, intelligence=0),
                      fighter("bo", style_lore=1, intelligence=0),
                      fighter("cy", style_lore=1, intelligence=0),
                      options={"arena_tn": 6})
    ok(eng, c.StartFight())
    entry = ok(eng, sf.Concentrate(fighter_id="ana", concentration="find-angle",
                                   dice=[[6, 6, 5]]))
    assert _rolls(entry)[0].purpose == "Find an Angle (TN 6)" and st(eng, "ana").ep == 2
    ok(eng, sf.Concentrate(fighter_id="bo", concentration="find-weakness", tn=5,
                           dice=[[7, 6, 6]]))
    assert st(eng, "bo").ep == 1
    ok(eng, sf.Concentrate(fighter_id="cy", concentration="find-weakness", tn=9,
                           dice=[[9, 8, 8]]))
    assert st(eng, "cy").ep == 1


def test_dodge_is_at_plus_two_while_the_defender_recovers_and_ones_cancel() -> None:
    # docs/rulesets/street-fighter.md#recovery: all TNs +2 while recovering; a dodge is one
    # of the "other rolls", where each 1 cancels one success. Ken's Fierce: 5 dice: 6, 6, 6,
    # 2, 2 -> 3. Ryu dodges at TN 8: 8, 7 -> 1 (7 would count at TN 6); then 9, 1 -> 1 - 1 =
    # 0. Ryu takes 2.
    eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                      fighter("ryu", wits=3, intelligence=2, willpower=5, stamina=2,
                              dexterity=1, status={"willpower": 3}))
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="ryu", pool="willpower"))
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[6], [5]]))
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 6, 2, 2]])
    assert "TN 8" in pending(eng).prompt
    answer(eng, choice="dodge", dice=[[8, 7]])
    answer(eng, choice="dodge", dice=[[9, 1]])
    assert st(eng, "ryu").health == 8 and st(eng, "ryu").ep == 0


def test_recovery_ignores_ones_and_counts_minutes_of_rounds() -> None:
    # docs/rulesets/street-fighter.md#recovery: 1s ignored; TN by time spent (1 round TN 8,
    # 1 minute 7, ...), seconds per round an option (default 3). 20 rounds of 3 s = 1
    # minute: TN 7. With 30 s rounds, 2 rounds = 1 minute as well. Rin is 2 down: 7, 1 -> 1
    # (the 1 is ignored). She did nothing: no +2.
    eng = make_engine(fighter("rin", dexterity=1, intelligence=0, chi=4, status={"chi": 2}),
                      options={"seconds_per_round": 30})
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="rin", pool="chi"))
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[9]]))
    ok(eng, c.EndRound())
    answer(eng, choice="continue", expect="recover-rin")
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[9]]))
    ok(eng, c.EndRound())
    assert "TN 7" in pending(eng).prompt
    answer(eng, choice="roll", dice=[[7, 1]])
    assert st(eng, "rin").chi == 3


# --- opposed rolls -------------------------------------------------------------------------


def test_intimidation_ones_cancel_and_a_tie_costs_nothing() -> None:
    # docs/rulesets/street-fighter.md#intimidation-and-deception: each net success costs 1
    # EP; on these rolls each 1 cancels one success. Ivo: 2 + 2 = 4 dice: 7, 8, 1, 3 -> 2 -
    # 1 = 1. Tom's Willpower 3: 6, 2, 2 -> 1. Net 0: Tom keeps his 3 EP.
    eng = make_engine(fighter("ivo", wits=1, charisma=2, intimidation=2, dexterity=1),
                      fighter("tom", wits=3, willpower=3, intelligence=3, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom"))
    ok(eng, sf.ResolveNext(dice=[[7, 8, 1, 3], [6, 2, 2]]))
    assert st(eng, "tom").ep == 3


def test_deception_in_the_round_uses_wits_plus_insight() -> None:
    # docs/rulesets/street-fighter.md#intimidation-and-deception: Manipulation + Subterfuge against
    # Wits + Insight.
    # Dee: 3 + 2 = 5 dice: 6, 6, 6, 2, 2 -> 3. Tom: Wits 3 + Insight 1 = 4 dice: 6, 2, 2, 2
    # -> 1. Net 2: Tom loses 2 of 3 EP.
    eng = make_engine(fighter("dee", wits=1, manipulation=3, subterfuge=2, dexterity=1),
                      fighter("tom", wits=3, insight=1, intelligence=3, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, sf.Deceive(fighter_id="dee", target_id="tom"))
    ok(eng, sf.ResolveNext(dice=[[6, 6, 6, 2, 2], [6, 2, 2, 2]]))
    assert st(eng, "tom").ep == 1


def test_stunning_shout_without_a_pending_move_takes_the_highest_die() -> None:
    # docs/rulesets/street-fighter.md#stunning-shout: the first net success costs the
    # pending move if there is one, otherwise the highest die; each further one costs 1 EP.
    # Sid shouts on his 6 (Wits 3 + Focus 2 = 5 dice): 6, 6, 2, 2, 2 -> 2; Tom's Willpower
    # 2: 2, 3 -> 0. Net 2: Tom's highest die (5, not 3) and 1 EP.
    eng = make_engine(fighter("sid", wits=3, focus=2, dexterity=1, maneuvers=[SHOUT]),
                      fighter("tom", wits=1, willpower=2, intelligence=3))
    begin(eng, [[6], [5, 3]])
    ok(eng, sf.Act(fighter_id="sid", maneuver="Stunning Shout", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 2, 2, 2], [2, 3]]))
    assert "Tom's die 5 is lost (Stunning Shout)" in texts(entry)
    assert faces(eng, "tom") == [3] and st(eng, "tom").ep == 2
    assert same_as_rebuild(eng)


def test_converting_the_die_the_question_is_about_answers_it_once() -> None:
    # docs/rulesets/street-fighter.md#turning-a-die-into-ep: a die whose phase comes up may
    # become 1 EP if it shows at most Perception. Turning the die into EP with the convert
    # command while the question about it waits answers the question: 1 EP for the die, not
    # 2.
    eng = make_engine(fighter("ryo", perception=3, dexterity=2, intelligence=0))
    begin(eng, [[3, 2]])
    ok(eng, c.NextStep())  # Ryo does not act with the 3: hold, convert or lose?
    decision = pending(eng)
    ok(eng, sf.ConvertDie(fighter_id="ryo", die_id=die_id(eng, "ryo", 3)))
    assert eng.pending() is None and st(eng, "ryo").ep == 1
    assert "nothing is waiting" in refused(
        eng, c.Answer(decision_id=decision.id, choice="convert"))
    assert eng.encounter.state.pass_number == 1
    assert same_as_rebuild(eng)


def test_converting_at_the_end_of_round_question_goes_on_with_the_round_end() -> None:
    # The same at the end of the round: the conversion answers the question and the end of
    # the round goes on (the 2 is asked about next, then the round is over).
    eng = make_engine(fighter("ryo", perception=3, dexterity=2, intelligence=0))
    begin(eng, [[3, 2]])
    ok(eng, c.EndRound())
    assert "die 3" in pending(eng).prompt
    ok(eng, sf.ConvertDie(fighter_id="ryo", die_id=die_id(eng, "ryo", 3)))
    assert "die 2" in pending(eng).prompt
    answer(eng, choice="convert")
    assert st(eng, "ryo").ep == 2 and eng.encounter.state.stage == "round-over"


def test_a_block_with_block_technique_zero_absorbs_nothing_and_gives_no_ep() -> None:
    # docs/rulesets/street-fighter.md#blocks: a block lasts until it has absorbed as many
    # attacks as the fighter's Block technique. Block 0: no attack is absorbed, so no +1 EP.
    # Ken's Jab: 2 + 2 - 1 - Stamina 2 = 1 die: a 6 -> 1.
    eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                      fighter("ryu", wits=3, intelligence=0, block=0, dexterity=2))
    begin(eng, [[6], [9, 1]])
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    _to_phase(eng, 6)
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    ok(eng, sf.ResolveNext(dice=[[6]]))
    assert st(eng, "ryu").health == 9 and st(eng, "ryu").ep == 0


def test_a_weenie_may_interrupt_on_a_later_die_with_an_abort() -> None:
    # docs/rulesets/street-fighter.md#interrupt-cost: any other die costs 1 EP unless the
    # maneuver is an abort; docs/rulesets/street-fighter.md#weenies: weenies never spend EP,
    # so an abort is the one interrupt a weenie can make on a later die. Ken's Fierce on a
    # 6: 6 - 1 = 5. The mook's Block on its 2: 2 + 4 = 6 > 5, free.
    eng = make_engine(fighter("ken", wits=1, dexterity=1),
                      fighter("mook", wits=4, weenie=True))
    begin(eng, [[6], [2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="mook"))
    entry = ok(eng, sf.Interrupt(fighter_id="mook", maneuver="Block"))
    interrupt = next(e for e in entry.events if e.kind == "interrupt")
    assert interrupt.data["speed"] == 6 and interrupt.data["ep"] == 0
    assert st(eng, "mook").ep == 0 and faces(eng, "mook", "spent") == [2]
