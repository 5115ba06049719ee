"""Engine speed for street-fighter: a scripted 10-round fight of 4 fighters and 6 weenies.

A simple policy plays it (the fighter whose turn it is attacks someone on the other side,
now and then someone blocks as an interrupt, every question gets a plain answer), and every
``Engine.apply`` is timed. Prints the median, 90th percentile and worst time per action
(target: median under 1 ms), and, for the UI, the time of the views of a 200-fighter fight
after each command of the same policy (what the window asks after each click).

Times are this process's processor time by default (``--clock wall`` for the wall clock):
on a machine shared with other work the wall clock of a 0.1 ms action mostly measures
the others. ``--json`` prints rows (measure, median_ms, ratio, goal, met).

    python benchmarks/engine_street_fighter.py [--seed N] [--clock cpu|wall] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Session
from fightdesk.engine.rulesets.street_fighter import commands as sf
from fightdesk.engine.rulesets.street_fighter.round import current_actor

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]

SHEET: dict[str, Any] = {
    "ruleset": "street-fighter", "strength": 3, "dexterity": 4, "stamina": 3, "charisma": 2,
    "manipulation": 2, "appearance": 2, "perception": 3, "intelligence": 3, "wits": 3,
    "arena": 1, "style_lore": 1, "insight": 1, "intimidation": 1, "subterfuge": 1,
    "punch": 3, "kick": 3, "block": 2, "grab": 2, "athletics": 2, "focus": 1, "health": 14,
    "chi": 2, "willpower": 5,
}


def _fighter(fid: str, side: str, *, weenie: bool = False, wits: int = 3,
             group: str | None = None) -> dict[str, Any]:
    sheet = {**SHEET, "wits": wits, "weenie": weenie}
    if side == "pc":  # two heroes against eight: tough enough to last ten rounds
        sheet.update({"health": 30, "stamina": 5, "block": 4})
    if weenie:
        sheet.update({"health": 4, "strength": 2, "punch": 1, "kick": 1, "stamina": 2})
    return {"id": fid, "name": fid.replace("-", " ").title(), "side": side, "group": group,
            "sheet": sheet, "status": {"ruleset": "street-fighter", "health": sheet["health"],
                                       "chi": sheet["chi"], "willpower": sheet["willpower"]}}


def build_fight(seed: int) -> Engine:
    fighters = [
        _fighter("aiko", "pc", wits=4), _fighter("bram", "pc", wits=2),
        _fighter("cato", "enemy", wits=3), _fighter("dara", "enemy", wits=5),
        *[_fighter(f"thug-{n}", "enemy", weenie=True, wits=1 + n % 3, group="thugs")
          for n in range(1, 7)],
    ]
    enc = Encounter.model_validate({
        "ruleset": "street-fighter", "fighters": {f["id"]: f for f in fighters},
        "order": [f["id"] for f in fighters], "groups": {"thugs": {"id": "thugs",
                                                                    "name": "Thug"}},
        "dice_seed": seed,
    })
    return Engine(Session.begin(enc))


MOVES = ("Jab", "Strong", "Short", "Forward", "Fierce")


def next_command(eng: Engine, rnd: random.Random) -> c.Command | None:
    """The simple policy: what the table would do next."""
    enc = eng.encounter
    rs = enc.state
    decision = eng.pending()
    if decision is not None:
        ids = [ch.id for ch in decision.choices]
        for pick in ("convert", "accept", "ep", "roll"):
            if pick in ids:
                return c.Answer(decision_id=decision.id, choice=pick)
        if ids:
            return c.Answer(decision_id=decision.id, choice=ids[-1])
        return c.Answer(decision_id=decision.id,
                        amount=min(decision.maximum or 0, rnd.choice((0, 0, 1))))
    if rs.stage == "fight-over":
        return None
    if rs.stack:
        if not rs.resolving and rnd.random() < 0.3:
            victim = max((m for m in rs.stack if m.open), key=lambda m: m.id)
            target = enc.fighters.get(victim.target_id or "")
            if target is not None and target.status.health > 0:
                return sf.Interrupt(fighter_id=target.id, maneuver="Block")
        return sf.ResolveNext()
    if rs.stage == "phases":
        actor = current_actor(enc)
        if actor is not None:
            side = enc.fighters[actor].side
            foes = [f for f in enc.order if enc.fighters[f].side != side
                    and enc.fighters[f].status.health > 0]
            if foes:
                return sf.Act(fighter_id=actor, maneuver=rnd.choice(MOVES),
                              target_id=rnd.choice(foes))
    if rs.stage == "round-over" and enc.round >= 10:
        return c.EndFight()
    return c.NextStep()


def run_fight(seed: int) -> tuple[list[float], int]:
    eng = build_fight(seed)
    rnd = random.Random(seed)
    timings: list[float] = []
    refused = 0
    for _ in range(20_000):
        command = next_command(eng, rnd)
        if command is None:
            break
        t0 = clock()
        out = eng.apply(command)
        timings.append(clock() - t0)
        if not out.ok:
            refused += 1
            if isinstance(command, sf.Interrupt):
                continue
            if isinstance(command, sf.Act):
                eng.apply(sf.PassDie(fighter_id=command.fighter_id))
                continue
            raise SystemExit(f"policy stuck: {command.kind}: {out.error}")
    assert eng.encounter.state.stage == "fight-over", eng.encounter.state.stage
    assert eng.rebuild().model_dump(mode="json") == eng.encounter.model_dump(mode="json")
    return timings, refused


def time_views(n: int = 200, *, one_by_one: bool = False, steps: int = 40) -> float:
    """Median time of the views the UI asks for after every change, for ``n`` fighters:
    the simple policy plays ``steps`` commands (next phases, acts, interrupts, answers)
    and the views are timed after each, as the window asks them after each click (the
    views keep what a command did not change, so the same state asked twice would
    measure nothing)."""
    fighters = [_fighter(f"f{i}", "pc" if i % 2 else "enemy", wits=i % 10) for i in range(n)]
    enc = Encounter.model_validate({
        "ruleset": "street-fighter", "fighters": {f["id"]: f for f in fighters},
        "order": [f["id"] for f in fighters], "dice_seed": 1,
    })
    eng = Engine(Session.begin(enc))
    rs = eng.ruleset
    rnd = random.Random(1)
    samples = []
    for _ in range(steps):
        command = next_command(eng, rnd)
        if command is None:
            break
        if not eng.apply(command).ok and isinstance(command, sf.Act):
            eng.apply(sf.PassDie(fighter_id=command.fighter_id))
        t0 = clock()
        rs.views.timeline(eng.encounter)
        if one_by_one:
            for fid in eng.encounter.order:
                rs.views.card(eng.encounter, fid)
        else:
            rs.views.cards(eng.encounter)
        rs.views.stack(eng.encounter)
        rs.views.round_controls(eng.encounter)
        rs.views.describe_state(eng.encounter)
        samples.append(clock() - t0)
    return statistics.median(samples)


def baseline_note_ms(seed: int, count: int = 2000) -> float:
    """Median time of the engine's cheapest command (a GM note) on the same fight: the
    fixed cost of ``apply`` (transaction, log entry, notice), measured in the same run."""
    eng = build_fight(seed)
    samples = []
    for i in range(count):
        command = c.Note(text=f"note {i}")
        t0 = clock()
        eng.apply(command)
        samples.append(clock() - t0)
    return statistics.median(samples) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--fights", type=int, default=5)
    parser.add_argument("--clock", choices=tuple(CLOCKS), default="cpu")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    run_fight(args.seed)  # warm up: imports and caches
    everything: list[float] = []
    refused = 0
    for i in range(args.fights):
        timings, bad = run_fight(args.seed + i)
        everything += timings
        refused += bad
    everything.sort()
    ms = [t * 1000 for t in everything]
    p90 = ms[int(len(ms) * 0.9)]
    median = statistics.median(ms)
    base = baseline_note_ms(args.seed)
    views = time_views() * 1000
    one_by_one = time_views(one_by_one=True) * 1000
    if args.json:
        print(json.dumps([
            {"measure": "street-fighter engine: a GM note (the apply path's fixed cost)",
             "median_ms": round(base, 4), "ratio": None, "goal": "", "met": None},
            {"measure": "street-fighter engine: per action (ratio: x a GM note)",
             "median_ms": round(median, 4), "ratio": round(median / base, 2),
             "goal": "median under 1 ms", "met": median < 1.0},
            {"measure": "street-fighter views, 200 fighters (timeline, cards(), stack, "
                        "controls)", "median_ms": round(views, 3), "ratio": None,
             "goal": "", "met": None},
            {"measure": "street-fighter views, 200 fighters, card() one by one "
                        "(ratio: x cards())", "median_ms": round(one_by_one, 3),
             "ratio": round(one_by_one / views, 2), "goal": "", "met": None},
        ]))
        return
    print(f"street-fighter engine: {args.fights} fights x 10 rounds, 4 fighters + 6 weenies "
          f"({args.clock} time)")
    print(f"  actions applied: {len(ms)} ({refused} refused by the rules, also timed)")
    print(f"  per action: median {median:.3f} ms, p90 {p90:.3f} ms, "
          f"max {ms[-1]:.3f} ms  (target: median under 1 ms)")
    print(f"  baseline (a GM note through the same apply path): median {base:.3f} ms; "
          f"a rules action costs {median / base:.1f}x that")
    print(f"  views for 200 fighters (timeline + cards() + stack + controls): "
          f"median {views:.2f} ms")
    print(f"  the same with card() called 200 times: median {one_by_one:.2f} ms")


if __name__ == "__main__":
    main()
