"""The lean transaction (the simulator's) writes exactly what the full one writes, refuses
what it refuses, and its rollback gives back the fight it started from: random sequences
of every kind of write (attributes, list items, dict entries, appends, deletes, values
the model refuses) on two copies of the demo fight, compared after every write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fightdesk.engine.changes import LeanTransaction, RuleViolation, Transaction
from fightdesk.engine.model import Encounter, Session

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"
FIGHTERS = ("kaede", "brannock", "dock-thug-1")

writes = st.one_of(
    st.tuples(st.just("health"), st.sampled_from(FIGHTERS), st.integers(-3, 20)),
    st.tuples(st.just("health-text"), st.sampled_from(FIGHTERS), st.sampled_from(["7", "lots"])),
    st.tuples(st.just("round"), st.integers(0, 5)),
    st.tuples(st.just("append"), st.sampled_from(["x", "y"])),
    st.tuples(st.just("set-item"), st.integers(0, 9), st.sampled_from(["x", "kaede"])),
    st.tuples(st.just("delete-item"), st.integers(0, 9)),
    st.tuples(st.just("put-group"), st.sampled_from(["g1", "g2"]), st.sampled_from(["A", "B"])),
    st.tuples(st.just("bad-group"), st.sampled_from(["g1", "g3"])),
    st.tuples(st.just("delete-group"), st.sampled_from(["g1", "g2"])),
    st.tuples(st.just("dice"), st.sampled_from(FIGHTERS), st.integers(1, 10)),
)


def _write(tx: Transaction, enc: Encounter, write: tuple[Any, ...]) -> None:
    kind = write[0]
    if kind in ("health", "health-text"):
        tx.set(("fighters", write[1], "status"), "health", write[2])
    elif kind == "round":
        tx.set((), "round", write[1])
    elif kind == "append":
        tx.append(("order",), write[1])
    elif kind == "set-item" and write[1] < len(enc.order):
        tx.set_item(("order",), write[1], write[2])
    elif kind == "delete-item" and write[1] < len(enc.order):
        tx.delete(("order",), write[1])
    elif kind == "put-group":
        tx.put(("groups",), write[1], {"id": write[1], "name": write[2]})
    elif kind == "bad-group":
        tx.put(("groups",), write[1], {"id": write[1], "name": 3})
    elif kind == "delete-group" and write[1] in enc.groups:
        tx.delete(("groups",), write[1])
    elif kind == "dice":
        tx.set(("fighters", write[1], "status"), "dice",
               [{"id": 1, "face": write[2], "state": "ready"}])


def _outcome(tx: Transaction, enc: Encounter, write: tuple[Any, ...]) -> str:
    try:
        _write(tx, enc, write)
    except RuleViolation as exc:
        return f"refused: {exc}"
    return "done"


@settings(max_examples=60, deadline=None)
@given(st.lists(writes, max_size=25))
def test_lean_writes_equal_full_writes_and_roll_back(sequence: list[tuple[Any, ...]]) -> None:
    text = DEMO.read_text(encoding="utf-8")
    full_enc = Session.model_validate_json(text).encounter
    lean_enc = Session.model_validate_json(text).encounter
    start = full_enc.model_dump(mode="json")
    full, lean = Transaction(full_enc), LeanTransaction(lean_enc)
    for write in sequence:
        assert _outcome(lean, lean_enc, write) == _outcome(full, full_enc, write)
        assert lean_enc.model_dump(mode="json") == full_enc.model_dump(mode="json")
    lean.rollback()
    full.rollback()
    assert lean_enc.model_dump(mode="json") == start
    assert full_enc.model_dump(mode="json") == start
