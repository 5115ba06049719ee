"""Where fightdesk keeps the GM's files (platformdirs; tests point these at temp dirs)."""

from __future__ import annotations

from pathlib import Path

APP_NAME = "fightdesk"


def config_dir() -> Path:
    """Settings: window geometry, dock layout, recent files."""
    from platformdirs import user_config_path

    return user_config_path(APP_NAME, appauthor=False, ensure_exists=True)


def data_dir() -> Path:
    """The GM's data: campaign libraries, autosave journal, round snapshots."""
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False, ensure_exists=True)
