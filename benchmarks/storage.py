"""Storage speed: session and library save/load, and the autosave cost of one GM action.

    python benchmarks/storage.py            # full sizes, prints medians and the targets
    python benchmarks/storage.py --quick    # smaller sizes, fewer repeats (a smoke run)

Sizes: a campaign library of 2,000 fighters, and a session with 200 fighters
and 10,000 logged events. Targets: load under 150 ms, save under 100 ms, the per-action
journal write under 5 ms. Every figure is the median of several runs in this process;
the per-action cost is also shown against the same action without autosave, measured
in the same run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for _path in (REPO, REPO / "benchmarks"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from _rows import Row, at_most, print_json, row  # noqa: E402

from fightdesk.engine import commands as c  # noqa: E402
from fightdesk.engine.engine import Engine  # noqa: E402
from fightdesk.engine.model import Fighter, Session  # noqa: E402
from fightdesk.storage.autosave import Autosave  # noqa: E402
from fightdesk.storage.files import gc_paused  # noqa: E402
from fightdesk.storage.journal import ApplyRecord, Journal  # noqa: E402
from fightdesk.storage.sessions import load_session, save_session  # noqa: E402

DEMO = REPO / "resources" / "demo_fight.json"
TARGETS_MS = {"load": 150.0, "save": 100.0, "journal": 5.0}


def median_ms(run: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None) -> float:
    """Median wall time of ``run`` in milliseconds (``setup`` runs untimed before each)."""
    times: list[float] = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        gc.collect()
        start = time.perf_counter()
        # Keep the result until the clock is read: freeing a 10 MB session is not
        # part of loading it.
        result = run()
        times.append((time.perf_counter() - start) * 1000)
        del result
    return statistics.median(times)


def demo_session() -> Session:
    return Session.model_validate_json(DEMO.read_text())


def big_session(fighters: int, events: int) -> tuple[Engine, int]:
    """A fight grown through the engine: ``fighters`` added one by one, then GM actions
    (overrides, dice-bar rolls, notes) until the log holds ``events`` events."""
    engine = Engine(demo_session())
    enc = engine.encounter
    templates = [f.model_dump(mode="json") for f in enc.fighters.values()]
    while len(enc.fighters) < fighters:
        n = len(enc.fighters)
        template = dict(templates[n % len(templates)], name=f"Fighter {n:03d}", group=None)
        out = engine.apply(c.AddFighters(fighter=template))
        assert out.ok, out.error
    ids = list(enc.order)
    i = 0
    # A running count: re-counting every event on each pass made building the fight
    # quadratic (78 s for 10,000 events).
    counted = sum(len(e.events) for e in engine.session.log)
    while counted < events:
        kind = i % 3
        if kind == 0:
            fid = ids[i % len(ids)]
            top = enc.fighters[fid].sheet.health
            out = engine.apply(c.SetValue(fighter_id=fid, field="status.health", value=(i * 7) % (top + 1)))
        elif kind == 1:
            out = engine.apply(c.FreeRoll(notation="3d10>=6", who=enc.fighters[ids[i % len(ids)]].name))
        else:
            out = engine.apply(c.Note(text=f"Round note {i}: the crowd roars"))
        assert out.ok, out.error
        assert out.entry is not None
        counted += len(out.entry.events)
        i += 1
    return engine, counted


def library_fighters(count: int) -> list[Fighter]:
    base = list(demo_session().encounter.fighters.values())
    sides = ["pc", "ally", "enemy"]
    out = []
    for n in range(count):
        proto = base[n % len(base)]
        out.append(proto.model_copy(update={
            "id": f"lib-{n:04d}", "name": f"{proto.name} {n:04d}", "side": sides[n % 3],
            "tags": [f"tag{n % 7}", "campaign"],
        }, deep=True))
    return out


def bench_library(folder: Path, count: int, repeat: int) -> dict[str, float]:
    try:
        from fightdesk.storage.library import Campaign
    except ImportError:  # pragma: no cover - the library module is part of the app
        print("fightdesk.storage.library is missing; library not measured")
        return {}
    campaign = Campaign(folder / "Campaign.json", library_fighters(count))
    campaign.save()
    save = median_ms(campaign.save, repeat)
    load = median_ms(lambda: Campaign.load(folder / "Campaign.json"), repeat)
    loaded = Campaign.load(folder / "Campaign.json")
    assert len(loaded) == count
    read_base, write_base = json_baseline(folder / "Campaign.json", repeat)
    size = (folder / "Campaign.json").stat().st_size
    print(f"library  {count} fighters, {size / 1e6:.1f} MB: save {save:.1f} ms, load {load:.1f} ms")
    print(f"         baseline, plain json of the same file: read+parse {read_base:.1f} ms "
          f"(load is {load / read_base:.1f}x), dump+write {write_base:.1f} ms "
          f"(save is {save / write_base:.1f}x)")
    return {"library save": save, "library load": load}


def bench_session(folder: Path, engine: Engine, events: int,
                  repeat: int) -> tuple[dict[str, float], dict[str, float]]:
    path = folder / "big.json"
    session = engine.session
    save_session(session, path)
    save = median_ms(lambda: save_session(session, path), repeat)
    load = median_ms(lambda: load_session(path), repeat)
    assert load_session(path) == session
    read_base, write_base = json_baseline(path, repeat)
    size = path.stat().st_size
    print(f"session  {len(session.encounter.fighters)} fighters, {len(session.log)} log entries, "
          f"{events} events, {size / 1e6:.1f} MB: save {save:.1f} ms, load {load:.1f} ms")
    print(f"         baseline, plain json of the same file: read+parse {read_base:.1f} ms "
          f"(load is {load / read_base:.1f}x), dump+write {write_base:.1f} ms "
          f"(save is {save / write_base:.1f}x)")
    load_cpu, read_cpu, floor_cpu = load_against_parse_cpu(path, repeat)
    print(f"         processor time, load and plain parse alternating: load {load_cpu:.1f} ms, "
          f"read+parse {read_cpu:.1f} ms (load is {load_cpu / read_cpu:.2f}x; steadier than "
          f"the wall clock on a busy machine)")
    print(f"         pydantic reading the same file with no models at all: {floor_cpu:.1f} ms "
          f"({floor_cpu / read_cpu:.2f}x the plain parse: the floor under any parse into "
          f"the models)")
    return ({"session save": save, "session load": load, "session load cpu": load_cpu,
             "pydantic json floor cpu": floor_cpu},
            {"load": load / read_base, "save": save / write_base, "load cpu": load_cpu / read_cpu,
             "floor cpu": floor_cpu / read_cpu})


def load_against_parse_cpu(path: Path, repeat: int) -> tuple[float, float, float]:
    """Median processor time of a session load, of a plain parse of the same file, and of
    pydantic reading the same file with no models (``TypeAdapter(Any)``: its JSON reading
    alone, which every model parse pays), taken alternately (other processes on the
    machine slow all three alike)."""
    from typing import Any

    from pydantic import TypeAdapter

    anything = TypeAdapter(Any)

    def parse() -> object:
        with gc_paused():
            return json.loads(path.read_text(encoding="utf-8"))

    def pydantic_reading() -> object:
        with gc_paused():
            return anything.validate_json(path.read_text(encoding="utf-8"))

    loads: list[float] = []
    parses: list[float] = []
    floors: list[float] = []
    for _ in range(repeat):
        for run, times in ((lambda: load_session(path), loads), (parse, parses),
                           (pydantic_reading, floors)):
            gc.collect()
            start = time.process_time()
            result = run()
            times.append((time.process_time() - start) * 1000)
            del result
    return statistics.median(loads), statistics.median(parses), statistics.median(floors)


def json_baseline(path: Path, repeat: int) -> tuple[float, float]:
    """The floor any JSON file pays, measured in the same run: the standard library reading
    and parsing the same file (no validation, the collector paused as in the real loads),
    and dumping and writing it back (no fsync)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    copy = path.with_name(path.name + ".baseline")
    def parse() -> object:
        with gc_paused():  # as the real loads do, so the ratio compares like with like
            return json.loads(path.read_text(encoding="utf-8"))

    read = median_ms(parse, repeat)
    write = median_ms(lambda: copy.write_text(json.dumps(data), encoding="utf-8"), repeat)
    copy.unlink()
    return read, write


def bench_autosave(folder: Path, engine: Engine, repeat: int) -> dict[str, float]:
    """The autosave cost of one GM action, on the big fight."""
    ids = list(engine.encounter.order)
    counter = iter(range(10**9))

    def action() -> None:
        i = next(counter)
        engine.apply(c.SetValue(fighter_id=ids[i % len(ids)], field="status.ep", value=i % 5))

    bare = median_ms(action, repeat)
    autosave = Autosave(folder / "autosave")
    autosave.attach(engine)
    with_journal = median_ms(action, repeat)
    journal = Journal(folder / "journal-alone.jsonl")
    journal.open()
    record = ApplyRecord(entry=engine.session.log[-1])
    append = median_ms(lambda: journal.append(record), repeat)
    journal.close()
    snapshot = median_ms(lambda: autosave._compact(), max(3, repeat // 20))
    autosave.mark_clean_exit()
    restore = median_ms(lambda: Autosave(folder / "autosave").restore(), max(3, repeat // 20))
    print(f"autosave one action: {bare:.2f} ms bare, {with_journal:.2f} ms with the journal "
          f"(+{with_journal - bare:.2f} ms); journal append + fsync alone {append:.2f} ms")
    print(f"autosave snapshot (round end / save) {snapshot:.1f} ms, restore {restore:.1f} ms")
    return {"journal write": with_journal - bare, "journal append": append,
            "snapshot": snapshot, "restore": restore}


def bench_real_fight(folder: Path, entries: int, repeat: int) -> list[Row]:
    """The file size per log entry, and ``fightdesk summary --all`` against
    ``fightdesk check`` on the same file (whole processes), on a real fight."""
    from _fights import real_fight

    engine = real_fight(entries)
    path = folder / f"real-{entries}.json"
    save_session(engine.session, path)
    per_entry = (path.stat().st_size - _empty_log_size(engine)) / len(engine.session.log) / 1024
    print(f"real fight  {entries} log entries, {path.stat().st_size / 1e6:.2f} MB: "
          f"{per_entry:.2f} KB of file per entry (goal <= 1.5 KB)")
    rows = [row(f"file per log entry, real fight of {entries} entries", None, None,
                "<= 1.5 KB", per_entry <= 1.5, value=f"{per_entry:.2f} KB")]
    fightdesk = [sys.executable, "-m", "fightdesk"]
    commands = {"check": [*fightdesk, "check", str(path)]}
    for fmt in ("md", "html", "pdf"):
        commands[fmt] = [*fightdesk, "summary", str(path), "--all", "--format", fmt,
                         "-o", str(folder / f"summary.{fmt}")]
    # The processes take turns, round after round, so that a machine whose load changes
    # during the run slows each of them alike (the ratios are the figures).
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            wall[name].append(median_ms(partial(_run, command, cpus[name]), 1))
    check = statistics.median(wall["check"])
    check_cpu = cpus["check"]
    for fmt, limit in (("md", 2.0), ("html", 2.0), ("pdf", 3.0)):
        took = statistics.median(wall[fmt])
        cpu = cpus[fmt]
        # Processor time too: on a busy machine the wall clock says little.
        cpu_text = (f"; processor time {statistics.median(cpu) / statistics.median(check_cpu):.2f}x"
                    if cpu and check_cpu else "")
        print(f"            summary --all --format {fmt}: {took:.0f} ms, "
              f"{took / check:.2f}x of check ({check:.0f} ms; goal <= {limit:g}x){cpu_text}")
        ratio, goal, met = at_most(took / check, limit)
        rows.append(row(f"summary --all --format {fmt} vs check, {entries}-entry fight "
                        "(whole processes)", took, ratio, goal, met))
    return rows


def _empty_log_size(engine: Engine) -> int:
    """The file size of the same fight with an empty log (what is not the log's)."""
    from fightdesk.storage.sessions import session_to_json

    bare = engine.session.model_copy(update={"log": [], "redo": []})
    return len(session_to_json(bare).encode("utf-8"))


def _run(command: list[str], cpu: list[float] | None = None) -> None:
    """Run a whole process; its processor time (user + system, seconds) goes to ``cpu``
    where the system tells it (not on Windows)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    before = _children_cpu()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    if cpu is not None and before is not None:
        cpu.append((_children_cpu() or 0.0) - before)


def _children_cpu() -> float | None:
    try:
        import resource
    except ImportError:  # Windows
        return None
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    parser.add_argument("--json", action="store_true",
                        help="print the figures as JSON rows at the end (run_all.py)")
    parser.add_argument("--summaries", action="store_true",
                        help="only the real fight's file size and its summaries against check")
    args = parser.parse_args(argv)
    fighters, events, library, repeat = (40, 1_000, 300, 3) if args.quick else (200, 10_000, 2_000, 15)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="fightdesk-bench-") as tmp:
        folder = Path(tmp)
        if args.summaries:
            rows = bench_real_fight(folder, 1_000, max(3, repeat // 3))
            if args.json:
                print_json(rows)
            return 0
        figures = {}
        # The library first, while the heap is small (as when the app opens a campaign).
        figures.update(bench_library(folder, library, repeat))
        started = time.perf_counter()
        engine, counted = big_session(fighters, events)
        built = time.perf_counter() - started
        print(f"(built the fight in {built:.1f} s, in linear time)")
        session_figures, ratios = bench_session(folder, engine, counted, repeat)
        figures.update(session_figures)
        figures.update(bench_autosave(folder, engine, repeat * 10))
        size = f"{fighters} fighters, {counted:,} events"
        rows.append(row(f"session load ({size}) vs plain json parse", figures["session load"],
                        *at_most(ratios["load"], 2.0)))
        rows.append(row(f"session load ({size}) vs plain json parse, processor time",
                        figures["session load cpu"], ratios["load cpu"], "", None))
        rows.append(row(f"pydantic's JSON reading alone ({size}, no models) vs plain json "
                        "parse, processor time", figures["pydantic json floor cpu"],
                        ratios["floor cpu"], "", None))
        rows.append(row(f"session save ({size}) vs plain json dump", figures["session save"],
                        *at_most(ratios["save"], 1.2)))
        rows.append(row(f"build the benchmark session ({size})", built * 1000, None,
                        "linear time", None))
        del engine
        rows += bench_real_fight(folder, 1_000, max(3, repeat // 3))
    print()
    print("target check (medians):")
    missed = 0
    for name, value in figures.items():
        kind = "load" if name.endswith("load") else "save" if name.endswith("save") else \
            "journal" if name == "journal write" else None
        if kind is None:
            continue
        ok = value < TARGETS_MS[kind]
        missed += not ok
        print(f"  {name:14} {value:8.2f} ms  (target < {TARGETS_MS[kind]:.0f} ms) "
              f"{'ok' if ok else 'MISSED'}")
        rows.append(row(f"{name} (absolute)", value, None, f"< {TARGETS_MS[kind]:.0f} ms", ok))
    if args.json:
        print_json(rows)
    return 1 if missed and not args.quick and not args.json else 0


if __name__ == "__main__":
    sys.exit(main())
