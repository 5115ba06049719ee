"""Rule-level mutants (docs/testing.md "Rule-level mutants"): hand-made bugs that each
read one rule of a ruleset's page the other way at its edge (a tie going the other way,
a threshold off by one, a rounding turned round, a cap over the wrong span, the wrong
fighter rolling), kept in tools/mutants/<target>.toml with the rule each one breaks.

``tools/mutate.py --rules`` runs them: each mutant is written into a copy of the tree
(.mutation/rules-<target>/), the target's tests run against it (stopping at the first
failure), and the file is put back. A mutant is killed when a test fails, survives when
they all pass; one marked ``equivalent`` (with the reason) is not run and not counted.

A mutant in the data file:

    [[mutant]]
    id = "ep-gain-rounds-down"                      # unique in the file
    file = "fightdesk/engine/rulesets/street_fighter/round.py"
    rule = "docs/rulesets/street-fighter.md#ep-gain" # the section it breaks
    reads = "later rounds gain half Intelligence rounded down"   # the wrong reading
    original = "(sh.intelligence + 1) // 2"          # found exactly once in the file
    mutated = "sh.intelligence // 2"
    # equivalent = "why the program does the same" # only for equivalent ones
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tools" / "mutants"
SCRATCH = ROOT / ".mutation"
ENGINE_TESTS = Path("tests/engine")
# The random-fight property tests take seconds each and reach everything: a rule mutant
# only they would kill is a rule no scenario pins, which is what these mutants look for.
PROPERTY_TESTS = "*propert*"
# The tests written for these mutants run first, so a killed mutant costs little.
FIRST = "test_rule_edges.py"
# Past this a mutant's test run is stopped and counted killed (a loop it made endless).
MUTANT_TIMEOUT = 300.0
TARGETS = ("street_fighter", "roll_under", "d100", "ashes", "core")


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    rule: str
    reads: str
    original: str
    mutated: str
    equivalent: str = ""


def load(target: str, data: Path = DATA) -> list[Mutant]:
    """The target's mutants, each checked: every field there, ids unique, the original
    found exactly once in its file and the mutated text different from it."""
    path = data / f"{target}.toml"
    if not path.exists():
        sys.exit(f"mutate.py: no rule-level mutants for {target} ({path})")
    with path.open("rb") as handle:
        rows = tomllib.load(handle).get("mutant", [])
    out: list[Mutant] = []
    seen: set[str] = set()
    for number, row in enumerate(rows, start=1):
        try:
            mutant = Mutant(**row)
        except TypeError as problem:
            sys.exit(f"mutate.py: {path.name}, mutant {number}: {problem}")
        where = f"{path.name}, mutant {mutant.id}"
        if mutant.id in seen:
            sys.exit(f"mutate.py: {where}: the id is used twice")
        seen.add(mutant.id)
        if problem_text := check(mutant):
            sys.exit(f"mutate.py: {where}: {problem_text}")
        out.append(mutant)
    return out


def check(mutant: Mutant, root: Path = ROOT) -> str:
    """What is wrong with a mutant against the source under ``root`` ('' when nothing)."""
    source = root / mutant.file
    if not source.is_file():
        return f"no file {mutant.file}"
    if mutant.original == mutant.mutated:
        return "the mutated text is the original"
    count = source.read_text(encoding="utf-8").count(mutant.original)
    if count != 1:
        return (f"the original is found {count} times in {mutant.file} "
                "(it must be found exactly once)")
    if not mutant.rule.startswith("docs/") or "#" not in mutant.rule:
        return "rule must point to a docs section (docs/<page>.md#<anchor>)"
    return ""


def tests_of(target: str, root: Path = ROOT) -> list[Path]:
    """The target's tests without the property tests, its rule-edge tests first."""
    if target == "core":
        files = sorted((root / ENGINE_TESTS).glob("test_*.py"))
    else:
        files = sorted((root / ENGINE_TESTS / target).glob("**/test_*.py"))
    files = [p.relative_to(root) for p in files if not p.match(PROPERTY_TESTS)]
    return sorted(files, key=lambda p: (p.name != FIRST, str(p)))


def prepare(target: str) -> Path:
    here = SCRATCH / f"rules-{target}"
    here.mkdir(parents=True, exist_ok=True)
    for name in ("fightdesk", "tests", "resources"):
        if (here / name).exists():
            shutil.rmtree(here / name)
        shutil.copytree(ROOT / name, here / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy2(ROOT / "pyproject.toml", here / "pyproject.toml")
    (here / "tmp").mkdir(exist_ok=True)
    return here


def run_one(here: Path, mutant: Mutant, tests: list[Path]) -> tuple[str, str]:
    """Write the mutant, run the tests, put the file back: ('killed' or 'survived', the
    first failing test)."""
    source = here / mutant.file
    original = source.read_text(encoding="utf-8")
    source.write_text(original.replace(mutant.original, mutant.mutated, 1), encoding="utf-8")
    env = {**os.environ, "PYTEST_DEBUG_TEMPROOT": str(here / "tmp"), "PYTHONPATH": str(here),
           "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "-p", "no:unraisableexception", *map(str, tests)]
    try:
        done = subprocess.run(command, cwd=here, env=env, capture_output=True, text=True,
                              timeout=MUTANT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return "killed", "(timeout)"
    finally:
        source.write_text(original, encoding="utf-8")
    if done.returncode == 0:
        return "survived", ""
    failed = next((line.split(" ", 1)[1].split(" - ")[0] for line in done.stdout.splitlines()
                   if line.startswith(("FAILED ", "ERROR "))), f"(exit {done.returncode})")
    return "killed", failed


def run(targets: list[str], only: list[str], report_only: bool) -> int:
    """Run (or, with report_only, report the last results of) each target's mutants."""
    lines = []
    survivors = 0
    for target in targets:
        mutants = load(target)
        if only:
            mutants = [m for m in mutants if m.id in only]
        store = SCRATCH / f"rules-{target}.json"
        results: dict[str, list[str]] = (json.loads(store.read_text(encoding="utf-8"))
                                         if store.exists() else {})
        if not report_only:
            here = prepare(target)
            tests = tests_of(target)
            print(f"== {target}: {len(mutants)} rule-level mutants, tests: "
                  f"{' '.join(map(str, tests))}", flush=True)
            for mutant in mutants:
                if mutant.equivalent:
                    continue
                started = time.monotonic()
                status, test = run_one(here, mutant, tests)
                results[mutant.id] = [status, test]
                print(f"  {mutant.id}: {status} {test} ({time.monotonic() - started:.0f} s)",
                      flush=True)
                SCRATCH.mkdir(exist_ok=True)
                store.write_text(json.dumps(results, indent=1), encoding="utf-8")
        known = {m.id for m in mutants}
        results = {k: v for k, v in results.items() if k in known}
        equivalent = [m for m in mutants if m.equivalent]
        counted = [m for m in mutants if not m.equivalent]
        killed = sum(1 for m in counted if results.get(m.id, [""])[0] == "killed")
        lost = [m for m in counted if results.get(m.id, [""])[0] == "survived"]
        unchecked = sum(1 for m in counted if m.id not in results)
        survivors += len(lost)
        for m in lost:
            print(f"survived: {target} {m.id} ({m.rule}): {m.reads}\n"
                  f"    - {m.original.strip()}\n    + {m.mutated.strip()}")
        score = f"{100 * killed / len(counted):.1f}%" if counted else "-"
        lines.append(f"{target}: {killed} killed of {len(counted)} non-equivalent ({score}); "
                     f"{len(equivalent)} equivalent"
                     + (f"; {unchecked} not checked yet" if unchecked else ""))
    print("\n".join(["", "Rule-level mutants (killed / non-equivalent):", *lines]))
    return survivors
