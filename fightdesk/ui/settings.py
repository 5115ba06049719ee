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


def apply_size_limit() -> None:
    """The largest file fightdesk reads (``files/max_megabytes`` in window.ini; 50 MB
    when unset): files over it are refused before they are read."""
    from fightdesk.storage.files import set_size_limit

    value = app_settings().value(SIZE_LIMIT_KEY)
    try:
        megabytes = float(value) if value is not None else 0.0
    except (TypeError, ValueError):
        megabytes = 0.0
    set_size_limit(int(megabytes * 1024 * 1024) if megabytes > 0 else None)
