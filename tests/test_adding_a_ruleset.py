"""docs/rulesets/README.md "Adding a ruleset", step by step, with the drill plugin
(tests/drill_plugin, a distribution of its own that the test run installs): each step's
file holds what the step says, and the installed plugin then works in the engine, the
files and every command-line tool; a plugin that fails to import is named in one line."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from fightdesk.engine.ruleset import Autopilot, Rules, Ruleset, Views, get_ruleset
from fightdesk.engine.rulesets import PARTS, RulesetInfo, registered
from fightdesk.engine.turn_state import TurnRoundState
from fightdesk.storage.sessions import load_session, save_session
from tests.engine.test_conformance import fight, play

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "drill_plugin"
GUIDE = ROOT / "docs" / "rulesets" / "README.md"


def steps() -> list[str]:
    """The guide's numbered steps, by their bold title."""
    text = GUIDE.read_text(encoding="utf-8").split("## Adding a ruleset", 1)[1]
    text = text.split("\n## ", 1)[0]
    return re.findall(r"^\d+\. \*\*(.+?)\*\*", text, flags=re.MULTILINE)


def fightdesk(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fightdesk", *args], capture_output=True,
                          text=True, check=False, cwd=ROOT, env=env, timeout=120)


def test_the_guide_has_the_steps_this_test_follows() -> None:
    assert steps() == ["`model.py`", "`rules.py`", "`views.py`", "`autopilot.py`",
                       "`__init__.py`", "The entry point", "Install it", "Test it"]


def test_step_1_the_model_holds_the_four_data_classes() -> None:
    from fightdesk_drill import model

    for part in (model.SHEET, model.STATUS, model.OPTIONS):
        assert part.model_fields["ruleset"].default == "drill"
    assert issubclass(model.ROUND, TurnRoundState)


def test_step_2_the_rules_part_is_the_ruleset_of_the_id() -> None:
    ruleset = get_ruleset("drill")
    assert isinstance(ruleset, Ruleset) and ruleset.id == "drill"
    assert isinstance(ruleset.rules, Rules)
    assert type(ruleset.rules).__module__ == "fightdesk_drill.rules"


def test_step_3_the_views_part_reads_those_rules() -> None:
    ruleset = get_ruleset("drill")
    assert isinstance(ruleset.views, Views) and ruleset.views.rules is ruleset.rules
    assert type(ruleset.views).__module__ == "fightdesk_drill.views"


def test_step_4_the_autopilot_part_reads_the_rules_and_the_views() -> None:
    ruleset = get_ruleset("drill")
    pilot = ruleset.autopilot
    assert isinstance(pilot, Autopilot) and type(pilot).__module__ == "fightdesk_drill.autopilot"
    assert pilot.rules is ruleset.rules and pilot.views is ruleset.views


def test_step_5_the_package_holds_its_registration_naming_the_parts() -> None:
    import fightdesk_drill

    assert isinstance(fightdesk_drill.RULESET, RulesetInfo)
    assert fightdesk_drill.RULESET.package == "fightdesk_drill"
    assert registered()["drill"] is fightdesk_drill.RULESET
    assert {part: fightdesk_drill.RULESET.part(part) for part in PARTS} == {
        "rules": ("fightdesk_drill.rules", "Drill"),
        "views": ("fightdesk_drill.views", "DrillViews"),
        "autopilot": ("fightdesk_drill.autopilot", "DrillAutopilot")}


def test_step_6_the_distribution_declares_the_entry_point() -> None:
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["fightdesk.rulesets"] == {"drill": "fightdesk_drill:RULESET"}


def test_step_7_installed_it_is_found_and_works_in_every_command(tmp_path: Path) -> None:
    assert "drill" in {p.name for p in entry_points(group="fightdesk.rulesets")}
    listed = fightdesk("rulesets")
    assert listed.returncode == 0 and re.search(r"^drill +Drill: ", listed.stdout, re.M)
    empty = tmp_path / "empty.json"
    assert fightdesk("new", "drill", "-o", str(empty)).returncode == 0
    assert load_session(empty).encounter.ruleset == "drill"
    assert fightdesk("check", str(empty)).stdout.strip().endswith("OK")

    engine = fight("drill")
    play(engine, 40, seed=3, policy="autopilot")
    played = tmp_path / "played.json"
    save_session(engine.session, played)
    assert load_session(played).encounter == engine.encounter
    assert fightdesk("check", str(played)).returncode == 0
    summary = fightdesk("summary", str(played))
    assert summary.returncode == 0 and "Round 1" in summary.stdout, summary.stderr
    odds = fightdesk("simulate", str(played), "--fights", "20", "--workers", "1", "--json")
    assert odds.returncode == 0, odds.stderr
    assert json.loads(odds.stdout)["fights"] == 20


def test_step_7_a_plugin_that_fails_to_import_is_named_in_one_line(tmp_path: Path) -> None:
    info = tmp_path / "fightdesk_broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fightdesk-broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[fightdesk.rulesets]\nbroken = fightdesk_broken_missing:RULESET\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (os.environ.get("PYTHONPATH", ""), str(tmp_path)) if p)}
    listed = fightdesk("rulesets", env=env)
    assert listed.returncode == 0
    lines = [line for line in (listed.stdout + listed.stderr).splitlines() if "'broken'" in line]
    assert lines and all("left out: ModuleNotFoundError" in line for line in lines)
    assert "street-fighter" in listed.stdout and "drill" in listed.stdout  # the others work
    # A fight file of the missing ruleset says so in one line.
    file = tmp_path / "broken.json"
    data = json.loads(fightdesk("new", "drill").stdout)
    data["encounter"]["ruleset"] = "broken"
    for part in ("options", "state"):
        data["encounter"][part]["ruleset"] = "broken"
    file.write_text(json.dumps(data))
    checked = fightdesk("check", str(file), env=env)
    assert checked.returncode == 2
    assert len(checked.stderr.strip().splitlines()) == 1
    assert "ruleset plugin 'broken'" in checked.stderr and "left out" in checked.stderr


def test_step_7_a_registration_naming_no_parts_is_named_in_one_line(tmp_path: Path) -> None:
    """A registration must name its rules, views and autopilot (step 5): one that names
    none is left out with a line saying so, before anything of it is imported."""
    package = tmp_path / "fightdesk_partless"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from fightdesk.engine.rulesets import RulesetInfo\n"
        "RULESET = RulesetInfo('partless', 'Partless', 'no parts', __name__)\n")
    info = tmp_path / "fightdesk_partless-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fightdesk-partless\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[fightdesk.rulesets]\npartless = fightdesk_partless:RULESET\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (os.environ.get("PYTHONPATH", ""), str(tmp_path)) if p)}
    listed = fightdesk("rulesets", env=env)
    assert listed.returncode == 0
    lines = [line for line in (listed.stdout + listed.stderr).splitlines()
             if "'partless'" in line]
    assert lines and all("left out: ValueError: names no rules or views or autopilot part"
                         in line for line in lines), lines
    assert "drill" in listed.stdout


@pytest.mark.parametrize("test_file", ["tests/engine/test_conformance.py",
                                       "tests/ui/test_conformance_window.py"])
def test_step_8_the_conformance_suite_names_no_ruleset(test_file: str) -> None:
    text = (ROOT / test_file).read_text(encoding="utf-8")
    for info in registered().values():
        assert f'"{info.id}"' not in text, f"{test_file} names {info.id}"
