"""Roll tables: what a table costs the fight, against the same work without one, in the
same run.

    python benchmarks/tables.py            # prints medians and ratios
    python benchmarks/tables.py --quick    # fewer repeats (a smoke run)

Measured: a roll on a table (``RollOnTable``) against a free roll of the same die
(``FreeRoll``), a table edit (``SetTable``), checking a 100-row table, and loading the
demo session with the two built-in tables against the demo without them.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from fightdesk.engine import commands as c  # noqa: E402
from fightdesk.engine.engine import Engine  # noqa: E402
from fightdesk.engine.model import Session  # noqa: E402
from fightdesk.engine.tables import RollTable, default_tables  # noqa: E402

DEMO = REPO / "resources" / "demo_fight.json"


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times: list[float] = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def with_tables() -> Engine:
    engine = Engine(Session.model_validate_json(DEMO.read_text()))
    for ruleset in ("d100", "roll-under"):
        for table in default_tables(ruleset).values():
            engine.apply(c.SetTable(table=table.model_dump(mode="json")))
    return engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON rows")
    args = parser.parse_args()
    repeat = 20 if args.quick else 200

    engine = with_tables()
    roll = median_ms(lambda: engine.apply(c.RollOnTable(table_id="damage-chart")), repeat)
    free = median_ms(lambda: engine.apply(c.FreeRoll(notation="1d100")), repeat)
    chart = default_tables("d100")["damage-chart"].model_dump(mode="json")
    edits = [dict(chart, name=f"Damage chart {i}") for i in range(repeat)]
    it = iter(edits)
    edit = median_ms(lambda: engine.apply(c.SetTable(table=next(it))), repeat)

    big = {"id": "big", "name": "Big", "die": "1d100",
           "rows": [{"low": n, "high": n, "text": f"result {n}"} for n in range(1, 101)]}
    check = median_ms(lambda: RollTable.model_validate(big), repeat)

    plain_text = DEMO.read_text()
    tables_text = with_tables().session.model_copy(
        update={"log": [], "redo": []}).model_dump_json()
    plain_text_no_log = Engine(Session.model_validate_json(plain_text)).session.model_copy(
        update={"log": [], "redo": []}).model_dump_json()
    load_plain = median_ms(lambda: Session.model_validate_json(plain_text_no_log), repeat)
    load_tables = median_ms(lambda: Session.model_validate_json(tables_text), repeat)

    print(f"roll on a table (RollOnTable 1d100): {roll:.3f} ms; free roll 1d100: {free:.3f} ms; "
          f"ratio {roll / free:.2f}")
    print(f"table edit (SetTable, 5 rows): {edit:.3f} ms")
    print(f"check a 100-row table: {check:.3f} ms")
    print(f"load the demo with its two built-in tables: {load_tables:.3f} ms; without: "
          f"{load_plain:.3f} ms; ratio {load_tables / load_plain:.2f}")
    if args.json:
        print(json.dumps([
            {"measure": "roll on a table vs a free roll of the same die", "median_ms": roll,
             "ratio": roll / free, "goal": "", "met": None},
            {"measure": "table edit (SetTable, 5 rows)", "median_ms": edit, "ratio": None,
             "goal": "", "met": None},
            {"measure": "check a 100-row table", "median_ms": check, "ratio": None,
             "goal": "", "met": None},
            {"measure": "load the demo with its two built-in tables vs without",
             "median_ms": load_tables, "ratio": load_tables / load_plain, "goal": "",
             "met": None},
        ], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
