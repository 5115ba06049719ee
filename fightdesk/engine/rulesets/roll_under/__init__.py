"""The roll-under ruleset: d20 at or under a target, Wisdom initiative, player-facing
rolls and assists (docs/rulesets/roll-under.md)."""

from __future__ import annotations

from .. import RulesetInfo

RULESET = RulesetInfo(
    "roll-under", "Roll-under d20",
    "d20 roll-under: Wisdom initiative, player-facing attack and defense, assists",
    __name__, order=2, health=("hp", "max_hp"), odds=True,
    rules="rules:RollUnder", views="views:RollUnderViews", autopilot="autopilot:RollUnderAutopilot")
