"""Soak: a long fight played in one process with the window open, watching the memory.

    python benchmarks/soak.py [--actions 2000] [--loops 100] [--json]

The demo fight in the real main window (offscreen), played on by the rules (the
ruleset's autopilot picks each command, everyone healed at each new round: the real
fight of benchmarks/_fights.py), with undo and redo mixed in: after every tenth action
the last three steps are undone, and two of them redone. Every 200 actions the process's
resident memory is printed against the log's length (the curve), and the memory per log
entry (growth since the start over the entries the log holds). Then a fixed-length loop
of undo and redo (five steps back, five forward, 100 times) must not grow it at all: both
the resident memory and Python's own heap (tracemalloc) are shown.

Goals: at most 10 KB of memory per log entry (the curve's slope after its
first point, so the window's warm-up is not counted); the loop grows nothing (within the
allocator's granularity: 1 MB resident, 64 KB of Python heap).

The loop's own curve is printed every 20 loops (``--loops`` runs it longer), with the C
heap in use (glibc's mallinfo2) beside the resident memory: a leak grows them without
end, a cache grows and levels off; and how many Qt objects the window gained. After each
step the events are handled as the window's event loop handles them between two clicks,
objects given up with deleteLater included (``settle``). Python's heap is read after
``sys._clear_type_cache()``: CPython 3.11 keeps a reference to the attribute name of
each type-attribute lookup in a fixed table of 4,096 entries, and shiboken reads each
enum argument's value through a freshly made "value" string, so up to 4,096 such
strings (54 bytes each) stay held there; that table never grows past its size, and
without emptying it the first few hundred loops show its filling as growth.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_home = Path(tempfile.mkdtemp(prefix="fightdesk-soak-"))
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = str(_home / _var.lower())

REPO = Path(__file__).resolve().parents[1]
for _path in (REPO, REPO / "benchmarks"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from _fights import demo_session, play_on  # noqa: E402
from _rows import Row, print_json, row  # noqa: E402
from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

PER_ENTRY_GOAL_KB = 10.0
LOOP_GOAL_KB = 1024.0
LOOPS = 100


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def c_heap_kb() -> int | None:
    """What the C heap holds in use (glibc): Qt's and PySide's allocations, freed memory
    the allocator keeps not counted. None where there is no mallinfo2."""
    try:
        mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return int(info.uordblks + info.hblkhd) // 1024


def python_heap() -> int:
    """Python's traced heap, the interpreter's fixed-size type-attribute cache emptied
    first (see the module's docstring: it holds name strings, at most 4,096)."""
    sys._clear_type_cache()
    gc.collect()
    import tracemalloc

    return tracemalloc.get_traced_memory()[0]


def rss_kb() -> int:
    """The resident memory of this process (Linux), after a collection."""
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def settle(app: QApplication) -> None:
    """What the window's event loop does between two clicks: the pending events, then
    the objects Qt gave up with deleteLater. processEvents() alone never deletes those
    outside a running loop, and the window gives up one a step (QMainWindow's layout
    animation of the central widget): without this the soak would count them as growth."""
    app.processEvents()
    app.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--loops", type=int, default=LOOPS,
                        help="turns of the fixed-length undo/redo loop (default 100)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON rows")
    args = parser.parse_args(argv)

    from fightdesk.engine.engine import Engine
    from fightdesk.ui.main_window import MainWindow

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    engine = Engine(demo_session())
    window = MainWindow()
    window.resize(1280, 800)
    window.show_session(engine, None)
    window.show()
    settle(app)
    rng = random.Random(16)
    # Warm up (first paints, caches, lazily imported rules) before the baseline.
    play_on(engine, 30, rng)
    settle(app)
    base_entries = len(engine.session.log)
    base = rss_kb()
    print(f"soak: {args.actions} actions with undo and redo, the window open (offscreen)")
    print(f"{'actions':>8} {'log entries':>12} {'RSS MB':>8} {'KB per entry':>13}")
    started = time.perf_counter()
    curve: list[tuple[int, int, int]] = []
    for done in range(1, args.actions + 1):
        play_on(engine, len(engine.session.log) + 1, rng)
        if done % 10 == 0:
            for _ in range(3):
                engine.undo()
            for _ in range(2):
                engine.redo()
        settle(app)
        if done % 200 == 0 or done == args.actions:
            now = rss_kb()
            entries = len(engine.session.log) - base_entries
            curve.append((done, entries, now))
            print(f"{done:8d} {len(engine.session.log):12d} {now / 1024:8.1f} "
                  f"{(now - base) / max(entries, 1):13.2f}")
    took = time.perf_counter() - started
    # The slope of the curve from its first point on: what each further entry costs,
    # without the window's own warm-up (fonts, caches, rules imported at first use).
    (_, first_entries, first_rss), (_, last_entries, last_rss) = curve[0], curve[-1]
    per_entry = (last_rss - first_rss) / max(last_entries - first_entries, 1)
    print(f"{per_entry:.2f} KB of memory per log entry from {curve[0][0]} actions on "
          f"(goal <= {PER_ENTRY_GOAL_KB:g} KB); {took / args.actions * 1000:.1f} ms per action "
          "with the window")

    # The fixed-length loop: the log holds the same entries at every turn of it.
    objects_before = len(window.findChildren(QObject))
    for _ in range(20):  # warm up first, so what a first undo allocates is counted out
        _loop(engine, app)
    import tracemalloc

    loops = max(args.loops, 1)
    tracemalloc.start()
    python_before = python_heap()
    before, c_before = rss_kb(), c_heap_kb()
    print(f"undo and redo, 5 steps each way, {loops} times (growth since the loop's start):")
    print(f"{'loops':>8} {'resident KB':>12} {'C heap KB':>10} {'Python heap KB':>15}")
    for turn in range(1, loops + 1):
        _loop(engine, app)
        if turn % 20 == 0 or turn == loops:
            python_now = python_heap()
            now, c_now = rss_kb(), c_heap_kb()
            c_text = "-" if c_now is None or c_before is None else f"{c_now - c_before:+d}"
            print(f"{turn:8d} {now - before:+12d} {c_text:>10} "
                  f"{(python_now - python_before) / 1024:+15.1f}")
    grown, python_grown = now - before, python_now - python_before
    c_grown = None if c_now is None or c_before is None else c_now - c_before
    tracemalloc.stop()
    objects_grown = len(window.findChildren(QObject)) - objects_before
    print(f"undo and redo, 5 steps each way, {loops} times: resident memory grew {grown} KB, "
          f"Python's heap {python_grown / 1024:.1f} KB (goal: none; allowed "
          f"{LOOP_GOAL_KB:g} KB of allocator noise); Qt objects in the window {objects_grown:+d}")
    # Not window.close(): the fight has unsaved work, so closing would ask about it.
    if args.json:
        rows: list[Row] = [
            row(f"soak: memory per log entry, {args.actions} actions with the window",
                None, None, f"<= {PER_ENTRY_GOAL_KB:g} KB", per_entry <= PER_ENTRY_GOAL_KB,
                value=f"{per_entry:.2f} KB"),
            row(f"soak: undo/redo loop ({loops} x 5 steps each way), resident memory growth",
                None, None, "none (<= 1 MB noise)", grown <= LOOP_GOAL_KB, value=f"{grown} KB"),
            row(f"soak: undo/redo loop ({loops} x 5 steps each way), Python heap growth",
                None, None, "none (<= 64 KB noise)", python_grown <= 64 * 1024,
                value=f"{python_grown / 1024:.1f} KB"),
            row("soak: one action with the window open", took / args.actions * 1000),
        ]
        if c_grown is not None:
            rows.insert(3, row(f"soak: undo/redo loop ({loops} x 5 steps each way), C heap "
                               "in use growth", None, value=f"{c_grown} KB"))
        print_json(rows)
    return 0


def _loop(engine: object, app: QApplication) -> None:
    from fightdesk.engine.engine import Engine

    assert isinstance(engine, Engine)
    for _ in range(5):
        engine.undo()
    for _ in range(5):
        engine.redo()
    settle(app)


if __name__ == "__main__":
    sys.exit(main())
