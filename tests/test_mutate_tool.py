"""tools/mutate.py's own choices that need no mutmut run: how a big change is cut to a
sample, and that a run past its time cap starts nothing (docs/mutation/ci-step.md)."""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "mutate.py"


@pytest.fixture(scope="module")
def mutate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutate_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _target(mutate: ModuleType, name: str, functions: list[str], estimate: int) -> Any:
    target = mutate.Target(name, [Path(f"fightdesk/engine/{name}.py")], [], folder=f"t-{name}")
    target.patterns = [f"fightdesk.engine.{name}.{f}__mutmut_*" for f in functions]
    target.estimate = estimate
    return target


def test_a_big_change_is_cut_to_a_fixed_sample_of_every_changed_function(
        mutate: ModuleType) -> None:
    """About 300 mutants against --max-mutants 60: each changed function keeps the mutants
    whose number ends in 0 or 5 (a fifth), in every target, and the report says so."""
    core = _target(mutate, "dice", ["x_describe", "x_face"], 200)
    other = _target(mutate, "turns", ["x_end_turn"], 100)
    mutate.limit_to_sample([core, other], 60)
    assert core.patterns == ["fightdesk.engine.dice.x_describe__mutmut_*[05]",
                             "fightdesk.engine.dice.x_face__mutmut_*[05]"]
    assert other.patterns == ["fightdesk.engine.turns.x_end_turn__mutmut_*[05]"]
    kept = [n for n in range(1, 41)
            if fnmatch.fnmatch(f"fightdesk.engine.dice.x_face__mutmut_{n}", core.patterns[1])]
    assert kept == [5, 10, 15, 20, 25, 30, 35, 40]
    assert "--max-mutants 60" in core.sampled and "about 300" in core.sampled
    assert core.whole == ["fightdesk.engine.dice.x_describe__mutmut_*",
                          "fightdesk.engine.dice.x_face__mutmut_*"]


@pytest.mark.parametrize(("estimate", "digits"), [
    (60, ""), (61, "051627384"), (120, "05162"), (121, "0516"), (300, "05"), (6000, "0"),
    (10, "")])
def test_the_sample_holds_about_the_mutants_asked_for(mutate: ModuleType, estimate: int,
                                                      digits: str) -> None:
    """Whole tenths, rounded down (at least one), so the sample stays within what was
    asked; a change that fits keeps everything."""
    assert mutate.sample_digits(estimate, 60) == digits
    assert mutate.sample_digits(estimate, 0) == ""


def test_a_small_change_is_not_sampled(mutate: ModuleType) -> None:
    target = _target(mutate, "dice", ["x_describe"], 40)
    mutate.limit_to_sample([target], 60)
    assert target.patterns == ["fightdesk.engine.dice.x_describe__mutmut_*"]
    assert target.sampled == ""


def test_a_target_whose_time_is_up_copies_and_runs_nothing(mutate: ModuleType) -> None:
    """The cap covers the set-up too: past it, a target is reported as not run, without
    copying the tree."""
    target = _target(mutate, "dice", ["x_describe"], 40)
    target.folder = "test-mutate-tool-never-made"
    args = argparse.Namespace(files=[], report=False, fresh=False, sample=0, retry=False,
                              jobs=1)
    status, survivors, capped = mutate.run_target(target, args, time.monotonic() - 1)
    assert (status, survivors, capped) == ({}, [], True)
    assert not (mutate.SCRATCH / target.folder).exists()
    assert target.name in mutate.NOT_STARTED


def test_an_estimate_counts_what_mutmut_changes(mutate: ModuleType, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A comparison, a number, a call and its keyword, a return: about one mutant each."""
    source = tmp_path / "fightdesk" / "engine" / "probe.py"
    source.parent.mkdir(parents=True)
    source.write_text("def f(x):\n    return g(x > 1, key=2)\n\n\ndef h():\n    pass\n",
                      encoding="utf-8")
    monkeypatch.setattr(mutate, "ROOT", tmp_path)
    assert mutate.estimate_mutants(Path("fightdesk/engine/probe.py"), 1, 2) == round(1.2 * 6)
    assert mutate.estimate_mutants(Path("fightdesk/engine/probe.py"), 5, 6) == 0
