"""tools/play_fights.py plays a whole fight through the window: it must keep reaching
round 2 and a fighter out, counting the GM's steps, as the window changes. Played with
the keyboard only (from the fight's start): every step of it has a key. Every ruleset,
by keyboard and by mouse."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "play_fights.py"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("play_fights", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("play_fights", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("keyboard", [True, False], ids=["keyboard", "mouse"])
@pytest.mark.parametrize("ruleset", ["street-fighter", "d100", "roll-under", "ashes"])
def test_a_whole_fight_is_played_through_the_window(qapp: object, ruleset: str,
                                                     keyboard: bool) -> None:
    tool = load_tool()
    played = tool.play(ruleset, None, keyboard=keyboard)
    assert played.stuck == ""
    assert played.steps_to_round_2 is not None and played.steps_to_out is not None
    assert played.out
    # Every step is a click, a key or a typed field; played by keyboard, the fight keys
    # only (the new fight's set-up clicks in the library).
    assert sum(played.kinds.values()) == played.steps
    if keyboard:
        assert played.kinds["key"] > played.steps_to_round_2 // 2
    assert played.steps_to_round_2 <= played.steps
    assert "steps to R2" in tool.table([played])
