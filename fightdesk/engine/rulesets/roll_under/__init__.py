"""The roll-under ruleset: d20 at or under a target, Wisdom initiative, player-facing
rolls and assists (docs/rulesets/roll-under.md)."""
