"""The ashes ruleset object the engine calls. Its rules are not built yet: a ashes fight
opens, takes fighters and edits them on the shared turn order, but cannot be started or
played (docs/rulesets/README.md)."""

from __future__ import annotations

from ... import rulesets
from ...ruleset import register
from ...turn_ruleset import TurnOrderRuleset


class Ashes(TurnOrderRuleset):
    id = "ashes"
    title = rulesets.info("ashes").title
    rules_built = False
    # Injuries outlast one fight.
    lasting_status = ("hp",)


register(Ashes())
