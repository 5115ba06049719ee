"""The built-in rulesets: the one registry of ids, titles and where each one lives.

Every other list of rulesets (the session models' unions, ``fightdesk rulesets``, the New
Fight question, the library's New) is made from :data:`BUILT_IN`. The registry names
modules and never imports them at its own import: the session models import each
ruleset's data classes (``<package>.model``); the rules, commands and views load when
:func:`fightdesk.engine.ruleset.get_ruleset` first asks for the ruleset, so reading a file
does not import them.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple


class RulesetInfo(NamedTuple):
    """A built-in ruleset: its id, its title, one line on what it is, and its package."""

    id: str
    title: str
    blurb: str
    package: str

    @property
    def data_module(self) -> str:
        """Sheet, status, options and round state (the classes a session file holds)."""
        return f"{self.package}.model"

    @property
    def rules_module(self) -> str:
        """The module whose import registers the ruleset's rules."""
        return f"{self.package}.rules"


_HERE = __name__

BUILT_IN: tuple[RulesetInfo, ...] = (
    RulesetInfo(
        "street-fighter", "Street Fighter",
        "Storyteller d10 combat: action dice on phases 10..1, interrupts, Edge Points",
        f"{_HERE}.street_fighter"),
    RulesetInfo(
        "d100", "d100",
        "d100 strikes against parry, dodge, entangle or counterstrike; damage chart, armour",
        f"{_HERE}.d100"),
    RulesetInfo(
        "roll-under", "Roll-under d20",
        "d20 roll-under: Wisdom initiative, player-facing attack and defense, assists",
        f"{_HERE}.roll_under"),
    RulesetInfo(
        "ashes", "From the Ashes",
        "coin-flip challenges with advantage; speed, burst and defensive skills",
        f"{_HERE}.ashes"),
)

KNOWN_RULESETS: tuple[str, ...] = tuple(info.id for info in BUILT_IN)
BY_ID: dict[str, RulesetInfo] = {info.id: info for info in BUILT_IN}


def info(ruleset_id: str) -> RulesetInfo:
    """The registry entry of a built-in ruleset; KeyError names the known ids."""
    try:
        return BY_ID[ruleset_id]
    except KeyError:
        raise KeyError(
            f"unknown ruleset id {ruleset_id!r} (known: {', '.join(KNOWN_RULESETS)})"
        ) from None


def data_classes(ruleset_id: str) -> tuple[Any, Any, Any, Any]:
    """(Sheet, Status, Options, Round) of a built-in ruleset, from its data module."""
    module = importlib.import_module(info(ruleset_id).data_module)
    return module.SHEET, module.STATUS, module.OPTIONS, module.ROUND


def load(ruleset_id: str) -> None:
    """Import the rules of a built-in ruleset (they register themselves); unknown ids do nothing."""
    found = BY_ID.get(ruleset_id)
    if found is not None:
        importlib.import_module(found.rules_module)


def __getattr__(name: str) -> Any:
    if name == "StreetFighter":
        from .street_fighter.rules import StreetFighter

        return StreetFighter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BUILT_IN", "BY_ID", "KNOWN_RULESETS", "RulesetInfo", "StreetFighter", "data_classes",
           "info", "load"]
