"""Modules that load on first use, so that what only acting needs stays off the start-up.

The command classes are the case: showing a fight never makes one, and their 31 pydantic
classes cost about 7 ms to define. The window loads them right after the fight is on
screen (:func:`load_waiting`), so the GM's first click does not wait either.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

_waiting: list[ModuleType] = []


def lazy_module(name: str) -> ModuleType:
    """Module ``name``, run when one of its attributes is first read (importlib's
    ``LazyLoader``); a module already imported is returned as it is."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    _waiting.append(module)
    return module


def load_waiting() -> None:
    """Run every lazy module not run yet."""
    while _waiting:
        module = _waiting.pop(0)
        getattr(module, "__doc__", None)  # reading any attribute runs it
