"""Shared-core rules a mutation run found that no core test pinned (docs/testing.md
"Mutation testing"), driven through the engine by the drill ruleset of
tests/drill_ruleset.py with typed dice."""

from __future__ import annotations

from fightdesk.engine import commands as c
from tests.drill_ruleset import DrillEngine, Strike, drill_engine


def _start(engine: DrillEngine) -> None:
    assert engine.apply(c.StartRound()).ok
    out = engine.apply(c.Answer(decision_id="initiative", by="the players",
                                values={"kaede": 5, "brannock": 15}))
    assert out.ok, out.error


def test_each_waiting_roll_and_each_contribution_has_its_own_id() -> None:
    """Contributions are taken back by their id, and a roll is named by its id: ids are
    never given twice, so a stale id reaches nothing."""
    engine = drill_engine()
    _start(engine)
    assert engine.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    first_roll = roll.id
    for _ in range(2):
        assert engine.apply(c.Contribute(roll_id=first_roll, fighter_id="brannock",
                                         contribution="assist", amount=1)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    ids = [x.id for x in roll.contributions]
    assert len(set(ids)) == 2
    assert engine.apply(c.Withdraw(roll_id=first_roll, contribution_id=ids[1])).ok
    roll = engine.encounter.state.roll
    assert roll is not None and [x.id for x in roll.contributions] == [ids[0]]
    assert engine.apply(c.MakeRoll(roll_id=first_roll, dice=[[20]])).ok
    assert engine.apply(c.NextStep()).ok
    assert engine.apply(Strike(fighter_id="brannock", target_id="thug-1")).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.id != first_roll
    stale = engine.apply(c.Contribute(roll_id=first_roll, fighter_id="kaede",
                                      contribution="assist", amount=1))
    assert stale.error == "that roll is no longer waiting (it was made or taken back)"
