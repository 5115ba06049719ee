"""The action forms a fighter may fill in now. (docs/rulesets/street-fighter.md)"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ....ruleset import (
    ActionForm,
    FormField,
)
from ..catalogue import catalogue
from ..model import COUNTED_EFFECTS, PASSIVE, TECHNIQUES, ActionDie, Maneuver
from ..round import (
    current_actor,
    phase_dice,
)
from ..specials import (
    CONCENTRATION_NAMES,
    points_down,
)
from ..stack import die_is_free, holder_of, move_title
from ..state import (
    available_ep,
    can_use_ep,
    effective_face,
    held_die,
    is_out,
    maneuvers_of,
    name,
    sheet,
    status,
    unspent,
)

# The EP damage field's "decide after soak".
ASK = "ask"

if TYPE_CHECKING:
    from ....model import Encounter



def _die_choices(enc: Encounter, fid: str, dice: list[ActionDie]) -> tuple[tuple[str, str], ...]:
    phase = enc.state.phase
    out = []
    for d in dice:
        face = effective_face(enc, d)
        if d.state == "held":
            label = f"held die (counts as {face})"
        elif d.face == phase:
            label = f"{d.face} (this phase)"
        else:
            label = str(d.face)
        out.append((f"{fid}:{d.id}", label))
    return tuple(out)


def _targets(enc: Encounter, fid: str) -> tuple[tuple[str, str], ...]:
    return tuple((other, enc.fighters[other].name) for other in enc.order
                 if other != fid and other in enc.fighters and not is_out(enc, other))


def _usable_maneuvers(enc: Encounter, fid: str) -> list[Maneuver]:
    return [m for m in maneuvers_of(enc, fid) if m.special not in PASSIVE]


def _maneuver_label(m: Maneuver) -> str:
    flags = [f for f, on in (("abort", m.abort), ("block", m.block), ("hold", m.hold),
                             ("knockdown", m.knockdown)) if on]
    dmg = "no damage" if m.no_damage else f"damage {m.damage:+d}"
    tail = f", {', '.join(flags)}" if flags else ""
    return f"{m.name} (speed {m.speed:+d}, {dmg}, move {m.move:+d}{tail})"


def _ep_fields(enc: Encounter, fid: str, with_damage: bool) -> tuple[FormField, ...]:
    ep = available_ep(status(enc, fid)) if can_use_ep(enc, fid) else 0
    fields = [FormField("ep_speed", "EP on speed (+2 each)", "number", default=0, minimum=0,
                        maximum=ep, tooltip="Declared with the move; cannot be added later")]
    if with_damage:
        choices = ((ASK, "Decide after soak"), *tuple((str(n), str(n)) for n in range(ep + 1)))
        fields.append(FormField("ep_damage", "EP damage dice", "choice", choices=choices,
                                default=ASK, tooltip="1 EP per die, added after soak"))
    return tuple(fields)


def _why_no_turn(enc: Encounter, fid: str) -> str:
    rs = enc.state
    if rs.stage != "phases":
        return "only during the phases of a round"
    if rs.pending is not None:
        return f"answer the open question first: {rs.pending.prompt}"
    if rs.stack:
        return "the interrupt stack is open"
    if is_out(enc, fid):
        return f"{name(enc, fid)} is out of the fight"
    if held_die(status(enc, fid)) is not None:
        return ""
    actor = current_actor(enc)
    if actor == fid:
        return ""
    if not phase_dice(enc, fid):
        return f"no die showing phase {rs.phase} and no held die"
    return f"it is {name(enc, actor)}'s turn"


def _why_no_interrupt(enc: Encounter, fid: str) -> str:
    rs = enc.state
    if rs.stage != "phases" or not rs.stack:
        return "no move is pending to interrupt"
    if rs.pending is not None:
        return f"answer the open question first: {rs.pending.prompt}"
    if rs.resolving:
        return "the stack is already resolving"
    if is_out(enc, fid):
        return f"{name(enc, fid)} is out of the fight"
    if not unspent(status(enc, fid)):
        return "no unspent die"
    if not any(m.open and m.fighter_id != fid for m in rs.stack):
        return "only this fighter's own moves are pending"
    return ""


def action_forms(enc: Encounter, fid: str) -> tuple[ActionForm, ...]:
    """Every form of the fighter, in the order the card and the dialog list them: those
    of the stage the round is at, then the ones offered all fight long."""
    if fid not in enc.fighters:
        return ()
    stage = enc.state.stage
    targets = _targets(enc, fid)
    target_field = FormField("target", "Target", "choice", choices=targets,
                             default=targets[0][0] if targets else None)
    # Intimidation and deception need someone to roll against: with nobody else in the
    # fight they are offered greyed out, not as forms no command can be built from.
    nobody = "" if targets else "nobody else is in the fight"
    forms: list[ActionForm] = []
    if stage == "fight-start":
        forms += _fight_start_forms(enc, fid, target_field, nobody)
    if stage == "round-start":
        forms += _dice_forms(enc, fid)
    if stage == "phases":
        forms += _phase_forms(enc, fid, target_field, nobody)
    if stage in ("round-start", "phases", "round-end"):
        forms.append(_willpower_form(enc, fid))
    if stage not in ("setup", "fight-over"):
        forms += _lasting_forms(enc, fid)
    forms.append(_learn_form(enc, fid))
    forms.append(_edit_form(enc, fid))
    return tuple(_with_verb(f, f.rolls and rolls_now(f.id, stage)) for f in forms)


def _concentration_fields() -> tuple[FormField, ...]:
    return (
        FormField("concentration", "Concentration", "choice",
                  choices=tuple(CONCENTRATION_NAMES.items()), default="find-weakness"),
        FormField("tn", "Find Weakness TN (GM may raise)", "number", default=7, minimum=7,
                  maximum=10),
    )


def _fight_start_forms(enc: Encounter, fid: str, target_field: FormField,
                       nobody: str) -> list[ActionForm]:
    """Before round 1: one concentration, intimidation or deception each."""
    why = "already did this before round 1" if fid in enc.state.opened else ""
    weenie_why = "weenies cannot gain EP" if sheet(enc, fid).weenie else why
    opposed_why = why or nobody
    return [
        ActionForm("concentrate", "Concentrate", _concentration_fields(),
                   enabled=not weenie_why, reason=weenie_why, shortcut="C"),
        ActionForm("intimidate", "Intimidate", (target_field,), enabled=not opposed_why,
                   reason=opposed_why, shortcut="I"),
        ActionForm("deceive", "Deceive", (target_field,), enabled=not opposed_why,
                   reason=opposed_why),
    ]


def _dice_forms(enc: Encounter, fid: str) -> list[ActionForm]:
    """The round's start: buy extra dice, roll the action dice."""
    st = status(enc, fid)
    ep = available_ep(st) if can_use_ep(enc, fid) else 0
    why = ("weenies cannot spend EP" if sheet(enc, fid).weenie else
           "already rolled" if st.rolled else "needs 2 EP per die" if ep < 2 else "")
    return [
        ActionForm("buy-dice", "Buy extra dice (2 EP each)",
                   (FormField("count", "Dice", "number", default=1, minimum=1,
                              maximum=max(1, ep // 2)),),
                   enabled=not why, reason=why),
        ActionForm("roll-dice", "Roll action dice", enabled=not st.rolled,
                   reason="already rolled" if st.rolled else "", shortcut="R"),
    ]


class _PhaseFields(NamedTuple):
    """The fields the forms of a phase share."""

    target: FormField
    maneuver: FormField
    turn_die: FormField
    interrupt_die: FormField
    interrupts: FormField


def _phase_fields(enc: Encounter, fid: str, target_field: FormField) -> _PhaseFields:
    rs = enc.state
    dice = unspent(status(enc, fid))
    maneuvers = _usable_maneuvers(enc, fid)
    man_choices = tuple((m.name, _maneuver_label(m)) for m in maneuvers)
    man_field = FormField("maneuver", "Maneuver", "choice", choices=man_choices,
                          default=man_choices[0][0] if man_choices else None)
    turn_dice = [d for d in dice if d.state == "held" or (
        d.face == rs.phase and current_actor(enc) == fid)]
    die_field_act = FormField("die", "Die", "choice", choices=_die_choices(enc, fid,
                                                                            turn_dice),
                              default=f"{fid}:{turn_dice[0].id}" if turn_dice else None)
    int_dice = sorted(dice, key=lambda d: (not die_is_free(enc, d), -d.face))
    die_field_int = FormField("die", "Die", "choice",
                              choices=_die_choices(enc, fid, int_dice),
                              default=f"{fid}:{int_dice[0].id}" if int_dice else None)
    open_moves = sorted((m for m in rs.stack if m.open and m.fighter_id != fid),
                        key=lambda m: -m.id)
    victim_field = FormField(
        "interrupts", "Interrupts", "choice",
        choices=tuple((str(m.id), f"{name(enc, m.fighter_id)}'s {move_title(m)} "
                                  f"(speed {m.speed_base} without EP)")
                      for m in open_moves),
        default=str(open_moves[0].id) if open_moves else None)
    return _PhaseFields(target_field, man_field, die_field_act, die_field_int, victim_field)


def _phase_forms(enc: Encounter, fid: str, target_field: FormField,
                 nobody: str) -> list[ActionForm]:
    """The phases: the turn's moves, what a spare die buys, and breaking or keeping a
    hold."""
    fields = _phase_fields(enc, fid, target_field)
    turn_why = _why_no_turn(enc, fid)
    int_why = _why_no_interrupt(enc, fid)
    return [*_turn_forms(enc, fid, fields, turn_why, int_why),
            *_spare_die_forms(enc, fid, fields, turn_why, nobody),
            *_hold_forms(enc, fid, fields, turn_why, int_why)]


def _turn_forms(enc: Encounter, fid: str, fields: _PhaseFields, turn_why: str,
                int_why: str) -> list[ActionForm]:
    """Act, interrupt, hold the die, let it go."""
    rs = enc.state
    st = status(enc, fid)
    forms = [
        ActionForm("act", "Act", (fields.maneuver, fields.target, fields.turn_die,
                                  *_ep_fields(enc, fid, True)),
                   enabled=not turn_why, reason=turn_why, shortcut="A"),
        ActionForm("interrupt", "Interrupt",
                   (fields.maneuver, fields.target, fields.interrupt_die, fields.interrupts,
                    *_ep_fields(enc, fid, True)),
                   enabled=not int_why, reason=int_why, shortcut="I", role="react"),
    ]
    on_turn = current_actor(enc) == fid and not rs.stack and rs.pending is None
    hold_why = "" if on_turn else (turn_why or "only on the fighter's turn")
    if on_turn and held_die(st) is not None:
        hold_why = "only one die can be held at a time"
    forms.append(ActionForm("hold", "Hold the die", enabled=not hold_why,
                            reason=hold_why, shortcut="H"))
    forms.append(ActionForm("pass", "Let the die go", enabled=on_turn,
                            reason="" if on_turn else (turn_why or "not this fighter's turn")))
    return forms


def _spare_die_forms(enc: Encounter, fid: str, fields: _PhaseFields, turn_why: str,
                     nobody: str) -> list[ActionForm]:
    """What a die buys besides a maneuver: 1 EP, a concentration, an intimidation or a
    deception."""
    st, sh = status(enc, fid), sheet(enc, fid)
    conv = [d for d in unspent(st) if effective_face(enc, d) <= sh.perception]
    conv_why = ("weenies cannot gain EP" if sh.weenie else
                "" if conv else f"no unspent die shows at most Perception {sh.perception}")
    c_why = turn_why or ("weenies cannot gain EP" if sh.weenie else
                         "already concentrating" if st.concentration else "")
    opposed_why = turn_why or nobody
    return [
        ActionForm("convert", "Turn a die into 1 EP",
                   (FormField("die", "Die", "choice",
                              choices=_die_choices(enc, fid, conv),
                              default=f"{fid}:{conv[0].id}" if conv else None),),
                   enabled=not conv_why, reason=conv_why, shortcut="E"),
        ActionForm("concentrate", "Concentrate (rolled at round end)",
                   (*_concentration_fields(), fields.turn_die), enabled=not c_why,
                   reason=c_why, shortcut="C"),
        ActionForm("intimidate", "Intimidate", (fields.target, fields.turn_die),
                   enabled=not opposed_why, reason=opposed_why),
        ActionForm("deceive", "Deceive", (fields.target, fields.turn_die),
                   enabled=not opposed_why, reason=opposed_why),
    ]


def _hold_forms(enc: Encounter, fid: str, fields: _PhaseFields, turn_why: str,
                int_why: str) -> list[ActionForm]:
    """Breaking free of a hold (on the turn, or as an interrupt), sustaining one's own."""
    st = status(enc, fid)
    forms: list[ActionForm] = []
    if holder_of(enc, fid) is not None:
        if enc.state.stack:
            forms.append(ActionForm("interrupt-break-free", "Break free (interrupt)",
                                    (fields.interrupt_die, fields.interrupts,
                                     *_ep_fields(enc, fid, False)),
                                    enabled=not int_why, reason=int_why, role="react"))
        else:
            forms.append(ActionForm("break-free", "Break free", (fields.turn_die,),
                                    enabled=not turn_why, reason=turn_why))
    if st.holding is not None:
        why = turn_why or ("" if st.holding.actions < st.holding.limit
                           else "the hold has lasted Grab actions")
        forms.append(ActionForm("sustain-hold", f"Sustain the {st.holding.maneuver}",
                                (fields.turn_die, *_ep_fields(enc, fid, True)),
                                enabled=not why, reason=why))
    return forms


def _willpower_form(enc: Encounter, fid: str) -> ActionForm:
    st = status(enc, fid)
    why = ("weenies cannot gain EP" if sheet(enc, fid).weenie else
           "once a round" if st.willpower_ep_used else
           "no Willpower left" if st.willpower < 1 else "")
    return ActionForm("willpower-ep", "Spend 1 Willpower for 1 EP", enabled=not why,
                      reason=why, shortcut="W")


def _lasting_forms(enc: Encounter, fid: str) -> list[ActionForm]:
    """All fight long: recovery, switching on a counted effect, dropping what lasts."""
    st, sh = status(enc, fid), sheet(enc, fid)
    forms: list[ActionForm] = []
    if st.recovery is None:
        pools = tuple((p, p.title()) for p in ("chi", "willpower")
                      if points_down(enc, fid, p) > 0)
        forms.append(ActionForm("recover", "Start recovering",
                                (FormField("pool", "Regain", "choice", choices=pools,
                                           default=pools[0][0] if pools else None),),
                                enabled=bool(pools) and not is_out(enc, fid),
                                reason="" if pools else "nothing to regain"))
    else:
        pending = enc.state.pending
        forms.append(ActionForm("stop-recovery", "Stop recovering and roll",
                                enabled=pending is None,
                                reason="" if pending is None else "answer first"))
    counted = [m for m in maneuvers_of(enc, fid) if m.special in COUNTED_EFFECTS]
    if counted:
        why = "Focus 0: it would last no attacks" if sh.focus < 1 else ""
        forms.append(ActionForm("activate", "Switch on",
                                (FormField("maneuver", "Maneuver", "choice",
                                           choices=tuple((m.name, m.name) for m in counted),
                                           default=counted[0].name),),
                                enabled=not why, reason=why))
    droppable = [e.name for e in st.effects]
    if st.block is not None:
        droppable.append("block")
    if st.holding is not None:
        droppable.append("hold")
    if droppable:
        forms.append(ActionForm("drop", "Drop",
                                (FormField("name", "What", "choice",
                                           choices=tuple((d, d) for d in droppable),
                                           default=droppable[0]),)))
    return forms


def _with_verb(form: ActionForm, rolls: bool) -> ActionForm:
    """The form with its button's word: a move that rolls nothing yet (it goes on the
    stack and rolls when it resolves) is declared, not rolled
    (docs/rulesets/street-fighter.md#acting)."""
    verb = FORM_VERBS.get(form.id, form.verb)
    if verb == "Roll" and not rolls:
        verb = "Declare"
    return form._replace(verb=verb, rolls=rolls)


def rolls_now(form_id: str, stage: str) -> bool:
    """Whether applying the form rolls dice at once (the action dialog offers dice only
    then): a move declared in the phases goes on the stack and rolls when it resolves;
    concentrating, intimidating and deceiving roll at once only before round 1
    (docs/rulesets/street-fighter.md#fight-start)."""
    if form_id in ("concentrate", "intimidate", "deceive"):
        return stage == "fight-start"
    return form_id in ROLLING_FORMS


# The forms whose command rolls dice itself: the action dice, and the recovery roll made
# on stopping (docs/rulesets/street-fighter.md#recovery).
ROLLING_FORMS = frozenset({"roll-dice", "stop-recovery"})


# The action dialog's confirm button per form: what pressing it does, so spending
# Willpower or turning a die into EP never reads "Roll".
FORM_VERBS = {
    "concentrate": "Concentrate", "intimidate": "Roll", "deceive": "Roll", "buy-dice": "Buy",
    "roll-dice": "Roll", "act": "Roll", "interrupt": "Roll", "hold": "Hold",
    "pass": "Let it go", "convert": "Convert", "interrupt-break-free": "Roll",
    "break-free": "Roll", "sustain-hold": "Roll", "willpower-ep": "Spend", "recover": "Start",
    "stop-recovery": "Roll", "activate": "Switch on", "drop": "Drop",
    "learn-maneuver": "Add", "edit-maneuver": "Change",
}


def _learn_form(enc: Encounter, fid: str) -> ActionForm:
    known = {m.name.lower() for m in sheet(enc, fid).maneuvers}
    choices = tuple((m.name, _maneuver_label(m)) for m in catalogue()
                    if m.name.lower() not in known)
    return ActionForm("learn-maneuver", "GM: add a maneuver from the catalogue",
                      (FormField("catalogue", "Maneuver", "choice", choices=choices,
                                 default=choices[0][0] if choices else None),),
                      enabled=bool(choices), reason="" if choices else "knows them all",
                      role="gm")


def _edit_form(enc: Encounter, fid: str) -> ActionForm:
    mans = maneuvers_of(enc, fid)
    first = mans[0] if mans else None
    return ActionForm("edit-maneuver", "GM: change a maneuver", (
        FormField("maneuver", "Maneuver", "choice", choices=tuple((m.name, _maneuver_label(m))
                                                                   for m in mans),
                  default=first.name if first else None),
        FormField("speed", "Speed modifier", "number", default=first.speed if first else 0,
                  minimum=-10, maximum=10),
        FormField("damage", "Damage modifier", "number", default=first.damage if first else 0,
                  minimum=-10, maximum=10),
        FormField("move", "Move modifier", "number", default=first.move if first else 0,
                  minimum=-10, maximum=20),
        FormField("technique", "Technique", "choice",
                  choices=tuple((t, t.title()) for t in TECHNIQUES),
                  default=first.technique if first else "punch"),
        FormField("abort", "Abort", "flag", default=first.abort if first else False),
        FormField("knockdown", "Knockdown", "flag", default=first.knockdown if first else False),
    ), enabled=bool(mans), reason="" if mans else "no maneuvers", role="gm")
