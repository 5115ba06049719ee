"""Engine speed against the size of the fight: 200 and 400 fighters, for every ruleset.

Every ruleset whose rules are built, that has an autopilot and a demo fight in
``resources/`` (``demo_fight.json`` for street-fighter, ``demo_<ruleset>.json`` for the
others) joins by itself. Its demo fighters are copied round-robin into a fight of
``n`` fighters (alternately party and enemies); the autopilot plays the same number of
commands on the full engine the window uses (log, changes, notices), and the script times:

- ``next``: the GM's next phase or turn (``NextStep``), tried before each command;
- ``act``: the autopilot's commands other than the round's steps (actions, interrupts,
  answers);
- ``undo`` and ``redo`` of each step just applied;
- ``views``: what the window asks on every change (timeline, every card, the stack, the
  round controls, the state line, the waiting roll and decision), after every command
  (the views keep what a command did not change from one state to the next, so they
  are asked as often as the window asks them);
- ``click``: the engine's side of a click: the autopilot's command applied, then the
  views (its ``act`` or step and its ``views`` together).

Goal: each median at 400 fighters within 2.2x of the same at 200 (no worse
than linear), ratios measured in one run.

    python benchmarks/engine_scale.py [--sizes 200 400] [--commands N] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from fightdesk.engine.commands import NextStep  # noqa: E402
from fightdesk.engine.engine import Engine  # noqa: E402
from fightdesk.engine.model import Encounter, Session  # noqa: E402
from fightdesk.engine.ruleset import Autopilot, Ruleset, get_ruleset  # noqa: E402

RESOURCES = REPO / "resources"
GOAL = 2.2
STEPS = frozenset({"start-fight", "start-round", "next-step", "end-round", "end-fight"})
MEASURES = ("next", "act", "undo", "redo", "views", "click")


def demo_fights() -> list[tuple[Ruleset, Encounter]]:
    """Each playable ruleset's demo fight (before round 1), one per ruleset."""
    found: dict[str, tuple[Ruleset, Encounter]] = {}
    for path in sorted(RESOURCES.glob("demo*.json")):
        enc = Session.model_validate_json(path.read_text(encoding="utf-8")).start
        ruleset = get_ruleset(enc.ruleset)
        if not ruleset.rules.rules_built or type(ruleset.autopilot).next_command is Autopilot.next_command:
            continue
        found.setdefault(ruleset.id, (ruleset, enc))
    return list(found.values())


def scaled(demo: Encounter, n: int) -> Encounter:
    """The demo's fighters copied round-robin into ``n`` fighters, sides alternating."""
    data = demo.model_dump(mode="json")
    templates = [data["fighters"][fid] for fid in data["order"]]
    fighters: dict[str, Any] = {}
    for i in range(n):
        fighter = json.loads(json.dumps(templates[i % len(templates)]))
        fighter["id"] = f"{fighter['id']}-{i}"
        fighter["name"] = f"{fighter['name']} {i}"
        fighter["side"] = "pc" if i % 2 else "enemy"
        fighters[fighter["id"]] = fighter
    data.update(fighters=fighters, order=list(fighters), dice_seed=1)
    return Encounter.model_validate(data)


# The processor time of this process by default: on a machine shared with other work, the
# wall clock also counts the time other processes held the core (``--clock wall`` for it).
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = clock()
    result = call()
    return (clock() - start) * 1000, result


def views(ruleset: Ruleset, enc: Encounter) -> None:
    """What the window asks of the engine after every change (``_show_views`` and the
    fighters and stack models)."""
    ruleset.views.timeline(enc)
    ruleset.views.cards(enc)
    ruleset.views.stack(enc)
    ruleset.views.round_controls(enc)
    ruleset.views.describe_state(enc)
    ruleset.views.roll_view(enc)
    ruleset.rules.pending(enc)


def play(ruleset: Ruleset, demo: Encounter, n: int, commands: int,
         every: int) -> dict[str, list[float]]:
    """Times of each measure over ``commands`` autopilot commands on ``n`` fighters.

    Before each command of a started fight the GM's next step is tried (timed, its undo
    and redo timed, then taken back untimed), so ``next`` samples the states the
    autopilot passes through at either size rather than the few steps it takes itself."""
    engine = Engine(Session.begin(scaled(demo, n)))
    rng = random.Random(1)
    times: dict[str, list[float]] = {m: [] for m in MEASURES}
    for i in range(commands):
        command = ruleset.autopilot.next_command(engine.encounter, rng)
        if command is None:
            break
        if engine.encounter.round >= 1:
            ms, outcome = _timed(partial(engine.apply, NextStep()))
            if outcome.ok:
                times["next"].append(ms)
                times["undo"].append(_timed(engine.undo)[0])
                times["redo"].append(_timed(engine.redo)[0])
                engine.undo()
        ms, outcome = _timed(partial(engine.apply, command))
        if not outcome.ok:
            raise SystemExit(f"{ruleset.id}: the autopilot's {command.kind} was refused: "
                             f"{outcome.error}")
        if command.kind not in STEPS:
            times["act"].append(ms)
        shown = _timed(lambda: views(ruleset, engine.encounter))[0]
        if i % every == 0:
            times["views"].append(shown)
            times["click"].append(ms + shown)
        times["undo"].append(_timed(engine.undo)[0])
        times["redo"].append(_timed(engine.redo)[0])
        views(ruleset, engine.encounter)  # the window shows the state after each step
    return times


def rows(sizes: tuple[int, int], commands: int, every: int) -> list[dict[str, Any]]:
    small, big = sizes
    out: list[dict[str, Any]] = []
    for ruleset, demo in demo_fights():
        play(ruleset, demo, 20, 30, every)  # warm up: imports and caches
        found = {n: play(ruleset, demo, n, commands, every) for n in sizes}
        for measure in MEASURES:
            if not found[small][measure] or not found[big][measure]:
                continue
            low = statistics.median(found[small][measure])
            high = statistics.median(found[big][measure])
            ratio = high / low
            out.append({"measure": f"engine {ruleset.id}: {measure}, {small} fighters",
                        "median_ms": round(low, 3), "ratio": None, "goal": "",
                        "met": None})
            out.append({"measure": f"engine {ruleset.id}: {measure}, {big} fighters",
                        "median_ms": round(high, 3), "ratio": round(ratio, 2),
                        "goal": f"<= {GOAL}x the {small}-fighter median",
                        "met": ratio <= GOAL})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=(200, 400))
    parser.add_argument("--commands", type=int, default=150,
                        help="autopilot commands played at each size")
    parser.add_argument("--views-every", type=int, default=1,
                        help="time the views (asked after every command) every N commands")
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu",
                        help="processor time of this process (default) or the wall clock")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    table = rows(tuple(args.sizes), args.commands, args.views_every)
    if args.json:
        print(json.dumps(table))
        return 0
    print(f"engine at {args.sizes[0]} and {args.sizes[1]} fighters, {args.commands} "
          f"autopilot commands each (medians, {args.clock} time; ratios in one run)")
    for row in table:
        ratio = f"{row['ratio']:.2f}x" if row["ratio"] is not None else ""
        met = "" if row["met"] is None else ("met" if row["met"] else "NOT met")
        print(f"  {row['measure']:<46} {row['median_ms']:9.3f} ms  {ratio:>7}  {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
