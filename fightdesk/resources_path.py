"""Find fightdesk's bundled files (demo fight, catalogues, icons) wherever it runs from.

The top-level ``resources/`` folder is installed as the package ``fightdesk.resources``
(see setup.py), so an installed wheel and an editable install both find it as that
package's folder. A plain source checkout on ``PYTHONPATH`` and a PyInstaller
bundle do not always have that package, so the folder is also looked up next to the
code and in the bundle. Imports neither Qt nor pydantic.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

RESOURCE_PACKAGE = "fightdesk.resources"
# The demo fight the app opens the very first time, and its picture (storage/picture.py).
DEMO_FILE = "demo_fight.json"
# (In a folder of its own: every demo*.json beside the demo is a demo fight.)
DEMO_PICTURE = ("pictures", "demo_fight.json")


class MissingResource(FileNotFoundError):
    """A bundled file is not where the installation should have put it (a packaging bug)."""


def _candidate_folders() -> list[Path]:
    folders: list[Path] = []
    # The package's folder, as importlib.resources would find it, without importing
    # importlib.resources (a noticeable part of start-up).
    try:
        spec = importlib.util.find_spec(RESOURCE_PACKAGE)
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        folders.extend(Path(location) for location in spec.submodule_search_locations)
    # A source checkout: fightdesk/ and resources/ side by side.
    folders.append(Path(__file__).resolve().parent.parent / "resources")
    # A PyInstaller bundle unpacks data files under sys._MEIPASS (see packaging/fightdesk.spec).
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        folders.append(Path(bundle) / "fightdesk" / "resources")
    return folders


@cache
def resource_dir() -> Path:
    """The folder holding the bundled resources (the first candidate that exists)."""
    candidates = _candidate_folders()
    for folder in candidates:
        if folder.is_dir():
            return folder
    looked = ", ".join(str(f) for f in candidates)
    raise MissingResource(f"fightdesk's resource folder is missing (looked in: {looked})")


def resource_path(*parts: str) -> Path:
    """The path of one bundled file, e.g. ``resource_path("demo_fight.json")``."""
    path = resource_dir().joinpath(*parts)
    if not path.exists():
        raise MissingResource(f"bundled file {'/'.join(parts)!r} is missing from {resource_dir()}")
    return path
