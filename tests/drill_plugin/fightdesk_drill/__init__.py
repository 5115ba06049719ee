"""The drill: a test-only ruleset plugin in its own distribution (tests/drill_plugin).

Its package has the shape every ruleset has (docs/rulesets/README.md#adding-a-ruleset):
``model`` (the data classes), ``rules`` (commands in, changes out), ``views`` (what the
window shows), ``autopilot`` (the simulator's table), and this registration, named by
the entry point."""

from __future__ import annotations

from fightdesk.engine.rulesets import RulesetInfo

RULESET = RulesetInfo(
    "drill", "Drill",
    "a test-only plugin: Wisdom initiative in two sections, strikes with assists, feints",
    __name__, health=("hp", "max_hp"),
    sections=(("Scores", ("attack", "defense", "wisdom", "max_hp", "assists")),),
    rules="rules:Drill", views="views:DrillViews", autopilot="autopilot:DrillAutopilot")
