"""Small readers and writers shared by the street-fighter rules.

Readers take the encounter; writers take the Context and change state only through
``ctx.set`` / ``ctx.tx`` so that every write is an undoable change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ...changes import RuleViolation
from ...derived import kept
from .catalogue import basic_maneuvers
from .model import (
    ActionDie,
    ConcentrationKind,
    DieState,
    Maneuver,
    Move,
    StreetFighterRound,
    StreetFighterSheet,
    StreetFighterStatus,
)

if TYPE_CHECKING:
    from ...base import Decision
    from ...model import Encounter
    from ...ruleset import Context
    from .model import Task

ROUND: tuple[str, ...] = ("state",)


# --- questions ----------------------------------------------------------------------------


def asks_player(ctx: Context, fid: str, dice: int = 1) -> bool:
    """A roll of ``dice`` dice is asked of the fighter's player: they roll their own dice
    and the GM has not typed this roll's faces already (never rolled unseen)."""
    return ctx.enc.fighters[fid].rolls_own_dice and dice > 0 and not ctx.dice.typed_waiting


def ask(ctx: Context, task: Task, decision: Decision) -> None:
    """Put a question to the table: the engine waits for its answer (``task`` says what
    the answer goes on to)."""
    ctx.set(ROUND, "task", task.model_dump())
    ctx.set(ROUND, "pending", decision.model_dump())
    ctx.say(decision.prompt, fighter_id=decision.fighter_id, kind="ask")


def clear_pending(ctx: Context) -> None:
    ctx.set(ROUND, "pending", None)
    ctx.set(ROUND, "task", None)


# --- the later steps ----------------------------------------------------------------------
# The modules import one way only: state -> roll_off -> round -> stack -> specials ->
# damage -> resolve -> rules. Where a lower step hands the fight on to a higher one (the stack
# resolves its next move, damage finishes the move, the round's end rolls concentrations),
# it calls these, which the rules hand down when they load.


class LaterSteps(Protocol):
    """The steps of the higher modules a lower one hands the fight on to."""

    def resolve_move(self, ctx: Context, move: Move) -> None: ...

    def finish_move(self, ctx: Context, move: Move, *, landed: bool) -> None: ...

    def roll_concentration(self, ctx: Context, fid: str) -> None: ...

    def ask_concentration_end(self, ctx: Context, fid: str) -> bool: ...

    def ask_recovery_end(self, ctx: Context, fid: str) -> bool: ...


_LATER: list[LaterSteps] = []


def hand_down(steps: LaterSteps) -> None:
    """The rules give the lower modules the later steps (once, at their import)."""
    _LATER[:] = [steps]


def later_steps() -> LaterSteps:
    return _LATER[0]


def status_path(fid: str) -> tuple[str, ...]:
    return ("fighters", fid, "status")


def rnd(enc: Encounter) -> StreetFighterRound:
    return enc.state


def sheet(enc: Encounter, fid: str) -> StreetFighterSheet:
    return enc.fighters[fid].sheet


def status(enc: Encounter, fid: str) -> StreetFighterStatus:
    return enc.fighters[fid].status


def name(enc: Encounter, fid: str | None) -> str:
    return enc.name_of(fid)


def fighter_or_fail(enc: Encounter, fid: str) -> None:
    if fid not in enc.fighters:
        raise RuleViolation(f"no fighter {fid!r}")


def is_out(enc: Encounter, fid: str) -> bool:
    """Out of the fight at 0 health, or no longer in the encounter at all."""
    fighter = enc.fighters.get(fid)
    return fighter is None or fighter.status.health <= 0


def concentration_tn(enc: Encounter, fid: str, kind: ConcentrationKind, tn: int | None) -> int:
    """Find an Angle: the arena's TN (8 open, 7 unusual, 6 obstacle-strewn); Find Weakness:
    7, the GM may raise it for bad senses; Power Up: 10 - Focus."""
    if kind == "find-angle":
        return enc.options.arena_tn
    if kind == "find-weakness":
        base = max(7, tn or 7)
        return min(10, base)
    return max(2, min(10, 10 - sheet(enc, fid).focus))


def in_fight(enc: Encounter) -> list[str]:
    """Fighters still in the fight, in the encounter's order."""
    return [fid for fid in enc.order if fid in enc.fighters and not is_out(enc, fid)]


# --- dice -------------------------------------------------------------------------------


def effective_face(enc: Encounter, die: ActionDie) -> int:
    """A held die counts as showing the current phase (docs/rulesets/street-fighter.md#held-die)."""
    if die.state == "held" and enc.state.phase is not None:
        return int(enc.state.phase)
    return die.face


def unspent(st: StreetFighterStatus) -> list[ActionDie]:
    return [d for d in st.dice if d.state in ("ready", "held")]


def held_die(st: StreetFighterStatus) -> ActionDie | None:
    for d in st.dice:
        if d.state == "held":
            return d
    return None


def die_by_id(st: StreetFighterStatus, die_id: int) -> ActionDie | None:
    for d in st.dice:
        if d.id == die_id:
            return d
    return None


def die_index(st: StreetFighterStatus, die_id: int) -> int:
    for i, d in enumerate(st.dice):
        if d.id == die_id:
            return i
    raise RuleViolation(f"no die #{die_id}")


def highest_unspent(enc: Encounter, fid: str) -> ActionDie | None:
    """The highest unspent die (a held die counts as the current phase); ties: the first."""
    best: ActionDie | None = None
    for d in unspent(status(enc, fid)):
        if best is None or effective_face(enc, d) > effective_face(enc, best):
            best = d
    return best


def set_die(ctx: Context, fid: str, die_id: int, state: DieState, why: str = "") -> None:
    st = status(ctx.enc, fid)
    i = die_index(st, die_id)
    die = st.dice[i]
    ctx.tx.set_item((*status_path(fid), "dice"), i,
                    {"id": die.id, "face": die.face, "state": state, "why": why})


# --- EP ----------------------------------------------------------------------------------


def available_ep(st: StreetFighterStatus) -> int:
    return st.ep + st.zen_ep


def can_use_ep(enc: Encounter, fid: str) -> bool:
    """Weenies cannot gain or use EP (docs/rulesets/street-fighter.md#weenies)."""
    return not sheet(enc, fid).weenie


def spend_ep(ctx: Context, fid: str, amount: int, why: str) -> tuple[int, int]:
    """Spend EP, Zen No-Mind's temporary EP first (docs/rulesets/street-fighter.md#zen-no-mind).
    Returns (from temporary, from the fighter's own)."""
    if amount <= 0:
        return (0, 0)
    enc = ctx.enc
    who = name(enc, fid)
    if not can_use_ep(enc, fid):
        raise RuleViolation(f"{who} is a weenie: weenies cannot spend EP")
    st = status(enc, fid)
    if available_ep(st) < amount:
        raise RuleViolation(
            f"not enough EP: {who} has {available_ep(st)}, {why} needs {amount}"
        )
    zen = min(st.zen_ep, amount)
    own = amount - zen
    if zen:
        ctx.set(status_path(fid), "zen_ep", st.zen_ep - zen)
    if own:
        ctx.set(status_path(fid), "ep", st.ep - own)
    ctx.say(f"{who} spends {amount} EP on {why}", fighter_id=fid, kind="points-spend",
            pool="EP", amount=amount, why=why)
    return (zen, own)


def refund_ep(ctx: Context, fid: str, zen: int, own: int, why: str) -> None:
    st = status(ctx.enc, fid)
    if zen:
        ctx.set(status_path(fid), "zen_ep", st.zen_ep + zen)
    if own:
        ctx.set(status_path(fid), "ep", st.ep + own)
    if zen + own:
        ctx.say(f"{name(ctx.enc, fid)} gets {zen + own} EP back ({why})", fighter_id=fid,
                kind="points-gain", pool="EP", amount=zen + own, why=why)


def gain_ep(ctx: Context, fid: str, amount: int, why: str) -> int:
    """Add EP (nothing for a weenie). Returns what was gained."""
    if amount <= 0 or not can_use_ep(ctx.enc, fid):
        return 0
    st = status(ctx.enc, fid)
    ctx.set(status_path(fid), "ep", st.ep + amount)
    ctx.say(f"{name(ctx.enc, fid)} gains {amount} EP ({why})", fighter_id=fid, kind="points-gain",
            pool="EP", amount=amount, why=why)
    return amount


def lose_ep(ctx: Context, fid: str, amount: int, why: str) -> int:
    """Take EP away (a penalty, not a spend): temporary EP go first; never below 0."""
    st = status(ctx.enc, fid)
    amount = min(amount, available_ep(st))
    if amount <= 0:
        return 0
    zen = min(st.zen_ep, amount)
    if zen:
        ctx.set(status_path(fid), "zen_ep", st.zen_ep - zen)
    if amount - zen:
        ctx.set(status_path(fid), "ep", st.ep - (amount - zen))
    ctx.say(f"{name(ctx.enc, fid)} loses {amount} EP ({why})", fighter_id=fid, kind="points-spend",
            pool="EP", amount=amount, why=why)
    return amount


# --- target numbers and successes ---------------------------------------------------------


def tn_for(enc: Encounter, fid: str, base: int, *, own_concentration: bool = False) -> int:
    """A fighter's target number: +2 while concentrating this round or recovering
    (docs/rulesets/street-fighter.md#target-numbers); never above 10.

    ``own_concentration`` is the end-of-round concentration roll, which is at +2 only
    when the fighter also recovers (the text's combined case)."""
    st = status(enc, fid)
    extra = 0
    concentrating = st.concentration is not None and not st.concentration.broken
    if own_concentration:
        if st.recovery is not None:
            extra = 2
    elif concentrating or st.recovery is not None:
        extra = 2
    return max(2, min(10, base + extra))


def successes(faces: list[int], tn: int, *, ones_cancel: bool) -> int:
    """Dice at or above the TN; each 1 cancels one success when ``ones_cancel``;
    a net below 0 counts as 0."""
    hits = sum(1 for f in faces if f >= tn)
    if ones_cancel:
        hits -= sum(1 for f in faces if f == 1)
    return max(0, hits)


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


# --- maneuvers ---------------------------------------------------------------------------


def maneuvers_of(enc: Encounter, fid: str) -> tuple[Maneuver, ...]:
    """The fighter's maneuvers; with the option on, the catalogue's basic maneuvers too
    (every fighter knows them), unless the sheet has its own version of one. Worked out
    once per state (derived.py): the autopilot and the rules' checks of one command ask
    it several times."""
    return kept(enc, "street-fighter:maneuvers:" + fid, lambda e: _maneuvers_of(e, fid))


def _maneuvers_of(enc: Encounter, fid: str) -> tuple[Maneuver, ...]:
    own = tuple(sheet(enc, fid).maneuvers)
    if enc.options.basics_for_all:
        names = {m.name.lower() for m in own}
        own += tuple(m for m in basic_maneuvers() if m.name.lower() not in names)
    return own


def find_maneuver(enc: Encounter, fid: str, maneuver: str) -> Maneuver:
    key = maneuver.strip().lower()
    for m in maneuvers_of(enc, fid):
        if m.name.lower() == key:
            return m
    raise RuleViolation(f"{name(enc, fid)} does not know the maneuver {maneuver!r}")


def has_special(enc: Encounter, fid: str, special: str) -> bool:
    return any(m.special == special for m in sheet(enc, fid).maneuvers)


# --- the stack ---------------------------------------------------------------------------


def move_index(enc: Encounter, move_id: int) -> int:
    for i, m in enumerate(enc.state.stack):
        if m.id == move_id:
            return i
    raise RuleViolation(f"no move #{move_id} on the stack")


def move_by_id(enc: Encounter, move_id: int) -> Move:
    return enc.state.stack[move_index(enc, move_id)]


def update_move(ctx: Context, move_id: int, **changes: Any) -> None:
    i = move_index(ctx.enc, move_id)
    data = ctx.enc.state.stack[i].model_dump(mode="json")
    data.update(changes)
    ctx.tx.set_item((*ROUND, "stack"), i, data)


def pending_moves(enc: Encounter, fid: str) -> list[Move]:
    return [m for m in enc.state.stack if m.fighter_id == fid and m.open]


def resolution_key(enc: Encounter, move: Move) -> tuple[int, int, int, int, int]:
    """Descending full speed; ties to the higher Wits, Perception, Dexterity, then to the
    later-declared (interrupting) move (docs/rulesets/street-fighter.md#resolution-order)."""
    fighter = enc.fighters.get(move.fighter_id)
    if fighter is None:  # removed by the GM mid-stack: sorts last, never resolves
        return (99, 0, 0, 0, -move.id)
    sh = fighter.sheet
    return (-move.speed, -sh.wits, -sh.perception, -sh.dexterity, -move.id)


def resolution_order(enc: Encounter) -> list[Move]:
    return sorted(enc.state.stack, key=lambda m: resolution_key(enc, m))
