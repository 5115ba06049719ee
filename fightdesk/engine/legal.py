"""The legal commands of a fight, read from a ruleset's own views (no Qt).

What the window offers the GM is what the simulator's random policy may pick from: the
decision waiting, the round controls, and every enabled action form with each field's
values (choices, both states of a flag, every number between its bounds). A ruleset may
override ``Autopilot.legal_commands``; this is the default every ruleset gets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import commands as c
from .ruleset import FormField, LegalOption

if TYPE_CHECKING:
    from .base import Decision
    from .model import Encounter
    from .pending_roll import PendingRoll
    from .ruleset import Rules, Views

# The round controls every ruleset shares, as commands; the ruleset's extra controls
# ("resolve-next", ...) are built by its own ``build_command``.
_CORE_STEPS: dict[str, Callable[[], c.Command]] = {
    "start-fight": c.StartFight,
    "start-round": c.StartRound,
    "next-step": c.NextStep,
    "end-round": c.EndRound,
}
# Left out of play: ending the fight by hand (the simulator ends a fight when a camp is
# out or at its round cap), and the extras that open a form rather than give a command.
_NOT_PLAY = frozenset({"end-fight", "interrupt"})


def field_values(field: FormField) -> tuple[Any, ...]:
    """Every value a form field may take."""
    if field.kind == "choice":
        return tuple(key for key, _ in field.choices)
    if field.kind == "number":
        return tuple(range(field.minimum, max(field.minimum, field.maximum) + 1))
    if field.kind == "flag":
        return (False, True)
    return (field.default,)


def answers(decision: Decision) -> LegalOption:
    """Every answer to a decision: each choice, each set of field values, or each amount."""
    did = decision.id
    if decision.choices:
        return LegalOption("answer", decision.fighter_id or "",
                           (("choice", tuple(ch.id for ch in decision.choices)),),
                           lambda v: c.Answer(decision_id=did, choice=v["choice"]))
    if decision.fields:
        spaces: list[tuple[str, tuple[Any, ...]]] = []
        for f in decision.fields:
            if f.kind == "choice":
                options: tuple[Any, ...] = tuple(ch.id for ch in f.choices)
            elif f.kind == "number":
                options = tuple(range(f.minimum, max(f.minimum, f.maximum) + 1))
            else:
                options = (f.default,)
            if f.optional:
                options = (None, *options)
            spaces.append((f.name, options))
        return LegalOption("answer", decision.fighter_id or "", tuple(spaces),
                           lambda v: c.Answer(decision_id=did, values=dict(v)))
    low = decision.minimum or 0
    high = decision.maximum if decision.maximum is not None else low
    return LegalOption("answer", decision.fighter_id or "",
                       (("amount", tuple(range(low, max(low, high) + 1))),),
                       lambda v: c.Answer(decision_id=did, amount=v["amount"]))


def _step(command: c.Command) -> LegalOption:
    return LegalOption(command.kind, "", (), lambda _v: command)


def legal_from_views(rules: Rules, views: Views, enc: Encounter) -> tuple[LegalOption, ...]:
    decision = rules.pending(enc)
    if decision is not None:
        # The rules wait for this answer before anything else goes on.
        return (answers(decision),)
    out: list[LegalOption] = []
    controls = views.round_controls(enc)
    offered = {"start-fight": controls.can_start_fight, "start-round": controls.can_start_round,
               "next-step": controls.can_next_step, "end-round": controls.can_end_round}
    for name, on in offered.items():
        if on:
            out.append(_step(_CORE_STEPS[name]()))
    roll = rules.pending_roll(enc)
    for name, on in controls.extra.items():
        if on and name not in _NOT_PLAY:
            try:
                command = views.build_command(name, "", {})
            except Exception:  # a control that is no command of this ruleset
                continue
            if roll is not None and isinstance(command, c.MakeRoll):
                continue  # the stack dialog's Resolve: the roll is offered below
            out.append(_step(command))
    if roll is not None:
        out.extend(_roll_options(rules, enc, roll))
    for fid in enc.order:
        fighter = enc.fighters.get(fid)
        if fighter is None or rules.is_out(fighter):
            continue
        for form in views.action_forms(enc, fid):
            if not form.enabled or form.role == "gm":
                continue
            spaces = tuple((f.name, field_values(f)) for f in form.fields)
            out.append(LegalOption(form.id, fid, spaces, _builder(views, form.id, fid)))
    return tuple(out)


def _roll_options(rules: Rules, enc: Encounter, roll: PendingRoll) -> list[LegalOption]:
    """A waiting roll: make it (the app's dice), or add what the roll panel offers."""
    rid = roll.id
    out = [_step(c.MakeRoll(roll_id=rid))]
    for option in rules.contribution_options(enc, roll):
        amounts = tuple(range(option.minimum, max(option.minimum, option.maximum) + 1))
        out.append(LegalOption("contribute", option.fighter_id, (("amount", amounts),),
                               _contribution(rid, option.fighter_id, option.kind)))
    return out


def _contribution(rid: int, fid: str, kind: str) -> Any:
    return lambda values: c.Contribute(roll_id=rid, fighter_id=fid, contribution=kind,
                                       amount=int(values.get("amount", 0)))


def _builder(views: Views, form_id: str, fid: str) -> Any:
    return lambda values: views.build_command(form_id, fid, values)
