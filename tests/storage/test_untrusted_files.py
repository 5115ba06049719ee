"""Files and settings read as untrusted input: a tampered picture never reaches Qt, a pipe
or a device is never read as a fight or a campaign, a size limit from the environment is
checked, a campaign's own file name never reads as unsaved edits, and the temporary
files of a cut-off save are removed by a later save or start (only fightdesk's own).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fightdesk.engine.engine import Engine
from fightdesk.engine.views import picture_of, to_plain
from fightdesk.resources_path import DEMO_FILE, DEMO_PICTURE, resource_path
from fightdesk.storage import files
from fightdesk.storage.files import FileProblem
from fightdesk.storage.library import Library
from fightdesk.storage.picture import PICTURE_FILE, demo_picture, reopen_picture
from fightdesk.storage.sessions import demo_session, load_session, save_session

from .test_picture import _quit_with_picture

HUGE = [10**9, 2**40, 2**64]


# --- a tampered picture -------------------------------------------------------------------


def _tamper(data: dict[str, object], where: tuple[str | int, ...], value: object) -> None:
    lane = data["timeline"]["lanes"][0]  # type: ignore[index]
    if not lane["chips"]:  # before the fight: give the first lane a chip to tamper with
        lane["chips"] = [{"id": "d1", "fighter_id": lane["fighter_ids"][0], "column": 0,
                          "label": "5", "state": "ready"}]
    node: object = data
    for key in where[:-1]:
        node = node[key]  # type: ignore[index]
    node[where[-1]] = value  # type: ignore[index]


TAMPERED = [
    *[(("timeline", "current_column"), n) for n in HUGE],
    *[(("timeline", "lanes", 0, "chips", 0, "column"), n) for n in HUGE],
    (("cards", 0, "health"), 2**63),
    (("cards", 0, "health_max"), 2**63 + 5),
    (("cards", 0, "group_size"), -(2**70)),
    (("timeline", "current_column"), -1),
]


@pytest.mark.parametrize(("where", "value"), TAMPERED)
def test_a_tampered_picture_of_the_last_fight_is_dropped(
    tmp_path: Path, where: tuple[str | int, ...], value: int
) -> None:
    folder = _quit_with_picture(tmp_path)
    kept = json.loads((folder / PICTURE_FILE).read_text())
    _tamper(kept["picture"], where, value)
    (folder / PICTURE_FILE).write_text(json.dumps(kept))
    assert reopen_picture(tmp_path) is None  # never painted: the start goes the usual way


@pytest.mark.parametrize(("where", "value"), TAMPERED)
def test_a_tampered_demo_picture_is_dropped(
    tmp_path: Path, where: tuple[str | int, ...], value: int
) -> None:
    demo = resource_path(DEMO_FILE)
    data = json.loads(resource_path(*DEMO_PICTURE).read_text(encoding="utf-8"))
    _tamper(data["picture"], where, value)
    picture_file = tmp_path / "demo_fight.json"
    picture_file.write_text(json.dumps(data))
    assert demo_picture(tmp_path / "autosave", demo, picture_file) is None


def test_a_sound_picture_is_still_shown(tmp_path: Path) -> None:
    demo = resource_path(DEMO_FILE)
    assert demo_picture(tmp_path, demo, resource_path(*DEMO_PICTURE)) is not None
    engine = Engine(demo_session())
    data = to_plain(picture_of(engine, "x", False))
    assert data["timeline"]["current_column"] is None or data["timeline"]["current_column"] >= 0


def test_a_pipe_in_place_of_a_picture_does_not_hang_the_start(tmp_path: Path) -> None:
    folder = _quit_with_picture(tmp_path)
    (folder / PICTURE_FILE).unlink()
    os.mkfifo(folder / PICTURE_FILE)
    assert reopen_picture(tmp_path) is None


# --- a pipe or a device given as a file ------------------------------------------------------


def _with_timeout(call: object, seconds: float = 10.0) -> object:
    """Run ``call`` in a thread; fail (instead of hanging the suite) if it never returns."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())  # type: ignore[operator]
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"still reading after {seconds} s"
    return outcome[0]


def test_a_fifo_given_as_a_session_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fight.json"
    os.mkfifo(fifo)
    outcome = _with_timeout(lambda: load_session(fifo))
    assert isinstance(outcome, FileProblem) and "not a regular file (a pipe)" in str(outcome)


def test_a_device_given_as_a_session_is_refused_without_reading_it(tmp_path: Path) -> None:
    outcome = _with_timeout(lambda: load_session(Path("/dev/zero")))
    assert isinstance(outcome, FileProblem) and "not a regular file (a device)" in str(outcome)
    link = tmp_path / "fight.json"
    link.symlink_to("/dev/zero")
    outcome = _with_timeout(lambda: load_session(link))
    assert isinstance(outcome, FileProblem) and "a device" in str(outcome)


def test_a_fifo_or_device_as_a_campaign_is_refused(tmp_path: Path) -> None:
    from fightdesk.storage.library import Campaign

    library = Library(tmp_path / "campaigns")
    library.create("Plain")
    campaign = library.open("Plain")
    fifo = tmp_path / "Pipe.json"
    os.mkfifo(fifo)
    for path, kind in ((Path("/dev/zero"), "a device"), (fifo, "a pipe")):
        outcome = _with_timeout(lambda path=path: Campaign.load(path))
        assert isinstance(outcome, FileProblem) and kind in str(outcome), outcome
        outcome = _with_timeout(lambda path=path: campaign.import_file(path))
        assert isinstance(outcome, FileProblem) and kind in str(outcome), outcome
    assert len(campaign) == 0
    # In the campaigns folder such a file is no campaign at all.
    (library.folder / "Zero.json").symlink_to("/dev/zero")
    assert "Zero" not in library.campaigns()


def test_never_more_than_the_limit_is_read_whatever_stat_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that grows after stat (or one whose size stat gets wrong) is read only up
    to the limit."""
    path = tmp_path / "fight.json"
    path.write_bytes(b"x" * 5000)
    real_fstat = os.fstat

    class Small:
        def __init__(self, info: os.stat_result) -> None:
            self.st_mode, self.st_size = info.st_mode, 10

    monkeypatch.setattr(files.os, "fstat", lambda fd: Small(real_fstat(fd)))
    asked: list[int] = []
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(files.os, "read", counting_read)
    with pytest.raises(FileProblem, match="too big"):
        files.read_regular_file(path, 1000)
    monkeypatch.undo()
    assert sum(asked) <= 1001


# --- the size limit from the environment ---------------------------------------------------


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e400", "-5", "0", "lots", "1e7"])
def test_a_size_limit_from_the_environment_out_of_range_says_so_and_uses_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv(files.SIZE_LIMIT_ENV, value)
    assert files.size_limit() == files.DEFAULT_SIZE_LIMIT
    problem = files.size_limit_problem()
    assert problem is not None and "\n" not in problem
    assert problem.startswith(f"{files.SIZE_LIMIT_ENV}={value} is not a number of megabytes")
    assert "50 MB" in problem
    path = tmp_path / "fight.json"
    save_session(demo_session(), path)
    assert load_session(path).encounter.name  # files are read, with the default limit


def test_the_command_line_says_what_is_wrong_with_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    save_session(demo_session(), path)
    env = dict(os.environ, FIGHTDESK_MAX_FILE_MB="inf")
    done = subprocess.run([sys.executable, "-m", "fightdesk", "check", str(path)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "OK"
    assert done.stderr.splitlines() == [
        "fightdesk: FIGHTDESK_MAX_FILE_MB=inf is not a number of megabytes above 0 and at "
        "most 1048576; the default, 50 MB, applies"]


def test_a_good_size_limit_from_the_environment_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(files.SIZE_LIMIT_ENV, "2.5")
    assert files.size_limit() == int(2.5 * 1024 * 1024)
    assert files.size_limit_problem() is None


# --- a campaign's file name ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Orcs <Boss>", 'The "Inn"', "Who? What*", " spaced "])
def test_a_campaign_named_unlike_a_new_name_opens_without_asking_about_edits(
    tmp_path: Path, name: str
) -> None:
    library = Library(tmp_path / "campaigns")
    library.create("Plain")
    (library.folder / f"{name}.json").write_bytes((library.folder / "Plain.json").read_bytes())
    library.open("Plain")
    assert name in library.campaigns()
    campaign = library.open(name)  # no LibraryError: nothing was edited
    assert campaign.name == name
    library.close()
    fresh = Library(library.folder)
    assert fresh.last_open() == name and fresh.open(name).name == name
    # A new campaign's name is still held to the names safe on every system.
    from fightdesk.storage.library import LibraryError

    if name.strip() == name:
        with pytest.raises(LibraryError, match="already exists"):
            fresh.create(name)
    with pytest.raises(LibraryError, match="cannot start with"):
        fresh.create("New <one>")


def test_the_library_panel_opens_such_a_campaign_without_a_question(
    qtbot: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fightdesk.ui.library_panel import LibraryPanel

    library = Library(tmp_path / "campaigns")
    library.create("Plain")
    (library.folder / "Orcs <Boss>.json").write_bytes((library.folder / "Plain.json").read_bytes())
    (library.folder / ".last-open").write_text("Orcs <Boss>\n")
    asked: list[str] = []
    monkeypatch.setattr(LibraryPanel, "_confirm", lambda self, title, text: asked.append(title))
    panel = LibraryPanel(library)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel._start()
    assert asked == [] and panel.campaign is not None and panel.campaign.name == "Orcs <Boss>"


# --- leftovers of a cut-off save --------------------------------------------------------------


KILLED_SAVE = """
import os, sys, time
from pathlib import Path
from fightdesk.storage import files
from fightdesk.storage.sessions import demo_session, save_session

def hang(*args, **kwargs):
    print("TRAP", flush=True)
    time.sleep(120)

os.replace = hang  # killed after the temporary file is written, before the rename
save_session(demo_session(), Path(sys.argv[1]))
"""


def killed_save(target: Path) -> Path:
    """Save As ``target`` in a real process, SIGKILLed in the middle; the leftover."""
    proc = subprocess.Popen([sys.executable, "-c", KILLED_SAVE, str(target)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "TRAP"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    [leftover] = [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftover.name.startswith(f".{target.name}.fightdesk-{proc.pid}-")
    assert not target.exists()
    return leftover


def strangers(folder: Path) -> list[Path]:
    """Files like ours that are not fightdesk's: never touched."""
    made = [folder / ".notes.json.tmp", folder / ".fight.json.abc123.tmp",
            folder / "fightdesk-1-x.tmp", folder / ".x.json.other-1-abc.tmp"]
    for path in made:
        path.write_text("someone else's")
    return made


def test_a_later_save_removes_the_leftover_of_a_killed_save_as(tmp_path: Path) -> None:
    folder = tmp_path / "gm"
    folder.mkdir()
    leftover = killed_save(folder / "harbour.json")
    others = strangers(folder)
    # A save of this process is running right now in another thread: its file stays.
    running = folder / f".other.json.fightdesk-{os.getppid()}-abcd1234.tmp"
    running.write_text("being written")
    save_session(demo_session(), folder / "another.json")
    assert not leftover.exists()
    assert all(p.exists() for p in others) and running.exists()
    assert load_session(folder / "another.json").encounter.name


@pytest.mark.slow
def test_a_later_start_removes_the_leftover_of_a_killed_save_as(tmp_path: Path) -> None:
    from .test_crash_recovery import gui_env, run_gui

    folder = tmp_path / "gm"
    folder.mkdir()
    opened = folder / "opened.json"
    save_session(demo_session(), opened)
    leftover = killed_save(folder / "harbour.json")
    others = strangers(folder)
    before = time.time()
    lines, killed = run_gui(gui_env(tmp_path / "home", "check"), args=(str(opened),))
    assert not killed and any(x.startswith("SHOWN ") for x in lines)
    assert not leftover.exists() and all(p.exists() for p in others)
    assert opened.stat().st_mtime < before  # only read


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_leftover_whose_process_number_was_given_to_a_newer_process_is_removed(
        tmp_path: Path) -> None:
    """Process numbers are reused: a running process that started after the leftover was
    last written cannot be its writer, so the leftover goes; one that started before it
    may still be writing, so that one stays."""
    from fightdesk.storage.files import remove_leftovers

    folder = tmp_path / "gm"
    folder.mkdir()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        written_before = folder / f".old.json.fightdesk-{sleeper.pid}-dead1234.tmp"
        written_before.write_text("cut off long ago")
        an_hour_ago = time.time() - 3600
        os.utime(written_before, (an_hour_ago, an_hour_ago))
        time.sleep(0.05)
        being_written = folder / f".new.json.fightdesk-{sleeper.pid}-live1234.tmp"
        being_written.write_text("being written")
        removed = remove_leftovers(folder)
        assert removed == [written_before]
        assert not written_before.exists() and being_written.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
