"""Dragging turns never loses one (docs/ARCHITECTURE.md, "Turn order"): a waiting turn
dragged in front of the turn going on keeps that place in the order and comes right
after the current turn; every fighter who can act gets each of their turns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import slots

from .d100.fight import fight, start, turn_of


def played_round(engine: Engine) -> list[str]:
    """Who gets a turn from now to the end of the round, in order."""
    taken = [turn_of(engine)]
    for _ in range(20):
        out = engine.apply(c.NextStep())
        assert out.ok, out.error
        if engine.encounter.state.stage != "turns":
            return [fid for fid in taken if fid is not None]
        taken.append(turn_of(engine))
    raise AssertionError("the round never ended")


def test_a_turn_dragged_in_front_of_the_turn_going_on_comes_right_after_it() -> None:
    engine = fight()
    start(engine)
    assert turn_of(engine) == "rook"
    first = [s.fighter_id for s in slots(engine.encounter.state.turns)]
    assert first[:3] == ["rook", "vesna", "tariq"]
    assert engine.apply(c.MoveTurn(slot_id="vesna", section="round", index=0)).ok
    # Vesna keeps the place she was dragged to (the next round's declared order)...
    order = [s.fighter_id for s in slots(engine.encounter.state.turns)]
    assert order[:3] == ["vesna", "rook", "tariq"]
    # ...and acts this round, right after Rook's turn going on.
    played = played_round(engine)
    assert played == ["rook", "vesna", "tariq", *first[3:]]
    assert engine.apply(c.StartRound()).ok
    assert [s.fighter_id for s in slots(engine.encounter.state.turns)][:3] == [
        "vesna", "rook", "tariq"]
    assert turn_of(engine) == "vesna"


def test_a_dragged_turn_moved_back_behind_the_current_one_comes_in_its_place() -> None:
    engine = fight()
    start(engine)
    assert engine.apply(c.MoveTurn(slot_id="tariq", section="round", index=0)).ok
    assert engine.apply(c.MoveTurn(slot_id="tariq", section="round", index=3)).ok
    order = [s.fighter_id for s in slots(engine.encounter.state.turns)]
    assert order.index("tariq") == 3
    assert not any(s.ahead for s in slots(engine.encounter.state.turns))
    played = played_round(engine)
    assert played == order


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 6), st.booleans()),
                max_size=8))
def test_no_fighter_who_can_act_loses_a_turn_whatever_the_gm_drags(
        drags: list[tuple[int, int, bool]]) -> None:
    """Property: every slot of the round is taken once, whatever the GM drags between
    turns (the current turn included)."""
    engine = fight()
    start(engine)
    everyone = [s.id for s in slots(engine.encounter.state.turns)]
    taken: list[str] = []
    for pick, index, end_turn in drags:
        if engine.encounter.state.stage != "turns":
            break
        engine.apply(c.MoveTurn(slot_id=everyone[pick % len(everyone)], section="round",
                                index=index))
        if end_turn:
            taken.append(str(engine.encounter.state.turns.current))
            assert engine.apply(c.NextStep()).ok
    while engine.encounter.state.stage == "turns":
        taken.append(str(engine.encounter.state.turns.current))
        assert engine.apply(c.NextStep()).ok
    assert sorted(taken) == sorted(everyone)


def test_a_turn_dragged_ahead_that_holds_goes_after_the_named_fighters_next_turn() -> None:
    """A turn dragged ahead comes after a turn already taken; holding it for that fighter
    names their next turn still to come, not the one taken
    (docs/rulesets/roll-under.md#holding)."""
    from fightdesk.engine.changes import Transaction
    from fightdesk.engine.dice import DiceTray
    from fightdesk.engine.ruleset import Context
    from fightdesk.engine.turns import add_turn, current_fighter
    from tests.drill_ruleset import drill_engine

    engine = drill_engine()
    assert engine.apply(c.StartRound()).ok
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id="initiative", by="the players",
                                 values={"kaede": 5, "brannock": 15})).ok
    enc = engine.encounter
    add_turn(Context(enc, Transaction(enc), DiceTray(0, 0)), ("state", "turns"), "brannock",
             "slow")
    assert engine.apply(c.NextStep()).ok  # Kaede's turn taken: Brannock's goes on
    assert engine.apply(c.MoveTurn(slot_id="thug-2", section="slow", index=0)).ok
    assert engine.apply(c.NextStep()).ok  # Brannock's taken: Thug 2, dragged ahead
    assert current_fighter(enc.state.turns) == "thug-2"
    assert engine.apply(c.HoldTurn(after="brannock")).ok
    played = []
    while engine.encounter.state.stage == "turns":
        played.append(current_fighter(engine.encounter.state.turns))
        assert engine.apply(c.NextStep()).ok
    assert played == ["thug-1", "brannock", "thug-2"]
