"""Damage: the pool after soak, the EP decisions around the roll, dodges, and what the
damage does (health, out of the fight, stun, knockdown, blocks, holds).

docs/rulesets/street-fighter.md: #damage-pool to #out-of-the-fight, and #blocks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ...base import Choice, Decision
from ...changes import RuleViolation
from ...odds import at_least, pool_successes
from ...ruleset import Odds
from .model import DamageRoll, Move, Task
from .round import stand_up
from .stack import lose_move, lose_move_or_highest_die
from .state import (
    ROUND,
    ask,
    asks_player,
    available_ep,
    can_use_ep,
    clear_pending,
    gain_ep,
    later_steps,
    lose_ep,
    move_by_id,
    name,
    pending_moves,
    plural,
    set_die,
    sheet,
    spend_ep,
    status,
    status_path,
    successes,
    tn_for,
    unspent,
)

if TYPE_CHECKING:
    from ...model import Encounter
    from ...ruleset import Context, Odds


class Pool(NamedTuple):
    """A damage pool with the parts that made it, for the log and the preview (a named
    tuple: the autopilot makes one for every foe and maneuver it weighs)."""

    dice: int
    raw: int
    parts: tuple[tuple[str, int], ...]
    block_applied: bool

    def describe(self) -> str:
        text = ""
        for i, (label, value) in enumerate(self.parts):
            if i == 0:
                text = f"{label} {value}"
            else:
                text += f" {'-' if value < 0 else '+'} {label} {abs(value)}"
        tail = " (minimum one)" if self.raw < 1 else ""
        return f"{text} = {plural(self.dice, 'die', 'dice')}{tail}"


def damage_pool(enc: Encounter, move: Move) -> Pool:
    """Strength + technique + damage modifier - Stamina (- Block technique while a block
    holds), minimum one die; Flame Fist and Toughskin add theirs
    (docs/rulesets/street-fighter.md#damage-pool)."""
    assert move.maneuver is not None and move.target_id is not None
    man = move.maneuver
    # Each fighter looked up once: the autopilot asks this for every foe and maneuver.
    attacker, defender = enc.fighters[move.fighter_id], enc.fighters[move.target_id]
    att, dfn, dfn_status = attacker.sheet, defender.sheet, defender.status
    parts: list[tuple[str, int]] = [("Strength", att.strength)]
    if man.technique:
        parts.append((man.technique.title(), att.rating(man.technique)))
    if man.damage:
        parts.append((man.name, man.damage))
    for e in attacker.status.effects:
        if e.special == "flame-fist" and e.damage_bonus:
            parts.append((e.name, e.damage_bonus))
    parts.append(("Stamina", -dfn.stamina))
    for e in dfn_status.effects:
        if e.special == "toughskin" and e.soak_bonus:
            parts.append((e.name, -e.soak_bonus))
    block = dfn_status.block
    applied = False
    # A block absorbs Block-technique attacks (docs/rulesets/street-fighter.md#blocks): with
    # Block 0 it absorbs none, so it neither soaks nor gives EP.
    if block is not None and block.absorbed < block.limit and \
            (not block.guards or man.technique in block.guards):
        applied = True
        parts.append((block.maneuver, -dfn.block))
    raw = sum(v for _, v in parts)
    return Pool(dice=max(1, raw), raw=raw, parts=tuple(parts), block_applied=applied)


def start_damage(ctx: Context, move: Move) -> None:
    enc = ctx.enc
    pool = damage_pool(enc, move)
    ctx.say(f"{name(enc, move.fighter_id)}'s {move.maneuver.name if move.maneuver else ''} "
            f"damage pool: {pool.describe()}", fighter_id=move.fighter_id, kind="note")
    ctx.set(ROUND, "damage", DamageRoll(move_id=move.id, stage="attacker-ep", pool=pool.dice,
                                        block_applied=pool.block_applied).model_dump())
    advance(ctx)


def _dmg(enc: Encounter) -> DamageRoll:
    dmg = enc.state.damage
    assert dmg is not None
    return dmg


def _update(ctx: Context, **changes: object) -> None:
    data = _dmg(ctx.enc).model_dump()
    data.update(changes)
    ctx.set(ROUND, "damage", data)


def advance(ctx: Context, *, dice_offered: bool = False) -> None:
    """Run the damage until it needs a decision or is done. ``dice_offered``: the
    question just answered had a field for the damage dice."""
    enc = ctx.enc
    dmg = _dmg(enc)
    move = move_by_id(enc, dmg.move_id)
    att, dfn = move.fighter_id, move.target_id
    assert dfn is not None
    if dmg.stage == "attacker-ep":
        # The attacker adds EP damage dice after soak
        # (docs/rulesets/street-fighter.md#ep-damage-dice).
        if can_use_ep(enc, att) and available_ep(status(enc, att)) > 0:
            if move.ep_damage is not None:
                amount = min(move.ep_damage, available_ep(status(enc, att)))
                _add_dice(ctx, amount, declared=True)
            else:
                ask(ctx, Task(kind="damage", fighter_id=att, then="damage"),
                    Decision(id=f"m{move.id}-attack-ep", fighter_id=att,
                             prompt=f"{name(enc, att)}: add EP damage dice to the "
                                    f"{plural(dmg.pool, 'die', 'dice')} (1 EP each)?",
                             minimum=0, maximum=available_ep(status(enc, att)),
                             # The dice are typed at the question before the roll:
                             # here only when the defender is not asked next.
                             dice_needed="" if _defender_asked(enc, dfn)
                             else _dice_needed(enc, dmg.pool)))
                return
        _update(ctx, stage="defender-ep")
        dmg = _dmg(enc)
    if dmg.stage == "defender-ep":
        total = dmg.pool + dmg.added
        # The defender removes dice at 1 EP each before the roll.
        if can_use_ep(enc, dfn) and available_ep(status(enc, dfn)) > 0 and total > 0:
            ask(ctx, Task(kind="damage", fighter_id=dfn, then="damage"),
                Decision(id=f"m{move.id}-defend-ep", fighter_id=dfn,
                         prompt=f"{name(enc, dfn)}: remove damage dice from the "
                                f"{plural(total, 'die', 'dice')} before the roll (1 EP each)?",
                         minimum=0, maximum=min(total, available_ep(status(enc, dfn))),
                         dice_needed=f"up to {total}d10"))
            return
        if not dice_offered and asks_player(ctx, att, total):
            # The player rolls their own damage dice: asked for them, never rolled unseen.
            ask(ctx, Task(kind="damage", fighter_id=att, then="damage"),
                Decision(id=f"m{move.id}-damage-dice", fighter_id=att,
                         prompt=f"{enc.fighters[att].name}: roll the "
                                f"{plural(total, 'damage die', 'damage dice')} "
                                f"(TN {tn_for(enc, att, 6)})",
                         choices=[Choice(id="roll", label="Roll the damage")],
                         dice_needed=f"{total}d10"))
            return
        roll_damage(ctx)
        dmg = _dmg(enc)
    if dmg.stage == "dodge":
        if dmg.damage > 0 and can_use_ep(enc, dfn) and available_ep(status(enc, dfn)) > 0:
            ask(ctx, Task(kind="damage", fighter_id=dfn, then="damage"),
                Decision(id=f"m{move.id}-dodge-{dmg.dodges + 1}", fighter_id=dfn,
                         prompt=f"{name(enc, dfn)} takes {dmg.damage}: dodge for 1 EP "
                                f"(2 dice at TN {tn_for(enc, dfn, 6)})?",
                         choices=[Choice(id="dodge", label="Dodge: 1 EP, roll 2 dice"),
                                  Choice(id="accept", label=f"Take {dmg.damage}")],
                         dice_needed="2d10"))
            return
        finish(ctx)


def _defender_asked(enc: Encounter, dfn: str) -> bool:
    """Whether the defender is asked to remove damage dice before the roll."""
    return can_use_ep(enc, dfn) and available_ep(status(enc, dfn)) > 0


def _dice_needed(enc: Encounter, pool: int) -> str:
    return f"{pool}d10 or more"


def _add_dice(ctx: Context, amount: int, *, declared: bool) -> None:
    dmg = _dmg(ctx.enc)
    move = move_by_id(ctx.enc, dmg.move_id)
    if amount:
        spend_ep(ctx, move.fighter_id, amount, plural(amount, "damage die", "damage dice"))
    elif declared:
        ctx.say(f"{name(ctx.enc, move.fighter_id)} adds no EP damage dice (declared with the "
                "move)", fighter_id=move.fighter_id, kind="decision")
    _update(ctx, added=amount, stage="defender-ep")


def answer(ctx: Context, decision_id: str, choice: str | None, amount: int | None) -> None:
    """Apply the answer to one of the damage decisions, then go on."""
    enc = ctx.enc
    dmg = _dmg(enc)
    move = move_by_id(enc, dmg.move_id)
    dfn = move.target_id
    assert dfn is not None
    decision = enc.state.pending
    assert decision is not None
    clear_pending(ctx)
    if decision_id.endswith("-attack-ep"):
        value = _amount(decision, amount)
        ctx.summary = (f"{name(enc, move.fighter_id)} adds "
                       f"{plural(value, 'EP damage die', 'EP damage dice')}")
        ctx.say(ctx.summary, fighter_id=move.fighter_id, kind="decision",
                decision=decision_id, amount=value)
        _add_dice(ctx, value, declared=False)
    elif decision_id.endswith("-damage-dice"):
        ctx.summary = f"{name(enc, move.fighter_id)} rolls the damage"
        ctx.say(ctx.summary, fighter_id=move.fighter_id, kind="decision",
                decision=decision_id, choice=choice)
        roll_damage(ctx)
    elif decision_id.endswith("-defend-ep"):
        value = _amount(decision, amount)
        ctx.summary = f"{name(enc, dfn)} removes {plural(value, 'damage die', 'damage dice')}"
        ctx.say(ctx.summary, fighter_id=dfn, kind="decision", decision=decision_id,
                amount=value)
        if value:
            spend_ep(ctx, dfn, value, f"removing {plural(value, 'damage die', 'damage dice')}")
        _update(ctx, removed=value)
        roll_damage(ctx)
    elif "-dodge-" in decision_id:
        if choice not in ("dodge", "accept"):
            raise RuleViolation("answer 'dodge' or 'accept'")
        if choice == "accept":
            ctx.summary = f"{name(enc, dfn)} takes the damage"
            ctx.say(ctx.summary, fighter_id=dfn, kind="decision", decision=decision_id,
                    choice=choice)
            _update(ctx, stage="stand")
            finish(ctx)
            return
        ctx.summary = f"{name(enc, dfn)} dodges for 1 EP"
        ctx.say(ctx.summary, fighter_id=dfn, kind="decision", decision=decision_id,
                choice=choice)
        dodge(ctx)
    else:  # pragma: no cover - ids are made above
        raise RuleViolation(f"no decision {decision_id!r}")
    if enc.state.damage is not None and enc.state.damage.stage != "stand" \
            and enc.state.pending is None:
        advance(ctx, dice_offered=bool(decision.dice_needed))


def _amount(decision: Decision, amount: int | None) -> int:
    if amount is None:
        raise RuleViolation(f"{decision.prompt} - answer with a number")
    low = decision.minimum or 0
    high = decision.maximum if decision.maximum is not None else low
    if not low <= amount <= high:
        raise RuleViolation(f"answer between {low} and {high}")
    return amount


def roll_damage(ctx: Context) -> None:
    """The roll: d10s at TN 6 (the attacker's TN), each success a health level; 1s do not
    cancel unless the option says so. No dice left is a miss."""
    enc = ctx.enc
    dmg = _dmg(enc)
    move = move_by_id(enc, dmg.move_id)
    dice = dmg.pool + dmg.added - dmg.removed
    if dice <= 0:
        ctx.say(f"{name(enc, move.fighter_id)}'s {move.maneuver.name if move.maneuver else ''} "
                "has no damage dice left: a miss", fighter_id=move.fighter_id, kind="note")
        _update(ctx, damage=0, stage="dodge")
        return
    tn = tn_for(enc, move.fighter_id, 6)
    ones = enc.options.ones_cancel_on_damage
    roll = ctx.roll(dice, 10, who=name(enc, move.fighter_id),
                    purpose=f"damage ({move.maneuver.name if move.maneuver else ''}, TN {tn})",
                    fighter_id=move.fighter_id,
                    odds=lambda: pool_odds(dice, tn, ones, "health level"))
    hits = successes(roll.faces, tn, ones_cancel=ones)
    roll.outcome = plural(hits, "success", "successes")
    _update(ctx, damage=hits, stage="dodge")


def pool_odds(dice: int, tn: int, ones_cancel: bool, what: str) -> tuple[Odds, ...]:
    """The exact chances of at least one, two, three successes of a pool (logged with
    the roll, as the action dialog showed them)."""
    dist = pool_successes(dice, tn, ones_cancel=ones_cancel)
    return tuple(Odds(f"at least {plural(k, what)} (TN {tn})", at_least(dist, k))
                 for k in range(1, min(dice, 3) + 1))


def dodge(ctx: Context) -> None:
    """1 EP: two dice of Dodge at TN 6; each success removes one point (1s cancel)."""
    enc = ctx.enc
    dmg = _dmg(enc)
    move = move_by_id(enc, dmg.move_id)
    dfn = move.target_id
    assert dfn is not None
    spend_ep(ctx, dfn, 1, "a dodge")
    tn = tn_for(enc, dfn, 6)
    ones = enc.options.ones_cancel_on_other_rolls
    roll = ctx.roll(2, 10, who=name(enc, dfn), purpose=f"dodge (TN {tn})", fighter_id=dfn,
                    odds=lambda: pool_odds(2, tn, ones, "success"))
    hits = successes(roll.faces, tn, ones_cancel=ones)
    left = max(0, dmg.damage - hits)
    roll.outcome = f"{plural(hits, 'success', 'successes')}: damage {dmg.damage} -> {left}"
    _update(ctx, damage=left, dodges=dmg.dodges + 1)


def finish(ctx: Context) -> None:
    """Apply the damage and what follows from it; Kippup may still ask a question."""
    enc = ctx.enc
    dmg = _dmg(enc)
    move = move_by_id(enc, dmg.move_id)
    att, dfn = move.fighter_id, move.target_id
    assert dfn is not None and move.maneuver is not None
    man = move.maneuver
    amount = min(dmg.damage, status(enc, dfn).health)
    _count_attack(ctx, att, dfn, dmg.block_applied)
    if dmg.damage <= 0:
        ctx.say(f"{name(enc, att)}'s {man.name} misses {name(enc, dfn)}" +
                (f" ({plural(dmg.dodges, 'dodge')})" if dmg.dodges else ""),
                fighter_id=att, kind="damage", target=dfn, amount=0)
        ctx.set(ROUND, "damage", None)
        later_steps().finish_move(ctx, move, landed=False)
        return
    health = status(enc, dfn).health - amount
    ctx.set(status_path(dfn), "health", health)
    ctx.say(f"{name(enc, att)}'s {man.name} hits {name(enc, dfn)} for {dmg.damage} "
            f"(health {health}/{sheet(enc, dfn).health})", fighter_id=att, kind="damage",
            target=dfn, amount=amount)
    ctx.set(ROUND, "damage", None)
    if health <= 0:
        knock_out(ctx, dfn)
        later_steps().finish_move(ctx, move, landed=True)
        return
    if dmg.damage > sheet(enc, dfn).stamina:
        stun(ctx, dfn, f"{dmg.damage} damage is above Stamina {sheet(enc, dfn).stamina}")
    asked = False
    if man.knockdown:
        asked = knock_down(ctx, dfn, move)
    if not asked:
        later_steps().finish_move(ctx, move, landed=True)


def _count_attack(ctx: Context, att: str, dfn: str, block_applied: bool) -> None:
    """Blocks count absorbed attacks and give EP; Flame Fist and Toughskin count theirs."""
    enc = ctx.enc
    block = status(enc, dfn).block
    if block_applied and block is not None:
        absorbed = block.absorbed + 1
        if block.gives_ep:
            gain_ep(ctx, dfn, 1, f"blocked with {block.maneuver}")
        if absorbed >= block.limit:
            ctx.set(status_path(dfn), "block", None)
            ctx.say(f"{name(enc, dfn)}'s {block.maneuver} has absorbed "
                    f"{plural(absorbed, 'attack')} (Block technique {block.limit}) and ends",
                    fighter_id=dfn, kind="condition-off", name="Blocking")
        else:
            ctx.set(status_path(dfn), "block", block.model_dump() | {"absorbed": absorbed})
    for fid, special in ((att, "flame-fist"), (dfn, "toughskin")):
        st = status(enc, fid)
        changed = False
        kept = []
        for e in st.effects:
            if e.special == special and e.attacks_left is not None:
                changed = True
                left = e.attacks_left - 1
                if left <= 0:
                    ctx.say(f"{name(enc, fid)}'s {e.name} ends (its attacks are used up)",
                            fighter_id=fid, kind="condition-off", name=e.name)
                    continue
                kept.append(e.model_dump() | {"attacks_left": left})
            else:
                kept.append(e.model_dump())
        if changed:
            ctx.set(status_path(fid), "effects", kept)


def knock_out(ctx: Context, fid: str) -> None:
    """At 0 health the fighter is out of the fight: dice, moves, blocks and holds go."""
    enc = ctx.enc
    ctx.say(f"{name(enc, fid)} is out of the fight", fighter_id=fid, kind="down")
    for die in unspent(status(enc, fid)):
        set_die(ctx, fid, die.id, "lost", "out of the fight")
    for move in pending_moves(enc, fid):
        lose_move(ctx, move.id, f"{name(enc, fid)} is out of the fight")
    path = status_path(fid)
    for key in ("block", "holding", "concentration", "recovery"):
        ctx.set(path, key, None)
    ctx.set(path, "effects", [])
    for other, f in enc.fighters.items():
        if f.status.holding is not None and f.status.holding.target_id == fid:
            ctx.set(status_path(other), "holding", None)


def stun(ctx: Context, fid: str, why: str) -> None:
    """Stun: lose the pending move if one is pending, otherwise the highest unspent die;
    and 1 EP (docs/rulesets/street-fighter.md#stun)."""
    enc = ctx.enc
    ctx.say(f"{name(enc, fid)} is stunned ({why})", fighter_id=fid, kind="condition-on",
            name="Stunned")
    lose_move_or_highest_die(ctx, fid, "stunned")
    if can_use_ep(enc, fid):
        lose_ep(ctx, fid, 1, "stunned")


def knock_down(ctx: Context, fid: str, move: Move) -> bool:
    """Knockdown: pending moves are lost; the highest die is spent at once to stand, or
    1 EP with Kippup (a decision). Returns True when the Kippup question is pending."""
    enc = ctx.enc
    ctx.say(f"{name(enc, fid)} is knocked down", fighter_id=fid, kind="condition-on",
            name="Knocked down")
    for pending in pending_moves(enc, fid):
        lose_move(ctx, pending.id, "knocked down")
    ctx.set(status_path(fid), "knocked_down", True)
    ctx.set(ROUND, "damage", DamageRoll(move_id=move.id, stage="stand", pool=0).model_dump())
    asked = stand_up(ctx, fid, then="damage")
    if not asked:
        ctx.set(ROUND, "damage", None)
    return asked


def gm_knock_down(ctx: Context, fid: str) -> None:
    """The GM knocks a fighter down: the knockdown rule as after a blow (pending moves
    lost; in the phases the highest die spent at once to stand, or 1 EP with Kippup;
    otherwise, or with no die left, standing at the start of the next round)."""
    enc = ctx.enc
    if status(enc, fid).knocked_down:
        ctx.fail(f"{name(enc, fid)} is already knocked down")
    ctx.say(f"{name(enc, fid)} is knocked down", fighter_id=fid, kind="condition-on",
            name="Knocked down")
    for pending in pending_moves(enc, fid):
        lose_move(ctx, pending.id, "knocked down")
    ctx.set(status_path(fid), "knocked_down", True)
    if enc.state.stage == "phases":
        stand_up(ctx, fid, then="pass")
