"""Street-fighter's status line once a side is down (docs/rulesets/README.md#the-end-of-a-fight):
said from the fight's start until the GM's End Fight, never before the fight."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session


def test_every_enemy_down_is_said_between_the_start_and_the_end_of_the_fight() -> None:
    engine = Engine(demo_session())
    enc = engine.encounter
    for fid, fighter in list(enc.fighters.items()):
        if fighter.side == "enemy":
            assert engine.apply(c.SetValue(fighter_id=fid, field="status.health", value=0)).ok

    def status() -> str:
        return engine.ruleset.round_controls(enc).status

    assert enc.state.stage == "setup" and status() == ""
    assert engine.apply(c.StartFight()).ok
    assert status() == "Every enemy is down"
    assert engine.apply(c.EndFight()).ok
    assert enc.state.stage == "fight-over" and status() == ""
