"""The demo fight played through and compared with its golden file (tests/golden.py)."""

from __future__ import annotations

import pytest

from tests.golden import check_golden, play_to_text


@pytest.mark.parametrize(("policy", "seed"), [("autopilot", 3), ("random", 11)])
def test_the_demo_fight_reads_the_same(request: pytest.FixtureRequest, policy: str,
                                       seed: int) -> None:
    """Every log line, card, form and view of a seeded demo fight, against the committed
    copy: a changed rule, word or view shows as a diff."""
    text = play_to_text("demo_fight.json", policy=policy, seed=seed, steps=60, undo_every=7)
    check_golden(request, f"demo-{policy}-{seed}", text)
