"""What the turn-order rulesets' tests ask of a hold: is it on offer, and if not, why."""
from __future__ import annotations

from fightdesk.engine.engine import Engine


def hold_offered(engine: Engine, fid: str) -> str:
    """"" when Hold is on offer to ``fid`` (the form enabled and a legal command), else
    the form's reason; the two always agree."""
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, fid)
                if f.id == "hold-turn")
    legal = any(o.form_id == "hold-turn" and o.fighter_id == fid
                for o in engine.ruleset.autopilot.legal_commands(engine.encounter))
    assert form.enabled == legal
    return "" if form.enabled else form.reason
