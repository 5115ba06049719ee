"""What the action dialog shows before a roll: the move, its speed and pool, exact odds. (docs/rulesets/street-fighter.md)"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ....changes import RuleViolation
from ....odds import at_least, damage_after_dodges, pool_successes
from ....ruleset import (
    Odds,
    Preview,
)
from ..damage import damage_pool
from ..lazy_commands import sf
from ..model import Move
from ..specials import (
    concentration_pool,
    concentration_tn,
    points_down,
    recovery_tn,
)
from ..stack import build_move, move_title
from ..state import (
    available_ep,
    can_use_ep,
    name,
    plural,
    sheet,
    status,
    tn_for,
)
from .commands import build_command

if TYPE_CHECKING:
    from ....commands import Command
    from ....model import Encounter



def preview(enc: Encounter, form_id: str, fid: str, values: dict[str, Any]) -> Preview:
    if fid not in enc.fighters:
        return Preview(error=f"no fighter {fid!r}")
    try:
        command = build_command(form_id, fid, values)
        if form_id in ("act", "interrupt", "break-free", "interrupt-break-free",
                       "sustain-hold") or (
                form_id in ("concentrate", "intimidate", "deceive")
                and enc.state.stage == "phases"):
            return _move_preview(enc, form_id, fid, command)
        return _other_preview(enc, form_id, fid, command)
    except RuleViolation as exc:
        return Preview(error=str(exc))


def _as_act(command: Command) -> sf.Act:
    if isinstance(command, sf.Act):
        return command
    if isinstance(command, sf.Concentrate):
        return sf.Act(fighter_id=command.fighter_id, action="concentrate",
                      concentration=command.concentration, tn=command.tn,
                      die_id=command.die_id)
    if isinstance(command, sf.Intimidate | sf.Deceive):
        return sf.Act(fighter_id=command.fighter_id,
                      action="intimidate" if isinstance(command, sf.Intimidate) else "deceive",
                      target_id=command.target_id, die_id=command.die_id)
    raise RuleViolation("not a move")


def _move_preview(enc: Encounter, form_id: str, fid: str, command: Command) -> Preview:
    act = _as_act(command)
    interrupt = isinstance(act, sf.Interrupt)
    lines: list[str] = []
    odds: list[Odds] = []
    try:
        move = build_move(enc, act, interrupt=interrupt)
    except RuleViolation as exc:
        return Preview(lines=tuple(lines), error=str(exc))
    mod = move.speed_base - move.die_face
    speed = f"Speed {move.speed}: die {move.die_face}" + \
        (" (held, counts as the current phase)" if move.held_die else "") + \
        (f" {'+' if mod >= 0 else '-'} {abs(mod)} ({move_title(move)})"
         if move.maneuver is not None and move.action != "break-free" else "")
    if move.ep_speed:
        speed += f" + {2 * move.ep_speed} ({move.ep_speed} EP)"
    lines.append(speed)
    if interrupt and move.interrupts is not None:
        victim = next(m for m in enc.state.stack if m.id == move.interrupts)
        first = (move.speed, *_tie(enc, move)) > (victim.speed, *_tie(enc, victim))
        lines.append(
            f"Interrupts {name(enc, victim.fighter_id)}'s {move_title(victim)}: "
            f"{move.speed_base + 2 * move.ep_speed} is above its {victim.speed_base} "
            f"without EP, valid; resolves {'before' if first else 'after'} it "
            f"(its full speed {victim.speed})")
        lines.append("Cost: " + (f"1 EP (die {move.die_face} is not on phase "
                                 f"{enc.state.phase})" if move.cost_ep else
                                 "free" + (" (held die)" if move.held_die else
                                           " (abort)" if move.die_face != enc.state.phase
                                           else " (die on the phase)")))
        losing = [m for m in enc.state.stack if m.fighter_id == fid and m.open
                  and not m.is_block and (move.maneuver is None or not move.maneuver.block)]
        if losing:
            lines.append("Slower own moves would be lost: "
                         + ", ".join(move_title(m) for m in losing))
    if move.action in ("maneuver", "sustain-hold") and move.maneuver is not None \
            and move.target_id is not None:
        man = move.maneuver
        if man.special == "stunning-shout":
            pool = sum(sheet(enc, fid).rating(a) for a in man.shout_pool)
            odds += _opposed_odds(enc, fid, pool, move.target_id,
                                  status(enc, move.target_id).willpower, "shout")
        elif not man.no_damage:
            odds += _damage_odds(enc, move, lines, act.ep_damage)
    elif move.action in ("intimidate", "deceive") and move.target_id:
        sh, th = sheet(enc, fid), sheet(enc, move.target_id)
        pool = sh.charisma + sh.intimidation if move.action == "intimidate" \
            else sh.manipulation + sh.subterfuge
        against = status(enc, move.target_id).willpower if move.action == "intimidate" \
            else th.wits + th.insight
        lines.append(f"{plural(pool, 'die', 'dice')} against {plural(against, 'die', 'dice')}")
        odds += _opposed_odds(enc, fid, pool, move.target_id, against, "EP")
    elif move.action == "break-free" and move.target_id:
        odds += _opposed_odds(enc, fid, sheet(enc, fid).strength, move.target_id,
                              sheet(enc, move.target_id).strength, "break")
    elif move.action == "concentrate" and move.concentration and move.tn:
        pool = concentration_pool(enc, fid, move.concentration)
        tn = tn_for(enc, fid, move.tn, own_concentration=True)
        lines.append(f"Rolled at the end of the round: {plural(pool, 'die', 'dice')} at TN {tn}; "
                     "+2 to the fighter's other TNs this round")
        odds += _success_odds(pool, tn, enc.options.ones_cancel_on_other_rolls, "EP")
    return Preview(lines=tuple(lines), odds=tuple(odds))


def _tie(enc: Encounter, move: Move) -> tuple[int, int, int, int]:
    sh = sheet(enc, move.fighter_id)
    return (sh.wits, sh.perception, sh.dexterity, move.id)


def _damage_odds(enc: Encounter, move: Move, lines: list[str],
                 ep_damage: int | None) -> list[Odds]:
    assert move.target_id is not None
    pool = damage_pool(enc, move)
    lines.append(f"Damage pool after soak: {pool.describe()}")
    dice = pool.dice
    if ep_damage:
        dice += ep_damage
        lines.append(f"With {plural(ep_damage, 'EP damage die', 'EP damage dice')}: "
                     f"{plural(dice, 'die', 'dice')}")
    tn = tn_for(enc, move.fighter_id, 6)
    ones = enc.options.ones_cancel_on_damage
    dist = pool_successes(dice, tn, ones_cancel=ones)
    out = [Odds(f"at least {plural(k, 'health level')} (TN {tn})", at_least(dist, k))
           for k in range(1, min(dice, 3) + 1)]
    target = move.target_id
    ep = available_ep(status(enc, target)) if can_use_ep(enc, target) else 0
    if ep:
        dodge_tn = tn_for(enc, target, 6)
        dodged = damage_after_dodges(dist, 1, tn=dodge_tn,
                                     ones_cancel=enc.options.ones_cancel_on_other_rolls)
        out.append(Odds(f"still a hit if {name(enc, target)} dodges once", at_least(dodged, 1)))
    if move.maneuver is not None and move.maneuver.knockdown:
        lines.append("Knockdown if it hits")
    stamina = sheet(enc, target).stamina
    if dice > stamina:
        out.append(Odds(f"stun (more than Stamina {stamina})", at_least(dist, stamina + 1)))
    return out


def _success_odds(pool: int, tn: int, ones: bool, what: str) -> list[Odds]:
    dist = pool_successes(pool, tn, ones_cancel=ones)
    return [Odds(f"at least {k} {what}", at_least(dist, k)) for k in range(1, min(pool, 3) + 1)]


def _opposed_odds(enc: Encounter, fid: str, pool: int, target: str, against: int,
                  what: str) -> list[Odds]:
    """Each side at its own TN (concentration or recovery can raise one side's)."""
    ones = enc.options.ones_cancel_on_other_rolls
    mine = pool_successes(pool, tn_for(enc, fid, 6), ones_cancel=ones)
    theirs = pool_successes(against, tn_for(enc, target, 6), ones_cancel=ones)
    net: dict[int, Fraction] = {}
    for a, pa in mine.items():
        for b, pb in theirs.items():
            net[a - b] = net.get(a - b, Fraction(0)) + pa * pb
    def win(k: int) -> Fraction:
        return sum((p for d, p in net.items() if d >= k), Fraction(0))
    labels = {"EP": ("wins (target loses EP)", "target loses 2 EP or more"),
              "shout": ("costs a move or die", "also costs EP"),
              "break": ("breaks free", "wins by 2 or more")}[what]
    return [Odds(labels[0], win(1)), Odds(labels[1], win(2))]


def _other_preview(enc: Encounter, form_id: str, fid: str, command: Command) -> Preview:
    st = status(enc, fid)
    sh = sheet(enc, fid)
    if isinstance(command, sf.Concentrate):
        tn = tn_for(enc, fid, concentration_tn(enc, fid, command.concentration, command.tn),
                    own_concentration=True)
        pool = concentration_pool(enc, fid, command.concentration)
        return Preview(lines=(f"Rolled now: {plural(pool, 'die', 'dice')} at TN {tn}; each "
                              "success is 1 EP",),
                       odds=tuple(_success_odds(pool, tn,
                                                enc.options.ones_cancel_on_other_rolls, "EP")))
    if isinstance(command, sf.Intimidate | sf.Deceive):
        target = command.target_id
        if target not in enc.fighters:
            return Preview(error=f"no fighter {target!r}")
        th = sheet(enc, target)
        if isinstance(command, sf.Intimidate):
            pool, against = sh.charisma + sh.intimidation, status(enc, target).willpower
        else:
            pool, against = sh.manipulation + sh.subterfuge, th.wits + th.insight
        return Preview(lines=(f"{plural(pool, 'die', 'dice')} against "
                              f"{plural(against, 'die', 'dice')}, rolled now",),
                       odds=tuple(_opposed_odds(enc, fid, pool, target, against, "EP")))
    if isinstance(command, sf.StopRecovery) and st.recovery is not None:
        rec = st.recovery
        base = recovery_tn(enc, rec.full_rounds)
        if base is None:
            return Preview(lines=("Less than a full round: nothing regained",))
        if base == 0:
            return Preview(lines=("An hour or more: everything regained",))
        tn = min(10, base + (2 if rec.did_something else 0))
        down = points_down(enc, fid, rec.pool)
        return Preview(lines=(f"{plural(down, 'die', 'dice')} at TN {tn}, 1s ignored",),
                       odds=tuple(_success_odds(down, tn, False, rec.pool)))
    if isinstance(command, sf.BuyDice):
        return Preview(lines=(f"{2 * command.count} EP for {plural(command.count, 'extra die', 'extra dice')}",))
    if isinstance(command, sf.HoldDie):
        return Preview(lines=("The die counts as showing the current phase until it is used",))
    if isinstance(command, sf.PassDie):
        return Preview(lines=("The die is held, turned into EP or lost (you will be asked)",))
    return Preview()
