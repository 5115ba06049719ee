"""A full disk and a read-only file system for real: a small tmpfs mounted for the test.

test_journal.py simulates both with a stand-in ``os`` module everywhere; where the test
runs as root and may mount (CI's container does), these run the same storage code
against the kernel's own ENOSPC and EROFS. Elsewhere they are skipped (the simulated
tests still run).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.autosave import Autosave
from fightdesk.storage.files import FileProblem
from fightdesk.storage.sessions import demo_session, load_session, save_session


def _mount(*args: str) -> bool:
    try:
        done = subprocess.run(["mount", *args], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs of this test's own (skipped where mounting is not allowed)."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.name != "posix" or os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", "size=1m",
                                                               "tmpfs", str(where)):
        pytest.skip("cannot mount a small file system here (the simulated tests still run)")
    try:
        yield where
    finally:
        _mount("-o", "remount,rw", str(where))
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def _fill(disk: Path) -> Path:
    """Fill the disk to the last byte; returns the filler to delete for space again."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as handle:
        for chunk in (4096, 1):  # then the last few bytes too
            with contextlib.suppress(OSError):
                while True:
                    handle.write(b"\0" * chunk)
    return filler


def _hp(engine: Engine, value: int) -> None:
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=value)).ok


def test_full_disk_for_real(disk: Path) -> None:
    heard: list[tuple[bool, str]] = []
    saver = Autosave(disk / "autosave", on_status=lambda ok, text: heard.append((ok, text)))
    engine = Engine(demo_session())
    saver.attach(engine)
    _hp(engine, 6)
    saved = disk / "fight.json"
    save_session(engine.session, saved)
    good = load_session(saved)
    filler = _fill(disk)
    # The journal's last page may still have room for a few lines: act until it is full.
    for n in range(200):
        _hp(engine, 2 + n % 4)  # the action happens whatever the disk says
        if heard:
            break
    assert heard and heard[-1][0] is False and "the disk is full" in heard[-1][1]
    with pytest.raises(FileProblem, match="the disk is full"):
        save_session(engine.session, saved)
    assert load_session(saved) == good  # the GM's file is untouched
    Autosave(disk / "autosave").restore()  # the last good autosave still reads back
    filler.unlink()
    _hp(engine, 7)
    assert heard[-1][0] is True and saver.healthy
    assert Autosave(disk / "autosave").restore() == engine.session


def test_read_only_file_system_for_real(disk: Path) -> None:
    """The disk turns read-only between two starts (a kernel remount needs the fight's
    lock file closed, so the first window is gone): the next window plays on in memory,
    says why, and catches up when the disk is writable again."""
    engine = Engine(demo_session())
    first = Autosave(disk / "autosave")
    first.attach(engine)
    _hp(engine, 6)
    saved = disk / "fight.json"
    save_session(engine.session, saved)
    first.detach()
    assert _mount("-o", "remount,ro", str(disk))
    heard: list[tuple[bool, str]] = []
    saver = Autosave(disk / "autosave", on_status=lambda ok, text: heard.append((ok, text)))
    restored = Engine(saver.restore())
    saver.attach(restored)
    _hp(restored, 5)
    assert heard and heard[-1][0] is False and "read-only" in heard[-1][1].lower()
    with pytest.raises(FileProblem, match=r"(?i)read-only"):
        save_session(restored.session, saved)
    assert load_session(saved).encounter.fighters["kaede"].status.health == 6
    assert _mount("-o", "remount,rw", str(disk))
    _hp(restored, 4)
    assert heard[-1][0] is True
    assert Autosave(disk / "autosave").restore() == restored.session
