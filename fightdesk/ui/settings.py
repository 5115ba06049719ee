"""Window settings (geometry, dock layout, recent files) in an ini file in the config dir.

An ini file rather than the platform's registry, so the GM's settings sit next to the
rest of fightdesk's files and tests (which point the config dir at a temp folder) never
touch a real desktop's settings.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

from fightdesk import paths

MAX_RECENT = 8


def app_settings() -> QSettings:
    """The window's settings; where the settings folder cannot be used (read-only,
    refused) they still work for this run but are not kept (``settings_problem`` says why)."""
    try:
        file = paths.config_dir() / "window.ini"
    except paths.FolderProblem:
        # A path that cannot exist: nothing is read from or written to the refused folder.
        file = Path(os.devnull) / "window.ini"
    return QSettings(str(file), QSettings.Format.IniFormat)


def settings_problem() -> str | None:
    """Why the window's settings cannot be kept, or None."""
    try:
        paths.config_dir()
    except paths.FolderProblem as problem:
        return str(problem)
    return None


def recent_files() -> list[Path]:
    value = app_settings().value("recent/files", [])
    if isinstance(value, str):  # QSettings gives a lone string for a one-item list
        value = [value]
    if not isinstance(value, list):
        return []
    return [Path(str(v)) for v in value if str(v)]


def remember_file(path: Path) -> list[Path]:
    """Put ``path`` first in the recent list; returns the new list."""
    path = path.resolve()
    files = [path, *(p for p in recent_files() if p != path)][:MAX_RECENT]
    settings = app_settings()
    settings.setValue("recent/files", [str(p) for p in files])
    settings.sync()
    return files


SIZE_LIMIT_KEY = "files/max_megabytes"


def apply_size_limit() -> str | None:
    """The largest file fightdesk reads (``files/max_megabytes`` in window.ini; else
    ``FIGHTDESK_MAX_FILE_MB`` in the environment; else 50 MB): files over it are refused
    before they are read. A value that is not a number of megabytes in range is not
    used: returns the one line that says so (None when all is well)."""
    from fightdesk.storage.files import megabytes_limit, set_size_limit, size_limit_problem

    value = app_settings().value(SIZE_LIMIT_KEY)
    if value is None or (isinstance(value, str) and not value.strip()):
        set_size_limit(None)
        return size_limit_problem()
    limit, problem = megabytes_limit(value, f"window.ini {SIZE_LIMIT_KEY}")
    set_size_limit(limit)
    if limit is None:
        return problem
    return None
