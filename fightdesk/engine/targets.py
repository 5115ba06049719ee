"""Where an action form's Target starts: on the fighter the GM most likely means, so
one quick confirm never hits a teammate.

An interrupt or other reaction starts on the fighter whose move it reacts to; any
other action on the first enemy still standing (the other side: PCs and allies against
enemies), else on the first fighter still standing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Encounter
    from .ruleset import ActionForm, Ruleset

PARTY = ("pc", "ally")


def default_target(ruleset: Ruleset, enc: Encounter, fighter_id: str, role: str,
                   candidates: list[str]) -> str | None:
    """The candidate a form of ``role`` for ``fighter_id`` should start on, or None to
    keep the ruleset's own default."""
    fighters = enc.fighters
    if role == "react":
        under = ruleset.views.attack_under_way(enc)
        if under is not None and under[0] != fighter_id and under[0] in candidates:
            return under[0]
    me = fighters.get(fighter_id)
    standing = [c for c in candidates
                if c in fighters and c != fighter_id and not ruleset.rules.is_out(fighters[c])]
    if me is not None:
        mine = me.side in PARTY
        enemy = next((c for c in standing if (fighters[c].side in PARTY) != mine), None)
        if enemy is not None:
            return enemy
    return standing[0] if standing else None


def with_default_targets(ruleset: Ruleset, enc: Encounter, fighter_id: str,
                         forms: tuple[ActionForm, ...]) -> tuple[ActionForm, ...]:
    """The forms, each fighter Target starting where :func:`default_target` says. A
    target field whose default is no fighter ("nobody") is the ruleset's deliberate
    choice and stays."""
    out = []
    for form in forms:
        fields = []
        for fld in form.fields:
            if fld.name == "target" and fld.kind == "choice" and fld.default in enc.fighters:
                keys = [key for key, _ in fld.choices]
                chosen = default_target(ruleset, enc, fighter_id, form.role, keys)
                if chosen is not None:
                    fld = fld._replace(default=chosen)
            fields.append(fld)
        out.append(form._replace(fields=tuple(fields)))
    return tuple(out)
