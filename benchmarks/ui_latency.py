"""UI latency: a GM's click, from the command to the models updated and the window
repainted, as the log grows and as the fight grows.

    python benchmarks/ui_latency.py [--quick] [--repeats 15] [--json] [--window-share] [--in-place]

A street-fighter fight of F fighters (the demo's, three more named fighters, and the rest
weenies in groups of 12) is shown in the real main window, offscreen at 1280x800, with a
log of N entries (the first round's real entries, the log padded at its start with copies
of a logged note: the window shows the latest actions, so what matters is the length).
Each sample is one click through the window's own path (the engine applies it, the
notice refreshes the fighters, log and stack models, the timeline and the controls) and
Qt's repaint of what changed, until the window is idle: next phase (F6), act (a fighter
with a die on the phase, through the act form's command), an interrupt of that act, undo
and redo; and revert to here over 50 steps against one undo. Axes: the log at 100, 1,000 and 10,000 entries (200 fighters)
and the fight at 50, 200 and 400 fighters (100 entries). Reports medians and the ratios
of the goals: every click at 10,000 entries within 1.2x of the same at 100,
and at most 16 ms (one frame); revert over 50 steps within 2x of one undo. ``--json``
prints the rows as JSON ({"measure", "median_ms", "ratio", "goal", "met"}).
``--window-share`` measures only 200 fighters and 100 entries, each click split in
processor time into its own code and the window's layout and paint.
``--in-place`` repeats act, interrupt, undo and redo in place at 200 fighters (100 and
10,000 entries): medians of processor time over many samples, to compare two trees.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_home = Path(tempfile.mkdtemp(prefix="fightdesk-bench-"))
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = str(_home / _var.lower())

from PySide6.QtWidgets import QApplication  # noqa: E402

if TYPE_CHECKING:
    from fightdesk.engine.engine import Engine


def big_fight(fighters: int) -> Engine:
    """The demo's fighters, copied into named heroes and groups of 12 weenies."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    enc = engine.encounter
    hero = enc.fighters["kaede"].model_dump(mode="json")
    villain = enc.fighters["brannock"].model_dump(mode="json")
    thug = enc.fighters["dock-thug-1"].model_dump(mode="json")
    thug["group"] = None
    named = 0
    while len(enc.order) < min(8, fighters):  # the demo's 5 (2 named + 3 thugs) + 3 named
        template = dict(hero if named % 2 == 0 else villain)
        template["name"] = f"{template['name'].split()[0]} {named + 2}"
        template["group"] = None
        assert engine.apply(c.AddFighters(fighter=template)).ok
        named += 1
    n = 0
    while len(enc.order) < fighters:
        n += 1
        count = min(12, fighters - len(enc.order))
        template = dict(thug)
        template["name"] = f"Gang {n} thug"
        out = engine.apply(c.AddFighters(fighter=template, count=count))
        assert out.ok, out.error
    engine.session.log.clear()
    engine.session.start = enc.model_copy(deep=True)
    return engine


FRAME_MS = 16.0
LOG_AXIS = (100, 1_000, 10_000)
FIGHTER_AXIS = (50, 200, 400)
CLICKS = ("next phase", "act", "interrupt", "undo", "redo")


def answer_all(engine: Engine, apply: Any) -> None:
    """Answer every open question the plain way: let a die go, the first choice, the
    smallest amount, the fields' defaults (the app rolls)."""
    from fightdesk.engine import commands as c

    for _ in range(500):
        decision = engine.pending()
        if decision is None:
            return
        ids = [choice.id for choice in decision.choices]
        if ids:
            command = c.Answer(decision_id=decision.id, choice="lose" if "lose" in ids else ids[0])
        elif decision.fields:
            command = c.Answer(decision_id=decision.id,
                               values={f.name: f.default for f in decision.fields})
        else:
            command = c.Answer(decision_id=decision.id, amount=decision.minimum or 0)
        if not apply(command).ok:
            return
    raise RuntimeError("questions without end")


def pad_log(engine: Engine, entries: int) -> None:
    """Make the log ``entries`` long: copies of one logged note before the real entries
    (renumbered after them), so undo and redo at the end work on the real ones."""
    from dataclasses import replace

    from fightdesk.engine import commands as c

    log = engine.session.log
    assert engine.apply(c.Note(text="The crowd roars")).ok
    note = log.pop()
    real = list(log)
    extra = max(0, entries - len(real))
    filler = [replace(note, seq=n, step=n) for n in range(extra)]
    moved = [replace(e, seq=e.seq + extra, step=e.step + extra) for e in real]
    log[:] = filler + moved


class Fight:
    """One fight in the window, driven by clicks through the window's own path."""

    def __init__(self, app: QApplication, fighters: int, entries: int) -> None:
        from fightdesk.engine import commands as c
        from fightdesk.ui.main_window import MainWindow

        self.app = app
        engine = big_fight(fighters)
        for command in (c.StartFight(), c.StartRound(), c.NextStep()):
            assert engine.apply(command).ok
        answer_all(engine, engine.apply)
        pad_log(engine, entries)
        self.engine = engine
        self.window = MainWindow()
        self.window.resize(1280, 800)
        self.window.show_session(engine, None)
        self.window.show()
        self.settle()

    def settle(self) -> None:
        for _ in range(3):
            self.app.processEvents()
        self.window.repaint()

    def timed(self, click: Any) -> float:
        """One click until the window is idle again: the command, the models' and views'
        refresh, and Qt's repaint of every widget that changed (it paints them within
        ``processEvents``; a second pass finds nothing left to paint). The window is not
        forced to repaint whole, which a GM's click never does."""
        t0 = time.perf_counter()
        click()
        self.app.processEvents()
        self.app.processEvents()
        return time.perf_counter() - t0

    def apply(self, command: Any) -> Any:
        return self.window.document.apply(command)

    def close(self) -> None:
        self.window.document.undo_stack.setClean()
        self.window.close()
        self.window.deleteLater()
        self.app.processEvents()

    # --- finding a move ---------------------------------------------------------------------
    def to_a_phase_with_a_move(self) -> tuple[Any, Any] | None:
        """Step on (untimed) to a phase where one fighter can act and another can
        interrupt that act; the two commands."""
        from fightdesk.engine import commands as c

        engine = self.engine
        for _ in range(40):
            answer_all(engine, self.apply)
            enc = engine.encounter
            if enc.state.stage == "phases" and not enc.state.stack:
                found = self.move_here()
                if found is not None:
                    return found
            controls = engine.ruleset.views.round_controls(enc)
            if controls.can_next_step:
                self.apply(c.NextStep())
            elif controls.can_end_round:
                self.apply(c.EndRound())
            else:
                self.apply(c.StartRound())
        return None

    def move_here(self) -> tuple[Any, Any] | None:
        from fightdesk.engine.engine import Engine

        engine = self.engine
        enc, rules = engine.encounter, engine.ruleset
        timeline = rules.views.timeline(enc)
        ready = [chip.fighter_id for lane in timeline.lanes for chip in lane.chips
                 if chip.clickable and chip.column == timeline.current_column]
        for fid in ready[:6]:
            act = self.command(fid, "act")
            if act is None or not engine.check(act).ok:
                continue
            # Someone else interrupts it: tried on a copy of the fight (not of its log),
            # so the fight does not change.
            probe = Engine(engine.session.model_copy(update={
                "encounter": enc.model_copy(deep=True), "log": [], "redo": []}))
            if not probe.apply(act).ok:
                continue
            for other in enc.order:
                if other == fid:
                    continue
                interrupt = self.command(other, "interrupt", engine=probe, ep_speed=1)
                if interrupt is not None and probe.check(interrupt).ok:
                    return act, interrupt
        return None

    def command(self, fid: str, form_id: str, engine: Any = None, **values: Any) -> Any:
        engine = engine or self.engine
        views, enc = engine.ruleset.views, engine.encounter
        form = next((f for f in views.action_forms(enc, fid) if f.id == form_id and f.enabled), None)
        if form is None:
            return None
        data = {f.name: f.default for f in form.fields}
        data.update(values)
        try:
            return views.build_command(form_id, fid, data)
        except Exception:  # a form a weenie cannot fill: not this one
            return None

    def resolve(self) -> None:
        """Resolve the stack (untimed), answering what it asks."""
        engine = self.engine
        for _ in range(50):
            answer_all(engine, self.apply)
            if not engine.encounter.state.stack:
                break
            command = engine.ruleset.views.build_command("resolve-all", "", {})
            if not self.apply(command).ok:
                break
        answer_all(engine, self.apply)
        self.settle()

    # --- the samples ------------------------------------------------------------------------
    def sample(self, times: dict[str, list[float]]) -> bool:
        """One round of clicks: act, interrupt, undo, redo, then next phase; False when
        no move was found."""
        from fightdesk.engine import commands as c

        window = self.window
        found = self.to_a_phase_with_a_move()
        if found is None:
            return False
        act, interrupt = found
        self.settle()
        times["act"].append(self.timed(lambda: self.apply(act)))
        times["interrupt"].append(self.timed(lambda: self.apply(interrupt)))
        times["undo"].append(self.timed(window.undo_action.trigger))
        times["redo"].append(self.timed(window.redo_action.trigger))
        self.resolve()
        answer_all(self.engine, self.apply)
        self.settle()
        if self.engine.ruleset.views.round_controls(self.engine.encounter).can_next_step:
            times["next phase"].append(self.timed(window.next_step_action.trigger))
        self.apply(c.Note(text="a breath"))  # nothing left open for the next sample
        self.settle()
        return True

    def revert(self, steps: int = 50) -> tuple[float, float]:
        """Revert to here over ``steps`` steps (each a health change on a card) against one
        undo of the same kind; both taken back again (redone) untimed."""
        from fightdesk.engine import commands as c

        engine = self.engine
        fid = next(f for f in engine.encounter.order if f in engine.encounter.fighters)
        health = engine.encounter.fighters[fid].status.health
        mark = engine.session.log[-1].seq
        for n in range(steps):
            self.apply(c.SetValue(fighter_id=fid, field="status.health", value=health - 1 - n % 2))
        self.settle()
        revert = self.timed(lambda: self.window.gm.revert_to(mark))
        for _ in range(steps):
            self.window.redo_action.trigger()
        self.settle()
        undo = self.timed(self.window.undo_action.trigger)
        self.window.redo_action.trigger()
        self.settle()
        return revert, undo


def measure(app: QApplication, configs: list[tuple[int, int]],
            repeats: int) -> dict[tuple[int, int], dict[str, float]]:
    """Every configuration's fight open at once, sampled in turn (round robin), so a busy
    spell of the machine falls on all of them alike and the ratios stay fair."""
    fights = {config: Fight(app, *config) for config in configs}
    entries = {config: len(fight.engine.session.log) for config, fight in fights.items()}
    times: dict[tuple[int, int], dict[str, list[float]]] = {
        config: {name: [] for name in CLICKS} for config in configs}
    reverts: dict[tuple[int, int], tuple[list[float], list[float]]] = {
        config: ([], []) for config in configs}
    live = set(configs)
    for _ in range(repeats):
        for config in configs:
            if config in live and not fights[config].sample(times[config]):
                live.discard(config)  # no move found: what it has is what it reports
    for _ in range(max(3, repeats // 2)):
        for config, fight in fights.items():
            revert, undo = fight.revert()
            reverts[config][0].append(revert)
            reverts[config][1].append(undo)
    for fight in fights.values():
        fight.close()
    results: dict[tuple[int, int], dict[str, float]] = {}
    for config in configs:
        out = {name: statistics.median(v) * 1000 for name, v in times[config].items() if v}
        out["revert 50 steps"] = statistics.median(reverts[config][0]) * 1000
        out["one undo (a health change)"] = statistics.median(reverts[config][1]) * 1000
        out["log entries"] = entries[config]
        results[config] = out
    return results


def window_share(app: QApplication, repeats: int) -> list[dict[str, Any]]:
    """Each click at 200 fighters and 100 log entries split in two, in processor time
    (not the wall clock, which a busy machine swamps): the click's own code (the engine,
    the models, the views' refresh) and the window's share (Qt's layout and paint of
    what changed, in ``processEvents``); with the paint events and the area painted."""
    from PySide6.QtCore import QEvent, QObject

    class PaintCounter(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.paints = 0
            self.area = 0

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                self.paints += 1
                self.area += sum(r.width() * r.height() for r in event.region())  # type: ignore[attr-defined]
            return False

    fight = Fight(app, 200, LOG_AXIS[0])
    counter = PaintCounter()
    app.installEventFilter(counter)
    taken: list[tuple[float, float, int, int]] = []

    def timed(_self: Fight, click: Any) -> float:
        paints, area = counter.paints, counter.area
        t0 = time.process_time()
        click()
        t1 = time.process_time()
        app.processEvents()
        app.processEvents()
        t2 = time.process_time()
        taken.append((t1 - t0, t2 - t1, counter.paints - paints, counter.area - area))
        return t2 - t0

    fight.timed = timed.__get__(fight)  # type: ignore[method-assign]
    order = ("act", "interrupt", "undo", "redo", "next phase")  # as sample() clicks
    split: dict[str, list[tuple[float, float, int, int]]] = {name: [] for name in order}
    times: dict[str, list[float]] = {name: [] for name in CLICKS}
    for _ in range(repeats):
        before = {name: len(v) for name, v in times.items()}
        taken.clear()
        if not fight.sample(times):
            break
        done = [name for name in order if len(times[name]) > before[name]]
        for name, sample in zip(done, taken, strict=True):
            split[name].append(sample)
    app.removeEventFilter(counter)
    fight.close()
    rows = []
    for name, samples in split.items():
        if samples:
            rows.append({"click": name,
                         "code_ms": round(statistics.median(s[0] for s in samples) * 1000, 2),
                         "window_ms": round(statistics.median(s[1] for s in samples) * 1000, 2),
                         "paints": statistics.median(s[2] for s in samples),
                         "painted_mpx": round(statistics.median(s[3] for s in samples) / 1e6, 3)})
    return rows


def in_place(app: QApplication, repeats: int) -> list[dict[str, Any]]:
    """Act, interrupt, undo and redo at 200 fighters, each click repeated in place
    (the same act and interrupt again after they are undone) ``repeats`` times, at 100
    and 10,000 log entries: medians of processor time (the click and the two
    ``processEvents``), many more samples than one fight's rounds give, for comparing
    two trees on a busy machine."""
    clicks = ("act", "interrupt", "undo", "redo")
    rows: list[dict[str, Any]] = []
    for entries in (LOG_AXIS[0], LOG_AXIS[-1]):
        fight = Fight(app, 200, entries)
        window = fight.window
        found = fight.to_a_phase_with_a_move()
        if found is None:
            fight.close()
            continue
        act, interrupt = found
        from fightdesk.engine import commands as c

        for n in range(5):  # some actions off the top of the log's rows, as in the fight's
            fight.apply(c.Note(text=f"a breath {n}"))  # own samples after the first few
        fight.settle()

        def timed(click: Any) -> float:
            t0 = time.process_time()
            click()
            app.processEvents()
            app.processEvents()
            return (time.process_time() - t0) * 1000

        taken: dict[str, list[float]] = {name: [] for name in clicks}
        for _ in range(repeats):
            taken["act"].append(timed(partial(fight.apply, act)))
            taken["interrupt"].append(timed(partial(fight.apply, interrupt)))
            taken["undo"].append(timed(window.undo_action.trigger))  # the act and interrupt
            taken["redo"].append(timed(window.redo_action.trigger))
            window.undo_action.trigger()
            fight.settle()
        fight.close()
        rows += [{"click": name, "entries": entries,
                  "processor_ms": round(statistics.median(taken[name]), 2)} for name in clicks]
    return rows


def rows_for(results: dict[tuple[int, int], dict[str, float]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []

    def row(measure: str, median: float, ratio: float | None, goal: str, met: bool | None) -> None:
        rows.append({"measure": measure, "median_ms": round(median, 2),
                     "ratio": None if ratio is None else round(ratio, 2), "goal": goal, "met": met})

    base = results[(200, LOG_AXIS[0])]
    for entries in LOG_AXIS:
        got = results[(200, entries)]
        for click in CLICKS:
            if click not in got or click not in base:
                continue
            median = got[click]
            if entries == LOG_AXIS[0]:
                row(f"{click}, 200 fighters, {entries:,} log entries", median, None,
                    f"<= {FRAME_MS:.0f} ms", median <= FRAME_MS)
            else:
                ratio = median / base[click]
                goal = f"<= 1.2x of {LOG_AXIS[0]} entries" + (
                    f" and <= {FRAME_MS:.0f} ms" if entries == LOG_AXIS[-1] else "")
                met = ratio <= 1.2 and (entries != LOG_AXIS[-1] or median <= FRAME_MS)
                row(f"{click}, 200 fighters, {entries:,} log entries", median, ratio, goal, met)
        revert, undo = got["revert 50 steps"], got["one undo (a health change)"]
        row(f"revert to here over 50 steps, 200 fighters, {entries:,} log entries", revert,
            revert / undo, "<= 2x of one undo", revert / undo <= 2.0)
    middle = results[(200, LOG_AXIS[0])]
    for fighters in FIGHTER_AXIS:
        if fighters == 200:
            continue
        got = results[(fighters, LOG_AXIS[0])]
        for click in CLICKS:
            if click in got and click in middle:
                ratio = got[click] / middle[click]
                goal = ("<= 2.2x of 200 fighters (no worse than linear)" if fighters > 200
                        else "for reference (against 200 fighters)")
                row(f"{click}, {fighters} fighters, {LOG_AXIS[0]} log entries", got[click], ratio,
                    goal, ratio <= 2.2 if fighters > 200 else None)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=0,
                        help="samples per click and configuration (default 5; 3 with --quick)")
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--in-place", action="store_true",
                        help="only act, interrupt, undo and redo at 200 fighters, each repeated "
                             "in place (default 30 times), medians of processor time")
    parser.add_argument("--window-share", action="store_true",
                        help="only the window's share of each click at 200 fighters (processor "
                             "time of the click's code and of Qt's layout and paint, the paints)")
    args = parser.parse_args()
    repeats = args.repeats or (3 if args.quick else 5)

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    if args.in_place:
        measure(app, [(50, LOG_AXIS[0])], 1)  # warm up: imports, caches, fonts
        placed = in_place(app, args.repeats or 30)
        if args.json:
            print(json.dumps(placed, indent=1))
            return 0
        for r in placed:
            print(f"{r['click']:<10} {r['entries']:>6,} entries  {r['processor_ms']:6.2f} ms")
        return 0
    if args.window_share:
        measure(app, [(50, LOG_AXIS[0])], 1)  # warm up: imports, caches, fonts
        share = window_share(app, max(repeats, 10))
        if args.json:
            print(json.dumps(share, indent=1))
            return 0
        for r in share:
            print(f"{r['click']:<10}  code {r['code_ms']:6.2f} ms  window {r['window_ms']:6.2f} ms  "
                  f"{r['paints']:4.0f} paints  {r['painted_mpx']:.3f} Mpx")
        return 0
    configs = [(200, n) for n in LOG_AXIS] + [(f, LOG_AXIS[0]) for f in FIGHTER_AXIS if f != 200]
    measure(app, [(50, LOG_AXIS[0])], 1)  # warm up: imports, caches, fonts
    results = measure(app, configs, repeats)
    if not args.json:
        for (fighters, _), got in results.items():
            cells = ", ".join(f"{k} {v:.1f} ms" for k, v in got.items() if k != "log entries")
            print(f"{fighters} fighters, {int(got['log entries']):,} entries at the start: {cells}")
    rows = rows_for(results)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print()
    width = max(len(r["measure"]) for r in rows)
    for r in rows:
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        met = {True: "met", False: "NOT met", None: ""}[r["met"]]
        print(f"{r['measure']:<{width}}  {r['median_ms']:7.2f} ms  {ratio:>6}  {r['goal']}  {met}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
