"""Where fightdesk keeps the GM's files (platformdirs; tests point these at temp dirs).

A folder that cannot be made or written, or that other users could write to (then
anyone could plant a session or a campaign in it), is refused with a
:class:`FolderProblem` that says why; the window then runs without what needs it
(autosave, the campaign library, remembered settings) and says so once.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

APP_NAME = "fightdesk"


class FolderProblem(OSError):
    """One of fightdesk's own folders cannot be used; ``strerror`` names it and why."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(errno.EACCES, f"{path}: {reason}", str(path))
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return str(self.strerror)


def config_dir() -> Path:
    """Settings: window geometry, dock layout, recent files (FolderProblem if unusable)."""
    from platformdirs import user_config_path

    return checked_folder(user_config_path(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The GM's data: campaign libraries, autosave journal, round snapshots (FolderProblem
    if unusable)."""
    from platformdirs import user_data_path

    return checked_folder(user_data_path(APP_NAME, appauthor=False))


def log_dir() -> Path:
    """Where the window logs unexpected errors (ui/error_report.py; FolderProblem if
    unusable)."""
    from platformdirs import user_log_path

    return checked_folder(user_log_path(APP_NAME, appauthor=False))


def autosave_dir() -> Path:
    """Where autosave keeps every fight's folder (storage/autosave.py)."""
    return data_dir() / "autosave"


def checked_folder(path: Path) -> Path:
    """Make ``path`` if needed and return it, or raise FolderProblem saying why not."""
    problem = folder_problem(path)
    if problem is not None:
        raise FolderProblem(path, problem)
    return path


def folder_problem(path: Path) -> str | None:
    """Why fightdesk cannot keep its files in ``path`` (None: it can)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create the folder ({_os_reason(exc)})"
    if not path.is_dir():
        return "this is not a folder"
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        return "cannot read and write the folder (permission denied)"
    if os.name != "posix":
        return None
    for folder in (path, path.parent):
        try:
            mode = folder.stat().st_mode
        except OSError as exc:
            return f"cannot read {folder} ({_os_reason(exc)})"
        # Sticky folders like /tmp are fine: others cannot rename or delete our entries.
        if mode & stat.S_IWOTH and not mode & stat.S_ISVTX:
            return (f"other users can write to {folder}, so fightdesk does not keep "
                    "its files there (make it writable only by you)")
    if path.stat().st_uid != os.getuid():
        return "the folder belongs to another user"
    return None


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "read-only file system"
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    return exc.strerror or str(exc)
