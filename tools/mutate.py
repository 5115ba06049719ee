"""Mutation testing of the rules engine with mutmut (docs/testing.md "Mutation testing").

Each ruleset package under fightdesk/engine/rulesets/ is mutated on its own and checked
against its own tests (tests/engine/<package>/); the shared core (fightdesk/engine/*.py)
against the core tests (tests/engine/test_*.py). mutmut runs the mutants in parallel,
one forked worker per core, each against only the tests that reach the mutated function.

    python tools/mutate.py                        # every ruleset and the core
    python tools/mutate.py --ruleset street-fighter --files rules.py round.py
    python tools/mutate.py --changed              # what changed since the merge base with main
    python tools/mutate.py --changed HEAD~1 --time-cap 120 --max-mutants 60   # what CI runs
    python tools/mutate.py --rules --ruleset ashes   # the hand-made rule-level mutants

Each target works in its own copy of the tree under .mutation/<target>/, so a run can go on
while the tests are edited, and a second run reuses the results of the first for every
function that did not change (--fresh starts over; --retry re-checks the survivors).
The report lists every surviving mutant as file:line and the changed line.

--time-cap covers the whole run: copying the tree, mutmut's set-up (which tests reach
which function), the mutants and the report. The targets of a capped run go side by side,
their mutmut runs stop a little before the cap, and the report says what was checked by
then (docs/testing.md, "Changed code only, and CI").
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = Path("fightdesk/engine")
RULESETS = ENGINE / "rulesets"
ENGINE_TESTS = Path("tests/engine")
SCRATCH = ROOT / ".mutation"
CORE = "core"
# Random-fight property tests reach nearly every function and take seconds each; a mutant
# they alone would kill is a rule no scenario test pins, which is what this run is for.
PROPERTY_TESTS = "*propert*"
MUTMUT_SECTION = "[tool.mutmut]"
# What --retry checks again: survivors, and mutants no test reached (a new test may).
RETRIED = ("survived", "no tests")
# Of a --time-cap, the part kept for reading the results and writing the report after the
# mutmut runs stop: a share of the cap, at least MIN and at most MAX seconds.
REPORT_SHARE, REPORT_MIN, REPORT_MAX = 0.15, 5.0, 30.0
CAP_NOTE = "[mutate.py: stopped at the time cap]"
# mutmut numbers the mutants of a function 1, 2, 3 ...; a sample of a big change takes
# those whose number ends in the first k of these digits (k of 10: about k tenths).
SAMPLE_DIGITS = "0516273849"


@dataclass
class Target:
    """One mutation run: the engine files it mutates and the tests it runs against them."""

    name: str
    sources: list[Path]
    tests: list[Path]
    # Only mutants in these functions (mutmut name patterns); empty means all of them.
    patterns: list[str] = field(default_factory=list)
    # Only survivors on these lines are reported (file -> lines); None reports all.
    lines: dict[Path, set[int]] | None = None
    # Its folder under .mutation/ (the changed-lines mode keeps apart from full runs).
    folder: str = ""
    # About how many mutants the changed functions have (estimate_mutants), before mutmut.
    estimate: int = 0
    # How the mutants were cut to a sample (--max-mutants), said in the report; "" for all.
    sampled: str = ""
    # The patterns of every mutant of the changed functions, before the sample.
    whole: list[str] = field(default_factory=list)


@dataclass
class Survivor:
    name: str
    path: Path
    line: int
    before: str
    after: str
    # "rule", or "text" when only what the log or a refusal says changes (see text_only).
    kind: str = "rule"


# Statements whose mutants change only words: a line written to the log, the summary of
# a step, a roll's outcome line, the message of a refusal (raise, ctx.fail: the refusal
# itself stays).
LOG_CALLS = {"say", "note", "fail"}
TEXT_TARGETS = {"summary", "outcome"}


def text_only(tree: ast.Module, line: int) -> bool:
    """Whether the innermost statement on ``line`` only writes text (LOG_CALLS ...)."""
    inner: ast.stmt | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno):
            if inner is None or node.lineno >= inner.lineno:
                inner = node
    if isinstance(inner, ast.Raise):
        return True
    if isinstance(inner, ast.Expr) and isinstance(inner.value, ast.Call):
        func = inner.value.func
        return isinstance(func, ast.Attribute) and func.attr in LOG_CALLS
    if isinstance(inner, ast.Assign | ast.AugAssign | ast.AnnAssign):
        targets = inner.targets if isinstance(inner, ast.Assign) else [inner.target]
        return all(isinstance(t, ast.Attribute) and t.attr in TEXT_TARGETS for t in targets)
    return False


def package_name(ruleset: str) -> str:
    """The package of a ruleset id: 'street-fighter' -> 'street_fighter'."""
    return ruleset.replace("-", "_")


def known_rulesets() -> list[str]:
    return sorted(p.parent.name for p in (ROOT / RULESETS).glob("*/__init__.py"))


def test_files(folder: Path, pattern: str, with_properties: bool) -> list[Path]:
    files = sorted(p.relative_to(ROOT) for p in (ROOT / folder).glob(pattern))
    if not with_properties:
        files = [p for p in files if not p.match(PROPERTY_TESTS)]
    return files


def make_target(name: str, with_properties: bool) -> Target:
    if name == CORE:
        sources = sorted(p.relative_to(ROOT) for p in (ROOT / ENGINE).glob("*.py")
                         if p.name != "__init__.py")
        sources.append(RULESETS / "__init__.py")
        return Target(CORE, sources, test_files(ENGINE_TESTS, "test_*.py", with_properties))
    package = package_name(name)
    folder = ROOT / RULESETS / package
    if not (folder / "__init__.py").exists():
        sys.exit(f"mutate.py: no ruleset package {RULESETS / package} "
                 f"(known: {', '.join(known_rulesets())})")
    tests = test_files(ENGINE_TESTS / package, "**/test_*.py", with_properties)
    if not tests:
        sys.exit(f"mutate.py: ruleset {name} has no tests in {ENGINE_TESTS / package}/")
    # The package's __init__.py too: street-fighter's holds the __getattr__ that loads its
    # rules (one with nothing to mutate just has no mutants).
    sources = sorted(p.relative_to(ROOT) for p in folder.rglob("*.py"))
    return Target(package, sources, tests)


def target_of(path: Path) -> str | None:
    """Which target mutates this file, or None for files outside the engine."""
    parts = path.parts
    if path.suffix != ".py" or parts[:2] != ENGINE.parts:
        return None
    if len(parts) == 3:
        return CORE if path.name != "__init__.py" else None
    if parts[:3] == RULESETS.parts:
        if len(parts) == 4:
            return CORE if path.name == "__init__.py" else None
        return parts[3]
    return None


# -- changed-lines mode --------------------------------------------------------------------

def merge_base() -> str:
    """The default for --changed: where this branch left main (HEAD~1 on main itself)."""
    for ref in ("main", "origin/main"):
        base = git("merge-base", "HEAD", ref, check=False).strip()
        if base and base != git("rev-parse", "HEAD").strip():
            return base
    return "HEAD~1"


def git(*args: str, check: bool = True) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if check and done.returncode != 0:
        sys.exit(f"mutate.py: git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout if done.returncode == 0 else ""


def changed_lines(rev: str) -> dict[Path, set[int]]:
    """Lines of engine files added or changed since rev (the working tree counts too)."""
    diff = git("diff", "--unified=0", "--no-color", "--no-ext-diff", rev, "--", str(ENGINE))
    lines: dict[Path, set[int]] = {}
    current: Path | None = None
    for row in diff.splitlines():
        if row.startswith("+++ "):
            name = row[4:]
            current = Path(name[2:]) if name.startswith("b/") else None
        elif row.startswith("@@") and current is not None:
            found = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", row)
            if found:
                start, count = int(found[1]), int(found[2] if found[2] is not None else 1)
                lines.setdefault(current, set()).update(range(start, start + count))
    return {path: rows for path, rows in lines.items() if rows and (ROOT / path).exists()}


def functions_of(path: Path) -> list[tuple[str, int, int]]:
    """(mutmut key, first line, last line) of each function mutmut mutates in a file:
    module-level functions and methods of module-level classes."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    out: list[tuple[str, int, int]] = []

    def span(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        return first, node.end_lineno or node.lineno

    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append((f"x_{node.name}", *span(node)))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    out.append((f"x\u01c1{node.name}\u01c1{item.name}", *span(item)))
    return out


def module_of(path: Path) -> str:
    """The module name mutmut gives a file's mutants: a package's ``__init__.py`` is the
    package itself (its mutants are ``fightdesk.engine.rulesets.x_info__mutmut_1``)."""
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_of(here: Path, name: str) -> Path:
    """The file (relative to ``here``) that holds the mutant ``name``: the longest module
    prefix of its name that is a file, or a package's ``__init__.py``."""
    module = name.rpartition(".")[0]
    while module:
        base = Path(module.replace(".", "/"))
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if (here / path).exists():
                return path
        module = module.rpartition(".")[0]
    return Path(name.rpartition(".")[0].replace(".", "/") + ".py")


# The kinds of node mutmut changes (an operator, a comparison, a constant, an argument,
# an assignment ...): their count in a function is a rough count of its mutants, enough to
# see that a change is too big for the time there is before mutmut has made them.
MUTATED_NODES = (ast.BinOp, ast.AugAssign, ast.BoolOp, ast.UnaryOp, ast.Compare, ast.Constant,
                 ast.keyword, ast.Call, ast.Assign, ast.AnnAssign, ast.Return, ast.Subscript)


def estimate_mutants(path: Path, first: int, last: int) -> int:
    """About how many mutants mutmut makes of the code on lines first..last of a file."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, MUTATED_NODES) and first <= getattr(node, "lineno", 0) <= last:
            count += 1 + (len(node.ops) - 1 if isinstance(node, ast.Compare) else 0)
    # Measured on the core: mutmut makes about 1.2 mutants per such node.
    return round(1.2 * count)


def sample_digits(estimate: int, max_mutants: int) -> str:
    """The last digits of the mutant numbers a sample keeps ("" keeps them all): as many
    tenths of an estimated count as stay within max_mutants, and at least one."""
    if max_mutants <= 0 or estimate <= max_mutants:
        return ""
    return SAMPLE_DIGITS[:max(1, 10 * max_mutants // estimate)]


def limit_to_sample(targets: Sequence[Target], max_mutants: int) -> None:
    """Cut a big change to a fixed sample of each changed function's mutants (those whose
    number ends in some digits), so a capped run checks a spread of them, not only the
    quickest; the target's report says so."""
    estimates = {id(t): t.estimate for t in targets}
    total = sum(estimates.values())
    digits = sample_digits(total, max_mutants)
    if not digits:
        return
    for target in targets:
        target.whole = list(target.patterns)
        target.patterns = [p.removesuffix("*") + f"*[{digits}]" if p.endswith("__mutmut_*")
                           else p for p in target.patterns]
        target.sampled = (f"a fixed sample of about {len(digits)}0% (mutant numbers ending in "
                          f"{', '.join(sorted(digits))}): the change has about {total} mutants, "
                          f"over --max-mutants {max_mutants}")


def changed_targets(rev: str, with_properties: bool) -> list[Target]:
    targets: dict[str, Target] = {}
    for path, rows in sorted(changed_lines(rev).items()):
        name = target_of(path)
        if name is None:
            continue
        spans = [(key, first, last) for key, first, last in functions_of(path)
                 if rows & set(range(first, last + 1))]
        hit = [key for key, _, _ in spans]
        if not hit:
            continue
        if name not in targets:
            try:
                targets[name] = make_target(name, with_properties)
            except SystemExit as refused:  # a ruleset without tests yet: say so, go on
                print(refused, file=sys.stderr)
                continue
            targets[name].sources, targets[name].lines = [], {}
            targets[name].folder = f"changed-{targets[name].name}"
        target = targets[name]
        target.sources.append(path)
        assert target.lines is not None
        target.lines[path] = rows
        target.patterns += [f"{module_of(path)}.{key}__mutmut_*" for key in hit]
        target.estimate += sum(estimate_mutants(path, first, last) for _, first, last in spans)
    return list(targets.values())


# -- running mutmut ------------------------------------------------------------------------

def mutmut_config(target: Target) -> str:
    def toml_list(items: Iterable[object]) -> str:
        return "[" + ", ".join(json.dumps(str(i)) for i in items) + "]"

    return "\n".join([
        "",
        MUTMUT_SECTION,
        "# Written by tools/mutate.py for this copy of the tree only.",
        'source_paths = ["fightdesk"]',
        f"only_mutate = {toml_list(target.sources)}",
        f"pytest_add_cli_args_test_selection = {toml_list(target.tests)}",
        # Each mutant runs pytest afresh in a forked worker: skip the cache, and the full
        # garbage collection pytest's unraisable-exception plugin does at exit (a third of
        # the time of a small test run).
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:unraisableexception"]',
        # Fork each mutant's worker from a server that has only collected the tests, not
        # from mutmut's own process, which has run them all for its stats: there, every
        # lru_cache of the engine (the odds, the views) already holds the unmutated
        # answers, and a mutant of a function behind one would survive unseen.
        'process_isolation = "forkserver"',
        'also_copy = ["resources"]',
        "",
    ])


def prepare(target: Target, fresh: bool) -> Path:
    """Copy the tree into the target's own folder, with a mutmut section in its pyproject."""
    here = SCRATCH / (target.folder or target.name)
    if fresh and here.exists():
        shutil.rmtree(here)
    here.mkdir(parents=True, exist_ok=True)
    for name in ("fightdesk", "tests", "resources"):
        if (here / name).exists():
            shutil.rmtree(here / name)
        shutil.copytree(ROOT / name, here / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    mutated_tests = here / "mutants" / "tests"
    if mutated_tests.exists():  # mutmut copies tests over the old ones; drop deleted ones
        shutil.rmtree(mutated_tests)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if MUTMUT_SECTION in pyproject:
        sys.exit(f"mutate.py: pyproject.toml has its own {MUTMUT_SECTION}; this script writes it")
    (here / "pyproject.toml").write_text(pyproject + mutmut_config(target), encoding="utf-8")
    return here


# The process groups of the mutmut runs going on: stopped with this script (a CI timeout,
# Ctrl-C), since each runs in its own session and would otherwise go on alone.
RUNNING: set[int] = set()


def stop_running(signum: int, _frame: object) -> None:
    for group in list(RUNNING):
        try:
            os.killpg(group, signal.SIGTERM)
        except ProcessLookupError:
            pass
    sys.exit(128 + signum)


def mutmut_env(here: Path) -> dict[str, str]:
    """The environment of a target's mutmut runs: pytest's tmp_path folders go under the
    target's own folder (pytest's documented PYTEST_DEBUG_TEMPROOT), not the shared
    /tmp/pytest-of-<user>/, whose old folders another pytest run (another target, a
    test run going on meanwhile) may be clearing at the same moment."""
    root = here / "tmp"
    root.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "PYTEST_DEBUG_TEMPROOT": str(root)}


def _mutmut_found() -> bool:
    """mutmut next to this Python (its venv's scripts) or on the PATH."""
    return Path(sys.executable).with_name("mutmut").exists() or shutil.which("mutmut") is not None


def mutmut(here: Path, *args: str, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """Run the mutmut command line in a target's folder; on timeout stop its whole group."""
    exe = Path(sys.executable).with_name("mutmut")
    command = [str(exe) if exe.exists() else "mutmut", *args]
    process = subprocess.Popen(command, cwd=here, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True,
                               env=mutmut_env(here))
    RUNNING.add(process.pid)
    try:
        return _finish(process, command, timeout)
    finally:
        RUNNING.discard(process.pid)


def _finish(process: subprocess.Popen[str], command: list[str],
            timeout: float | None) -> subprocess.CompletedProcess[str]:
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            output, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
        output += "\n[mutate.py: stopped at the time cap]\n"
    return subprocess.CompletedProcess(command, process.returncode, output, "")


def results(here: Path, timeout: float | None = None) -> dict[str, str]:
    """Every mutant of the last run and its status ('killed', 'survived', 'no tests' ...)."""
    done = mutmut(here, "results", "--all", "true", timeout=timeout)
    out: dict[str, str] = {}
    for row in done.stdout.splitlines():
        name, sep, status = row.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            out[name] = status.strip()
    return out


def survivor(here: Path, name: str, until: float | None = None) -> Survivor:
    """Where a surviving mutant sits in the source, from mutmut's diff of its function
    (past ``until``, a monotonic time, only its file: the report is due)."""
    key = name.rpartition(".")[2]
    path = source_of(here, name)
    left = None if until is None else until - time.monotonic()
    if left is not None and left < 1:
        return Survivor(name, path, 0, "(not shown: time cap)", "", "rule")
    shown = mutmut(here, "show", name, timeout=left)
    if CAP_NOTE in shown.stdout:
        return Survivor(name, path, 0, "(not shown: time cap)", "", "rule")
    diff = shown.stdout
    before = [r[1:] for r in diff.splitlines() if r.startswith("-") and not r.startswith("---")]
    after = [r[1:] for r in diff.splitlines() if r.startswith("+") and not r.startswith("+++")]
    mangled = key.split("__mutmut_")[0]
    source = (here / path).read_text(encoding="utf-8").splitlines()
    line = 0
    for function, first, last in functions_of_text(source):
        if function == mangled:
            wanted = before[0].strip() if before else ""
            line = next((n for n in range(first, last + 1) if source[n - 1].strip() == wanted), first)
            break
    kind = "text" if line and text_only(ast.parse("\n".join(source)), line) else "rule"
    return Survivor(name, path, line, " / ".join(b.strip() for b in before),
                    " / ".join(a.strip() for a in after), kind)


def functions_of_text(source: Sequence[str]) -> list[tuple[str, int, int]]:
    tree = ast.parse("\n".join(source))
    out: list[tuple[str, int, int]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append((f"x_{node.name}", node.lineno, node.end_lineno or node.lineno))
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    out.append((f"x\u01c1{node.name}\u01c1{item.name}", item.lineno,
                                item.end_lineno or item.lineno))
    return out


def say(text: str) -> None:
    """One line (or block) of output in one write: targets running side by side do not
    cut into each other's lines."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


# Targets a capped run never started (their time was up): reported "not run (time cap)".
NOT_STARTED: set[str] = set()


def left(until: float | None) -> float | None:
    """Seconds until a monotonic time (None: no cap), never below one."""
    return None if until is None else max(1.0, until - time.monotonic())


def run_target(target: Target, args: argparse.Namespace, deadline: float | None,
               report_by: float | None = None) -> tuple[dict[str, str], list[Survivor], bool]:
    """Copy the tree, run mutmut on the target until ``deadline``, and read the results
    and the survivors until ``report_by`` (monotonic times; None: no cap)."""
    if args.files:
        target.sources = [f for f in target.sources if f.name in args.files or str(f) in args.files]
        if not target.sources:
            sys.exit(f"mutate.py: none of {args.files} is in {target.name}")
    report_by = report_by if report_by is not None else deadline
    if deadline is not None and time.monotonic() >= deadline:
        NOT_STARTED.add(target.name)
        return {}, [], True
    here = SCRATCH / (target.folder or target.name) if args.report else prepare(target, args.fresh)
    if args.report and not (here / "mutants").exists():
        print(f"mutate.py: {target.name} has no results yet")
        return {}, [], True
    names = list(target.patterns)
    if names:
        # A name that is no mutant (mutmut numbers them from 1) for each changed function:
        # mutmut then checks the unmutated code with only the tests that reach these
        # functions, not with every test of the target (a pattern with * finds no tests).
        names += sorted({p.partition("__mutmut_")[0] + "__mutmut_0" for p in target.patterns})
    jobs = getattr(args, "target_jobs", args.jobs)
    say(f"== {target.name}: {len(target.sources)} files, tests: "
        f"{' '.join(str(t) for t in target.tests)}")
    sample: set[str] | None = None
    if args.sample:
        # A report scores the sample a run with this --sample checks, not every mutant
        # earlier (larger, or shifted) samples checked.
        sample = choose_sample(here, target, args.sample, make=not args.report)
        names += sorted(n for n, s in results(here).items()
                        if n in sample and (s == "not checked" or (args.retry and s in RETRIED)))
        if not names:
            names = ["mutate.py-nothing-left-to-check"]
    elif args.retry and (here / "mutants").exists():
        names += [n for n, s in results(here).items() if s in RETRIED]
    if args.report or names == ["mutate.py-nothing-left-to-check"]:
        run = subprocess.CompletedProcess([], 0, "", "")
    else:
        run = mutmut(here, "run", "--max-children", str(jobs), *names, timeout=left(deadline))
    capped = CAP_NOTE in run.stdout
    log = SCRATCH / f"{target.folder or target.name}.log"
    log.write_text(run.stdout, encoding="utf-8")
    if capped and "Running mutation testing" not in run.stdout:
        say(f"mutate.py: {target.name}: the time cap came during mutmut's set-up "
              f"(copying, finding which tests reach which function): no mutant checked")
    nothing = "nothing matches" in run.stdout and "Filter" in run.stdout
    if nothing and target.sampled:  # the sample's digits match no mutant of a small change
        say(f"mutate.py: {target.name}: {target.sampled}; none of them matched")
        return {}, [], True
    if run.returncode not in (0, None) and not capped:
        say(run.stdout[-4000:])
        say(f"mutate.py: mutmut failed for {target.name} (exit {run.returncode}, log {log})")
        return {}, [], False
    status = results(here, left(report_by))
    if sample is not None and not args.report and not capped:
        # mutmut forgets cached results when the test selection changed (a test file
        # added): the sampled mutants it forgot this way are checked in a second run.
        again = sorted(n for n in sample if status.get(n) == "not checked")
        if again:
            rerun = mutmut(here, "run", "--max-children", str(jobs), *again,
                           timeout=left(deadline))
            capped = CAP_NOTE in rerun.stdout
            log.write_text(run.stdout + rerun.stdout, encoding="utf-8")
            status = results(here, left(report_by))
    if sample is not None:
        status = {n: s for n, s in status.items() if n in sample}
    if target.sampled:
        whole = sum(1 for n in status if any(fnmatch.fnmatch(n, p) for p in target.whole))
        target.sampled += f"; {whole} in this target's changed functions"
    if target.patterns:
        status = {n: s for n, s in status.items()
                  if any(fnmatch.fnmatch(n, p) for p in target.patterns)}
    # One `mutmut show` per survivor: a few seconds each on a busy machine, so in parallel.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        survivors = list(pool.map(lambda n: survivor(here, n, report_by),
                                  [n for n, s in sorted(status.items()) if s == "survived"]))
    if target.lines is not None:
        survivors = [s for s in survivors
                     if s.line == 0 or s.line in target.lines.get(s.path, set())]
    return status, survivors, capped


def choose_sample(here: Path, target: Target, per_file: int, *, make: bool = True) -> set[str]:
    """A fixed random sample of each file's mutants (the same one every run, so results
    add up across runs). mutmut makes the mutants when it runs: the first time (``make``),
    a run with a name that matches no mutant makes them and the test map, and stops there.
    Files with no function (class declarations only) have no mutants to wait for."""
    status = results(here) if (here / "mutants").exists() else {}
    modules = [module_of(f) for f in target.sources]
    mutated = [module_of(f) for f in target.sources if functions_of(f)]
    if make and not all(any(n.startswith(m + ".x") for n in status) for m in mutated):
        mutmut(here, "run", "--max-children", "1", "mutate.py-generate-only")
        status = results(here)
    return sample_of(status, modules, per_file)


def sample_of(status: dict[str, str], modules: Sequence[str], per_file: int) -> set[str]:
    """``per_file`` mutants of each module, drawn with the module's name as the seed."""
    chosen: set[str] = set()
    for module in modules:
        mine = sorted(n for n in status if n.startswith(module + ".x"))
        chosen.update(random.Random(module).sample(mine, min(per_file, len(mine))))
    return chosen


def summary(name: str, status: dict[str, str]) -> str:
    counts: dict[str, int] = {}
    for s in status.values():
        counts[s] = counts.get(s, 0) + 1
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    checked = sum(n for s, n in counts.items() if s not in ("not checked", "skipped"))
    score = f"{100 * killed / checked:.1f}%" if checked else "-"
    rest = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s not in ("killed",))
    return f"{name}: {killed} killed of {checked} checked ({score}){'; ' + rest if rest else ''}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--ruleset", action="append", default=[], metavar="ID",
                        help="a ruleset to mutate (street-fighter, roll-under, d100, ashes); "
                             "repeatable; default: every ruleset and the core")
    parser.add_argument("--core", action="store_true", help="mutate the shared core")
    parser.add_argument("--files", nargs="+", default=[], metavar="FILE",
                        help="only these files of the target (file names or paths)")
    parser.add_argument("--changed", nargs="?", const="", default=None, metavar="REV",
                        help="only functions with lines changed since REV (default: the merge "
                             "base with main, or HEAD~1 on main); reports survivors on those lines")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="parallel mutant workers (default: all cores)")
    parser.add_argument("--time-cap", type=float, default=None, metavar="SECONDS",
                        help="stop after this long and report what was checked")
    parser.add_argument("--with-properties", action="store_true",
                        help="also run the random-fight property tests against each mutant")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="check a fixed random sample of N mutants per file (a score "
                             "estimate when the whole run takes too long)")
    parser.add_argument("--report", action="store_true",
                        help="run nothing: report the results of the last run (with "
                             "--sample N: of the sample of N a file, those not checked yet "
                             "counted apart)")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    parser.add_argument("--retry", action="store_true",
                        help="check the survivors and the mutants no test reached again (after adding tests)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a mutant survives")
    parser.add_argument("--max-mutants", type=int, default=0, metavar="N",
                        help="with --changed: when the changed functions have more than about N "
                             "mutants, check a fixed sample of them (said in the report)")
    parser.add_argument("--rules", action="store_true",
                        help="run the rule-level mutants of tools/mutants/<target>.toml "
                             "instead of mutmut's (one at a time; with --report: the last "
                             "results)")
    parser.add_argument("--only", nargs="+", default=[], metavar="ID",
                        help="with --rules: only these mutants")
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.rules:
        import rule_level

        chosen = [package_name(r) for r in args.ruleset] + ([CORE] if args.core else [])
        survived = rule_level.run(chosen or list(rule_level.TARGETS), args.only, args.report)
        return 1 if args.strict and survived else 0
    if not args.report and not _mutmut_found():
        print("mutate.py: mutmut is not installed in this environment; the test dependencies "
              "bring it: pip install -c requirements/ci-constraints.txt -e '.[test]'",
              file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, stop_running)
    signal.signal(signal.SIGINT, stop_running)

    if args.changed is not None:
        rev = args.changed or merge_base()
        targets = changed_targets(rev, args.with_properties)
        print(f"mutate.py: changed since {rev}: "
              f"{', '.join(str(p) for t in targets for p in t.sources) or 'no engine function'}")
        limit_to_sample(targets, args.max_mutants)
    else:
        names = [package_name(r) for r in args.ruleset] + ([CORE] if args.core else [])
        targets = [make_target(n, args.with_properties) for n in names or [*known_rulesets(), CORE]
                   if n == CORE or n in names or (ROOT / ENGINE_TESTS / n).is_dir()]
    deadline = report_by = None
    if args.time_cap is not None:
        # The cap covers everything; the mutmut runs stop early enough to read the results
        # and write the report inside it.
        report_by = started + args.time_cap
        deadline = report_by - min(REPORT_MAX, max(REPORT_MIN, REPORT_SHARE * args.time_cap))
    all_survivors: list[Survivor] = []
    lines: list[str] = []
    failed = False
    if deadline is not None and len(targets) > 1:
        # Side by side, so each target gets the whole budget (mutmut's set-up runs the
        # tests in one process: two targets keep two cores busy) and each reports.
        args.target_jobs = max(1, args.jobs // len(targets))
        with ThreadPoolExecutor(max_workers=len(targets)) as pool:
            outcomes = list(pool.map(lambda t: run_target(t, args, deadline, report_by), targets))
    else:
        outcomes = []
        for target in targets:
            outcomes.append(run_target(target, args, deadline, report_by))
    for target, (status, survivors, capped) in zip(targets, outcomes, strict=True):
        if not status:
            failed = failed or not capped
            lines.append(f"{target.name}: " + ("not run (time cap)" if target.name in NOT_STARTED
                                                else "no result (time cap)" if capped
                                                else "no result"))
            continue
        lines.append(summary(target.name, status) + (" [stopped at the time cap]" if capped else ""))
        if target.sampled:
            lines[-1] += f"; {target.sampled}"
        all_survivors += survivors
        text = sum(1 for s in survivors if s.kind == "text")
        if survivors:
            lines[-1] += f"; of the survivors {len(survivors) - text} rule, {text} text"
        for s in sorted(survivors, key=lambda s: (s.kind, str(s.path), s.line)):
            print(f"{s.path}:{s.line}: [{s.kind}] {s.name}\n    - {s.before}\n    + {s.after}",
                  flush=True)
    if not targets:
        print("mutate.py: nothing to mutate")
        return 0
    print("\n".join(["", "Mutation scores (killed / checked):", *lines]))
    if failed:
        return 2
    return 1 if args.strict and all_survivors else 0


if __name__ == "__main__":
    sys.exit(main())
