"""Lasting maneuver effects: the round-long ones (Teleport, Shrouded Moon, Ghostform, Yoga
Flame, Fire Strike) and those switched on for a number of attacks (Flame Fist, Toughskin).

docs/rulesets/street-fighter.md: #round-long-effects, #flame-fist-and-toughskin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...changes import RuleViolation
from .model import COUNTED_EFFECTS, ROUND_EFFECTS, LastingEffect
from .stack import end_block
from .state import find_maneuver, is_out, name, plural, sheet, status, status_path

if TYPE_CHECKING:
    from ...ruleset import Context



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
