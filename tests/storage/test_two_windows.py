"""Two real windows (``python -m fightdesk``, offscreen) on one autosave folder: one is
killed while the other runs on and quits normally; the next start must still offer the
killed window's fight, and pruning must never take it.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fightdesk.engine.engine import Engine
from fightdesk.storage.autosave import Autosave
from fightdesk.storage.sessions import load_session, save_session

from .crash_driver import choose, fingerprint, new_session, perform
from .test_crash_recovery import gui_env, run_gui


class Window:
    """One running window, read line by line."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "fightdesk", *args], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self.proc.stdout is not None
        self._fd = self.proc.stdout.fileno()
        self._buffer = b""
        self.lines: list[str] = []

    def wait_for(self, wanted: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while wanted not in self.lines:
            ready, _, _ = select.select([self._fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                self.proc.kill()
                pytest.fail(f"the window never said {wanted}: {self.lines}")
            chunk = os.read(self._fd, 4096)
            if not chunk:
                pytest.fail(f"the window ended before {wanted}: {self.lines}")
            self._buffer += chunk
            while b"\n" in self._buffer:
                raw, _, self._buffer = self._buffer.partition(b"\n")
                self.lines.append(raw.decode())

    def end(self, sig: signal.Signals) -> int:
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout=30)
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()
        return code


def played(seed: int, steps: int) -> str:
    """The fight's fingerprint after ``steps`` actions of the seeded policy."""
    engine = Engine(new_session())
    for index in range(steps):
        perform(engine, choose(seed, index, engine), lambda: None)
    return fingerprint(engine.session)


def no_save(seed: int, steps: int) -> bool:
    engine = Engine(new_session())
    for index in range(steps):
        action = choose(seed, index, engine)
        if action[0] == "save":
            return False
        perform(engine, action, lambda: None)
    return True


@pytest.mark.slow
def test_a_window_killed_while_another_runs_is_offered_at_the_next_start(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    root = home / "data" / "fightdesk" / "autosave"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    save_session(new_session(), a)
    save_session(new_session(), b)
    seed_a = next(s for s in range(100) if no_save(s, 4))
    seed_b = next(s for s in range(seed_a + 1, 200) if no_save(s, 2))

    first = Window(gui_env(home, f"play:{seed_a}:4"), str(a))
    first.wait_for("IDLE")  # a's actions are done, none saved
    [a_folder] = [p for p in root.iterdir() if p.is_dir()]
    second = Window(gui_env(home, f"play:{seed_b}:2"), str(b))
    second.wait_for("IDLE")
    assert first.end(signal.SIGKILL) == -signal.SIGKILL
    assert second.end(signal.SIGTERM) == 0  # a normal quit: it writes state.json last

    # The killed window's fight is kept from pruning while it holds unsaved work.
    autosave = Autosave(root, keep_fights=0)
    autosave.attach(Engine(new_session()))  # a new fight prunes the folders
    autosave.mark_clean_exit()
    assert a_folder.is_dir(), "a's unsaved actions were pruned"

    lines, killed = run_gui(gui_env(home, "check"))
    assert not killed and "ASKED" in lines, lines
    [shown] = [x.split() for x in lines if x.startswith("SHOWN ")]
    assert shown[1] == played(seed_a, 4), "the killed window's fight did not come back"
    assert load_session(a).log == [], "the GM's file was never saved over"


# --- in process: several crashed fights, pruning ------------------------------------------


def crashed_fight(root: Path, note: str, age: float) -> str:
    """A fight whose window died after one action (its folder unlocked, never closed);
    its files made ``age`` seconds old."""
    from fightdesk.engine import commands as c

    saver = Autosave(root)
    engine = Engine(new_session())
    saver.attach(engine)
    assert engine.apply(c.Note(text=note)).ok
    fight_id = saver.fight_id
    assert fight_id is not None
    saver.detach()
    then = time.time() - age
    for child in (root / fight_id).iterdir():
        os.utime(child, (then, then))
    return fight_id


def test_every_crashed_fight_is_asked_about_newest_first(
    qtbot: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fightdesk.ui import recovery

    root = tmp_path / "autosave"
    older = crashed_fight(root, "the older window", age=100)
    newer = crashed_fight(root, "the newer window", age=10)
    asked: list[tuple[str, int, int]] = []

    def answer(parent: object, info: object, number: int = 1, total: int = 1) -> bool:
        fight_id = info.fight_id  # type: ignore[attr-defined]
        asked.append((fight_id, number, total))
        return fight_id == older  # declines the newer, restores the older

    monkeypatch.setattr(recovery, "ask_to_restore", answer)
    choice = recovery.choose_start(None, Autosave(root), None)
    assert asked == [(newer, 1, 2), (older, 2, 2)]
    assert choice is not None and choice.fight_id == older and choice.after_crash
    assert choice.session.log[-1].summary.endswith("the older window")
    # The declined one is not offered again; the restored one is, until a window keeps it.
    assert [info.fight_id for info in Autosave(root).crashed_fights()] == [older]


def test_a_crashed_fight_with_unsaved_work_is_never_pruned(tmp_path: Path) -> None:
    root = tmp_path / "autosave"
    kept = crashed_fight(root, "not saved anywhere", age=1000)
    declined = crashed_fight(root, "declined", age=900)
    Autosave(root).forget(declined)
    for _ in range(3):  # new fights, each pruning down to the newest one
        saver = Autosave(root, keep_fights=1)
        saver.attach(Engine(new_session()))
        saver.mark_clean_exit()
    assert (root / kept).is_dir() and not (root / declined).exists()
    assert [info.fight_id for info in Autosave(root).crashed_fights()] == [kept]
