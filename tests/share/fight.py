"""A fight for the share's tests: the roll-under demo with a hidden ambusher who carries a
GM note and health no visible fighter has, started so that a roll waits on Ji-woo's
player (the sniper shoots at Ji-woo in the surprise step)."""

from __future__ import annotations

from pathlib import Path

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.roll_under.commands import Attack
from fightdesk.share.snapshot import Snapshot, snapshot
from fightdesk.storage.library import new_fighter
from fightdesk.storage.sessions import load_session
from tests.start_step import answer_surprise

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_roll-under.json"
HIDDEN_NAME = "Razor Quill"
HIDDEN_ID = "razor-quill"
SECRET_NOTE = "knows where the ledger is hidden"
HIDDEN_HEALTH = "17/19"
PCS = ("miguel", "ji-woo", "tomasz", "dee")


def table_fight() -> Engine:
    """The demo with the hidden ambusher, before the fight starts."""
    engine = Engine(load_session(DEMO))
    razor = new_fighter("roll-under", HIDDEN_NAME).model_dump(mode="json")
    razor.update(side="enemy", notes=SECRET_NOTE)
    razor["sheet"]["max_hp"] = 19
    razor["status"]["hp"] = 17
    assert engine.apply(c.AddFighters(fighter=razor)).ok
    assert engine.apply(c.HideFighter(fighter_id=HIDDEN_ID)).ok
    return engine


def shoot_at_ji_woo(engine: Engine) -> None:
    """The surprise step: the sniper fires; Ji-woo's player rolls Defense."""
    assert engine.apply(c.StartFight()).ok
    answer_surprise(engine, engine)
    outcome = engine.apply(Attack(fighter_id="rooftop-sniper", target_id="ji-woo"))
    assert outcome.ok, outcome.error
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "ji-woo"


def shot(engine: Engine, allowed: tuple[str, ...] = PCS) -> Snapshot:
    return snapshot(engine.ruleset, engine.encounter, allowed)
