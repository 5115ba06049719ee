"""Fights the benchmarks share (a module, not a benchmark: run_all.py skips names with "_").

``real_fight`` is a long fight as a table plays one: the demo fight's rounds played on
and on by the rules (the ruleset's autopilot picks each command), everyone healed back
to full at each new round so nobody stays down, every command through the full engine
with its log. The per-entry memory and file sizes are measured on it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from fightdesk.engine import commands as c  # noqa: E402
from fightdesk.engine.engine import Engine  # noqa: E402
from fightdesk.engine.model import Session  # noqa: E402

DEMO = REPO / "resources" / "demo_fight.json"


def demo_session() -> Session:
    return Session.model_validate_json(DEMO.read_text(encoding="utf-8"))


def play_on(engine: Engine, entries: int, rng: random.Random) -> None:
    """Play ``engine``'s fight by the rules until its log holds ``entries`` entries."""
    log = engine.session.log
    ruleset = engine.ruleset
    seen_round = engine.encounter.round
    while len(log) < entries:
        enc = engine.encounter
        if enc.round != seen_round:
            seen_round = enc.round
            for fighter in list(enc.fighters.values()):
                top = fighter.sheet.health
                if fighter.status.health < top:
                    engine.apply(c.SetValue(fighter_id=fighter.id, field="status.health", value=top))
        command = ruleset.autopilot.next_command(enc, rng)
        if command is None:
            raise RuntimeError(f"the rules offer nothing more after {len(log)} entries")
        out = engine.apply(command)
        if not out.ok:
            raise RuntimeError(f"the autopilot's command was refused: {out.error}")


def real_fight(entries: int, seed: int = 1) -> Engine:
    """The demo fight played on by the rules to ``entries`` log entries."""
    engine = Engine(demo_session())
    play_on(engine, entries, random.Random(seed))
    return engine
