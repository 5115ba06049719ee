"""Short seeded fights of every demo and of the drill ruleset, played on the full engine
through the shared core and compared with golden files (tests/golden.py).

Why here: the scenario tests of the core pin its rules one by one, but what the core
shows (the turn order's timeline, cards, hold form and round controls, the roll panel
of a waiting roll, the log lines of a turn, a hold, a coin flip) is read by the GM in
every ruleset. These fights pin those words and views for the core's own tests, so a
changed view or log line of the core fails here (docs/mutation/core.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from fightdesk.engine.engine import Engine
from fightdesk.engine.ruleset import Ruleset
from tests.drill_ruleset import DrillEngine, drill_session
from tests.golden import (
    _changes,
    _form_lines,
    _option_text,
    _shown,
    check_golden,
    play_to_text,
)


@pytest.mark.parametrize(("demo", "seed"), [
    ("demo_roll-under.json", 5), ("demo_d100.json", 5), ("demo_ashes.json", 5),
    ("demo_fight.json", 5)])
def test_each_demo_fight_reads_the_same_through_the_core(request: pytest.FixtureRequest,
                                                         demo: str, seed: int) -> None:
    """Twenty random legal commands of each demo fight, with undo and redo every fourth:
    every view and log line against the committed copy."""
    text = play_to_text(demo, policy="random", seed=seed, steps=20, undo_every=4)
    check_golden(request, f"core-{demo.removesuffix('.json')}-{seed}", text)


def _views(ruleset: Ruleset, engine: Engine) -> dict[str, list[str]]:
    """What the window draws, as in tests/golden.py, from a ruleset the registry does not
    know (the drill plays a roll-under fight's data by its own rules)."""
    enc = engine.encounter
    views: dict[str, list[str]] = {
        "where": [ruleset.where(enc)],
        "pending": _shown(ruleset.pending(enc)),
        "timeline": _shown(ruleset.timeline(enc)),
        "stack": _shown(ruleset.stack(enc)),
        "controls": _shown(ruleset.round_controls(enc)),
        "roll": _shown(ruleset.roll_view(enc)),
        "state": ruleset.describe_state(enc).splitlines(),
        "next up": list(ruleset.next_up(enc)),
        "timed turn": [repr(ruleset.timed_turn(enc))],
    }
    for fid, card in ruleset.cards(enc):
        views[f"card {fid}"] = _shown(card)
        views[f"forms {fid}"] = _form_lines(ruleset.action_forms(enc, fid))
    return views


def play_drill(seed: int, steps: int, prepare: Callable[[DrillEngine], None] | None = None) -> str:
    """The drill fight played by random legal commands (each option and each refusal
    written down), undoing and redoing every third step."""
    engine = DrillEngine(drill_session(seed))
    if prepare is not None:
        prepare(engine)
    ruleset = engine.drill
    rng = random.Random(seed)
    lines = [f"# drill, random, seed {seed}"]
    before = _views(ruleset, engine)
    for name, text in before.items():
        lines.extend(_changes(name, None, text))
    for step in range(1, steps + 1):
        options = ruleset.legal_commands(engine.encounter)
        lines.append(f"-- step {step}: {len(options)} options")
        lines.extend(f"   {_option_text(o)}" for o in options)
        done = False
        for _ in range(20):
            if not options:
                break
            option = options[rng.randrange(len(options))]
            command = option.command_at(rng.randrange(option.size))
            outcome = engine.apply(command)
            if outcome.ok:
                done = True
                break
            lines.append(f"   refused {command!r}: {outcome.error}")
        if not done:
            lines.append(f"-- step {step}: nothing legal was taken")
            break
        entry = engine.session.log[-1]
        lines.append(f"-- step {step}: round {entry.round}, {entry.where}: {entry.summary}")
        lines.append(f"   {command!r}")
        for event in entry.events:
            roll = f" {event.roll!r}" if event.roll is not None else ""
            lines.append(f"   [{event.kind} {event.fighter_id}] {event.text}{roll}")
        after = _views(ruleset, engine)
        if step % 3 == 0:
            engine.undo()
            if _views(ruleset, engine) != before:
                lines.append("   UNDO DID NOT GIVE BACK THE VIEWS")
            engine.redo()
            if _views(ruleset, engine) != after:
                lines.append("   REDO DID NOT GIVE BACK THE VIEWS")
        for name, text in after.items():
            if before.get(name) != text:
                lines.extend(_changes(name, before.get(name), text))
        before = after
    return "\n".join(lines) + "\n"


def _with_timer(engine: DrillEngine) -> None:
    engine.drill.timer_seconds = 30


@pytest.mark.parametrize(("seed", "timer"), [(2, False), (9, True)])
def test_the_drill_fight_reads_the_same(request: pytest.FixtureRequest, seed: int,
                                        timer: bool) -> None:
    """The drill ruleset's turn order, holds, waiting rolls with help and coins, played
    by random legal commands: every view and log line against the committed copy."""
    text = play_drill(seed, 40, _with_timer if timer else None)
    check_golden(request, f"core-drill-{seed}{'-timer' if timer else ''}", text)
