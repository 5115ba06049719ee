"""The ashes ruleset: coin-flip challenges with advantage, speed and burst
(docs/rulesets/ashes.md)."""

from __future__ import annotations

from .. import RulesetInfo

RULESET = RulesetInfo(
    "ashes", "From the Ashes",
    "coin-flip challenges with advantage; speed, burst and defensive skills",
    __name__, order=3, health=("hp", "max_hp"), odds=True,
    rules="rules:Ashes", views="views:AshesViews", autopilot="autopilot:AshesAutopilot")
