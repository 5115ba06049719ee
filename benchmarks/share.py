"""The share (Fight > Share With Players...): how fast a GM action reaches the players'
pages, what connected pages cost the GM's click, and the server's memory per page.

    python benchmarks/share.py [--quick] [--actions 40] [--clicks 30] [--json]

The real main window (offscreen) shows the roll-under demo and shares it on 127.0.0.1.
The pages are WebSocket clients in a process of their own (as phones are other
machines), each noting when every state arrives (``time.monotonic``, one clock for both
processes on Linux), at the lowest priority (nice 19): on this one machine they stand for
phones, whose work is not the laptop's.

- Update: the GM renames the fight through the document's command path (the name is on
  every page, so each state says which action it shows); from just before the command to
  each page's receipt of the new state, on 1, 8 and 20 pages: median and p90 over every
  (action, page), and the p90 of the last page to get each action.
- Click: the window's next step (the F6 path, ended when the window is idle, then undone
  and 20 ms left for the pages' update, outside the timing), shared with 20 connected
  pages against the same window not sharing (the pages stay connected but get nothing),
  in alternating blocks: medians and the ratio (goal: within 1.1x).
- Memory: the server's allocations (tracemalloc) with 20 pages connected and shown the
  fight, less those with none, per page; and the process's resident memory likewise.

``--json`` prints the rows as JSON ({"measure", "median_ms", "ratio", "goal", "met"}).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_home = Path(tempfile.mkdtemp(prefix="fightdesk-bench-"))
for _var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_var] = str(_home / _var.lower())

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "resources" / "demo_roll-under.json"

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


# --- the pages' process ---------------------------------------------------------------------
async def _pages(url: str, count: int, until: str) -> dict[str, Any]:
    """``count`` pages on ``url``; each state's fight title and arrival time, until every
    page has seen the title ``until`` (then the arrival lists, as JSON)."""
    import aiohttp

    arrivals: list[list[tuple[str, float]]] = [[] for _ in range(count)]
    async with aiohttp.ClientSession() as client:
        sockets = [await client.ws_connect(url + "ws") for _ in range(count)]
        print("connected", flush=True)

        async def read(n: int) -> None:
            async for message in sockets[n]:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                now = time.monotonic()
                data = json.loads(message.data)
                if data.get("type") == "state":
                    title = data["fight"]["title"]
                    arrivals[n].append((title, now))
                    if title == until:
                        break

        await asyncio.gather(*(read(n) for n in range(count)))
        for ws in sockets:
            await ws.close()
    return {"arrivals": arrivals}


def pages_main(url: str, count: int, until: str) -> None:
    result = asyncio.run(_pages(url, count, until))
    print(json.dumps(result), flush=True)


class PagesProcess:
    """The pages' process, started and waited for from the window's side."""

    def __init__(self, url: str, count: int, until: str) -> None:
        # Phones are other machines: the pages' process yields the processor to the
        # window's (nice 19), so what is measured is the window's and the server's work.
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--pages-child", url, str(count), until],
            stdout=subprocess.PIPE, text=True, preexec_fn=lambda: os.nice(19))
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.strip() == "connected", line

    def arrivals(self, timeout: float = 120) -> list[list[tuple[str, float]]]:
        out, _ = self.process.communicate(timeout=timeout)
        return [[(t, s) for t, s in page] for page in json.loads(out)["arrivals"]]


# --- the window's side ----------------------------------------------------------------------
def shown_window() -> MainWindow:
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import load_session
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow()
    window.resize(1280, 800)
    window.show()
    window.show_session(Engine(load_session(DEMO)), None)
    settle()
    return window


def settle() -> None:
    from PySide6.QtWidgets import QApplication

    for _ in range(3):
        QApplication.processEvents()


def wait_devices(window: MainWindow, count: int) -> None:
    end = time.monotonic() + 30
    while window.share.devices != count:
        settle()
        time.sleep(0.005)
        if time.monotonic() > end:
            raise RuntimeError(f"{count} pages did not connect")


def update_latency(window: MainWindow, pages: int, actions: int) -> dict[str, float]:
    """Rename the fight ``actions`` times; each page's delay to every new title."""
    from fightdesk.engine.commands import RenameFight

    server = window.share.server
    assert server is not None
    last = f"Bench {pages}-{actions - 1}"
    child = PagesProcess(server.url(), pages, last)
    wait_devices(window, pages)
    sent: dict[str, float] = {}
    for n in range(actions):
        title = f"Bench {pages}-{n}"
        sent[title] = time.monotonic()
        window.document.apply(RenameFight(name=title))
        settle()
        time.sleep(0.03)  # the GM's next action comes later: no two states merge
    arrivals = child.arrivals()
    wait_devices(window, 0)
    delays = [(at - sent[title]) * 1000 for page in arrivals for title, at in page
              if title in sent]
    last_page = [max(at for page in arrivals for t, at in page if t == title) - sent[title]
                 for title in sent]
    assert len(delays) == pages * actions, (len(delays), pages * actions)
    return {"median": statistics.median(delays), "p90": _p90(delays),
            "last_p90": _p90([d * 1000 for d in last_page])}


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def click_ms(window: MainWindow) -> tuple[float, float]:
    """One next step through the window, until idle; undone outside the timing. The wall
    clock's milliseconds, and the window thread's own processor time."""
    start, cpu = time.perf_counter(), time.thread_time()
    window.next_step_action.trigger()
    settle()
    took = ((time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000)
    window.undo_action.trigger()
    settle()
    time.sleep(0.02)  # a GM's clicks are further apart: the pages' update of this one ends
    settle()
    return took


def click_cost(window: MainWindow, clicks: int, blocks: int) -> dict[str, float]:
    """Clicks shared with 20 pages against not shared, in alternating blocks."""
    from fightdesk.engine.commands import Answer, StartFight

    controller = window.share
    server = controller.server
    assert server is not None
    window.document.apply(StartFight())
    # The roll-under start asks who attacks by surprise: the demo's marks, as they are.
    window.document.apply(Answer(decision_id="surprise", values={}, by="the GM"))
    child = PagesProcess(server.url(), 20, "never")
    wait_devices(window, 20)
    for _ in range(5):  # warm up both ways
        click_ms(window)
    shared: list[tuple[float, float]] = []
    alone: list[tuple[float, float]] = []
    for _ in range(blocks):
        controller.server = None  # the window does not share: publish does nothing
        alone += [click_ms(window) for _ in range(clicks)]
        controller.server = server
        shared += [click_ms(window) for _ in range(clicks)]
    window.document.undo_stack.setClean()
    child.process.kill()
    child.process.wait()
    wait_devices(window, 0)
    return {"alone": statistics.median(a for a, _ in alone),
            "shared": statistics.median(s for s, _ in shared),
            "alone_cpu": statistics.median(c for _, c in alone),
            "shared_cpu": statistics.median(c for _, c in shared)}


def memory_per_page(window: MainWindow, pages: int) -> dict[str, float]:
    """The server's allocations and the process's resident memory per connected page."""
    import tracemalloc

    server = window.share.server
    assert server is not None
    settle()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    rss_before = _rss_kib()
    child = PagesProcess(server.url(), pages, "Memory")
    wait_devices(window, pages)
    time.sleep(0.5)
    after = tracemalloc.take_snapshot()
    rss_after = _rss_kib()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    from fightdesk.engine.commands import RenameFight

    window.document.apply(RenameFight(name="Memory"))
    settle()
    child.arrivals()
    wait_devices(window, 0)
    return {"traced_kib": grown / 1024 / pages, "rss_kib": (rss_after - rss_before) / pages}


def _rss_kib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return float(line.split()[1])
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    parser.add_argument("--actions", type=int, default=40, help="GM actions per page count")
    parser.add_argument("--clicks", type=int, default=30, help="clicks per block")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--pages-child", nargs=3, metavar=("URL", "N", "UNTIL"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pages_child:
        url, count, until = args.pages_child
        pages_main(url, int(count), until)
        return
    from PySide6.QtWidgets import QApplication

    _app = QApplication.instance() or QApplication([])
    actions = 10 if args.quick else args.actions
    clicks = 8 if args.quick else args.clicks
    window = shown_window()
    window.share.start("127.0.0.1", 0, 30)
    rows: list[dict[str, Any]] = []
    try:
        for pages in (1, 8, 20):
            got = update_latency(window, pages, actions)
            rows.append({"measure": f"GM action to the page, {pages} page(s): median",
                         "median_ms": round(got["median"], 2), "ratio": None, "goal": "",
                         "met": None})
            rows.append({"measure": f"GM action to the page, {pages} page(s): p90",
                         "median_ms": round(got["p90"], 2), "ratio": None, "goal": "",
                         "met": None})
            rows.append({"measure": f"GM action to the last of {pages} page(s): p90",
                         "median_ms": round(got["last_p90"], 2), "ratio": None,
                         "goal": "", "met": None})
        memory = memory_per_page(window, 20)
        rows.append({"measure": "server memory per page (traced allocations)",
                     "median_ms": None, "value": f"{memory['traced_kib']:.1f} KiB",
                     "ratio": None, "goal": "", "met": None})
        rows.append({"measure": "process resident memory per page",
                     "median_ms": None, "value": f"{memory['rss_kib']:.1f} KiB",
                     "ratio": None, "goal": "", "met": None})
        cost = click_cost(window, clicks, 2 if args.quick else 6)
        ratio = cost["shared"] / cost["alone"]
        rows.append({"measure": "next-step click, not shared", "median_ms":
                     round(cost["alone"], 2), "ratio": None, "goal": "", "met": None})
        rows.append({"measure": "next-step click, shared with 20 pages", "median_ms":
                     round(cost["shared"], 2), "ratio": round(ratio, 3),
                     "goal": "<= 1.1x not shared", "met": ratio <= 1.1})
        cpu_ratio = cost["shared_cpu"] / cost["alone_cpu"]
        rows.append({"measure": "next-step click, window thread's processor time, not shared",
                     "median_ms": round(cost["alone_cpu"], 2), "ratio": None, "goal": "",
                     "met": None})
        rows.append({"measure": "next-step click, window thread's processor time, shared",
                     "median_ms": round(cost["shared_cpu"], 2), "ratio": round(cpu_ratio, 3),
                     "goal": "<= 1.1x not shared", "met": cpu_ratio <= 1.1})
    finally:
        window.share.stop()
        window.document.undo_stack.setClean()
        window.close()
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        figure: str = row.get("value") or f"{row['median_ms']:.2f} ms"
        against = f"  {row['ratio']}x ({row['goal']}: {'met' if row['met'] else 'NOT met'})" \
            if row["ratio"] is not None else ""
        print(f"{row['measure']:<62} {figure}{against}")


if __name__ == "__main__":
    main()
