"""The built-in rulesets, each loaded (and registered) on first use.

The session model needs only each ruleset's data classes (``<ruleset>.model``); the rules,
commands and views load when :func:`fightdesk.engine.ruleset.get_ruleset` first asks for
the ruleset, so reading a file does not import them.
"""

from __future__ import annotations

import importlib
from typing import Any

# Ruleset id -> the module whose import registers it.
BUILT_IN = {"street-fighter": "fightdesk.engine.rulesets.street_fighter.rules"}


def load(ruleset_id: str) -> None:
    """Import the rules of a built-in ruleset (they register themselves); unknown ids do nothing."""
    module = BUILT_IN.get(ruleset_id)
    if module is not None:
        importlib.import_module(module)


def __getattr__(name: str) -> Any:
    if name == "StreetFighter":
        from .street_fighter.rules import StreetFighter

        return StreetFighter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BUILT_IN", "StreetFighter", "load"]
