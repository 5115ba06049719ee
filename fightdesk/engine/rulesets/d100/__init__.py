"""The d100 ruleset: strikes against parry, dodge, entangle or counterstrike
(docs/rulesets/d100.md)."""
