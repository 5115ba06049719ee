"""The d100 ruleset object the engine calls. Its rules are not built yet: a d100 fight
opens, takes fighters and edits them on the shared turn order, but cannot be started or
played (docs/rulesets/README.md)."""

from __future__ import annotations

from ... import rulesets
from ...ruleset import register
from ...turn_ruleset import TurnOrderRuleset


class D100(TurnOrderRuleset):
    id = "d100"
    title = rulesets.info("d100").title
    rules_built = False
    # Injuries outlast one fight.
    lasting_status = ("hp",)


register(D100())
