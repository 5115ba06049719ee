"""The round: fight start, round start (EP, bought dice, action dice), phases 10..1 with
the acting order and passes, dice whose phase comes up, and the end of the round.

docs/rulesets/street-fighter.md, "The round": #fight-start to #end-of-the-fight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...base import Choice, Decision
from ...changes import RuleViolation
from ...derived import fighter_values, kept
from . import roll_off
from .model import BREAKS_FOCUS, ROUND_EFFECTS, ActionDie, Task
from .state import (
    ROUND,
    ask,
    asks_player,
    available_ep,
    can_use_ep,
    effective_face,
    gain_ep,
    has_special,
    held_die,
    highest_unspent,
    in_fight,
    later_steps,
    lose_ep,
    name,
    plural,
    set_die,
    sheet,
    spend_ep,
    status,
    status_path,
    unspent,
)

if TYPE_CHECKING:
    from ...model import Encounter
    from ...ruleset import Context


# --- reading ------------------------------------------------------------------------------


def acting_key(enc: Encounter, fid: str) -> tuple[int, int, int, int]:
    """Lowest Wits first, then lowest Perception, then lowest Dexterity, then the roll-off
    (lower goes first, roll_off.py): docs/rulesets/street-fighter.md#acting-order."""
    sh = sheet(enc, fid)
    return (sh.wits, sh.perception, sh.dexterity, enc.state.rolloff.get(fid, 0))


def phase_dice(enc: Encounter, fid: str) -> list[ActionDie]:
    """The fighter's ready dice showing the current phase."""
    phase = enc.state.phase
    return [d for d in status(enc, fid).dice if d.state == "ready" and d.face == phase]


def actors_in_phase(enc: Encounter) -> list[str]:
    if enc.state.stage != "phases" or enc.state.phase is None:
        return []
    actors = [fid for fid in in_fight(enc) if phase_dice(enc, fid)]
    return sorted(actors, key=lambda fid: acting_key(enc, fid))


def has_phase_die(enc: Encounter, fid: str) -> bool:
    phase = enc.state.phase
    return any(d.state == "ready" and d.face == phase for d in status(enc, fid).dice)


def current_actor(enc: Encounter) -> str | None:
    """Whose turn it is in this pass (passes repeat while dice show the phase:
    docs/rulesets/street-fighter.md#phases-and-passes). Worked out once per state: the
    views and the rules ask it many times per click (derived.py drops it on any write)."""
    return kept(enc, "street-fighter:current-actor", find_current_actor)


def find_current_actor(enc: Encounter) -> str | None:
    """:func:`current_actor` worked out afresh: one pass over the fighters with a ready
    die (their faces kept per fighter until the fighter is written: derived.py), no
    sorting."""
    rs = enc.state
    if rs.stage != "phases" or rs.phase is None or roll_off.waiting(enc):
        return None
    phase = rs.phase
    passed = set(rs.passed)
    first: tuple[tuple[int, int, int, int], str] | None = None
    waiting: tuple[tuple[int, int, int, int], str] | None = None
    for fid, faces in fighter_values(enc, "street-fighter:ready-faces", _ready_faces).items():
        if phase not in faces:
            continue
        key = (acting_key(enc, fid), fid)
        if first is None or key < first:
            first = key
        if fid not in passed and (waiting is None or key < waiting):
            waiting = key
    if waiting is not None:
        return waiting[1]
    return first[1] if first is not None else None


def _ready_faces(enc: Encounter, fid: str) -> frozenset[int] | None:
    """The faces of a fighter's ready dice (None: none, or out of the fight)."""
    st = enc.fighters[fid].status
    if st.health <= 0:
        return None
    faces = frozenset(d.face for d in st.dice if d.state == "ready")
    return faces or None


def pass_shown(enc: Encounter) -> int:
    """The pass the current actor acts in (a new pass starts when everyone has gone)."""
    actor = current_actor(enc)
    if actor is not None and actor in enc.state.passed:
        return enc.state.pass_number + 1
    return enc.state.pass_number


def anyone_holding(enc: Encounter) -> bool:
    return any(held_die(status(enc, fid)) is not None for fid in in_fight(enc))


def next_phase_with_dice(enc: Encounter, below: int) -> int | None:
    """The next phase that has anything on it: a ready die, or any held die (a held die
    may act in every phase, so no phase is skipped while one is held)."""
    if anyone_holding(enc):
        return below - 1 if below > 1 else None
    faces = {d.face for fid in in_fight(enc) for d in status(enc, fid).dice
             if d.state == "ready" and d.face < below}
    return max(faces) if faces else None


# --- fight start -------------------------------------------------------------------------


def start_fight(ctx: Context) -> None:
    enc = ctx.enc
    if enc.state.stage != "setup":
        raise RuleViolation("the fight has already started")
    if not in_fight(enc):
        raise RuleViolation("there is nobody in the fight")
    for fid in enc.order:
        _fresh_status(ctx, fid)
    ctx.set(ROUND, "stage", "fight-start")
    ctx.set(ROUND, "opened", [])
    ctx.summary = "The fight begins: each fighter may concentrate, intimidate or deceive"
    ctx.say(ctx.summary, kind="note")


def _fresh_status(ctx: Context, fid: str) -> None:
    """A fighter entering a fight: no EP, no dice, nothing lasting from an earlier fight."""
    path = status_path(fid)
    st = status(ctx.enc, fid)
    sh = sheet(ctx.enc, fid)
    for key, value in (("ep", 0), ("zen_ep", 0), ("ep_debt", 0), ("dice", []),
                       ("bought_dice", 0), ("rolled", False), ("willpower_ep_used", False),
                       ("knocked_down", False), ("acted_this_round", False), ("block", None),
                       ("holding", None), ("concentration", None), ("effects", [])):
        ctx.set(path, key, value)
    ctx.set(path, "health", min(st.health, sh.health))


# --- round start -------------------------------------------------------------------------


def start_round(ctx: Context) -> None:
    enc = ctx.enc
    stage = enc.state.stage
    if stage == "setup":
        start_fight(ctx)
    elif stage not in ("fight-start", "round-over"):
        raise RuleViolation(
            "the round is still going: end it first" if stage in ("round-start", "phases",
                                                                   "round-end")
            else "the fight is over")
    number = enc.round + 1
    ctx.set((), "round", number)
    for key, value in (("stage", "round-start"), ("phase", None), ("passed", []),
                       ("pass_number", 1), ("rolloff", {}), ("end_step", "dice"),
                       ("end_done", []), ("standing_done", [])):
        ctx.set(ROUND, key, value)
    ctx.say(f"Round {number} begins", kind="round-start", round=number)
    for fid in in_fight(enc):
        path = status_path(fid)
        for key, value in (("dice", []), ("bought_dice", 0), ("rolled", False),
                           ("willpower_ep_used", False), ("acted_this_round", False),
                           ("concentration", None)):
            ctx.set(path, key, value)
        st = status(enc, fid)
        if st.recovery is not None and not st.recovery.whole_round:
            data = st.recovery.model_dump()
            data["whole_round"] = True
            ctx.set(path, "recovery", data)
        if not can_use_ep(enc, fid):
            continue
        # EP gain: Intelligence in round 1, half Intelligence rounded up later.
        intel = sheet(enc, fid).intelligence
        gain = intel if number == 1 else (intel + 1) // 2
        gain_ep(ctx, fid, gain, f"round {number} start")
        debt = status(enc, fid).ep_debt
        if debt:
            lose_ep(ctx, fid, debt, "lost to a fight-start intimidation or deception")
            ctx.set(path, "ep_debt", 0)
        if has_special(enc, fid, "zen-no-mind"):
            # Zen No-Mind: 2 free EP at the very start of the round, kept apart.
            ctx.set(path, "zen_ep", 2)
            ctx.say(f"{name(enc, fid)} has 2 temporary EP from Zen No-Mind", fighter_id=fid,
                    kind="points-gain", pool="EP", amount=2, why="Zen No-Mind")
    ctx.summary = f"Round {number} begins: EP gained; buy dice, then roll action dice"


def buy_dice(ctx: Context, fid: str, count: int) -> None:
    enc = ctx.enc
    who = name(enc, fid)
    if enc.state.stage != "round-start":
        raise RuleViolation("extra dice are bought at the start of a round, before the roll")
    st = status(enc, fid)
    if st.rolled:
        raise RuleViolation(f"{who} has already rolled action dice this round")
    spend_ep(ctx, fid, 2 * count, f"{plural(count, 'extra action die', 'extra action dice')}")
    ctx.set(status_path(fid), "bought_dice", st.bought_dice + count)
    ctx.summary = f"{who} buys {plural(count, 'extra die', 'extra dice')} for {2 * count} EP"


def dice_count(enc: Encounter, fid: str) -> int:
    """Dexterity d10s plus bought dice; a weenie rolls exactly one."""
    sh = sheet(enc, fid)
    if sh.weenie:
        return 1
    return sh.dexterity + status(enc, fid).bought_dice


def roll_dice_for(ctx: Context, fid: str, *, then: str = "pass") -> bool:
    """Roll the fighter's action dice; a player who rolls their own dice and has not typed
    them yet is asked for them instead (never rolled unseen). True when a question waits;
    ``then`` says what its answer goes on to ("roll-all": the others' dice, then phase 10)."""
    enc = ctx.enc
    who = name(enc, fid)
    if enc.state.stage != "round-start":
        raise RuleViolation("action dice are rolled at the start of a round")
    if status(enc, fid).health <= 0:
        raise RuleViolation(f"{who} is out of the fight")
    if status(enc, fid).rolled:
        raise RuleViolation(f"{who} has already rolled action dice this round")
    count = dice_count(enc, fid)
    if asks_player(ctx, fid, count):
        ask(ctx, Task(kind="action-dice", fighter_id=fid, then=then),
            Decision(id=f"action-dice-{fid}-{enc.round}", fighter_id=fid,
                     prompt=f"{who}: roll the action dice ({count}d10)",
                     choices=[Choice(id="roll", label="Roll the action dice")],
                     dice_needed=f"{count}d10"))
        return True
    roll_action_dice(ctx, fid)
    return False


def roll_action_dice(ctx: Context, fid: str) -> None:
    """The action dice: typed faces if the GM gave them, else the app's."""
    enc = ctx.enc
    count = dice_count(enc, fid)
    roll = ctx.roll(count, 10, who=name(enc, fid), purpose="action dice", fighter_id=fid)
    faces = sorted(roll.faces, reverse=True)
    roll.outcome = "phases " + ", ".join(str(f) for f in faces) if faces else "no dice"
    ctx.set(status_path(fid), "dice", [{"id": i + 1, "face": f, "state": "ready"}
                                       for i, f in enumerate(faces)])
    ctx.set(status_path(fid), "rolled", True)


def roll_all_and_begin(ctx: Context) -> None:
    """NextStep at round start: roll whoever has not rolled (a player who rolls their own
    dice is asked, one at a time), stand up the knocked down, then phase 10."""
    enc = ctx.enc
    ctx.summary = f"Round {enc.round}: action dice rolled"
    for fid in in_fight(enc):
        if not status(enc, fid).rolled and roll_dice_for(ctx, fid, then="roll-all"):
            ctx.summary = f"Round {enc.round}: {name(enc, fid)} rolls the action dice"
            return
    continue_round_start(ctx)


def continue_round_start(ctx: Context) -> None:
    """Knockdown: "with no die left, the fighter stands at the start of the next round the
    same way" (docs/rulesets/street-fighter.md#knockdown)."""
    enc = ctx.enc
    for fid in in_fight(enc):
        if fid in enc.state.standing_done or not status(enc, fid).knocked_down:
            continue
        ctx.tx.append((*ROUND, "standing_done"), fid)
        if stand_up(ctx, fid, then="round-start"):
            return
    enter_first_phase(ctx)


def stand_up(ctx: Context, fid: str, *, then: str) -> bool:
    """Spend the highest unspent die to stand, or ask about Kippup's 1 EP.
    Returns True when a decision is now pending."""
    enc = ctx.enc
    who = name(enc, fid)
    die = highest_unspent(enc, fid)
    kippup = has_special(enc, fid, "kippup") and can_use_ep(enc, fid) and \
        available_ep(status(enc, fid)) >= 1
    if kippup and die is not None:
        ask(ctx, Task(kind="stand", fighter_id=fid, then=then),
            Decision(id=f"stand-{fid}-{enc.round}-{enc.state.next_move_id}", fighter_id=fid,
                     prompt=f"{who} is knocked down: stand with Kippup for 1 EP, or spend "
                            f"the highest action die ({effective_face(enc, die)})?",
                     choices=[Choice(id="ep", label="Kippup: pay 1 EP"),
                              Choice(id="die", label=f"Spend die {effective_face(enc, die)}")]))
        return True
    if kippup:
        spend_ep(ctx, fid, 1, "Kippup")
        stood(ctx, fid, "with Kippup for 1 EP")
        return False
    if die is None:
        ctx.set(status_path(fid), "knocked_down", True)
        ctx.say(f"{who} is down with no action die left: stands at the start of next round",
                fighter_id=fid, kind="condition-on", name="Knocked down")
        return False
    set_die(ctx, fid, die.id, "spent", "stood up")
    stood(ctx, fid, f"spending the die {effective_face(enc, die)}")
    return False


def stood(ctx: Context, fid: str, how: str) -> None:
    ctx.set(status_path(fid), "knocked_down", False)
    ctx.say(f"{name(ctx.enc, fid)} stands up {how}", fighter_id=fid, kind="condition-off",
            name="Knocked down")


def enter_first_phase(ctx: Context) -> None:
    ctx.set(ROUND, "stage", "phases")
    first = next_phase_with_dice(ctx.enc, 11)
    if first is None:
        ctx.set(ROUND, "phase", 1)
        ctx.say("No action dice this round", kind="step", phase=1)
        return
    enter_phase(ctx, first)


# --- phases ------------------------------------------------------------------------------


def enter_phase(ctx: Context, phase: int) -> None:
    ctx.set(ROUND, "phase", phase)
    ctx.set(ROUND, "passed", [])
    ctx.set(ROUND, "pass_number", 1)
    ctx.set(ROUND, "rolloff", {})
    ctx.say(f"Phase {phase}", kind="step", phase=phase)
    _break_long_effects(ctx, phase)
    roll_off.roll_offs(ctx)


def _break_long_effects(ctx: Context, phase: int) -> None:
    """Teleport, Shrouded Moon, Ghostform kept longer than a phase break recovery and
    concentration (docs/rulesets/street-fighter.md#round-long-effects)."""
    enc = ctx.enc
    for fid in in_fight(enc):
        st = status(enc, fid)
        long = [e for e in st.effects if e.special in BREAKS_FOCUS
                and (e.round < enc.round or (e.phase is not None and e.phase > phase))]
        if not long:
            continue
        why = f"{long[0].name} kept longer than a phase"
        break_focus(ctx, fid, why)


def break_focus(ctx: Context, fid: str, why: str) -> None:
    st = status(ctx.enc, fid)
    who = name(ctx.enc, fid)
    if st.concentration is not None and not st.concentration.broken:
        data = st.concentration.model_dump()
        data["broken"] = True
        ctx.set(status_path(fid), "concentration", data)
        ctx.say(f"{who}'s concentration is broken ({why})", fighter_id=fid,
                kind="condition-off", name="Concentrating")
    if st.recovery is not None:
        ctx.set(status_path(fid), "recovery", None)
        ctx.say(f"{who}'s recovery is broken ({why}): nothing regained", fighter_id=fid,
                kind="condition-off", name="Recovering")


def mark_passed(ctx: Context, fid: str) -> None:
    """The fighter took this pass's action (acted, held, converted or let the die go)."""
    rs = ctx.enc.state
    if fid in rs.passed:
        ctx.set(ROUND, "passed", [fid])
        ctx.set(ROUND, "pass_number", rs.pass_number + 1)
    else:
        ctx.tx.append((*ROUND, "passed"), fid)


def die_going_choices(enc: Encounter, fid: str, die: ActionDie, *,
                      can_hold: bool) -> list[Choice]:
    choices: list[Choice] = []
    st = status(enc, fid)
    if can_hold and held_die(st) is None:
        choices.append(Choice(id="hold", label=f"Hold the {die.face}"))
    if can_use_ep(enc, fid) and effective_face(enc, die) <= sheet(enc, fid).perception:
        choices.append(Choice(id="convert", label="Turn it into 1 EP"))
    if choices:
        choices.append(Choice(id="lose", label="Let it be lost"))
    return choices


def let_die_go(ctx: Context, fid: str, die: ActionDie, *, then: str, can_hold: bool) -> bool:
    """A die must be used when its phase comes up: held, turned into EP, or lost; the EP
    conversion is offered before it is lost
    (docs/rulesets/street-fighter.md#a-die-whose-phase-comes-up). True if a decision waits."""
    enc = ctx.enc
    choices = die_going_choices(enc, fid, die, can_hold=can_hold)
    if choices:
        face = effective_face(enc, die)
        ask(ctx, Task(kind="die-going", fighter_id=fid, die_id=die.id,
                      then=then),
            Decision(id=f"die-{fid}-{enc.round}-{die.id}", fighter_id=fid,
                     prompt=f"{name(enc, fid)}'s die {face} is not used: "
                            + ", ".join(c.label.lower() for c in choices) + "?",
                     choices=choices))
        return True
    lose_die(ctx, fid, die, "not used")
    return False


def lose_die(ctx: Context, fid: str, die: ActionDie, why: str) -> None:
    face = effective_face(ctx.enc, die)
    set_die(ctx, fid, die.id, "lost", why)
    ctx.say(f"{name(ctx.enc, fid)}'s die {face} is lost ({why})", fighter_id=fid,
            kind="die-lost", die=die.id, face=face)


def convert_die(ctx: Context, fid: str, die: ActionDie) -> None:
    enc = ctx.enc
    who = name(enc, fid)
    if not can_use_ep(enc, fid):
        raise RuleViolation(f"{who} is a weenie: weenies cannot gain EP")
    face = effective_face(enc, die)
    per = sheet(enc, fid).perception
    if face > per:
        raise RuleViolation(
            f"{who} cannot turn the die {face} into EP: it shows more than Perception {per}")
    set_die(ctx, fid, die.id, "converted", "turned into EP")
    gain_ep(ctx, fid, 1, f"die {face} turned into EP")


def hold(ctx: Context, fid: str, die: ActionDie) -> None:
    who = name(ctx.enc, fid)
    if held_die(status(ctx.enc, fid)) is not None:
        raise RuleViolation(f"{who} already holds a die: only one die can be held at a time")
    set_die(ctx, fid, die.id, "held", f"held in phase {ctx.enc.state.phase}")
    ctx.say(f"{who} holds the die {die.face}", fighter_id=fid, kind="note")


def next_step(ctx: Context) -> None:
    """NextStep in the phases: the fighter whose turn it is lets the die go; with nobody
    left in the phase, go to the next phase down, or to the end of the round."""
    enc = ctx.enc
    actor = current_actor(enc)
    if actor is not None:
        pass_turn(ctx, actor)
        return
    phase = enc.state.phase or 1
    nxt = next_phase_with_dice(enc, phase)
    if nxt is None:
        begin_end_of_round(ctx)
        return
    enter_phase(ctx, nxt)
    ctx.summary = f"Phase {nxt}"


def pass_turn(ctx: Context, fid: str) -> None:
    enc = ctx.enc
    if current_actor(enc) != fid:
        raise RuleViolation(f"it is not {name(enc, fid)}'s turn")
    die = phase_dice(enc, fid)[0]
    mark_passed(ctx, fid)
    ctx.summary = f"{name(enc, fid)} does not act with the {die.face}"
    let_die_go(ctx, fid, die, then="pass", can_hold=True)


# --- end of round ------------------------------------------------------------------------


def begin_end_of_round(ctx: Context) -> None:
    enc = ctx.enc
    if enc.state.stage not in ("phases", "round-start"):
        raise RuleViolation("there is no round going on to end")
    ctx.set(ROUND, "stage", "round-end")
    ctx.set(ROUND, "end_step", "dice")
    ctx.set(ROUND, "end_done", [])
    ctx.summary = f"End of round {enc.round}"
    continue_end_of_round(ctx)


def continue_end_of_round(ctx: Context) -> None:
    """Leftover dice (conversion offered), concentrations, then recoveries; then everything
    that lasts until the round ends ends (docs/rulesets/street-fighter.md#end-of-round)."""
    enc = ctx.enc
    rs = enc.state
    if rs.end_step == "dice":
        for fid in in_fight(enc):
            for die in unspent(status(enc, fid)):
                if let_die_go(ctx, fid, die, then="end-round", can_hold=False):
                    return
        ctx.set(ROUND, "end_step", "concentration")
    if enc.state.end_step == "concentration":
        for fid in in_fight(enc):
            conc = status(enc, fid).concentration
            if conc is None or conc.broken or fid in enc.state.end_done:
                continue
            ctx.tx.append((*ROUND, "end_done"), fid)
            if later_steps().ask_concentration_end(ctx, fid):
                return
        ctx.set(ROUND, "end_step", "recovery")
        ctx.set(ROUND, "end_done", [])
    if enc.state.end_step == "recovery":
        for fid in in_fight(enc):
            if fid in enc.state.end_done:
                continue
            ctx.tx.append((*ROUND, "end_done"), fid)
            if later_steps().ask_recovery_end(ctx, fid):
                return
        ctx.set(ROUND, "end_step", "cleanup")
    _cleanup(ctx)


def _cleanup(ctx: Context) -> None:
    enc = ctx.enc
    for fid in enc.order:
        if fid not in enc.fighters:
            continue
        st = status(enc, fid)
        path = status_path(fid)
        who = name(enc, fid)
        if st.block is not None:
            ctx.set(path, "block", None)
            ctx.say(f"{who}'s block ends with the round", fighter_id=fid,
                    kind="condition-off", name="Blocking")
        gone = [e for e in st.effects if e.special in ROUND_EFFECTS]
        if gone:
            ctx.set(path, "effects", [e for e in st.effects if e.special not in ROUND_EFFECTS])
            for e in gone:
                ctx.say(f"{who}'s {e.name} ends with the round", fighter_id=fid,
                        kind="condition-off", name=e.name)
        zen = st.zen_ep
        if zen:
            ctx.set(path, "zen_ep", 0)
            ctx.say(f"{who}'s {zen} unspent Zen No-Mind EP are lost", fighter_id=fid,
                    kind="points-spend", pool="EP", amount=zen, why="Zen No-Mind EP unspent")
        if st.concentration is not None:
            ctx.set(path, "concentration", None)
        if st.recovery is not None and not st.recovery.whole_round:
            data = st.recovery.model_dump()
            data["whole_round"] = True
            ctx.set(path, "recovery", data)
    from ... import conditions

    conditions.tick(ctx, "round-end")  # the GM's conditions lasting rounds count down
    for key, value in (("stage", "round-over"), ("phase", None), ("passed", []),
                       ("rolloff", {}), ("end_done", []), ("end_step", "dice")):
        ctx.set(ROUND, key, value)
    ctx.say(f"Round {enc.round} ends", kind="round-end", round=enc.round)


def end_fight(ctx: Context) -> None:
    """EP vanish at the end of the fight (docs/rulesets/street-fighter.md#end-of-the-fight)."""
    enc = ctx.enc
    if enc.state.stage == "fight-over":
        raise RuleViolation("the fight is already over")
    for fid in enc.order:
        if fid not in enc.fighters:
            continue
        st = status(enc, fid)
        path = status_path(fid)
        if st.ep or st.zen_ep:
            ctx.say(f"{name(enc, fid)}'s {st.ep + st.zen_ep} EP vanish", fighter_id=fid,
                    kind="points-spend", pool="EP", amount=st.ep + st.zen_ep, why="end of the fight")
        for key, value in (("ep", 0), ("zen_ep", 0), ("ep_debt", 0), ("dice", []),
                           ("block", None), ("holding", None), ("concentration", None),
                           ("recovery", None), ("effects", []), ("knocked_down", False)):
            ctx.set(path, key, value)
    closing: dict[str, Any] = {"stage": "fight-over", "phase": None, "passed": [],
                               "stack": [], "resolving": False, "damage": None,
                               "pending": None, "task": None, "rolloff": {}}
    for key, value in closing.items():
        ctx.set(ROUND, key, value)
    ctx.summary = "The fight is over: all EP are lost"
    ctx.say(ctx.summary, kind="round-end", round=enc.round)
