"""The answers to the questions the street-fighter rules put to the table: each goes on
with the step that asked it (docs/rulesets/street-fighter.md#decisions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...changes import RuleViolation
from . import damage, resolve, roll_off, round, specials, stack
from .lazy_commands import core
from .state import (
    ROUND,
    clear_pending,
    die_by_id,
    highest_unspent,
    move_by_id,
    name,
    set_die,
    spend_ep,
    status,
)

if TYPE_CHECKING:
    from ...base import Decision
    from ...commands import Command
    from ...ruleset import Context


def answer(ctx: Context, cmd: Command) -> None:
    """Answer the open question; a player's own roll is logged as what was rolled for
    what, not as the "Roll" chosen."""
    decision = ctx.enc.state.pending
    events, rolls = len(ctx.events), len(ctx.dice.rolls)
    _apply_answer(ctx, cmd)
    if decision is not None and decision.dice_needed and \
            [c.id for c in decision.choices] == ["roll"] and decision.fighter_id is not None:
        _say_the_players_roll(ctx, decision, events, rolls)


def _say_the_players_roll(ctx: Context, decision: Decision, events: int, rolls: int) -> None:
    """The answer's line names the first roll made for the asked fighter: "Tom rolls
    2d10 for Willpower against the shout (TN 6): 0 successes"."""
    who = name(ctx.enc, decision.fighter_id or "") if decision.fighter_id in ctx.enc.fighters \
        else ""
    roll = next((r for r in ctx.dice.rolls[rolls:] if who and r.who == who), None)
    if roll is None:
        return
    said = f"{who} rolls {roll.notation} for {roll.purpose}: " + \
        (roll.outcome or ", ".join(roll.shown_faces) or "no dice")
    label = next(c.label for c in decision.choices)
    if ctx.summary == f"{who}: {label}":
        ctx.summary = said
    for event in ctx.events[events:]:
        if event.kind == "decision" and event.text == f"{who} chooses: {label}":
            event.text = said
            break


def _apply_answer(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, core.Answer)
    enc = ctx.enc
    rs = enc.state
    decision, task = rs.pending, rs.task
    if decision is None or task is None:
        raise RuleViolation("nothing is waiting for an answer")
    if cmd.decision_id != decision.id:
        raise RuleViolation(f"the open question is {decision.id!r}, not {cmd.decision_id!r}")
    if decision.choices and cmd.choice not in {c.id for c in decision.choices}:
        raise RuleViolation("choose one of: " + ", ".join(c.id for c in decision.choices))
    if task.kind == "roll-off":  # its players may have left: the others roll on
        roll_off.answer(ctx, task, decision.id)
        return
    gone = task.fighter_id not in enc.fighters
    if rs.damage is not None:
        move = next((m for m in rs.stack if m.id == rs.damage.move_id), None)
        gone = gone or move is None or move.fighter_id not in enc.fighters or \
            (move.target_id is not None and move.target_id not in enc.fighters)
    if gone:
        _drop_orphan_question(ctx)
        return
    who = name(enc, task.fighter_id)
    label = next((c.label for c in decision.choices if c.id == cmd.choice), str(cmd.amount))
    ctx.summary = f"{who}: {label}"
    if task.kind == "damage":
        damage.answer(ctx, cmd.decision_id, cmd.choice, cmd.amount)
        stack.after_move(ctx)
        return
    ctx.say(f"{who} chooses: {label}", fighter_id=task.fighter_id, kind="decision",
            decision=decision.id, choice=cmd.choice)
    clear_pending(ctx)
    fid = task.fighter_id
    if task.kind == "die-going":
        die = die_by_id(status(enc, fid), task.die_id or 0)
        assert die is not None
        if cmd.choice == "hold":
            round.hold(ctx, fid, die)
        elif cmd.choice == "convert":
            round.convert_die(ctx, fid, die)
        else:
            round.lose_die(ctx, fid, die, "not used")
        if task.then == "end-round":
            round.continue_end_of_round(ctx)
    elif task.kind == "stand":
        if cmd.choice == "ep":
            spend_ep(ctx, fid, 1, "Kippup")
            round.stood(ctx, fid, "with Kippup for 1 EP")
        else:
            die = highest_unspent(enc, fid)
            assert die is not None
            set_die(ctx, fid, die.id, "spent", "stood up")
            round.stood(ctx, fid, f"spending the die {round.effective_face(enc, die)}")
        if task.then == "damage":
            dmg = enc.state.damage
            ctx.set(ROUND, "damage", None)
            if dmg is not None:
                resolve.finish_move(ctx, move_by_id(enc, dmg.move_id), landed=True)
            stack.after_move(ctx)
        elif task.then == "round-start":
            round.continue_round_start(ctx)
    elif task.kind == "recovery-end":
        if cmd.choice == "roll":
            specials.finish_recovery(ctx, fid)
        round.continue_end_of_round(ctx)
    elif task.kind == "concentration-end":
        specials.roll_concentration(ctx, fid)
        round.continue_end_of_round(ctx)
    elif task.kind in ("resist-intimidate", "resist-deceive", "intimidate-roll",
                       "deceive-roll"):
        if task.kind in ("intimidate-roll", "deceive-roll"):
            if specials.attempt(ctx, task):
                return  # the target's player is asked next
        else:
            specials.resist(ctx, task)
        if task.move_id is not None:  # the move on the stack is done; the stack goes on
            waiting = next((m for m in enc.state.stack if m.id == task.move_id), None)
            if waiting is not None:
                resolve.finish_move(ctx, waiting, landed=True)
            stack.after_move(ctx)
    elif task.kind in specials.STACK_OPPOSED_TASKS:
        if specials.answer_stack_opposed(ctx, task):
            return  # the other side's player is asked next
        waiting = next((m for m in enc.state.stack if m.id == task.move_id), None)
        if waiting is not None:
            resolve.finish_move(ctx, waiting, landed=True)
        stack.after_move(ctx)
    elif task.kind == "action-dice":
        round.roll_action_dice(ctx, fid)
        if task.then == "roll-all":
            round.roll_all_and_begin(ctx)


def _drop_orphan_question(ctx: Context) -> None:
    """The fighter a question was for has been removed by the GM: the question lapses and
    whatever waited on it goes on without them."""
    enc = ctx.enc
    task = enc.state.task
    dmg = enc.state.damage
    clear_pending(ctx)
    ctx.summary = "The question lapsed: that fighter left the fight"
    ctx.say(ctx.summary, kind="note")
    if dmg is not None:
        ctx.set(ROUND, "damage", None)
        if any(m.id == dmg.move_id for m in enc.state.stack):
            stack.update_move(ctx, dmg.move_id, resolved=True)
        stack.after_move(ctx)
    elif task is not None and task.then == "end-round":
        round.continue_end_of_round(ctx)
    elif task is not None and task.then == "round-start":
        round.continue_round_start(ctx)
    elif task is not None and task.then == "roll-all":
        round.roll_all_and_begin(ctx)
    elif task is not None and task.move_id is not None:
        move = next((m for m in enc.state.stack if m.id == task.move_id), None)
        if move is not None:
            resolve.finish_move(ctx, move, landed=False)
        stack.after_move(ctx)
