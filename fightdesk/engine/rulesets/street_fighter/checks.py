"""What a loaded street-fighter fight must hold beyond its field types.

The rules read the round state without checking it again (a move's die is looked up and
asserted, a damage roll's move must be on the stack): a file where these do not hold
would fail at every Resolve. ``StreetFighter.check_state`` refuses such a file at load
time instead, naming the field. Only the data classes are needed here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...model import Encounter

# Limits the rules assume (a round rolls each die, a stack resolves move by move): far
# above any real fight, low enough that no loop of the rules runs for ever.
MAX_DICE = 30
MAX_BOUGHT_DICE = 10
MAX_POOL = 1_000_000
MAX_STACK = 500
MAX_ROUND = 100_000
MAX_COUNTER = 2**53


def state_problems(enc: Encounter) -> list[tuple[str, str]]:
    """``(field path from the encounter, problem)`` pairs; empty when the state is sound."""
    problems: list[tuple[str, str]] = []
    fighters = enc.fighters
    if enc.round > MAX_ROUND:
        problems.append(("round", f"round {enc.round} is beyond any fight"))
    for name, value in (("dice_seed", enc.dice_seed), ("dice_drawn", enc.dice_drawn)):
        if abs(value) > MAX_COUNTER:
            problems.append((name, "is far too large"))
    for fid, fighter in fighters.items():
        st = fighter.status
        where = f"fighters.{fid}.status"
        if len(st.dice) > MAX_DICE:
            problems.append((f"{where}.dice", f"{len(st.dice)} action dice (at most {MAX_DICE})"))
        if st.bought_dice > MAX_BOUGHT_DICE:
            problems.append((f"{where}.bought_dice", f"{st.bought_dice} bought dice "
                             f"(at most {MAX_BOUGHT_DICE})"))
        for pool in ("health", "chi", "willpower", "ep", "zen_ep", "ep_debt"):
            if getattr(st, pool) > MAX_POOL:
                problems.append((f"{where}.{pool}", f"{getattr(st, pool)} is beyond any "
                                 f"fighter (at most {MAX_POOL})"))
        ids = [d.id for d in st.dice]
        if len(set(ids)) != len(ids):
            problems.append((f"{where}.dice", "two action dice share one id"))

    state = enc.state
    if len(state.stack) > MAX_STACK:
        problems.append(("state.stack", f"{len(state.stack)} moves (at most {MAX_STACK})"))
    move_ids = {m.id for m in state.stack}
    if len(move_ids) != len(state.stack):
        problems.append(("state.stack", "two moves share one id"))
    # A fighter removed mid-fight may still be named on the stack or in a question: the
    # rules skip those. What they do not check again is a present fighter's move.
    for index, move in enumerate(state.stack):
        where = f"state.stack[{index}]"
        if move.id >= state.next_move_id:
            problems.append((f"{where}.id", f"move {move.id} is not below next_move_id "
                             f"{state.next_move_id}"))
        if not move.open or move.fighter_id not in fighters:
            continue
        dice = fighters[move.fighter_id].status.dice
        if not any(d.id == move.die_id for d in dice):
            problems.append((f"{where}.die_id", f"the fighter {move.fighter_id!r} has no "
                             f"action die {move.die_id}"))
        if move.action == "maneuver" and move.maneuver is None:
            problems.append((f"{where}.maneuver", "a maneuver move without its maneuver"))
        if move.action == "concentrate" and (move.concentration is None or move.tn is None):
            problems.append((f"{where}.concentration", "a concentration without its kind or TN"))
    task = state.task
    if task is not None and task.kind == "die-going" and task.fighter_id in fighters:
        dice = fighters[task.fighter_id].status.dice
        if task.die_id is None or not any(d.id == task.die_id for d in dice):
            problems.append(("state.task.die_id", "the fighter has no such action die"))
    return problems
