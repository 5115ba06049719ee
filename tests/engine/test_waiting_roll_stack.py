"""The stack dialog on a turn-order ruleset's waiting roll (d100, roll-under): its
Resolve makes the roll once nothing is missing, it adds and cancels nothing, does not
open by itself and may be closed (the roll panel takes the choices). Before, its
buttons were on and refused with "no action 'resolve-next'" while the dialog, modal,
kept the GM from the roll panel: a strike left the GM stuck."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.legal import legal_from_views
from fightdesk.storage.sessions import load_session

DEMOS = Path(__file__).resolve().parents[2] / "resources"


def to_a_waiting_roll(demo: str) -> Engine:
    """The demo played by its autopilot until a roll waits."""
    engine = Engine(load_session(DEMOS / demo))
    enc, rng = engine.encounter, Random(1)
    while enc.state.roll is None:
        command = engine.ruleset.autopilot.next_command(enc, rng)
        assert command is not None
        assert engine.apply(command).ok
    return engine


@pytest.mark.parametrize("demo", ["demo_d100.json", "demo_roll-under.json"])
def test_resolve_makes_the_waiting_roll(demo: str) -> None:
    engine = to_a_waiting_roll(demo)
    enc, ruleset = engine.encounter, engine.ruleset
    waiting = enc.state.roll
    assert waiting is not None
    extra = ruleset.views.round_controls(enc).extra
    assert extra == {"resolve-next": True, "resolve-all": True, "cancel-stack": False,
                     "interrupt": False, "open-stack-dialog": False, "close-stack": True}
    # The simulator offers the roll once (the dialog's Resolve is the same roll).
    assert [o.form_id for o in legal_from_views(ruleset.rules, ruleset.views, enc)].count("make-roll") == 1
    outcome = engine.apply(ruleset.views.build_command("resolve-all", "", {}))
    assert outcome.ok, outcome.error
    assert enc.state.roll is None or enc.state.roll.id != waiting.id
    made = [e.roll for e in engine.session.log[-1].events if e.roll]
    assert made and made[0].source == "app"


def test_resolve_waits_for_the_d100_defenders_choice() -> None:
    engine = to_a_waiting_roll("demo_d100.json")
    enc, ruleset = engine.encounter, engine.ruleset
    assert engine.apply(ruleset.views.build_command("resolve-next", "", {})).ok  # the strike
    roll = enc.state.roll
    assert roll is not None and roll.data["kind"] == "defense"
    extra = ruleset.views.round_controls(enc).extra
    assert not extra["resolve-next"] and not extra["resolve-all"] and extra["close-stack"]
    refused = engine.apply(c.MakeRoll())
    assert refused.error == "choose parry, dodge or entangle (or no defense) first"
    assert enc.state.roll == roll
