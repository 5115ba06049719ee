"""The d100 demo fight played through and compared with its golden files (tests/golden.py):
each initiative method and option, under the autopilot and under random legal commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fightdesk.engine.engine import Engine
from tests.golden import check_golden, play_to_text


def options(**values: Any) -> Callable[[Engine], None]:
    """Set the fight's options before the first command (docs/rulesets/d100.md#options)."""

    def prepare(engine: Engine) -> None:
        for name, value in values.items():
            setattr(engine.encounter.options, name, value)

    return prepare


@pytest.mark.parametrize(("name", "policy", "seed", "values"), [
    ("autopilot-A", "autopilot", 1, {"initiative": "A"}),
    ("autopilot-B-alternative-hp", "autopilot", 2, {"initiative": "B", "alternative_hp": True}),
    ("autopilot-C-weaker-fierce", "autopilot", 3,
     {"initiative": "C", "weaker_weapons": True, "fierce_with_weapons": True}),
    ("autopilot-D-once", "autopilot", 4, {"initiative": "D", "initiative_every_round": False}),
    ("random-declared", "random", 5, {"initiative": "declared"}),
    ("random-B-alternative-hp", "random", 6,
     {"initiative": "B", "alternative_hp": True, "partial_cover_low": 20}),
])
def test_the_demo_fight_reads_the_same(request: pytest.FixtureRequest, name: str, policy: str,
                                       seed: int, values: dict[str, Any]) -> None:
    """Every log line, card, form and view of a seeded d100 demo fight, against the
    committed copy: a changed rule, word or view shows as a diff."""
    text = play_to_text("demo_d100.json", policy=policy, seed=seed, steps=60,
                        prepare=options(**values), undo_every=7)
    check_golden(request, f"demo-{name}-{seed}", text)
