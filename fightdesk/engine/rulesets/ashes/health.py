"""Ashes hit points: damage and the half-HP rule, unconscious and dead, and recovery
between fights (docs/rulesets/ashes.md#hit-points, #recovery)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .totals import pool_now, status_path

if TYPE_CHECKING:
    from ...model import Fighter
    from ...ruleset import Context
    from . import commands as ash


def hurt(ctx: Context, target: Fighter, amount: int, why: str,
         source: str | None = None) -> None:
    """docs/rulesets/ashes.md#hit-points: damage, the half-HP rule, unconscious at 0,
    dead below 0."""
    enc = ctx.enc
    before = int(enc.fighters[target.id].status.hp)
    ctx.set(status_path(target.id), "hp", before - amount)
    ctx.say(f"{target.name} takes {amount} damage ({why})", fighter_id=target.id,
            kind="damage", target=target.id, amount=amount, source=source)
    after_damage(ctx, target.id, amount, before)


def after_damage(ctx: Context, fighter_id: str, amount: int, before: int) -> None:
    """docs/rulesets/ashes.md#hit-points: what ``amount`` damage (already off the HP,
    which stood at ``before``) does, whoever dealt it or typed it: it counts toward the
    round's half-HP loss; unconscious at 0, dead below 0."""
    enc = ctx.enc
    target = enc.fighters[fighter_id]
    st = target.status
    hp = int(st.hp)
    taken = int(st.damage_this_round) + amount
    ctx.set(status_path(target.id), "damage_this_round", taken)
    half = -(-int(target.sheet.max_hp) // 2)
    if (taken >= half > taken - amount and not target.sheet.negates_half_hp
            and st.offense is None and enc.state.stage == "turns"):
        ctx.set(status_path(target.id), "offense", "lost: reeling from half HP lost this round")
        ctx.say(f"{target.name} has lost half their HP this round and loses the "
                "offensive action", fighter_id=target.id, kind="note")
    if hp < 0 <= before:
        ctx.say(f"{target.name} is dead", fighter_id=target.id, kind="note")
    elif hp == 0 < before:
        ctx.say(f"{target.name} is unconscious, bleeding out within 5 minutes",
                fighter_id=target.id, kind="note")

def gm_damage(ctx: Context, command: ash.Damage) -> None:
    enc = ctx.enc
    if command.fighter_id not in enc.fighters:
        ctx.fail(f"no fighter {command.fighter_id!r}")
    target = enc.fighters[command.fighter_id]
    hurt(ctx, target, command.amount, "subdual" if command.subdual else "GM")
    ctx.summary = f"GM: {target.name} takes {command.amount} damage"

def recover(ctx: Context, command: ash.Recover) -> None:
    """docs/rulesets/ashes.md#recovery: between fights, a GM action."""
    enc = ctx.enc
    if command.fighter_id not in enc.fighters:
        ctx.fail(f"no fighter {command.fighter_id!r}")
    if enc.state.stage == "turns":
        ctx.fail("recovery is between fights, not in a round")
    if not command.quarters and not command.days:
        ctx.fail("give the time spent resting")
    f = enc.fighters[command.fighter_id]
    gained: list[str] = []
    pools = {"force": (int(f.status.force), int(f.sheet.force))}
    for stat, full in f.sheet.physical.items():
        pools[stat] = (pool_now(f, stat), int(full))
    physical = {**f.sheet.physical, **f.status.physical}
    for pool, (now, full) in pools.items():
        missing = full - now
        if missing <= 0:
            continue
        back = missing if command.days else min(missing, max(1, missing // 10) * command.quarters)
        if pool == "force":
            ctx.set(status_path(f.id), "force", now + back)
        else:
            physical[pool] = now + back
        gained.append(f"{back} {pool.title()}")
    if physical != {**f.sheet.physical, **f.status.physical}:
        ctx.set(status_path(f.id), "physical", physical)
    if command.days and f.status.hp < f.sheet.max_hp:
        hp = min(int(f.sheet.max_hp), int(f.status.hp) + command.days)
        gained.append(f"{hp - int(f.status.hp)} HP")
        ctx.set(status_path(f.id), "hp", hp)
    time = f"{command.days} day(s)" if command.days else f"{command.quarters * 15} minutes"
    ctx.summary = f"{f.name} rests {time}: " + (", ".join(gained) or "nothing to recover")
    ctx.say(ctx.summary, fighter_id=f.id, kind="points-gain")
