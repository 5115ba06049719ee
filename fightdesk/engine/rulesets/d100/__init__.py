"""The d100 ruleset: strikes against parry, dodge, entangle or counterstrike
(docs/rulesets/d100.md)."""

from __future__ import annotations

from .. import RulesetInfo

RULESET = RulesetInfo(
    "d100", "d100",
    "d100 strikes against parry, dodge, entangle or counterstrike; damage chart, armour",
    __name__, order=1, health=("hp", "max_hp"), odds=True,
    rules="rules:D100", views="views:D100Views", autopilot="autopilot:D100Autopilot")
