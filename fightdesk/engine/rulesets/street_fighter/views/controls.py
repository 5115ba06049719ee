"""The round controls and the status line. (docs/rulesets/street-fighter.md)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....derived import Reads, per_fighter
from ....ruleset import (
    RoundControls,
)
from ..round import (
    actors_in_phase,
    current_actor,
    next_phase_with_dice,
    phase_dice,
)
from ..stack import move_title, next_open_move
from ..state import (
    is_out,
    name,
    plural,
    status,
    unspent,
)

if TYPE_CHECKING:
    from ....model import Encounter



def round_controls(enc: Encounter) -> RoundControls:
    rs = enc.state
    stage = rs.stage
    waiting = rs.pending is not None
    stack_open = bool(rs.stack)
    free = not waiting and not stack_open
    actor = current_actor(enc) if stage == "phases" else None
    label = "Next phase"
    if stage == "setup":
        label = "Start the fight"
    elif stage == "fight-start":
        label = "Start round 1"
    elif stage == "round-start":
        label = "Roll action dice"
    elif stage == "round-over":
        label = f"Start round {enc.round + 1}"
    elif stage == "phases":
        if actor is not None:
            die = phase_dice(enc, actor)[0]
            label = f"{name(enc, actor)} lets the {die.face} go"
        else:
            nxt = next_phase_with_dice(enc, rs.phase or 1)
            label = f"Next phase ({nxt})" if nxt else "End of round"
    status_text = rs.pending.prompt if rs.pending is not None else ""
    if not status_text and stage == "phases":
        if stack_open:
            nxt_move = next_open_move(enc)
            status_text = ("Stack: " + (f"next {name(enc, nxt_move.fighter_id)}'s "
                                        f"{move_title(nxt_move)}" if nxt_move else "done"))
        elif actor is not None:
            status_text = f"{name(enc, actor)} to act"
    interrupt_ok = stack_open and not rs.resolving and not waiting
    return RoundControls(
        can_start_fight=stage == "setup" and bool(enc.order),
        can_start_round=stage in ("setup", "fight-start", "round-over") and free,
        can_next_step=stage in ("setup", "fight-start", "round-start", "phases", "round-over")
        and free,
        can_end_round=stage in ("round-start", "phases") and free,
        next_step_label=label,
        status=status_text,
        end_round_loses=_end_round_loses(enc) if stage in ("round-start", "phases") else "",
        actor=actor,
        extra={
            "resolve-next": stack_open and not waiting,
            "resolve-all": stack_open and not waiting,
            "cancel-stack": interrupt_ok and any(m.interrupts is not None for m in rs.stack),
            "interrupt": interrupt_ok,
            "end-fight": stage not in ("setup", "fight-over"),
        },
    )


def _end_round_loses(enc: Encounter) -> str:
    """The unused dice that ending the round now lets go (no phase comes for them)."""
    lost: list[str] = []
    count = 0
    # Each fighter's line is kept until the fighter is written (derived.py).
    for _fid, (dice, line) in per_fighter(enc, "street-fighter:unplayed", Reads(),
                                          _unplayed):
        if dice:
            count += dice
            lost.append(line)
    if not count:
        return ""
    phase = enc.state.phase
    where = (f"phases {phase - 1} to 1 are skipped" if phase is not None and phase > 2 else
             "phase 1 is skipped" if phase == 2 else "the phases are skipped")
    return (f"Ending round {enc.round} now: {where} and {plural(count, 'unused die', 'unused dice')} "
            f"go unplayed (each may still be turned into EP).\n" + "\n".join(lost))


def _unplayed(enc: Encounter, fid: str) -> tuple[int, str]:
    """How many unused dice a fighter in the fight has, and their line ("Kaede: 6, H2")."""
    if is_out(enc, fid):
        return 0, ""
    dice = sorted(unspent(status(enc, fid)), key=lambda d: -d.face)
    faces = [f"H{d.face}" if d.state == "held" else str(d.face) for d in dice]
    return len(dice), f"{name(enc, fid)}: {', '.join(faces)}"


def describe_state(enc: Encounter) -> str:
    return describe_at(enc, current_actor(enc))


def describe_at(enc: Encounter, actor: str | None) -> str:
    """The state line, given whose turn it is (worked out once by the caller)."""
    rs = enc.state
    stage = rs.stage
    if stage == "setup":
        return "Before the fight"
    if stage == "fight-start":
        return "Fight start: concentrate, intimidate or deceive"
    if stage == "fight-over":
        return f"Fight over after round {enc.round}"
    head = f"Round {enc.round}"
    if stage == "round-start":
        return f"{head} · buy extra dice, then roll"
    if stage == "round-end":
        return f"{head} · end of round"
    if stage == "round-over":
        return f"{head} over"
    phase = f"{head} · phase {rs.phase}"
    # round.pass_shown, with whose turn it is already worked out by the caller.
    shown = rs.pass_number + 1 if actor is not None and actor in rs.passed else rs.pass_number
    if shown > 1:
        phase += f" · pass {shown}"
    if rs.stack:
        return f"{phase} · interrupt stack ({len([m for m in rs.stack if m.open])} pending)"
    if actor is not None:
        return f"{phase} · {name(enc, actor)} to act"
    return phase


def waiting_fighters(enc: Encounter) -> list[str]:
    """Fighters with a die on the phase, in acting order (for tests and tooltips)."""
    return actors_in_phase(enc)
