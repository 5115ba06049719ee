"""Sessions and campaigns for the damaged-file tests: played fights, and the ways the
reliability run broke them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session, session_to_json

from .crash_driver import choose, perform

REPO = Path(__file__).resolve().parents[2]
CAMPAIGN = REPO / "resources" / "campaigns" / "Harbour Nights.json"
# The change the reliability run appended to a played session's last log entry.
GHOST = {"target": ["fighters", "ghost", "status"], "key": "health", "op": "set",
         "before": 3, "after": 4}


def played_engine() -> Engine:
    """The demo with a few logged steps, the last one undone (so redo is not empty)."""
    engine = Engine(demo_session())
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=6)).ok
    assert engine.apply(c.FreeRoll(notation="3d10", dice=[[2, 9, 10]], who="GM")).ok
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=4)).ok
    assert engine.apply(c.Note(text="Thug 2 hesitates")).ok
    assert engine.undo()
    return engine


def played_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(session_to_json(played_engine().session))
    return data


def stacked_data(seed_from: int = 0) -> dict[str, Any]:
    """A played street-fighter fight left with an open move on its interrupt stack."""
    for seed in range(seed_from, seed_from + 200):
        engine = Engine(demo_session())
        for index in range(80):
            perform(engine, choose(seed, index, engine), lambda: None)
            stack = engine.encounter.state.stack
            if any(m.open and m.action == "maneuver" for m in stack):
                data: dict[str, Any] = json.loads(session_to_json(engine.session))
                return data
    raise AssertionError("no seed left a move on the stack")


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def nested(depth: int) -> str:
    """A JSON value nested ``depth`` lists deep."""
    return "[" * depth + "]" * depth


def campaign_text() -> str:
    return CAMPAIGN.read_text(encoding="utf-8")
