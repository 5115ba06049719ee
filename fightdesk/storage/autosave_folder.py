"""The autosave folder's names (docs/autosave.md "Files") and the lock that says which
fightdesk window keeps a fight. Apart from autosave.py, which loads pydantic: a start-up
reads the folder's state and the last fight's picture before anything else (picture.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path

STATE_FILE = "state.json"
#: In each fight's folder: that fight's own state (its file, whether its window closed
#: normally), so a crash of one window is found even when another window ran on and
#: wrote STATE_FILE last.
FIGHT_STATE = "fight.json"
LOCK_FILE = "lock"
#: A fight's folder: ``20260601-201512-3fa9c2``.
FIGHT_ID = re.compile(r"^\d{8}-\d{6}-[0-9a-f]{6}$")
#: A snapshot; its generation is the group.
BASE = re.compile(r"^base-(\d{6})\.json$")
#: The files that hold the fight, snapshots and journals; the generation is the group.
RECORD = re.compile(r"^(?:base|journal)-(\d{6})\.jsonl?$")


class FightLock:
    """An exclusive lock on a fight folder while a fightdesk window keeps it.

    The operating system drops it when the process ends in any way (a crash, a kill),
    so a folder whose lock can be taken is not open anywhere. Best effort: where the
    lock file cannot be made, autosave works on without it.
    """

    def __init__(self) -> None:
        self._fd: int | None = None

    def take(self, folder: Path) -> bool:
        """Lock ``folder`` (releasing any folder held before); False if another holds it."""
        self.release()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return True
        if not _try_lock(fd):
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)  # closing the file drops the lock
            self._fd = None


def _try_lock(fd: int) -> bool:
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def in_use(folder: Path) -> bool:
    """True while another fightdesk window (another process or Autosave) keeps ``folder``."""
    probe = FightLock()
    lock = folder / LOCK_FILE
    if not lock.exists():
        return False
    try:
        return not probe.take(folder)
    finally:
        probe.release()
