"""Street Fighter rules: the ruleset object the engine calls; it routes each command to
the module that owns the rule (the answers to its questions: answers.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ...changes import RuleViolation
from ...ruleset import (
    Rules,
)
from . import answers, effects, resolve, round, specials, stack
from .catalogue import find
from .checks import state_problems
from .damage import gm_knock_down, knock_out, stun
from .lazy_commands import sf
from .model import Maneuver
from .state import (
    ROUND,
    available_ep,
    can_use_ep,
    clear_pending,
    die_by_id,
    fighter_or_fail,
    find_maneuver,
    gain_ep,
    hand_down,
    is_out,
    name,
    sheet,
    status,
    status_path,
)

# docs/rulesets/street-fighter.md#gm-changes: the rule states only a maneuver sets.
MANEUVER_STATES = {"blocking": "a Block maneuver (Act on the card)",
                   "concentrating": "a concentration (Act on the card)",
                   "recovering": "a recovery (Act on the card)",
                   "held": "a sustained hold (Act on the holder's card)"}


def status_name(ctx: Context, fighter_id: str) -> str:
    return name(ctx.enc, fighter_id)


if TYPE_CHECKING:

    from ...base import Decision
    from ...commands import Command
    from ...model import Encounter, Fighter
    from ...ruleset import Context, Handler


class StreetFighter(Rules):
    """The street-fighter rules: each command goes to the module that owns its rule."""

    id = "street-fighter"
    title = "Street Fighter"
    # Injuries, spent chi and willpower persist between fights; EP vanish at the end of the
    # fight; dice and conditions belong to one fight
    # (docs/rulesets/street-fighter.md#end-of-the-fight).
    lasting_status = ("health", "chi", "willpower")
    quick_fields = ("strength", "dexterity", "stamina", "punch", "kick", "block")
    # The conditions the text knows, offered when the GM adds one (engine/conditions.py).
    # Phases have no fighter turns: the GM's conditions count down at the round's end.
    # "Knocked down" and "Stunned" put the rule's own state on (as a knockdown or a blow
    # above Stamina does); the states a maneuver sets (a block, a concentration, a
    # recovery, a hold) come only from that maneuver (docs/rulesets/street-fighter.md#gm-changes).
    condition_names = ("Knocked down", "Stunned")
    condition_tick = "round-end"
    condition_turns = False

    def handlers(self) -> dict[str, Handler]:
        return _HANDLERS

    def pending(self, enc: Encounter) -> Decision | None:
        return enc.state.pending

    def step_open(self, enc: Encounter) -> bool:
        """An open stack, or a question the engine waits for, keeps the undo step open."""
        return bool(enc.state.stack) or enc.state.pending is not None

    def is_out(self, fighter: Fighter) -> bool:
        return fighter.status.health <= 0

    def value_set(self, ctx: Context, fighter_id: str, field: str, before: Any,
                  after: Any) -> None:
        """docs/rulesets/street-fighter.md#gm-changes: health the GM takes off is a blow:
        out of the fight at 0, stunned when more than Stamina at once."""
        if field != "status.health" or int(after) >= int(before):
            return
        lost = int(before) - int(after)
        stamina = sheet(ctx.enc, fighter_id).stamina
        if int(after) <= 0 < int(before):
            knock_out(ctx, fighter_id)
        elif lost > stamina and ctx.enc.state.stage == "phases":
            stun(ctx, fighter_id, f"{lost} damage is above Stamina {stamina}")

    def condition_rule(self, ctx: Context, fighter_id: str, name: str) -> bool:
        """docs/rulesets/street-fighter.md#gm-changes: a condition named like a state of
        the rules is that state, or is refused with what sets it."""
        wanted = name.casefold()
        if wanted in MANEUVER_STATES:
            ctx.fail(f"{name} is set by {MANEUVER_STATES[wanted]}, not as a condition "
                     "(name the GM's own condition otherwise)")
        if wanted not in ("knocked down", "stunned"):
            return False
        if is_out(ctx.enc, fighter_id):
            ctx.fail(f"{status_name(ctx, fighter_id)} is out of the fight")
        if ctx.enc.state.pending is not None:
            ctx.fail("answer the question that is waiting first")
        if wanted == "stunned":
            if ctx.enc.state.stage != "phases":
                ctx.fail("a stun costs a move or a die and 1 EP: only during the phases")
            stun(ctx, fighter_id, "the GM's call")
        else:
            gm_knock_down(ctx, fighter_id)
        return True

    def check_state(self, enc: Encounter) -> list[tuple[str, str]]:
        return state_problems(enc)

    def on_fighter_added(self, ctx: Context, fighter_id: str) -> None:
        """A fighter joining: pools within the sheet, no EP or dice from elsewhere; in a
        round already going they wait for the next round's dice."""
        enc = ctx.enc
        st, sh = status(enc, fighter_id), sheet(enc, fighter_id)
        path = status_path(fighter_id)
        ctx.set(path, "health", min(st.health, sh.health))
        ctx.set(path, "chi", min(st.chi, sh.chi))
        ctx.set(path, "willpower", min(st.willpower, sh.willpower))
        for key, value in (("ep", 0), ("zen_ep", 0), ("ep_debt", 0), ("dice", []),
                           ("bought_dice", 0), ("block", None), ("holding", None),
                           ("concentration", None), ("recovery", None), ("effects", []),
                           ("knocked_down", False)):
            ctx.set(path, key, value)
        ctx.set(path, "rolled", enc.state.stage not in ("setup", "fight-start", "round-start"))












# --- command handlers ---------------------------------------------------------------------


def _no_stack(enc: Encounter) -> None:
    stack.check_ready(enc)
    if enc.state.stack:
        raise RuleViolation("resolve the interrupt stack first")


def _start_fight(ctx: Context, cmd: Command) -> None:
    round.start_fight(ctx)


def _start_round(ctx: Context, cmd: Command) -> None:
    _no_stack(ctx.enc)
    round.start_round(ctx)


def _next_step(ctx: Context, cmd: Command) -> None:
    enc = ctx.enc
    _no_stack(enc)
    stage = enc.state.stage
    if stage == "setup":
        round.start_fight(ctx)
    elif stage in ("fight-start", "round-over"):
        round.start_round(ctx)
    elif stage == "round-start":
        round.roll_all_and_begin(ctx)
    elif stage == "phases":
        round.next_step(ctx)
    else:
        raise RuleViolation("the fight is over" if stage == "fight-over"
                            else "the end of the round is waiting for an answer")


def _end_round(ctx: Context, cmd: Command) -> None:
    _no_stack(ctx.enc)
    round.begin_end_of_round(ctx)


def _end_fight(ctx: Context, cmd: Command) -> None:
    round.end_fight(ctx)


def _act(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.Act)
    stack.declare(ctx, cmd, interrupt=isinstance(cmd, sf.Interrupt))


def _action_or_opening(ctx: Context, cmd: Command) -> None:
    """Concentrate, intimidate, deceive: at once before round 1, or as an action (a die)."""
    enc = ctx.enc
    assert isinstance(cmd, sf.Concentrate | sf.Intimidate | sf.Deceive)
    fighter_or_fail(enc, cmd.fighter_id)
    stage = enc.state.stage
    if stage == "fight-start":
        if isinstance(cmd, sf.Concentrate):
            specials.concentrate_at_fight_start(ctx, cmd.fighter_id, cmd.concentration, cmd.tn)
        else:
            kind = "intimidate" if isinstance(cmd, sf.Intimidate) else "deceive"
            specials.opening_move(ctx, cmd.fighter_id, cmd.target_id, kind)
        return
    if stage != "phases":
        raise RuleViolation("this is done before round 1 or as an action during the phases")
    if isinstance(cmd, sf.Concentrate):
        act = sf.Act(fighter_id=cmd.fighter_id, action="concentrate",
                     concentration=cmd.concentration, tn=cmd.tn, die_id=cmd.die_id)
    else:
        act = sf.Act(fighter_id=cmd.fighter_id,
                     action="intimidate" if isinstance(cmd, sf.Intimidate) else "deceive",
                     target_id=cmd.target_id, die_id=cmd.die_id)
    stack.declare(ctx, act, interrupt=False)


def _resolve(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.ResolveNext)
    stack.resolve_next(ctx)
    enc = ctx.enc
    while cmd.all and enc.state.stack and enc.state.pending is None:
        stack.resolve_next(ctx)
    if cmd.all:
        ctx.summary = "Resolved the stack" if not enc.state.stack else ctx.summary


def _cancel(ctx: Context, cmd: Command) -> None:
    stack.cancel_interrupts(ctx)


def _turn_fighter(ctx: Context, fid: str) -> None:
    enc = ctx.enc
    fighter_or_fail(enc, fid)
    _no_stack(enc)
    if enc.state.stage != "phases":
        raise RuleViolation("dice are used during the phases")
    if round.current_actor(enc) != fid:
        actor = round.current_actor(enc)
        raise RuleViolation(
            f"{name(enc, fid)} has no die showing phase {enc.state.phase} to use now"
            + (f": it is {name(enc, actor)}'s turn" if actor else ""))


def _hold(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.HoldDie)
    _turn_fighter(ctx, cmd.fighter_id)
    die = round.phase_dice(ctx.enc, cmd.fighter_id)[0]
    round.hold(ctx, cmd.fighter_id, die)
    round.mark_passed(ctx, cmd.fighter_id)
    ctx.summary = f"{name(ctx.enc, cmd.fighter_id)} holds the die {die.face}"


def _pass(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.PassDie)
    _turn_fighter(ctx, cmd.fighter_id)
    round.pass_turn(ctx, cmd.fighter_id)


def _convert(ctx: Context, cmd: Command) -> None:
    """Any unspent die showing at most Perception, at any time
    (docs/rulesets/street-fighter.md#turning-a-die-into-ep)."""
    assert isinstance(cmd, sf.ConvertDie)
    enc = ctx.enc
    fid = cmd.fighter_id
    fighter_or_fail(enc, fid)
    st = status(enc, fid)
    if not can_use_ep(enc, fid):
        raise RuleViolation(f"{name(enc, fid)} is a weenie: weenies cannot gain EP")
    if cmd.die_id is None:
        candidates = [d for d in st.dice if d.state in ("ready", "held")
                      and round.effective_face(enc, d) <= sheet(enc, fid).perception]
        if not candidates:
            raise RuleViolation(f"no unspent die of {name(enc, fid)} shows at most "
                                f"Perception {sheet(enc, fid).perception}")
        die = min(candidates, key=lambda d: round.effective_face(enc, d))
    else:
        found = die_by_id(st, cmd.die_id)
        if found is None or found.state not in ("ready", "held"):
            raise RuleViolation("no unspent die: that die is already used")
        die = found
    # The same die may be waiting on the "hold, convert or lose" question: converting it
    # answers that question, so one die gives 1 EP once
    # (docs/rulesets/street-fighter.md#turning-a-die-into-ep).
    task = enc.state.task
    settles = (task is not None and task.kind == "die-going" and task.fighter_id == fid
               and task.die_id == die.id)
    turn_die = (not settles and enc.state.stage == "phases" and not enc.state.stack
                and round.current_actor(enc) == fid and die.state == "ready"
                and die.face == enc.state.phase)
    if settles:
        clear_pending(ctx)
    round.convert_die(ctx, fid, die)
    if turn_die:
        round.mark_passed(ctx, fid)
    ctx.summary = f"{name(enc, fid)} turns the die {die.face} into 1 EP"
    if settles and task is not None and task.then == "end-round":
        round.continue_end_of_round(ctx)
        return
    _refresh_pending(ctx)


def _willpower(ctx: Context, cmd: Command) -> None:
    """Once a round, at any time: 1 Willpower for 1 EP."""
    assert isinstance(cmd, sf.WillpowerForEp)
    enc = ctx.enc
    fid = cmd.fighter_id
    fighter_or_fail(enc, fid)
    who = name(enc, fid)
    st = status(enc, fid)
    if enc.state.stage not in ("round-start", "phases", "round-end"):
        raise RuleViolation("Willpower is turned into EP during a round")
    if not can_use_ep(enc, fid):
        raise RuleViolation(f"{who} is a weenie: weenies cannot gain EP")
    if st.willpower_ep_used:
        raise RuleViolation(f"{who} has already spent Willpower for EP this round")
    if st.willpower < 1:
        raise RuleViolation(f"{who} has no Willpower left")
    ctx.set(status_path(fid), "willpower", st.willpower - 1)
    ctx.set(status_path(fid), "willpower_ep_used", True)
    gain_ep(ctx, fid, 1, "1 Willpower")
    ctx.summary = f"{who} spends 1 Willpower for 1 EP"
    _refresh_pending(ctx)


def _refresh_pending(ctx: Context) -> None:
    """EP gained while an EP question waits raise that question's maximum."""
    enc = ctx.enc
    dec, dmg = enc.state.pending, enc.state.damage
    if dec is None or dmg is None or dec.maximum is None or dec.fighter_id is None:
        return
    ep = available_ep(status(enc, dec.fighter_id))
    cap = ep if dec.id.endswith("-attack-ep") else min(ep, dmg.pool + dmg.added)
    if cap != dec.maximum:
        ctx.set(ROUND, "pending", dec.model_dump() | {"maximum": cap})


def _buy(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.BuyDice)
    fighter_or_fail(ctx.enc, cmd.fighter_id)
    round.buy_dice(ctx, cmd.fighter_id, cmd.count)


def _roll_dice(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.RollActionDice)
    fighter_or_fail(ctx.enc, cmd.fighter_id)
    round.roll_dice_for(ctx, cmd.fighter_id)
    ctx.summary = f"{name(ctx.enc, cmd.fighter_id)} rolls action dice"


def _recover(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.StartRecovery)
    specials.start_recovery(ctx, cmd.fighter_id, cmd.pool)


def _stop_recovery(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.StopRecovery)
    fighter_or_fail(ctx.enc, cmd.fighter_id)
    stack.check_ready(ctx.enc)
    specials.finish_recovery(ctx, cmd.fighter_id)
    ctx.summary = f"{name(ctx.enc, cmd.fighter_id)} stops recovering and rolls"


def _activate(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.ActivateEffect)
    effects.activate(ctx, cmd.fighter_id, cmd.maneuver)


def _drop(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.DropEffect)
    effects.drop(ctx, cmd.fighter_id, cmd.name)


def _set_maneuver(ctx: Context, cmd: Command) -> None:
    """GM: add or change a maneuver on one fighter's sheet (the catalogue stays as is)."""
    assert isinstance(cmd, sf.SetManeuver)
    enc = ctx.enc
    fid = cmd.fighter_id
    fighter_or_fail(enc, fid)
    who = name(enc, fid)
    if cmd.maneuver is not None:
        base = cmd.maneuver
    elif cmd.catalogue:
        found = find(cmd.catalogue)
        if found is None:
            raise RuleViolation(f"the catalogue has no maneuver {cmd.catalogue!r}")
        base = found
    elif cmd.replaces:
        base = find_maneuver(enc, fid, cmd.replaces)
    else:
        raise RuleViolation("name the maneuver to add or change")
    data = base.model_dump()
    unknown = set(cmd.update) - set(data)
    if unknown:
        raise RuleViolation(f"a maneuver has no field {sorted(unknown)[0]!r}")
    data.update(cmd.update)
    try:
        new = Maneuver.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "maneuver"
        raise RuleViolation(f"maneuver {data.get('name')!r}: {where}: {err['msg']}") from None
    own = [m.model_dump() for m in sheet(enc, fid).maneuvers]
    names = [m["name"].lower() for m in own]
    replaced = (cmd.replaces or new.name).strip().lower()
    if new.name.lower() != replaced and new.name.lower() in names:
        raise RuleViolation(f"{who} already has a maneuver {new.name!r}")
    if replaced in names:
        own[names.index(replaced)] = new.model_dump()
        verb = "changes"
    else:
        own.append(new.model_dump())
        verb = "adds"
    ctx.set(("fighters", fid, "sheet"), "maneuvers", own)
    ctx.summary = f"GM {verb} {who}'s maneuver {new.name}"
    ctx.say(ctx.summary, fighter_id=fid, kind="override")


def _remove_maneuver(ctx: Context, cmd: Command) -> None:
    assert isinstance(cmd, sf.RemoveManeuver)
    enc = ctx.enc
    fighter_or_fail(enc, cmd.fighter_id)
    own = sheet(enc, cmd.fighter_id).maneuvers
    keep = [m.model_dump() for m in own if m.name.lower() != cmd.name.strip().lower()]
    if len(keep) == len(own):
        raise RuleViolation(f"{name(enc, cmd.fighter_id)} has no maneuver {cmd.name!r} "
                            "on the sheet")
    ctx.set(("fighters", cmd.fighter_id, "sheet"), "maneuvers", keep)
    ctx.summary = f"GM removes {name(enc, cmd.fighter_id)}'s maneuver {cmd.name}"
    ctx.say(ctx.summary, fighter_id=cmd.fighter_id, kind="override")


_HANDLERS: dict[str, Handler] = {
    "start-fight": _start_fight,
    "start-round": _start_round,
    "next-step": _next_step,
    "end-round": _end_round,
    "end-fight": _end_fight,
    "answer": answers.answer,
    "sf-act": _act,
    "sf-interrupt": _act,
    "sf-concentrate": _action_or_opening,
    "sf-intimidate": _action_or_opening,
    "sf-deceive": _action_or_opening,
    "sf-resolve": _resolve,
    "sf-cancel-interrupts": _cancel,
    "sf-hold": _hold,
    "sf-pass": _pass,
    "sf-convert": _convert,
    "sf-willpower-ep": _willpower,
    "sf-buy-dice": _buy,
    "sf-roll-dice": _roll_dice,
    "sf-recover": _recover,
    "sf-stop-recovery": _stop_recovery,
    "sf-activate": _activate,
    "sf-drop-effect": _drop,
    "sf-set-maneuver": _set_maneuver,
    "sf-remove-maneuver": _remove_maneuver,
}

# Kept for callers that check a fighter is in the fight.
__all__ = ["StreetFighter", "is_out"]



class _LaterSteps:
    """The higher modules' steps the lower ones hand the fight on to (state.LaterSteps)."""

    resolve_move = staticmethod(resolve.resolve_move)
    finish_move = staticmethod(resolve.finish_move)
    roll_concentration = staticmethod(specials.roll_concentration)
    ask_concentration_end = staticmethod(specials.ask_concentration_end)
    ask_recovery_end = staticmethod(specials.ask_recovery_end)


hand_down(_LaterSteps())
