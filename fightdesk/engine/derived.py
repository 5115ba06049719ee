"""Answers worked out from a fight's state, kept until the state next changes.

The views ask the same question many times per click (whose turn it is: once for every
card, the timeline, the controls and the rules' own checks); each answer is worked out
once per state and kept with the encounter. Every write to an encounter goes through
``changes.py`` (a command's transaction, its rollback, undo, redo, a rebuild), and each
of those calls :func:`forget` first, so a kept answer is never older than the state.
Code that changes an encounter by hand (a test setting a field) calls :func:`forget`.

A click changes a few fighters of 200, so the views also keep what they made for each
fighter (a card, a timeline lane) from one state to the next:
:func:`forget` is told the path of each write, and :class:`Stamps` says which fighters
and which other parts of the fight (the round state, the options, the roster of names and
groups) were written since. A view keeps a fighter's piece under the stamps of what it
read, and makes it again only when one of them moved.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Mapping
from itertools import count
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")

# A fresh number for every write: a stamp never comes back to an earlier value.
_TICKS = count(1)

# A fighter's fields that other fighters' views read (a name on a "Held by" line, a group
# size, who is in the fight): a write to one of them moves the roster stamp.
_ROSTER_FIELDS = frozenset({"id", "name", "group", "side", "hidden"})


class Stamps:
    """What one encounter keeps: the answers of this state, the stamp of each fighter and
    of each other part of the fight, and the views' pieces kept between states."""

    __slots__ = ("answers", "dirty", "fighters", "memos", "parts", "ref", "watches")

    def __init__(self, ref: weakref.ref[Any]) -> None:
        self.ref = ref
        self.answers: dict[str, Any] = {}
        self.fighters: dict[Hashable, int] = {}
        self.parts: dict[str, int] = {}
        self.memos: dict[str, Any] = {}
        # The fighters written since each view last looked (see ``per_fighter``), and the
        # other writes since (see ``watch``).
        self.dirty: list[set[Any]] = []
        self.watches: list[Watch] = []

    def fighter(self, fighter_id: Hashable) -> int:
        """Moves whenever anything in this fighter is written (or the fighter is added,
        replaced or removed)."""
        return self.fighters.get(fighter_id, 0)

    def part(self, name: str) -> int:
        """Moves whenever the encounter's field ``name`` ("state", "options", "round"...)
        is written; "roster" moves with the fighters' names, groups and sides, the order,
        the groups, and a fighter added or removed."""
        return self.parts.get(name, 0)

    def memo(self, name: str) -> dict[Any, Any]:
        """A view's own store of pieces, kept with the encounter; emptied when a write
        could have changed anything (a write by hand, the whole fighters dict replaced)."""
        found = self.memos.get(name)
        if found is None:
            found = self.memos[name] = {}
        return found

    def watch(self, name: str, *, paths: bool = True) -> Watch:
        """The fighters written, and the writes outside the fighters (unless ``paths`` is
        off), since the view ``name`` last looked (it calls ``Watch.clear`` when it has)."""
        found = self.memos.get(name)
        if found is None:
            found = self.memos[name] = Watch()
            if paths:
                self.watches.append(found)
            self.dirty.append(found.fighters)
        return found

    def wrote(self, target: tuple[Any, ...], key: Any, op: str = "set") -> None:
        """Move the stamps a write at ``target``/``key`` touches (``op`` as a
        ``changes.Change`` says it: set, put or del)."""
        tick = next(_TICKS)
        head = target[0] if target else key
        if head == "fighters":
            if not target:  # the whole dict of fighters replaced
                self.everything()
                return
            fighter_id = key if len(target) == 1 else target[1]
            self.fighters[fighter_id] = tick
            for dirty in self.dirty:
                dirty.add(fighter_id)
            if len(target) == 1 or (len(target) == 2 and key in _ROSTER_FIELDS):
                self.parts["roster"] = tick
            return
        self.parts[head] = tick
        for watch in self.watches:
            watch.saw(target, key, op)
        if head in ("order", "groups"):
            self.parts["roster"] = tick

    def everything(self) -> None:
        """Anything may have changed: every kept piece goes (the stamps only ever grow)."""
        self.memos.clear()
        self.dirty.clear()
        self.watches.clear()
        self.parts["*"] = next(_TICKS)


class Watch:
    """The paths written outside the fighters since a view last looked, up to a limit
    (past it, ``overflow``: the view looks at everything)."""

    __slots__ = ("fighters", "overflow", "paths", "state")
    LIMIT = 256

    def __init__(self) -> None:
        self.paths: list[tuple[tuple[Any, ...], Any, str]] = []
        self.fighters: set[Any] = set()
        self.overflow = False
        # What the view keeps between looks.
        self.state: Any = None

    def saw(self, target: tuple[Any, ...], key: Any, op: str) -> None:
        if len(self.paths) < self.LIMIT:
            self.paths.append((target, key, op))
        else:
            self.overflow = True

    def clear(self) -> None:
        self.paths.clear()
        self.fighters.clear()
        self.overflow = False


# id(encounter) -> what is kept for it. Keyed by id: the models are not hashable; the
# weak reference drops the entry with the encounter and tells a new object that happens
# to get a dead one's id apart.
_kept: dict[int, Stamps] = {}


def _dropper(key: int) -> Callable[[weakref.ref[Any]], None]:
    def drop(ref: weakref.ref[Any]) -> None:
        entry = _kept.get(key)
        if entry is not None and entry.ref is ref:
            del _kept[key]

    return drop


def stamps(root: Any) -> Stamps:
    """What is kept for ``root`` (made empty the first time it is asked)."""
    key = id(root)
    entry = _kept.get(key)
    if entry is None or entry.ref() is not root:
        entry = _kept[key] = Stamps(weakref.ref(root, _dropper(key)))
    return entry


def kept(root: Any, name: str, work: Callable[[Any], T]) -> T:
    """``work(root)``, worked out once per state of ``root``."""
    answers = stamps(root).answers
    if name in answers:
        return answers[name]
    value = answers[name] = work(root)
    return value


def by_roster(root: Any, name: str, work: Callable[[Any], T]) -> T:
    """``work(root)``, kept until the roster (the fighters' names, groups and sides, the
    order, the groups, a fighter added or removed) or the options next move: for an
    answer that reads nothing else (each group's size)."""
    entry = stamps(root)
    memo = entry.memo(name)
    basis = (entry.part("roster"), entry.part("options"))
    if memo.get("basis") != basis:
        memo["value"] = work(root)
        memo["basis"] = basis
    return memo["value"]


def forget(root: Any, target: tuple[Any, ...] | None = None, key: Any = None,
           op: str = "set") -> None:
    """Drop what is kept for ``root``: its state is about to change. ``target``, ``key``
    and ``op``: the write (see ``changes.Change``); without them anything may change,
    and every piece the views kept goes too."""
    entry = _kept.get(id(root))
    if entry is None or entry.ref() is not root:
        return
    entry.answers.clear()
    if target is None:
        entry.everything()
    else:
        entry.wrote(target, key, op)



class Reads(NamedTuple):
    """What each fighter's piece of a view reads besides its own fighter, the roster and
    the options: ``shared``, the same for every fighter (the round's stage), and
    ``special``, a value for the few fighters that read something the others do not
    (whose turn it is: ``{actor: True}``); every other fighter reads None there."""

    shared: Hashable = None
    special: Mapping[str, Hashable] = {}


class _Pieces:
    """One view's pieces of each fighter, as last handed out, with the fighters written
    since (``dirty``, filled by :meth:`Stamps.wrote`)."""

    __slots__ = ("basis", "dirty", "out", "pieces", "position", "special")

    def __init__(self) -> None:
        self.pieces: dict[str, tuple[Hashable, Any]] = {}
        self.dirty: set[Any] = set()
        self.basis: Hashable = None
        self.out: list[tuple[str, Any]] = []
        self.position: dict[str, int] = {}
        self.special: Mapping[str, Hashable] = {}


def per_fighter(root: Any, name: str, reads: Reads,
                make: Callable[[Any, str], T]) -> list[tuple[str, T]]:
    """``make(root, fid)`` for each fighter in the fight's order, kept from one state to
    the next: made again only when the fighter was written, the roster or the options
    moved, or what it reads (``reads``) says something else than last time. A view
    that reads anything more of the fight must say it in ``reads``.

    While the roster, the options and ``reads.shared`` stay, only the fighters written
    since the last call and those in ``reads.special`` now or then are looked at: a
    click costs what it changed, not the size of the fight."""
    entry = stamps(root)
    kept = entry.memos.get(name)
    if kept is None:
        kept = entry.memos[name] = _Pieces()
        entry.dirty.append(kept.dirty)
    basis = (entry.part("roster"), entry.part("options"), reads.shared)
    special = reads.special
    pieces = kept.pieces
    stamp = entry.fighters.get
    if kept.basis == basis:
        out = kept.out
        position = kept.position
        looked: set[Any] = kept.dirty | special.keys() | kept.special.keys()
        for fid in looked:
            at = position.get(fid)
            if at is None:
                continue  # not in the fight's order (the roster would have moved)
            key = (stamp(fid, 0), basis, special.get(fid))
            last = pieces.get(fid)
            if last is None or last[0] != key:
                last = pieces[fid] = (key, make(root, fid))
                out[at] = (fid, last[1])
    else:
        present = root.fighters
        out = []
        position = {}
        for fid in root.order:
            if fid not in present:
                continue
            key = (stamp(fid, 0), basis, special.get(fid))
            last = pieces.get(fid)
            if last is None or last[0] != key:
                last = pieces[fid] = (key, make(root, fid))
            position.setdefault(fid, len(out))
            out.append((fid, last[1]))
        # An order that names a fighter twice (a hand-edited file) is looked at whole
        # each time: one position per fighter is what the short way needs.
        kept.out, kept.position = out, position
        kept.basis = basis if len(position) == len(out) else None
    kept.dirty.clear()
    kept.special = special
    return list(out)


def fighter_values(root: Any, name: str,
                   value: Callable[[Any, str], Hashable | None]) -> dict[str, Any]:
    """``{fid: value(root, fid)}`` for the fighters in the fight's order whose value is
    not None, kept up to date by looking again only at the fighters written since
    (``value`` reads only its fighter, the roster and the options). Not to be changed
    by the caller."""
    entry = stamps(root)
    watch = entry.watch(name, paths=False)
    basis = (entry.part("roster"), entry.part("options"))
    kept = watch.state
    if kept is None or kept[0] != basis:
        present = root.fighters
        members = {fid for fid in root.order if fid in present}
        values: dict[str, Any] = {}
        for fid in root.order:
            if fid not in members or fid in values:
                continue
            found = value(root, fid)
            if found is not None:
                values[fid] = found
        watch.state = (basis, members, values)
    else:
        _, members, values = kept
        for fid in watch.fighters:
            if fid not in members:
                continue
            found = value(root, fid)
            if found is None:
                values.pop(fid, None)
            else:
                values[fid] = found
    watch.clear()
    return values
