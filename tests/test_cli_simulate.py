"""``fightdesk simulate``: the same seed prints the same bytes whatever the number of
processes; bad files and arguments get one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fightdesk import cli

DEMO = Path(__file__).resolve().parents[1] / "resources" / "demo_fight.json"


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    return subprocess.run([sys.executable, "-m", "fightdesk", "simulate", *args],
                          capture_output=True, text=True, timeout=300, env=env)


def test_the_same_seed_prints_the_same_bytes_on_any_number_of_processes() -> None:
    first = _simulate(str(DEMO), "--fights", "40", "--seed", "7", "--json")
    second = _simulate(str(DEMO), "--fights", "40", "--seed", "7", "--json", "--workers", "1")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert set(data) == {"fights", "wins", "draws", "rounds", "fighters"}
    assert data["fights"] == 40
    assert data["wins"]["party"] + data["wins"]["enemies"] + data["draws"] == 40
    assert set(data["rounds"]) == {"median", "p90"}
    assert set(data["fighters"]) == {"kaede", "brannock", "dock-thug-1", "dock-thug-2",
                                     "dock-thug-3"}
    for odds in data["fighters"].values():
        down, of = odds["down"].split("/")
        assert of == "40" and 0 <= int(down) <= 40
        assert isinstance(odds["health"], float | int) and odds["health"] >= 0


def test_text_output_names_the_camps_and_the_fighters(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["simulate", str(DEMO), "--fights", "6", "--seed", "1", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Party wins:" in out and "95% interval" in out and "Kaede Moriyama" in out


def test_help_prints_a_single_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse leaves a description's "%%" as two signs (only help strings are %-formatted)."""
    assert cli.main(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95% Wilson" in " ".join(out.split()) and "%%" not in out


@pytest.mark.parametrize(("args", "says"), [
    (["--fights", "0"], "--fights must be 1 to 1000000, not 0"),
    (["--fights", "many"], "'many' is not a whole number"),
    (["--policy", "clever"], "invalid choice: 'clever'"),
    (["--max-rounds", "0"], "--max-rounds must be 1 to 1000"),
    (["--seed", "-1"], "--seed must be 0 to"),
])
def test_bad_arguments_are_one_line_and_exit_2(args: list[str], says: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["simulate", str(DEMO), *args])
    err = capsys.readouterr().err
    assert code == 2
    assert says in err and err.count("\n") == 1 and err.startswith("fightdesk simulate:")


def test_bad_files_are_one_line_and_exit_2(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.json"
    assert cli.main(["simulate", str(missing)]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and err.count("\n") == 1

    broken = tmp_path / "broken.json"
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    data["encounter"]["fighters"]["kaede"]["status"]["health"] = "lots"
    broken.write_text(json.dumps(data), encoding="utf-8")
    before = broken.read_bytes()
    assert cli.main(["simulate", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "encounter.fighters.kaede.status.health" in err and err.count("\n") == 1
    assert broken.read_bytes() == before


def test_a_ruleset_whose_rules_are_not_built_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from fightdesk.engine.ruleset import get_ruleset

    # A ruleset whose rules are not built yet (d100, as it was before its rules).
    monkeypatch.setattr(type(get_ruleset("d100").rules), "rules_built", False)
    path = tmp_path / "d100.json"
    assert cli.main(["new", "d100", "-o", str(path)]) == 0
    capsys.readouterr()
    assert cli.main(["simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "rules not built yet" in err and err.count("\n") == 1


def test_a_fight_already_won_has_nothing_to_simulate(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    for fight in ("encounter", "start"):  # a fight that starts won (its log replays)
        for fighter in data[fight]["fighters"].values():
            if fighter["side"] == "enemy":
                fighter["status"]["health"] = 0
    path = tmp_path / "won.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli.main(["simulate", str(path)]) == 2
    assert "no enemies left standing" in capsys.readouterr().err
