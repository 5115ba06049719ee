"""What the widgets show for a street-fighter fight: the phase timeline, the cards, the
interrupt stack, the action forms with their previews and exact odds, and the round
controls. Pure functions of the encounter: the UI calls them on every change."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...changes import RuleViolation
from ...derived import Reads, by_roster, fighter_values, per_fighter, stamps
from ...ruleset import (
    ActionForm,
    Card,
    Chip,
    ChipState,
    ConditionView,
    FormField,
    Lane,
    Odds,
    Preview,
    Resource,
    RoundControls,
    StackRow,
    Timeline,
)
from .catalogue import catalogue
from .lazy_commands import core, sf
from .model import COUNTED_EFFECTS, PASSIVE, ROUND_EFFECTS, TECHNIQUES, ActionDie, Maneuver, Move
from .round import (
    actors_in_phase,
    current_actor,
    has_phase_die,
    next_phase_with_dice,
    phase_dice,
)
from .specials import (
    CONCENTRATION_NAMES,
    concentration_pool,
    concentration_tn,
    points_down,
    recovery_tn,
)
from .stack import build_move, die_is_free, holder_of, move_title, next_open_move
from .state import (
    available_ep,
    can_use_ep,
    effective_face,
    held_die,
    is_out,
    maneuvers_of,
    name,
    plural,
    resolution_order,
    sheet,
    status,
    tn_for,
    unspent,
)

if TYPE_CHECKING:
    from ...commands import Command
    from ...model import Encounter

COLUMNS: tuple[str, ...] = tuple(str(p) for p in range(10, 0, -1))
ASK = "ask"


def _column(face: int) -> int:
    return 10 - face


# --- timeline ----------------------------------------------------------------------------


def timeline(enc: Encounter) -> Timeline:
    rs = enc.state
    actor = current_actor(enc)
    usable = _usable_context(enc)
    pieces = _Pieces(enc, actor, usable)
    # The lanes last handed out are kept (derived.py) while the roster and the options
    # stay, one set while the stack takes interrupts and one otherwise (an act opens
    # the stack, its resolution closes it): then only the lanes of the fighters written
    # since, of whoever's turn it was or is, and of the fighters whose chips read the
    # phase or what a click does (when those changed) are looked at again.
    entry = stamps(enc)
    watch = entry.watch("street-fighter:timeline:" + ("interrupt" if pieces.interrupting
                                                      else "other"), paths=False)
    basis = (entry.part("roster"), entry.part("options"))
    kept: _KeptLanes | None = watch.state
    if kept is not None and kept.basis == basis:
        looked = set(watch.fighters)
        looked.update(f for f in (actor, kept.actor) if f is not None)
        if (usable, rs.phase) != (kept.usable, kept.phase):
            looked |= kept.readers
        changed: dict[str, set[int]] = {}
        for fid in looked:
            where = kept.lane_of.get(fid)
            if where is None:
                continue
            index, group = where
            if group:
                changed.setdefault(group, set()).add(kept.member_at[fid])
            else:
                kept.lanes[index] = pieces.lane(fid)
        for group, members in changed.items():
            kept.lanes[kept.group_lane[group]] = pieces.group_lane(
                group, kept.members_of[group], kept.group_pieces[group], members)
        for fid in looked:
            if fid in kept.lane_of:
                kept.note(fid, pieces)
    else:
        kept = watch.state = _KeptLanes(basis)
        # Each group's members in fight order, gathered in one pass (not one scan per
        # group).
        members_of = kept.members_of
        for fid in enc.order:
            fighter = enc.fighters.get(fid)
            if fighter is not None and fighter.group and fighter.group in enc.groups:
                members_of.setdefault(fighter.group, []).append(fid)
        for fid in enc.order:
            fighter = enc.fighters.get(fid)
            if fighter is None:
                continue
            group = fighter.group
            if group and group in enc.groups:
                if group not in kept.group_lane:
                    kept.group_lane[group] = len(kept.lanes)
                    kept.group_pieces[group] = []
                    kept.lanes.append(pieces.group_lane(group, members_of[group],
                                                        kept.group_pieces[group]))
                    kept.member_at.update((m, at) for at, m in enumerate(members_of[group]))
                kept.lane_of[fid] = (kept.group_lane[group], group)
            else:
                kept.lane_of[fid] = (len(kept.lanes), None)
                kept.lanes.append(pieces.lane(fid))
            kept.note(fid, pieces)
    kept.actor, kept.usable, kept.phase = actor, usable, rs.phase
    watch.clear()
    current = _column(rs.phase) if rs.stage == "phases" and rs.phase else None
    return Timeline(columns=COLUMNS, lanes=tuple(kept.lanes), current_column=current,
                    caption=_describe_state(enc, actor))


class _KeptLanes:
    """The street-fighter lanes last handed out, and where each fighter's chips are."""

    def __init__(self, basis: object) -> None:
        self.basis = basis
        self.lanes: list[Lane] = []
        # fighter -> (its lane's index, its group or None); each group's members.
        self.lane_of: dict[str, tuple[int, str | None]] = {}
        self.members_of: dict[str, list[str]] = {}
        self.group_lane: dict[str, int] = {}
        # Each group's members' pieces, and where each member is among them.
        self.group_pieces: dict[str, list[tuple[Any, ...]]] = {}
        self.member_at: dict[str, int] = {}
        # The fighters whose chips read the phase or what a click does.
        self.readers: set[str] = set()
        self.actor: str | None = None
        self.usable = ""
        self.phase: int | None = None

    def note(self, fid: str, pieces: _Pieces) -> None:
        """Whether the fighter's kept chips read the phase or the click (see _Pieces)."""
        last = pieces.memo.get(fid)
        if last is not None and (last[1] is not _ANY or last[2] is not _ANY):
            self.readers.add(fid)
        else:
            self.readers.discard(fid)


# What a kept piece did not read (see _Pieces).
_ANY = object()
# A serial number for each kept piece: a group's lane is kept while its members' pieces
# are the same ones (never reused, unlike an object's id).
_SERIALS = itertools.count(1)


class _Pieces:
    """Each fighter's chips (and own lane), kept from one state to the next (derived.py)
    until the fighter is written, the roster or the options change, or what the chips
    read of the round does. They read whose turn it is; the phase only through a held
    die, the fighter's own turn or an interrupt's cost; and what a click does only on
    the fighter's own turn or held die, or while the stack takes interrupts (every
    ready die is then clickable). Each fighter keeps one piece while the stack takes
    interrupts and one otherwise, so an act and its resolution, which open and close
    the stack, find both kept: a click changes a few fighters' chips of 200."""

    def __init__(self, enc: Encounter, actor: str | None, usable: str) -> None:
        self.enc = enc
        self.actor = actor
        self.usable = usable
        entry = stamps(enc)
        self.stamp = entry.fighters.get
        self.interrupting = usable == "interrupt"
        self.memo = entry.memo("street-fighter:chips:" + ("interrupt" if self.interrupting
                                                          else "other"))
        self.groups = entry.memo("street-fighter:group-lanes")
        self.common = (entry.part("roster"), entry.part("options"))

    def piece(self, fid: str, prefix: bool) -> tuple[Any, ...]:
        """(key, phase read, click read, chips, own lane, serial, out), made again if
        stale."""
        enc = self.enc
        phase = enc.state.phase
        usable = self.usable
        mine = fid == self.actor
        key = (self.stamp(fid, 0), self.common, mine, prefix)
        last = self.memo.get(fid)
        if (last is not None and last[0] == key and last[1] in (_ANY, phase)
                and last[2] in (_ANY, usable)):
            return last
        tag = _member_tag(enc, fid) if prefix else ""
        chips = tuple(_chips(enc, fid, self.actor, usable, prefix=tag))
        held = any(d.state == "held" for d in status(enc, fid).dice)
        reads_phase = mine or held or self.interrupting
        reads_click = mine or held
        lane = None if prefix else Lane(id=fid, title=enc.fighters[fid].name,
                                        fighter_ids=(fid,), chips=chips,
                                        out=is_out(enc, fid))
        found = (key, phase if reads_phase else _ANY, usable if reads_click else _ANY,
                 chips, lane, next(_SERIALS), is_out(enc, fid))
        self.memo[fid] = found
        return found

    def lane(self, fid: str) -> Lane:
        lane: Lane = self.piece(fid, False)[4]
        return lane

    def group_lane(self, group: str, members: list[str], pieces: list[tuple[Any, ...]],
                   changed: set[int] | None = None) -> Lane:
        """A group's one compact lane: its members' chips, kept while they are.
        ``pieces``: the members' pieces as last looked at, updated here for the members
        at ``changed`` (None: every member)."""
        if changed is None:
            pieces[:] = [self.piece(m, True) for m in members]
        else:
            for at in changed:
                pieces[at] = self.piece(members[at], True)
        key = (self.common[0], tuple(map(itemgetter(5), pieces)))
        last = self.groups.get(group)
        if last is not None and last[0] == key:
            return last[1]
        lane = Lane(id=f"group:{group}", title=self.enc.groups[group].name,
                    fighter_ids=tuple(members),
                    chips=tuple(itertools.chain.from_iterable(map(itemgetter(3), pieces))),
                    compact=True, out=all(map(itemgetter(6), pieces)))
        self.groups[group] = (key, lane)
        return lane


def _member_tag(enc: Encounter, fid: str) -> str:
    return _tag_of_name(enc.fighters[fid].name)


@lru_cache(maxsize=4096)
def _tag_of_name(fighter_name: str) -> str:
    """A group member's short tag on its chips: the number its name ends with."""
    match = re.search(r"(\d+)$", fighter_name)
    return match.group(1) if match else fighter_name[:3]


def _usable_context(enc: Encounter) -> str:
    """'act' when a turn can be taken, 'interrupt' while the stack takes interrupts."""
    rs = enc.state
    if rs.stage != "phases" or rs.pending is not None:
        return ""
    if rs.stack:
        return "" if rs.resolving else "interrupt"
    return "act"


def _chips(enc: Encounter, fid: str, actor: str | None, usable: str, *,
           prefix: str) -> list[Chip]:
    st = status(enc, fid)
    who = enc.fighters[fid].name
    out = st.health <= 0
    phase = enc.state.phase
    chips: list[Chip] = []
    for die in st.dice:
        face = effective_face(enc, die)
        state: ChipState = die.state
        label = f"{die.face}" if die.state != "held" else f"H{die.face}"
        if prefix:
            # A group member's chip says who it is ("#2"); its column already says the
            # face, so only a held die adds its mark ("#2H"). The tooltip says it all.
            label = f"#{prefix}H" if die.state == "held" else f"#{prefix}"
        clickable = False
        hint = ""
        if not out and die.state in ("ready", "held"):
            if usable == "act" and (die.state == "held" or (
                    fid == actor and die.face == phase)):
                clickable = True
                hint = "act with it"
            elif usable == "interrupt":
                clickable = True
                free = die_is_free(enc, die)
                hint = "interrupt with it " + ("(free)" if free else "(1 EP unless an abort)")
        tip = f"{who}: die {die.face} - {_STATE_WORDS[die.state]}"
        if die.state == "held":
            tip += f", counts as phase {face}"
        if die.why and die.state != "ready":
            tip += f" ({die.why})"
        if hint:
            tip += f". Click to {hint}."
        chips.append(_chip(f"{fid}:{die.id}", fid, _column(face), label, state, tip, clickable))
    return chips


# The chip last made for each chip id, with what it was made from. Kept per id rather
# than per value: a bounded memo of every value seen was cleared more often the bigger
# the fight, so a 400-fighter timeline reused fewer chips than a 200-fighter one.
_CHIPS: dict[str, tuple[tuple[str, str, int, str, ChipState, str, bool], Chip]] = {}
# Ids kept at most (many fights over a long session; a fight has far fewer).
_MEMO_LIMIT = 20_000


def _chip(chip_id: str, fid: str, column: int, label: str, state: ChipState, tip: str,
          clickable: bool) -> Chip:
    """The same object as last time for a chip that did not change (they are frozen, and
    most chips are the same from one step to the next): a 200-fighter timeline is built
    and compared faster."""
    key = (chip_id, fid, column, label, state, tip, clickable)
    last = _CHIPS.get(chip_id)
    if last is not None and last[0] == key:
        return last[1]
    if len(_CHIPS) > _MEMO_LIMIT:
        _CHIPS.clear()
    found = Chip(id=chip_id, fighter_id=fid, column=column, label=label, state=state,
                 tooltip=tip, clickable=clickable)
    _CHIPS[chip_id] = (key, found)
    return found


_STATE_WORDS = {
    "ready": "ready",
    "held": "held",
    "spent": "spent",
    "lost": "lost",
    "converted": "turned into 1 EP",
}


# --- cards -------------------------------------------------------------------------------


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
    return per_fighter(enc, "street-fighter:cards", Reads(special=special), make)


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
    if len(_CARDS) > _MEMO_LIMIT:
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
        from ... import conditions as kit  # loaded when a fighter has one, not at start-up

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
    so for the rest of the round, while the lost die or move is there to show it."""
    st = status(enc, fid)
    if any(d.state == "lost" and d.why == "stunned" for d in st.dice):
        return True
    return any(m.fighter_id == fid and m.lost and m.lost_why == "stunned"
               for m in enc.state.stack)


# --- the stack ---------------------------------------------------------------------------


def stack_rows(enc: Encounter) -> tuple[StackRow, ...]:
    rows: list[StackRow] = []
    working = enc.state.damage.move_id if enc.state.damage is not None else None
    for move in resolution_order(enc):
        rows.append(StackRow(
            id=str(move.id), fighter_id=move.fighter_id, fighter=name(enc, move.fighter_id),
            action=move_title(move) + (f" -> {name(enc, move.target_id)}"
                                       if move.target_id else ""),
            source=f"held ({move.die_face})" if move.held_die else str(move.die_face),
            speed=move.speed, spent=move.ep_speed + move.cost_ep, cost=_cost_text(move),
            note=_move_note(enc, move, working), reacts_to=_reacts_to(enc, move)))
    return tuple(rows)


def _reacts_to(enc: Encounter, move: Move) -> str:
    """Which move an interrupt interrupts, in words ("Brannock's Fierce")."""
    if move.interrupts is None:
        return ""
    other = next((m for m in enc.state.stack if m.id == move.interrupts), None)
    if other is None:
        return ""
    return f"{name(enc, other.fighter_id)}'s {move_title(other)}"


def _cost_text(move: Move) -> str:
    parts: list[str] = []
    if move.interrupts is not None:
        if move.cost_ep:
            parts.append(f"1 EP (die {move.die_face} is not on the phase)")
        elif move.held_die:
            parts.append("free (held die)")
        elif move.maneuver is not None and move.maneuver.abort and move.die_face:
            parts.append("free (die on the phase or an abort)")
        else:
            parts.append("free (die on the phase)")
    else:
        parts.append("the action")
    if move.ep_speed:
        parts.append(f"{move.ep_speed} EP for +{2 * move.ep_speed} speed")
    return "; ".join(parts)


def _move_note(enc: Encounter, move: Move, working: int | None) -> str:
    if move.lost:
        return f"lost: {move.lost_why}"
    if move.resolved:
        return "resolved"
    if working == move.id:
        pending = enc.state.pending
        return "resolving" + (f": {pending.prompt}" if pending else "")
    if move.interrupts is not None:
        try:
            victim = next(m for m in enc.state.stack if m.id == move.interrupts)
        except StopIteration:
            return ""
        return (f"interrupts {name(enc, victim.fighter_id)}'s {move_title(victim)} "
                f"(speed {victim.speed_base} without EP)")
    return "acts"


# --- action forms ------------------------------------------------------------------------


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
    if fid not in enc.fighters:
        return ()
    rs = enc.state
    st = status(enc, fid)
    sh = sheet(enc, fid)
    stage = rs.stage
    forms: list[ActionForm] = []
    targets = _targets(enc, fid)
    target_field = FormField("target", "Target", "choice", choices=targets,
                             default=targets[0][0] if targets else None)
    conc_fields = (
        FormField("concentration", "Concentration", "choice",
                  choices=tuple(CONCENTRATION_NAMES.items()), default="find-weakness"),
        FormField("tn", "Find Weakness TN (GM may raise)", "number", default=7, minimum=7,
                  maximum=10),
    )
    # Intimidation and deception need someone to roll against: with nobody else in the
    # fight they are offered greyed out, not as forms no command can be built from.
    nobody = "" if targets else "nobody else is in the fight"
    if stage == "fight-start":
        opened = fid in rs.opened
        why = "already did this before round 1" if opened else ""
        weenie_why = "weenies cannot gain EP" if sh.weenie else why
        opposed_why = why or nobody
        forms += [
            ActionForm("concentrate", "Concentrate", conc_fields, enabled=not weenie_why,
                       reason=weenie_why, shortcut="C"),
            ActionForm("intimidate", "Intimidate", (target_field,), enabled=not opposed_why,
                       reason=opposed_why, shortcut="I"),
            ActionForm("deceive", "Deceive", (target_field,), enabled=not opposed_why,
                       reason=opposed_why),
        ]
    if stage == "round-start":
        ep = available_ep(st) if can_use_ep(enc, fid) else 0
        why = ("weenies cannot spend EP" if sh.weenie else
               "already rolled" if st.rolled else "needs 2 EP per die" if ep < 2 else "")
        forms += [
            ActionForm("buy-dice", "Buy extra dice (2 EP each)",
                       (FormField("count", "Dice", "number", default=1, minimum=1,
                                  maximum=max(1, ep // 2)),),
                       enabled=not why, reason=why),
            ActionForm("roll-dice", "Roll action dice", enabled=not st.rolled,
                       reason="already rolled" if st.rolled else "", shortcut="R"),
        ]
    if stage == "phases":
        turn_why = _why_no_turn(enc, fid)
        int_why = _why_no_interrupt(enc, fid)
        dice = unspent(st)
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
        forms.append(ActionForm("act", "Act", (man_field, target_field, die_field_act,
                                               *_ep_fields(enc, fid, True)),
                                enabled=not turn_why, reason=turn_why, shortcut="A"))
        forms.append(ActionForm("interrupt", "Interrupt",
                                (man_field, target_field, die_field_int, victim_field,
                                 *_ep_fields(enc, fid, True)),
                                enabled=not int_why, reason=int_why, shortcut="I",
                                role="react"))
        on_turn = current_actor(enc) == fid and not rs.stack and rs.pending is None
        hold_why = "" if on_turn else (turn_why or "only on the fighter's turn")
        if on_turn and held_die(st) is not None:
            hold_why = "only one die can be held at a time"
        forms.append(ActionForm("hold", "Hold the die", enabled=not hold_why,
                                reason=hold_why, shortcut="H"))
        forms.append(ActionForm("pass", "Let the die go", enabled=on_turn,
                                reason="" if on_turn else (turn_why or "not this fighter's turn")))
        conv = [d for d in dice if effective_face(enc, d) <= sh.perception]
        conv_why = ("weenies cannot gain EP" if sh.weenie else
                    "" if conv else f"no unspent die shows at most Perception {sh.perception}")
        forms.append(ActionForm("convert", "Turn a die into 1 EP",
                                (FormField("die", "Die", "choice",
                                           choices=_die_choices(enc, fid, conv),
                                           default=f"{fid}:{conv[0].id}" if conv else None),),
                                enabled=not conv_why, reason=conv_why, shortcut="E"))
        c_why = turn_why or ("weenies cannot gain EP" if sh.weenie else
                             "already concentrating" if st.concentration else "")
        forms.append(ActionForm("concentrate", "Concentrate (rolled at round end)",
                                (*conc_fields, die_field_act), enabled=not c_why,
                                reason=c_why, shortcut="C"))
        opposed_why = turn_why or nobody
        forms.append(ActionForm("intimidate", "Intimidate", (target_field, die_field_act),
                                enabled=not opposed_why, reason=opposed_why))
        forms.append(ActionForm("deceive", "Deceive", (target_field, die_field_act),
                                enabled=not opposed_why, reason=opposed_why))
        if holder_of(enc, fid) is not None:
            if rs.stack:
                forms.append(ActionForm("interrupt-break-free", "Break free (interrupt)",
                                        (die_field_int, victim_field, *_ep_fields(enc, fid,
                                                                                  False)),
                                        enabled=not int_why, reason=int_why, role="react"))
            else:
                forms.append(ActionForm("break-free", "Break free", (die_field_act,),
                                        enabled=not turn_why, reason=turn_why))
        if st.holding is not None:
            why = turn_why or ("" if st.holding.actions < st.holding.limit
                               else "the hold has lasted Grab actions")
            forms.append(ActionForm("sustain-hold", f"Sustain the {st.holding.maneuver}",
                                    (die_field_act, *_ep_fields(enc, fid, True)),
                                    enabled=not why, reason=why))
    if stage in ("round-start", "phases", "round-end"):
        why = ("weenies cannot gain EP" if sh.weenie else
               "once a round" if st.willpower_ep_used else
               "no Willpower left" if st.willpower < 1 else "")
        forms.append(ActionForm("willpower-ep", "Spend 1 Willpower for 1 EP", enabled=not why,
                                reason=why, shortcut="W"))
    if stage not in ("setup", "fight-over"):
        if st.recovery is None:
            pools = tuple((p, p.title()) for p in ("chi", "willpower")
                          if points_down(enc, fid, p) > 0)
            forms.append(ActionForm("recover", "Start recovering",
                                    (FormField("pool", "Regain", "choice", choices=pools,
                                               default=pools[0][0] if pools else None),),
                                    enabled=bool(pools) and not is_out(enc, fid),
                                    reason="" if pools else "nothing to regain"))
        else:
            forms.append(ActionForm("stop-recovery", "Stop recovering and roll",
                                    enabled=rs.pending is None,
                                    reason="" if rs.pending is None else "answer first"))
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
    forms.append(_learn_form(enc, fid))
    forms.append(_edit_form(enc, fid))
    return tuple(_with_verb(f, f.rolls and rolls_now(f.id, stage)) for f in forms)


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


# --- building commands -------------------------------------------------------------------


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


# --- previews with exact odds -------------------------------------------------------------


def preview(enc: Encounter, form_id: str, fid: str, values: dict[str, Any]) -> Preview:
    if fid not in enc.fighters:
        return Preview(error=f"no fighter {fid!r}")
    try:
        command = build_command(form_id, fid, values)
        if form_id in ("act", "interrupt", "break-free", "interrupt-break-free",
                       "sustain-hold") or (
                form_id in ("concentrate", "intimidate", "deceive")
                and enc.state.stage == "phases"):
            return _move_preview(enc, form_id, fid, command)
        return _other_preview(enc, form_id, fid, command)
    except RuleViolation as exc:
        return Preview(error=str(exc))


def _as_act(command: Command) -> sf.Act:
    if isinstance(command, sf.Act):
        return command
    if isinstance(command, sf.Concentrate):
        return sf.Act(fighter_id=command.fighter_id, action="concentrate",
                      concentration=command.concentration, tn=command.tn,
                      die_id=command.die_id)
    if isinstance(command, sf.Intimidate | sf.Deceive):
        return sf.Act(fighter_id=command.fighter_id,
                      action="intimidate" if isinstance(command, sf.Intimidate) else "deceive",
                      target_id=command.target_id, die_id=command.die_id)
    raise RuleViolation("not a move")


def _move_preview(enc: Encounter, form_id: str, fid: str, command: Command) -> Preview:
    act = _as_act(command)
    interrupt = isinstance(act, sf.Interrupt)
    lines: list[str] = []
    odds: list[Odds] = []
    try:
        move = build_move(enc, act, interrupt=interrupt)
    except RuleViolation as exc:
        return Preview(lines=tuple(lines), error=str(exc))
    mod = move.speed_base - move.die_face
    speed = f"Speed {move.speed}: die {move.die_face}" + \
        (" (held, counts as the current phase)" if move.held_die else "") + \
        (f" {'+' if mod >= 0 else '-'} {abs(mod)} ({move_title(move)})"
         if move.maneuver is not None and move.action != "break-free" else "")
    if move.ep_speed:
        speed += f" + {2 * move.ep_speed} ({move.ep_speed} EP)"
    lines.append(speed)
    if interrupt and move.interrupts is not None:
        victim = next(m for m in enc.state.stack if m.id == move.interrupts)
        first = (move.speed, *_tie(enc, move)) > (victim.speed, *_tie(enc, victim))
        lines.append(
            f"Interrupts {name(enc, victim.fighter_id)}'s {move_title(victim)}: "
            f"{move.speed_base + 2 * move.ep_speed} is above its {victim.speed_base} "
            f"without EP, valid; resolves {'before' if first else 'after'} it "
            f"(its full speed {victim.speed})")
        lines.append("Cost: " + (f"1 EP (die {move.die_face} is not on phase "
                                 f"{enc.state.phase})" if move.cost_ep else
                                 "free" + (" (held die)" if move.held_die else
                                           " (abort)" if move.die_face != enc.state.phase
                                           else " (die on the phase)")))
        losing = [m for m in enc.state.stack if m.fighter_id == fid and m.open
                  and not m.is_block and (move.maneuver is None or not move.maneuver.block)]
        if losing:
            lines.append("Slower own moves would be lost: "
                         + ", ".join(move_title(m) for m in losing))
    if move.action in ("maneuver", "sustain-hold") and move.maneuver is not None \
            and move.target_id is not None:
        man = move.maneuver
        if man.special == "stunning-shout":
            pool = sum(sheet(enc, fid).rating(a) for a in man.shout_pool)
            odds += _opposed_odds(enc, fid, pool, move.target_id,
                                  status(enc, move.target_id).willpower, "shout")
        elif not man.no_damage:
            odds += _damage_odds(enc, move, lines, act.ep_damage)
    elif move.action in ("intimidate", "deceive") and move.target_id:
        sh, th = sheet(enc, fid), sheet(enc, move.target_id)
        pool = sh.charisma + sh.intimidation if move.action == "intimidate" \
            else sh.manipulation + sh.subterfuge
        against = status(enc, move.target_id).willpower if move.action == "intimidate" \
            else th.wits + th.insight
        lines.append(f"{plural(pool, 'die', 'dice')} against {plural(against, 'die', 'dice')}")
        odds += _opposed_odds(enc, fid, pool, move.target_id, against, "EP")
    elif move.action == "break-free" and move.target_id:
        odds += _opposed_odds(enc, fid, sheet(enc, fid).strength, move.target_id,
                              sheet(enc, move.target_id).strength, "break")
    elif move.action == "concentrate" and move.concentration and move.tn:
        pool = concentration_pool(enc, fid, move.concentration)
        tn = tn_for(enc, fid, move.tn, own_concentration=True)
        lines.append(f"Rolled at the end of the round: {plural(pool, 'die', 'dice')} at TN {tn}; "
                     "+2 to the fighter's other TNs this round")
        odds += _success_odds(pool, tn, enc.options.ones_cancel_on_other_rolls, "EP")
    return Preview(lines=tuple(lines), odds=tuple(odds))


def _tie(enc: Encounter, move: Move) -> tuple[int, int, int, int]:
    sh = sheet(enc, move.fighter_id)
    return (sh.wits, sh.perception, sh.dexterity, move.id)


def _damage_odds(enc: Encounter, move: Move, lines: list[str],
                 ep_damage: int | None) -> list[Odds]:
    from ...odds import at_least, damage_after_dodges, pool_successes
    from .damage import damage_pool

    assert move.target_id is not None
    pool = damage_pool(enc, move)
    lines.append(f"Damage pool after soak: {pool.describe()}")
    dice = pool.dice
    if ep_damage:
        dice += ep_damage
        lines.append(f"With {plural(ep_damage, 'EP damage die', 'EP damage dice')}: "
                     f"{plural(dice, 'die', 'dice')}")
    tn = tn_for(enc, move.fighter_id, 6)
    ones = enc.options.ones_cancel_on_damage
    dist = pool_successes(dice, tn, ones_cancel=ones)
    out = [Odds(f"at least {plural(k, 'health level')} (TN {tn})", at_least(dist, k))
           for k in range(1, min(dice, 3) + 1)]
    target = move.target_id
    ep = available_ep(status(enc, target)) if can_use_ep(enc, target) else 0
    if ep:
        dodge_tn = tn_for(enc, target, 6)
        dodged = damage_after_dodges(dist, 1, tn=dodge_tn,
                                     ones_cancel=enc.options.ones_cancel_on_other_rolls)
        out.append(Odds(f"still a hit if {name(enc, target)} dodges once", at_least(dodged, 1)))
    if move.maneuver is not None and move.maneuver.knockdown:
        lines.append("Knockdown if it hits")
    stamina = sheet(enc, target).stamina
    if dice > stamina:
        out.append(Odds(f"stun (more than Stamina {stamina})", at_least(dist, stamina + 1)))
    return out


def _success_odds(pool: int, tn: int, ones: bool, what: str) -> list[Odds]:
    from ...odds import at_least, pool_successes

    dist = pool_successes(pool, tn, ones_cancel=ones)
    return [Odds(f"at least {k} {what}", at_least(dist, k)) for k in range(1, min(pool, 3) + 1)]


def _opposed_odds(enc: Encounter, fid: str, pool: int, target: str, against: int,
                  what: str) -> list[Odds]:
    """Each side at its own TN (concentration or recovery can raise one side's)."""
    from ...odds import pool_successes

    ones = enc.options.ones_cancel_on_other_rolls
    mine = pool_successes(pool, tn_for(enc, fid, 6), ones_cancel=ones)
    theirs = pool_successes(against, tn_for(enc, target, 6), ones_cancel=ones)
    net: dict[int, Fraction] = {}
    for a, pa in mine.items():
        for b, pb in theirs.items():
            net[a - b] = net.get(a - b, Fraction(0)) + pa * pb
    def win(k: int) -> Fraction:
        return sum((p for d, p in net.items() if d >= k), Fraction(0))
    labels = {"EP": ("wins (target loses EP)", "target loses 2 EP or more"),
              "shout": ("costs a move or die", "also costs EP"),
              "break": ("breaks free", "wins by 2 or more")}[what]
    return [Odds(labels[0], win(1)), Odds(labels[1], win(2))]


def _other_preview(enc: Encounter, form_id: str, fid: str, command: Command) -> Preview:
    st = status(enc, fid)
    sh = sheet(enc, fid)
    if isinstance(command, sf.Concentrate):
        tn = tn_for(enc, fid, concentration_tn(enc, fid, command.concentration, command.tn),
                    own_concentration=True)
        pool = concentration_pool(enc, fid, command.concentration)
        return Preview(lines=(f"Rolled now: {plural(pool, 'die', 'dice')} at TN {tn}; each "
                              "success is 1 EP",),
                       odds=tuple(_success_odds(pool, tn,
                                                enc.options.ones_cancel_on_other_rolls, "EP")))
    if isinstance(command, sf.Intimidate | sf.Deceive):
        target = command.target_id
        if target not in enc.fighters:
            return Preview(error=f"no fighter {target!r}")
        th = sheet(enc, target)
        if isinstance(command, sf.Intimidate):
            pool, against = sh.charisma + sh.intimidation, status(enc, target).willpower
        else:
            pool, against = sh.manipulation + sh.subterfuge, th.wits + th.insight
        return Preview(lines=(f"{plural(pool, 'die', 'dice')} against "
                              f"{plural(against, 'die', 'dice')}, rolled now",),
                       odds=tuple(_opposed_odds(enc, fid, pool, target, against, "EP")))
    if isinstance(command, sf.StopRecovery) and st.recovery is not None:
        rec = st.recovery
        base = recovery_tn(enc, rec.full_rounds)
        if base is None:
            return Preview(lines=("Less than a full round: nothing regained",))
        if base == 0:
            return Preview(lines=("An hour or more: everything regained",))
        tn = min(10, base + (2 if rec.did_something else 0))
        down = points_down(enc, fid, rec.pool)
        return Preview(lines=(f"{plural(down, 'die', 'dice')} at TN {tn}, 1s ignored",),
                       odds=tuple(_success_odds(down, tn, False, rec.pool)))
    if isinstance(command, sf.BuyDice):
        return Preview(lines=(f"{2 * command.count} EP for {plural(command.count, 'extra die', 'extra dice')}",))
    if isinstance(command, sf.HoldDie):
        return Preview(lines=("The die counts as showing the current phase until it is used",))
    if isinstance(command, sf.PassDie):
        return Preview(lines=("The die is held, turned into EP or lost (you will be asked)",))
    return Preview()


# --- round controls ----------------------------------------------------------------------


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
    return _describe_state(enc, current_actor(enc))


def _describe_state(enc: Encounter, actor: str | None) -> str:
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
