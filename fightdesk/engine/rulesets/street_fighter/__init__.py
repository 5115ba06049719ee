"""The ``street-fighter`` ruleset. Its rules, and how fightdesk reads them:
docs/rulesets/street-fighter.md.

The rules (``rules.py``) load on first use; ``model.py`` alone holds the data classes."""

from __future__ import annotations

from typing import Any

from .. import RulesetInfo

RULESET = RulesetInfo(
    "street-fighter", "Street Fighter",
    "Storyteller d10 combat: action dice on phases 10..1, interrupts, Edge Points",
    __name__, order=0, health=("health", "health"),
    # docs/rulesets/street-fighter.md#fighter-sheet
    sections=(
        ("Attributes", ("strength", "dexterity", "stamina", "charisma", "manipulation",
                        "appearance", "perception", "intelligence", "wits")),
        ("Abilities", ("arena", "style_lore", "insight", "intimidation", "subterfuge")),
        ("Techniques", ("punch", "kick", "block", "grab", "athletics", "focus")),
        ("Health, Chi and Willpower", ("health", "chi", "willpower", "weenie")),
    ),
    catalogue=f"{__name__}.catalogue:load_catalogue", odds=True,
    rules="rules:StreetFighter", views="views:StreetFighterViews",
    autopilot="autopilot:StreetFighterAutopilot")


def __getattr__(name: str) -> Any:
    if name == "StreetFighter":
        from .rules import StreetFighter

        return StreetFighter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["StreetFighter"]
