"""What one move does when its turn on the stack comes: maneuvers, blocks, holds, and
the actions that are not maneuvers (concentrate, intimidate, deceive, break free)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .damage import start_damage
from .effects import is_round_effect, start_round_effect
from .specials import (
    break_free,
    deceive,
    intimidate,
    start_concentration,
    stunning_shout,
)
from .stack import end_block, move_title
from .state import (
    can_use_ep,
    is_out,
    move_by_id,
    name,
    plural,
    sheet,
    status,
    status_path,
    update_move,
)

if TYPE_CHECKING:
    from ...ruleset import Context
    from .model import Move


def resolve_move(ctx: Context, move: Move) -> None:
    enc = ctx.enc
    fid = move.fighter_id
    who = name(enc, fid)
    title = move_title(move)
    block = status(enc, fid).block
    if block is not None and block.move_id != move.id:
        # A block that interrupted the fighter's own pending move ends when that move goes
        # on (docs/rulesets/street-fighter.md#blocks).
        end_block(ctx, fid, f"acts to finish {title}")
    ctx.say(f"{who}'s {title} resolves (speed {move.speed})", fighter_id=fid, kind="resolve",
            maneuver=title, speed=move.speed)
    if move.interrupted and move.maneuver is not None and move.maneuver.move > 0:
        ctx.say(f"{who} may finish the movement of the {title} after the interruption",
                fighter_id=fid, kind="note")
    target = move.target_id
    if target is not None and is_out(enc, target):
        ctx.say(f"{who}'s {title} finds no target: {name(enc, target)} is out of the fight",
                fighter_id=fid, kind="note")
        finish_move(ctx, move, landed=False)
        return
    if move.action == "concentrate":
        assert move.concentration is not None and move.tn is not None
        start_concentration(ctx, fid, move.concentration, move.tn, move.id)
    elif move.action == "intimidate" and target:
        if intimidate(ctx, fid, target, opening=False, move_id=move.id):
            return  # the target's player is asked for their roll; the answer finishes it
    elif move.action == "deceive" and target:
        if deceive(ctx, fid, target, opening=False, move_id=move.id):
            return
    elif move.action == "break-free" and target:
        if break_free(ctx, move):
            return  # a player is asked for their Strength roll; the answer finishes it
    elif move.action == "sustain-hold":
        hold = status(enc, fid).holding
        if hold is None or hold.target_id != target:
            ctx.say(f"{who} no longer holds {name(enc, target)}: the {title} does nothing",
                    fighter_id=fid, kind="note")
            finish_move(ctx, move, landed=False)
            return
        start_damage(ctx, move)
        return
    else:
        man = move.maneuver
        assert man is not None
        if man.block:
            limit = sheet(enc, fid).block
            gives = man.special not in ("punch-defense", "kick-defense") and can_use_ep(enc, fid)
            ctx.set(status_path(fid), "block",
                    {"move_id": move.id, "maneuver": man.name, "absorbed": 0, "limit": limit,
                     "gives_ep": gives, "guards": list(man.guards)})
            guards = f" against {' and '.join(g + 'es' if g == 'punch' else g + 's' for g in man.guards)}" \
                if man.guards else ""
            ctx.say(f"{who} blocks with {man.name}{guards}: absorbs up to "
                    f"{plural(limit, 'attack')} (Block technique)", fighter_id=fid,
                    kind="condition-on", name="Blocking")
        elif man.special == "stunning-shout" and target:
            if stunning_shout(ctx, move):
                return  # a player is asked for their roll; the answer finishes it
        elif not man.no_damage and target:
            start_damage(ctx, move)
            return
        elif man.move:
            ctx.say(f"{who} moves (move {man.move:+d})", fighter_id=fid, kind="note")
    finish_move(ctx, move, landed=True)


def finish_move(ctx: Context, move: Move, *, landed: bool) -> None:
    """The move is done: holds start or count, round-long effects begin."""
    enc = ctx.enc
    fid = move.fighter_id
    man = move.maneuver
    target = move.target_id
    if move.action == "sustain-hold":
        hold = status(enc, fid).holding
        if hold is not None:
            used = hold.actions + 1
            if used >= hold.limit:
                ctx.set(status_path(fid), "holding", None)
                ctx.say(f"{name(enc, fid)} lets go: the {hold.maneuver} was kept for "
                        f"Grab {hold.limit} actions", fighter_id=fid, kind="condition-off",
                        name="Held")
            else:
                ctx.set(status_path(fid), "holding", hold.model_dump() | {"actions": used})
    elif man is not None and man.hold and landed and target and not is_out(enc, target) \
            and not is_out(enc, fid):
        limit = sheet(enc, fid).grab
        first = 1 if enc.options.hold_counts_first_action else 0
        if limit > first:
            ctx.set(status_path(fid), "holding",
                    {"target_id": target, "maneuver": man.name, "actions": first,
                     "limit": limit})
            ctx.say(f"{name(enc, fid)} holds {name(enc, target)} in a {man.name} (at most "
                    f"Grab {limit} actions)", fighter_id=fid, kind="condition-on", name="Held")
    if man is not None and is_round_effect(man.special) and not is_out(enc, fid):
        assert man.special is not None
        start_round_effect(ctx, fid, man.name, man.special)
    if move_by_id(enc, move.id).open:
        update_move(ctx, move.id, resolved=True)
