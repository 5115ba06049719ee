"""Encounter simulator speed: demo fights per second on one core, what each part of the
engine's lean mode saves, and the time for 1,000 demo fights on every core.

Every mode plays the same fights (the same seeds), and the script checks that each one
ends exactly as on the lean engine: the lean mode changes what is kept, never the rules.

    python benchmarks/simulate.py [--fights N] [--repeats R] [--all-cores N] [--json]

``--json`` prints rows (measure, median_ms, ratio, goal, met); the goal:
1,000 demo fights on every core of the 2-core development machine in under 10 s.

Modes, each against the lean engine in the same run:

- ``journal``: a full engine with the autosave journal attached (every action logged,
  told to the listener, appended to the journal and fsynced), what the window does;
- ``log``: a full engine (log entries, lines, notices) with no listener;
- ``changes``: no log entries or notices, but every write still recorded as a change
  (JSON before and after) and the rules' lines for the log still made;
- ``lines``: writes no longer recorded (a rollback keeps the old values instead), the
  rules' lines still made;
- ``lean``: ``Engine.lean`` (no log, listeners, journal or lines), what the simulator uses.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from fightdesk.engine.engine import Engine  # noqa: E402
from fightdesk.engine.model import Session  # noqa: E402
from fightdesk.engine.simulate import (  # noqa: E402
    FightResult,
    fight_copies,
    play_fight,
    quick_start,
    simulate,
)

DEMO = REPO / "resources" / "demo_fight.json"


def _journal_engine(folder: Path) -> Callable[[Session], Engine]:
    from fightdesk.storage.autosave import Autosave

    def make(session: Session) -> Engine:
        engine = Engine(session)
        Autosave(folder / f"run-{time.monotonic_ns()}").attach(engine)
        return engine

    return make


def _play(enc_json: bytes, ids: tuple[str, ...], fights: int,
          make: Callable[[Session], Engine]) -> tuple[float, list[FightResult]]:
    start = time.perf_counter()
    results = [play_fight(enc_json, ids, i, 1, "autopilot", 20, make_engine=make)
               for i in range(fights)]
    return time.perf_counter() - start, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fights", type=int, default=40, help="fights per mode and repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--all-cores", type=int, default=1000,
                        help="fights for the every-core run (0: skip it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    session = Session.model_validate_json(DEMO.read_text(encoding="utf-8"))
    enc_json = fight_copies(session.encounter)  # as simulate copies the fight
    ids = tuple(session.encounter.order)
    play_fight(enc_json, ids, 0, 1, "autopilot", 20)  # warm up: imports, caches

    with tempfile.TemporaryDirectory(prefix="fightdesk-bench-") as tmp:
        modes: dict[str, Callable[[Session], Engine]] = {
            "journal": _journal_engine(Path(tmp)),
            "log": Engine,
            "changes": lambda s: Engine(s, log=False, narrate=True, record=True),
            "lines": lambda s: Engine(s, log=False, narrate=True),
            "lean": Engine.lean,
        }
        times: dict[str, list[float]] = {name: [] for name in modes}
        reference: list[FightResult] | None = None
        for _ in range(args.repeats):
            for name, make in modes.items():
                seconds, results = _play(enc_json, ids, args.fights, make)
                times[name].append(seconds)
                if reference is None:
                    reference = results
                elif results != reference:
                    raise SystemExit(f"mode {name} played different fights: the rules changed")
    per_fight = {name: statistics.median(t) / args.fights for name, t in times.items()}
    lean = per_fight["lean"]
    report: dict[str, object] = {
        "fights_per_mode": args.fights, "repeats": args.repeats,
        "ms_per_fight": {k: round(v * 1000, 2) for k, v in per_fight.items()},
        "vs_lean": {k: round(v / lean, 2) for k, v in per_fight.items()},
        "fights_per_second_per_core": round(1 / lean, 1),
        "cores": os.cpu_count(),
    }
    if args.all_cores:
        # The same run on one process and on every core (the pool's gain, start-up and
        # all): the figures must be equal, the times tell what the cores give.
        found = []
        for key, workers in (("one_core_seconds", 1), ("all_cores_seconds", None)):
            start, cpu = time.perf_counter(), time.process_time()
            # Workers start as the command line starts them (fork on Linux).
            result = simulate(session, fights=args.all_cores, seed=1, workers=workers,
                              start=quick_start())
            assert result is not None
            report[key] = round(time.perf_counter() - start, 2)
            if workers == 1:
                # The processor time of the one-process run: what the fights cost whatever
                # else the machine runs (two idle cores need about half of it, plus the
                # workers' start).
                report["one_core_cpu_seconds"] = round(time.process_time() - cpu, 2)
            found.append(result.as_json())
        if found[0] != found[1]:
            raise SystemExit("one core and every core gave different results")
        report["all_cores_fights"] = args.all_cores
        report["load_average"] = round(os.getloadavg()[0], 2)
    if args.json:
        print(json.dumps(_rows(report, per_fight, args.all_cores)))
        return 0
    print(f"demo fight, autopilot, {args.fights} fights x {args.repeats} repeats per mode "
          f"(median); {os.cpu_count()} cores")
    for name in modes:
        print(f"  {name:<8} {per_fight[name] * 1000:8.2f} ms per fight   "
              f"{per_fight[name] / lean:5.2f} x lean")
    print(f"  lean: {1 / lean:.1f} demo fights per second per core")
    if args.all_cores:
        print(f"  {args.all_cores} demo fights on one core: {report['one_core_seconds']} s "
              f"({report['one_core_cpu_seconds']} s of processor time), "
              f"on every core: {report['all_cores_seconds']} s (same result; load average "
              f"{report['load_average']} at the end)")
    return 0


def _rows(report: dict[str, object], per_fight: dict[str, float],
          fights: int) -> list[dict[str, object]]:
    """The figures as rows (measure, median_ms, ratio, goal, met) for benchmarks/run_all.py."""
    lean = per_fight["lean"]
    rows: list[dict[str, object]] = [
        {"measure": f"simulate: one demo fight, {name} engine (ratio: x lean)",
         "median_ms": round(seconds * 1000, 2), "ratio": round(seconds / lean, 2),
         "goal": "", "met": None}
        for name, seconds in per_fight.items()]
    if fights:
        one = float(report["one_core_seconds"])  # type: ignore[arg-type]
        every = float(report["all_cores_seconds"])  # type: ignore[arg-type]
        rows.append({"measure": f"simulate: {fights:,} demo fights on one core",
                     "median_ms": round(one * 1000, 1), "ratio": None, "goal": "",
                     "met": None})
        cpu = float(report["one_core_cpu_seconds"])  # type: ignore[arg-type]
        rows.append({"measure": f"simulate: {fights:,} demo fights on one core, processor "
                                "time (ratio: x wall time)",
                     "median_ms": round(cpu * 1000, 1), "ratio": round(cpu / one, 2),
                     "goal": "", "met": None})
        goal_ms = 10_000 * fights / 1000
        rows.append({"measure": f"simulate: {fights:,} demo fights on every core "
                                f"({report['cores']}; ratio: x one core)",
                     "median_ms": round(every * 1000, 1), "ratio": round(every / one, 2),
                     "goal": f"under {goal_ms / 1000:g} s", "met": every * 1000 < goal_ms})
    return rows


if __name__ == "__main__":
    sys.exit(main())
