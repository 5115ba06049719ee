"""The interrupt stack's rows, in resolution order. (docs/rulesets/street-fighter.md)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....ruleset import (
    StackRow,
)
from ..model import Move
from ..stack import move_title
from ..state import (
    name,
    resolution_order,
)

if TYPE_CHECKING:
    from ....model import Encounter



def stack_rows(enc: Encounter) -> tuple[StackRow, ...]:
    rows: list[StackRow] = []
    working = enc.state.damage.move_id if enc.state.damage is not None else None
    for move in resolution_order(enc):
        rows.append(StackRow(
            id=str(move.id), fighter_id=move.fighter_id, fighter=name(enc, move.fighter_id),
            action=move_title(move) + (f" -> {name(enc, move.target_id)}"
                                       if move.target_id else ""),
            source=f"held ({move.die_face})" if move.held_die else str(move.die_face),
            speed=move.speed, spent=move.ep_speed + move.cost_ep, cost=_cost_text(move),
            note=_move_note(enc, move, working), reacts_to=_reacts_to(enc, move)))
    return tuple(rows)


def _reacts_to(enc: Encounter, move: Move) -> str:
    """Which move an interrupt interrupts, in words ("Brannock's Fierce")."""
    if move.interrupts is None:
        return ""
    other = next((m for m in enc.state.stack if m.id == move.interrupts), None)
    if other is None:
        return ""
    return f"{name(enc, other.fighter_id)}'s {move_title(other)}"


def _cost_text(move: Move) -> str:
    parts: list[str] = []
    if move.interrupts is not None:
        if move.cost_ep:
            parts.append(f"1 EP (die {move.die_face} is not on the phase)")
        elif move.held_die:
            parts.append("free (held die)")
        elif move.maneuver is not None and move.maneuver.abort and move.die_face:
            parts.append("free (die on the phase or an abort)")
        else:
            parts.append("free (die on the phase)")
    else:
        parts.append("the action")
    if move.ep_speed:
        parts.append(f"{move.ep_speed} EP for +{2 * move.ep_speed} speed")
    return "; ".join(parts)


def _move_note(enc: Encounter, move: Move, working: int | None) -> str:
    if move.lost:
        return f"lost: {move.lost_why}"
    if move.resolved:
        return "resolved"
    if working == move.id:
        pending = enc.state.pending
        return "resolving" + (f": {pending.prompt}" if pending else "")
    if move.interrupts is not None:
        try:
            victim = next(m for m in enc.state.stack if m.id == move.interrupts)
        except StopIteration:
            return ""
        return (f"interrupts {name(enc, victim.fighter_id)}'s {move_title(victim)} "
                f"(speed {victim.speed_base} without EP)")
    return "acts"
