"""The command modules the street-fighter rules and views use, loaded at the first
command rather than when a fight is shown (see engine/lazy.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ... import commands as core
    from . import commands as sf
else:
    from ...lazy import lazy_module

    core = lazy_module("fightdesk.engine.commands")
    sf = lazy_module("fightdesk.engine.rulesets.street_fighter.commands")

__all__ = ["core", "sf"]
