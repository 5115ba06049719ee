"""The commands the action forms make. (docs/rulesets/street-fighter.md)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ....changes import RuleViolation
from ..lazy_commands import core, sf
from ..specials import (
    CONCENTRATION_NAMES,
)
from .forms import ASK

if TYPE_CHECKING:
    from ....commands import Command



def _die_id(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int):
        return value
    text = str(value)
    try:
        return int(text.rsplit(":", 1)[-1])
    except ValueError:
        raise RuleViolation(f"{text!r} is not a die") from None


def _int(values: dict[str, Any], key: str, default: int = 0) -> int:
    value = values.get(key, default)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RuleViolation(f"{key.replace('_', ' ')}: {value!r} is not a number") from None


def _ep_damage(values: dict[str, Any]) -> int | None:
    value = values.get("ep_damage", ASK)
    if value in (None, "", ASK):
        return None
    return _int(values, "ep_damage")


def build_command(form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
    v = values
    fid = fighter_id
    target = v.get("target") or None
    simple: dict[str, Command] = {}
    if form_id in ("resolve-next", "resolve-all", "cancel-stack", "start-fight", "start-round",
                   "next-step", "end-round", "end-fight"):
        simple = {
            "resolve-next": sf.ResolveNext(),
            "resolve-all": sf.ResolveNext(all=True),
            "cancel-stack": sf.CancelInterrupts(),
            "start-fight": core.StartFight(),
            "start-round": core.StartRound(),
            "next-step": core.NextStep(),
            "end-round": core.EndRound(),
            "end-fight": core.EndFight(),
        }
        return simple[form_id]
    if form_id == "act":
        return sf.Act(fighter_id=fid, maneuver=str(v.get("maneuver") or ""), target_id=target,
                      die_id=_die_id(v.get("die")), ep_speed=_int(v, "ep_speed"),
                      ep_damage=_ep_damage(v))
    if form_id == "interrupt":
        victim = v.get("interrupts")
        return sf.Interrupt(fighter_id=fid, maneuver=str(v.get("maneuver") or ""),
                            target_id=target, die_id=_die_id(v.get("die")),
                            ep_speed=_int(v, "ep_speed"), ep_damage=_ep_damage(v),
                            interrupts=int(victim) if victim not in (None, "") else None)
    if form_id == "break-free":
        return sf.Act(fighter_id=fid, action="break-free", die_id=_die_id(v.get("die")))
    if form_id == "interrupt-break-free":
        victim = v.get("interrupts")
        return sf.Interrupt(fighter_id=fid, action="break-free", die_id=_die_id(v.get("die")),
                            ep_speed=_int(v, "ep_speed"),
                            interrupts=int(victim) if victim not in (None, "") else None)
    if form_id == "sustain-hold":
        return sf.Act(fighter_id=fid, action="sustain-hold", die_id=_die_id(v.get("die")),
                      ep_speed=_int(v, "ep_speed"), ep_damage=_ep_damage(v))
    if form_id == "hold":
        return sf.HoldDie(fighter_id=fid)
    if form_id == "pass":
        return sf.PassDie(fighter_id=fid)
    if form_id == "convert":
        return sf.ConvertDie(fighter_id=fid, die_id=_die_id(v.get("die")))
    if form_id == "willpower-ep":
        return sf.WillpowerForEp(fighter_id=fid)
    if form_id == "buy-dice":
        return sf.BuyDice(fighter_id=fid, count=max(1, _int(v, "count", 1)))
    if form_id == "roll-dice":
        return sf.RollActionDice(fighter_id=fid)
    if form_id == "concentrate":
        kind = v.get("concentration") or "find-weakness"
        if kind not in CONCENTRATION_NAMES:
            raise RuleViolation(f"{kind!r} is not a way to concentrate")
        tn = _int(v, "tn", 7) if kind == "find-weakness" else None
        return sf.Concentrate(fighter_id=fid, concentration=kind, tn=tn,
                              die_id=_die_id(v.get("die")))
    if form_id in ("intimidate", "deceive"):
        if not target:
            raise RuleViolation(f"choose whom to {form_id}")
        cls = sf.Intimidate if form_id == "intimidate" else sf.Deceive
        return cls(fighter_id=fid, target_id=str(target), die_id=_die_id(v.get("die")))
    if form_id == "recover":
        pool = v.get("pool")
        if pool not in ("chi", "willpower"):
            raise RuleViolation("choose chi or willpower to regain")
        return sf.StartRecovery(fighter_id=fid, pool=pool)
    if form_id == "stop-recovery":
        return sf.StopRecovery(fighter_id=fid)
    if form_id == "activate":
        return sf.ActivateEffect(fighter_id=fid, maneuver=str(v.get("maneuver") or ""))
    if form_id == "drop":
        return sf.DropEffect(fighter_id=fid, name=str(v.get("name") or ""))
    if form_id == "learn-maneuver":
        return sf.SetManeuver(fighter_id=fid, catalogue=str(v.get("catalogue") or ""))
    if form_id == "edit-maneuver":
        update = {k: v[k] for k in ("speed", "damage", "move", "technique", "abort",
                                    "knockdown") if k in v}
        return sf.SetManeuver(fighter_id=fid, replaces=str(v.get("maneuver") or ""),
                              update=update)
    raise RuleViolation(f"no action {form_id!r}")
