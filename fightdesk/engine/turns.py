"""The turn order kit: rounds made of turns, for the rulesets that have no phases.

A round is a list of sections (a surprise step, "before the enemies" and "after the
enemies", or one initiative order), each a list of turn slots. A slot is one turn of one
fighter: a fighter with extra turns has several slots, a held turn is a slot moved to act
right after a named fighter, a fighter allowed to act out of order may be dragged across
sections. The kit keeps whose turn it is and who has acted; the ruleset decides what is
allowed (:class:`TurnRules`) and what a turn does. Every write goes through the context,
so every move of the order is logged and undoable. See docs/ARCHITECTURE.md, "Turn order".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from pydantic import Field

from .base import StateModel
from .changes import Path, resolve
from .derived import stamps
from .ruleset import Chip, Lane, Timeline

if TYPE_CHECKING:
    from .model import Encounter
    from .ruleset import Context


class TurnSlot(StateModel):
    """One turn of one fighter in the round."""

    id: str
    fighter_id: str
    acted: bool = False
    # A held turn: the fighter acts right after this fighter's turn.
    after: str | None = None
    # An extra turn (a second or later slot of the same fighter this round).
    extra: bool = False
    # May be dragged across sections (a fighter who acts out of order).
    free: bool = False
    # The roll or score that placed the slot (shown on the timeline), if any.
    score: int | None = None
    # A waiting turn the GM dragged in front of the turn going on: it keeps that place
    # in the order (a declared order carries it to the next round) and comes right
    # after the turn going on (docs/ARCHITECTURE.md, "Turn order").
    ahead: bool = False


class TurnSection(StateModel):
    """A part of the round: surprise, before the enemies, the enemies, after them..."""

    id: str
    label: str
    slots: list[TurnSlot] = Field(default_factory=list)


class TurnOrder(StateModel):
    """The round's turns in the order they come, and whose turn it is now."""

    sections: list[TurnSection] = Field(default_factory=list)
    current: str | None = None
    # When the current turn started, by the GM's clock (for the optional turn timer);
    # a count of turns taken this fight, so each turn has its own id for the timer.
    turn_number: int = 0


class TurnRules:
    """What a ruleset says about its turn order; the defaults allow anything in a section."""

    def may_move(self, enc: Encounter, order: TurnOrder, slot: TurnSlot, to_section: str) -> str | None:
        """Why ``slot`` may not be moved to ``to_section`` (None: it may)."""
        here = section_of(order, slot.id)
        if here is not None and here.id != to_section and not slot.free:
            return "a turn moves only inside its own section"
        return None

    def may_hold(self, enc: Encounter, order: TurnOrder, slot: TurnSlot, after: str) -> str | None:
        """Why the fighter of ``slot`` may not hold to act right after ``after``."""
        return None

    def skips(self, enc: Encounter, fighter_id: str) -> bool:
        """True for a fighter whose turns are passed over (out of the fight)."""
        return False


# --- reading --------------------------------------------------------------------------------


def slots(order: TurnOrder) -> Iterator[TurnSlot]:
    """Every slot of the round in turn order."""
    for section in order.sections:
        yield from section.slots


def slot_by_id(order: TurnOrder, slot_id: str) -> TurnSlot | None:
    return next((s for s in slots(order) if s.id == slot_id), None)


def section_of(order: TurnOrder, slot_id: str) -> TurnSection | None:
    return next((sec for sec in order.sections if any(s.id == slot_id for s in sec.slots)), None)


def current_slot(order: TurnOrder) -> TurnSlot | None:
    return slot_by_id(order, order.current) if order.current else None


def current_fighter(order: TurnOrder) -> str | None:
    slot = current_slot(order)
    return slot.fighter_id if slot else None


def next_slot(order: TurnOrder, skips: Callable[[str], bool]) -> TurnSlot | None:
    """The first slot still to come: a turn dragged in front of the current one, else
    the first after the current one (or from the start) that has not acted."""
    return next(iter(waiting_slots(order, skips)), None)


def waiting_slots(order: TurnOrder, skips: Callable[[str], bool]) -> list[TurnSlot]:
    """The turns still to come this round, in the order they come: the ones dragged in
    front of the turn going on first (they come right after it), then the ones after it.
    A turn before the current one that was not dragged there (passed by while its
    fighter was out) does not come back."""
    found_current = order.current is None
    waiting: list[TurnSlot] = []
    for slot in slots(order):
        if not found_current:
            found_current = slot.id == order.current
            if slot.ahead and not found_current and not slot.acted \
                    and not skips(slot.fighter_id):
                waiting.append(slot)
            continue
        if not slot.acted and not skips(slot.fighter_id):
            waiting.append(slot)
    return waiting


# --- changing (through the context: logged and undoable) ------------------------------------


def begin(ctx: Context, path: Path, sections: list[TurnSection],
          skips: Callable[[str], bool]) -> TurnSlot | None:
    """Lay out a new round and give the turn to its first fighter who can act. Every
    turn has its own id in the round (a second turn of the same fighter becomes
    ``fighter#2``), so no turn can be taken twice."""
    order = TurnOrder(sections=_unique_ids(sections), turn_number=_order(ctx, path).turn_number)
    ctx.set(path[:-1], str(path[-1]), order)
    return _give_turn(ctx, path, next_slot(_order(ctx, path), skips))


def end_turn(ctx: Context, path: Path, skips: Callable[[str], bool]) -> TurnSlot | None:
    """The current turn is taken; the next waiting slot gets the turn (None: round over)."""
    order = _order(ctx, path)
    if order.current is not None:
        _update_slot(ctx, path, order.current, acted=True)
    return _give_turn(ctx, path, next_slot(_order(ctx, path), skips))


def take_current(ctx: Context, path: Path) -> None:
    """The current turn is taken (the round ends on it); nobody gets the next one."""
    order = _order(ctx, path)
    if order.current is not None:
        _update_slot(ctx, path, order.current, acted=True)


def give_turn_to(ctx: Context, path: Path, slot_id: str) -> TurnSlot:
    """Hand the turn to a given slot (a held turn that comes up, the GM's choice)."""
    order = _order(ctx, path)
    slot = slot_by_id(order, slot_id)
    if slot is None:
        ctx.fail(f"no turn {slot_id!r} this round")
    given = _give_turn(ctx, path, slot)
    assert given is not None
    return given


def move(ctx: Context, path: Path, rules: TurnRules, slot_id: str, to_section: str,
         index: int) -> None:
    """Move a slot to position ``index`` of a section, if the ruleset allows it."""
    order = _order(ctx, path)
    slot = slot_by_id(order, slot_id)
    if slot is None:
        ctx.fail(f"no turn {slot_id!r} this round")
    target = next((s for s in order.sections if s.id == to_section), None)
    if target is None:
        ctx.fail(f"no part {to_section!r} in this round")
    why = rules.may_move(ctx.enc, order, slot, to_section)
    if why:
        ctx.fail(f"{ctx.enc.name_of(slot.fighter_id)} cannot go there: {why}")
    if slot.acted:
        ctx.fail(f"{ctx.enc.name_of(slot.fighter_id)} has already acted this round")
    sections = [sec.model_copy(deep=True) for sec in order.sections]
    moved = slot.model_copy(update={"after": None})
    for sec in sections:
        sec.slots = [s for s in sec.slots if s.id != slot_id]
    dest = next(sec for sec in sections if sec.id == to_section)
    # Turns already taken stay where they were: a waiting turn goes among the waiting ones.
    first_waiting = next((i for i, s in enumerate(dest.slots) if not s.acted), len(dest.slots))
    dest.slots.insert(max(first_waiting, min(index, len(dest.slots))), moved)
    ctx.set(path, "sections", _mark_ahead(order, sections))


def _mark_ahead(old: TurnOrder, sections: list[TurnSection]) -> list[TurnSection]:
    """No turn is lost to a drag: a waiting turn that a move puts in front of the turn
    going on (the dragged one, or the ones the current turn was dragged past) is marked
    to come right after it; one that ends up behind it again comes in its place."""
    if old.current is None:
        return sections

    def before_current(secs: list[TurnSection]) -> set[str]:
        ids: set[str] = set()
        for sec in secs:
            for slot in sec.slots:
                if slot.id == old.current:
                    return ids
                if not slot.acted:
                    ids.add(slot.id)
        return ids

    was_before = before_current(old.sections)
    now_before = before_current(sections)
    for sec in sections:
        sec.slots = [s.model_copy(update={"ahead": s.id in now_before and (
                         s.ahead or s.id not in was_before)})
                     if s.ahead != (s.id in now_before and (s.ahead or s.id not in was_before))
                     else s for s in sec.slots]
    return sections


def hold(ctx: Context, path: Path, rules: TurnRules, slot_id: str, after_fighter: str) -> None:
    """Hold a turn to act right after ``after_fighter``'s next turn."""
    order = _order(ctx, path)
    slot = slot_by_id(order, slot_id)
    if slot is None:
        ctx.fail(f"no turn {slot_id!r} this round")
    name = ctx.enc.name_of
    # The named fighter's next turn: the first of theirs still to come after this one.
    order_ids = [s.id for s in slots(order)]
    later = list(slots(order))[order_ids.index(slot.id) + 1:]
    anchor = next((s for s in later if s.fighter_id == after_fighter and not s.acted), None)
    if anchor is None:
        ctx.fail(f"{name(after_fighter)} has no turn left this round to hold for")
    why = rules.may_hold(ctx.enc, order, slot, after_fighter)
    if why:
        ctx.fail(f"{name(slot.fighter_id)} cannot hold for {name(after_fighter)}: {why}")
    sections = [sec.model_copy(deep=True) for sec in order.sections]
    for sec in sections:
        sec.slots = [s for s in sec.slots if s.id != slot.id]
    held = slot.model_copy(update={"after": after_fighter})
    for sec in sections:
        for i, s in enumerate(sec.slots):
            if s.id == anchor.id:
                sec.slots.insert(i + 1, held)
                break
    was_current = order.current == slot.id
    ctx.set(path, "sections", sections)
    if was_current:
        ctx.set(path, "current", None)


def add_turn(ctx: Context, path: Path, fighter_id: str, section_id: str,
             index: int | None = None, *, extra: bool = True, free: bool = False) -> TurnSlot:
    """Give a fighter another turn this round (an extra turn, or a late joiner's turn)."""
    order = _order(ctx, path)
    taken = {s.id for s in slots(order)}
    slot_id, n = fighter_id, 2
    while slot_id in taken:
        slot_id, n = f"{fighter_id}#{n}", n + 1
    slot = TurnSlot(id=slot_id, fighter_id=fighter_id, extra=extra and slot_id != fighter_id,
                    free=free)
    sections = [sec.model_copy(deep=True) for sec in order.sections]
    dest = next((sec for sec in sections if sec.id == section_id), None)
    if dest is None:
        ctx.fail(f"no part {section_id!r} in this round")
    dest.slots.insert(len(dest.slots) if index is None else index, slot)
    ctx.set(path, "sections", sections)
    return slot


def remove_fighter(ctx: Context, path: Path, fighter_id: str) -> None:
    """Take every turn of a fighter out of the round (they left the fight)."""
    order = _order(ctx, path)
    if not any(s.fighter_id == fighter_id for s in slots(order)):
        return
    sections = [sec.model_copy(deep=True) for sec in order.sections]
    for sec in sections:
        sec.slots = [s for s in sec.slots if s.fighter_id != fighter_id]
    if current_fighter(order) == fighter_id:
        ctx.set(path, "current", None)
    ctx.set(path, "sections", sections)


def _unique_ids(sections: list[TurnSection]) -> list[TurnSection]:
    taken: set[str] = set()
    out: list[TurnSection] = []
    for sec in sections:
        kept: list[TurnSlot] = []
        for slot in sec.slots:
            slot_id, n = slot.id, 2
            while slot_id in taken:
                slot_id, n = f"{slot.fighter_id}#{n}", n + 1
            taken.add(slot_id)
            kept.append(slot if slot_id == slot.id else slot.model_copy(update={"id": slot_id}))
        out.append(sec.model_copy(update={"slots": kept}))
    return out


def _order(ctx: Context, path: Path) -> TurnOrder:
    found = resolve(ctx.enc, path)
    assert isinstance(found, TurnOrder)
    return found


def _update_slot(ctx: Context, path: Path, slot_id: str, **values: object) -> None:
    order = _order(ctx, path)
    for si, sec in enumerate(order.sections):
        for i, s in enumerate(sec.slots):
            if s.id == slot_id:
                ctx.tx.set_item((*path, "sections", si, "slots"), i, s.model_copy(update=values))
                return


def _give_turn(ctx: Context, path: Path, slot: TurnSlot | None) -> TurnSlot | None:
    order = _order(ctx, path)
    ctx.set(path, "current", slot.id if slot else None)
    if slot is not None:
        ctx.set(path, "turn_number", order.turn_number + 1)
    return slot


# --- the timeline view ------------------------------------------------------------------------


def timeline(enc: Encounter, order: TurnOrder, *, out: Callable[[str], bool],
             caption: str = "", clickable: Callable[[TurnSlot], bool] | None = None,
             label: Callable[[TurnSlot], str] | None = None) -> Timeline:
    """The round as the timeline widget draws it: a column per section, a lane per turn
    slot in turn order, the current turn marked acting and the taken ones done."""
    columns = tuple(sec.label for sec in order.sections)
    if clickable is None and label is None and getattr(enc.state, "turns", None) is order:
        lanes, current_column = _kept_lanes(enc, order, out)
    else:
        lanes, current_column = [], None
        for col, sec in enumerate(order.sections):
            for slot in sec.slots:
                lane = _slot_lane(enc, order, col, sec, slot, out, clickable, label)
                if lane is not None:
                    lanes.append(lane)
                    if slot.id == order.current:
                        current_column = col
    if len(columns) > 1:
        lanes = _each_fighter_once(lanes)
    return Timeline(columns=columns, lanes=tuple(lanes), current_column=current_column,
                    caption=caption, movable=True,
                    column_ids=tuple(sec.id for sec in order.sections))


def _each_fighter_once(lanes: list[Lane]) -> list[Lane]:
    """A fighter's turn in an earlier section (roll-under's surprise step) is drawn on
    the lane of the same fighter's turn further on, in its own column: each fighter has
    one lane. An extra turn in a round keeps its own lane (it is ordered on its own)."""
    last: dict[tuple[tuple[str, ...], str], int] = {}
    for n, lane in enumerate(lanes):
        last[(lane.fighter_ids, lane.title)] = n
    if len(last) == len(lanes):
        return lanes
    earlier: dict[int, list[Chip]] = {}
    for n, lane in enumerate(lanes):
        keep = last[(lane.fighter_ids, lane.title)]
        if keep != n:
            earlier.setdefault(keep, []).extend(lane.chips)
    return [lane._replace(chips=(*lane.chips, *earlier[n])) if n in earlier else lane
            for n, lane in enumerate(lanes)
            if last[(lane.fighter_ids, lane.title)] == n]


def _slot_lane(enc: Encounter, order: TurnOrder, col: int, sec: TurnSection, slot: TurnSlot,
               out: Callable[[str], bool], clickable: Callable[[TurnSlot], bool] | None = None,
               label: Callable[[TurnSlot], str] | None = None) -> Lane | None:
    """One slot's lane (None: its fighter has left the fight)."""
    fighter = enc.fighters.get(slot.fighter_id)
    if fighter is None:
        return None
    is_current = slot.id == order.current
    is_out = out(slot.fighter_id)
    # A turn still to come of a fighter out of the fight is passed by: shown lost, not
    # waiting (docs/rulesets/README.md#the-end-of-a-fight).
    state: str = ("acting" if is_current else "done" if slot.acted
                  else "lost" if is_out else "waiting")
    text = label(slot) if label else _slot_label(enc, slot)
    tip = _slot_tip(enc, sec, slot, state)
    chip = Chip(id=slot.id, fighter_id=slot.fighter_id, column=col, label=text,
                state=state,  # type: ignore[arg-type]
                tooltip=tip,
                clickable=clickable(slot) if clickable else is_current)
    if is_out and not is_current:
        # Out of the fight: the lane stays, greyed, with none of the fighter's turns on
        # it, taken or to come (docs/rulesets/README.md#the-end-of-a-fight).
        return _lane(fighter.name, slot, None, is_out)
    return _lane(fighter.name, slot, chip, is_out)


class _KeptLanes:
    """The lanes last handed out, and where each slot's lane is among them."""

    __slots__ = ("basis", "current", "lanes", "place", "slots_of")

    def __init__(self, basis: object) -> None:
        self.basis = basis
        self.lanes: list[Lane] = []
        # (section index, slot index) -> (lane index, slot id); fighter -> its slots.
        self.place: dict[tuple[int, int], tuple[int, str]] = {}
        self.slots_of: dict[str, list[tuple[int, int]]] = {}
        self.current: tuple[int, int] | None = None


def _kept_lanes(enc: Encounter, order: TurnOrder,
                out: Callable[[str], bool]) -> tuple[list[Lane], int | None]:
    """The lanes, kept from one state to the next (derived.py): made again only for the
    slots written since, the slots of the fighters written since (``out`` reads only
    the fighter), and the turn that ends and the one that begins; all of them when the
    roster, the options or the round's layout change. A next turn makes two lanes of 200."""
    entry = stamps(enc)
    watch = entry.watch("turns:lanes")
    basis = (entry.part("roster"), entry.part("options"))
    kept: _KeptLanes | None = watch.state
    touched = None if watch.overflow else _touched_slots(watch.paths)
    now = _place_of(order, order.current)
    if kept is None or kept.basis != basis or touched is None or (
            order.current is not None and now is None):
        kept = watch.state = _KeptLanes(basis)
        for si, sec in enumerate(order.sections):
            for i, slot in enumerate(sec.slots):
                lane = _slot_lane(enc, order, si, sec, slot, out)
                if lane is not None:
                    kept.place[(si, i)] = (len(kept.lanes), slot.id)
                    kept.slots_of.setdefault(slot.fighter_id, []).append((si, i))
                    kept.lanes.append(lane)
    else:
        looked = set(touched)
        for fid in watch.fighters:
            looked.update(kept.slots_of.get(fid, ()))
        looked.update(p for p in (kept.current, now) if p is not None)
        for si, i in looked:
            found = kept.place.get((si, i))
            if found is None:
                continue  # its fighter has left the fight (the roster moved too)
            sec = order.sections[si]
            slot = sec.slots[i]
            lane = _slot_lane(enc, order, si, sec, slot, out)
            if lane is None or slot.id != found[1] or slot.fighter_id != lane.fighter_ids[0]:
                watch.state = None  # a slot that is not where it was: look at them all
                watch.clear()
                return _kept_lanes(enc, order, out)
            kept.lanes[found[0]] = lane
    kept.current = now
    watch.clear()
    column = now[0] if now is not None and now in kept.place else None
    return list(kept.lanes), column


def _place_of(order: TurnOrder, slot_id: str | None) -> tuple[int, int] | None:
    if slot_id is None:
        return None
    for si, sec in enumerate(order.sections):
        for i, slot in enumerate(sec.slots):
            if slot.id == slot_id:
                return si, i
    return None


def _touched_slots(paths: list[tuple[tuple[object, ...], object, str]]
                   ) -> set[tuple[int, int]] | None:
    """The slots (section index, slot index) the writes changed in place, or None when
    one changed the round's layout (a slot added, moved or removed, a section's label,
    the whole order)."""
    touched: set[tuple[int, int]] = set()
    for target, key, op in paths:
        full = (*target, key)
        if full[0] != "state":
            continue
        if len(full) < 3:
            if len(full) == 1 or full[1] == "turns":
                return None  # the whole round state or turn order replaced
            continue
        if full[1] != "turns" or full[2] in ("current", "turn_number"):
            continue  # another part of the round; whose turn it is is looked at anyway
        if (len(full) >= 6 and full[2] == "sections" and full[4] == "slots"
                and (len(full) > 6 or op == "set")):
            touched.add((int(full[3]), int(full[5])))  # type: ignore[call-overload]
            continue
        return None
    return touched


def _lane(name: str, slot: TurnSlot, chip: Chip | None, is_out: bool) -> Lane:
    title = name + (" (extra turn)" if slot.extra else "")
    return Lane(id=slot.id, title=title, fighter_ids=(slot.fighter_id,),
                chips=() if chip is None else (chip,), out=is_out)


def _slot_label(enc: Encounter, slot: TurnSlot) -> str:
    if slot.after:
        # The fighter waited for may have left the fight: the turn stays where it was.
        return f"after {enc.name_of(slot.after)}" if slot.after in enc.fighters else "held"
    return str(slot.score) if slot.score is not None else "turn"


def _slot_tip(enc: Encounter, section: TurnSection, slot: TurnSlot, state: str) -> str:
    name = enc.name_of(slot.fighter_id)
    words = {"acting": "acting now", "done": "has acted", "waiting": "waiting",
             "lost": "out of the fight: the turn is passed by"}[state]
    bits = [f"{name}: {section.label}, {words}"]
    if slot.after in enc.fighters:
        bits.append(f"holding to act right after {enc.name_of(slot.after)}")
    elif slot.after:
        bits.append("held: the fighter it waited for has left the fight")
    if slot.score is not None:
        bits.append(f"rolled {slot.score}")
    if slot.free:
        bits.append("may act out of order")
    return "\n".join(bits)
