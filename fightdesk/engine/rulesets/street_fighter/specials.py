"""Special rules: concentration, recovery, intimidation, deception, stunning shout and
breaking free (lasting maneuver effects: effects.py).

docs/rulesets/street-fighter.md: #concentration, #recovery, #intimidation-and-deception,
#stunning-shout, #sustained-holds, #breaking-free.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...base import Choice, Decision
from ...changes import RuleViolation
from .model import (
    ConcentrationKind,
    Move,
    SustainedHold,
    Task,
    TaskKind,
)
from .stack import lose_move_or_highest_die, move_title
from .state import (
    ROUND,
    ask,
    asks_player,
    can_use_ep,
    concentration_tn,
    gain_ep,
    is_out,
    lose_ep,
    name,
    plural,
    sheet,
    status,
    status_path,
    successes,
    tn_for,
)

if TYPE_CHECKING:
    from ...model import Encounter
    from ...ruleset import Context

CONCENTRATION_NAMES: dict[str, str] = {
    "find-angle": "Find an Angle",
    "find-weakness": "Find Weakness",
    "power-up": "Power Up",
}
CONCENTRATION_ABILITY: dict[str, str] = {
    "find-angle": "arena",
    "find-weakness": "style_lore",
    "power-up": "insight",
}


# --- concentration -----------------------------------------------------------------------


def concentration_pool(enc: Encounter, fid: str, kind: str) -> int:
    sh = sheet(enc, fid)
    return sh.perception + sh.rating(CONCENTRATION_ABILITY[kind])


def _roll_concentration(ctx: Context, fid: str, kind: str, tn: int) -> int:
    enc = ctx.enc
    pool = concentration_pool(enc, fid, kind)
    title = CONCENTRATION_NAMES[kind]
    roll = ctx.roll(pool, 10, who=name(enc, fid), purpose=f"{title} (TN {tn})", fighter_id=fid)
    hits = successes(roll.faces, tn, ones_cancel=enc.options.ones_cancel_on_other_rolls)
    roll.outcome = f"{plural(hits, 'success', 'successes')}: {hits} EP"
    gain_ep(ctx, fid, hits, title)
    return hits


def concentrate_at_fight_start(ctx: Context, fid: str, kind: ConcentrationKind,
                               tn: int | None) -> None:
    """Before round 1 the roll is made at once (docs/rulesets/street-fighter.md#fight-start)."""
    enc = ctx.enc
    _opening(enc, fid)
    if not can_use_ep(enc, fid):
        raise RuleViolation(f"{name(enc, fid)} is a weenie: weenies cannot gain EP")
    target = tn_for(enc, fid, concentration_tn(enc, fid, kind, tn), own_concentration=True)
    ctx.tx.append((*ROUND, "opened"), fid)
    hits = _roll_concentration(ctx, fid, kind, target)
    ctx.summary = f"{name(enc, fid)} concentrates ({CONCENTRATION_NAMES[kind]}): {hits} EP"


def _opening(enc: Encounter, fid: str) -> None:
    if fid not in enc.fighters:
        raise RuleViolation(f"no fighter {fid!r}")
    if fid in enc.state.opened:
        raise RuleViolation(
            f"{name(enc, fid)} has already concentrated, intimidated or deceived "
            "before round 1")
    if is_out(enc, fid):
        raise RuleViolation(f"{name(enc, fid)} is out of the fight")


def ask_concentration_end(ctx: Context, fid: str) -> bool:
    """End of round: a player who rolls their own dice is asked for the concentration
    roll (never rolled unseen); anyone else's is rolled now. True when a question waits."""
    enc = ctx.enc
    conc = status(enc, fid).concentration
    assert conc is not None
    if asks_player(ctx, fid):
        pool = concentration_pool(enc, fid, conc.kind)
        ask(ctx, Task(kind="concentration-end", fighter_id=fid, then="end-round"),
            Decision(id=f"concentration-{fid}-{enc.round}", fighter_id=fid,
                     prompt=f"{name(enc, fid)}: roll the {CONCENTRATION_NAMES[conc.kind]} "
                            f"concentration ({plural(pool, 'die', 'dice')})",
                     choices=[Choice(id="roll", label="Roll the concentration")],
                     dice_needed=f"{pool}d10"))
        return True
    roll_concentration(ctx, fid)
    return False


def roll_concentration(ctx: Context, fid: str) -> None:
    """End of round: the concentration roll, at +2 only when the fighter also recovers."""
    enc = ctx.enc
    conc = status(enc, fid).concentration
    assert conc is not None
    tn = tn_for(enc, fid, conc.tn, own_concentration=True)
    _roll_concentration(ctx, fid, conc.kind, tn)


def start_concentration(ctx: Context, fid: str, kind: ConcentrationKind, tn: int,
                        move_id: int) -> None:
    ctx.set(status_path(fid), "concentration",
            {"kind": kind, "tn": tn, "move_id": move_id, "broken": False})
    ctx.say(f"{name(ctx.enc, fid)} concentrates ({CONCENTRATION_NAMES[kind]}, TN {tn}): "
            "rolled at the end of the round; +2 to the fighter's other TNs this round",
            fighter_id=fid, kind="condition-on", name="Concentrating")


# --- recovery ----------------------------------------------------------------------------


def start_recovery(ctx: Context, fid: str, pool: str) -> None:
    enc = ctx.enc
    who = name(enc, fid)
    if fid not in enc.fighters:
        raise RuleViolation(f"no fighter {fid!r}")
    if enc.state.stage in ("setup", "fight-over"):
        raise RuleViolation("recovery is declared during the fight")
    if is_out(enc, fid):
        raise RuleViolation(f"{who} is out of the fight")
    if status(enc, fid).recovery is not None:
        raise RuleViolation(f"{who} is already recovering")
    if points_down(enc, fid, pool) <= 0:
        raise RuleViolation(f"{who} has all {pool} already")
    # A recovery declared before the phases covers the whole round.
    whole = enc.state.stage in ("fight-start", "round-over", "round-start")
    ctx.set(status_path(fid), "recovery",
            {"pool": pool, "full_rounds": 0, "whole_round": whole, "did_something": False})
    ctx.summary = f"{who} starts recovering {pool}: +2 to all TNs while recovering"
    ctx.say(ctx.summary, fighter_id=fid, kind="condition-on", name="Recovering")


def points_down(enc: Encounter, fid: str, pool: str) -> int:
    sh, st = sheet(enc, fid), status(enc, fid)
    return (sh.chi - st.chi) if pool == "chi" else (sh.willpower - st.willpower)


def recovery_tn(enc: Encounter, rounds: int) -> int | None:
    """TN by time spent (docs/rulesets/street-fighter.md#recovery); None: less than a
    round, nothing gained; 0: an hour or more, everything regained."""
    if rounds < 1:
        return None
    seconds = rounds * enc.options.seconds_per_round
    if seconds >= 3600:
        return 0
    if seconds >= 1800:
        return 2
    if seconds >= 600:
        return 4
    if seconds >= 300:
        return 6
    if seconds >= 60:
        return 7
    return 8


def finish_recovery(ctx: Context, fid: str) -> None:
    """Ending recovery: the roll is made at once with the TN for the time spent; 1s are
    ignored; +2 only if the fighter did something meanwhile."""
    enc = ctx.enc
    rec = status(enc, fid).recovery
    who = name(enc, fid)
    if rec is None:
        raise RuleViolation(f"{who} is not recovering")
    ctx.set(status_path(fid), "recovery", None)
    down = points_down(enc, fid, rec.pool)
    base = recovery_tn(enc, rec.full_rounds)
    ctx.say(f"{who} stops recovering", fighter_id=fid, kind="condition-off", name="Recovering")
    if base is None:
        ctx.say(f"{who} recovered for less than a full round: nothing regained",
                fighter_id=fid, kind="note")
        return
    if base == 0:
        _regain(ctx, fid, rec.pool, down, "an hour or more of recovery")
        return
    tn = min(10, base + (2 if rec.did_something else 0))
    roll = ctx.roll(down, 10, who=who, purpose=f"{rec.pool} recovery (TN {tn})", fighter_id=fid)
    hits = successes(roll.faces, tn, ones_cancel=enc.options.ones_cancel_on_recovery)
    roll.outcome = plural(hits, "success", "successes")
    _regain(ctx, fid, rec.pool, min(hits, down), plural(rec.full_rounds, "round") + " of recovery")


def _regain(ctx: Context, fid: str, pool: str, amount: int, why: str) -> None:
    st = status(ctx.enc, fid)
    current = st.chi if pool == "chi" else st.willpower
    ctx.set(status_path(fid), pool, current + amount)
    ctx.say(f"{name(ctx.enc, fid)} regains {amount} {pool} ({why})", fighter_id=fid,
            kind="heal", target=fid, amount=amount, pool=pool)


def ask_recovery_end(ctx: Context, fid: str) -> bool:
    """End of round: a recovery that covered the whole round counts it; then the fighter
    chooses to roll now or keep recovering. True when the question is pending."""
    enc = ctx.enc
    rec = status(enc, fid).recovery
    if rec is None:
        return False
    if rec.whole_round:
        rec = rec.model_copy(update={"full_rounds": rec.full_rounds + 1})
        ctx.set(status_path(fid), "recovery", rec.model_dump())
    if rec.full_rounds < 1:
        return False
    tn = recovery_tn(enc, rec.full_rounds)
    down = points_down(enc, fid, rec.pool)
    head = f"{name(enc, fid)} has recovered {rec.pool} for {plural(rec.full_rounds, 'round')}"
    if tn == 0 or down <= 0:
        # Nothing to roll (an hour regains everything): no dice to type.
        shown, dice, what = "all regained" if tn == 0 else "nothing to regain", "", "stop now"
    else:
        shown = f"TN {min(10, (tn or 8) + (2 if rec.did_something else 0))}"
        dice = f"{down}d10"
        # A player who rolls their own dice types the faces at this very question.
        what = f"roll the {dice} now" if enc.fighters[fid].rolls_own_dice else "roll now"
    ask(ctx, Task(kind="recovery-end", fighter_id=fid, then="end-round"),
        Decision(id=f"recover-{fid}-{enc.round}", fighter_id=fid,
                 prompt=f"{head}: {what} ({shown}) or keep recovering?",
                 choices=[Choice(id="roll", label=f"Stop and roll ({shown})" if dice
                                 else f"Stop ({shown})"),
                          Choice(id="continue", label="Keep recovering")],
                 dice_needed=dice))
    return True


# --- opposed rolls -----------------------------------------------------------------------


def intimidate(ctx: Context, fid: str, target: str, *, opening: bool,
               move_id: int | None = None) -> bool:
    """Charisma + Intimidation against the target's current Willpower; each net success
    costs the target 1 EP. True when the target's player is asked for their roll."""
    return _opposed_for_ep(ctx, fid, target, "intimidate", opening=opening, move_id=move_id)


def deceive(ctx: Context, fid: str, target: str, *, opening: bool,
            move_id: int | None = None) -> bool:
    """Manipulation + Subterfuge against Wits + Insight; each net success costs 1 EP.
    True when the target's player is asked for their roll."""
    return _opposed_for_ep(ctx, fid, target, "deceive", opening=opening, move_id=move_id)


_RESISTED = {"intimidate": ("Willpower against intimidation", "intimidated"),
             "deceive": ("Wits + Insight against deception", "deceived")}


# The attempt's pool and its roll's name in the log.
_ATTEMPT = {"intimidate": ("Charisma + Intimidation", "intimidation"),
            "deceive": ("Manipulation + Subterfuge", "deception")}


def _attempt_pool(ctx: Context, fid: str, kind: str) -> int:
    sh = sheet(ctx.enc, fid)
    return sh.charisma + sh.intimidation if kind == "intimidate" else \
        sh.manipulation + sh.subterfuge


def _resist_pool(ctx: Context, target: str, kind: str) -> int:
    if kind == "intimidate":
        return status(ctx.enc, target).willpower
    th = sheet(ctx.enc, target)
    return th.wits + th.insight


def _opposed_for_ep(ctx: Context, fid: str, target: str, kind: str, *, opening: bool,
                    move_id: int | None) -> bool:
    """docs/rulesets/street-fighter.md#intimidation-and-deception: both sides roll; a side
    whose player rolls their own dice and has not typed the roll yet is asked for it
    (never rolled unseen: before round 1 the actor's dice are typed in the action's own
    form). True when a question waits."""
    enc = ctx.enc
    pool = _attempt_pool(ctx, fid, kind)
    if move_id is not None and asks_player(ctx, fid, pool):
        ask(ctx, Task(kind="intimidate-roll" if kind == "intimidate" else "deceive-roll",
                      fighter_id=fid, actor_id=fid, move_id=move_id),
            Decision(id=f"{kind}-{fid}-{enc.round}-{move_id}", fighter_id=fid,
                     prompt=f"{name(enc, fid)}: roll {_ATTEMPT[kind][0]} to {kind} "
                            f"{name(enc, target)} ({pool}d10)",
                     choices=[Choice(id="roll", label="Roll")],
                     dice_needed=f"{pool}d10"))
        ctx.summary = f"{name(enc, fid)} rolls to {kind} {name(enc, target)}"
        return True
    a = _side_roll(ctx, fid, pool, _ATTEMPT[kind][1])
    return _target_side(ctx, fid, a, target, kind, opening=opening, move_id=move_id)


def _target_side(ctx: Context, fid: str, a: int, target: str, kind: str, *, opening: bool,
                 move_id: int | None) -> bool:
    """The target's roll against the actor's ``a`` successes, or the question for it."""
    enc = ctx.enc
    against = _resist_pool(ctx, target, kind)
    if asks_player(ctx, target, against):
        ask(ctx, Task(kind="resist-intimidate" if kind == "intimidate" else "resist-deceive",
                      fighter_id=target, actor_id=fid, successes=a, move_id=move_id),
            Decision(id=f"resist-{kind}-{target}-{enc.round}-{move_id or 0}",
                     fighter_id=target,
                     prompt=f"{name(enc, target)}: roll {_RESISTED[kind][0]} by "
                            f"{name(enc, fid)} ({against}d10)",
                     choices=[Choice(id="roll", label="Roll")],
                     dice_needed=f"{against}d10"))
        ctx.summary = (f"{name(enc, fid)}: {plural(a, 'success', 'successes')}; "
                       f"{name(enc, target)} rolls against it")
        return True
    b = _side_roll(ctx, target, against, _RESISTED[kind][0])
    _ep_loss(ctx, fid, target, a - b, _RESISTED[kind][1], opening=opening)
    return False


def attempt(ctx: Context, task: Task) -> bool:
    """The answer to an intimidator's or deceiver's question: their roll (typed, or the
    app's), then the target's. True when the target's player is asked next."""
    enc = ctx.enc
    kind = "intimidate" if task.kind == "intimidate-roll" else "deceive"
    fid = task.fighter_id
    move = next((m for m in enc.state.stack if m.id == task.move_id), None)
    target = move.target_id if move is not None else None
    if target is None or target not in enc.fighters:
        ctx.say(f"{name(enc, fid)}'s roll has nobody left to {kind}", fighter_id=fid,
                kind="note")
        return False
    a = _side_roll(ctx, fid, _attempt_pool(ctx, fid, kind), _ATTEMPT[kind][1])
    return _target_side(ctx, fid, a, target, kind, opening=False, move_id=task.move_id)


def resist(ctx: Context, task: Task) -> None:
    """The answer: the target's roll (typed, or the app's), then the EP it costs."""
    kind = "intimidate" if task.kind == "resist-intimidate" else "deceive"
    target = task.fighter_id
    b = _side_roll(ctx, target, _resist_pool(ctx, target, kind), _RESISTED[kind][0])
    actor = task.actor_id or ""
    if actor not in ctx.enc.fighters:
        ctx.say(f"{name(ctx.enc, target)}'s roll has nobody left to resist", fighter_id=target,
                kind="note")
        return
    _ep_loss(ctx, actor, target, task.successes - b, _RESISTED[kind][1],
             opening=task.move_id is None)


def _ep_loss(ctx: Context, fid: str, target: str, net: int, verb: str, *,
             opening: bool) -> None:
    enc = ctx.enc
    who, whom = name(enc, fid), name(enc, target)
    if net <= 0:
        ctx.summary = f"{who} fails to get to {whom} ({verb.rstrip('d')} attempt)"
        ctx.say(ctx.summary, fighter_id=fid, kind="note")
        return
    if not can_use_ep(enc, target):
        ctx.summary = f"{whom} is {verb} ({net} net), but weenies have no EP to lose"
        ctx.say(ctx.summary, fighter_id=target, kind="note")
        return
    lost = lose_ep(ctx, target, net, f"{verb} by {who}")
    if opening and lost < net:
        # Before round 1 the target may have no EP yet: the rest comes off round 1's gain.
        st = status(enc, target)
        ctx.set(status_path(target), "ep_debt", st.ep_debt + net - lost)
    ctx.summary = f"{who} {verb} {whom}: {net} EP lost"


def opening_move(ctx: Context, fid: str, target: str, kind: str) -> None:
    enc = ctx.enc
    _opening(enc, fid)
    if target not in enc.fighters or target == fid:
        raise RuleViolation(f"{name(enc, fid)}: choose someone else to {kind}")
    ctx.tx.append((*ROUND, "opened"), fid)
    if kind == "intimidate":
        intimidate(ctx, fid, target, opening=True)
    else:
        deceive(ctx, fid, target, opening=True)


# --- opposed rolls on the stack: Stunning Shout and breaking free -------------------------

# Each side's roll as the log names it: the actor's, then the target's.
_SIDES: dict[str, tuple[str, str]] = {
    "shout": ("Stunning Shout", "Willpower against the shout"),
    "break-free": ("breaking free (Strength)", "keeping the hold (Strength)"),
}
_TASKS: dict[str, tuple[TaskKind, TaskKind]] = {
    "shout": ("shout-roll", "shout-resist"),
    "break-free": ("break-free-roll", "break-free-resist"),
}
STACK_OPPOSED_TASKS = frozenset(kind for pair in _TASKS.values() for kind in pair)


def stunning_shout(ctx: Context, move: Move) -> bool:
    """docs/rulesets/street-fighter.md#stunning-shout: the shout's pool (default Wits +
    Focus) against current Willpower; the first net success costs the pending move, or
    else the highest die; each further one 1 EP. True when a player is asked to roll."""
    return _stack_opposed(ctx, "shout", move, None)


def break_free(ctx: Context, move: Move) -> bool:
    """docs/rulesets/street-fighter.md#breaking-free: opposed Strength rolls (option); the
    held fighter breaks free on a net win. True when a player is asked to roll."""
    if _still_held(ctx, move) is None:
        return False
    if not ctx.enc.options.break_free_opposed_strength:
        _break_free_outcome(ctx, move, 1)
        return False
    return _stack_opposed(ctx, "break-free", move, None)


def answer_stack_opposed(ctx: Context, task: Task) -> bool:
    """The answer to a Stunning Shout's or a break free's question: that side's roll
    (typed, or the app's), then the other side's or the outcome. True when the other
    side's player is asked next."""
    enc = ctx.enc
    kind = "shout" if task.kind in _TASKS["shout"] else "break-free"
    move = next((m for m in enc.state.stack if m.id == task.move_id), None)
    if move is None or move.target_id not in enc.fighters or move.fighter_id not in enc.fighters:
        ctx.say(f"{name(enc, task.fighter_id)}'s roll has nobody left to roll against",
                fighter_id=task.fighter_id, kind="note")
        return False
    pool, against = _stack_pools(enc, kind, move)
    if task.kind == _TASKS[kind][0]:
        hits = _side_roll(ctx, move.fighter_id, pool, _SIDES[kind][0])
        return _stack_opposed(ctx, kind, move, hits)
    assert move.target_id is not None
    net = task.successes - _side_roll(ctx, move.target_id, against, _SIDES[kind][1])
    _OUTCOMES[kind](ctx, move, net)
    return False


def _stack_pools(enc: Encounter, kind: str, move: Move) -> tuple[int, int]:
    """The actor's pool and the target's, as they are when the roll is made."""
    actor, target = move.fighter_id, move.target_id
    assert target is not None
    if kind == "shout":
        assert move.maneuver is not None
        sh = sheet(enc, actor)
        return sum(sh.rating(a) for a in move.maneuver.shout_pool), status(enc, target).willpower
    return sheet(enc, actor).strength, sheet(enc, target).strength


def _side_roll(ctx: Context, fid: str, pool: int, what: str) -> int:
    """One side of an opposed roll, at the fighter's own TN 6; 1s cancel (option)."""
    enc = ctx.enc
    tn = tn_for(enc, fid, 6)
    roll = ctx.roll(pool, 10, who=name(enc, fid), purpose=f"{what} (TN {tn})", fighter_id=fid)
    hits = successes(roll.faces, tn, ones_cancel=enc.options.ones_cancel_on_other_rolls)
    roll.outcome = plural(hits, "success", "successes")
    return hits


def _stack_opposed(ctx: Context, kind: str, move: Move, actor_hits: int | None) -> bool:
    """Both sides roll (the actor first); a side whose player rolls their own dice is asked
    for the roll, never rolled unseen. ``actor_hits``: the actor's successes once rolled.
    True when a question waits; its answer goes on from there."""
    enc = ctx.enc
    actor, target = move.fighter_id, move.target_id
    assert target is not None
    pool, against = _stack_pools(enc, kind, move)
    if actor_hits is None:
        if asks_player(ctx, actor, pool):
            ask(ctx, Task(kind=_TASKS[kind][0], fighter_id=actor, actor_id=actor,
                          move_id=move.id),
                Decision(id=f"{kind}-{actor}-{enc.round}-{move.id}", fighter_id=actor,
                         prompt=_prompt(enc, kind, move, pool, actor_side=True),
                         choices=[Choice(id="roll", label="Roll")],
                         dice_needed=f"{pool}d10"))
            ctx.summary = f"{name(enc, actor)} rolls for the {move_title(move)}"
            return True
        actor_hits = _side_roll(ctx, actor, pool, _SIDES[kind][0])
    if asks_player(ctx, target, against):
        ask(ctx, Task(kind=_TASKS[kind][1], fighter_id=target, actor_id=actor,
                      successes=actor_hits, move_id=move.id),
            Decision(id=f"{kind}-resist-{target}-{enc.round}-{move.id}", fighter_id=target,
                     prompt=_prompt(enc, kind, move, against, actor_side=False),
                     choices=[Choice(id="roll", label="Roll")],
                     dice_needed=f"{against}d10"))
        ctx.summary = (f"{name(enc, actor)}: {plural(actor_hits, 'success', 'successes')}; "
                       f"{name(enc, target)} rolls against it")
        return True
    net = actor_hits - _side_roll(ctx, target, against, _SIDES[kind][1])
    _OUTCOMES[kind](ctx, move, net)
    return False


def _shout_outcome(ctx: Context, move: Move, net: int) -> None:
    target = move.target_id
    assert target is not None
    whom = name(ctx.enc, target)
    if net <= 0:
        ctx.say(f"{whom} shrugs off the shout", fighter_id=target, kind="note")
        return
    if not lose_move_or_highest_die(ctx, target, "Stunning Shout"):
        ctx.say(f"{whom} has no move or die left to lose", fighter_id=target, kind="note")
    if net > 1:
        lose_ep(ctx, target, net - 1, "Stunning Shout")


def _still_held(ctx: Context, move: Move) -> SustainedHold | None:
    """The hold the breaking free is against, or None (and a note) when it has ended."""
    enc = ctx.enc
    fid, holder = move.fighter_id, move.target_id
    hold = status(enc, holder).holding if holder in enc.fighters else None
    if hold is None or hold.target_id != fid:
        ctx.say(f"{name(enc, fid)} is no longer held", fighter_id=fid, kind="note")
        return None
    return hold


def _break_free_outcome(ctx: Context, move: Move, net: int) -> None:
    enc = ctx.enc
    fid, holder = move.fighter_id, move.target_id
    assert holder is not None
    hold = _still_held(ctx, move)
    if hold is None:
        return
    who = name(enc, fid)
    if net > 0:
        ctx.set(status_path(holder), "holding", None)
        ctx.say(f"{who} breaks free of {name(enc, holder)}'s {hold.maneuver}", fighter_id=fid,
                kind="condition-off", name="Held")
    else:
        ctx.say(f"{who} fails to break free", fighter_id=fid, kind="note")


_OUTCOMES = {"shout": _shout_outcome, "break-free": _break_free_outcome}


def _prompt(enc: Encounter, kind: str, move: Move, pool: int, *, actor_side: bool) -> str:
    """The question to the player of one side: what to roll, against whom, how many dice."""
    assert move.target_id is not None
    actor, target = name(enc, move.fighter_id), name(enc, move.target_id)
    if kind == "shout":
        return (f"{actor}: roll the Stunning Shout at {target} ({pool}d10)" if actor_side else
                f"{target}: roll Willpower against {actor}'s Stunning Shout ({pool}d10)")
    hold = status(enc, move.target_id).holding
    what = hold.maneuver if hold is not None else "hold"
    return (f"{actor}: roll Strength to break free of {target}'s {what} ({pool}d10)"
            if actor_side else
            f"{target}: roll Strength to keep {actor} in the {what} ({pool}d10)")
