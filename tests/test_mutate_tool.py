"""tools/mutate.py's own choices that need no mutmut run: how a big change is cut to a
sample, and that a run past its time cap starts nothing (docs/testing.md, "Changed code only, and CI")."""

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


def test_a_rulesets_package_file_is_mutated_with_its_ruleset(mutate: ModuleType) -> None:
    """street-fighter's __init__.py holds the lazy __getattr__ that loads its rules: it is
    in the ruleset's target, under the module name mutmut gives its mutants, and a change
    to it is a change of that target; the registry's is the core's."""
    package = Path("fightdesk/engine/rulesets/street_fighter/__init__.py")
    registry = Path("fightdesk/engine/rulesets/__init__.py")
    assert package in mutate.make_target("street-fighter", False).sources
    assert mutate.target_of(package) == "street_fighter"
    assert mutate.target_of(registry) == mutate.CORE
    assert mutate.module_of(package) == "fightdesk.engine.rulesets.street_fighter"
    assert mutate.module_of(registry) == "fightdesk.engine.rulesets"
    assert mutate.module_of(Path("fightdesk/engine/turns.py")) == "fightdesk.engine.turns"


def test_a_survivor_in_a_package_file_is_found_in_that_file(mutate: ModuleType,
                                                           tmp_path: Path) -> None:
    for name in ("fightdesk/engine/rulesets/__init__.py",
                 "fightdesk/engine/rulesets/d100/__init__.py",
                 "fightdesk/engine/rulesets/d100/rules.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert mutate.source_of(tmp_path, "fightdesk.engine.rulesets.d100.x_f__mutmut_1") == \
        Path("fightdesk/engine/rulesets/d100/__init__.py")
    assert mutate.source_of(tmp_path, "fightdesk.engine.rulesets.d100.rules.x_f__mutmut_1") == \
        Path("fightdesk/engine/rulesets/d100/rules.py")
    assert mutate.source_of(tmp_path, "fightdesk.engine.rulesets.x_info__mutmut_2") == \
        Path("fightdesk/engine/rulesets/__init__.py")


def test_a_report_of_a_sample_counts_that_sample_only(mutate: ModuleType) -> None:
    """--report --sample N scores the sample of N a file that a run with --sample N checks,
    not every mutant an earlier, larger or shifted sample checked; the sample's mutants
    not checked yet are counted as such."""
    status = {f"fightdesk.engine.turns.x_f__mutmut_{n}": "killed" for n in range(1, 31)}
    status.update({f"fightdesk.engine.dice.x_g__mutmut_{n}": "not checked" for n in range(1, 11)})
    modules = ["fightdesk.engine.turns", "fightdesk.engine.dice"]
    sample = mutate.sample_of(status, modules, 5)
    assert len(sample) == 10 and sample == mutate.sample_of(status, modules, 5)
    assert sum(1 for n in sample if ".turns." in n) == 5
    shown = {n: s for n, s in status.items() if n in sample}
    assert mutate.summary("core", shown) == "core: 5 killed of 5 checked (100.0%); 5 not checked"


def test_each_target_keeps_pytests_temporary_folders_apart(mutate: ModuleType,
                                                          tmp_path: Path) -> None:
    """mutmut's pytest runs make their tmp_path folders under the target's own folder, not
    the shared /tmp/pytest-of-<user>/ another run may be clearing at the same moment."""
    env = mutate.mutmut_env(tmp_path / "core")
    root = Path(env["PYTEST_DEBUG_TEMPROOT"])
    assert root == tmp_path / "core" / "tmp" and root.is_dir()
    assert mutate.mutmut_env(tmp_path / "d100")["PYTEST_DEBUG_TEMPROOT"] != str(root)


def test_without_mutmut_it_says_how_to_install_it(mutate: ModuleType,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """An environment without mutmut got a traceback (FileNotFoundError) after the set-up;
    now one line names what is missing and the command that brings it, before any work."""
    monkeypatch.setattr(mutate, "_mutmut_found", lambda: False)
    assert mutate.main(["--ruleset", "ashes", "--time-cap", "5"]) == 2
    err = capsys.readouterr().err
    assert "mutmut is not installed" in err and "-e '.[test]'" in err
    assert "Traceback" not in err


# --- rule-level mutants (tools/rule_level.py, tools/mutants/*.toml) --------------------------

# A made-up docs section, put together so the pointer check does not read it as one.
FAKE_RULE = "docs/" + "x.md#y"


@pytest.fixture(scope="module")
def rule_level() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rule_level", TOOL.with_name("rule_level.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_rule_level_mutant_still_applies_to_the_source(rule_level: ModuleType) -> None:
    """Each target's mutants load: every field there, ids unique, each original found
    exactly once in its file (a change of the code that moves it away shows here, not as a
    mutant that silently changes nothing), a reason for each equivalent one."""
    for target in rule_level.TARGETS:
        mutants = rule_level.load(target)
        assert len(mutants) >= 20, target
        for mutant in mutants:
            assert mutant.reads and mutant.rule.startswith("docs/"), mutant.id


def test_a_mutant_whose_original_is_gone_or_repeated_is_refused(rule_level: ModuleType,
                                                                tmp_path: Path) -> None:
    source = tmp_path / "rules.py"
    source.write_text("a = 1\nb = 1\n", encoding="utf-8")

    def mutant(original: str, mutated: str = "x = 2") -> Any:
        return rule_level.Mutant(id="m", file="rules.py", rule=FAKE_RULE, reads="r",
                                 original=original, mutated=mutated)

    assert rule_level.check(mutant("a = 1"), tmp_path) == ""
    assert "found 2 times" in rule_level.check(mutant(" = 1"), tmp_path)
    assert "found 0 times" in rule_level.check(mutant("c = 1"), tmp_path)
    assert "is the original" in rule_level.check(mutant("a = 1", "a = 1"), tmp_path)


def test_a_rule_level_mutant_is_written_run_and_taken_back(rule_level: ModuleType,
                                                           tmp_path: Path) -> None:
    """The mutant is in the file while its tests run, and the file is as before after:
    a test that sees it is a kill, one that does not a survivor."""
    (tmp_path / "rules.py").write_text("LIMIT = 3\n", encoding="utf-8")
    (tmp_path / "test_rules.py").write_text(
        "from rules import LIMIT\n\ndef test_limit():\n    assert LIMIT == 3\n", encoding="utf-8")
    (tmp_path / "tmp").mkdir()
    tests = [Path("test_rules.py")]
    caught = rule_level.Mutant(id="m", file="rules.py", rule=FAKE_RULE, reads="r",
                               original="LIMIT = 3", mutated="LIMIT = 4")
    status, test = rule_level.run_one(tmp_path, caught, tests)
    assert (status, test) == ("killed", "test_rules.py::test_limit")
    missed = rule_level.Mutant(id="n", file="rules.py", rule=FAKE_RULE, reads="r",
                               original="LIMIT = 3", mutated="LIMIT = 3  # the same")
    assert rule_level.run_one(tmp_path, missed, tests)[0] == "survived"
    assert (tmp_path / "rules.py").read_text(encoding="utf-8") == "LIMIT = 3\n"


def test_the_rule_level_tests_run_first_and_the_property_tests_not_at_all(
        rule_level: ModuleType) -> None:
    tests = [str(p) for p in rule_level.tests_of("ashes")]
    assert tests[0] == "tests/engine/ashes/test_rule_edges.py"
    assert not any("propert" in t for t in tests)
    assert all(Path(t).parent == Path("tests/engine") for t in rule_level.tests_of("core"))
