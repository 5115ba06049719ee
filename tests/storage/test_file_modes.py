"""Saved files get the permissions any new file of the GM's gets: mkstemp's
owner-only mode must not leak into sessions and exports."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from fightdesk.storage.files import atomic_write_text
from fightdesk.storage.sessions import demo_session, save_session

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_a_new_file_follows_the_umask(tmp_path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        target = tmp_path / "fight.json"
        save_session(demo_session(), target)
    finally:
        os.umask(old)
    assert _mode(target) == 0o666 & ~mask


def test_a_saved_over_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "notes.md"
    target.write_text("old\n")
    target.chmod(0o640)
    old = os.umask(0o022)
    try:
        atomic_write_text(target, "new\n")
    finally:
        os.umask(old)
    assert target.read_text() == "new\n"
    assert _mode(target) == 0o640
