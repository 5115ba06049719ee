"""The interrupt stack: declaring acts and interrupts (validity, cost), the resolution
order, losing one's own slower moves, and resolving the moves one by one.

docs/rulesets/street-fighter.md, "Moves and interrupts": #acting to #cancelling-interrupts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...changes import RuleViolation
from .lazy_commands import sf
from .model import PASSIVE, ActionDie, Maneuver, Move
from .round import current_actor, lose_die, mark_passed, phase_dice
from .state import (
    ROUND,
    available_ep,
    can_use_ep,
    concentration_tn,
    die_by_id,
    effective_face,
    find_maneuver,
    held_die,
    highest_unspent,
    is_out,
    later_steps,
    move_by_id,
    name,
    pending_moves,
    refund_ep,
    resolution_order,
    set_die,
    spend_ep,
    status,
    status_path,
    unspent,
    update_move,
)

if TYPE_CHECKING:
    from ...model import Encounter
    from ...ruleset import Context

ACTION_WORDS = {
    "concentrate": "Concentrate",
    "intimidate": "Intimidate",
    "deceive": "Deceive",
    "break-free": "Break free",
    "sustain-hold": "Sustain the hold",
}


def move_title(move: Move) -> str:
    if move.action == "maneuver" and move.maneuver is not None:
        return move.maneuver.name
    if move.action == "sustain-hold" and move.maneuver is not None:
        return f"{move.maneuver.name} (sustained)"
    return ACTION_WORDS.get(move.action, move.action)


def holder_of(enc: Encounter, fid: str) -> str | None:
    """Who has this fighter in a sustained hold, if anyone."""
    for other, f in enc.fighters.items():
        hold = f.status.holding
        if hold is not None and hold.target_id == fid and not is_out(enc, other):
            return other
    return None


# --- checks shared by the rules and the forms ---------------------------------------------


def check_ready(enc: Encounter) -> None:
    if enc.state.pending is not None:
        raise RuleViolation(f"answer the open question first: {enc.state.pending.prompt}")


def pick_die(enc: Encounter, fid: str, die_id: int | None, *, interrupt: bool) -> ActionDie:
    """The die a move spends: the one named, or the natural choice."""
    st = status(enc, fid)
    who = name(enc, fid)
    if die_id is not None:
        die = die_by_id(st, die_id)
        if die is None:
            raise RuleViolation(f"{who} has no die #{die_id}")
        if die.state not in ("ready", "held"):
            raise RuleViolation(f"no unspent die: {who}'s die {die.face} is already {die.state}")
        return die
    if not interrupt:
        on_phase = phase_dice(enc, fid)
        if on_phase and current_actor(enc) == fid:
            return on_phase[0]
        held = held_die(st)
        if held is not None:
            return held
        if on_phase:
            return on_phase[0]  # not this fighter's turn: the turn check says so
        raise RuleViolation(f"no unspent die: {who} has no die showing phase "
                            f"{enc.state.phase} and no held die")
    held = held_die(st)
    on_phase = phase_dice(enc, fid)
    if on_phase:
        return on_phase[0]
    if held is not None:
        return held
    dice = unspent(st)
    if not dice:
        raise RuleViolation(f"no unspent die: {who} has no action die left")
    return max(dice, key=lambda d: d.face)


def die_is_free(enc: Encounter, die: ActionDie) -> bool:
    """A die showing the current phase, or the held die, interrupts for free
    (docs/rulesets/street-fighter.md#interrupt-cost)."""
    return die.state == "held" or die.face == enc.state.phase


def interrupt_cost(enc: Encounter, die: ActionDie, maneuver: Maneuver | None) -> int:
    """Any other die costs 1 EP unless the maneuver is an abort."""
    if die_is_free(enc, die):
        return 0
    if maneuver is not None and maneuver.abort:
        return 0
    return 1


def latest_open_move(enc: Encounter) -> Move | None:
    open_moves = [m for m in enc.state.stack if m.open]
    return max(open_moves, key=lambda m: m.id) if open_moves else None


def build_move(enc: Encounter, cmd: sf.Act, *, interrupt: bool) -> Move:
    """Check a declared act or interrupt against the rules and build its Move (no writes)."""
    rs = enc.state
    fid = cmd.fighter_id
    if fid not in enc.fighters:
        raise RuleViolation(f"no fighter {fid!r}")
    who = name(enc, fid)
    check_ready(enc)
    if rs.stage != "phases":
        raise RuleViolation("moves are declared during the phases of a round")
    if is_out(enc, fid):
        raise RuleViolation(f"{who} is out of the fight")
    if status(enc, fid).knocked_down:
        raise RuleViolation(f"{who} is knocked down and stands at the start of next round")
    if cmd.ep_speed and not can_use_ep(enc, fid):
        raise RuleViolation(f"{who} is a weenie: weenies cannot spend EP")
    if interrupt and cmd.action == "sustain-hold":
        raise RuleViolation("a sustained hold cannot be used as an interrupt")
    if interrupt:
        if not rs.stack:
            raise RuleViolation(f"{who} cannot interrupt: no move is pending")
        if rs.resolving:
            raise RuleViolation(f"{who} cannot interrupt: the stack is already resolving")
    elif rs.stack:
        raise RuleViolation("resolve the interrupt stack first (or interrupt it)")
    die = pick_die(enc, fid, cmd.die_id, interrupt=interrupt)
    if not interrupt:
        on_turn = current_actor(enc) == fid and die.state == "ready" and die.face == rs.phase
        if die.state != "held" and not on_turn:
            actor = current_actor(enc)
            if die.face != rs.phase:
                raise RuleViolation(
                    f"{who} cannot act with the die {die.face} in phase {rs.phase}: "
                    "only a die showing the phase or the held die acts")
            raise RuleViolation(f"{who} cannot act now: it is {name(enc, actor)}'s turn")
    maneuver: Maneuver | None = None
    target = cmd.target_id
    action = cmd.action
    if action == "maneuver":
        if not cmd.maneuver:
            raise RuleViolation(f"{who}: choose a maneuver")
        maneuver = find_maneuver(enc, fid, cmd.maneuver)
        if maneuver.special in PASSIVE:
            raise RuleViolation(f"{maneuver.name} is not used as an action")
        needs_target = not maneuver.no_damage or maneuver.special == "stunning-shout"
        if needs_target and not target:
            raise RuleViolation(f"{who}: choose a target for {maneuver.name}")
    elif action == "sustain-hold":
        hold = status(enc, fid).holding
        if hold is None:
            raise RuleViolation(f"{who} is not holding anyone")
        if interrupt:
            raise RuleViolation("a sustained hold cannot be used as an interrupt")
        if hold.actions >= hold.limit:
            raise RuleViolation(f"{who} has kept the hold for Grab {hold.limit} actions already")
        maneuver = find_maneuver(enc, fid, hold.maneuver)
        target = hold.target_id
    elif action == "break-free":
        holder = holder_of(enc, fid)
        if holder is None:
            raise RuleViolation(f"{who} is not held by anyone")
        target = holder
    else:
        if interrupt:
            raise RuleViolation(f"{ACTION_WORDS[action].lower()} is an action, not an interrupt")
        if action == "concentrate":
            if not can_use_ep(enc, fid):
                raise RuleViolation(f"{who} is a weenie: weenies cannot gain EP")
            if cmd.concentration is None:
                raise RuleViolation(f"{who}: choose how to concentrate")
            if status(enc, fid).concentration is not None:
                raise RuleViolation(f"{who} already concentrates this round")
        elif not target:
            raise RuleViolation(f"{who}: choose whom to {action}")
    if target is not None:
        if target not in enc.fighters:
            raise RuleViolation(f"no fighter {target!r}")
        if target == fid:
            raise RuleViolation(f"{who} cannot target themself")
        if is_out(enc, target):
            raise RuleViolation(f"{name(enc, target)} is out of the fight")
    face = effective_face(enc, die)
    # Speed = the die's face (the current phase for the held die) + the maneuver's speed;
    # breaking free has speed +0 (docs/rulesets/street-fighter.md#breaking-free).
    modifier = maneuver.speed if maneuver is not None and action != "break-free" else 0
    speed_base = face + modifier
    interrupts: int | None = None
    cost = 0
    if interrupt:
        assert isinstance(cmd, sf.Interrupt)
        victim = move_by_id(enc, cmd.interrupts) if cmd.interrupts is not None \
            else latest_open_move(enc)
        if victim is None or not victim.open:
            raise RuleViolation(f"{who} cannot interrupt: that move is no longer pending")
        if victim.fighter_id == fid:
            raise RuleViolation(f"{who} cannot interrupt their own move")
        # Valid only if the speed with EP is above the victim's speed without EP.
        mine = speed_base + 2 * cmd.ep_speed
        if mine <= victim.speed_base:
            raise RuleViolation(
                f"{who} cannot interrupt: speed {mine} is not above "
                f"{name(enc, victim.fighter_id)}'s {victim.speed_base}")
        interrupts = victim.id
        cost = interrupt_cost(enc, die, maneuver)
        if cost and not can_use_ep(enc, fid):
            raise RuleViolation(
                f"{who} cannot interrupt with the die {die.face} in phase {rs.phase}: it costs "
                "1 EP and weenies cannot spend EP")
    total = cost + cmd.ep_speed
    if total > available_ep(status(enc, fid)):
        raise RuleViolation(
            f"not enough EP: {who} has {available_ep(status(enc, fid))}, needs {total}")
    tn = None
    if action == "concentrate":
        tn = concentration_tn(enc, fid, cmd.concentration, cmd.tn)  # type: ignore[arg-type]
    return Move(
        id=rs.next_move_id, fighter_id=fid, action=action, maneuver=maneuver,
        target_id=target, die_id=die.id, die_face=face, held_die=die.state == "held",
        speed_base=speed_base, ep_speed=cmd.ep_speed, interrupts=interrupts, cost_ep=cost,
        ep_damage=cmd.ep_damage, concentration=cmd.concentration, tn=tn,
    )


def declare(ctx: Context, cmd: sf.Act, *, interrupt: bool) -> Move:
    enc = ctx.enc
    move = build_move(enc, cmd, interrupt=interrupt)
    fid = move.fighter_id
    who = name(enc, fid)
    was_turn = current_actor(enc) == fid
    st = status(enc, fid)
    die = die_by_id(st, move.die_id)
    assert die is not None
    before = {"acted_before": st.acted_this_round,
              "recovery_busy_before": st.recovery is not None and st.recovery.did_something,
              "block_before": st.block, "die_why_before": die.why}
    zen = own = 0
    if move.ep_speed:
        z, o = spend_ep(ctx, fid, move.ep_speed, f"+{2 * move.ep_speed} speed")
        zen, own = zen + z, own + o
    if move.cost_ep:
        z, o = spend_ep(ctx, fid, move.cost_ep, f"interrupting with the die {die.face}")
        zen, own = zen + z, own + o
    move = move.model_copy(update={"zen_paid": zen, "ep_paid": own, **before})
    title = move_title(move)
    set_die(ctx, fid, die.id, "spent", f"{'interrupted' if interrupt else 'acted'}: {title}")
    if not interrupt and was_turn:
        mark_passed(ctx, fid)
    took_action(ctx, fid)
    ctx.tx.append((*ROUND, "stack"), move.model_dump(mode="json"))
    ctx.set(ROUND, "next_move_id", move.id + 1)
    target = f" on {name(enc, move.target_id)}" if move.target_id else ""
    speed = f"speed {move.speed}" + (f" ({move.speed_base} + {2 * move.ep_speed} from EP)"
                                     if move.ep_speed else "")
    if interrupt:
        victim = move_by_id(enc, move.interrupts or 0)
        update_move(ctx, victim.id, interrupted=True)
        cost = f", {move.cost_ep} EP for the die" if move.cost_ep else ""
        ctx.summary = (f"{who} interrupts {name(enc, victim.fighter_id)}'s "
                       f"{move_title(victim)} with {title}{target} ({speed}{cost})")
        ctx.say(ctx.summary, fighter_id=fid, kind="interrupt", maneuver=title,
                die=move.die_face, speed=move.speed, ep=move.ep_speed + move.cost_ep)
    else:
        ctx.summary = f"{who}: {title}{target} with the {die_label_for(move)} ({speed})"
        ctx.say(ctx.summary, fighter_id=fid, kind="act", maneuver=title, die=move.die_face,
                speed=move.speed)
    return move


def die_label_for(move: Move) -> str:
    return f"held die ({move.die_face})" if move.held_die else f"die {move.die_face}"


def took_action(ctx: Context, fid: str) -> None:
    """Spending a die is taking an action: it counts for recovery's +2 and ends a block
    (unless the block waits for the fighter's pending original move)."""
    st = status(ctx.enc, fid)
    path = status_path(fid)
    ctx.set(path, "acted_this_round", True)
    if st.recovery is not None and not st.recovery.did_something:
        data = st.recovery.model_dump()
        data["did_something"] = True
        ctx.set(path, "recovery", data)
    if st.block is not None:
        end_block(ctx, fid, "acts again")


def end_block(ctx: Context, fid: str, why: str) -> None:
    block = status(ctx.enc, fid).block
    if block is None:
        return
    ctx.set(status_path(fid), "block", None)
    ctx.say(f"{name(ctx.enc, fid)}'s {block.maneuver} ends ({why})", fighter_id=fid,
            kind="condition-off", name="Blocking")


# --- resolving ----------------------------------------------------------------------------


def settle_losses(ctx: Context) -> None:
    """When the stack starts resolving: a fighter who declared an interrupt loses every own
    move resolving after it, except blocks; a block interrupt loses nothing
    (docs/rulesets/street-fighter.md#lost-moves)."""
    enc = ctx.enc
    order = resolution_order(enc)
    for i, first in enumerate(order):
        if first.interrupts is None or first.is_block:
            continue
        for later in order[i + 1:]:
            current = move_by_id(enc, later.id)
            if current.fighter_id != first.fighter_id or current.is_block or not current.open:
                continue
            lose_move(ctx, current.id,
                      f"{name(enc, first.fighter_id)} interrupted with the faster "
                      f"{move_title(first)}")


def lose_move(ctx: Context, move_id: int, why: str) -> None:
    move = move_by_id(ctx.enc, move_id)
    if not move.open:
        return
    update_move(ctx, move_id, lost=True, lost_why=why)
    ctx.say(f"{name(ctx.enc, move.fighter_id)}'s {move_title(move)} is lost ({why})",
            fighter_id=move.fighter_id, kind="die-lost", move=move_id)


def next_open_move(enc: Encounter) -> Move | None:
    for move in resolution_order(enc):
        if move.open and move.fighter_id in enc.fighters:
            return move
    return None


def resolve_next(ctx: Context) -> None:
    enc = ctx.enc
    check_ready(enc)
    if not enc.state.stack:
        raise RuleViolation("there is no move to resolve")
    if not enc.state.resolving:
        ctx.set(ROUND, "resolving", True)
        settle_losses(ctx)
    move = next_open_move(enc)
    if move is None:
        close_stack(ctx)
        return
    ctx.summary = ctx.summary or f"{name(enc, move.fighter_id)}'s {move_title(move)} resolves"
    later_steps().resolve_move(ctx, move)
    after_move(ctx)


def after_move(ctx: Context) -> None:
    """Close the stack once nothing is open and no decision waits."""
    enc = ctx.enc
    if enc.state.pending is None and enc.state.damage is None and \
            next_open_move(enc) is None:
        close_stack(ctx)


def close_stack(ctx: Context) -> None:
    enc = ctx.enc
    for move in enc.state.stack:
        if move.lost and move.interrupted and move.maneuver is not None and move.maneuver.move:
            ctx.say(f"{name(enc, move.fighter_id)}'s {move_title(move)} was lost: its "
                    "movement is not finished", fighter_id=move.fighter_id, kind="note")
    ctx.set(ROUND, "stack", [])
    ctx.set(ROUND, "resolving", False)
    ctx.say("The stack is resolved", kind="resolve")


def cancel_interrupts(ctx: Context) -> None:
    """Take back the interrupts before anything resolved: dice and EP come back."""
    enc = ctx.enc
    check_ready(enc)
    if not enc.state.stack:
        raise RuleViolation("there is no stack open")
    if enc.state.resolving:
        raise RuleViolation("the stack has started resolving: use undo instead")
    taken = [m for m in enc.state.stack if m.interrupts is not None]
    if not taken:
        raise RuleViolation("no interrupt has been declared")
    first_taken: dict[str, Move] = {}
    for move in sorted(taken, key=lambda m: m.id):
        first_taken.setdefault(move.fighter_id, move)
    for move in taken:
        st = status(enc, move.fighter_id)
        die = die_by_id(st, move.die_id)
        if die is not None:
            set_die(ctx, move.fighter_id, die.id, "held" if move.held_die else "ready",
                    die.why if move.die_why_before is None else move.die_why_before)
        refund_ep(ctx, move.fighter_id, move.zen_paid, move.ep_paid, "interrupt cancelled")
    for fid, first in first_taken.items():
        if fid in enc.fighters:
            take_back_action(ctx, fid, first)
    keep = [m.model_dump(mode="json") | {"interrupted": False}
            for m in enc.state.stack if m.interrupts is None]
    ctx.set(ROUND, "stack", keep)
    ctx.summary = f"Cancelled {len(taken)} interrupt{'s' if len(taken) != 1 else ''}"
    ctx.say(ctx.summary, kind="note")


def take_back_action(ctx: Context, fid: str, first: Move) -> None:
    """Undo what declaring took from the fighter besides the die and EP (see
    ``took_action``), as it was before ``first``, their earliest cancelled interrupt:
    whether they acted this round, recovery's "did something", the block it ended."""
    st = status(ctx.enc, fid)
    path = status_path(fid)
    if first.acted_before is not None and st.acted_this_round != first.acted_before:
        ctx.set(path, "acted_this_round", first.acted_before)
    if (first.recovery_busy_before is False and st.recovery is not None
            and st.recovery.did_something):
        ctx.set(path, "recovery", st.recovery.model_dump() | {"did_something": False})
    block = first.block_before
    if block is not None and st.block is None:
        ctx.set(path, "block", block.model_dump(mode="json"))
        ctx.say(f"{name(ctx.enc, fid)}'s {block.maneuver} holds again (the interrupt is "
                "cancelled)", fighter_id=fid, kind="condition-on", name="Blocking")


def victims_pending_move(enc: Encounter, fid: str) -> Move | None:
    """The victim's move that is pending (the next of theirs to resolve)."""
    moves = pending_moves(enc, fid)
    if not moves:
        return None
    order = {m.id: i for i, m in enumerate(resolution_order(enc))}
    return min(moves, key=lambda m: order[m.id])


def lose_move_or_highest_die(ctx: Context, fid: str, why: str) -> bool:
    """The victim loses the pending move if one is pending, otherwise the highest unspent
    die (docs/rulesets/street-fighter.md#stun; Stunning Shout's first net success,
    docs/rulesets/street-fighter.md#stunning-shout). False when there was neither to lose."""
    pending = victims_pending_move(ctx.enc, fid)
    if pending is not None:
        lose_move(ctx, pending.id, why)
        return True
    die = highest_unspent(ctx.enc, fid)
    if die is None:
        return False
    lose_die(ctx, fid, die, why)
    return True
