"""The roll-under demo fight played through and compared with its golden files
(tests/golden.py): every log line, card, form, stack row and control the GM reads."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from tests.golden import check_golden, play_to_text

DEMO = "demo_roll-under.json"


def wounds_by_roll(engine: Engine) -> None:
    """The option on (removing a Fatal Wound is a Dexterity roll), a Death and
    Dismemberment table whose low rows are Fatal Wounds, and Tomasz already wounded and
    Dee already disarmed: so the wound, pick-up and option paths are played."""
    table = engine.encounter.tables["death-and-dismemberment"].model_dump(mode="json")
    for row in table["rows"]:
        if row["low"] <= 3:
            row["effect"] = "fatal-wound"
            row["text"] = f"Row {row['low']}: a Fatal Wound"
    for command in (c.SetOption(option="fatal_wound_needs_roll", value=True),
                    c.SetTable(table=table),
                    c.SetValue(fighter_id="tomasz", field="status.fatal_wounds", value=1),
                    c.AddCondition(fighter_id="dee", name="Disarmed", duration="until-removed")):
        out = engine.apply(command)
        assert out.ok, out.error


def no_surprise(engine: Engine) -> None:
    """Nobody attacks by surprise: Start Fight goes straight to initiative."""
    assert engine.apply(c.SetValue(fighter_id="rooftop-sniper", field="status.ambusher",
                                   value=False)).ok


PREPARE: dict[str, Callable[[Engine], None] | None] = {
    "plain": None, "wounds": wounds_by_roll, "no-surprise": no_surprise}


@pytest.mark.parametrize(("policy", "seed", "steps", "setup", "undo_every"), [
    ("autopilot", 1, 80, "plain", 7),
    ("autopilot", 3, 70, "wounds", 0),
    ("random", 2, 60, "wounds", 5),
    ("random", 4, 50, "no-surprise", 6),
])
def test_the_demo_fight_reads_the_same(request: pytest.FixtureRequest, policy: str, seed: int,
                                       steps: int, setup: str, undo_every: int) -> None:
    """Every log line, card, form and view of a seeded roll-under demo fight, against the
    committed copy: a changed rule, word or view shows as a diff."""
    text = play_to_text(DEMO, policy=policy, seed=seed, steps=steps, prepare=PREPARE[setup],
                        undo_every=undo_every)
    check_golden(request, f"demo-{policy}-{seed}-{setup}", text)
