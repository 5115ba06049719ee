"""Answers worked out from a fight's state, kept until the state next changes.

The views ask the same question many times per click (whose turn it is: once for every
card, the timeline, the controls and the rules' own checks); each answer is worked out
once per state and kept with the encounter. Every write to an encounter goes through
``changes.py`` (a command's transaction, its rollback, undo, redo, a rebuild), and each
of those calls :func:`forget` first, so a kept answer is never older than the state.
Code that changes an encounter by hand (a test setting a field) calls :func:`forget`.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# id(encounter) -> (a weak reference to it, its kept answers by name). Keyed by id: the
# models are not hashable; the weak reference drops the entry with the encounter and
# tells a new object that happens to get a dead one's id apart.
_kept: dict[int, tuple[weakref.ref[Any], dict[str, Any]]] = {}


def _dropper(key: int) -> Callable[[weakref.ref[Any]], None]:
    def drop(ref: weakref.ref[Any]) -> None:
        entry = _kept.get(key)
        if entry is not None and entry[0] is ref:
            del _kept[key]

    return drop


def kept(root: Any, name: str, work: Callable[[Any], T]) -> T:
    """``work(root)``, worked out once per state of ``root``."""
    key = id(root)
    entry = _kept.get(key)
    if entry is None or entry[0]() is not root:
        answers: dict[str, Any] = {}
        _kept[key] = (weakref.ref(root, _dropper(key)), answers)
    else:
        answers = entry[1]
        if name in answers:
            return answers[name]
    value = answers[name] = work(root)
    return value


def forget(root: Any) -> None:
    """Drop what is kept for ``root``: its state is about to change."""
    entry = _kept.get(id(root))
    if entry is not None:
        entry[1].clear()
