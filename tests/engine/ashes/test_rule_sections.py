"""ashes rules pinned at their edge, for the sections of docs/rulesets/ashes.md that
named no test: each fails if the rule were read the other way. Coins are typed in; the
fight is tests/engine/ashes/fight.py's (Han, Ben, Vader, a Trooper)."""

from __future__ import annotations

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.ashes import commands as ash
from fightdesk.engine.turns import slots

from .fight import fight, go_to
from .test_rules import ok, status, turn_of


@pytest.mark.parametrize(("force", "refusal"), [(2, None), (1, "Ben has 1 Force, needs 2")])
def test_a_use_is_paid_when_the_points_are_exactly_there_and_refused_one_short(
        force: int, refusal: str | None) -> None:
    """Ben's Mind trick costs 2 Force: with 2 left it is used and leaves 0, with 1 it is
    refused and nothing is spent (docs/rulesets/ashes.md#force-and-physical-stats)."""
    engine = fight(ben={"force": force})
    ok(engine, c.StartRound())
    go_to(engine, "ben")
    out = engine.apply(ash.Challenge(fighter_id="ben", target_id="trooper", skill="Mind trick"))
    assert out.error == refusal
    assert status(engine, "ben").force == (0 if refusal is None else force)


def test_a_free_action_spends_nothing_and_may_come_on_anyones_turn() -> None:
    """A free action is logged and spends nothing, at any time in a round
    (docs/rulesets/ashes.md#free-actions): Vader draws his saber on Han's turn."""
    engine = fight()
    ok(engine, c.StartRound())
    assert turn_of(engine) == "han"
    before = status(engine, "vader").model_dump()
    out = engine.apply(ash.FreeAction(fighter_id="vader", what="draws his saber"))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "Vader: draws his saber (free action)"
    assert status(engine, "vader").model_dump() == before
    assert turn_of(engine) == "han"


def test_removing_the_fighter_whose_turn_goes_on_passes_the_turn_and_undo_restores_it() -> None:
    """A removed fighter takes their turns out of the round; their turn going on passes
    to the next waiting one (docs/rulesets/ashes.md#removing-a-fighter)."""
    engine = fight()
    ok(engine, c.StartRound())
    assert turn_of(engine) == "han"
    ok(engine, c.RemoveFighter(fighter_id="han"))
    assert turn_of(engine) == "ben"
    assert "han" not in [s.fighter_id for s in slots(engine.encounter.state.turns)]
    assert engine.undo()
    assert turn_of(engine) == "han"
