"""When one side is down (docs/rulesets/README.md#the-end-of-a-fight): no ruleset ends the
fight by itself; the status line says which side is down, the same in all four."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import load_session

DEMOS = Path(__file__).resolve().parents[2] / "resources"
# Each demo, and the override that puts a fighter out under its rules.
KNOCK_OUT = {"demo_fight.json": ("status.health", 0), "demo_d100.json": ("status.hp", 0),
             "demo_ashes.json": ("status.hp", 0), "demo_roll-under.json": ("status.lethal", 1)}


def status(engine: Engine) -> str:
    return engine.ruleset.round_controls(engine.encounter).status


@pytest.mark.parametrize("demo", sorted(KNOCK_OUT))
def test_the_status_line_says_which_side_is_down_and_the_fight_goes_on(demo: str) -> None:
    engine = Engine(load_session(DEMOS / demo))
    enc = engine.encounter
    field, value = KNOCK_OUT[demo]

    def knock_out(side: str) -> None:
        for fid, fighter in list(enc.fighters.items()):
            if (fighter.side == "enemy") == (side == "enemy"):
                assert engine.apply(c.SetValue(fighter_id=fid, field=field, value=value)).ok

    knock_out("enemy")
    assert "down" not in status(engine)  # before the fight: nothing said
    assert engine.apply(c.StartFight()).ok
    rng = Random(0)
    while engine.pending() is not None:  # the first round's questions (initiative...)
        command = engine.ruleset.autopilot(enc, rng)
        assert command is not None and engine.apply(command).ok
    assert status(engine) == "Every enemy is down"
    controls = engine.ruleset.round_controls(enc)
    assert controls.can_next_step or controls.can_start_round  # the fight goes on
    knock_out("party")
    assert status(engine) == "Everyone is down"
    for _ in range(sum(f.side != "enemy" for f in enc.fighters.values())):
        engine.undo()
    assert status(engine) == "Every enemy is down"
    engine.undo()  # one enemy stands again
    assert "down" not in status(engine)


def test_the_whole_party_down() -> None:
    engine = Engine(load_session(DEMOS / "demo_d100.json"))
    enc = engine.encounter
    assert engine.apply(c.StartFight()).ok
    question = engine.pending()  # the initiative
    assert question is not None
    assert engine.apply(c.Answer(decision_id=question.id, values={})).ok
    for fid, fighter in list(enc.fighters.items()):
        if fighter.side != "enemy":
            assert engine.apply(c.SetValue(fighter_id=fid, field="status.hp", value=0)).ok
    assert status(engine) == "The whole party is down"
