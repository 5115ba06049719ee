"""UI latency: from "next phase" to the models updated and the window repainted.

    python benchmarks/ui_latency.py [--fighters 200] [--repeats 60]

A street-fighter fight of 200 fighters (the demo's, three more named fighters, and the
rest weenies in groups of 12: 5 named, 195 weenies in 17 groups) is shown in the real main window, offscreen at 1280x800. Each sample applies the
Next Phase command through the window's action (the engine applies it, the notice
refreshes the fighters, log and stack models, the timeline and the controls) and then
repaints the window. The baseline, measured in the same run, is the same repaint with no
change. Reports medians; the target is under 16 ms (one frame at 60 Hz) for the whole
click. The engine's own share is reported too, so a slow figure says whose it is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fighters", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=60)
    args = parser.parse_args()

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from fightdesk.engine import commands as c
    from fightdesk.ui.main_window import MainWindow

    engine = big_fight(args.fighters)
    window = MainWindow()
    window.resize(1280, 800)
    window.show_session(engine, None)
    window.show()
    for _ in range(3):
        app.processEvents()
    timeline = window.timeline.timeline()
    assert timeline is not None
    print(f"{len(engine.encounter.order)} fighters, {len(window.cards.cards())} cards, "
          f"{len(timeline.lanes)} timeline lanes")

    def new_round() -> None:
        for command in (c.EndRound(), c.StartRound(), c.NextStep()):
            if engine.ruleset.round_controls(engine.encounter).can_end_round or command.kind != "end-round":
                engine.apply(command)
        while engine.pending() is not None:
            decision = engine.pending()
            assert decision is not None
            engine.apply(c.Answer(decision_id=decision.id, choice="lose"))

    engine.apply(c.StartFight())
    engine.apply(c.StartRound())
    engine.apply(c.NextStep())
    app.processEvents()

    def answer_open_questions() -> None:
        """A passed die asks hold or lose: the GM's next click (outside the timing)."""
        while engine.pending() is not None:
            decision = engine.pending()
            assert decision is not None
            window.document.apply(c.Answer(decision_id=decision.id, choice="lose"))
        app.processEvents()

    whole: list[float] = []
    views: list[float] = []
    engine_only: list[float] = []
    baseline: list[float] = []
    while len(whole) < args.repeats:
        if engine.encounter.state.stage != "phases":
            new_round()
            app.processEvents()
            window.repaint()
            continue
        # Baseline: the same repaint with nothing changed.
        t0 = time.perf_counter()
        app.processEvents()
        window.repaint()
        baseline.append(time.perf_counter() - t0)
        # Engine only: a dry run of the same command.
        t0 = time.perf_counter()
        engine.check(c.NextStep())
        engine_only.append(time.perf_counter() - t0)
        # The ruleset's plain-data views the window asks for after a change.
        t0 = time.perf_counter()
        rules, enc = engine.ruleset, engine.encounter
        rules.cards(enc), rules.timeline(enc), rules.stack(enc)
        rules.round_controls(enc), rules.describe_state(enc), rules.pending(enc)
        views.append(time.perf_counter() - t0)
        controls = engine.ruleset.round_controls(engine.encounter)
        if not controls.can_next_step:
            new_round()
            continue
        # The whole click (F6): command, notices, models, timeline, controls, repaint.
        t0 = time.perf_counter()
        window.next_step_action.trigger()
        app.processEvents()
        window.repaint()
        whole.append(time.perf_counter() - t0)
        answer_open_questions()

    ms = 1000.0
    med_whole = statistics.median(whole) * ms
    med_base = statistics.median(baseline) * ms
    med_engine = statistics.median(engine_only) * ms
    print(f"next phase -> models updated and repainted: median {med_whole:.2f} ms "
          f"(p90 {sorted(whole)[int(len(whole) * 0.9)] * ms:.2f} ms, n={len(whole)})")
    print(f"baseline repaint, nothing changed:          median {med_base:.2f} ms")
    print(f"engine's own share (dry run of the command): median {med_engine:.2f} ms")
    print(f"ruleset views (cards, timeline, stack...):   median {statistics.median(views) * ms:.2f} ms")
    print(f"ratio to baseline: {med_whole / med_base:.1f}x; target under 16 ms: "
          f"{'met' if med_whole < 16 else 'NOT met'}")
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()
    app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
