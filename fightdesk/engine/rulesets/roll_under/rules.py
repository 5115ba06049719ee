"""The roll-under ruleset object the engine calls. Its rules are not built yet: a roll-under fight
opens, takes fighters and edits them on the shared turn order, but cannot be started or
played (docs/rulesets/README.md)."""

from __future__ import annotations

from ... import rulesets
from ...ruleset import register
from ...turn_ruleset import TurnOrderRuleset


class RollUnder(TurnOrderRuleset):
    id = "roll-under"
    title = rulesets.info("roll-under").title
    rules_built = False
    # Injuries outlast one fight.
    lasting_status = ("hp",)

    def rested_values(self, sheet: object) -> dict[str, object]:
        """Rested: full HP and every assist back."""
        values = super().rested_values(sheet)
        values["assists"] = getattr(sheet, "assists", 0)
        return values


register(RollUnder())
