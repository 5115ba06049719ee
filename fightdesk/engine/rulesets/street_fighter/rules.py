"""Street Fighter rules: the ruleset object the engine calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ruleset import Card, Resource, Ruleset, register

if TYPE_CHECKING:
    from ...model import Encounter, Fighter


class StreetFighter(Ruleset):
    id = "street-fighter"
    title = "Street Fighter"

    def is_out(self, fighter: Fighter) -> bool:
        return fighter.status.health <= 0

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        f = enc.fighters[fighter_id]
        s, st = f.sheet, f.status
        resources = (
            Resource("EP", st.ep + st.zen_ep, tooltip="Edge Points"),
            Resource("Chi", st.chi, s.chi),
            Resource("Willpower", st.willpower, s.willpower),
        )
        return Card(
            fighter_id=f.id, title=f.name, side=f.side, health=st.health, health_max=s.health,
            resources=resources, conditions=tuple(c.name for c in st.conditions),
            dice=tuple(str(d.face) for d in st.dice if d.state in ("ready", "held")),
            out=self.is_out(f),
        )


register(StreetFighter())
