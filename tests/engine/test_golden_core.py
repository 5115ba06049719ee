"""Short seeded fights of every demo and of the drill ruleset, played on the full engine
through the shared core and compared with golden files (tests/golden.py).

Why here: the scenario tests of the core pin its rules one by one, but what the core
shows (the turn order's timeline, cards, hold form and round controls, the roll panel
of a waiting roll, the player view, the log lines of a turn, a hold, a roll or a coin
flip) is read by the GM in every ruleset. These fights pin those words and views for the
core's own tests, so a changed view or log line of the core fails here
(docs/mutation/core.md).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.engine.player_view import public_fight
from fightdesk.engine.ruleset import Ruleset, get_ruleset
from tests.drill_ruleset import DrillEngine, drill_session
from tests.golden import _changes, _shown, check_golden, next_command, step_lines, views_text

RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def _views(ruleset: Ruleset, engine: Engine) -> dict[str, list[str]]:
    """What the window and the player view draw, as in tests/golden.py, from the given
    ruleset (the drill plays a roll-under fight's data by its own rules)."""
    enc = engine.encounter
    return views_text(enc, ruleset, more={
        "next up": list(ruleset.rules.next_up(enc)),
        "timed turn": [repr(ruleset.rules.timed_turn(enc))],
        "player view": _shown(public_fight(ruleset, enc)),
    })


def play(engine: Engine, ruleset: Ruleset, *, seed: int, steps: int, policy: str = "random",
         undo_every: int = 3, setup: tuple[c.Command, ...] = ()) -> str:
    """Play a fight by random legal commands (each option and refusal written down) or by
    the ruleset's autopilot, undoing and redoing every few steps, and write down after
    every command what changed in what the GM and the players read."""
    rng = random.Random(seed)
    lines = [f"# {engine.encounter.name}, {policy}, seed {seed}"]
    for order in setup:
        outcome = engine.apply(order)
        said = engine.session.log[-1].summary if outcome.ok else outcome.error
        lines.append(f"-- set-up {order!r}: {said}")
    before = _views(ruleset, engine)
    for name, text in before.items():
        lines.extend(_changes(name, None, text))
    for step in range(1, steps + 1):
        command = next_command(engine, ruleset, rng, policy, step, lines,
                               idle="nothing to do")
        if command is None:
            break
        lines.extend(step_lines(engine, step, command, data=True))
        after = _views(ruleset, engine)
        if step % undo_every == 0:
            # Undo takes back a whole step (a waiting roll's exchange is one): where it
            # lands is written down; redo must give back every view.
            engine.undo()
            log = engine.session.log
            lines.append(f"   undo -> {len(log)} entries, {ruleset.views.where(engine.encounter)!r}, "
                         f"last: {log[-1].summary if log else None!r}")
            engine.redo()
            assert _views(ruleset, engine) == after, f"step {step}: redo left a view changed"
        for name, text in after.items():
            if before.get(name) != text:
                lines.extend(_changes(name, before.get(name), text))
        before = after
    return "\n".join(lines) + "\n"


# Each demo with how the player view shows the enemies, and one enemy hidden from it.
DEMOS = [("demo_roll-under.json", "word", "rooftop-sniper", "random"),
         ("demo_roll-under.json", "exact", "", "autopilot"),
         ("demo_d100.json", "exact", "bandit-2", "random"),
         ("demo_ashes.json", "hidden", "ash-hound", "random"),
         ("demo_fight.json", "bar", "dock-thug-3", "random")]


@pytest.mark.parametrize(("demo", "health", "hidden", "policy"), DEMOS)
def test_each_demo_fight_reads_the_same_through_the_core(
        request: pytest.FixtureRequest, demo: str, health: str, hidden: str,
        policy: str) -> None:
    """Twenty commands of each demo fight (random legal ones, or the autopilot's), with
    undo and redo every third: every view and log line against the committed copy."""
    session = Session.model_validate_json((RESOURCES / demo).read_text(encoding="utf-8"))
    session.encounter.dice_seed = 5
    engine = Engine(session)
    setup: tuple[c.Command, ...] = (c.SetEnemyHealth(show=health),)
    if hidden:
        setup += (c.HideFighter(fighter_id=hidden),)
    text = play(engine, get_ruleset(session.encounter.ruleset), seed=5, steps=20,
                policy=policy, setup=setup)
    check_golden(request, f"core-{demo.removesuffix('.json')}-{policy}", text)


@pytest.mark.parametrize(("seed", "timer"), [(2, False), (9, True)])
def test_the_drill_fight_reads_the_same(request: pytest.FixtureRequest, seed: int,
                                        timer: bool) -> None:
    """The drill ruleset's turn order, holds, waiting rolls with help and coins, played
    by random legal commands (one fight with the turn timer on): every view and log line
    against the committed copy."""
    engine = DrillEngine(drill_session(seed))
    if timer:
        engine.drill_rules.timer_seconds = 30
    text = play(engine, engine.drill, seed=seed, steps=40)
    check_golden(request, f"core-drill-{seed}{'-timer' if timer else ''}", text)
