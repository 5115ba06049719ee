"""Answers worked out from a fight's state, kept until the state next changes.

The views ask the same question many times per click (whose turn it is: once for every
card, the timeline, the controls and the rules' own checks); each answer is worked out
once per state and kept with the encounter. Every write to an encounter goes through
``changes.py`` (a command's transaction, its rollback, undo, redo, a rebuild), and each
of those calls :func:`forget` first, so a kept answer is never older than the state.
Code that changes an encounter by hand (a test setting a field) calls :func:`forget`.

A click changes a few fighters of 200, so the views also keep what they made for each
fighter (a card, a timeline lane) from one state to the next (issue 16's views session):
:func:`forget` is told the path of each write, and :class:`Stamps` says which fighters
and which other parts of the fight (the round state, the options, the roster of names and
groups) were written since. A view keeps a fighter's piece under the stamps of what it
read, and makes it again only when one of them moved.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from itertools import count
from typing import Any, TypeVar

T = TypeVar("T")

# A fresh number for every write: a stamp never comes back to an earlier value.
_TICKS = count(1)

# A fighter's fields that other fighters' views read (a name on a "Held by" line, a group
# size, who is in the fight): a write to one of them moves the roster stamp.
_ROSTER_FIELDS = frozenset({"id", "name", "group", "side", "hidden"})


class Stamps:
    """What one encounter keeps: the answers of this state, the stamp of each fighter and
    of each other part of the fight, and the views' pieces kept between states."""

    __slots__ = ("answers", "fighters", "memos", "parts", "ref")

    def __init__(self, ref: weakref.ref[Any]) -> None:
        self.ref = ref
        self.answers: dict[str, Any] = {}
        self.fighters: dict[Hashable, int] = {}
        self.parts: dict[str, int] = {}
        self.memos: dict[str, dict[Any, Any]] = {}

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

    def wrote(self, target: tuple[Any, ...], key: Any) -> None:
        """Move the stamps a write at ``target``/``key`` touches."""
        tick = next(_TICKS)
        head = target[0] if target else key
        if head == "fighters":
            if not target:  # the whole dict of fighters replaced
                self.everything()
                return
            fighter_id = key if len(target) == 1 else target[1]
            self.fighters[fighter_id] = tick
            if len(target) == 1 or (len(target) == 2 and key in _ROSTER_FIELDS):
                self.parts["roster"] = tick
            return
        self.parts[head] = tick
        if head in ("order", "groups"):
            self.parts["roster"] = tick

    def everything(self) -> None:
        """Anything may have changed: every kept piece goes (the stamps only ever grow)."""
        self.memos.clear()
        self.parts["*"] = next(_TICKS)


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


def forget(root: Any, target: tuple[Any, ...] | None = None, key: Any = None) -> None:
    """Drop what is kept for ``root``: its state is about to change. ``target`` and
    ``key``: where the write goes (see ``changes.Change``); without them anything may
    change, and every piece the views kept goes too."""
    entry = _kept.get(id(root))
    if entry is None or entry.ref() is not root:
        return
    entry.answers.clear()
    if target is None:
        entry.everything()
    else:
        entry.wrote(target, key)


def per_fighter(root: Any, name: str, reads: Callable[[str], Hashable],
                make: Callable[[Any, str], T]) -> list[tuple[str, T]]:
    """``make(root, fid)`` for each fighter in the fight's order, kept from one state to
    the next: made again only when the fighter was written, the roster or the options
    moved, or ``reads(fid)`` (what else the piece reads: whose turn it is, the stage...)
    says something else than last time. A view that reads anything more of the fight
    must say it in ``reads``."""
    entry = stamps(root)
    memo = entry.memo(name)
    common = (entry.part("roster"), entry.part("options"))
    fighters = entry.fighters
    present = root.fighters
    out: list[tuple[str, T]] = []
    for fid in root.order:
        if fid not in present:
            continue
        key = (fighters.get(fid, 0), common, reads(fid))
        last = memo.get(fid)
        if last is None or last[0] != key:
            last = memo[fid] = (key, make(root, fid))
        out.append((fid, last[1]))
    return out
