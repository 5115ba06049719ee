"""Property tests of the shared kits (turn order, pending roll, coins, conditions) through
the drill ruleset: random sequences of round steps, turn moves and holds, strikes with
contributions taken and given back, feints, conditions, undo and redo.

After every step: a refused command changed nothing; the log rebuild equals the live
fight; no hit points or assists below zero; no turn taken twice. At the end, undoing
everything gives the start, redoing everything the end, and the saved session reloads
equal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.turns import slots
from fightdesk.storage.sessions import load_session, save_session
from tests.drill_ruleset import DrillEngine, Feint, Strike, drill_engine

FIGHTERS = ("kaede", "brannock", "thug-1", "thug-2")

steps = st.lists(
    st.one_of(
        st.tuples(st.just("start"), st.integers(1, 20), st.integers(1, 20)),
        st.tuples(st.just("next")),
        st.tuples(st.just("end-round")),
        st.tuples(st.just("move"), st.sampled_from(FIGHTERS), st.sampled_from(["quick", "slow"]),
                  st.integers(0, 4)),
        st.tuples(st.just("hold"), st.sampled_from(FIGHTERS)),
        st.tuples(st.just("strike"), st.sampled_from(FIGHTERS)),
        st.tuples(st.just("feint"), st.sampled_from(FIGHTERS)),
        st.tuples(st.just("give"), st.sampled_from(FIGHTERS), st.sampled_from(["assist", "brace"]),
                  st.integers(0, 4)),
        st.tuples(st.just("take-back"), st.integers(1, 4)),
        st.tuples(st.just("roll"), st.integers(0, 20)),
        st.tuples(st.just("condition"), st.sampled_from(FIGHTERS), st.integers(1, 3)),
        st.tuples(st.just("timeout")),
        st.tuples(st.just("undo")),
        st.tuples(st.just("redo")),
    ),
    min_size=1, max_size=60,
)


ROLL_STEPS = ("give", "take-back", "roll")


def command_for(engine: DrillEngine, step: tuple[Any, ...]) -> c.Command | None:
    """The step as a command. The fight is kept going the way a table would (a question
    answered first, a new round started when none is going, a waiting roll helped or
    made), except for one step in eight, taken as drawn, legal or not."""
    enc = engine.encounter
    kind = step[0]
    numbers = [x for x in step[1:] if isinstance(x, int)] + [7, 12, 3]
    names = [x for x in step[1:] if x in FIGHTERS] + ["thug-1"]
    if hash(step) % 8:
        if engine.pending() is not None or enc.state.stage != "turns":
            kind = "start"
        elif enc.state.roll is not None and kind not in ROLL_STEPS:
            kind = "give" if numbers[0] % 2 else "roll"
        elif enc.state.roll is None and kind in ROLL_STEPS:
            kind = "strike"
    current = enc.state.turns.current
    actor = next((s.fighter_id for s in slots(enc.state.turns) if s.id == current), "kaede")
    roll = enc.state.roll
    roll_id = roll.id if roll is not None else 999
    if kind == "start":
        pending = engine.pending()
        if pending is not None:
            return c.Answer(decision_id=pending.id,
                            values={"kaede": numbers[0] % 20 + 1, "brannock": numbers[1] % 20 + 1})
        return c.StartRound()
    if kind == "next":
        return c.NextStep()
    if kind == "end-round":
        return c.EndRound()
    if kind == "move":
        section = next((x for x in step[1:] if x in ("quick", "slow")), "slow")
        return c.MoveTurn(slot_id=names[0], section=section, index=numbers[0])
    if kind == "hold":
        return c.HoldTurn(after=names[0])
    if kind == "strike":
        return Strike(fighter_id=actor, target_id=names[0])
    if kind == "feint":
        return Feint(fighter_id=actor, target_id=names[0])
    if kind == "give":
        what = next((x for x in step[1:] if x in ("assist", "brace")), "assist")
        return c.Contribute(roll_id=roll_id, fighter_id=names[0], contribution=what,
                            amount=numbers[0] % 3 + 1)
    if kind == "take-back":
        return c.Withdraw(roll_id=roll_id, contribution_id=numbers[0])
    if kind == "roll":
        face = numbers[0] % 21
        return c.MakeRoll(roll_id=roll_id, dice=[[face]] if face else [])
    if kind == "condition":
        return c.AddCondition(fighter_id=names[0], name="Shoved", duration="rounds",
                              rounds=numbers[0] % 3 + 1)
    if kind == "timeout":
        return c.TurnTimeout(turn_number=enc.state.turns.turn_number)
    return None


def check_invariants(engine: DrillEngine) -> None:
    enc = engine.encounter
    assert engine.rebuild() == enc
    for fighter in enc.fighters.values():
        assert fighter.status.hp >= 0 and fighter.status.assists >= 0
    ids = [s.id for s in slots(enc.state.turns)]
    assert len(ids) == len(set(ids)), "a turn listed twice"


@settings(max_examples=60, deadline=None)
@given(steps=steps, seed=st.integers(0, 1000))
def test_random_drill_fights_keep_the_invariants(steps: list[tuple[Any, ...]], seed: int,
                                                  tmp_path_factory: Any) -> None:
    engine = drill_engine(seed)
    start = engine.encounter.model_copy(deep=True)
    for step in steps:
        if step[0] == "undo":
            engine.undo()
        elif step[0] == "redo":
            engine.redo()
        else:
            command = command_for(engine, step)
            assert command is not None
            before = engine.encounter.model_copy(deep=True)
            logged = len(engine.session.log)
            out = engine.apply(command)
            if not out.ok:
                assert engine.encounter == before and len(engine.session.log) == logged
        check_invariants(engine)
    while engine.redo():  # the end is the fight with every step done, none waiting for redo
        check_invariants(engine)
    end = engine.encounter.model_copy(deep=True)
    while engine.undo():
        pass
    assert engine.encounter == start
    while engine.redo():
        pass
    assert engine.encounter == end
    path = Path(tmp_path_factory.mktemp("drill")) / "fight.json"
    save_session(engine.session, path)
    assert load_session(path).encounter == end
