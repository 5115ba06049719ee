"""The interrupt stack: validity, cost, resolution order and its tie-breaks, the slower
interrupt, losing one's own slower moves, blocks inside the stack, cancelling."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.street_fighter import commands as sf

from .helpers import answer, begin, die_id, fighter, make_engine, ok, refused, st, texts


def _resolve_order(entries: list) -> list[str]:
    return [e.fighter_id for entry in entries for e in entry.events if e.kind == "resolve"
            and e.fighter_id]


def test_three_deep_stack_ordered_by_wits_then_perception_then_dexterity() -> None:
    # docs/rulesets/street-fighter.md#resolution-order; the text: "The maneuvers are
    # resolved in descending order, with ties going to higher wits (or Perception in case of
    # equal wits, and then Dexterity in the case of equal Perception ...)". Every move is a
    # Movement (+3) on a 6 with 1 EP on speed: full speed 11, speed without EP 9, so each
    # interrupt is valid (11 > 9) and all four tie at 11. b, c, d have Wits 4 (a has 1); c
    # and d have Perception 3 (b has 2); d has Dexterity 4 (c has 3). Order: d, c, b, a.
    eng = make_engine(
        fighter("a", wits=1, perception=2, dexterity=1),
        fighter("b", wits=4, perception=2, dexterity=3),
        fighter("c", wits=4, perception=3, dexterity=3),
        fighter("d", wits=4, perception=3, dexterity=4),
    )
    begin(eng, [[6], [6, 1, 1], [6, 1, 1], [6, 1, 1, 1]])
    ok(eng, sf.Act(fighter_id="a", maneuver="Movement", ep_speed=1))
    ok(eng, sf.Interrupt(fighter_id="b", maneuver="Movement", ep_speed=1))
    ok(eng, sf.Interrupt(fighter_id="c", maneuver="Movement", ep_speed=1))
    ok(eng, sf.Interrupt(fighter_id="d", maneuver="Movement", ep_speed=1))
    rows = eng.ruleset.views.stack(eng.encounter)
    assert [r.fighter_id for r in rows] == ["d", "c", "b", "a"]
    assert [r.speed for r in rows] == [11, 11, 11, 11]
    # Each interrupt names the latest pending move by default: c interrupts b, d interrupts c.
    assert rows[0].note == "interrupts C's Movement (speed 9 without EP)"
    assert rows[1].note == "interrupts B's Movement (speed 9 without EP)"
    entry = ok(eng, sf.ResolveNext(all=True))
    assert _resolve_order([entry]) == ["d", "c", "b", "a"]
    assert eng.encounter.state.stack == []


def test_a_full_tie_goes_to_the_interrupting_move() -> None:
    # docs/rulesets/street-fighter.md#resolution-order; the text: "... and then to the
    # interrupting move in the case of tied Dexterity." e and f have the same Wits,
    # Perception and Dexterity; the acting-order roll-off (1 against 5) lets e act first;
    # f's interrupt ties at speed 11 and resolves first.
    eng = make_engine(fighter("e", wits=2), fighter("f", wits=2))
    begin(eng, [[6, 1], [6, 1], [1], [5]])
    ok(eng, sf.Act(fighter_id="e", maneuver="Movement", ep_speed=1))
    ok(eng, sf.Interrupt(fighter_id="f", maneuver="Movement", ep_speed=1))
    assert [r.fighter_id for r in eng.ruleset.views.stack(eng.encounter)] == ["f", "e"]


def test_interrupt_must_beat_the_speed_without_ep() -> None:
    # docs/rulesets/street-fighter.md#interrupts; the text: "An interrupt must at least have
    # a modified speed (including EP's spent) greater than the speed (without EP's spent) of
    # the move it interrupts."  Ken's Jab on a 6: 6 + 2 = 8. Ryu's Short on a 6: 6 + 1 = 7,
    # not above 8.
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3))
    begin(eng, [[6, 1], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu", ep_speed=1))
    error = refused(eng, sf.Interrupt(fighter_id="ryu", maneuver="Short", target_id="ken"))
    assert error == "Ryu cannot interrupt: speed 7 is not above Ken's 8"
    # With 1 EP: 7 + 2 = 9 > 8, valid (Ken's own EP do not count for validity).
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Short", target_id="ken", ep_speed=1))


def test_slower_interrupt_still_resolves_after_the_move_it_interrupted() -> None:
    # docs/rulesets/street-fighter.md#interrupts; the text: "You may declare an interrupt
    # and have it wind up being slower than the interrupted move. This does not prevent the
    # interrupting maneuver from acting, though the faster move still goes first."  Ken's
    # Strong on a 6 with 2 EP: 6 without EP, 10 with. Ryu's Jab on a 6: 8 > 6 is valid, but
    # 8 < 10: Ken resolves first.
    eng = make_engine(fighter("ken", wits=1, intelligence=2), fighter("ryu", wits=3))
    begin(eng, [[6, 1], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Strong", target_id="ryu", ep_speed=2))
    preview = eng.ruleset.views.preview(eng.encounter, "interrupt", "ryu", {
        "maneuver": "Jab", "target": "ken", "die": f"ryu:{die_id(eng, 'ryu', 6)}",
        "ep_speed": 0, "ep_damage": "ask", "interrupts": "1"})
    assert preview.error is None
    assert ("Interrupts Ken's Strong: 8 is above its 6 without EP, valid; resolves after it "
            "(its full speed 10)") in preview.lines
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert [r.fighter_id for r in eng.ruleset.views.stack(eng.encounter)] == ["ken", "ryu"]
    # Ken's Strong: Strength 2 + Punch 2 + 1 - Stamina 2 = 3 dice. Ken has no EP left; Ryu
    # (2 EP) removes none. Faces 6, 5, 1: one success, and the 1 does not cancel it
    # (docs/rulesets/street-fighter.md#successes-and-ones: on damage rolls 1s do not cancel).
    first = ok(eng, sf.ResolveNext())
    assert "damage pool: Strength 2 + Punch 2 + Strong 1 - Stamina 2 = 3 dice" in \
        " ".join(texts(first))
    answer(eng, amount=0, expect="defend-ep", dice=[[6, 5, 1]])
    answer(eng, choice="accept", expect="dodge")
    assert st(eng, "ryu").health == 9
    # Then Ryu's Jab: 2 + 2 - 1 - 2 = 1 die; Ryu adds no EP die; Ken has none to spend.
    ok(eng, sf.ResolveNext())
    answer(eng, amount=0, expect="attack-ep", dice=[[10]])
    assert st(eng, "ken").health == 9
    assert eng.encounter.state.stack == []


def test_cost_free_on_the_phase_one_ep_otherwise_unless_an_abort() -> None:
    # docs/rulesets/street-fighter.md#interrupt-cost; the text: "If the spent die shows the
    # current phase, the interruption may be any maneuver. Otherwise, non-abort actions cost
    # 1 EP to use as an interrupt."
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3, dexterity=2),
                      fighter("mook", wits=4, dexterity=1, weenie=True))
    begin(eng, [[6, 1], [6, 3], [2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))  # 6 - 1 = 5
    three = die_id(eng, "ryu", 3)
    # Jab on the 3 with 1 EP on speed: 3 + 2 + 2 = 7 > 5; costs 1 EP + 1 EP for the die.
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken", die_id=three,
                         ep_speed=1))
    assert st(eng, "ryu").ep == 0
    row = eng.ruleset.views.stack(eng.encounter)[0]
    assert (row.spent, row.cost) == (2, "1 EP (die 3 is not on the phase); 1 EP for +2 speed")
    # Cancelled before anything resolved: die and EP come back.
    ok(eng, sf.CancelInterrupts())
    assert st(eng, "ryu").ep == 2 and 3 in [d.face for d in st(eng, "ryu").dice
                                             if d.state == "ready"]
    # Block is an abort: 3 + 4 = 7 > 5, free on the 3.
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Block", die_id=three))
    assert st(eng, "ryu").ep == 2
    # A weenie's Jab on its 2 (not the phase) would cost 1 EP, which weenies cannot spend.
    error = refused(eng, sf.Interrupt(fighter_id="mook", maneuver="Jab", target_id="ken",
                                      ep_speed=0, interrupts=1))
    assert "Mook cannot interrupt" in error


def test_not_enough_ep_and_no_unspent_die() -> None:
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3, intelligence=0,
                                                      dexterity=1))
    begin(eng, [[6, 1], [4]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))  # 6 - 1 = 5
    # Jab on the 4: 4 + 2 = 6 > 5, valid, but the die is not on phase 6: 1 EP.
    error = refused(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert error == "not enough EP: Ryu has 0, needs 1"
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Block"))
    error = refused(eng, sf.Interrupt(fighter_id="ryu", maneuver="Block"))
    assert error == "no unspent die: Ryu has no action die left"


def test_interrupting_loses_your_own_slower_pending_moves() -> None:
    # docs/rulesets/street-fighter.md#lost-moves; the text: "If you interrupt, any slower
    # interrupted moves you have pending are lost." Ken's Fierce (5) is interrupted by Ryu's
    # Jab (8); Ken interrupts that with a Jab on his 3 and 2 EP (3 + 2 + 4 = 9 > 8; 1 EP for
    # the die + 2 for speed): Ken's Jab 9, Ryu's Jab 8, Ken's Fierce 5 - the Fierce is lost.
    eng = make_engine(fighter("ken", wits=1, intelligence=4), fighter("ryu", wits=3))
    begin(eng, [[6, 3], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    ok(eng, sf.Interrupt(fighter_id="ken", maneuver="Jab", target_id="ryu",
                         die_id=die_id(eng, "ken", 3), ep_speed=2))
    assert st(eng, "ken").ep == 1
    entry = ok(eng, sf.ResolveNext())
    assert "Ken's Fierce is lost (Ken interrupted with the faster Jab)" in texts(entry)
    rows = {r.action: r for r in eng.ruleset.views.stack(eng.encounter)}
    assert rows["Fierce -> Ryu"].note == "lost: Ken interrupted with the faster Jab"


def test_block_interrupt_loses_nothing_and_ends_when_the_original_move_acts() -> None:
    # docs/rulesets/street-fighter.md#lost-moves; the text: "Blocks are unaffected and do
    # not affect this" and "If you act, are interrupted, and interrupt that with a block,
    # the block ends when you act to finish your original action."  Ken: Fierce (5); Ryu:
    # Jab (8); Ken: Block on his 3 with 1 EP (3 + 4 + 2 = 9 > 8, an abort: no EP for the
    # die).
    eng = make_engine(fighter("ken", wits=1, block=2), fighter("ryu", wits=3))
    begin(eng, [[6, 3], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    ok(eng, sf.Interrupt(fighter_id="ken", maneuver="Block", die_id=die_id(eng, "ken", 3),
                         ep_speed=1))
    assert st(eng, "ken").ep == 1
    ok(eng, sf.ResolveNext())  # Ken's Block
    assert st(eng, "ken").block is not None
    assert not any(m.lost for m in eng.encounter.state.stack)
    # Ryu's Jab: 2 + 2 - 1 - Stamina 2 - Block 2 = -1, minimum one die. The block absorbs
    # it: Ken +1 EP (2). Ryu adds no die; Ken removes none; the 3 misses.
    entry = ok(eng, sf.ResolveNext())
    assert "Ken gains 1 EP (blocked with Block)" not in texts(entry)  # after the answers
    answer(eng, amount=0, expect="attack-ep")
    final = answer(eng, amount=0, expect="defend-ep", dice=[[3]])
    assert "Ken gains 1 EP (blocked with Block)" in texts(final)
    assert st(eng, "ken").ep == 2 and st(eng, "ken").block.absorbed == 1
    # Ken's Fierce acts: the block ends.
    entry = ok(eng, sf.ResolveNext())
    assert "Ken's Block ends (acts to finish Fierce)" in texts(entry)
    assert st(eng, "ken").block is None


def test_interrupted_move_may_finish_its_movement() -> None:
    # docs/rulesets/street-fighter.md#finishing-movement; the text: "If you were interrupted
    # before completing the full movement of a move, you may finish that movement after the
    # interruption is resolved, unless the move was lost."
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3, intelligence=0))
    begin(eng, [[6, 1], [6, 1]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Movement"))  # 6 + 3 = 9
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Block", ep_speed=0))  # 6 + 4 = 10
    entry = ok(eng, sf.ResolveNext(all=True))
    assert "Ken may finish the movement of the Movement after the interruption" in texts(entry)


def test_whole_stack_is_one_undo_step() -> None:
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3))
    begin(eng, [[6, 1], [6, 1]])
    before = eng.encounter.model_dump(mode="json")
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    assert eng.ruleset.rules.step_open(eng.encounter)
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    ok(eng, sf.ResolveNext())
    answer(eng, amount=1, expect="attack-ep")
    answer(eng, amount=0, expect="defend-ep", dice=[[9, 9]])
    answer(eng, choice="accept", expect="dodge")
    assert not eng.ruleset.rules.step_open(eng.encounter)
    steps = {e.step for e in eng.session.log[-7:]}
    assert len(steps) == 1
    assert eng.undo()
    assert eng.encounter.model_dump(mode="json") == before


def test_gm_removes_a_fighter_in_the_middle_of_a_stack() -> None:
    from fightdesk.engine import commands as c

    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3),
                      fighter("gus", wits=5, dexterity=1))
    begin(eng, [[6, 1], [6, 1], [2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Jab", target_id="ryu"))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Strong", target_id="ken", ep_speed=2))
    ok(eng, sf.ResolveNext())  # Ryu's Strong (10): Ken is asked about removing dice
    ok(eng, c.RemoveFighter(fighter_id="ken"))
    assert eng.ruleset.views.stack(eng.encounter)  # the view still draws
    entry = answer(eng, amount=0)
    assert "The question lapsed: that fighter left the fight" in texts(entry)
    assert eng.encounter.state.stack == [] and eng.pending() is None


def test_cancelling_puts_the_interrupter_back_as_before_the_declaration() -> None:
    # Declaring an interrupt takes an action (acted this round); cancelling it before
    # anything resolved takes the action back too, not only the die and the EP.
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3, dexterity=2))
    begin(eng, [[6, 1], [6, 3]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))  # 6 - 1 = 5
    before = st(eng, "ryu").model_dump(mode="json")
    assert before["acted_this_round"] is False
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken",
                         die_id=die_id(eng, "ryu", 3), ep_speed=1))
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Block", die_id=die_id(eng, "ryu", 6),
                         interrupts=1))
    assert st(eng, "ryu").acted_this_round and st(eng, "ryu").ep == 0
    entry = ok(eng, sf.CancelInterrupts())
    back = next(e for e in entry.events if e.kind == "points-gain")
    assert back.text == "Ryu gets 2 EP back (interrupt cancelled)"
    assert back.data == {"pool": "EP", "amount": 2, "why": "interrupt cancelled"}
    assert st(eng, "ryu").model_dump(mode="json") == before
    # Ken's act stays: he did act this round.
    assert st(eng, "ken").acted_this_round
    assert [m.fighter_id for m in eng.encounter.state.stack] == ["ken"]


def test_cancelling_gives_back_the_block_and_the_held_die_as_they_were() -> None:
    # Ryu blocks on his 8 (an action this round); in phase 6 he holds his 6. When Ken's
    # Fierce comes on phase 4, Ryu interrupts with the held die, which ends his block
    # (docs/rulesets/street-fighter.md#blocks: it lasts until the fighter next acts).
    # Cancelling the interrupt: the block is back, the die is held again (with its note), he
    # still acted this round.
    eng = make_engine(fighter("ken", wits=1), fighter("ryu", wits=3, dexterity=2))
    begin(eng, [[4, 1], [8, 6]])
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Block"))
    ok(eng, sf.ResolveNext())
    assert st(eng, "ryu").block is not None
    ok(eng, c.NextStep())
    assert eng.encounter.state.phase == 6
    ok(eng, sf.HoldDie(fighter_id="ryu"))
    ok(eng, c.NextStep())  # a held die may act in every phase: none is skipped
    ok(eng, c.NextStep())
    assert eng.encounter.state.phase == 4
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))  # 4 - 1 = 3
    before = st(eng, "ryu").model_dump(mode="json")
    assert before["acted_this_round"] is True and before["block"] is not None
    ok(eng, sf.Interrupt(fighter_id="ryu", maneuver="Jab", target_id="ken"))
    assert st(eng, "ryu").block is None
    entry = ok(eng, sf.CancelInterrupts())
    assert st(eng, "ryu").model_dump(mode="json") == before
    assert any("Block" in text for text in texts(entry, "condition-on"))
