"""Street-fighter's autopilot: the command a plain, sensible table gives next.

Used by the encounter simulator (engine/simulate.py) to play a fight thousands of times
by the real rules. Its choices are written down in
docs/rulesets/street-fighter.md#autopilot; it reads the state and the rules' own
checks and odds, never changes anything, and given the same state and ``rng`` it gives
the same command.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, cast

from ...changes import RuleViolation
from ...odds import pool_successes
from ...ruleset import Autopilot
from .damage import damage_pool
from .lazy_commands import core, sf
from .model import Move
from .round import current_actor
from .stack import build_move, holder_of, latest_open_move
from .state import available_ep, can_use_ep, is_out, maneuvers_of, status, tn_for, unspent

if TYPE_CHECKING:
    from ...base import Decision
    from ...commands import Answer, Command
    from ...model import Encounter
    from .model import Maneuver, Move

# EP a fighter keeps back for dodges when deciding to buy dice or add damage dice.
DODGE_RESERVE = 2
# An incoming attack worth blocking with a spare die: at least this many expected levels.
BLOCK_WORTH = 1.5

_PARTY = ("pc", "ally")


def _foes(enc: Encounter, fid: str) -> list[str]:
    mine = enc.fighters[fid].side in _PARTY
    return [other for other in enc.order if other in enc.fighters and not is_out(enc, other)
            and (enc.fighters[other].side in _PARTY) != mine]


@lru_cache(maxsize=1024)
def _pool_odds(dice: int, tn: int, ones_cancel: bool) -> tuple[float, float]:
    """(chance of at least one level, expected levels) of a damage roll, from the exact
    odds; kept as floats once worked out, since the autopilot only compares them."""
    dist = pool_successes(dice, tn, ones_cancel=ones_cancel)
    return float(1 - dist[0]), float(sum(k * p for k, p in dist.items()))


class _Sketch(NamedTuple):
    """What the damage pool reads of a move: who, with what, on whom."""

    fighter_id: str
    maneuver: Maneuver
    target_id: str


def _damage(enc: Encounter, move: Move) -> tuple[float, float]:
    """Chance to hurt and expected damage of a move that lands, before dodges."""
    pool = damage_pool(enc, move).dice
    tn = tn_for(enc, move.fighter_id, 6)
    return _pool_odds(pool, tn, enc.options.ones_cancel_on_damage)


def _attack(enc: Encounter, fid: str) -> sf.Act | None:
    """The foe most likely to be hurt, with the maneuver of the best expected damage;
    the best the rules allow now (their own check on each, best first)."""
    ranked: list[tuple[tuple[float, float, int, int, int], str, str]] = []
    maneuvers = [m for m in maneuvers_of(enc, fid) if not m.no_damage and m.special is None]
    for rank, foe in enumerate(_foes(enc, fid)):
        health = enc.fighters[foe].status.health
        for man in maneuvers:
            # Only the pool is read from this sketch of the move; the real one is built
            # (and checked) by the rules below.
            hurt, mean = _damage(enc, cast("Move", _Sketch(fid, man, foe)))
            ranked.append(((hurt, mean, -health, man.speed, -rank), man.name, foe))
    ranked.sort(key=lambda item: item[0], reverse=True)
    # The command is made only for the candidates tried (most fights take the first).
    for _, maneuver, foe in ranked:
        cmd = sf.Act(fighter_id=fid, maneuver=maneuver, target_id=foe)
        try:
            build_move(enc, cmd, interrupt=False)
        except RuleViolation:
            continue
        return cmd
    return None


def _block(enc: Encounter) -> Command | None:
    """Block a foe's attack with a spare die: the target of the latest open attack, if it
    is worth blocking, they keep another die to act with, and an abort costs no EP."""
    move = latest_open_move(enc)
    # A move of a fighter the GM removed never resolves
    # (docs/rulesets/street-fighter.md#fighters-joining-or-leaving): nothing to block.
    if move is None or move.target_id is None or move.maneuver is None or \
            move.maneuver.no_damage or move.target_id not in enc.fighters or \
            move.fighter_id not in enc.fighters:
        return None
    fid = move.target_id
    if fid not in _foes(enc, move.fighter_id) or \
            any(m.fighter_id == fid and m.open for m in enc.state.stack):
        return None
    blocks: list[Maneuver] = [m for m in maneuvers_of(enc, fid) if m.block and m.abort and
                              (not m.guards or move.maneuver.technique in m.guards)]
    dice = unspent(status(enc, fid))
    if not blocks or len(dice) < 2 or _damage(enc, move)[1] < BLOCK_WORTH:
        return None
    for man in sorted(blocks, key=lambda m: (-m.speed, m.name)):
        for die in sorted(dice, key=lambda d: d.face):
            cmd = sf.Interrupt(fighter_id=fid, maneuver=man.name, target_id=move.fighter_id,
                               die_id=die.id, interrupts=move.id)
            try:
                build_move(enc, cmd, interrupt=True)
            except RuleViolation:
                continue
            return cmd
    return None


def answer(enc: Encounter, decision: Decision) -> Answer:
    """Answer the question the rules ask, as a sensible player would."""
    did = decision.id
    ids = [ch.id for ch in decision.choices]
    fid = decision.fighter_id or ""
    if fid and fid not in enc.fighters:  # they left the fight: any answer lets it lapse
        return core.Answer(decision_id=did, choice=ids[0] if ids else None,
                           amount=decision.minimum or 0)
    if did.endswith("-attack-ep"):
        spare = available_ep(status(enc, fid)) - DODGE_RESERVE
        amount = max(decision.minimum or 0, min(decision.maximum or 0, spare, 2))
        return core.Answer(decision_id=did, amount=amount)
    if did.endswith("-defend-ep"):
        # A dodge after the roll takes off more for its EP than removing a die before it.
        return core.Answer(decision_id=did, amount=decision.minimum or 0)
    if "-dodge-" in did:
        dmg = enc.state.damage
        taken = dmg.damage if dmg is not None else 0
        health = enc.fighters[fid].status.health if fid in enc.fighters else 0
        worth = taken >= 2 or taken >= health
        return core.Answer(decision_id=did, choice="dodge" if worth else "accept")
    for preferred in ("convert", "ep", "roll", "lose"):
        if preferred in ids:
            return core.Answer(decision_id=did, choice=preferred)
    if ids:
        return core.Answer(decision_id=did, choice=ids[0])
    return core.Answer(decision_id=did, amount=decision.minimum or 0)


def _round_start(enc: Encounter) -> Command:
    for fid in enc.order:
        f = enc.fighters.get(fid)
        if f is None or is_out(enc, fid) or not can_use_ep(enc, fid):
            continue
        st = f.status
        if not st.rolled and st.bought_dice == 0 and \
                available_ep(st) >= 2 + DODGE_RESERVE:
            return sf.BuyDice(fighter_id=fid, count=1)
    return core.NextStep()


def _turn(enc: Encounter, fid: str) -> Command:
    st = status(enc, fid)
    if holder_of(enc, fid) is not None:
        cmd: sf.Act = sf.Act(fighter_id=fid, action="break-free")
        try:
            build_move(enc, cmd, interrupt=False)
            return cmd
        except RuleViolation:
            pass
    if st.holding is not None and st.holding.actions < st.holding.limit and \
            st.holding.target_id in enc.fighters and not is_out(enc, st.holding.target_id):
        cmd = sf.Act(fighter_id=fid, action="sustain-hold")
        try:
            build_move(enc, cmd, interrupt=False)
            return cmd
        except RuleViolation:
            pass
    attack = _attack(enc, fid)
    if attack is not None:
        return attack
    return sf.PassDie(fighter_id=fid)


def autopilot(enc: Encounter, rng: random.Random) -> Command | None:
    """The next command of a plain table (``rng`` is unused: this table never hesitates;
    the dice bring the variety)."""
    rs = enc.state
    if rs.pending is not None:
        return answer(enc, rs.pending)
    stage = rs.stage
    if stage == "fight-over":
        return None
    if stage == "round-start":
        return _round_start(enc)
    if stage != "phases":
        return core.NextStep()
    if rs.stack:
        if not rs.resolving:
            block = _block(enc)
            if block is not None:
                return block
        return sf.ResolveNext(all=True)
    actor = current_actor(enc)
    if actor is not None:
        return _turn(enc, actor)
    return core.NextStep()


class StreetFighterAutopilot(Autopilot):
    """The street-fighter autopilot (docs/rulesets/street-fighter.md#autopilot)."""

    def next_command(self, enc: Encounter, rng: random.Random) -> Command | None:
        return autopilot(enc, rng)
