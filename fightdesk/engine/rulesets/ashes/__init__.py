"""The ashes ruleset: coin-flip challenges with advantage, speed and burst
(docs/rulesets/ashes.md)."""
