"""Primitive, invertible state changes: the atoms of the engine's history.

Every rule changes the encounter only through a :class:`Transaction`, which records each
write as a :class:`Change` holding JSON snapshots of the value before and after. Undo
applies the inverses in reverse order, redo re-applies them, and a rebuild from the log
replays them: no rule runs again, so no die is rolled twice.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass
from pydantic_core import to_jsonable_python

from .derived import forget

PathKey = str | int
Path = tuple[PathKey, ...]


class RuleViolation(Exception):
    """A command that the rules do not allow; its message is shown to the GM as is."""


def _is_none(value: Any) -> bool:
    return value is None


@dataclass(slots=True, config=ConfigDict(extra="forbid"))
class Change:
    """One write: ``target`` is the path from the encounter to a model or a dict,
    ``key`` the attribute or dict key; ``op`` says whether the slot is set, added
    to a dict, or removed from it.

    A slotted dataclass rather than a model: a long fight holds tens of thousands of
    them, and a model's per-object dict and set of given fields cost about four times
    the memory. pydantic validates and saves it all the same."""

    target: tuple[PathKey, ...]
    key: PathKey
    # Saved only when they say something (a long fight's file is mostly changes).
    op: Annotated[Literal["set", "put", "del"], Field(exclude_if=lambda op: op == "set")] = "set"
    before: Annotated[Any, Field(exclude_if=_is_none)] = None
    after: Annotated[Any, Field(exclude_if=_is_none)] = None

    def inverse(self) -> Change:
        op: Literal["set", "put", "del"] = (
            "set" if self.op == "set" else ("del" if self.op == "put" else "put")
        )
        return Change(target=self.target, key=self.key, op=op, before=self.after, after=self.before)


def snapshot(value: Any) -> Any:
    """A JSON-compatible copy, so a change never aliases live state."""
    return to_jsonable_python(value)


@cache
def field_names(model: type[BaseModel]) -> frozenset[str]:
    """The field names of a model class (looked up once: a walk checks every step)."""
    return frozenset(model.model_fields)


# The field names of each model class met on a walk, by exact class: one dict look-up per
# step (a write walks its path every time, about 500 writes a simulated fight).
_WALKABLE: dict[type, frozenset[str]] = {}


def resolve(root: Any, path: Iterable[PathKey]) -> Any:
    """Walk ``path`` from ``root`` through model attributes, dict keys and list indices."""
    node = root
    for key in path:
        kind = type(node)
        if kind is dict:  # the common steps first, by exact type (a walk runs per write)
            node = node[key]
            continue
        names = _WALKABLE.get(kind)
        if names is None:
            if kind is list:
                node = node[int(key)]
                continue
            if not isinstance(node, BaseModel):
                if isinstance(node, dict):
                    node = node[key]
                elif isinstance(node, list):
                    node = node[int(key)]
                else:
                    raise KeyError(f"cannot walk into {kind.__name__} with {key!r}")
                continue
            names = _WALKABLE[kind] = field_names(type(node))
        if key not in names:  # never a method or a dunder
            raise KeyError(f"{kind.__name__}.{key}")
        node = getattr(node, key)
    return node


@lru_cache(maxsize=256)
def _item_adapter(owner: type[BaseModel], field: str) -> TypeAdapter[Any]:
    """The validator for the items of a dict- or list-valued model field."""
    annotation = owner.model_fields[field].annotation
    args = typing.get_args(annotation)
    item_type = args[-1] if args else Any
    return TypeAdapter(item_type)


def validated_item(root: Any, target: Path, value: Any) -> Any:
    if not target:
        return value
    owner = resolve(root, target[:-1])
    if isinstance(owner, BaseModel):
        return _item_adapter(type(owner), str(target[-1])).validate_python(value)
    return value


def apply_change(root: Any, change: Change) -> None:
    """Apply one change forward; values are validated into fresh model objects."""
    forget(root, change.target, change.key, change.op)
    holder = resolve(root, change.target)
    if change.op == "set":
        if isinstance(holder, BaseModel):
            if str(change.key) not in field_names(type(holder)):
                raise KeyError(f"{type(holder).__name__}.{change.key}")
            setattr(holder, str(change.key), change.after)
        elif isinstance(holder, list):
            holder[int(change.key)] = validated_item(root, change.target, change.after)
        else:
            holder[change.key] = validated_item(root, change.target, change.after)
    elif change.op == "put":
        if isinstance(holder, list):
            holder.insert(int(change.key), validated_item(root, change.target, change.after))
        else:
            holder[change.key] = validated_item(root, change.target, change.after)
    else:
        if isinstance(holder, list):
            del holder[int(change.key)]
        else:
            del holder[change.key]


def apply_all(root: Any, changes: Iterable[Change]) -> None:
    for change in changes:
        apply_change(root, change)


#: What applying a recorded change that does not fit the state raises.
MISFIT_ERRORS: tuple[type[Exception], ...] = (
    ValidationError, LookupError, AttributeError, TypeError, ValueError)


def apply_all_or_none(root: Any, changes: Iterable[Change]) -> None:
    """Apply ``changes`` in order, or none of them: if one does not fit (a damaged
    file), those already applied are taken back and the error is raised again."""
    done: list[Change] = []
    try:
        for change in changes:
            apply_change(root, change)
            done.append(change)
    except MISFIT_ERRORS:
        for change in reversed(done):
            apply_change(root, change.inverse())
        raise


def narrowed(change: Change, old: Any, new: Any, *, field: bool) -> list[Change]:
    """A ``set`` that replaced a whole model (a stack move, a pending decision, a die)
    as the writes of only the fields that differ, each at its own path.

    Applied in order they leave the state equal to the whole replacement, and their
    inverses in reverse order undo it, so undo, redo, revert and the rebuild from the
    log work as before; but the log keeps a few values instead of two copies of the
    whole model (a log entry's memory and file size). Only models whose
    every write is checked field by field (``validate_assignment``, no validator across
    fields) are written into; anything else is kept whole. ``field``: the slot is a
    model's field (so a list in it knows its item type), not a list item or dict entry."""
    out: list[Change] = []
    _narrow(change.target, change.key, old, new, change.before, change.after, out, field)
    return out


def _narrow(target: Path, key: PathKey, old: Any, new: Any, before: Any, after: Any,
            out: list[Change], field: bool = False) -> None:
    if (isinstance(new, BaseModel) and type(old) is type(new) and _writable_by_field(type(new))
            and type(before) is dict and type(after) is dict
            and before.keys() == after.keys() == field_names(type(new))):
        inner = (*target, key)
        for name, was in before.items():
            now = after[name]
            if was != now:
                _narrow(inner, name, getattr(old, name, None), getattr(new, name), was, now,
                        out, True)
        return
    if (isinstance(new, list) and isinstance(old, list) and type(before) is list
            and type(after) is list and field
            and len(before) == len(after) == len(new) == len(old)
            and new and isinstance(new[0], BaseModel)):
        # The items of a list field (a fighter's dice): each changed item on its own.
        inner = (*target, key)
        for index, (was, now) in enumerate(zip(before, after, strict=True)):
            if was != now:
                _narrow(inner, index, old[index], new[index], was, now, out)
        return
    out.append(_change(target, key, "set", before, after))


@cache
def _writable_by_field(model: type[BaseModel]) -> bool:
    """Whether writing one field at a time is checked as writing the whole model is."""
    config = model.model_config
    return (bool(config.get("validate_assignment")) and not config.get("frozen")
            and not model.__pydantic_decorators__.model_validators)


def revert_all(root: Any, changes: list[Change]) -> None:
    for change in reversed(changes):
        apply_change(root, change.inverse())


# Values a JSON snapshot leaves as they are (exact types: an enum or a subclass is copied).
_PLAIN = frozenset({int, float, str, bool, type(None)})


def _plain_or_snapshot(value: Any) -> Any:
    """``snapshot(value)``, skipping the copy for a plain number, text or None (most writes)."""
    return value if type(value) in _PLAIN else to_jsonable_python(value)


def _change(target: Path, key: PathKey, op: Literal["set", "put", "del"], before: Any,
            after: Any) -> Change:
    # The validating constructor: pydantic's ``model_construct`` measured twice as slow.
    change = Change(target=target, key=key, op=op, before=before, after=after)
    # Validation made the path a fresh tuple; a long fight writes a few dozen paths over
    # and over, so every change of one path shares one tuple (a third of a KB of memory
    # per log entry).
    change.target = _PATHS.setdefault(change.target, change.target)
    return change


# The paths changes were made at, each kept once (see ``_change``).
_PATHS: dict[Path, Path] = {}


class Transaction:
    """Collects the changes of one command; on a rule violation they are rolled back."""

    def __init__(self, root: BaseModel) -> None:
        self.root = root
        self.changes: list[Change] = []

    def set(self, target: Path, key: str, value: Any) -> None:
        """Set attribute ``key`` of the model at ``target`` (validated by pydantic)."""
        holder = resolve(self.root, target)
        old = getattr(holder, key)
        before = _plain_or_snapshot(old)
        after = _plain_or_snapshot(value)
        if before == after:
            return
        if isinstance(holder, BaseModel):
            if key not in field_names(type(holder)):
                raise KeyError(f"{type(holder).__name__}.{key}")
            forget(self.root, target, key)
            try:
                setattr(holder, key, after)
            except ValidationError as exc:
                raise RuleViolation(_first_error(exc, key)) from exc
        else:
            _apply_checked(self.root, _change(target, key, "set", before, after))
        # Record the value as validated ("7" becomes 7), so the log says what the state
        # holds and a write that changes nothing leaves no change behind.
        now = getattr(holder, key)
        after = _plain_or_snapshot(now)
        if after == before:
            return
        change = _change(target, key, "set", before, after)
        if type(before) is dict:
            self.changes.extend(narrowed(change, old, now, field=True))
        else:
            self.changes.append(change)

    def set_item(self, target: Path, index: PathKey, value: Any) -> None:
        """Replace one item of the list or dict at ``target``."""
        holder = resolve(self.root, target)
        old = holder[index]
        before = _plain_or_snapshot(old)
        after = _plain_or_snapshot(value)
        if before == after:
            return
        change = _change(target, index, "set", before, after)
        _apply_checked(self.root, change)
        if type(before) is dict:
            self.changes.extend(narrowed(change, old, holder[index], field=False))
        else:
            self.changes.append(change)

    def put(self, target: Path, key: PathKey, value: Any) -> None:
        """Add ``value`` to the dict at ``target`` under ``key`` (or insert into a list)."""
        holder = resolve(self.root, target)
        if isinstance(holder, dict) and key in holder:
            self.set_item(target, key, value)
            return
        change = _change(target, key, "put", None, snapshot(value))
        _apply_checked(self.root, change)
        self.changes.append(change)

    def append(self, target: Path, value: Any) -> None:
        holder = resolve(self.root, target)
        self.put(target, len(holder), value)

    def delete(self, target: Path, key: PathKey) -> None:
        """Remove ``key`` from the dict (or index from the list) at ``target``."""
        holder = resolve(self.root, target)
        before = snapshot(holder[key] if isinstance(holder, dict) else holder[int(key)])
        change = _change(target, key, "del", before, None)
        apply_change(self.root, change)
        self.changes.append(change)

    def rollback(self) -> None:
        revert_all(self.root, self.changes)
        self.changes.clear()


_SCALARS = (int, float, str, bool, type(None))

# How a lean write is taken back: the old value of an attribute or of an item put back,
# an added item removed, a removed item put back in its place.
_ATTR, _ITEM, _ADDED, _REMOVED = range(4)


class LeanTransaction(Transaction):
    """A transaction for a fight nobody will undo (the simulator's lean engine): a write
    is made exactly as :class:`Transaction` makes it (same check for "no change", same
    validated value), but instead of a :class:`Change` with JSON copies before and after
    it keeps only what a rollback needs: where it wrote, and the old value itself."""

    def __init__(self, root: BaseModel) -> None:
        super().__init__(root)
        self._undo: list[tuple[int, Any, Any, Any]] = []

    def set(self, target: Path, key: str, value: Any) -> None:
        holder = resolve(self.root, target)
        old = getattr(holder, key)
        if isinstance(value, _SCALARS) and isinstance(old, _SCALARS):
            if old == value:
                return
            after = value
        elif value is None or old is None:
            # One side None, the other a model, list or dict: a change, without copying
            # the old value only to find that out (a question or a damage roll cleared).
            after = None if value is None else snapshot(value)
        else:
            after = snapshot(value)
            if snapshot(old) == after:
                return
        forget(self.root, target, key)
        try:
            setattr(holder, key, after)
        except ValidationError as exc:
            raise RuleViolation(_first_error(exc, key)) from exc
        self._undo.append((_ATTR, holder, key, old))

    def set_item(self, target: Path, index: PathKey, value: Any) -> None:
        self._set_item(*self._walk(target), target, index, value)

    def _set_item(self, owner: Any, holder: Any, target: Path, index: PathKey,
                  value: Any) -> None:
        slot = int(index) if isinstance(holder, list) else index
        old = holder[slot]
        after = _plain_or_snapshot(value)
        if _plain_or_snapshot(old) == after:
            return
        item = self._validated(owner, target, slot, after)
        forget(self.root, target, index)
        holder[slot] = item
        self._undo.append((_ITEM, holder, slot, old))

    def put(self, target: Path, key: PathKey, value: Any) -> None:
        self._put(*self._walk(target), target, key, value)

    def append(self, target: Path, value: Any) -> None:
        owner, holder = self._walk(target)
        self._put(owner, holder, target, len(holder), value)

    def _put(self, owner: Any, holder: Any, target: Path, key: PathKey, value: Any) -> None:
        if isinstance(holder, dict) and key in holder:
            self._set_item(owner, holder, target, key, value)
            return
        item = self._validated(owner, target, key, snapshot(value))
        forget(self.root, target, key, "put")
        if isinstance(holder, list):
            holder.insert(int(key), item)
            self._undo.append((_ADDED, holder, int(key), None))
        else:
            holder[key] = item
            self._undo.append((_ADDED, holder, key, None))

    def delete(self, target: Path, key: PathKey) -> None:
        holder = resolve(self.root, target)
        slot = int(key) if isinstance(holder, list) else key
        old = holder[slot]
        forget(self.root, target, key, "del")
        del holder[slot]
        self._undo.append((_REMOVED, holder, slot, old))

    def _walk(self, target: Path) -> tuple[Any, Any]:
        """What holds the last step of ``target`` (None for the root) and what is at
        ``target``, in one walk (a list item is validated by its owner's field type)."""
        if not target:
            return None, self.root
        owner = resolve(self.root, target[:-1])
        return owner, resolve(owner, target[-1:])

    def _validated(self, owner: Any, target: Path, key: PathKey, value: Any) -> Any:
        """The item as :func:`apply_change` validates it (:func:`validated_item`); a value
        the model rejects is a rule violation."""
        if not isinstance(owner, BaseModel):
            return value
        try:
            return _item_adapter(type(owner), str(target[-1])).validate_python(value)
        except ValidationError as exc:
            raise RuleViolation(_first_error(exc, str(key))) from exc

    def rollback(self) -> None:
        forget(self.root)
        for how, holder, key, old in reversed(self._undo):
            if how == _ATTR:
                setattr(holder, key, old)
            elif how == _ITEM:
                holder[key] = old
            elif how == _ADDED:
                del holder[key]
            elif isinstance(holder, list):
                holder.insert(key, old)
            else:
                holder[key] = old
        self._undo.clear()
        self.changes.clear()


def _apply_checked(root: Any, change: Change) -> None:
    """Apply ``change``; a value the model rejects is a rule violation, not a crash."""
    try:
        apply_change(root, change)
    except ValidationError as exc:
        raise RuleViolation(_first_error(exc, str(change.key))) from exc


def _first_error(exc: ValidationError, key: str) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()) if p != "") or key
    return f"{where}: {err.get('msg', 'invalid value')}"
