"""``fightdesk summary``: every format, and bad input as one line on stderr with exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fightdesk.cli import main
from fightdesk.storage.sessions import save_session

from .scripted import two_round_fight
from .test_printing import A4_POINTS, LETTER_POINTS, pdf_pages


@pytest.fixture(scope="module")
def session_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sessions") / "harbour.json"
    save_session(two_round_fight(), path)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["summary", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_markdown_to_the_terminal(capsys: pytest.CaptureFixture[str], session_file: Path) -> None:
    code, out, err = run(capsys, str(session_file))
    assert (code, err) == (0, "")
    assert out.startswith("# Rooftop duel at the harbour\n")
    assert "## Totals" in out and "## Round 1" in out and "## Round 2" in out
    code, out, _ = run(capsys, str(session_file), "--round", "1")
    assert code == 0 and "## Round 1" in out and "## Round 2" not in out and "Totals" not in out


def test_html_to_the_terminal_and_to_a_file(qapp: object, capsys: pytest.CaptureFixture[str],
                                            session_file: Path, tmp_path: Path) -> None:
    code, out, _ = run(capsys, str(session_file), "--all", "--format", "html")
    assert code == 0 and out.startswith("<!DOCTYPE html>") and "data:image/png;base64," in out
    target = tmp_path / "fight.html"
    code, out, _ = run(capsys, str(session_file), "-o", str(target))  # format from the name
    assert code == 0 and out == f"wrote {target}\n"
    assert target.read_text().startswith("<!DOCTYPE html>")


def test_markdown_file_with_its_chart(qapp: object, capsys: pytest.CaptureFixture[str],
                                      session_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "fight.md"
    code, out, _ = run(capsys, str(session_file), "-o", str(target))
    assert code == 0
    assert out.splitlines() == [f"wrote {target}", f"wrote {tmp_path / 'fight-chart.png'}"]
    assert "](fight-chart.png)" in target.read_text()


@pytest.mark.parametrize(("paper", "points"), [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_pdf_file(qapp: object, capsys: pytest.CaptureFixture[str], session_file: Path,
                  tmp_path: Path, paper: str, points: tuple[int, int]) -> None:
    target = tmp_path / "fight.pdf"
    code, _, err = run(capsys, str(session_file), "-r", "2", "-o", str(target), "--paper", paper)
    assert (code, err) == (0, "")
    assert set(pdf_pages(target)) == {points}


def test_pdf_from_the_installed_command_offscreen(session_file: Path, tmp_path: Path) -> None:
    """The real console entry with no display and no QT_QPA_PLATFORM: Qt goes offscreen."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    code = "import sys; from fightdesk.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, "summary", str(session_file), "--format", "pdf"],
        capture_output=True, env=env, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"%PDF") and done.stdout.rstrip().endswith(b"%%EOF")


def one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    return err.strip()


def test_bad_input(capsys: pytest.CaptureFixture[str], session_file: Path,
                   tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert one_line_error(capsys, str(missing)) == f"{missing}: cannot read: no such file"
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema_version": 1, "encounter": ')
    assert one_line_error(capsys, str(broken)).startswith(f"{broken}: the file ends too early")
    assert one_line_error(capsys, str(session_file), "--round", "7") == (
        f"{session_file}: round 7 is not in this session (it has rounds 1..2)"
    )
    assert one_line_error(capsys, str(session_file), "--round", "two") == (
        "fightdesk summary: argument --round/-r: 'two' is not a round number"
    )
    assert "not allowed with argument" in one_line_error(
        capsys, str(session_file), "--round", "1", "--all"
    )
    assert "invalid choice: 'docx'" in one_line_error(capsys, str(session_file), "-f", "docx")


def test_empty_fight_has_no_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from .scripted import Script

    path = tmp_path / "fresh.json"
    save_session(Script().session, path)
    assert one_line_error(capsys, str(path)) == (
        f"{path}: the session's log is empty: nothing has happened yet"
    )


def test_pdf_never_goes_to_a_terminal(capsys: pytest.CaptureFixture[str], session_file: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert one_line_error(capsys, str(session_file), "-f", "pdf").startswith(
        "a PDF does not go to the terminal"
    )
