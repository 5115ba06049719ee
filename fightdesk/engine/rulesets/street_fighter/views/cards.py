"""The fighters' cards: health, points, dice, conditions. (docs/rulesets/street-fighter.md)"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ....derived import Reads, by_roster, fighter_values, per_fighter
from ....ruleset import (
    Card,
    ConditionView,
    Resource,
)
from ..model import ROUND_EFFECTS
from ..round import (
    current_actor,
    has_phase_die,
)
from ..specials import (
    CONCENTRATION_NAMES,
)
from ..stack import holder_of
from ..state import (
    name,
    plural,
    status,
    unspent,
)
from .timeline import MEMO_LIMIT

if TYPE_CHECKING:
    from ....model import Encounter



# The stages of a round under way (its dice are its own: Start Round clears the last ones).
ROUND_UNDER_WAY = frozenset({"round-start", "phases", "round-end"})


def cards(enc: Encounter) -> list[tuple[str, Card]]:
    """All cards at once: whose turn it is, who holds whom and the group sizes are
    worked out once (a scan per card would be quadratic in a 200-fighter fight)."""
    actor = current_actor(enc)
    holders = _holders(enc)
    # Stunned shows while the lost move is on the stack (_stunned): the stack's part.
    stunned = {m.fighter_id for m in enc.state.stack if m.lost and m.lost_why == "stunned"}
    sizes = by_roster(enc, "street-fighter:group-sizes",
                      lambda enc: Counter(f.group or "" for f in enc.fighters.values()))

    def make(enc: Encounter, fid: str) -> Card:
        group = enc.fighters[fid].group
        return card(enc, fid, actor=actor, holder=holders.get(fid, ""),
                    group_size=sizes[group] if group else 1)

    # Each card is kept until its fighter is written, the roster (names, groups: the
    # group size, a holder's name) or the options change, or what it reads of the
    # others does (derived.py), for the few fighters concerned: whose turn it is, who
    # holds the fighter, a move of the fighter's lost to a stun on the stack.
    concerned = {*holders, *stunned, *([actor] if actor is not None else [])}
    special = {fid: (fid == actor, holders.get(fid), fid in stunned) for fid in concerned}
    # Every card reads whether the round is under way: a stun shows only while it is.
    under_way = enc.state.stage in ROUND_UNDER_WAY
    return per_fighter(enc, "street-fighter:cards", Reads(shared=under_way, special=special),
                       make)


def _holders(enc: Encounter) -> dict[str, str]:
    """Who holds whom (held fighter -> holder), the holds kept per fighter until the
    fighter is written (derived.py)."""
    holds = fighter_values(enc, "street-fighter:holds", _hold_target)
    held: dict[str, str] = {}
    for holder, target in holds.items():
        if target in held:  # two holds on one fighter: the one the fight lists last
            return {f.status.holding.target_id: fid for fid, f in enc.fighters.items()
                    if f.status.holding is not None and f.status.health > 0}
        held[target] = holder
    return held


def _hold_target(enc: Encounter, fid: str) -> str | None:
    st = enc.fighters[fid].status
    return st.holding.target_id if st.holding is not None and st.health > 0 else None


def card(enc: Encounter, fid: str, *, actor: str | None = "?",
         holder: str | None = "?", group_size: int = 0) -> Card:
    """One card; ``actor``, ``holder`` and ``group_size`` may be passed in when known
    ("?" or 0: work it out)."""
    f = enc.fighters[fid]
    s, st = f.sheet, f.status
    if s.weenie:
        ep_tip = "Weenies neither gain nor spend EP"
    else:
        ep_tip = "Edge Points" + (f": {st.ep} own + {st.zen_ep} from Zen No-Mind (spent first)"
                                  if st.zen_ep else "")
    resources = (
        _resource("EP", st.ep + st.zen_ep, None, ep_tip),
        _resource("Chi", st.chi, s.chi, ""),
        _resource("Willpower", st.willpower, s.willpower,
                  "Spent for 1 EP once a round" if not st.willpower_ep_used
                  else "Already spent for EP this round"),
    )
    size = group_size
    if size <= 0:
        size = sum(1 for other in enc.fighters.values() if other.group == f.group) if f.group else 1
    if holder == "?":
        holder = holder_of(enc, fid) if any_holds(enc) else None
    if actor == "?":
        actor = current_actor(enc) if has_phase_die(enc, fid) else None
    conds = conditions(enc, fid, holder or None)
    dice = tuple([("H" if d.state == "held" else "") + str(d.face) for d in unspent(st)])
    # The card of a fighter whose card did not change is the same object as last time:
    # building 200 frozen cards, and comparing them with the last ones, is then cheap.
    # The resources are shared objects (see _resource) and alive while a card holds them,
    # so their ids stand for their values here.
    key = (fid, f.name, f.side, st.health, s.health, *map(id, resources), conds, dice,
           actor == fid, size)
    last = _CARDS.get(fid)
    if last is not None and last[0] == key:
        return last[1]
    if len(_CARDS) > MEMO_LIMIT:
        _CARDS.clear()
    found = Card(
        fighter_id=fid, title=f.name, side=f.side, health=st.health, health_max=s.health,
        resources=resources, conditions=conds, dice=dice, acting=actor == fid,
        out=st.health <= 0, group_size=size,
    )
    _CARDS[fid] = (key, found)
    return found


# The card last made for each fighter id, with what it was made from (as the chips).
_CARDS: dict[str, tuple[tuple[object, ...], Card]] = {}
_RESOURCES: dict[tuple[str, int, int | None, str], Resource] = {}


def _resource(label: str, value: int, maximum: int | None, tooltip: str) -> Resource:
    """One shared object per distinct resource line (they are frozen, and a gang of
    weenies shows the same few): 200 cards are built and compared faster."""
    key = (label, value, maximum, tooltip)
    found = _RESOURCES.get(key)
    if found is None:
        if len(_RESOURCES) > 4096:
            _RESOURCES.clear()
        found = _RESOURCES[key] = Resource(label, value, maximum, tooltip)
    return found


def any_holds(enc: Encounter) -> bool:
    return any(f.status.holding is not None for f in enc.fighters.values())


def conditions(enc: Encounter, fid: str, holder: str | None = None) -> tuple[ConditionView, ...]:
    """The GM's conditions (kit in engine/conditions.py, removable), then the ones the
    rules derive from the status: shown the same way, but they end by the rules."""
    st = status(enc, fid)
    out: list[ConditionView] = []
    if st.conditions:
        from .... import conditions as kit  # loaded when a fighter has one, not at start-up

        out.extend(kit.views(enc, fid))
    if st.knocked_down:
        out.append(_ruled("Knocked down", "", "Stands up by spending the highest action "
                          "die (or 1 EP with Kippup); with none left, at the next round's "
                          "start"))
    if _stunned(enc, fid):
        out.append(_ruled("Stunned", "", "Lost an action die (or the pending move) and "
                          "1 EP to a stun this round"))
    if st.block is not None:
        out.append(_ruled(f"{st.block.maneuver} ({st.block.absorbed}/{st.block.limit} "
                          "absorbed)", "", "Blocking: ends when the fighter next acts, "
                          "when it has absorbed its limit, or at the round's end"))
    if st.holding is not None:
        out.append(_ruled(f"Holding {name(enc, st.holding.target_id)} "
                          f"({st.holding.maneuver} {st.holding.actions}/{st.holding.limit})",
                          "", "A sustained hold: damage on each of the holder's dice, at "
                          "most Grab-technique times, until the held fighter breaks free"))
    if holder is not None:
        out.append(_ruled(f"Held by {name(enc, holder)}", "", "May try to break free on "
                          "any of their dice"))
    if st.concentration is not None:
        word = "broken" if st.concentration.broken else f"TN {st.concentration.tn}"
        out.append(_ruled(f"Concentrating: {CONCENTRATION_NAMES[st.concentration.kind]} "
                          f"({word})", "", "Rolled at the end of the round; "
                          "every other roll this round is at +2 TN"))
    if st.recovery is not None:
        out.append(_ruled(f"Recovering {st.recovery.pool} "
                          f"({plural(st.recovery.full_rounds, 'round')})", "",
                          "Rolled at the end of the round, or "
                          "at once when the fighter stops; all TNs +2 meanwhile"))
    for e in st.effects:
        out.append(_ruled(e.name + (f" ({plural(e.attacks_left, 'attack')} left)"
                                    if e.attacks_left is not None else ""), "",
                          f"{e.name}: lasts as its maneuver says, at most until the round's end"
                          if e.special in ROUND_EFFECTS else
                          f"{e.name}: lasts for the fighter's next Focus attacks"))
    return tuple(out)


def _ruled(text: str, left: str, why: str) -> ConditionView:
    """A condition the rules derive: not removable by the GM (it ends by the rules)."""
    return ConditionView(name=text, left=left, removable=False, position=None,
                         tooltip=f"{why} (ends by the rules)")


def _stunned(enc: Encounter, fid: str) -> bool:
    """Stun is instant in the text (a die or the pending move, and 1 EP): the card says
    so for the rest of the round, while the lost die or move is there to show it; once
    the round is over (its dice still kept until the next is rolled) the stun is done."""
    if enc.state.stage not in ROUND_UNDER_WAY:  # the round is over: so is the stun
        return False
    st = status(enc, fid)
    if any(d.state == "lost" and d.why == "stunned" for d in st.dice):
        return True
    return any(m.fighter_id == fid and m.lost and m.lost_why == "stunned"
               for m in enc.state.stack)
