"""Round structure: EP at round start, bought dice, action dice, the acting order, passes,
dice whose phase comes up (hold / EP / lost), and the end of the round and the fight."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.street_fighter import commands as sf
from fightdesk.engine.rulesets.street_fighter.views import waiting_fighters

from .helpers import (
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


def test_ep_gain_is_intelligence_then_half_rounded_up() -> None:
    # docs/rulesets/street-fighter.md#ep-gain; the text: "A fighter gains their Intelligence
    # in EP's at the beginning of the first round of a fight, and 1/2 their Intelligence
    # (round up) at the beginning of each subsequent round."  Intelligence 3: +3 in round 1,
    # +2 (1.5 rounded up) in round 2.
    eng = make_engine(fighter("ryo", intelligence=3, wits=3, perception=2),
                      fighter("mook", intelligence=3, weenie=True))
    begin(eng, [[9, 8], [9]])
    assert st(eng, "ryo").ep == 3
    # docs/rulesets/street-fighter.md#weenies: weenies "cannot gain or use EP's".
    assert st(eng, "mook").ep == 0
    ok(eng, c.EndRound())  # dice 9 and 8 are above Perception 2: lost, nothing to ask
    assert eng.pending() is None
    assert faces(eng, "ryo", "lost") == [9, 8]
    ok(eng, c.StartRound())
    assert st(eng, "ryo").ep == 5
    assert same_as_rebuild(eng)


def test_weenie_rolls_exactly_one_die() -> None:
    # docs/rulesets/street-fighter.md#action-dice: one d10 per point of Dexterity, a weenie
    # exactly one.
    eng = make_engine(fighter("ryo", dexterity=3, wits=3), fighter("mook", dexterity=4,
                                                                    weenie=True))
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    error = refused(eng, c.NextStep(dice=[[9, 8, 7], [6, 5, 4, 3]]))
    assert "expected 1d10" in error
    ok(eng, c.NextStep(dice=[[9, 8, 7], [6]]))
    assert faces(eng, "ryo") == [9, 8, 7] and faces(eng, "mook") == [6]


def test_bought_dice_cost_two_ep_each_before_the_roll() -> None:
    # docs/rulesets/street-fighter.md#action-dice; the text: "2 EP - Before action dice are
    # rolled for the round, you may spend EP's for 1 extra die per 2 EP's spent."
    # Intelligence 4 gives 4 EP: two extra dice.
    eng = make_engine(fighter("ryo", dexterity=2, intelligence=4))
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    assert "not enough EP" in refused(eng, sf.BuyDice(fighter_id="ryo", count=3))
    ok(eng, sf.BuyDice(fighter_id="ryo", count=2))
    assert st(eng, "ryo").ep == 0
    ok(eng, c.NextStep(dice=[[2, 9, 5, 7]]))  # Dexterity 2 + 2 bought = 4 dice
    assert faces(eng, "ryo") == [9, 7, 5, 2]
    assert "before the roll" in refused(eng, sf.BuyDice(fighter_id="ryo", count=1))


def test_zen_no_mind_ep_are_spent_first_and_vanish_at_round_end() -> None:
    # docs/rulesets/street-fighter.md#zen-no-mind; the text: "Gives 2 free EP's at the very
    # beginning of each round, which must be spent during that round. If not spent by the
    # end, they are lost."
    zen = {"name": "Zen No-Mind", "special": "zen-no-mind", "technique": "focus",
           "no_damage": True}
    eng = make_engine(fighter("ryo", intelligence=3, maneuvers=[zen]))
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    assert (st(eng, "ryo").ep, st(eng, "ryo").zen_ep) == (3, 2)
    ok(eng, sf.BuyDice(fighter_id="ryo", count=1))  # 2 EP: both from Zen No-Mind
    assert (st(eng, "ryo").ep, st(eng, "ryo").zen_ep) == (3, 0)
    ok(eng, c.NextStep(dice=[[9, 8, 7]]))
    ok(eng, c.EndRound())
    ok(eng, c.StartRound())  # round 2: +2 (3 halved, rounded up) and 2 new temporary EP
    assert (st(eng, "ryo").ep, st(eng, "ryo").zen_ep) == (5, 2)
    ok(eng, c.NextStep(dice=[[9, 8]]))
    entry = ok(eng, c.EndRound())
    assert st(eng, "ryo").zen_ep == 0 and st(eng, "ryo").ep == 5
    assert "Ryo's 2 unspent Zen No-Mind EP are lost" in texts(entry)


def test_acting_order_wits_perception_dexterity_then_roll_off() -> None:
    # docs/rulesets/street-fighter.md#acting-order; the text: "the fighter with the lowest
    # Wits goes FIRST. If there is a tie in Wits, the fighter with the lowest Perception
    # goes first. If there is a tie in Perception, the fighter with the lowest Dexterity
    # goes first. On a tie, roll a die, lower goes first."  d and e tie on all three: they
    # roll 4 and 4 (tie, re-roll), then 9 and 2: e (2) goes first.
    eng = make_engine(
        fighter("a", wits=3, perception=2, dexterity=2),
        fighter("b", wits=2, perception=3, dexterity=2),
        fighter("c", wits=2, perception=2, dexterity=3),
        fighter("d", wits=2, perception=2, dexterity=2),
        fighter("e", wits=2, perception=2, dexterity=2),
    )
    begin(eng, [[7, 10], [7, 10], [7, 10, 10], [7, 10], [7, 10],  # action dice
                [4], [4], [9], [2]])  # no tie in phase 10 is possible: everyone has 10s
    # Phase 10 first: everyone has a 10, so the roll-off happens there.
    assert eng.encounter.state.phase == 10
    assert waiting_fighters(eng.encounter) == ["e", "d", "c", "b", "a"]
    assert eng.encounter.state.rolloff == {"e": 1, "d": 2}
    purposes = [e.roll.purpose for e in eng.session.log[-1].events if e.roll is not None]
    assert purposes[-4:] == ["acting-order roll-off"] * 2 + ["acting-order roll-off (re-roll)"] * 2
    error = refused(eng, sf.Act(fighter_id="a", maneuver="Movement"))
    assert error == "a cannot act now: it is E's turn".replace("a cannot", "A cannot")


def test_passes_repeat_until_no_die_shows_the_phase() -> None:
    # docs/rulesets/street-fighter.md#phases-and-passes; the text: "Repeat steps 3-6 until
    # no fighter has an action die showing the current phase." x (Wits 1) has two 7s, y
    # (Wits 3) one: x, y, then x again in pass 2.
    eng = make_engine(fighter("x", wits=1, dexterity=2), fighter("y", wits=3, dexterity=1))
    begin(eng, [[7, 7], [7]])
    enc = eng.encounter
    assert waiting_fighters(enc)[0] == "x"
    ok(eng, sf.Act(fighter_id="x", maneuver="Movement"))
    ok(eng, sf.ResolveNext())
    assert eng.ruleset.views.round_controls(enc).status == "Y to act"
    ok(eng, sf.Act(fighter_id="y", maneuver="Movement"))
    ok(eng, sf.ResolveNext())
    assert "pass 2" in eng.ruleset.views.describe_state(enc) and "X to act" in \
        eng.ruleset.views.describe_state(enc)
    ok(eng, sf.Act(fighter_id="x", maneuver="Movement"))
    ok(eng, sf.ResolveNext())
    entry = ok(eng, c.NextStep())
    assert eng.encounter.state.stage == "round-over"  # no die left below 7
    assert "Round 1 ends" in texts(entry)


def test_unused_die_asks_hold_convert_or_lose_and_convert_gives_ep() -> None:
    # docs/rulesets/street-fighter.md#a-die-whose-phase-comes-up: a die whose phase comes up
    # must be used: to act, to be held, or (if it shows at most Perception) turned into 1
    # EP; before it is lost, the conversion is offered.
    eng = make_engine(fighter("ryo", perception=3, dexterity=2, intelligence=1))
    begin(eng, [[3, 2]])
    assert eng.encounter.state.phase == 3
    ok(eng, c.NextStep())  # Ryo does not act with the 3
    decision = pending(eng)
    assert [ch.id for ch in decision.choices] == ["hold", "convert", "lose"]
    assert eng.ruleset.rules.step_open(eng.encounter)
    answer(eng, choice="convert", expect="die-ryo")
    assert st(eng, "ryo").ep == 2 and faces(eng, "ryo", "converted") == [3]


def test_held_die_counts_as_the_current_phase() -> None:
    # docs/rulesets/street-fighter.md#held-die; the text: "From then on, until it is
    # expended, it is considered to be showing the current phase, whatever phase that might
    # be."  Held at 7, used at phase 4 with a Jab (+2): speed 4 + 2 = 6.
    eng = make_engine(fighter("ryo", wits=1, dexterity=1, perception=2),
                      fighter("ken", wits=3, dexterity=1))
    begin(eng, [[7], [4]])
    ok(eng, sf.HoldDie(fighter_id="ryo"))
    assert faces(eng, "ryo", "held") == [7]
    ok(eng, c.NextStep())  # nobody left on 7; a held die stops the fight at every phase
    assert eng.encounter.state.phase == 6
    ok(eng, c.NextStep())
    ok(eng, c.NextStep())
    assert eng.encounter.state.phase == 4
    entry = ok(eng, sf.Act(fighter_id="ryo", maneuver="Jab", target_id="ken"))
    act = next(e for e in entry.events if e.kind == "act")
    assert act.data == {"maneuver": "Jab", "die": 4, "speed": 6}


def test_only_one_held_die_and_a_die_above_perception_is_lost_without_asking() -> None:
    eng = make_engine(fighter("ryo", perception=2, dexterity=2))
    begin(eng, [[8, 8]])
    ok(eng, sf.HoldDie(fighter_id="ryo"))
    error = refused(eng, sf.HoldDie(fighter_id="ryo"))
    assert "only one die can be held at a time" in error
    entry = ok(eng, sf.PassDie(fighter_id="ryo"))  # 8 > Perception 2, one die held already
    assert eng.pending() is None
    assert texts(entry, "die-lost") == ["Ryo's die 8 is lost (not used)"]


def test_end_of_round_offers_the_conversion_before_a_die_is_lost() -> None:
    eng = make_engine(fighter("ryo", perception=2, dexterity=2, intelligence=1))
    begin(eng, [[9, 2]])
    ok(eng, c.EndRound())
    # The 9 is above Perception: lost at once. The 2 may become EP: asked first.
    decision = pending(eng)
    assert [ch.id for ch in decision.choices] == ["convert", "lose"]
    assert eng.encounter.state.stage == "round-end"
    answer(eng, choice="lose")
    assert eng.encounter.state.stage == "round-over"
    assert faces(eng, "ryo", "lost") == [9, 2] and st(eng, "ryo").ep == 1


def test_convert_any_time_needs_a_die_at_most_perception() -> None:
    # docs/rulesets/street-fighter.md#turning-a-die-into-ep; the text: "Any unspent action
    # die showing a number equal to or lower than the fighter's Perception attribute may be
    # expended for 1 EP at any time."
    eng = make_engine(fighter("ryo", perception=3, dexterity=3, intelligence=1, wits=3),
                      fighter("mook", weenie=True))
    begin(eng, [[9, 4, 3], [5]])
    error = refused(eng, sf.ConvertDie(fighter_id="ryo", die_id=die_id(eng, "ryo", 4)))
    assert error == "Ryo cannot turn the die 4 into EP: it shows more than Perception 3"
    ok(eng, sf.ConvertDie(fighter_id="ryo", die_id=die_id(eng, "ryo", 3)))
    assert st(eng, "ryo").ep == 2
    assert "weenies cannot gain EP" in refused(eng, sf.ConvertDie(fighter_id="mook"))


def test_willpower_for_ep_once_a_round() -> None:
    # docs/rulesets/street-fighter.md#willpower-for-ep; the text: "Once a round, a fighter
    # may at any time spend a point of willpower for 1 EP."
    eng = make_engine(fighter("ryo", intelligence=1, willpower=4))
    begin(eng, [[9, 8]])
    ok(eng, sf.WillpowerForEp(fighter_id="ryo"))
    assert (st(eng, "ryo").willpower, st(eng, "ryo").ep) == (3, 2)
    assert "already spent Willpower for EP this round" in refused(
        eng, sf.WillpowerForEp(fighter_id="ryo"))
    ok(eng, c.EndRound())
    ok(eng, c.StartRound())
    ok(eng, sf.WillpowerForEp(fighter_id="ryo"))
    assert st(eng, "ryo").willpower == 2


def test_all_ep_vanish_at_the_end_of_the_fight() -> None:
    # docs/rulesets/street-fighter.md#end-of-the-fight; the text: "At the end of a fight,
    # all EP's are lost."
    eng = make_engine(fighter("ryo", intelligence=4))
    begin(eng, [[9, 8]])
    assert st(eng, "ryo").ep == 4
    entry = ok(eng, c.EndFight())
    assert st(eng, "ryo").ep == 0 and st(eng, "ryo").dice == []
    assert "Ryo's 4 EP vanish" in texts(entry)
    assert eng.encounter.state.stage == "fight-over"
    assert "the fight is over" in refused(eng, c.StartRound())


def test_undo_of_a_die_decision_takes_back_the_step_that_asked() -> None:
    eng = make_engine(fighter("ryo", perception=3, dexterity=1, intelligence=1))
    begin(eng, [[3]])
    before = eng.encounter.model_dump(mode="json")
    ok(eng, c.NextStep())
    answer(eng, choice="convert")
    assert eng.undo()
    assert eng.encounter.model_dump(mode="json") == before


def test_letting_a_die_go_can_still_hold_it() -> None:
    # The question offered when a die is not used includes holding it
    # (docs/rulesets/street-fighter.md#held-die; the text: "When an action die comes up,
    # instead of acting, a fighter may hold that die").
    eng = make_engine(fighter("ryo", perception=2, dexterity=1))
    begin(eng, [[8]])
    ok(eng, c.NextStep())
    decision = pending(eng)
    assert [ch.id for ch in decision.choices] == ["hold", "lose"]  # 8 > Perception 2
    answer(eng, choice="hold", expect="die-ryo")
    assert faces(eng, "ryo", "held") == [8]
    assert eng.ruleset.views.card(eng.encounter, "ryo").dice == ("H8",)
