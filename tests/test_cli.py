"""The ``fightdesk`` command line: ``check`` on every kind of bad file, ``--version``,
routing to the window, and the sub-command registry."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import fightdesk
from fightdesk import cli

DEMO = Path(__file__).resolve().parents[1] / "resources" / "demo_fight.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def demo_data() -> dict[str, Any]:
    return json.loads(DEMO.read_text(encoding="utf-8"))


def _edited(edit: Callable[[dict[str, Any]], None]) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        data = demo_data()
        edit(data)
        path = folder / "fight.json"
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        return path

    return make


def _text(text: str) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / "fight.json"
        path.write_text(text, encoding="utf-8")
        return path

    return make


def _folder(folder: Path) -> Path:
    path = folder / "fight.json"
    path.mkdir()
    (path / "inside.txt").write_text("keep me", encoding="utf-8")
    return path


def _set(*keys: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        node = data
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return edit


def _drop(*keys: str) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        node = data
        for key in keys[:-1]:
            node = node[key]
        del node[keys[-1]]

    return edit


# Every bad input the foundation issue lists, with the words the one-line message must hold.
BAD_FILES: dict[str, tuple[Callable[[Path], Path], list[str]]] = {
    "truncated": (_text(DEMO.read_text(encoding="utf-8")[:4000]), ["ends too early"]),
    "not-json": (_text("Kaede: 10 health\nThug: 4 health\n"), ["not valid JSON", "line 1, column 1"]),
    "wrong-type": (
        _edited(_set("encounter", "fighters", "kaede", "status", "health", value="ten")),
        ["at encounter.fighters.kaede.status.health:", "valid integer", '"ten"'],
    ),
    "missing-field": (
        _edited(_drop("encounter", "fighters", "kaede", "status")),
        ["at encounter.fighters.kaede.status:", "required field is missing"],
    ),
    "unknown-ruleset": (
        _edited(_set("encounter", "ruleset", value="warhammer")),
        ["at encounter.ruleset:", "unknown ruleset id 'warhammer'"],
    ),
    "newer-schema": (
        _edited(_set("schema_version", value=99)),
        ["at schema_version:", "newer fightdesk", "version 99"],
    ),
    "empty": (_text(""), ["the file is empty"]),
    "directory": (_folder, ["this is a folder, not a file"]),
}


def _snapshot(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir())}
    return {"": path.read_bytes()}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_check_bad_file(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make, words = BAD_FILES[case]
    path = make(tmp_path)
    before = _snapshot(path)
    code, out, err = run(capsys, "check", str(path))
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(str(path))
    for word in words:
        assert word in lines[0]
    assert "Traceback" not in err
    assert _snapshot(path) == before, "the file must be unchanged byte for byte"


def test_check_unreadable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """CI runs as root, where chmod does not stop reading: simulate the PermissionError."""
    path = tmp_path / "fight.json"
    path.write_bytes(DEMO.read_bytes())
    from fightdesk.storage import files

    real_read = files.read_regular_file

    def guarded(self: Path, limit: int) -> bytes:
        if self == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self, limit)

    monkeypatch.setattr(files, "read_regular_file", guarded)
    code, out, err = run(capsys, "check", str(path))
    monkeypatch.undo()
    assert (code, out) == (2, "")
    assert err == f"{path}: cannot read: permission denied (is the folder read-only?)\n"
    assert path.read_bytes() == DEMO.read_bytes()


def test_check_good_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", str(DEMO)) == (0, "OK\n", "")


def test_check_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check")
    assert code == 2 and out == "" and "FILE" in err and "Traceback" not in err


def test_check_in_a_real_process_prints_on_stderr(tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    path.write_text("{", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "fightdesk", "check", str(path)],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"{path}: the file ends too early, in the middle of line 1 (cut off while saving or copying?)\n"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--version") == (0, f"fightdesk {fightdesk.__version__}\n", "")


def test_version_imports_neither_qt_nor_pydantic() -> None:
    code = textwrap.dedent(
        """
        import sys
        from fightdesk.cli import main
        assert main(["--version"]) == 0
        heavy = sorted(m for m in ("pydantic", "PySide6", "shiboken6") if m in sys.modules)
        print("heavy:", heavy)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"fightdesk {fightdesk.__version__}", "heavy: []"]


def test_console_script_version() -> None:
    script = Path(sys.executable).with_name("fightdesk")
    # Installing the package (README) always writes the script; a missing one is a broken
    # install, not a reason to skip.
    assert script.exists(), f"no fightdesk console script next to {sys.executable}: " \
        "install the package (pip install -e '.[test]')"
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"fightdesk {fightdesk.__version__}\n", "")


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "fightdesk [FILE]" in out and "check" in out


def test_unknown_command(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "chek", "fight.json")
    assert (code, out) == (2, "")
    assert "unknown command 'chek'" in err and "check" in err


# --- routing to the window -------------------------------------------------------------------


@pytest.fixture
def window_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    import fightdesk.app

    calls: list[list[str]] = []

    def fake_main(argv: list[str]) -> int:
        calls.append(list(argv))
        return 0

    monkeypatch.setattr(fightdesk.app, "main", fake_main)
    return calls


def test_no_arguments_opens_the_window(window_calls: list[list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, ) == (0, "", "")
    assert window_calls == [[]]


def test_a_file_opens_the_window_on_it(
    window_calls: list[list[str]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "check"  # a file may even be called like a command, given as a path
    path.write_text("{}", encoding="utf-8")
    assert run(capsys, str(DEMO))[0] == 0
    assert run(capsys, str(path))[0] == 0
    assert window_calls == [[str(DEMO)], [str(path)]]


# --- the sub-command registry ------------------------------------------------------------------


def test_registered_modules_are_found_and_missing_ones_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "fd_plugins"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "cli_echo.py").write_text(
        textwrap.dedent(
            """
            import argparse

            def add_parser(subparsers):
                echo = subparsers.add_parser("echo", help="say it back")
                echo.add_argument("words", nargs="+")
                shout = subparsers.add_parser("shout", help="say it loudly")
                shout.add_argument("words", nargs="+")
                shout.set_defaults(loud=True)

            def run(args: argparse.Namespace) -> int:
                text = " ".join(args.words)
                print(text.upper() if getattr(args, "loud", False) else text)
                return 7
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("fd_plugins.cli_missing", "fd_plugins.cli_echo"))
    assert run(capsys, "echo", "two", "thugs") == (7, "two thugs\n", "")
    assert run(capsys, "shout", "hadoken") == (7, "HADOKEN\n", "")
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "say it back" in out and "check" in out
    assert sorted(cli.build_parser()[1]) == ["check", "echo", "shout"]


def test_the_listed_command_modules_follow_the_contract() -> None:
    for module in cli.command_modules():
        assert callable(module.add_parser) and callable(module.run), module.__name__


def test_module_entry_point_runs_the_cli(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    odd = tmp_path / "kämpfe ⚔.json"
    odd.write_text("", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "fightdesk", "check", str(odd)],
        capture_output=True, text=True, timeout=60, env=env, encoding="ascii", errors="strict",
    )
    # A console that cannot show the file name still gets the message, never a crash.
    assert done.returncode == 2
    assert "the file is empty" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["check", "odds", "summary", "new", "rulesets", "simulate"])
def test_a_command_help_names_the_command(command: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A command's usage line starts "fightdesk simulate", not with the top usage block
    (which once made it read "fightdesk --version simulate")."""
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and out.startswith(f"usage: fightdesk {command} ")



# Each command (and each of odds' rulesets) with "?" where the unknown option goes.
UNKNOWN_OPTION_CASES = [
    ("check", "check fight.json ?"),
    ("check", "check ? fight.json"),
    ("summary", "summary fight.json ?"),
    ("new", "new d100 ?"),
    ("rulesets", "rulesets ?"),
    ("simulate", "simulate fight.json ?"),
    ("simulate", "simulate ? fight.json --fights 5"),
    ("odds", "odds ? d100 --defense 40"),
    ("odds street-fighter", "odds street-fighter --dice 3 ?"),
    ("odds d100", "odds d100 --defense 40 ?"),
    ("odds roll-under", "odds roll-under ?"),
    ("odds ashes", "odds ashes --advantage 2 ?"),
]


def test_the_unknown_option_cases_cover_every_command() -> None:
    _, commands = cli.build_parser()
    assert set(commands) <= {command.split()[0] for command, _ in UNKNOWN_OPTION_CASES}


@pytest.mark.parametrize(("command", "words"), UNKNOWN_OPTION_CASES)
def test_an_unknown_option_is_one_line_naming_it_and_the_command(
        command: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Not the top-level usage block: one line on stderr, exit 2, naming the option and
    the command that got it."""
    args = [("--no-such-option" if word == "?" else word) for word in words.split()]
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1, err
    assert err.startswith(f"fightdesk {command}: ") and "--no-such-option" in err
    assert "usage" not in err
