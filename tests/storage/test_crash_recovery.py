"""SIGKILL the headless fight driver 100 times; every completed action must come back.

Each kill lands at a seeded random moment: after a random number of actions plus a
few milliseconds, or hung inside a chosen OS call of the storage code (a half-written
journal line, a snapshot or a save written but not yet renamed, a compaction between
its steps), or in the middle of an interrupt stack resolution. After each kill the test
restores the fight as the app would on its next start and checks that it equals the
fight after the last action the driver reported done (or after the one that followed,
when the kill landed between the journal write and the driver's report), that its log
rebuilds to the same state, and that every file left behind reads back. Then the
driver restarts on the restored fight and carries on, so later kills also land in
restarts and in recovered fights.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from fightdesk.engine.engine import Engine
from fightdesk.engine.views import picture_from_plain
from fightdesk.storage.autosave import Autosave, AutosaveState, load_snapshot
from fightdesk.storage.journal import read_journal
from fightdesk.storage.picture import PICTURE_FILE
from fightdesk.storage.sessions import load_session

from . import crash_driver
from .crash_driver import fingerprint, reference

DRIVER = Path(crash_driver.__file__)
KILLS = 100
LINE_TIMEOUT = 20.0


class Driver:
    """One run of the driver process, read line by line with a timeout."""

    def __init__(self, args: list[str]) -> None:
        env = dict(os.environ)
        self.proc = subprocess.Popen(
            [sys.executable, str(DRIVER), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        assert self.proc.stdout is not None
        self._fd = self.proc.stdout.fileno()
        self._buffer = b""

    def next_line(self) -> str | None:
        """The next line the driver printed, or None when it exited."""
        deadline = time.monotonic() + LINE_TIMEOUT
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                pytest.fail("the crash driver hung")
            ready, _, _ = select.select([self._fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._fd, 4096)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def finish(self) -> str:
        """Wait for a driver that ran to its end; returns its stderr."""
        assert self.proc.stderr is not None
        err = self.proc.stderr.read().decode()
        self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return err

    def close(self) -> None:
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@dataclass
class Chain:
    """One fight, killed and restarted until it has played all its actions."""

    number: int
    seed: int
    steps: int
    root: Path
    ref: list[str]
    resume: int | None = None
    leftovers: set[Path] = field(default_factory=set)

    @property
    def progress(self) -> Path:
        return self.root.parent / "progress.txt"

    @property
    def done(self) -> int:
        return self.resume or 0


def choose_kill(rng: random.Random, remaining: int) -> tuple[str, str | None, int]:
    """(how, trap, after-steps) for the next kill."""
    kinds = ["time"] * 30 + ["write"] * 15 + ["fsync"] * 15 + ["replace"] * 14 + \
        ["save"] * 12 + ["unlink"] * 4 + ["link"] * 4 + ["pending"] * 12
    kind = rng.choice(kinds)
    if kind == "time":
        return "time", None, rng.randint(1, max(1, remaining))
    reach = {"write": remaining, "fsync": int(remaining * 1.4) + 3, "replace": 6, "save": 3,
             "unlink": 3, "link": 2, "pending": 6}[kind]
    return "trap", f"{kind}:{rng.randint(1, max(1, reach))}", 0


@dataclass
class Tally:
    """What the kills actually hit, so the test proves it covered the hard moments."""

    kills: dict[str, int] = field(default_factory=dict)
    in_flight: int = 0  # restored one action past the last reported one
    torn_tails: int = 0
    leftovers: int = 0
    round_snapshots: int = 0
    restarts_killed: int = 0  # killed while restoring, before the first new action

    def kill(self, kind: str) -> None:
        self.kills[kind] = self.kills.get(kind, 0) + 1


def run_once(chain: Chain, rng: random.Random, tally: Tally) -> bool:
    """Start the driver (fresh or restored) and kill it; False when it finished instead."""
    how, trap, after = choose_kill(rng, chain.steps - chain.done)
    args = ["--root", str(chain.root), "--seed", str(chain.seed), "--steps", str(chain.steps),
            "--progress", str(chain.progress)]
    if chain.resume is not None:
        args += ["--resume", str(chain.resume)]
    if trap:
        args += ["--trap", trap]
    driver = Driver(args)
    ready = False
    try:
        while True:
            line = driver.next_line()
            if line is None:
                err = driver.finish()
                assert driver.proc.returncode == 0, f"driver failed ({trap}):\n{err}"
                return False
            if line == "READY":
                ready = True
            elif line == "DONE":
                driver.finish()
                return False
            elif line == "TRAP":
                driver.kill()
                tally.kill(str(trap).partition(":")[0])
                if not ready:
                    tally.restarts_killed += 1
                break
            elif line.startswith("STEP ") and how == "time":
                if int(line.split()[1]) >= chain.done + after:
                    time.sleep(rng.uniform(0, 0.004))
                    driver.kill()
                    tally.kill("time")
                    break
    finally:
        driver.close()
    if ready:
        # The restarted app cleaned up what the previous kill left half-written.
        still = {p for p in chain.leftovers if p.exists()}
        assert not still, f"temporary files survived a restart: {still}"
    return True


def completed_actions(chain: Chain) -> int:
    """The last action the driver reported done (each report is fsynced before the next)."""
    data = chain.progress.read_bytes() if chain.progress.exists() else b""
    whole = data[: data.rfind(b"\n") + 1]
    if whole != data:  # killed while writing its report: that action is not reported
        chain.progress.write_bytes(whole)
    last = chain.done
    for line in whole.decode().splitlines():
        index, fp = line.split()
        assert fp == chain.ref[int(index)], f"the driver is not deterministic at {index}"
        last = max(last, int(index))
    return last


def check_files(chain: Chain, tally: Tally) -> None:
    """Everything in the autosave folder (and the GM's saved file) reads back."""
    chain.leftovers = set()
    for path in chain.root.rglob("*"):
        if path.is_dir():
            continue
        name = path.name
        if name.startswith(".") and name.endswith(".tmp"):
            chain.leftovers.add(path)  # an interrupted atomic write: ignored, then removed
            tally.leftovers += 1
        elif name == "lock":
            pass  # the lock a running window holds on its fight folder
        elif name in ("state.json", "fight.json"):  # which fight is open; a fight's own
            AutosaveState.model_validate_json(path.read_text())
        elif name == PICTURE_FILE:  # the fight as shown at the last normal quit
            picture_from_plain(json.loads(path.read_text())["picture"])
        elif name.endswith(".json"):
            load_snapshot(path)
            tally.round_snapshots += name.startswith("round-")
        elif name.endswith(".jsonl"):
            contents = read_journal(path)
            assert contents.problem is None, contents.problem
            tally.torn_tails += contents.torn_tail
        else:
            pytest.fail(f"unexpected file in the autosave folder: {path}")
    for saved in chain.root.parent.glob("saved.json*"):
        if not saved.name.endswith(".tmp") and not saved.name.startswith("."):
            load_session(saved)


def check_restore(chain: Chain, tally: Tally) -> None:
    """The next start brings back every completed action (and maybe the one in flight)."""
    last = completed_actions(chain)
    check_files(chain, tally)
    saver = Autosave(chain.root)
    info = saver.recoverable()
    if info is None:
        # Killed before the very first snapshot existed: nothing was done yet.
        assert last == 0, f"nothing to restore after {last} completed actions"
        chain.resume = None
        return
    assert info.problem is None, info.problem
    # Only a kill after the quit was recorded (all actions played) reads as a normal quit.
    assert info.crashed or last == chain.steps
    session = saver.restore(info.fight_id)
    got = fingerprint(session)
    allowed = chain.ref[last: last + 2]
    assert got in allowed, (
        f"chain {chain.number}: restored state is none of actions {last}..{last + 1}"
    )
    chain.resume = last + allowed.index(got)
    tally.in_flight += chain.resume - last
    assert Engine(session).rebuild() == session.encounter


@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_a_completed_action(tmp_path: Path) -> None:
    rng = random.Random(5_2024)
    kills = chains = 0
    tally = Tally()
    while kills < KILLS:
        seed = rng.randrange(1_000_000)
        steps = rng.randint(25, 50)
        root = tmp_path / f"fight-{chains:02d}" / "autosave"
        root.parent.mkdir(parents=True)
        chain = Chain(chains, seed, steps, root, reference(seed, steps))
        chains += 1
        while kills < KILLS:
            if not run_once(chain, rng, tally):
                # Played to the end and quit normally: reopened exactly as it ended.
                saver = Autosave(root)
                info = saver.recoverable()
                assert info is not None and info.clean_exit and info.problem is None
                assert fingerprint(saver.restore()) == chain.ref[steps]
                check_files(chain, tally)
                break
            kills += 1
            check_restore(chain, tally)
    print(f"{kills} kills in {chains} fights: {tally}")
    # The seeds are fixed; these prove the kills reached the moments that matter.
    assert chains >= 5
    assert {"time", "write", "fsync", "replace", "save"} <= set(tally.kills)
    assert tally.torn_tails and tally.leftovers and tally.in_flight and tally.restarts_killed
    assert tally.kills.get("pending") and tally.round_snapshots


# --- the real GUI process -----------------------------------------------------------------


def gui_env(home: Path, drive: str, trap: str | None = None) -> dict[str, str]:
    """Environment for ``python -m fightdesk`` offscreen, with user folders under ``home``
    and the test hook of crash_driver.gui_hook installed through a sitecustomize."""
    hook = home / "hook"
    hook.mkdir(parents=True, exist_ok=True)
    (hook / "sitecustomize.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(crash_driver.REPO)!r})\n"
        "from tests.storage.crash_driver import gui_hook\n"
        "gui_hook()\n"
    )
    env = dict(os.environ)
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                     ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")):
        env[var] = str(home / sub)
    env.update(QT_QPA_PLATFORM="offscreen", FIGHTDESK_GUI_DRIVE=drive,
               FIGHTDESK_GUI_SAVE=str(home / "saved.json"),
               PYTHONPATH=os.pathsep.join([str(hook), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    env.pop("FIGHTDESK_GUI_TRAP", None)
    if trap:
        env["FIGHTDESK_GUI_TRAP"] = trap
    return env


def run_gui(env: dict[str, str], *, kill_at_step: int | None = None,
            timeout: float = 60.0, args: tuple[str, ...] = ()) -> tuple[list[str], bool]:
    """Run the app (``args`` on its command line) until it exits, prints TRAP, or reports
    step ``kill_at_step``; SIGKILL it in the last two cases. Returns its lines and
    whether it was killed."""
    proc = subprocess.Popen([sys.executable, "-m", "fightdesk", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    fd, buffer = proc.stdout.fileno(), b""
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    killed = False
    try:
        while not killed:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                proc.kill()
                pytest.fail(f"the app hung; it said {lines}")
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buffer += chunk
            while b"\n" in buffer and not killed:
                raw, _, buffer = buffer.partition(b"\n")
                line = raw.decode()
                lines.append(line)
                step = line.split()[1] if line.startswith("STEP ") else None
                if line == "TRAP" or (step is not None and int(step) == kill_at_step):
                    proc.send_signal(signal.SIGKILL)
                    killed = True
        proc.wait(timeout=30)
        err = proc.stderr.read().decode()
    finally:
        proc.stdout.close()
        proc.stderr.close()
    if not killed:
        assert proc.returncode == 0, f"the app failed:\n{err}"
    return lines, killed


def first_save(seed: int, steps: int) -> int | None:
    """The index of the first File > Save in the seeded fight, if any."""
    from fightdesk.engine.engine import Engine as _Engine

    engine = _Engine(crash_driver.new_session())
    for index in range(steps):
        action = crash_driver.choose(seed, index, engine)
        if action[0] == "save":
            return index
        crash_driver.perform(engine, action, lambda: None)
    return None


def shown(lines: list[str]) -> tuple[str, bool]:
    [line] = [x for x in lines if x.startswith("SHOWN ")]
    _, fp, modified = line.split()
    return fp, modified == "1"


@pytest.mark.slow
def test_killed_gui_restores_the_fight_on_the_next_start(tmp_path: Path) -> None:
    seed = next(s for s in range(200) if (first_save(s, 6) or 0) >= 2)
    steps = 10
    ref = reference(seed, steps)
    cases = [("time", None, 5), ("write", "write:4", None), ("save", "save:1", None)]
    for name, trap, kill_at in cases:
        home = tmp_path / name
        lines, killed = run_gui(gui_env(home, f"play:{seed}:{steps}", trap), kill_at_step=kill_at)
        assert killed, f"{name}: the app was not killed: {lines}"
        done = [int(x.split()[1]) for x in lines if x.startswith("STEP ")]
        for line in lines:
            if line.startswith("STEP "):
                _, index, fp = line.split()
                assert fp == ref[int(index)]
        last = max(done, default=0)
        lines, _ = run_gui(gui_env(home, "check"))
        assert "ASKED" in lines, f"{name}: no restore question after the kill: {lines}"
        fp, modified = shown(lines)
        assert fp in ref[last: last + 2], f"{name}: restored state is not action {last}"
        # Never saved before the restored action: the title has the unsaved marker.
        restored_at = last + ref[last: last + 2].index(fp)
        save_at = first_save(seed, steps)
        if restored_at > 0 and (save_at is None or save_at >= restored_at):
            assert modified


@pytest.mark.slow
def test_gui_quit_normally_reopens_the_last_fight_without_asking(tmp_path: Path) -> None:
    seed, steps = 11, 6
    ref = reference(seed, steps)
    lines, killed = run_gui(gui_env(tmp_path, f"play:{seed}:{steps}:quit"))
    assert not killed and "QUITTING" in lines
    lines, _ = run_gui(gui_env(tmp_path, "check"))
    assert "ASKED" not in lines
    fp, _ = shown(lines)
    assert fp == ref[steps]


# --- the restore question and the window wiring, in process ---------------------------------


def test_restore_question_describes_the_fight(qtbot: Any, tmp_path: Path) -> None:
    from fightdesk.storage.autosave import RecoveryInfo
    from fightdesk.ui.recovery import ask_to_restore, describe, restore_box

    info = RecoveryInfo(fight_id="x", path=tmp_path / "harbour.json", clean_exit=False,
                        fight_name="Rooftop duel", round=3, actions=41,
                        last_action="Ryu hits Ken for 4", changed_at=time.time(), unsaved=True)
    text = describe(info)
    assert "\u201cRooftop duel\u201d, round 3, 41 actions" in text
    assert "Last action: Ryu hits Ken for 4" in text
    assert f"Changed since it was saved to {tmp_path / 'harbour.json'}" in text
    box = restore_box(None, info)
    qtbot.addWidget(box)
    assert box.defaultButton().objectName() == "restoreButton"
    from PySide6.QtCore import QTimer

    for name, expected in (("restoreButton", True), ("skipButton", False)):
        def click(name: str = name) -> None:
            from PySide6.QtWidgets import QAbstractButton, QApplication

            modal = QApplication.activeModalWidget()
            assert modal is not None
            button = modal.findChild(QAbstractButton, name)
            assert button is not None
            button.click()

        QTimer.singleShot(50, click)
        assert ask_to_restore(None, info) is expected


@pytest.fixture
def shown_window(qtbot: Any) -> Any:
    from fightdesk.ui.main_window import MainWindow

    win = MainWindow()
    win.show()
    yield win
    # Closed here, not by qtbot (which closes before fixtures end): no "save changes?".
    win.document.undo_stack.setClean()
    win.close()
    win.deleteLater()


def test_window_fights_are_autosaved_saved_and_restored(
    qtbot: Any, shown_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fightdesk.engine import commands as c
    from fightdesk.ui import recovery

    root = tmp_path / "autosave"
    saver = Autosave(root)
    binder = recovery.AutosaveBinder(shown_window, saver)
    shown_window.show_session(Engine(crash_driver.new_session()), None)
    assert saver.engine is shown_window.document.engine
    doc = shown_window.document
    assert doc.apply(c.SetValue(fighter_id="kaede", field="status.health", value=5)).ok
    assert fingerprint(Autosave(root).restore()) == fingerprint(doc.engine.session)
    target = tmp_path / "harbour.json"
    assert shown_window.files.save_to(target)
    assert saver.path == target and saver.is_saved
    binder.quit()
    info = Autosave(root).recoverable()
    assert info is not None and info.clean_exit and not info.unsaved and info.path == target

    # Next start after a normal quit: the fight comes back without a question.
    monkeypatch.setattr(recovery, "ask_to_restore", lambda *_: pytest.fail("asked"))
    again = Autosave(root)
    choice = recovery.choose_start(shown_window, again, None)
    assert choice is not None and not choice.after_crash and choice.path == target
    # ...unless the GM named a file to open.
    assert recovery.choose_start(shown_window, Autosave(root), target) is None


def test_a_shown_fight_is_written_once_it_is_painted(
    qtbot: Any, shown_window: Any, tmp_path: Path
) -> None:
    """The first snapshot waits for the paint of the fight, then follows at once."""
    from fightdesk.ui import recovery

    saver = Autosave(tmp_path / "autosave")
    recovery.AutosaveBinder(shown_window, saver)
    shown_window.show_session(Engine(crash_driver.new_session()), None)
    assert not list(saver.fight_dir().glob("base-*.json"))  # not before the fight is seen
    qtbot.waitUntil(lambda: bool(list(saver.fight_dir().glob("base-*.json"))))
    assert fingerprint(Autosave(tmp_path / "autosave").restore()) == fingerprint(
        shown_window.document.engine.session)


def test_declining_the_restore_forgets_it(
    qtbot: Any, shown_window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fightdesk.engine import commands as c
    from fightdesk.ui import recovery

    root = tmp_path / "autosave"
    saver = Autosave(root)
    engine = Engine(crash_driver.new_session())
    saver.attach(engine)
    engine.apply(c.Note(text="before the crash"))
    saver.detach()  # the app dies: nothing more written, its folder lock gone
    monkeypatch.setattr(recovery, "ask_to_restore", lambda *_: False)
    assert recovery.choose_start(shown_window, Autosave(root), None) is None
    assert Autosave(root).recoverable() is None

    saver.attach(engine)
    engine.apply(c.Note(text="again"))
    saver.detach()
    monkeypatch.setattr(recovery, "ask_to_restore", lambda *_: True)
    fresh = Autosave(root)
    binder = recovery.AutosaveBinder(shown_window, fresh)
    choice = recovery.choose_start(shown_window, fresh, None)
    assert choice is not None and choice.after_crash and choice.unsaved
    binder.show_restored(choice, shown_window.show_session)
    assert shown_window.document.is_modified()
    assert fresh.fight_id == choice.fight_id
    assert fingerprint(shown_window.document.engine.session) == fingerprint(engine.session)


def test_autosave_failure_is_shown_to_the_gm(qtbot: Any, shown_window: Any, tmp_path: Path) -> None:
    from fightdesk.ui import recovery

    binder = recovery.AutosaveBinder(shown_window, Autosave(tmp_path / "autosave"))
    binder.status.emit(False, "Autosave failed: /x/journal-000001.jsonl: the disk is full.")
    assert "the disk is full" in shown_window.statusBar().currentMessage()
    from PySide6.QtWidgets import QMessageBox

    box = shown_window.findChild(QMessageBox, "AutosaveWarning")
    assert box is not None and box.isVisible() and "the disk is full" in box.text()
    binder.status.emit(True, "Autosave works again: every action is safe on disk.")
    assert not box.isVisible()
    assert shown_window.statusBar().currentMessage().startswith("Autosave works again")
