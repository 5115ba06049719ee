"""``fightdesk odds``: exact output, one-line errors with exit status 2.

Expected fractions are worked out by hand in the comments (the engine's odds are checked
against brute force in tests/engine/test_odds.py)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fightdesk import cli, cli_odds

ROOT = Path(__file__).resolve().parents[1]


def parser() -> argparse.ArgumentParser:
    """The real command line's parser (its sub-commands make their errors one line)."""
    return cli.build_parser()[0]


def call(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = cli_odds.run(parser().parse_args(["odds", *argv]))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# --- street-fighter ---------------------------------------------------------------------------


def test_issue_example_prints_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(["street-fighter", "--dice", "2", "--tn", "6", "--json"], capsys)
    assert code == 0 and err == ""
    assert out == (
        '{"distribution": {"0": "1/4", "1": "1/2", "2": "1/4"}, "at_least_one": "3/4"}\n'
    )


def test_certainties_are_written_one_and_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(["street-fighter", "--dice", "0", "--tn", "6", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {"distribution": {"0": "1"}, "at_least_one": "0"}
    # TN 2, no cancelling: a die fails only on a 1. One die: 1/10 and 9/10.
    code, out, _ = call(["street-fighter", "--dice", "1", "--tn", "2", "--json"], capsys)
    assert json.loads(out)["distribution"] == {"0": "1/10", "1": "9/10"}


def test_ones_cancel_and_net_below_zero_counted_under_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 2 dice at TN 10 with 1s cancelling. Two 10s: 1/100. One net success: a 10 and a
    # blank (2-9, 8 faces) either way round: 16/100. The rest, including [10, 1] and
    # [1, 1] (net below 0), count under 0: 83/100.
    code, out, _ = call(
        ["street-fighter", "--dice", "2", "--tn", "10", "--ones-cancel", "--json"], capsys
    )
    assert code == 0
    assert json.loads(out) == {
        "distribution": {"0": "83/100", "1": "4/25", "2": "1/100"},
        "at_least_one": "17/100",
    }


def test_every_key_present_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = call(["street-fighter", "--dice", "7", "--tn", "9", "--json"], capsys)
    dist = json.loads(out)["distribution"]
    assert list(dist) == [str(k) for k in range(8)]
    assert all("/" in v for v in dist.values())  # nothing certain, nothing impossible


def test_text_form_for_the_gm(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(["street-fighter", "--dice", "2", "--tn", "6"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "2 d10 at TN 6, 1s do not cancel"
    assert lines[1].split() == ["successes", "chance", "%"]
    assert [line.split() for line in lines[2:5]] == [
        ["0", "1/4", "25.0%"],
        ["1", "1/2", "50.0%"],
        ["2", "1/4", "25.0%"],
    ]
    assert lines[5] == "at least one success: 3/4 (75.0%)"


def test_damage_after_a_dodge(capsys: pytest.CaptureFixture[str]) -> None:
    # One damage die at TN 6: 1 point half the time. One dodge (2 d10, TN 6, 1s cancel)
    # has no net success with chance 7/20 (two blanks 4/25, blank and 1 twice 8/100,
    # 1 and 1 1/100, success and 1 twice 10/100). Damage stays: 1/2 * 7/20 = 7/40.
    code, out, _ = call(["street-fighter", "--dice", "1", "--dodges", "1", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {
        "distribution": {"0": "33/40", "1": "7/40"},
        "at_least_one": "7/40",
    }
    # With 1s ignored on the dodge it fails only on two blanks or 1s (5 faces each): 1/4.
    _, out, _ = call(
        ["street-fighter", "--dice", "1", "--dodges", "1", "--dodge-ones-ignored", "--json"],
        capsys,
    )
    assert json.loads(out)["at_least_one"] == "1/8"


# --- the other rulesets -----------------------------------------------------------------------


def test_ashes_challenge(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(["ashes", "--advantage", "2", "--json"], capsys)
    assert code == 0
    # The text's table: +2 is 99/128. Criticals on 9 coins: 7+ heads (36 + 9 + 1)/512,
    # all tails 1/512.
    assert json.loads(out) == {
        "advantage": 2,
        "success": "99/128",
        "failure": "29/128",
        "attacker_critical": "23/256",
        "defender_critical": "1/512",
    }
    _, out, _ = call(["ashes", "--advantage", "-7"], capsys)
    assert "beyond -6 the challenge is automatic" in out
    assert out.splitlines()[1].split() == ["success", "0", "0%"]


def test_ashes_beyond_six_only_the_favoured_side_may_crit(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/odds.md#ashes-criticals: with the automatic rule, no critical against the outcome."""
    _, out, _ = call(["ashes", "--advantage", "7", "--json"], capsys)
    got = json.loads(out)
    assert (got["success"], got["defender_critical"]) == ("1", "0")
    assert got["attacker_critical"] == "2477/4096"  # 7 or more heads of 14
    _, out, _ = call(["ashes", "--advantage", "-9", "--json"], capsys)
    got = json.loads(out)
    assert (got["success"], got["attacker_critical"]) == ("0", "0")
    assert got["defender_critical"] not in ("0", "1")
    _, out, _ = call(["ashes", "--advantage", "7", "--no-automatic", "--json"], capsys)
    assert json.loads(out)["defender_critical"] == "1/16384"


def test_d100_strike_and_counter(capsys: pytest.CaptureFixture[str]) -> None:
    # Equal bonuses: 1/10 fumbles; for natural s = 11..100 the defense wins on 100 - s
    # faces, 4005 of 10000 in all; the strike hits on the other 4995.
    code, out, _ = call(["d100", "--defense", "0", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == {"hit": "999/2000", "defended": "801/2000", "fumbled": "1/10"}
    code, out, _ = call(["d100", "--strike", "5", "--counter", "0", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and set(data) == {"only_attack", "both", "only_counter", "neither"}


def test_d100_damage_by_the_chart_toughness_and_armour(capsys: pytest.CaptureFixture[str]) -> None:
    # Equal bonuses: natural s = 11..100 hits on s faces of the defense's 100. Damage 2:
    # 11-25 x0.5 = 1 (270 pairs), 26-75 x1 = 2 (2525), 76-90 x1.5 = 3 (1245), 91-00 x2 = 4
    # (955); 0 on the other 5005 (fumbles and successful defenses).
    code, out, _ = call(["d100", "--defense", "0", "--damage", "2", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["hit"] == "999/2000"  # the old keys stay
    assert data["damage"] == {"0": "1001/2000", "1": "27/1000", "2": "101/400",
                              "3": "249/2000", "4": "191/2000"}
    # Armour 26-75 takes the x1 band, Toughness 1 takes the 1s: 5005 + 270 + 2525 at 0.
    code, out, _ = call(["d100", "--defense", "0", "--damage", "2", "--toughness", "1",
                         "--armour", "26-75", "--json"], capsys)
    assert json.loads(out)["damage"] == {"0": "39/50", "2": "249/2000", "3": "191/2000"}
    code, out, _ = call(["d100", "--defense", "0", "--damage", "2", "--toughness", "1",
                         "--armour", "26-75"], capsys)
    lines = out.splitlines()
    assert lines[4] == "Health lost to a weapon of damage 2, Toughness 1, armour 26-75:"
    assert lines[6].split() == ["0", "39/50", "78.0%"]


@pytest.mark.parametrize("argv", [
    ["d100", "--counter", "0", "--damage", "2"],
    ["d100", "--counter", "0", "--damage", "2", "--json"],
    ["d100", "--defense", "0", "--armour", "20-30"],
    ["d100", "--defense", "0", "--damage", "2", "--armour", "70-20"],
    ["d100", "--defense", "0", "--damage", "-1"],
])
def test_d100_damage_refusals_are_one_line(argv: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(argv, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_roll_under(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(["roll-under", "--target", "13"], capsys)
    assert code == 0 and out == "d20 at or under 13: 13/20 (65.0%)\n"
    _, out, _ = call(["roll-under", "--target", "25", "--json"], capsys)
    assert json.loads(out) == {"target": 25, "chance": "1"}


# --- bad arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["street-fighter", "--dice", "-1", "--tn", "6"], "--dice: -1 is out of range"),
        (["street-fighter", "--dice", "2", "--tn", "11"], "--tn: 11 is out of range"),
        (["street-fighter", "--dice", "2", "--tn", "1"], "a target number is 2 to 10"),
        (["street-fighter", "--dice", "two"], "'two' is not a whole number"),
        (["street-fighter", "--tn", "6"], "required: --dice"),
        (["hero-system", "--dice", "2"], "invalid choice: 'hero-system'"),
        ([], "required: RULESET"),
        (["d100", "--strike", "5"], "one of the arguments --defense --counter is required"),
        (["ashes", "--advantage", "99"], "an advantage is -50 to +50"),
    ],
)
def test_bad_arguments_one_line_exit_two(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = call(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
    assert err.startswith("fightdesk odds")


def test_run_without_the_parser_names_an_unknown_ruleset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_odds.run(argparse.Namespace(ruleset="hero-system", json=False)) == 2
    err = capsys.readouterr().err
    assert err == (
        "fightdesk odds: unknown ruleset 'hero-system' "
        "(known: street-fighter, d100, roll-under, ashes)\n"
    )


def test_help_lists_every_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(["--help"], capsys)
    assert code == 0
    for name in cli_odds.parts():
        assert name in out
    assert "fightdesk odds ashes --advantage 2" in out


# --- in a real process ------------------------------------------------------------------------

def run_process(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """The real command line in its own process (``python -m fightdesk``)."""
    return subprocess.run(
        [sys.executable, "-m", "fightdesk", *argv], capture_output=True, text=True, cwd=ROOT,
        timeout=60,
    )


def test_process_output_and_exit_codes() -> None:
    done = run_process(["odds", "street-fighter", "--dice", "2", "--tn", "6", "--json"])
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        '{"distribution": {"0": "1/4", "1": "1/2", "2": "1/4"}, "at_least_one": "3/4"}\n'
    )
    bad = run_process(["odds", "street-fighter", "--dice", "-3", "--tn", "6"])
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr


def test_odds_does_not_import_qt() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, fightdesk.cli_odds; print(any(m.startswith('PySide6') for m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.stdout.strip() == "False", done.stderr


@pytest.mark.parametrize(
    ("argv", "code", "stdout"),
    [
        (
            ["street-fighter", "--dice", "2", "--tn", "6", "--json"],
            0,
            '{"distribution": {"0": "1/4", "1": "1/2", "2": "1/4"}, "at_least_one": "3/4"}\n',
        ),
        (["ashes", "--advantage", "-6", "--json"], 0, None),
        (["street-fighter", "--dice", "-1", "--tn", "6"], 2, ""),
        (["street-fighter", "--dice", "2", "--tn", "12"], 2, ""),
        (["no-such-ruleset"], 2, ""),
    ],
)
def test_python_m_fightdesk_odds(argv: list[str], code: int, stdout: str | None) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fightdesk", "odds", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == code, done.stderr
    if stdout is not None:
        assert done.stdout == stdout
    else:
        assert json.loads(done.stdout)["success"] == "67/2048"
    if code == 2:
        assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_roll_under_from_attack_and_defense(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/rulesets/roll-under.md#attack: the text's two worked examples."""
    code, out, _ = call(["roll-under", "--attack", "15", "--defense", "12", "--json"], capsys)
    assert code == 0 and json.loads(out) == {"target": 13, "chance": "13/20"}
    code, out, _ = call(["roll-under", "--attack", "12", "--defense", "14", "--defense-roll",
                         "--json"], capsys)
    assert code == 0 and json.loads(out) == {"target": 12, "chance": "3/5"}
    code, out, _ = call(["roll-under", "--attack", "15", "--defense", "12"], capsys)
    assert out == "Attack 15 against Defense 12: d20 at or under 13: 13/20 (65.0%)\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["--attack", "15"], "give --target T, or both --attack A and --defense D"),
    (["--target", "3", "--attack", "4", "--defense", "5"],
     "give --target, or --attack and --defense, not both"),
    (["--target", "3", "--defense-roll"], "--defense-roll goes with --attack and --defense"),
    ([], "give --target T, or both --attack A and --defense D"),
])
def test_roll_under_takes_exactly_one_form(argv: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(["roll-under", *argv], capsys)
    assert (code, out) == (2, "")
    assert err == f"fightdesk odds roll-under: {message}\n"
