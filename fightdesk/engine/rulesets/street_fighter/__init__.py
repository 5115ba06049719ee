"""The ``street-fighter`` ruleset. Its rules, and how fightdesk reads them:
docs/rulesets/street-fighter.md.

The rules (``rules.py``) load on first use; ``model.py`` alone holds the data classes."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "StreetFighter":
        from .rules import StreetFighter

        return StreetFighter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["StreetFighter"]
