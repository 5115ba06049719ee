"""A d100 fight for the scenario tests, from the bundled demo: Rook (Longsword 4, half
suit 25-75), Vesna (fists 2), Tariq (Revolver 5, Knife 2), the Bandit Captain (War axe 5,
full plate 5-95) and two Bandits (Club 3, quarter suit 45-70)."""

from __future__ import annotations

from pathlib import Path

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session

DEMO = Path(__file__).resolve().parents[3] / "resources" / "demo_d100.json"


def fight() -> Engine:
    """The demo fight, in the declared order (the demo itself rolls method B)."""
    engine = Engine(load_session(DEMO))
    engine.encounter.options.initiative = "declared"
    return engine


def start(engine: Engine) -> None:
    out = engine.apply(c.StartFight())
    assert out.ok, out.error


def turn_of(engine: Engine) -> str | None:
    return current_fighter(engine.encounter.state.turns)


def go_to(engine: Engine, fid: str) -> None:
    for _ in range(12):
        if turn_of(engine) == fid:
            return
        out = engine.apply(c.NextStep())
        assert out.ok, out.error
    raise AssertionError(f"{fid} never got a turn")


def roll_id(engine: Engine) -> int:
    roll = engine.encounter.state.roll
    assert roll is not None
    return roll.id


def make(engine: Engine, *faces: int) -> None:
    out = engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[f] for f in faces]))
    assert out.ok, out.error


def choose(engine: Engine, fighter: str, kind: str) -> None:
    out = engine.apply(c.Contribute(roll_id=roll_id(engine), fighter_id=fighter,
                                    contribution=kind))
    assert out.ok, out.error
