"""Rules a mutation run of the street-fighter engine found that no test pinned: each test
here fails when its rule is changed the way the surviving mutant changed it
(docs/testing.md "Mutation testing"). Dice are typed in; every expected value is worked
out by hand from the section of docs/rulesets/street-fighter.md the docstring names."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.dice import Roll
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import LogEntry
from fightdesk.engine.rulesets.street_fighter import commands as sf
from fightdesk.engine.rulesets.street_fighter.checks import (
    MAX_BOUGHT_DICE,
    MAX_COUNTER,
    MAX_DICE,
    MAX_POOL,
    MAX_ROUND,
    MAX_STACK,
    state_problems,
)
from fightdesk.engine.rulesets.street_fighter.model import ActionDie, Move, Task

from .helpers import (
    BEAR_HUG,
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
    st,
    texts,
)

POOLS = ("health", "chi", "willpower", "ep", "zen_ep", "ep_debt")


def _rolls(entry: LogEntry) -> list[Roll]:
    return [e.roll for e in entry.events if e.roll is not None]


def test_the_convert_button_takes_a_die_showing_exactly_perception() -> None:
    """A die showing Perception itself turns into EP, also when the die is not named
    (docs/rulesets/street-fighter.md#turning-a-die-into-ep)."""
    # Ryo (Perception 3, no EP) has a 9 and a 3: the button picks the 3.
    eng = make_engine(fighter("ryo", perception=3, intelligence=0, wits=1), fighter("ken"))
    begin(eng, [[9, 3], [5, 4]])
    ok(eng, sf.ConvertDie(fighter_id="ryo"))
    assert st(eng, "ryo").ep == 1 and faces(eng, "ryo", "converted") == [3]
    assert faces(eng, "ryo") == [9]


def test_a_fighters_own_pending_block_is_kept_when_they_interrupt() -> None:
    """Interrupting loses the fighter's own slower pending moves, but never a block
    (docs/rulesets/street-fighter.md#lost-moves)."""
    # Ken blocks on his 6 (6 + 4 = 10). Ryu interrupts with a Jab on his 6 and 2 EP (6 + 2 +
    # 4 = 12 > 10). Ken interrupts that with a Jab on his 3 and 3 EP (3 + 2 + 6 = 11 > 8; 1
    # EP for the die). Order: Ryu's Jab 12, Ken's Jab 11, Ken's Block 10: the block resolves
    # after Ken's interrupt and is kept.
    eng = make_engine(fighter("ken", wits=1, intelligence=4), fighter("ryu", wits=3))
    begin(eng, [[6, 3], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Block"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken", ep_speed=2))
    ok(eng, sf.Interrupt(fighter_id="ken", maneuver="Jab", target_id="ryu", ep_speed=3))
    assert [r.speed for r in eng.ruleset.views.stack(eng.encounter)] == [12, 11, 10]
    entry = ok(eng, sf.ResolveNext())
    assert not texts(entry, "die-lost")
    block = next(m for m in eng.encounter.state.stack if m.is_block)
    assert block.open and not block.lost


def test_a_fighter_cannot_interrupt_their_own_move() -> None:
    """An interrupt is against someone else's pending move
    (docs/rulesets/street-fighter.md#interrupts)."""
    eng = make_engine(fighter("ken", wits=1, intelligence=4), fighter("ryu", wits=3))
    begin(eng, [[6, 3], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    error = refused(eng, sf.Interrupt(fighter_id="ken", maneuver="Jab", target_id="ryu",
                                      ep_speed=2))
    assert error == "Ken cannot interrupt their own move"


def test_a_stun_takes_the_victims_move_that_would_resolve_next() -> None:
    """A stun loses one pending move of the victim: the next of theirs to resolve
    (docs/rulesets/street-fighter.md#stun)."""
    # Ryu jabs on his 6 (8). Ken interrupts with a Fierce on his 6 and 2 EP (6 - 1 + 4 = 9 >
    # 8). Ryu interrupts the Fierce with a Jab on his 5 (5 + 2 = 7 > 5; 1 EP for the die).
    # Order: Ken's Fierce 9, Ryu's Jab 8, Ryu's Jab 7. The Fierce: 2 + 2 + 3 - 2 = 5 dice:
    # 6, 6, 6, 2, 2 -> 3 > Stamina 2: Ryu is stunned and loses the Jab 8 (not the 7) and
    # his last EP.
    eng = make_engine(fighter("ryu", wits=1, dexterity=2), fighter("ken", wits=3))
    begin(eng, [[6, 5], [6, 1]])
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    ok(eng, sf.Interrupt(fighter_id="ken", maneuver="Fierce", target_id="ryu", ep_speed=2))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert [r.speed for r in eng.ruleset.views.stack(eng.encounter)] == [9, 8, 7]
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 6, 2, 2]])
    answer(eng, choice="accept", expect="dodge")
    ryus = {m.speed_base: m for m in eng.encounter.state.stack if m.fighter_id == "ryu"}
    assert ryus[8].lost and not ryus[7].lost
    assert st(eng, "ryu").ep == 0 and st(eng, "ryu").health == 7


def test_power_up_is_at_ten_minus_focus_and_never_below_two() -> None:
    """Power Up: Perception + Insight at TN 10 - Focus; TNs stay between 2 and 10
    (docs/rulesets/street-fighter.md#concentration-kinds,
    docs/rulesets/street-fighter.md#target-numbers)."""
    # Focus 3: TN 7; 2 + 1 = 3 dice: 7, 7, 6 -> 2 EP. Focus 9: TN 2 (not 1): 2, 3, 5 -> 3.
    eng = make_engine(fighter("rin", perception=2, insight=1, focus=3, intelligence=0),
                      fighter("ota", perception=2, insight=1, focus=9, intelligence=0))
    ok(eng, c.StartFight())
    entry = ok(eng, sf.Concentrate(fighter_id="rin", concentration="power-up",
                                   dice=[[7, 7, 6]]))
    assert _rolls(entry)[0].purpose == "Power Up (TN 7)" and st(eng, "rin").ep == 2
    entry = ok(eng, sf.Concentrate(fighter_id="ota", concentration="power-up",
                                   dice=[[2, 3, 5]]))
    assert _rolls(entry)[0].purpose == "Power Up (TN 2)" and st(eng, "ota").ep == 3


def test_intimidation_rolls_against_current_willpower() -> None:
    """Charisma + Intimidation against the target's current Willpower, not the sheet's
    (docs/rulesets/street-fighter.md#intimidation-and-deception)."""
    # Ivo: 2 + 2 = 4 dice: 6, 6, 6, 2 -> 3. Tom has 2 of his 5 Willpower left: 6, 6 -> 2.
    # Net 1: Tom loses 1 of his 3 EP.
    eng = make_engine(fighter("ivo", wits=1, charisma=2, intimidation=2, dexterity=1),
                      fighter("tom", wits=3, willpower=5, intelligence=3, dexterity=1,
                              status={"willpower": 2}))
    begin(eng, [[6], [2]])
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 6, 2], [6, 6]]))
    assert [len(r.faces) for r in _rolls(entry)] == [4, 2]
    assert st(eng, "tom").ep == 2


def test_a_tie_when_breaking_free_keeps_the_hold() -> None:
    """Breaking free is an opposed Strength roll the held fighter must win; a tie keeps
    the hold (docs/rulesets/street-fighter.md#breaking-free)."""
    # Hal's Bear Hug: 3 + 2 + 2 - 2 = 5 dice: 6, 2, 2, 2, 2 -> 1: Vic is held. Vic's
    # Strength 2: 6, 2 -> 1; Hal's Strength 3: 6, 2, 2 -> 1. A tie: still held.
    eng = make_engine(
        fighter("hal", wits=1, dexterity=3, strength=3, grab=2, intelligence=0,
                maneuvers=[BEAR_HUG]),
        fighter("vic", wits=3, dexterity=2, intelligence=0),
    )
    begin(eng, [[8, 6, 4], [7, 5]])
    ok(eng, sf.Act(fighter_id="hal", maneuver="Bear Hug", target_id="vic"))
    ok(eng, sf.ResolveNext(dice=[[6, 2, 2, 2, 2]]))
    ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="vic", action="break-free"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 2], [6, 2, 2]]))
    assert "Vic fails to break free" in texts(entry)
    assert st(eng, "hal").holding is not None


def test_plus_two_lands_on_the_recovering_fighters_own_side_of_an_opposed_roll() -> None:
    """In an opposed roll each side rolls at their own TN: the +2 of a recovering (or
    concentrating) fighter is on their side only
    (docs/rulesets/street-fighter.md#target-numbers)."""
    # Ivo recovers Willpower (TN 8 on his rolls) and intimidates Tom (TN 6): Ivo 8, 7, 6,
    # 6 -> 1; Tom 6, 2 -> 1: a tie. Then Tom recovers too, and Ivo intimidates again with
    # Tom at TN 8: Ivo 8, 8, 7, 2 -> 2; Tom 7, 6 -> 0: Tom loses 2 EP.
    eng = make_engine(fighter("ivo", wits=1, charisma=2, intimidation=2, dexterity=2,
                              willpower=5, status={"willpower": 4}),
                      fighter("tom", wits=3, willpower=5, intelligence=3, dexterity=1,
                              status={"willpower": 2}))
    begin(eng, [[6, 5], [2]])
    ok(eng, sf.StartRecovery(fighter_id="ivo", pool="willpower"))
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[8, 7, 6, 6], [6, 2]]))
    assert [r.purpose for r in _rolls(entry)] == [
        "intimidation (TN 8)", "Willpower against intimidation (TN 6)"]
    assert st(eng, "tom").ep == 3
    ok(eng, sf.StartRecovery(fighter_id="tom", pool="willpower"))
    ok(eng, c.NextStep())
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[8, 8, 7, 2], [7, 6]]))
    assert [r.purpose for r in _rolls(entry)] == [
        "intimidation (TN 8)", "Willpower against intimidation (TN 8)"]
    assert st(eng, "tom").ep == 1


def test_phase_one_with_a_held_die_ends_the_round_next() -> None:
    """A held die keeps every phase down to 1 coming, and after phase 1 the round ends
    (docs/rulesets/street-fighter.md#held-die, docs/rulesets/street-fighter.md#end-of-round)."""
    # Ken holds his 3 in phase 3; phases 2 and 1 come although no die shows them.
    eng = make_engine(fighter("ken", wits=1, perception=1, dexterity=1),
                      fighter("ryu", wits=3, dexterity=1))
    begin(eng, [[3], [3]])
    ok(eng, sf.HoldDie(fighter_id="ken"))
    ok(eng, c.NextStep())  # Ryu lets his 3 go ...
    answer(eng, choice="lose")
    ok(eng, c.NextStep())
    assert eng.encounter.state.phase == 2
    ok(eng, c.NextStep())
    assert eng.encounter.state.phase == 1
    ok(eng, c.NextStep())
    assert eng.encounter.state.stage == "round-end"
    assert eng.encounter.state.phase == 1


def test_a_defender_removes_at_most_the_dice_in_the_pool() -> None:
    """The defender removes damage dice at 1 EP each, at most the dice in the pool
    (docs/rulesets/street-fighter.md#removing-damage-dice)."""
    # Ken's Fierce: 2 + 2 + 3 - 2 = 5 dice; Ryu has 7 EP: he may remove 5, not 6.
    eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                      fighter("ryu", wits=3, intelligence=7, dexterity=1))
    begin(eng, [[6], [5]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    decision = pending(eng)
    assert "defend-ep" in decision.id and decision.maximum == 5
    assert refused(eng, c.Answer(decision_id=decision.id, amount=6)) == \
        "answer between 0 and 5"
    answer(eng, amount=5, expect="defend-ep")
    assert st(eng, "ryu").ep == 2 and st(eng, "ryu").health == 10


FLAME_FIST = {"name": "Flame Fist", "special": "flame-fist", "technique": "focus",
              "no_damage": True, "effect_damage": 1}
TOUGHSKIN = {"name": "Toughskin", "special": "toughskin", "technique": "focus",
             "no_damage": True, "effect_soak": 1}


def test_flame_fist_counts_down_its_attacks_and_leaves_other_effects_alone() -> None:
    """Flame Fist lasts Focus attacks of its fighter; Toughskin counts only the attacks
    its fighter receives (docs/rulesets/street-fighter.md#flame-fist-and-toughskin)."""
    # Ana (Focus 2) switches on both and attacks: Flame Fist has 1 attack left, Toughskin
    # still 2; her second attack uses Flame Fist up.
    eng = make_engine(fighter("ana", wits=1, dexterity=2, intelligence=0, focus=2,
                              maneuvers=[FLAME_FIST, TOUGHSKIN]),
                      fighter("bo", wits=3, dexterity=1, intelligence=0))
    begin(eng, [[8, 7], [1]])
    ok(eng, sf.ActivateEffect(fighter_id="ana", maneuver="Flame Fist"))
    ok(eng, sf.ActivateEffect(fighter_id="ana", maneuver="Toughskin"))
    ok(eng, sf.Act(fighter_id="ana", maneuver="Strong", target_id="bo"))
    ok(eng, sf.ResolveNext(dice=[[1, 1, 1, 1]]))
    assert {e.name: e.attacks_left for e in st(eng, "ana").effects} == \
        {"Flame Fist": 1, "Toughskin": 2}
    ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="ana", maneuver="Strong", target_id="bo"))
    entry = ok(eng, sf.ResolveNext(dice=[[1, 1, 1, 1]]))
    assert "Ana's Flame Fist ends (its attacks are used up)" in texts(entry)
    assert {e.name: e.attacks_left for e in st(eng, "ana").effects} == {"Toughskin": 2}


def test_a_block_and_a_hold_can_be_dropped() -> None:
    """A block and a sustained hold may be dropped at any time
    (docs/rulesets/street-fighter.md#blocks, docs/rulesets/street-fighter.md#sustained-holds)."""
    eng = make_engine(
        fighter("hal", wits=1, dexterity=3, strength=3, grab=2, intelligence=0,
                maneuvers=[BEAR_HUG]),
        fighter("vic", wits=3, dexterity=2, intelligence=0),
    )
    begin(eng, [[8, 6, 4], [8, 5]])
    ok(eng, sf.Act(fighter_id="hal", maneuver="Bear Hug", target_id="vic"))
    ok(eng, sf.ResolveNext(dice=[[6, 2, 2, 2, 2]]))
    assert st(eng, "hal").holding is not None
    ok(eng, sf.Act(fighter_id="vic", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    assert st(eng, "vic").block is not None
    entry = ok(eng, sf.DropEffect(fighter_id="vic", name="block"))
    assert st(eng, "vic").block is None and "Vic drops the block" == entry.summary
    entry = ok(eng, sf.DropEffect(fighter_id="hal", name="hold"))
    assert st(eng, "hal").holding is None and entry.summary == "Hal lets go of Vic"
    assert [(e.kind, e.fighter_id) for e in entry.events] == [("condition-off", "hal")]


def test_an_intimidation_before_round_one_is_taken_off_round_ones_ep() -> None:
    """Before round 1 the target may have no EP yet: what they cannot lose comes off their
    round 1 gain (docs/rulesets/street-fighter.md#intimidation-and-deception)."""
    # Ivo: 4 dice: 6, 6, 6, 2 -> 3; Tom's Willpower 2: 2, 3 -> 0. Net 3; Tom has 0 EP: a
    # debt of 3, paid from his round 1 gain of Intelligence 4: 1 EP left.
    eng = make_engine(fighter("ivo", wits=1, charisma=2, intimidation=2, dexterity=1),
                      fighter("tom", wits=3, willpower=2, intelligence=4, dexterity=1))
    ok(eng, c.StartFight())
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom", dice=[[6, 6, 6, 2], [2, 3]]))
    assert st(eng, "tom").ep_debt == 3
    ok(eng, c.StartRound())
    assert st(eng, "tom").ep == 1 and st(eng, "tom").ep_debt == 0


def test_the_convert_button_takes_the_held_die_at_the_current_phase() -> None:
    """A held die shows the current phase, so the convert button can turn it into EP once
    the phase is at most Perception (docs/rulesets/street-fighter.md#held-die,
    docs/rulesets/street-fighter.md#turning-a-die-into-ep)."""
    eng = make_engine(fighter("ryo", perception=3, intelligence=0, wits=1, dexterity=1),
                      fighter("ken", wits=3, dexterity=1))
    begin(eng, [[9], [3]])
    ok(eng, sf.HoldDie(fighter_id="ryo"))
    assert "at most Perception 3" in refused(eng, sf.ConvertDie(fighter_id="ryo"))
    while eng.encounter.state.phase != 3:
        ok(eng, c.NextStep())
    ok(eng, sf.ConvertDie(fighter_id="ryo"))
    assert st(eng, "ryo").ep == 1 and faces(eng, "ryo", "converted") == [9]


def test_intimidation_in_the_round_spends_the_die_the_gm_names() -> None:
    """An action spends the die named for it, here the held die rather than the one on the
    phase (docs/rulesets/street-fighter.md#acting, docs/rulesets/street-fighter.md#held-die)."""
    eng = make_engine(fighter("ivo", wits=1, charisma=2, intimidation=2, dexterity=2),
                      fighter("tom", wits=3, intelligence=0, dexterity=1))
    begin(eng, [[9, 6], [2]])
    ok(eng, sf.HoldDie(fighter_id="ivo"))
    while eng.encounter.state.phase != 6:
        ok(eng, c.NextStep())
    held = next(d.id for d in st(eng, "ivo").dice if d.state == "held")
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom", die_id=held))
    assert faces(eng, "ivo", "spent") == [9] and faces(eng, "ivo") == [6]


def test_ep_gained_while_the_defender_is_asked_raises_the_dice_they_may_remove() -> None:
    """The defender removes up to their EP in dice: EP gained while the question waits
    raise the most they may remove (docs/rulesets/street-fighter.md#removing-damage-dice)."""
    # Ken's Fierce: 5 dice. Ryu has 1 EP; turning his 2 into EP makes it 2.
    eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                      fighter("ryu", wits=3, intelligence=1, dexterity=2, perception=2))
    begin(eng, [[6], [5, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    assert pending(eng).maximum == 1
    ok(eng, sf.ConvertDie(fighter_id="ryu"))
    decision = pending(eng)
    assert "defend-ep" in decision.id and decision.maximum == 2


def test_cancelling_an_interrupt_gives_back_the_recoverys_did_nothing() -> None:
    """Cancelled interrupts take back what declaring them did, also the recovering
    fighter's "did something" (+2 on the recovery roll)
    (docs/rulesets/street-fighter.md#cancelling-interrupts,
    docs/rulesets/street-fighter.md#recovery)."""
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3, willpower=5,
                                                       status={"willpower": 3}))
    begin(eng, [[6, 3], [6, 1]])
    ok(eng, sf.StartRecovery(fighter_id="ryu", pool="willpower"))
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert st(eng, "ryu").recovery.did_something
    ok(eng, sf.CancelInterrupts())
    assert not st(eng, "ryu").recovery.did_something


FOOT_SWEEP = {"name": "Foot Sweep", "technique": "kick", "speed": -1, "damage": 2,
              "knockdown": True}
KIPPUP = {"name": "Kippup", "special": "kippup", "technique": "athletics", "no_damage": True}


def test_with_kippup_a_fighter_may_still_stand_up_by_spending_the_highest_die() -> None:
    """Knocked down with Kippup and EP, the fighter chooses: 1 EP or the highest die
    (docs/rulesets/street-fighter.md#knockdown)."""
    # As test_damage.py's Kippup test, but Ken spends the die: his 4 (the highest left).
    eng = make_engine(fighter("ken", wits=1, dexterity=3, maneuvers=[KIPPUP]),
                      fighter("ryu", wits=3, strength=3, kick=3, maneuvers=[FOOT_SWEEP]))
    begin(eng, [[6, 4, 2], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Foot Sweep", target_id="ken", ep_speed=1))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="attack-ep")
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 5, 4, 3, 2]])
    answer(eng, choice="accept", expect="dodge")
    entry = answer(eng, choice="die", expect="stand-ken")
    assert "Ken stands up spending the die 4" in texts(entry)
    assert st(eng, "ken").ep == 2 and faces(eng, "ken") == [2]


def test_a_stunning_shout_needs_a_target() -> None:
    """Stunning Shout does no damage but is aimed at someone
    (docs/rulesets/street-fighter.md#stunning-shout)."""
    eng = make_engine(fighter("sid", wits=1, focus=2, dexterity=1, maneuvers=[SHOUT]),
                      fighter("tom", wits=3, dexterity=1))
    begin(eng, [[6], [2]])
    assert refused(eng, sf.Act(fighter_id="sid", maneuver="Stunning Shout")) == \
        "Sid: choose a target for Stunning Shout"


def test_find_weakness_in_the_round_keeps_the_tn_the_gm_raised() -> None:
    """The GM may raise Find Weakness's TN on each use, also during a round
    (docs/rulesets/street-fighter.md#concentration-kinds)."""
    # Bo concentrates on his 6 at TN 9; at the end of the round 2 + Style Lore 1 = 3 dice:
    # 9, 8, 8 -> 1 EP (3 at TN 7).
    eng = make_engine(fighter("bo", wits=1, style_lore=1, intelligence=0, dexterity=1),
                      fighter("tom", wits=3, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, sf.Concentrate(fighter_id="bo", concentration="find-weakness", tn=9))
    ok(eng, sf.ResolveNext())
    assert st(eng, "bo").concentration.tn == 9
    ok(eng, c.EndRound())
    entry = answer(eng, choice="lose", dice=[[9, 8, 8]])  # Tom's 2, left over
    assert [r.purpose for r in _rolls(entry)] == ["Find Weakness (TN 9)"]
    assert st(eng, "bo").ep == 1


def test_an_interrupt_without_a_named_die_spends_the_highest() -> None:
    """With no die on the phase and none held, an interrupt spends the fighter's highest
    die, at 1 EP (docs/rulesets/street-fighter.md#interrupts,
    docs/rulesets/street-fighter.md#interrupt-cost)."""
    # Ken's Fierce on his 9 (8). Ryu has a 7 and a 3: the 7 + 2 = 9 > 8.
    eng = make_engine(fighter("ken", wits=1, dexterity=1), fighter("ryu", wits=3))
    begin(eng, [[9], [7, 3]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert faces(eng, "ryu", "spent") == [7] and st(eng, "ryu").ep == 1


def test_concentration_ends_with_the_round() -> None:
    """Concentration lasts the round: its +2 is gone once the round is over
    (docs/rulesets/street-fighter.md#concentration)."""
    eng = make_engine(fighter("bo", wits=1, style_lore=1, intelligence=0, dexterity=1),
                      fighter("tom", wits=3, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, sf.Concentrate(fighter_id="bo", concentration="find-weakness"))
    ok(eng, sf.ResolveNext())
    ok(eng, c.EndRound())
    answer(eng, choice="lose")
    assert eng.encounter.state.stage == "round-over"
    assert st(eng, "bo").concentration is None


def test_off_turn_an_act_without_a_named_die_uses_the_held_die() -> None:
    """The held die acts at any moment of the phases, not only on its fighter's turn; the
    die showing the phase waits for the fighter's turn
    (docs/rulesets/street-fighter.md#held-die)."""
    # Ryu holds his 9. In phase 6 it is Ken's turn (lower Wits); Ryu acts at once with the
    # held die and keeps his 6 for his turn.
    eng = make_engine(fighter("ken", wits=1, dexterity=1), fighter("ryu", wits=3))
    begin(eng, [[6], [9, 6]])
    ok(eng, sf.HoldDie(fighter_id="ryu"))
    while eng.encounter.state.phase != 6:
        ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert faces(eng, "ryu", "spent") == [9] and faces(eng, "ryu") == [6]


def test_a_move_aimed_at_someone_knocked_out_first_finds_no_target() -> None:
    """A fighter out of the fight is no target any more: a move still aimed at them does
    nothing (docs/rulesets/street-fighter.md#out-of-the-fight)."""
    # Ken jabs Ryu (health 1) on his 6 (8); Bo interrupts with a Fierce on Ryu and 2 EP
    # (6 - 1 + 4 = 9 > 8): 5 dice: 6, 2, 2, 2, 2 -> 1: Ryu is out before the Jab.
    eng = make_engine(fighter("ken", wits=1, dexterity=1),
                      fighter("bo", wits=2, dexterity=1),
                      fighter("ryu", wits=3, dexterity=1, intelligence=0,
                              status={"health": 1}))
    begin(eng, [[6], [6], [1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="bo", maneuver="Fierce", target_id="ryu", ep_speed=2))
    ok(eng, sf.ResolveNext(dice=[[6, 2, 2, 2, 2]]))
    assert st(eng, "ryu").health == 0
    entry = ok(eng, sf.ResolveNext())
    assert "Ken's Jab finds no target: Ryu is out of the fight" in texts(entry)
    assert not eng.encounter.state.stack


def test_the_end_of_the_fight_leaves_nobody_knocked_down() -> None:
    """When the fight ends, everything that lasts in it ends: EP, dice, blocks, holds,
    knockdowns (docs/rulesets/street-fighter.md#end-of-the-fight)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=1, status={"knocked_down": True}),
                      fighter("ryu", wits=3, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, c.EndFight())
    assert not st(eng, "ken").knocked_down and not st(eng, "ryu").knocked_down
    assert st(eng, "ken").ep == 0 and st(eng, "ken").dice == []


def test_concentration_in_the_round_spends_the_die_the_gm_names() -> None:
    """Concentrating during a round spends a die like any action: the one named
    (docs/rulesets/street-fighter.md#concentration, docs/rulesets/street-fighter.md#held-die)."""
    eng = make_engine(fighter("bo", wits=1, style_lore=1, dexterity=2),
                      fighter("tom", wits=3, dexterity=1))
    begin(eng, [[9, 6], [2]])
    ok(eng, sf.HoldDie(fighter_id="bo"))
    while eng.encounter.state.phase != 6:
        ok(eng, c.NextStep())
    held = next(d.id for d in st(eng, "bo").dice if d.state == "held")
    ok(eng, sf.Concentrate(fighter_id="bo", concentration="find-weakness", die_id=held))
    assert faces(eng, "bo", "spent") == [9] and faces(eng, "bo") == [6]


def test_a_fighter_joining_mid_round_brings_no_ep_or_dice_and_waits_for_the_next_round() -> None:
    """A fighter added mid-fight starts with pools within their sheet, no EP and no dice;
    in a round already going they wait for the next round's dice
    (docs/rulesets/street-fighter.md#fighters-joining-or-leaving)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=1), fighter("ryu", wits=3, dexterity=1))
    begin(eng, [[6], [2]])
    newcomer = fighter("gen", health=8, chi=2, willpower=4,
                       status={"health": 12, "chi": 5, "willpower": 1, "ep": 3,
                               "ep_debt": 2, "knocked_down": True})
    ok(eng, c.AddFighters(fighter=newcomer))
    gen = st(eng, "gen")
    assert (gen.health, gen.chi, gen.willpower) == (8, 2, 1)
    assert gen.ep == 0 and gen.ep_debt == 0 and gen.dice == [] and not gen.knocked_down
    assert gen.rolled
    # Joining at the start of a round, before the dice: they roll with everyone.
    later = make_engine(fighter("ken", wits=1, dexterity=1))
    ok(later, c.StartFight())
    ok(later, c.StartRound())
    ok(later, c.AddFighters(fighter=fighter("gen", dexterity=1)))
    assert not st(later, "gen").rolled
    ok(later, c.NextStep(dice=[[6], [4]]))
    assert faces(later, "gen") == [4]


def test_cancelling_an_interrupt_gives_back_the_block_it_ended() -> None:
    """Cancelled interrupts take back what declaring them did, also the block that acting
    again had ended (docs/rulesets/street-fighter.md#cancelling-interrupts,
    docs/rulesets/street-fighter.md#blocks)."""
    # Ryu blocks on his 9; in phase 6 he interrupts Ken's Fierce with a Jab on his 6 (8 >
    # 5): the block ends; cancelling the interrupt brings it back.
    eng = make_engine(fighter("ken", wits=1, dexterity=1), fighter("ryu", wits=3, block=2))
    begin(eng, [[6], [9, 6]])
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    ok(eng, c.NextStep())
    while eng.encounter.state.phase != 6:
        ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert st(eng, "ryu").block is None
    entry = ok(eng, sf.CancelInterrupts())
    assert st(eng, "ryu").block is not None
    assert "Ryu's Block holds again (the interrupt is cancelled)" in texts(entry)


def test_a_changed_maneuver_may_keep_its_name_but_not_take_anothers() -> None:
    """The GM changes one fighter's maneuver or gives them one; two of a fighter's
    maneuvers never share a name (docs/rulesets/street-fighter.md#maneuvers)."""
    eng = make_engine(fighter("ana", wits=1, dexterity=1), fighter("bo", wits=3))
    ok(eng, sf.SetManeuver(fighter_id="ana", catalogue="Throw"))
    ok(eng, sf.SetManeuver(fighter_id="ana", replaces="Jab", update={"speed": 3}))
    ok(eng, sf.SetManeuver(fighter_id="ana", replaces="Jab", update={"speed": 4}))
    assert [(m.name, m.speed) for m in eng.encounter.fighters["ana"].sheet.maneuvers
            if m.name == "Jab"] == [("Jab", 4)]
    assert refused(eng, sf.SetManeuver(fighter_id="ana", replaces="Jab",
                                       update={"name": "Throw"})) == \
        "Ana already has a maneuver 'Throw'"


def test_an_hour_of_recovery_regains_everything_without_a_roll() -> None:
    """An hour or more of recovery regains every point, no roll
    (docs/rulesets/street-fighter.md#recovery)."""
    # 60 rounds of 60 seconds: Rin, 3 chi down, gets all 3 back.
    eng = make_engine(fighter("rin", dexterity=1, intelligence=0, chi=4, status={"chi": 1}),
                      options={"seconds_per_round": 60})
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="rin", pool="chi"))
    for number in range(1, 61):
        ok(eng, c.StartRound())
        ok(eng, c.NextStep(dice=[[9]]))
        ok(eng, c.EndRound())
        if number < 60:
            answer(eng, choice="continue", expect="recover-rin")
    assert "all regained" in pending(eng).prompt
    entry = answer(eng, choice="roll", expect="recover-rin")
    assert not _rolls(entry) and st(eng, "rin").chi == 4


def test_one_fighters_action_dice_are_rolled_before_the_others() -> None:
    """At the start of a round the GM may roll (or type) one fighter's action dice first;
    the others are rolled when the phases begin (docs/rulesets/street-fighter.md#action-dice)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=2), fighter("ryu", wits=3, dexterity=1))
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    entry = ok(eng, sf.RollActionDice(fighter_id="ken", dice=[[3, 8]]))
    assert entry.summary == "Ken rolls action dice"
    assert faces(eng, "ken") == [8, 3] and st(eng, "ken").rolled and not st(eng, "ryu").rolled
    assert "already rolled" in refused(eng, sf.RollActionDice(fighter_id="ken"))
    ok(eng, c.NextStep(dice=[[5]]))
    assert faces(eng, "ryu") == [5] and faces(eng, "ken") == [8, 3]


def test_the_gm_removes_a_maneuver_from_one_fighters_sheet() -> None:
    """The GM removes a maneuver from a fighter's sheet; one not on it is refused
    (docs/rulesets/street-fighter.md#maneuvers)."""
    eng = make_engine(fighter("ana", wits=1, dexterity=1), fighter("bo", wits=3))
    ok(eng, sf.SetManeuver(fighter_id="ana", catalogue="Throw"))
    ok(eng, sf.RemoveManeuver(fighter_id="ana", name=" throw "))
    assert eng.encounter.fighters["ana"].sheet.maneuvers == []
    assert refused(eng, sf.RemoveManeuver(fighter_id="ana", name="Throw")) == \
        "Ana has no maneuver 'Throw' on the sheet"


# --- what a loaded fight must hold (checks.py) ---------------------------------------------


def _loaded() -> Engine:
    """Two fighters in round 1 with dice rolled, nothing pending: a sound fight to spoil."""
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3))
    begin(eng, [[6, 3], [5, 1]])
    return eng


def _closed_moves(count: int) -> list[Move]:
    return [Move(id=n, fighter_id="ken", die_id=99, die_face=1, speed_base=1, resolved=True)
            for n in range(1, count + 1)]


def test_a_loaded_fight_at_every_limit_is_sound_and_one_past_each_is_refused() -> None:
    """A file is refused when a count is beyond any fight, at its limit it loads
    (docs/rulesets/street-fighter.md#the-code): round, dice seed and draws, dice, bought
    dice, the pools and the stack."""
    eng = _loaded()
    enc = eng.encounter
    ken = enc.fighters["ken"].status
    enc.round, enc.dice_seed, enc.dice_drawn = MAX_ROUND, -MAX_COUNTER, MAX_COUNTER
    ken.dice = [ActionDie(id=n, face=1) for n in range(MAX_DICE)]
    ken.bought_dice = MAX_BOUGHT_DICE
    for pool in POOLS:
        setattr(ken, pool, MAX_POOL)
    enc.state.stack = _closed_moves(MAX_STACK)
    enc.state.next_move_id = MAX_STACK + 1
    assert eng.ruleset.rules.check_state(enc) == []

    enc.round, enc.dice_seed, enc.dice_drawn = MAX_ROUND + 1, -MAX_COUNTER - 1, MAX_COUNTER + 1
    ken.dice = [ActionDie(id=n, face=1) for n in range(MAX_DICE + 1)]
    ken.bought_dice = MAX_BOUGHT_DICE + 1
    for pool in POOLS:
        setattr(ken, pool, MAX_POOL + 1)
    enc.state.stack = _closed_moves(MAX_STACK + 1)
    enc.state.next_move_id = MAX_STACK + 2
    where = "fighters.ken.status"
    assert state_problems(enc) == [
        ("round", f"round {MAX_ROUND + 1} is beyond any fight"),
        ("dice_seed", "is far too large"),
        ("dice_drawn", "is far too large"),
        (f"{where}.dice", f"{MAX_DICE + 1} action dice (at most {MAX_DICE})"),
        (f"{where}.bought_dice", f"{MAX_BOUGHT_DICE + 1} bought dice (at most {MAX_BOUGHT_DICE})"),
        *((f"{where}.{pool}", f"{MAX_POOL + 1} is beyond any fighter (at most {MAX_POOL})")
          for pool in POOLS),
        ("state.stack", f"{MAX_STACK + 1} moves (at most {MAX_STACK})"),
    ]


def test_a_loaded_fight_whose_ids_do_not_add_up_is_refused() -> None:
    """Dice and moves have their own ids, a move's id is below the next one, an open move of
    a fighter present names one of their dice, a maneuver move has its maneuver and a
    concentration its kind and TN, a die's question names a die of the fighter; moves of
    a fighter who left and resolved moves are not checked again
    (docs/rulesets/street-fighter.md#the-code)."""
    eng = _loaded()
    enc = eng.encounter
    ken = enc.fighters["ken"].status
    ken.dice = [ActionDie(id=1, face=6), ActionDie(id=1, face=3)]
    enc.state.next_move_id = 7
    enc.state.stack = [
        Move(id=1, fighter_id="ken", die_id=5, die_face=6, speed_base=6),
        Move(id=2, fighter_id="gone", die_id=5, die_face=6, speed_base=6),
        Move(id=3, fighter_id="ryu", die_id=5, die_face=6, speed_base=6, resolved=True),
        Move(id=4, fighter_id="ryu", action="concentrate", concentration="find-weakness",
             die_id=enc.fighters["ryu"].status.dice[0].id, die_face=5, speed_base=5),
        Move(id=7, fighter_id="ryu", action="concentrate", tn=7,
             die_id=enc.fighters["ryu"].status.dice[0].id, die_face=5, speed_base=5),
        Move(id=7, fighter_id="gone", die_id=5, die_face=6, speed_base=6),
    ]
    enc.state.task = Task(kind="die-going", fighter_id="ryu", die_id=42)
    assert state_problems(enc) == [
        ("fighters.ken.status.dice", "two action dice share one id"),
        ("state.stack", "two moves share one id"),
        ("state.stack[0].die_id", "the fighter 'ken' has no action die 5"),
        ("state.stack[0].maneuver", "a maneuver move without its maneuver"),
        ("state.stack[3].concentration", "a concentration without its kind or TN"),
        ("state.stack[4].id", "move 7 is not below next_move_id 7"),
        ("state.stack[4].concentration", "a concentration without its kind or TN"),
        ("state.stack[5].id", "move 7 is not below next_move_id 7"),
        ("state.task.die_id", "the fighter has no such action die"),
    ]
    enc.state.stack = []
    ken.dice = [ActionDie(id=1, face=6)]
    enc.state.task = Task(kind="die-going", fighter_id="ken")
    assert state_problems(enc) == [("state.task.die_id", "the fighter has no such action die")]
    for task in (Task(kind="die-going", fighter_id="ken", die_id=1),
                 Task(kind="die-going", fighter_id="gone", die_id=42),
                 Task(kind="stand", fighter_id="ken", die_id=42)):
        enc.state.task = task
        assert state_problems(enc) == []


def test_the_package_loads_its_rules_on_first_use_and_names_nothing_else() -> None:
    """``StreetFighter`` is loaded from rules.py when first asked for; any other name is
    missing as Python says it (docs/rulesets/street-fighter.md#the-code)."""
    import fightdesk.engine.rulesets.street_fighter as package
    from fightdesk.engine.rulesets.street_fighter.rules import StreetFighter

    assert package.StreetFighter is StreetFighter and package.__all__ == ["StreetFighter"]
    with pytest.raises(AttributeError) as missing:
        package.Nope  # noqa: B018
    assert str(missing.value) == \
        "module 'fightdesk.engine.rulesets.street_fighter' has no attribute 'Nope'"


ZEN = {"name": "Zen No-Mind", "special": "zen-no-mind", "technique": "focus", "no_damage": True}


def test_ep_lost_to_an_intimidation_come_from_zen_no_mind_first() -> None:
    """EP lost as a penalty come from Zen No-Mind's 2 first, then the fighter's own; a
    fighter with none loses nothing and nothing is said
    (docs/rulesets/street-fighter.md#zen-no-mind)."""
    # Round 1: Tom has 2 EP (Intelligence 2) and Zen No-Mind's 2. Ivo: 2 + 2 = 4 dice:
    # 6, 6, 6, 2 -> 3; Tom's Willpower 2: 2, 2 -> 0. Net 3: the 2 Zen EP, then 1 own.
    eng = make_engine(fighter("ivo", wits=1, charisma=2, intimidation=2, dexterity=1,
                              intelligence=0),
                      fighter("tom", wits=3, willpower=2, intelligence=2, dexterity=1,
                              maneuvers=[ZEN]))
    begin(eng, [[6], [2]])
    assert (st(eng, "tom").ep, st(eng, "tom").zen_ep) == (2, 2)
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 6, 2], [2, 2]]))
    assert (st(eng, "tom").ep, st(eng, "tom").zen_ep) == (1, 0)
    assert "Tom loses 3 EP (intimidated by Ivo)" in texts(entry)
    # The same against a Tom without EP: nothing to lose, nothing said.
    eng = make_engine(fighter("ivo", wits=1, charisma=2, intimidation=2, dexterity=1,
                              intelligence=0),
                      fighter("tom", wits=3, willpower=2, intelligence=0, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, sf.Intimidate(fighter_id="ivo", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 6, 2], [2, 2]]))
    assert st(eng, "tom").ep == 0
    assert not [line for line in texts(entry) if "loses" in line]


# --- the autopilot (docs/rulesets/street-fighter.md#autopilot) ---------------------------


def _enemy(fighter_data: dict[str, Any]) -> dict[str, Any]:
    return {**fighter_data, "side": "enemy"}


def _autopilot(eng: Engine) -> c.Command | None:
    return eng.ruleset.autopilot.next_command(eng.encounter, random.Random(0))


def _die(eng: Engine, fid: str, face: int) -> int:
    return next(d.id for d in st(eng, fid).dice if d.face == face)


def test_the_autopilot_blocks_an_attack_of_one_and_a_half_levels_with_its_fastest_block() -> None:
    """The target of a foe's damaging move blocks with an abort block when the move's
    expected damage is at least 1.5 levels: the fastest block, then by name, on the lowest
    die the rules accept (docs/rulesets/street-fighter.md#autopilot)."""
    # Ken's Strong: Strength 2 + Punch 2 + 1 - Ryu's Stamina 2 = 3 dice at TN 6: 1.5
    # levels expected. Ryu knows Block (speed 4, everyone's basic) and Zip Block (speed 6):
    # Zip Block on his 2 is 8 > 6, valid.
    zip_block = {"name": "Zip Block", "technique": "block", "speed": 6, "abort": True,
                 "block": True, "no_damage": True}
    eng = make_engine(_enemy(fighter("ken", wits=1, dexterity=1)),
                      fighter("ryu", wits=3, maneuvers=[zip_block]))
    begin(eng, [[6], [5, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Strong", target_id="ryu"))
    strong = eng.encounter.state.stack[0].id
    assert _autopilot(eng) == sf.Interrupt(fighter_id="ryu", maneuver="Zip Block",
                                           target_id="ken", die_id=_die(eng, "ryu", 2),
                                           interrupts=strong)
    # Without Zip Block: Block, on the 5 (the 2 gives 6, not above the Strong's 6).
    eng = make_engine(_enemy(fighter("ken", wits=1, dexterity=1)), fighter("ryu", wits=3))
    begin(eng, [[6], [5, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Strong", target_id="ryu"))
    assert _autopilot(eng) == sf.Interrupt(fighter_id="ryu", maneuver="Block",
                                           target_id="ken", die_id=_die(eng, "ryu", 5),
                                           interrupts=eng.encounter.state.stack[0].id)
    # With 1s cancelling on damage the same 3 dice expect less than 1.5 levels: no block.
    eng = make_engine(_enemy(fighter("ken", wits=1, dexterity=1)), fighter("ryu", wits=3),
                      options={"ones_cancel_on_damage": True})
    begin(eng, [[6], [5, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Strong", target_id="ryu"))
    assert _autopilot(eng) == sf.ResolveNext(all=True)
    # A Jab (2 + 2 - 1 - 2 = 1 die: half a level) is not worth a die.
    eng = make_engine(_enemy(fighter("ken", wits=1, dexterity=1)), fighter("ryu", wits=3))
    begin(eng, [[6], [5, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    assert _autopilot(eng) == sf.ResolveNext(all=True)


def test_the_autopilot_does_not_block_a_move_that_does_no_damage() -> None:
    """Only a damaging move is blocked: a Stunning Shout is resolved, however strong the
    shouter (docs/rulesets/street-fighter.md#autopilot)."""
    eng = make_engine(_enemy(fighter("ken", wits=1, dexterity=1, strength=5, focus=4,
                                     maneuvers=[SHOUT])),
                      fighter("ryu", wits=3))
    begin(eng, [[6], [5, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Stunning Shout", target_id="ryu"))
    assert _autopilot(eng) == sf.ResolveNext(all=True)


def test_the_autopilot_breaks_free_on_its_turn_and_converts_a_die_it_lets_go() -> None:
    """A fighter held in a sustained hold breaks free on their turn; a die whose phase
    comes up unused is turned into EP when the rules offer it
    (docs/rulesets/street-fighter.md#autopilot)."""
    eng = make_engine(
        fighter("hal", wits=1, dexterity=3, strength=3, grab=2, intelligence=0,
                maneuvers=[BEAR_HUG]),
        _enemy(fighter("vic", wits=3, dexterity=2, intelligence=0)),
    )
    begin(eng, [[8, 6, 4], [7, 5]])
    ok(eng, sf.Act(fighter_id="hal", maneuver="Bear Hug", target_id="vic"))
    ok(eng, sf.ResolveNext(dice=[[6, 2, 2, 2, 2]]))
    ok(eng, c.NextStep())
    assert _autopilot(eng) == sf.Act(fighter_id="vic", action="break-free")

    eng = make_engine(fighter("ryo", perception=3, intelligence=0, dexterity=1))
    begin(eng, [[3]])
    ok(eng, sf.PassDie(fighter_id="ryo"))
    decision = pending(eng)
    assert "convert" in [ch.id for ch in decision.choices]
    assert _autopilot(eng) == c.Answer(decision_id=decision.id, choice="convert")


def test_a_fighter_knocked_out_loses_the_moves_still_on_the_stack() -> None:
    """At 0 health the fighter is out: their unspent dice and their moves still pending go
    (docs/rulesets/street-fighter.md#out-of-the-fight)."""
    # Ken's Fierce (6 - 1 = 5); Ryu interrupts with a Jab on his 6 (8): Strength 4 + Punch
    # 2 - 1 - Stamina 2 = 3 dice, 6, 6, 6: Ken's 3 health are gone.
    eng = make_engine(fighter("ken", wits=1, dexterity=2, intelligence=0, health=3),
                      fighter("ryu", wits=3, dexterity=2, strength=4, intelligence=0))
    begin(eng, [[6, 4], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 6]]))
    assert texts(entry)[-3:] == ["Ken is out of the fight",
                                 "Ken's Fierce is lost (Ken is out of the fight)",
                                 "The stack is resolved"]
    assert faces(eng, "ken", "lost") == [4]


def test_refusals_name_whose_turn_it_is_and_who_is_not_recovering() -> None:
    """A die is used on its fighter's turn, and the refusal says whose turn it is; only a
    recovering fighter stops recovering (docs/rulesets/street-fighter.md#phases-and-passes,
    docs/rulesets/street-fighter.md#recovery)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=2), fighter("ryu", wits=3, dexterity=2))
    begin(eng, [[6, 4], [6, 1]])
    assert refused(eng, sf.PassDie(fighter_id="ryu")) == \
        "Ryu has no die showing phase 6 to use now: it is Ken's turn"
    assert refused(eng, sf.StopRecovery(fighter_id="ken")) == "Ken is not recovering"


def test_the_log_says_a_move_without_a_target_and_the_gms_maneuver_edits() -> None:
    """A move aimed at no one is logged without a target; the GM adding or changing a
    maneuver says which (docs/rulesets/street-fighter.md#acting,
    docs/rulesets/street-fighter.md#maneuvers)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=2), fighter("ryu", wits=3, dexterity=2))
    begin(eng, [[6, 4], [6, 1]])
    assert ok(eng, sf.Act(fighter_id="ken", maneuver="Movement")).summary == \
        "Ken: Movement with the die 6 (speed 9)"
    assert ok(eng, sf.SetManeuver(fighter_id="ryu", catalogue="Throw")).summary == \
        "GM adds Ryu's maneuver Throw"
    assert ok(eng, sf.SetManeuver(fighter_id="ryu", replaces="Throw",
                                  update={"speed": 1})).summary == \
        "GM changes Ryu's maneuver Throw"


def test_a_recovery_found_at_a_rounds_start_covers_that_round_whole() -> None:
    """A recovery already going when a round starts covers it from its very start (one
    read from a file saved between rounds, say) (docs/rulesets/street-fighter.md#recovery)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=1, status={
        "willpower": 2, "recovery": {"pool": "willpower", "full_rounds": 1}}))
    ok(eng, c.StartFight())
    assert st(eng, "ken").recovery.whole_round is False
    ok(eng, c.StartRound())
    assert st(eng, "ken").recovery.whole_round is True
    assert st(eng, "ken").recovery.full_rounds == 1


def test_a_fighter_made_a_weenie_gains_no_ep_from_their_concentration() -> None:
    """Weenies never gain EP: a fighter the GM turns into a weenie after concentrating gets
    nothing from the roll at the round's end (docs/rulesets/street-fighter.md#weenies)."""
    # Power Up: Perception 3 dice at TN 10 - Focus 2 = 8: 6, 6, 9 -> 1 success, no EP.
    eng = make_engine(fighter("ken", wits=1, dexterity=1, intelligence=0, perception=3,
                              focus=2))
    begin(eng, [[6]])
    ok(eng, sf.Concentrate(fighter_id="ken", concentration="power-up"))
    ok(eng, sf.ResolveNext())
    ok(eng, c.SetValue(fighter_id="ken", field="sheet.weenie", value=True))
    entry = ok(eng, c.EndRound(dice=[[6, 6, 9]]))
    assert texts(entry) == ["Ken: 3d10 for Power Up (TN 8) typed in [6, 6, 9]", "Round 1 ends"]
    assert st(eng, "ken").ep == 0


def test_stopping_a_recovery_previews_the_points_down_at_the_tn_for_the_time() -> None:
    """Stopping recovery rolls the points down at the TN for the rounds spent, 1s ignored;
    less than a round gives nothing (docs/rulesets/street-fighter.md#recovery)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=1, intelligence=0,
                              status={"willpower": 2}))
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="ken", pool="willpower"))
    assert eng.ruleset.views.preview(eng.encounter, "stop-recovery", "ken", {}).lines == (
        "Less than a full round: nothing regained",)
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[6]]))
    ok(eng, c.EndRound())
    answer(eng, choice="continue", expect="recover-ken")
    shown = eng.ruleset.views.preview(eng.encounter, "stop-recovery", "ken", {})
    # 3 Willpower down, 3 dice at TN 8: at least one 8+ is 1 - (7/10)^3.
    assert shown.lines == ("3 dice at TN 8, 1s ignored",)
    assert [(o.label, o.chance) for o in shown.odds] == [
        ("at least 1 willpower", Fraction(657, 1000)), ("at least 2 willpower", Fraction(27, 125)),
        ("at least 3 willpower", Fraction(27, 1000))]


def test_a_shrugged_off_shout_is_a_plain_line_under_its_target() -> None:
    """A Stunning Shout without a net success costs nothing, and the log says so under
    the target (docs/rulesets/street-fighter.md#stunning-shout)."""
    # Sid: Wits 1 + Focus 2 = 3 dice, 2, 2, 2 -> 0; Tom's Willpower 2: 6, 2 -> 1.
    eng = make_engine(fighter("sid", wits=1, focus=2, dexterity=1, maneuvers=[SHOUT]),
                      fighter("tom", wits=3, willpower=2, dexterity=1))
    begin(eng, [[6], [2]])
    ok(eng, sf.Act(fighter_id="sid", maneuver="Stunning Shout", target_id="tom"))
    entry = ok(eng, sf.ResolveNext(dice=[[2, 2, 2], [6, 2]]))
    shrug = next(e for e in entry.events if e.text == "Tom shrugs off the shout")
    assert (shrug.kind, shrug.fighter_id) == ("note", "tom")
    assert faces(eng, "tom") == [2]


def test_a_cancelled_interrupt_paid_half_from_zen_no_mind_gives_both_back() -> None:
    """Cancelling gives back every EP the interrupt cost, Zen No-Mind's and the fighter's
    own, and says so (docs/rulesets/street-fighter.md#cancelling-interrupts)."""
    # Ryu has 1 Zen EP left and 2 of his own; his Jab on the 3 (off the phase: 1 EP) with 1
    # EP on speed (3 + 2 + 2 = 7 > 5) costs 2: the Zen EP and 1 own.
    eng = make_engine(fighter("ken", wits=1, dexterity=2), fighter("ryu", wits=3, dexterity=2))
    begin(eng, [[6, 1], [6, 3]])
    ok(eng, c.SetValue(fighter_id="ryu", field="status.zen_ep", value=1))
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken",
                         die_id=die_id(eng, "ryu", 3), ep_speed=1))
    jab = eng.encounter.state.stack[-1]
    assert (jab.zen_paid, jab.ep_paid) == (1, 1)
    entry = ok(eng, sf.CancelInterrupts())
    assert texts(entry) == ["Ryu gets 2 EP back (interrupt cancelled)", "Cancelled 1 interrupt"]
    assert (st(eng, "ryu").zen_ep, st(eng, "ryu").ep) == (1, 2)


def test_converting_a_used_die_is_refused_and_a_one_die_preview_says_die() -> None:
    """Only an unspent die turns into EP (docs/rulesets/street-fighter.md#turning-a-die-into-ep);
    a concentration preview counts its pool in the GM's words, one die or several
    (docs/rulesets/street-fighter.md#odds-before-rolling)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=2, perception=1),
                      fighter("ryu", wits=3, dexterity=2))
    ok(eng, c.StartFight())
    # Find an Angle: Perception 1 + Arena 0 = 1 die at the arena's TN 8.
    shown = eng.ruleset.views.preview(eng.encounter, "concentrate", "ken",
                                {"concentration": "find-angle"})
    assert shown.lines == ("Rolled now: 1 die at TN 8; each success is 1 EP",)
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[6, 1], [6, 3]]))
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    assert refused(eng, sf.ConvertDie(fighter_id="ken", die_id=die_id(eng, "ken", 6, "spent"))) \
        == "no unspent die: that die is already used"


def test_a_lost_interrupted_move_does_not_finish_its_movement() -> None:
    """A move interrupted before its movement was complete finishes it, unless it was
    lost: the log says its movement is not finished
    (docs/rulesets/street-fighter.md#finishing-movement)."""
    # Ken's Flying Kick (6 + 0 = 6, movement 2); Ryu's Foot Sweep on his 6 with 1 EP (6 -
    # 1 + 2 = 7 > 6): 3 + 3 + 2 - 2 = 6 dice, 6, 6, 5, 4, 3, 2 -> 2: Ken is knocked down
    # and the Flying Kick is lost.
    flying_kick = {"name": "Flying Kick", "technique": "kick", "damage": 1, "move": 2}
    foot_sweep = {"name": "Foot Sweep", "technique": "kick", "speed": -1, "damage": 2,
                  "knockdown": True}
    eng = make_engine(fighter("ken", wits=1, dexterity=3, maneuvers=[flying_kick]),
                      fighter("ryu", wits=3, strength=3, kick=3, maneuvers=[foot_sweep]))
    begin(eng, [[6, 4, 2], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Flying Kick", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Foot Sweep", target_id="ken", ep_speed=1))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="attack-ep")
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 5, 4, 3, 2]])
    entry = answer(eng, choice="accept", expect="dodge")
    said = texts(entry)
    assert "Ken's Flying Kick is lost (knocked down)" in said
    assert said[-2:] == ["Ken's Flying Kick was lost: its movement is not finished",
                         "The stack is resolved"]


def test_a_maneuver_not_known_and_a_hold_not_kept_are_refused_by_name() -> None:
    """A fighter acts with maneuvers they know, and sustains only a hold they keep
    (docs/rulesets/street-fighter.md#maneuvers,
    docs/rulesets/street-fighter.md#sustained-holds)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=2), fighter("ryu", wits=3, dexterity=2))
    begin(eng, [[6, 4], [6, 1]])
    assert refused(eng, sf.Act(fighter_id="ken", maneuver="Zap", target_id="ryu")) == \
        "Ken does not know the maneuver 'Zap'"
    assert refused(eng, sf.Act(fighter_id="ken", action="sustain-hold")) == \
        "Ken is not holding anyone"


def test_no_next_step_once_the_fight_is_over() -> None:
    """After the end of the fight nothing steps on, and the refusal says why
    (docs/rulesets/street-fighter.md#end-of-the-fight)."""
    eng = make_engine(fighter("ken", wits=1, dexterity=2), fighter("ryu", wits=3, dexterity=2))
    begin(eng, [[6, 4], [6, 1]])
    ok(eng, c.EndFight())
    assert refused(eng, c.NextStep()) == "the fight is over"
