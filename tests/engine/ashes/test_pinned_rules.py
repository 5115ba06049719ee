"""Ashes scenarios with pinned coins for rules and words the mutation run and the golden
fights found unpinned (docs/mutation/ashes.md): each names its rule and the section of
docs/rulesets/ashes.md."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.ashes import commands as ash
from fightdesk.engine.rulesets.ashes.rules import Ashes

from .fight import fight


def purpose(engine: Engine) -> str:
    """What the log will say the waiting challenge's coins are for."""
    ruleset, roll = engine.ruleset, engine.encounter.state.roll
    assert isinstance(ruleset, Ashes) and roll is not None
    return ruleset.roll_purpose(roll, roll.roller_id)


def ok(engine: Engine, command: c.Command) -> None:
    out = engine.apply(command)
    assert out.ok, out.error


def test_a_challenge_without_the_skill_reads_unskilled() -> None:
    """docs/rulesets/ashes.md#offensive-action-without-the-skill: the log and the roll
    panel say "unskilled", not "with unskilled"."""
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill=None))
    roll = engine.encounter.state.roll
    assert roll is not None
    assert roll.label == "Han challenges Trooper unskilled (-3 against 1)"
    assert purpose(engine) == "a challenge on Trooper unskilled at -4"


def test_a_completed_cooperative_action_names_the_action_and_its_target() -> None:
    """docs/rulesets/ashes.md#cooperative-actions: the one who completes it makes the
    challenge with every rating together."""
    engine = fight()
    ok(engine, c.StartRound())
    ok(engine, ash.StartCooperative(fighter_id="han", target_id="vader", skill="Blaster"))
    ok(engine, c.NextStep())
    ok(engine, ash.JoinCooperative(fighter_id="ben", skill="Lightsaber", complete=True))
    roll = engine.encounter.state.roll
    assert roll is not None
    assert roll.label == "Ben completes the cooperative action on Vader (9 against 4)"
    assert purpose(engine) == "a cooperative challenge on Vader at +5"
