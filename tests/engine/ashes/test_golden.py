"""The ashes demo fight played through and compared with its golden files (tests/golden.py):
the options, under the autopilot and under random legal commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fightdesk.engine.engine import Engine
from tests.golden import check_golden, play_to_text


def options(**values: Any) -> Callable[[Engine], None]:
    """Set the fight's options before the first command (docs/rulesets/ashes.md#options)."""

    def prepare(engine: Engine) -> None:
        for name, value in values.items():
            setattr(engine.encounter.options, name, value)

    return prepare


@pytest.mark.parametrize(("name", "policy", "seed", "steps", "values"), [
    ("autopilot", "autopilot", 1, 45, {}),
    ("autopilot-coins-decide", "autopilot", 2, 45, {"automatic_beyond_six": False}),
    ("autopilot-unskilled-5", "autopilot", 3, 45, {"unskilled_penalty": 5}),
    ("random", "random", 4, 60, {}),
    ("random-coins-decide-unskilled-0", "random", 5, 60,
     {"automatic_beyond_six": False, "unskilled_penalty": 0}),
])
def test_the_demo_fight_reads_the_same(request: pytest.FixtureRequest, name: str, policy: str,
                                       seed: int, steps: int, values: dict[str, Any]) -> None:
    """Every log line, card, form and view of a seeded ashes demo fight, against the
    committed copy: a changed rule, word or view shows as a diff."""
    text = play_to_text("demo_ashes.json", policy=policy, seed=seed, steps=steps,
                        prepare=options(**values), undo_every=7)
    check_golden(request, f"demo-{name}-{seed}", text)
