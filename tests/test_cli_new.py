"""``fightdesk new`` and ``fightdesk rulesets``: an empty fight of each ruleset that
``fightdesk check`` accepts, never written over an existing file; the list of rulesets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fightdesk.engine.rulesets import known_ids, registered

KNOWN_RULESETS = known_ids()
BUILT_IN = tuple(registered().values())


def fightdesk(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fightdesk", *args], capture_output=True,
                          text=True, cwd=cwd, check=False)


@pytest.mark.parametrize("ruleset", KNOWN_RULESETS)
def test_new_then_check_prints_ok(ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    made = fightdesk("new", ruleset, "-o", str(path), "--name", "Night market")
    assert (made.returncode, made.stdout, made.stderr) == (0, "", "")
    data = json.loads(path.read_text())
    assert data["encounter"]["ruleset"] == ruleset
    assert data["encounter"]["name"] == "Night market" and data["encounter"]["fighters"] == {}
    checked = fightdesk("check", str(path))
    assert (checked.returncode, checked.stdout.strip()) == (0, "OK")


def test_new_without_a_file_writes_to_standard_output() -> None:
    made = fightdesk("new", "ashes")
    assert made.returncode == 0
    data = json.loads(made.stdout)
    assert data["encounter"]["state"]["ruleset"] == "ashes"


def test_new_never_overwrites_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text("the GM's notes")
    made = fightdesk("new", "d100", "-o", str(path))
    assert made.returncode == 2
    assert made.stderr.strip() == (f"fightdesk new: {path} already exists; it was left as "
                                   "it is (choose another name)")
    assert path.read_text() == "the GM's notes"


def test_new_with_an_unknown_ruleset_is_one_line() -> None:
    made = fightdesk("new", "d20")
    assert made.returncode == 2 and made.stdout == ""
    assert made.stderr.strip() == ("fightdesk new: unknown ruleset id 'd20' "
                                   f"(known: {', '.join(KNOWN_RULESETS)})")


def test_a_mismatched_file_is_refused_naming_the_field(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    assert fightdesk("new", "d100", "-o", str(path)).returncode == 0
    data = json.loads(path.read_text())
    data["encounter"]["state"] = {"ruleset": "street-fighter"}
    path.write_text(json.dumps(data))
    checked = fightdesk("check", str(path))
    assert checked.returncode == 2
    assert checked.stderr.strip() == (f"{path} at encounter.state.ruleset: this part is for "
                                      "street-fighter, but the fight is d100")


def test_rulesets_lists_every_id_with_its_title() -> None:
    listed = fightdesk("rulesets")
    assert listed.returncode == 0
    lines = listed.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(KNOWN_RULESETS)
    for line, info in zip(lines, BUILT_IN, strict=True):
        assert f"{info.title}: {info.blurb}" in line
