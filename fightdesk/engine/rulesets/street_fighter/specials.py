"""Special rules: concentration, recovery, intimidation, deception, stunning shout,
sustained holds and lasting maneuver effects.

docs/rulesets/street-fighter.md: #concentration, #recovery, #intimidation-and-deception,
#stunning-shout, #sustained-holds, #breaking-free, #round-long-effects,
#flame-fist-and-toughskin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...base import Choice, Decision
from ...changes import RuleViolation
from .model import COUNTED_EFFECTS, ROUND_EFFECTS, ConcentrationKind, LastingEffect, Task
from .round import ask
from .stack import end_block, lose_move_or_highest_die
from .state import (
    ROUND,
    can_use_ep,
    concentration_tn,
    find_maneuver,
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
    if enc.fighters[fid].rolls_own_dice and not ctx.dice.typed_waiting:
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
    shown = "all regained" if tn == 0 else f"TN {min(10, (tn or 8) + (2 if rec.did_something else 0))}"
    ask(ctx, Task(kind="recovery-end", fighter_id=fid, then="end-round"),
        Decision(id=f"recover-{fid}-{enc.round}", fighter_id=fid,
                 prompt=f"{name(enc, fid)} has recovered {rec.pool} for "
                        f"{plural(rec.full_rounds, 'round')}: roll now ({shown}) or keep "
                        "recovering?",
                 choices=[Choice(id="roll", label=f"Stop and roll ({shown})"),
                          Choice(id="continue", label="Keep recovering")],
                 dice_needed=f"{points_down(enc, fid, rec.pool)}d10"))
    return True


# --- opposed rolls -----------------------------------------------------------------------


def opposed(ctx: Context, actor: str, pool: int, what: str, target: str, against: int,
            against_what: str) -> int:
    """Both sides roll at TN 6 (their own TN), 1s cancel (option); net successes."""
    enc = ctx.enc
    ones = enc.options.ones_cancel_on_other_rolls
    tn_a = tn_for(enc, actor, 6)
    tn_b = tn_for(enc, target, 6)
    ra = ctx.roll(pool, 10, who=name(enc, actor), purpose=f"{what} (TN {tn_a})",
                  fighter_id=actor)
    a = successes(ra.faces, tn_a, ones_cancel=ones)
    ra.outcome = plural(a, "success", "successes")
    rb = ctx.roll(against, 10, who=name(enc, target), purpose=f"{against_what} (TN {tn_b})",
                  fighter_id=target)
    b = successes(rb.faces, tn_b, ones_cancel=ones)
    rb.outcome = plural(b, "success", "successes")
    return a - b


def intimidate(ctx: Context, fid: str, target: str, *, opening: bool,
               move_id: int | None = None) -> bool:
    """Charisma + Intimidation against the target's current Willpower; each net success
    costs the target 1 EP. True when the target's player is asked for their roll."""
    sh = sheet(ctx.enc, fid)
    return _opposed_for_ep(ctx, fid, sh.charisma + sh.intimidation, "intimidation", target,
                           "intimidate", opening=opening, move_id=move_id)


def deceive(ctx: Context, fid: str, target: str, *, opening: bool,
            move_id: int | None = None) -> bool:
    """Manipulation + Subterfuge against Wits + Insight; each net success costs 1 EP.
    True when the target's player is asked for their roll."""
    sh = sheet(ctx.enc, fid)
    return _opposed_for_ep(ctx, fid, sh.manipulation + sh.subterfuge, "deception", target,
                           "deceive", opening=opening, move_id=move_id)


_RESISTED = {"intimidate": ("Willpower against intimidation", "intimidated"),
             "deceive": ("Wits + Insight against deception", "deceived")}


def _resist_pool(ctx: Context, target: str, kind: str) -> int:
    if kind == "intimidate":
        return status(ctx.enc, target).willpower
    th = sheet(ctx.enc, target)
    return th.wits + th.insight


def _opposed_for_ep(ctx: Context, fid: str, pool: int, what: str, target: str, kind: str,
                    *, opening: bool, move_id: int | None) -> bool:
    """docs/rulesets/street-fighter.md#intimidation-and-deception: both sides roll; a
    target whose player rolls their own dice and has not typed the roll yet is asked for
    it (never rolled unseen)."""
    enc = ctx.enc
    tn_a = tn_for(enc, fid, 6)
    ra = ctx.roll(pool, 10, who=name(enc, fid), purpose=f"{what} (TN {tn_a})", fighter_id=fid)
    a = successes(ra.faces, tn_a, ones_cancel=enc.options.ones_cancel_on_other_rolls)
    ra.outcome = plural(a, "success", "successes")
    against = _resist_pool(ctx, target, kind)
    if enc.fighters[target].rolls_own_dice and against > 0 and not ctx.dice.typed_waiting:
        ask(ctx, Task(kind="resist-intimidate" if kind == "intimidate" else "resist-deceive",
                      fighter_id=target, actor_id=fid, successes=a, move_id=move_id),
            Decision(id=f"resist-{kind}-{target}-{enc.round}-{move_id or 0}",
                     fighter_id=target,
                     prompt=f"{name(enc, target)}: roll {_RESISTED[kind][0]} by "
                            f"{name(enc, fid)} ({against}d10)",
                     choices=[Choice(id="roll", label="Roll")],
                     dice_needed=f"{against}d10"))
        ctx.summary = f"{name(enc, fid)}: {ra.outcome}; {name(enc, target)} rolls against it"
        return True
    b = _resist_roll(ctx, target, kind, against)
    _ep_loss(ctx, fid, target, a - b, _RESISTED[kind][1], opening=opening)
    return False


def _resist_roll(ctx: Context, target: str, kind: str, against: int) -> int:
    enc = ctx.enc
    tn_b = tn_for(enc, target, 6)
    rb = ctx.roll(against, 10, who=name(enc, target), purpose=f"{_RESISTED[kind][0]} (TN {tn_b})",
                  fighter_id=target)
    b = successes(rb.faces, tn_b, ones_cancel=enc.options.ones_cancel_on_other_rolls)
    rb.outcome = plural(b, "success", "successes")
    return b


def resist(ctx: Context, task: Task) -> None:
    """The answer: the target's roll (typed, or the app's), then the EP it costs."""
    kind = "intimidate" if task.kind == "resist-intimidate" else "deceive"
    target = task.fighter_id
    b = _resist_roll(ctx, target, kind, _resist_pool(ctx, target, kind))
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


def stunning_shout(ctx: Context, fid: str, target: str, pool_attrs: list[str]) -> None:
    """Pool (default Wits + Focus) against current Willpower: the first net success costs
    the pending move, or else the highest die; each further one 1 EP."""
    enc = ctx.enc
    sh = sheet(enc, fid)
    pool = sum(sh.rating(a) for a in pool_attrs)
    net = opposed(ctx, fid, pool, "Stunning Shout", target, status(enc, target).willpower,
                  "Willpower against the shout")
    whom = name(enc, target)
    if net <= 0:
        ctx.say(f"{whom} shrugs off the shout", fighter_id=target, kind="note")
        return
    if not lose_move_or_highest_die(ctx, target, "Stunning Shout"):
        ctx.say(f"{whom} has no move or die left to lose", fighter_id=target, kind="note")
    if net > 1:
        lose_ep(ctx, target, net - 1, "Stunning Shout")


def break_free(ctx: Context, fid: str, holder: str) -> None:
    """Opposed Strength rolls (option); the held fighter breaks free on a net win."""
    enc = ctx.enc
    hold = status(enc, holder).holding
    who = name(enc, fid)
    if hold is None or hold.target_id != fid:
        ctx.say(f"{who} is no longer held", fighter_id=fid, kind="note")
        return
    if enc.options.break_free_opposed_strength:
        net = opposed(ctx, fid, sheet(enc, fid).strength, "breaking free (Strength)", holder,
                      sheet(enc, holder).strength, "keeping the hold (Strength)")
        won = net > 0
    else:
        won = True
    if won:
        ctx.set(status_path(holder), "holding", None)
        ctx.say(f"{who} breaks free of {name(enc, holder)}'s {hold.maneuver}", fighter_id=fid,
                kind="condition-off", name="Held")
    else:
        ctx.say(f"{who} fails to break free", fighter_id=fid, kind="note")


# --- lasting effects ---------------------------------------------------------------------


def start_round_effect(ctx: Context, fid: str, maneuver_name: str, special: str) -> None:
    """Teleport, Shrouded Moon, Ghostform, Yoga Flame, Fire Strike: from an instant to the
    end of the round, dropped any time."""
    enc = ctx.enc
    st = status(enc, fid)
    kept = [e.model_dump() for e in st.effects if e.name != maneuver_name]
    kept.append(LastingEffect(name=maneuver_name, special=special,
                              round=enc.round, phase=enc.state.phase).model_dump())
    ctx.set(status_path(fid), "effects", kept)
    ctx.say(f"{name(enc, fid)}'s {maneuver_name} lasts until dropped or the round ends",
            fighter_id=fid, kind="condition-on", name=maneuver_name)


def activate(ctx: Context, fid: str, maneuver_name: str) -> None:
    """Flame Fist and Toughskin: switched on at any time, for Focus attacks."""
    enc = ctx.enc
    if fid not in enc.fighters:
        raise RuleViolation(f"no fighter {fid!r}")
    who = name(enc, fid)
    man = find_maneuver(enc, fid, maneuver_name)
    if man.special not in COUNTED_EFFECTS:
        raise RuleViolation(f"{man.name} is not switched on: it is used as an action")
    if enc.state.stage in ("setup", "fight-over"):
        raise RuleViolation("effects are switched on during the fight")
    if is_out(enc, fid):
        raise RuleViolation(f"{who} is out of the fight")
    focus = sheet(enc, fid).focus
    if focus < 1:
        raise RuleViolation(f"{who} has Focus 0: {man.name} would last no attacks")
    st = status(enc, fid)
    kept = [e.model_dump() for e in st.effects if e.name != man.name]
    kept.append(LastingEffect(name=man.name, special=man.special,
                              round=enc.round, phase=enc.state.phase, attacks_left=focus,
                              damage_bonus=man.effect_damage,
                              soak_bonus=man.effect_soak).model_dump())
    ctx.set(status_path(fid), "effects", kept)
    ctx.summary = f"{who} switches on {man.name} for {plural(focus, 'attack')} (Focus)"
    ctx.say(ctx.summary, fighter_id=fid, kind="condition-on", name=man.name)


def drop(ctx: Context, fid: str, what: str) -> None:
    enc = ctx.enc
    if fid not in enc.fighters:
        raise RuleViolation(f"no fighter {fid!r}")
    who = name(enc, fid)
    st = status(enc, fid)
    key = what.strip().lower()
    if key == "hold":
        if st.holding is None:
            raise RuleViolation(f"{who} is not holding anyone")
        held = st.holding.target_id
        ctx.set(status_path(fid), "holding", None)
        ctx.summary = f"{who} lets go of {name(enc, held)}"
        ctx.say(ctx.summary, fighter_id=fid, kind="condition-off", name="Held")
        return
    if key == "block":
        if st.block is None:
            raise RuleViolation(f"{who} is not blocking")
        end_block(ctx, fid, "dropped")
        ctx.summary = f"{who} drops the block"
        return
    if key == "recovery":
        raise RuleViolation("stop a recovery with 'stop recovering' (it rolls at once)")
    match = [e for e in st.effects if e.name.lower() == key]
    if not match:
        raise RuleViolation(f"{who} has no lasting {what!r} to drop")
    ctx.set(status_path(fid), "effects", [e.model_dump() for e in st.effects
                                          if e.name.lower() != key])
    ctx.summary = f"{who} drops {match[0].name}"
    ctx.say(ctx.summary, fighter_id=fid, kind="condition-off", name=match[0].name)


def is_round_effect(special: str | None) -> bool:
    return special in ROUND_EFFECTS
