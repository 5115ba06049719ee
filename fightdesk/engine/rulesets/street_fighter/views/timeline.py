"""The phase timeline: a lane per fighter, a chip per action die. (docs/rulesets/street-fighter.md)"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ....derived import stamps
from ....ruleset import (
    Chip,
    ChipState,
    Lane,
    Timeline,
)
from ..round import (
    current_actor,
)
from ..stack import die_is_free
from ..state import (
    effective_face,
    is_out,
    status,
)
from .controls import describe_at

if TYPE_CHECKING:
    from ....model import Encounter


COLUMNS: tuple[str, ...] = tuple(str(p) for p in range(10, 0, -1))


def _column(face: int) -> int:
    return 10 - face



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
                    caption=describe_at(enc, actor))


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
    if out:
        # Out of the fight: the dice rolled before leave the timeline (a new round gives
        # the fallen none; the lane stays, greyed).
        return chips
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
MEMO_LIMIT = 20_000


def _chip(chip_id: str, fid: str, column: int, label: str, state: ChipState, tip: str,
          clickable: bool) -> Chip:
    """The same object as last time for a chip that did not change (they are frozen, and
    most chips are the same from one step to the next): a 200-fighter timeline is built
    and compared faster."""
    key = (chip_id, fid, column, label, state, tip, clickable)
    last = _CHIPS.get(chip_id)
    if last is not None and last[0] == key:
        return last[1]
    if len(_CHIPS) > MEMO_LIMIT:
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
