"""Run every benchmark and print one table: measure, median, ratio, goal, met or not.

    python benchmarks/run_all.py [--markdown] [--only NAME ...]

Each ``benchmarks/*.py`` script (not this one, and not the shared modules whose names
start with "_") runs in its own process with ``--json`` and prints, as the last thing
on its standard output, a JSON list of rows ``{"measure", "median_ms", "ratio", "goal",
"met"}`` (a figure that is not a time says itself in ``value``). A script that does not
take ``--json``, fails, or prints no rows is listed as not measured, with the reason; the
others still run. The scripts run one after another, never side by side, so they do not
slow each other; a busy machine still slows them all (ratios are taken within one run
of one script, so they hold up better than the medians).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 3600


def scripts() -> list[Path]:
    return sorted(p for p in HERE.glob("*.py")
                  if not p.name.startswith("_") and p.name != Path(__file__).name)


def last_json_list(text: str) -> list[dict[str, Any]] | None:
    """The last JSON list in ``text`` (a script may print its own lines before it)."""
    end = text.rstrip().rfind("]")
    start = text.rfind("\n[", 0, end)
    candidates = [start + 1] if start >= 0 else []
    if text.lstrip().startswith("["):
        candidates.append(len(text) - len(text.lstrip()))
    for begin in candidates:
        try:
            rows = json.loads(text[begin:end + 1])
        except json.JSONDecodeError:
            continue
        if isinstance(rows, list) and all(isinstance(r, dict) and "measure" in r for r in rows):
            return rows
    return None


def run(script: Path) -> tuple[list[dict[str, Any]], str | None, float]:
    """The rows a script printed, or why it was not measured; and its wall time."""
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, str(script), "--json"], capture_output=True,
                              text=True, timeout=TIMEOUT_S, cwd=HERE.parent)
    except subprocess.TimeoutExpired:
        return [], f"took over {TIMEOUT_S} s", time.perf_counter() - started
    took = time.perf_counter() - started
    if done.returncode != 0:
        lines = [line for line in (done.stderr or done.stdout).strip().splitlines()
                 if "propagateSizeHints" not in line]  # the offscreen platform's chatter
        reason = f"exit status {done.returncode}" + (f": {lines[-1]}" if lines else "")
        if "unrecognized arguments: --json" in (done.stderr or ""):
            reason = "takes no --json yet"
        rows = last_json_list(done.stdout)
        if rows is None:
            return [], reason, took
        return rows, None, took  # rows printed, then a non-zero status (a missed target)
    rows = last_json_list(done.stdout)
    if rows is None:
        return [], "printed no JSON rows", took
    return rows, None, took


def cell_median(r: dict[str, Any]) -> str:
    if isinstance(r.get("median_ms"), int | float):
        return f"{r['median_ms']:.2f} ms"
    return str(r.get("value") or "")


def cell_ratio(r: dict[str, Any]) -> str:
    ratio = r.get("ratio")
    return f"{ratio:.2f}x" if isinstance(ratio, int | float) else ""


def cell_met(r: dict[str, Any]) -> str:
    met = r.get("met")
    return "yes" if met is True else "NO" if met is False else ""


def table(results: list[tuple[str, list[dict[str, Any]], str | None, float]],
          markdown: bool) -> str:
    head = ("script", "measure", "median", "ratio", "goal", "met")
    lines: list[tuple[str, ...]] = []
    for name, rows, reason, _took in results:
        if reason is not None:
            lines.append((name, f"not measured: {reason}", "", "", "", ""))
        for r in rows:
            lines.append((name, str(r.get("measure", "")), cell_median(r), cell_ratio(r),
                          str(r.get("goal") or ""), cell_met(r)))
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h)
              for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
    out += ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in lines]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--only", nargs="*", default=None,
                        help="run only these scripts (names without .py)")
    args = parser.parse_args(argv)
    results = []
    for script in scripts():
        if args.only is not None and script.stem not in args.only:
            continue
        print(f"running {script.name} ...", file=sys.stderr, flush=True)
        rows, reason, took = run(script)
        print(f"  {script.name}: {len(rows)} rows in {took:.0f} s"
              + (f" (not measured: {reason})" if reason else ""), file=sys.stderr, flush=True)
        results.append((script.stem, rows, reason, took))
    print(table(results, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
