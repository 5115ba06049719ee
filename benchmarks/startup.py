"""Start-up time of fightdesk against a bare PySide6 window, measured in the same run.

Each run launches a fresh process (Qt offscreen, throw-away user folders) and times it
from launch:

- bare: ``import PySide6``, ``QApplication``, show an empty ``QMainWindow``, quit after
  its first paint;
- app: ``python -m fightdesk`` with FIGHTDESK_STARTUP_PROBE=1. It starts exactly as the
  GM's ``fightdesk`` does (the autosave check and attach included) and prints a marker
  after the first paint, after the demo fight is loaded, once the loaded fight is
  painted and the event loop is free ("ready", i.e. clickable), and once the work put
  off until after that (campaign library dock, print menu) is done ("settled"); then
  it quits;
- app, quit when shown: the same with FIGHTDESK_STARTUP_PROBE=shown, which quits as soon
  as the fight is on screen ("shown": the demo's picture painted, before the rules load,
  docs/startup.md). Its whole-process time is the measure of the fight shown:
  launch, the window shown with the demo fight, quit; against the bare window's launch,
  show, quit;
- app, quit when ready: the same with FIGHTDESK_STARTUP_PROBE=ready, which quits at
  "ready" (the rules loaded and the live fight painted: clickable). Its whole-process
  time is the measure of the fight loaded and clickable (launch, ready, quit).

The three alternate, so a busy machine slows all alike. Markers carry the child's
``time.monotonic()``, the same clock the parent reads at launch (Linux).

Two ratios are reported for "loaded and clickable": the issue's whole-process one
(above), and a stricter marker-to-marker one, fightdesk's "ready" marker against the
bare window's first-paint marker (no interpreter exit in either).

Every app run gets fresh user folders, so each is a first start on the demo fight (no
autosave to reopen, no remembered layout). Python code runs from cached bytecode, as
after ``pip install`` (which compiles it) or any earlier start: the warm-up run writes
it into a private cache folder, since this sandbox sets PYTHONDONTWRITEBYTECODE. With
``--no-bytecode`` every run compiles fightdesk's sources again (that setting as is).

- app, a long fight: ``python -m fightdesk FILE`` on a saved 5,000-entry fight (the demo
  played on by the rules, benchmarks/_fights.py), timed to its "ready" marker: the fight
  shown and clickable, its history still arriving (storage/history.py). The goal
  is that marker within 1.3x of the demo's "ready" in the same run;
- app, the long fight reopened: the start after that one, without FILE, which reopens
  the fight by autosave (the GM's next start after a normal quit), timed the same way.

Each launch also records the processor time the whole process used (user and system,
all its threads): the fight shown against the bare window by that measure is printed
too, as a row without a goal, since a busy machine disturbs it far less than the wall
clock.

Goals: first paint <= 1.2x the bare window; the fight shown <= 2.4x (the ``--json``
rows for run_all.py).

    python benchmarks/startup.py [--runs 15] [--json] [--no-bytecode] [--reopen]
                                 [--entries 5000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE_PREFIX = "fightdesk-probe"  # fightdesk.app.PROBE_PREFIX (not imported: keep this light)
FIRST_PAINT_TARGET = 1.5
READY_TARGET = 2.5
LONG_FIGHT_TARGET = 1.3

BARE_WINDOW = """
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

app = QApplication(sys.argv[:1])
window = QMainWindow()

def painted():
    print("fightdesk-probe first-paint", f"{time.monotonic():.6f}", flush=True)
    AFTER_PAINT
    app.quit()

class AfterPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            QTimer.singleShot(0, painted)
        return False

watcher = AfterPaint()
window.installEventFilter(watcher)
window.show()
app.exec()
"""


# The floors under any start that shows a fight read with pydantic: the bare window,
# then (after its first paint, as fightdesk does) pydantic's first model, or fightdesk's
# data models and the demo fight read and checked, with no widget of fightdesk's at all.
PYDANTIC_FLOOR = """
    from pydantic import BaseModel, Field

    class Fighter(BaseModel):
        name: str
        health: int = Field(0, ge=0)

    class Fight(BaseModel):
        fighters: list[Fighter] = []

    Fight.model_validate_json('{"fighters": [{"name": "Kaede", "health": 12}]}')
    print("fightdesk-probe ready", f"{time.monotonic():.6f}", flush=True)
"""
DATA_FLOOR = """
    from fightdesk.storage.sessions import demo_session
    demo_session()
    print("fightdesk-probe ready", f"{time.monotonic():.6f}", flush=True)
"""


def bare_window(after_paint: str = "") -> str:
    """The bare window's script; ``after_paint`` runs after its first paint, before it quits."""
    return BARE_WINDOW.replace("    AFTER_PAINT\n", after_paint.strip("\n") + "\n" if after_paint else "")


def launch(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """Run one process; seconds from launch to each marker, and to its exit ("total"), and
    the processor time the whole process used ("cpu": user and system, all its threads),
    which a busy machine disturbs far less than the wall clock."""
    used = _children_cpu()
    start = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    end = time.monotonic()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    times = {"total": end - start, "cpu": _children_cpu() - used}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == PROBE_PREFIX:
            times[parts[1]] = float(parts[2]) - start
    return times


def _children_cpu() -> float:
    """Processor seconds used so far by this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def environment(home: Path, bytecode: bool, probe: str = "1") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        FIGHTDESK_STARTUP_PROBE=probe,
        XDG_RUNTIME_DIR=str(home / "runtime"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CACHE_HOME=str(home / "cache"),
    )
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(home.parent / "pycache")
    (home / "runtime").mkdir(mode=0o700, parents=True, exist_ok=True)
    return env


def first_start(command: list[str], tmp: Path, bytecode: bool, reopen: bool = False,
                probe: str = "1") -> dict[str, float]:
    """One run in user folders nobody has used yet (a GM's very first start); with
    ``reopen``, the run after that one (it reopens the autosaved demo fight)."""
    home = Path(tempfile.mkdtemp(prefix="home-", dir=tmp))
    try:
        if reopen:
            launch(command, environment(home, bytecode))
        return launch(command, environment(home, bytecode, probe))
    finally:
        shutil.rmtree(home, ignore_errors=True)


def reopened_start(opened: list[str], plain: list[str], tmp: Path,
                   bytecode: bool) -> dict[str, float]:
    """A start that reopens, by autosave, the fight the start before opened with
    ``opened`` and quit normally (the GM's next day at the table); ``plain`` is timed."""
    home = Path(tempfile.mkdtemp(prefix="home-", dir=tmp))
    try:
        launch(opened, environment(home, bytecode))
        return launch(plain, environment(home, bytecode))
    finally:
        shutil.rmtree(home, ignore_errors=True)


def long_fight_file(folder: Path, entries: int) -> Path:
    """A saved fight of ``entries`` log entries, played by the rules (_fights.py)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _fights import real_fight

    from fightdesk.storage.sessions import save_session

    path = folder / f"long-fight-{entries}.json"
    save_session(real_fight(entries).session, path)
    return path


def measure(runs: int, bytecode: bool = True, reopen: bool = False,
            entries: int = 5000) -> dict[str, dict[str, float]]:
    bare_cmd = [sys.executable, "-c", bare_window()]
    app_cmd = [sys.executable, "-m", "fightdesk"]
    floors = {"floor_pydantic": [sys.executable, "-c", bare_window(PYDANTIC_FLOOR)],
              "floor_data": [sys.executable, "-c", bare_window(DATA_FLOOR)]}
    samples: dict[str, list[dict[str, float]]] = {
        "bare": [], "app": [], "app_quit_when_shown": [], "app_quit_when_ready": [],
        "floor_pydantic": [], "floor_data": []}
    with tempfile.TemporaryDirectory(prefix="fightdesk-bench-") as name:
        tmp = Path(name)
        long_cmd = [*app_cmd, str(long_fight_file(tmp, entries))] if entries else []
        if long_cmd:
            samples["app_long_fight"] = []
            samples["app_long_fight_reopened"] = []
        # Warm the disk cache (and write the bytecode); not counted.
        first_start(bare_cmd, tmp, bytecode)
        first_start(app_cmd, tmp, bytecode)
        for command in floors.values():
            first_start(command, tmp, bytecode)
        if long_cmd:
            first_start(long_cmd, tmp, bytecode)
        for _ in range(runs):
            samples["bare"].append(first_start(bare_cmd, tmp, bytecode))
            samples["app"].append(first_start(app_cmd, tmp, bytecode, reopen))
            samples["app_quit_when_shown"].append(
                first_start(app_cmd, tmp, bytecode, reopen, probe="shown"))
            samples["app_quit_when_ready"].append(
                first_start(app_cmd, tmp, bytecode, reopen, probe="ready"))
            for name_, command in floors.items():
                samples[name_].append(first_start(command, tmp, bytecode))
            if long_cmd:
                samples["app_long_fight"].append(first_start(long_cmd, tmp, bytecode))
                samples["app_long_fight_reopened"].append(
                    reopened_start(long_cmd, app_cmd, tmp, bytecode))
    return {
        name: {key: statistics.median(s[key] for s in runs_) for key in runs_[0]}
        for name, runs_ in samples.items()
    }


def report(medians: dict[str, dict[str, float]], runs: int, reopen: bool = False) -> dict[str, float]:
    bare, app, shown = medians["bare"], medians["app"], medians["app_quit_when_ready"]
    picture = medians["app_quit_when_shown"]
    ratios = {
        "first_paint": app["first-paint"] / bare["first-paint"],
        "shown_whole_process": picture["total"] / bare["total"],
        "shown_marker": app["shown"] / bare["first-paint"],
        "shown_whole_process_cpu": picture["cpu"] / bare["cpu"],
        "ready_whole_process": shown["total"] / bare["total"],
        "ready_marker": app["ready"] / bare["first-paint"],
        "whole_process": app["total"] / bare["total"],
        "ready_whole_process_cpu": shown["cpu"] / bare["cpu"],
        "floor_pydantic": medians["floor_pydantic"]["total"] / bare["total"],
        "floor_data": medians["floor_data"]["total"] / bare["total"],
        "floor_pydantic_cpu": medians["floor_pydantic"]["cpu"] / bare["cpu"],
        "floor_data_cpu": medians["floor_data"]["cpu"] / bare["cpu"],
    }
    long = medians.get("app_long_fight")
    if long is not None:
        ratios["long_fight_ready"] = long["ready"] / app["ready"]
        ratios["long_fight_reopened_ready"] = medians["app_long_fight_reopened"]["ready"] / app["ready"]
    ms = 1000.0
    kind = "second starts, reopening the autosaved demo" if reopen else "first starts"
    print(f"start-up, median of {runs} runs each (offscreen, alternating, {kind})")
    print(f"  bare PySide6 window: first paint {bare['first-paint'] * ms:6.0f} ms, "
          f"whole process (show, quit) {bare['total'] * ms:6.0f} ms")
    print(f"  fightdesk:           first paint {app['first-paint'] * ms:6.0f} ms, "
          f"shown {app['shown'] * ms:6.0f} ms, demo loaded {app['loaded'] * ms:6.0f} ms, "
          f"ready {app['ready'] * ms:6.0f} ms, "
          f"settled {app.get('settled', app['ready']) * ms:6.0f} ms, "
          f"whole process {app['total'] * ms:6.0f} ms")
    print(f"  fightdesk, quit when shown: shown {picture['shown'] * ms:6.0f} ms, "
          f"whole process (show the fight, quit) {picture['total'] * ms:6.0f} ms")
    print(f"  fightdesk, quit when ready: ready {shown['ready'] * ms:6.0f} ms, "
          f"whole process (the fight clickable, quit) {shown['total'] * ms:6.0f} ms")
    for label, ratio, target in (
        ("first paint vs bare first paint", ratios["first_paint"], FIRST_PAINT_TARGET),
        ("the fight shown, whole process vs bare", ratios["shown_whole_process"], READY_TARGET),
        ("shown marker vs bare first paint", ratios["shown_marker"], READY_TARGET),
    ):
        verdict = "ok" if ratio <= target else "OVER TARGET"
        print(f"  {label:42s} {ratio:5.2f}x (target <= {target}x) {verdict}")
    print(f"  {'loaded + clickable, whole process vs bare':42s} "
          f"{ratios['ready_whole_process']:5.2f}x")
    print(f"  {'ready marker vs bare first paint':42s} {ratios['ready_marker']:5.2f}x")
    print(f"  {'whole process to settled vs bare':42s} {ratios['whole_process']:5.2f}x")
    print(f"  processor time, whole process: bare {bare['cpu'] * ms:6.0f} ms, fightdesk quit when "
          f"shown {picture['cpu'] * ms:6.0f} ms ({ratios['shown_whole_process_cpu']:.2f}x), "
          f"when ready {shown['cpu'] * ms:6.0f} ms ({ratios['ready_whole_process_cpu']:.2f}x; "
          f"steadier than the wall clock on a busy machine)")
    print(f"  floors, whole process vs bare: the bare window then pydantic's first model "
          f"{ratios['floor_pydantic']:.2f}x; then fightdesk's data models and the demo read "
          f"{ratios['floor_data']:.2f}x (no fightdesk widget in either); processor time "
          f"{ratios['floor_pydantic_cpu']:.2f}x and {ratios['floor_data_cpu']:.2f}x")
    if long is not None:
        ratio = ratios["long_fight_ready"]
        print(f"  a long fight opened at start: ready {long['ready'] * ms:6.0f} ms "
              f"(first paint {long['first-paint'] * ms:6.0f} ms)")
        print(f"  {'long fight ready vs the demo ready':42s} {ratio:5.2f}x (target <= "
              f"{LONG_FIGHT_TARGET}x) {'ok' if ratio <= LONG_FIGHT_TARGET else 'OVER TARGET'}")
        again = medians["app_long_fight_reopened"]
        ratio = ratios["long_fight_reopened_ready"]
        print(f"  the long fight reopened by autosave:  ready {again['ready'] * ms:6.0f} ms")
        print(f"  {'reopened long fight ready vs demo ready':42s} {ratio:5.2f}x (target <= "
              f"{LONG_FIGHT_TARGET}x) {'ok' if ratio <= LONG_FIGHT_TARGET else 'OVER TARGET'}")
    return ratios


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each (default 15)")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="compile fightdesk's sources on every run (no bytecode cache)")
    parser.add_argument("--reopen", action="store_true",
                        help="time the second start instead (it reopens the autosaved fight)")
    parser.add_argument("--entries", type=int, default=5000,
                        help="log entries of the long fight opened at start (0: leave it out)")
    args = parser.parse_args()
    medians = measure(args.runs, bytecode=not args.no_bytecode, reopen=args.reopen,
                      entries=args.entries)
    ratios = report(medians, args.runs, args.reopen)
    if args.json:
        print(json.dumps(rows(medians, ratios, args.reopen, args.entries), indent=1))
    return 0


def rows(medians: dict[str, dict[str, float]], ratios: dict[str, float],
         reopen: bool, entries: int = 5000) -> list[dict[str, object]]:
    """The figures as run_all.py's rows (the goals: first paint <= 1.2x, the fight
    shown <= 2.4x a bare window)."""
    kind = " (reopening the autosaved demo)" if reopen else ""
    app, shown = medians["app"], medians["app_quit_when_ready"]
    picture = medians["app_quit_when_shown"]
    out: list[dict[str, object]] = []
    for measure, median_s, ratio, goal in (
        ("start-up: first paint vs a bare window's", app["first-paint"], ratios["first_paint"],
         1.2),
        ("start-up: the fight shown (the demo's picture, before the rules load), whole process "
         "vs a bare window's", picture["total"], ratios["shown_whole_process"], 2.4),
        ("start-up: \"shown\" marker vs a bare window's first paint", app["shown"],
         ratios["shown_marker"], 2.4),
        ("start-up: the fight shown, whole process, processor time vs a bare window's",
         picture["cpu"], ratios["shown_whole_process_cpu"], None),
        ("start-up: the fight live and clickable (the rules loaded), whole process vs a bare "
         "window's", shown["total"], ratios["ready_whole_process"], None),
        ("start-up: \"ready\" marker vs a bare window's first paint", app["ready"],
         ratios["ready_marker"], None),
        ("start-up: whole process to \"settled\" vs a bare window's", app["total"],
         ratios["whole_process"], None),
        ("start-up: the fight live and clickable, whole process, processor time vs a bare "
         "window's", shown["cpu"], ratios["ready_whole_process_cpu"], None),
        ("start-up floor: a bare window, then pydantic's first model read, whole process vs a "
         "bare window's", medians["floor_pydantic"]["total"], ratios["floor_pydantic"], None),
        ("start-up floor: a bare window, then fightdesk's data models and the demo fight read "
         "(no fightdesk widget), whole process vs a bare window's", medians["floor_data"]["total"],
         ratios["floor_data"], None),
    ):
        out.append({"measure": measure + kind, "median_ms": round(median_s * 1000, 1),
                    "ratio": round(ratio, 3), "goal": f"<= {goal:g}x" if goal else "",
                    "met": None if goal is None else ratio <= goal})
    long = medians.get("app_long_fight")
    if long is not None:
        ratio = ratios["long_fight_ready"]
        out.append({"measure": f"start-up: a saved {entries:,}-entry fight opened at start, "
                               f"\"ready\" vs the demo's \"ready\"" + kind,
                    "median_ms": round(long["ready"] * 1000, 1), "ratio": round(ratio, 3),
                    "goal": f"<= {LONG_FIGHT_TARGET:g}x", "met": ratio <= LONG_FIGHT_TARGET})
        ratio = ratios["long_fight_reopened_ready"]
        out.append({"measure": f"start-up: a {entries:,}-entry fight reopened by autosave after "
                               f"a normal quit, \"ready\" vs the demo's \"ready\"" + kind,
                    "median_ms": round(medians["app_long_fight_reopened"]["ready"] * 1000, 1),
                    "ratio": round(ratio, 3), "goal": f"<= {LONG_FIGHT_TARGET:g}x",
                    "met": ratio <= LONG_FIGHT_TARGET})
    return out


if __name__ == "__main__":
    sys.exit(main())
