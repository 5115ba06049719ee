"""The acting-order roll-off: fighters tied on Wits, Perception and Dexterity with a die on
the phase each roll a d10, the lower going first; fighters still tied roll again among
themselves (docs/rulesets/street-fighter.md#acting-order). A player who rolls their own
dice is asked for their die, never rolled unseen: one question for every such player of
the same roll, and again for a re-roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...base import Choice, Decision
from .model import RollOffLeft, Task
from .state import ROUND, ask, asks_player, clear_pending, in_fight, name, sheet, status

if TYPE_CHECKING:
    from ...model import Encounter
    from ...ruleset import Context


def roll_offs(ctx: Context) -> None:
    """Entering a phase: the tied groups with a die on it roll off, one group after the
    other (a question may stop the roll-off until a player's die is typed)."""
    enc = ctx.enc
    groups: dict[tuple[int, int, int], list[str]] = {}
    for fid in in_fight(enc):
        if _has_phase_die(enc, fid):
            sh = sheet(enc, fid)
            groups.setdefault((sh.wits, sh.perception, sh.dexterity), []).append(fid)
    tied = [group for group in groups.values() if len(group) > 1]
    if tied:  # the phase's roll-offs start from none (round.enter_phase)
        _go_on(ctx, RollOffLeft(later=tied))


def answer(ctx: Context, task: Task, decision_id: str) -> None:
    """The answer to a roll-off question: the asked players' dice (typed faces in the
    order of the question, the app's for those left blank), then the roll-off goes on."""
    assert task.roll_off is not None
    enc = ctx.enc
    left = _without_the_gone(enc, task.roll_off.model_copy(deep=True))
    place = left.rolling
    rolled: list[str] = []
    for fid in left.places[place]:
        if fid not in left.faces:
            left.faces[fid] = _roll(ctx, fid, again=left.again)
            rolled.append(fid)
    said = ", ".join(f"{name(enc, fid)} rolls {left.faces[fid]}" for fid in rolled)
    ctx.summary = (f"{said} for the acting order in phase {enc.state.phase}" if said else
                   "The roll-off goes on: the players asked have left the fight")
    ctx.say(ctx.summary, fighter_id=task.fighter_id, kind="decision", decision=decision_id,
            choice="roll")
    clear_pending(ctx)
    _split(left, place)
    left.places = [members for members in left.places if members]
    _go_on(ctx, left)


def waiting(enc: Encounter) -> bool:
    """A roll-off question waits: nobody's turn comes before the acting order is known."""
    task = enc.state.task
    return task is not None and task.kind == "roll-off"


def _has_phase_die(enc: Encounter, fid: str) -> bool:
    phase = enc.state.phase
    return any(d.state == "ready" and d.face == phase for d in status(enc, fid).dice)


def _go_on(ctx: Context, left: RollOffLeft) -> None:
    """Roll the tied places in order (a tie inside a place is settled before the next
    place, the first tied group before the next), asking the players who roll their own
    dice and have typed nothing for this roll."""
    while True:
        if not left.places:
            if not left.later:
                return
            left.places, left.later = [left.later[0]], left.later[1:]
            left.faces, left.again = {}, False
        place = _tied_place(left)
        if place is None:
            _settled(ctx, [members[0] for members in left.places])
            left.places = []
            continue
        asked: list[str] = []
        for fid in left.places[place]:
            if fid in left.faces:
                continue
            if asks_player(ctx, fid):
                asked.append(fid)
                continue
            left.faces[fid] = _roll(ctx, fid, again=left.again)
        if asked:
            _ask(ctx, left, place, asked)
            return
        _split(left, place)


def _tied_place(left: RollOffLeft) -> int | None:
    return next((i for i, members in enumerate(left.places) if len(members) > 1), None)


def _split(left: RollOffLeft, place: int) -> None:
    """The place's faces put its fighters in order, lowest first; equal faces stay one
    place, which rolls again."""
    by_face: dict[int, list[str]] = {}
    for fid in left.places[place]:
        by_face.setdefault(left.faces[fid], []).append(fid)
    left.places[place:place + 1] = [by_face[face] for face in sorted(by_face)]
    left.faces, left.again = {}, True


def _settled(ctx: Context, order: list[str]) -> None:
    enc = ctx.enc
    ranks = dict(enc.state.rolloff)
    ranks.update({fid: rank for rank, fid in enumerate(order, start=1)})
    ctx.set(ROUND, "rolloff", ranks)
    ctx.say("Acting-order roll-off: " + ", ".join(name(enc, f) for f in order), kind="note")


def _roll(ctx: Context, fid: str, *, again: bool) -> int:
    roll = ctx.roll(1, 10, who=name(ctx.enc, fid), fighter_id=fid,
                    purpose="acting-order roll-off" + (" (re-roll)" if again else ""))
    return roll.faces[0]


def _ask(ctx: Context, left: RollOffLeft, place: int, asked: list[str]) -> None:
    """One question for the players of this roll who roll their own dice; the faces the
    app already rolled for the others of the place are in it."""
    enc = ctx.enc
    left.asked += 1
    who = " and ".join(name(enc, fid) for fid in asked)
    each = "a d10" if len(asked) == 1 else "a d10 each"
    verb = "roll again" if left.again else "roll"
    known = [f"{name(enc, fid)} rolled {face}" for fid, face in left.faces.items()]
    rolled = f"; {', '.join(known)}" if known else ""
    order = "" if len(asked) == 1 else f" ({', '.join(name(enc, fid) for fid in asked)})"
    left.rolling = place
    ask(ctx, Task(kind="roll-off", fighter_id=asked[0], roll_off=left),
        Decision(id=f"roll-off-{enc.round}-{enc.state.phase}-{left.asked}",
                 fighter_id=asked[0],
                 prompt=f"{who}: {verb} {each} for the acting order in phase "
                        f"{enc.state.phase} (lower goes first{rolled})",
                 choices=[Choice(id="roll", label="Roll for the acting order")],
                 dice_needed=f"1d10{' each' if len(asked) > 1 else ''}{order}"))


def _without_the_gone(enc: Encounter, left: RollOffLeft) -> RollOffLeft:
    """Fighters who left the fight (or were taken out) while the question waited drop out
    of the roll-off; the others keep their places (a place left empty is dropped once the
    place being rolled is settled)."""
    still = set(in_fight(enc))
    left.places = [[fid for fid in members if fid in still] for members in left.places]
    left.later = [kept for group in left.later
                  if len(kept := [fid for fid in group if fid in still]) > 1]
    left.faces = {fid: face for fid, face in left.faces.items() if fid in still}
    return left
