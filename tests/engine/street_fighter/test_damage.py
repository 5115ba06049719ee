"""Damage and its decision points: EP damage dice, EP reduction, dodges; blocks, stun,
knockdown (with Kippup), out of the fight at 0 health."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.street_fighter import commands as sf

from .helpers import (
    answer,
    begin,
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

FOOT_SWEEP = {"name": "Foot Sweep", "technique": "kick", "speed": -1, "damage": 2,
              "knockdown": True}
KIPPUP = {"name": "Kippup", "special": "kippup", "technique": "athletics", "no_damage": True}
PUNCH_DEFENSE = {"name": "Punch Defense", "special": "punch-defense", "technique": "block",
                 "speed": 4, "abort": True, "block": True, "no_damage": True,
                 "guards": ["punch"]}


def duel(**ken: Any) -> Engine:
    """Ken (Wits 1) acts first on a 6; Ryu (Wits 3) has a 6 and a 1."""
    eng = make_engine(fighter("ken", wits=1, **ken), fighter("ryu", wits=3))
    return eng


def test_attacker_adds_ep_damage_dice_after_soak() -> None:
    # docs/rulesets/street-fighter.md#ep-damage-dice; the text: "1 EP - Add a die to damage
    # dice rolled for a maneuver. Note: These dice are added AFTER soak is applied, so they
    # may be added to the minimum 1 die." Ken's Jab: 2 + 2 - 1 - Stamina 2 = 1 die; +2 EP
    # dice = 3 dice: 6, 7, 2 -> 2.
    eng = make_engine(fighter("ken", wits=1, intelligence=3), fighter("ryu", wits=3,
                                                                      intelligence=0))
    begin(eng, [[6, 1], [5, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    decision = pending(eng)
    assert (decision.minimum, decision.maximum, decision.fighter_id) == (0, 3, "ken")
    assert "out of range" not in refused(eng, c.Answer(decision_id=decision.id, amount=4))
    entry = answer(eng, amount=2, expect="attack-ep", dice=[[6, 7, 2]])
    assert st(eng, "ken").ep == 1
    assert "Ryu" in texts(entry, "damage")[0] and st(eng, "ryu").health == 8


def test_ep_damage_dice_declared_with_the_move_are_not_asked_again() -> None:
    eng = make_engine(fighter("ken", wits=1, intelligence=3), fighter("ryu", wits=3,
                                                                      intelligence=0))
    begin(eng, [[6, 1], [5, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu", ep_damage=1))
    ok(eng, sf.ResolveNext(dice=[[1, 1]]))  # 1 + 1 declared die = 2 dice, no question
    assert eng.pending() is None and st(eng, "ken").ep == 2 and st(eng, "ryu").health == 10


def test_defender_removes_dice_before_the_roll_and_no_dice_is_a_miss() -> None:
    # docs/rulesets/street-fighter.md#removing-damage-dice; the text: "A Fighter may reduce
    # the number of damage dice being rolled against them at a cost of 1 EP per die BEFORE
    # the roll is made. Note: If this results in no dice, it is considered to have no
    # successes, thus making it a miss."
    eng = make_engine(fighter("ken", wits=1, intelligence=0), fighter("ryu", wits=3))
    begin(eng, [[6, 1], [5, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    decision = pending(eng)
    assert (decision.fighter_id, decision.maximum) == ("ryu", 1)  # one die in the pool
    entry = answer(eng, amount=1, expect="defend-ep")
    assert not [e for e in entry.events if e.kind == "roll"]
    assert "Ken's Jab misses Ryu" in texts(entry)
    assert st(eng, "ryu").ep == 1 and st(eng, "ryu").health == 10


def test_dodges_after_the_roll_each_success_removes_a_point() -> None:
    # docs/rulesets/street-fighter.md#dodges; the text: "1 EP - After damage dice are rolled
    # against you, you may spend 1 EP to roll two dice of Dodge (TN:6). Each success reduces
    # damage by one point." Ken's Fierce: 2 + 2 + 3 - 2 = 5 dice: 6, 6, 6, 2, 2 -> 3. Dodge
    # 1: 6 and 1 -> the 1 cancels the success
    # (docs/rulesets/street-fighter.md#successes-and-ones: on dodges each 1 cancels one) ->
    # still 3. Dodge 2: 7 and 8 -> 2 successes -> 1 left. Ryu takes 1.
    eng = make_engine(fighter("ken", wits=1, intelligence=0),
                      fighter("ryu", wits=3, intelligence=3, stamina=3))
    begin(eng, [[6, 1], [5, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    # Stamina 3: 2 + 2 + 3 - 3 = 4 dice.
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 6, 2]])
    answer(eng, choice="dodge", expect="dodge-1", dice=[[6, 1]])
    assert pending(eng).prompt.startswith("Ryu takes 3")
    answer(eng, choice="dodge", expect="dodge-2", dice=[[7, 8]])
    answer(eng, choice="accept", expect="dodge-3")
    assert st(eng, "ryu").health == 9 and st(eng, "ryu").ep == 1


def test_dodging_all_damage_is_a_miss_and_no_knockdown() -> None:
    # docs/rulesets/street-fighter.md#dodges; the text: "If all damage is dodged, then the
    # attack missed."
    eng = make_engine(fighter("ken", wits=1, intelligence=0, maneuvers=[FOOT_SWEEP]),
                      fighter("ryu", wits=3, intelligence=1, stamina=4))
    begin(eng, [[6, 1], [5, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Foot Sweep", target_id="ryu"))
    ok(eng, sf.ResolveNext())
    # 2 + 2 + 2 - 4 = 2 dice: 6 and 3 -> 1.
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 3]])
    entry = answer(eng, choice="dodge", dice=[[9, 4]])
    assert "Ken's Foot Sweep misses Ryu (1 dodge)" in texts(entry)
    assert not st(eng, "ryu").knocked_down and faces(eng, "ryu") == [5, 1]


def test_stun_loses_the_pending_move_and_one_ep() -> None:
    # docs/rulesets/street-fighter.md#stun: damage from one blow above the target's Stamina:
    # lose the pending move if one is pending, otherwise the highest unspent die, and 1 EP.
    # Ken's Fierce (6 - 1 = 5) on Ryu; Ryu's Strong on his 6 with 1 EP (6 + 2 = 8 > 5):
    # Strength 3 + Punch 3 + 1 - Stamina 2 = 5 dice: 6, 7, 8, 1, 1 -> 3 > Stamina 2.
    eng = make_engine(fighter("ken", wits=1, intelligence=2),
                      fighter("ryu", wits=3, strength=3, punch=3, intelligence=1))
    begin(eng, [[6, 4], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Strong", target_id="ken", ep_speed=1))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 7, 8, 1, 1]])
    entry = answer(eng, choice="accept", expect="dodge")
    assert "Ken is stunned (3 damage is above Stamina 2)" in texts(entry)
    assert "Ken's Fierce is lost (stunned)" in texts(entry)
    assert st(eng, "ken").ep == 1 and st(eng, "ken").health == 7
    assert faces(eng, "ken") == [4]  # the pending move went instead of the highest die


def test_stun_without_a_pending_move_loses_the_highest_die() -> None:
    eng = make_engine(fighter("ken", wits=1, intelligence=0, strength=4, punch=4),
                      fighter("ryu", wits=3, intelligence=0, dexterity=3))
    begin(eng, [[6, 1], [5, 4, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    # 4 + 4 + 3 - 2 = 9 dice: 6 6 6 1 1 1 1 1 1 -> 3 (1s do not cancel damage).
    entry = ok(eng, sf.ResolveNext(dice=[[6, 6, 6, 1, 1, 1, 1, 1, 1]]))
    assert "Ryu's die 5 is lost (stunned)" in texts(entry, "die-lost")
    assert faces(eng, "ryu") == [4, 2]


def test_knockdown_loses_the_pending_move_and_spends_the_highest_die() -> None:
    # docs/rulesets/street-fighter.md#knockdown; the text: "A knocked down fighter must
    # spend their highest action die to regain their feet. If a maneuver was interrupted
    # with a knockdown, then that maneuver is lost as well."  Ken's Fierce (5); Ryu's Foot
    # Sweep on his 6 with 1 EP (6 - 1 + 2 = 7 > 5): Strength 3 + Kick 3 + 2 - Stamina 2 = 6
    # dice -> 6,6,5,4,3,2 = 2.
    eng = make_engine(fighter("ken", wits=1, dexterity=3),
                      fighter("ryu", wits=3, strength=3, kick=3, maneuvers=[FOOT_SWEEP]))
    begin(eng, [[6, 4, 2], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Foot Sweep", target_id="ken", ep_speed=1))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="attack-ep")
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 5, 4, 3, 2]])
    entry = answer(eng, choice="accept", expect="dodge")
    assert "Ken's Fierce is lost (knocked down)" in texts(entry)
    assert "Ken stands up spending the die 4" in texts(entry)
    assert faces(eng, "ken") == [2] and faces(eng, "ken", "spent") == [6, 4]
    assert eng.encounter.state.stack == []  # the lost Fierce does not resolve


def test_kippup_pays_one_ep_instead_of_the_die() -> None:
    # docs/rulesets/street-fighter.md#knockdown; the text: "If a fighter has Kippup, they
    # may spend 1 EP instead of losing the action die, though an interrupted maneuver is
    # still lost."
    eng = make_engine(fighter("ken", wits=1, dexterity=3, maneuvers=[KIPPUP]),
                      fighter("ryu", wits=3, strength=3, kick=3, maneuvers=[FOOT_SWEEP]))
    begin(eng, [[6, 4, 2], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Foot Sweep", target_id="ken", ep_speed=1))
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="attack-ep")
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 5, 4, 3, 2]])
    answer(eng, choice="accept", expect="dodge")
    decision = pending(eng)
    assert [ch.id for ch in decision.choices] == ["ep", "die"]
    assert st(eng, "ken").knocked_down  # down until the question is answered
    assert eng.ruleset.rules.step_open(eng.encounter)
    entry = answer(eng, choice="ep", expect="stand-ken")
    assert "Ken stands up with Kippup for 1 EP" in texts(entry)
    assert st(eng, "ken").ep == 1 and faces(eng, "ken") == [4, 2]
    assert any(m.lost for m in eng.encounter.state.stack) is False  # stack closed
    assert "Ken's Fierce is lost (knocked down)" in " ".join(
        t for e in eng.session.log[-3:] for t in texts(e))


def test_knocked_down_without_dice_stands_at_the_start_of_next_round() -> None:
    # docs/rulesets/street-fighter.md#knockdown: with no die left, the fighter stands at the
    # start of the next round the same way.  Ken's only die went on his Fierce; Ryu's Foot
    # Sweep with 1 EP (6 - 1 + 2 = 7 > 5) hits for 2 (6,6,5,4,3,2 at TN 6).
    eng = make_engine(fighter("ken", wits=1, dexterity=1, intelligence=0),
                      fighter("ryu", wits=3, strength=3, kick=3, maneuvers=[FOOT_SWEEP]))
    begin(eng, [[6], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Foot Sweep", target_id="ken", ep_speed=1))
    ok(eng, sf.ResolveNext())
    entry = answer(eng, amount=0, expect="attack-ep", dice=[[6, 6, 5, 4, 3, 2]])
    assert "Ken is down with no action die left: stands at the start of next round" in \
        texts(entry)
    assert st(eng, "ken").knocked_down
    assert "knocked down" in refused(eng, sf.Act(fighter_id="ken", maneuver="Jab",
                                                 target_id="ryu"))
    ok(eng, c.EndRound())
    answer(eng, choice="lose", expect="die-ryu")  # Ryu's 1 could become EP: he declines
    ok(eng, c.StartRound())
    entry = ok(eng, c.NextStep(dice=[[8], [7, 3]]))
    assert "Ken stands up spending the die 8" in texts(entry)
    assert not st(eng, "ken").knocked_down and faces(eng, "ken", "spent") == [8]


BRUISER: dict[str, Any] = {"strength": 4, "punch": 3, "kick": 3, "weenie": True, "wits": 1, "dexterity": 1}


def test_block_absorbs_exactly_block_technique_attacks_and_gives_ep() -> None:
    # docs/rulesets/street-fighter.md#blocks; the text: "Blocking holds until it has either
    # blocked your Block technique in attacks or until you take an action"; "Successfully
    # applying your Block to an attack gives 1 EP."  Gus (Block 2, Stamina 2, no EP) blocks
    # on his 9. Three weenies Jab him on 8, 7 and 5: Strength 4 + Punch 3 - 1 - Stamina 2 =
    # 4 dice, minus Block 2 = 2 dice while the block holds. The first two attacks are
    # absorbed (+1 EP each); the third meets no block and rolls 4 dice.
    eng = make_engine(
        fighter("gus", wits=5, dexterity=1, intelligence=0, block=2),
        fighter("w1", **BRUISER), fighter("w2", **BRUISER), fighter("w3", **BRUISER),
    )
    begin(eng, [[9], [8], [7], [5]])
    ok(eng, sf.Act(fighter_id="gus", maneuver="Block"))
    entry = ok(eng, sf.ResolveNext())
    assert "Gus blocks with Block: absorbs up to 2 attacks (Block technique)" in texts(entry)
    ok(eng, c.NextStep())  # phase 8
    ok(eng, sf.Act(fighter_id="w1", maneuver="Jab", target_id="gus"))
    # Gus has no EP yet: no question; 6 and 2 -> 1 success. The EP comes with the block.
    entry = ok(eng, sf.ResolveNext(dice=[[6, 2]]))
    assert "W1's Jab damage pool: Strength 4 + Punch 3 - Jab 1 - Stamina 2 - Block 2 = 2 dice" \
        in texts(entry)
    assert "Gus gains 1 EP (blocked with Block)" in texts(entry)
    assert st(eng, "gus").health == 9 and st(eng, "gus").ep == 1
    assert st(eng, "gus").block.absorbed == 1
    ok(eng, c.NextStep())  # phase 7
    ok(eng, sf.Act(fighter_id="w2", maneuver="Jab", target_id="gus"))
    ok(eng, sf.ResolveNext())
    entry = answer(eng, amount=0, expect="defend-ep", dice=[[1, 1]])
    assert "Gus's Block has absorbed 2 attacks (Block technique 2) and ends" in texts(entry)
    assert st(eng, "gus").block is None and st(eng, "gus").ep == 2
    ok(eng, c.NextStep())  # phase 5
    ok(eng, sf.Act(fighter_id="w3", maneuver="Jab", target_id="gus"))
    entry = ok(eng, sf.ResolveNext())
    assert "W3's Jab damage pool: Strength 4 + Punch 3 - Jab 1 - Stamina 2 = 4 dice" in \
        texts(entry)
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 6, 2, 2]])
    answer(eng, choice="accept", expect="dodge")
    assert st(eng, "gus").health == 7 and st(eng, "gus").ep == 2


def test_punch_defense_guards_punches_only_and_gives_no_ep() -> None:
    # docs/rulesets/street-fighter.md#punch-and-kick-defense; the text: "Punch and Kick
    # Defense: These count as Abort maneuvers, but do not give EP's like a normal block."
    eng = make_engine(fighter("gus", wits=5, dexterity=1, intelligence=0, block=2,
                              maneuvers=[PUNCH_DEFENSE]),
                      fighter("w1", **BRUISER), fighter("w2", **BRUISER))
    begin(eng, [[9], [8], [7]])
    ok(eng, sf.Act(fighter_id="gus", maneuver="Punch Defense"))
    ok(eng, sf.ResolveNext())
    ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="w1", maneuver="Short", target_id="gus"))  # a kick
    entry = ok(eng, sf.ResolveNext(dice=[[2, 2, 2, 2, 2]]))
    # Strength 4 + Kick 3 + 0 - Stamina 2 = 5 dice: the kick meets no guard.
    assert "W1's Short damage pool: Strength 4 + Kick 3 - Stamina 2 = 5 dice" in texts(entry)
    ok(eng, c.NextStep())
    ok(eng, sf.Act(fighter_id="w2", maneuver="Jab", target_id="gus"))
    entry = ok(eng, sf.ResolveNext(dice=[[2, 2]]))
    assert "Punch Defense 2 = 2 dice" in " ".join(texts(entry))
    assert st(eng, "gus").ep == 0 and st(eng, "gus").block.absorbed == 1


def test_zero_health_is_out_of_the_fight() -> None:
    eng = make_engine(fighter("ken", wits=1, intelligence=0, strength=5, punch=5),
                      fighter("ryu", wits=3, intelligence=0, health=3, dexterity=2))
    begin(eng, [[6, 1], [5, 4]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    entry = ok(eng, sf.ResolveNext(dice=[[6] * 11]))
    assert "Ryu is out of the fight" in texts(entry, "down")
    assert st(eng, "ryu").health == 0 and faces(eng, "ryu", "lost") == [5, 4]
    assert eng.ruleset.rules.is_out(eng.encounter.fighters["ryu"])
    assert eng.ruleset.views.card(eng.encounter, "ryu").out
    assert same_as_rebuild(eng)
