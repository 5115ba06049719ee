"""The drill's views: its action forms, their previews and the commands they make; the
rest is the shared turn order's."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from fightdesk.engine import commands as c
from fightdesk.engine.odds import d20_at_or_under
from fightdesk.engine.ruleset import ActionForm, FormField, Odds, Preview
from fightdesk.engine.turn_ruleset import TurnViews

from .rules import Feint, Strike


class DrillViews(TurnViews):
    """What the widgets show of a drill fight."""

    role_labels: ClassVar[dict[str, str]] = {
        "act": "Act", "react": "Brace", "assist": "Assist", "gm": "GM"}

    def action_forms(self, enc: Any, fighter_id: str) -> tuple[ActionForm, ...]:
        from fightdesk.engine.turns import current_fighter

        targets = tuple((o, enc.name_of(o)) for o in enc.order if o != fighter_id)
        mine = enc.state.stage == "turns" and current_fighter(enc.state.turns) == fighter_id
        why = "" if mine else "not this fighter's turn"
        target = FormField("target", "Target", "choice", targets,
                           default=targets[0][0] if targets else None)
        return (ActionForm("act", "Strike", (target,), enabled=not why, reason=why),
                ActionForm("feint", "Feint (two coins)", (target,), enabled=not why, reason=why),
                self.hold_form(enc, fighter_id),
                ActionForm("react", "Brace", enabled=False,
                           reason="brace on the roll panel while a strike waits", role="react"))

    def preview(self, enc: Any, form_id: str, fighter_id: str, values: dict[str, Any]) -> Preview:
        if form_id == "hold-turn":
            return super().preview(enc, form_id, fighter_id, values)
        foe = values.get("target")
        if foe not in enc.fighters:
            return Preview(error="choose a target")
        if form_id == "feint":
            return Preview(lines=("Two heads: the target loses 1 HP",),
                           odds=(Odds("two heads", Fraction(1, 4)),))
        me = enc.fighters[fighter_id]
        target = me.sheet.attack - (enc.fighters[foe].sheet.defense - 10)
        return Preview(lines=(f"{target} or less on a d20, before help",),
                       odds=(Odds("hit", d20_at_or_under(target)),))

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> c.Command:
        if form_id == "act":
            return Strike(fighter_id=fighter_id, target_id=str(values.get("target")))
        if form_id == "feint":
            return Feint(fighter_id=fighter_id, target_id=str(values.get("target")))
        return super().build_command(form_id, fighter_id, values)
