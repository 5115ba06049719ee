"""The row every benchmark prints with ``--json`` and run_all.py reads (not a benchmark
itself: run_all.py skips names that start with "_").

A row is ``{"measure": str, "median_ms": float | None, "ratio": float | None,
"goal": str, "met": bool | None}``; a figure that is not a time (a size, memory) leaves
``median_ms`` at None and says itself in ``value`` (``"1.38 KB"``).
"""

from __future__ import annotations

import json
from typing import Any

Row = dict[str, Any]


def row(measure: str, median_ms: float | None, ratio: float | None = None, goal: str = "",
        met: bool | None = None, value: str | None = None) -> Row:
    out: Row = {"measure": measure,
                "median_ms": None if median_ms is None else round(median_ms, 3),
                "ratio": None if ratio is None else round(ratio, 3), "goal": goal, "met": met}
    if value is not None:
        out["value"] = value
    return out


def at_most(ratio: float, limit: float) -> tuple[float, str, bool]:
    """``ratio``, its goal text and whether it is met: ``ratio <= limit``."""
    return ratio, f"<= {limit:g}x", ratio <= limit


def print_json(rows: list[Row]) -> None:
    print(json.dumps(rows, indent=1))
