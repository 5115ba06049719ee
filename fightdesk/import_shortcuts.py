"""Two shortcuts around work PySide6 and pydantic do on import that fightdesk never uses.

Both cut the window's start-up (benchmarks/startup.py; docs/startup.md), and both step
aside by themselves when the library they work around is not the version they know.
Only the window uses them (``fightdesk.app``); the command line and the tests import the
libraries as they come.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Iterable

# pydantic minor versions whose plugin loader is known to be imported only for
# ``get_plugins`` (tests/test_import_shortcuts.py checks the installed one).
PYDANTIC_KNOWN = ((2, 11), (2, 14))


def skip_pyside_source_scan() -> None:
    """Spare every later import PySide6's reading of its source file.

    Once loaded, PySide6 runs a hook after each import that reads the new module's whole
    source (``inspect.getsource``) to learn whether it mentions PySide6, so that it can
    honour a ``from __feature__ import ...`` in it. fightdesk uses no ``__feature__``
    selection, so the answer never matters; the reading cost about 25 ms of every start
    (pydantic alone is 200 source files). Each module is taken as a PySide6 user, which
    gives it the default feature set, as the hook would. Without that hook (another
    PySide6 version), nothing changes. Call it once PySide6 is imported.
    """
    feature = sys.modules.get("shibokensupport.feature")
    if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
        feature._mod_uses_pyside = _uses_pyside  # type: ignore[attr-defined]  # a private hook


def _uses_pyside(module: object) -> bool:
    return True


def skip_pydantic_plugin_lookup() -> None:
    """No third-party pydantic plugins in the GM's window, and no cost for looking.

    Sets ``PYDANTIC_DISABLE_PLUGINS=__all__`` (pydantic's own switch) unless the user set
    it. pydantic then never looks for plugins, yet its plugin loader still imports
    ``importlib.metadata`` (and the ``email`` package under it), about 9 ms of the
    start, only to be told there are none. With every plugin off, the loader is replaced
    by one that says so at once, which is all pydantic asks of it. Call it before
    pydantic is imported; it does nothing if pydantic is loaded already, if the user
    chose plugins, or if pydantic is not a version known to ask only that.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    name = "pydantic.plugin._loader"
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] != "__all__" or name in sys.modules:
        return
    if "pydantic.main" in sys.modules or not _known_pydantic():
        return
    loader = types.ModuleType(name, "pydantic's plugin loader while every plugin is off.")
    loader.get_plugins = _no_plugins  # type: ignore[attr-defined]
    sys.modules[name] = loader


def _no_plugins() -> Iterable[object]:
    return ()


def _known_pydantic() -> bool:
    try:
        from pydantic.version import VERSION  # light: pydantic_core, which loads anyway
    except ImportError:
        return False
    try:
        major, minor = (int(part) for part in VERSION.split(".")[:2])
    except ValueError:
        return False
    low, high = PYDANTIC_KNOWN
    return low <= (major, minor) <= high
