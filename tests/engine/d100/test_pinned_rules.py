"""d100 scenarios with pinned dice for rules the mutation run found unpinned
(docs/testing.md "Mutation testing", docs/mutation/d100.md): each names its rule and the
section of docs/rulesets/d100.md."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.d100 import commands as dc

from .fight import go_to
from .test_rules import entangled


def rolls(engine: Engine) -> list[tuple[str, str, str]]:
    """The last step's rolls as (who, purpose, outcome)."""
    return [(e.roll.who, e.roll.purpose, e.roll.outcome)
            for e in engine.session.log[-1].events if e.roll is not None]


def test_breaking_free_logs_both_rolls_with_the_damage_skill() -> None:
    """docs/rulesets/d100.md#entangle: both roll 1d100 + Damage skill; the log says whose
    roll is which (the holder resists the break)."""
    engine = entangled()
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "bandit-1")
    assert engine.apply(dc.BreakFree(fighter_id="bandit-1", dice=[[60], [50]])).ok
    assert rolls(engine) == [
        ("Bandit 1", "breaking free (+ Damage skill)", "65"),
        ("Vesna", "resisting Bandit 1's breaking free (+ Damage skill)", "65"),
    ]
    assert engine.session.log[-1].summary == "Bandit 1 stays entangled by Vesna (65 to 65)"
