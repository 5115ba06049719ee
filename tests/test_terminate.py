"""SIGTERM (logout, shutdown) is a clean quit, not a crash: nothing is asked,
the autosave keeps the fight, and the next start reopens it without offering to restore."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                     ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")):
        env[var] = str(home / sub)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop("FIGHTDESK_STARTUP_PROBE", None)
    return env


def _state(home: Path) -> dict | None:
    found = list((home / "data").rglob("autosave/state.json"))
    if not found:
        return None
    try:
        return json.loads(found[0].read_text())
    except ValueError:  # being written
        return None


def _snapshots(home: Path) -> list[Path]:
    return list((home / "data").rglob("autosave/*/base-*.json"))


@pytest.mark.slow
def test_sigterm_quits_cleanly_and_the_next_start_reopens_the_fight(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "fightdesk"], env=_env(tmp_path), cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            state = _state(tmp_path)
            if state and state.get("fight_id") and _snapshots(tmp_path):
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the demo fight was never autosaved: {proc.communicate(timeout=5)}")
        state = _state(tmp_path)
        assert state is not None and state["clean_exit"] is False  # running: not clean yet
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err.decode()
    state = _state(tmp_path)
    assert state is not None and state["clean_exit"] is True

    from fightdesk.storage.autosave import Autosave

    [root] = [p.parent for p in (tmp_path / "data").rglob("autosave/state.json")]
    info = Autosave(root).recoverable()
    assert info is not None and info.clean_exit and not info.crashed
