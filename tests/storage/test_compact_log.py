"""The compact log: a change that replaced a whole model is kept as the writes
of its changed fields, changes and events save only what is not at its default, and the
file holds one log entry to a line. Files written before it (whole models in their
changes, every field written, indented) still load, replay, undo and redo."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.changes import Change, Transaction
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import SCHEMA_VERSION, Session
from fightdesk.storage.sessions import load_session, save_session, session_from_json

DATA = Path(__file__).parent / "data"
# Written by the fightdesk before the compact log: 26 entries and 4 undone, indented,
# with 31 changes that replace a whole model (a move on the stack, a die, a decision).
WHOLE = DATA / "street_fighter_v2_whole_changes.json"
DEMO = Path(__file__).parents[2] / "resources" / "demo_fight.json"


def _demo() -> Engine:
    return Engine(Session.model_validate_json(DEMO.read_text(encoding="utf-8")))


def _played(entries: int, seed: int = 3) -> Engine:
    engine = _demo()
    rng = random.Random(seed)
    while len(engine.session.log) < entries:
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None
        assert engine.apply(command).ok
    return engine


def _state(engine: Engine) -> dict[str, object]:
    return engine.encounter.model_dump(mode="json")


def test_a_file_with_whole_model_changes_loads_replays_and_undoes(tmp_path: Path) -> None:
    raw = json.loads(WHOLE.read_text(encoding="utf-8"))
    assert raw["schema_version"] == SCHEMA_VERSION
    assert any(isinstance(ch["before"], dict) and isinstance(ch["after"], dict)
               for e in raw["log"] for ch in e["changes"])
    session = load_session(WHOLE)  # the history proof replays the whole-model changes
    engine = Engine(session)
    live = _state(engine)
    assert engine.rebuild().model_dump(mode="json") == live
    while engine.redo():
        pass
    redone = _state(engine)
    while engine.undo():
        pass
    assert _state(engine) == session.start.model_dump(mode="json")
    while engine.redo():
        pass
    assert _state(engine) == redone
    # Saved again it is the same fight, in a smaller file.
    path = tmp_path / "again.json"
    save_session(load_session(WHOLE), path)
    assert load_session(path) == load_session(WHOLE)
    assert path.stat().st_size < WHOLE.stat().st_size


def test_the_file_is_readable_json_one_entry_to_a_line(tmp_path: Path) -> None:
    engine = _played(40)
    engine.undo()
    path = tmp_path / "fight.json"
    save_session(engine.session, path)
    text = path.read_text(encoding="utf-8")
    raw = json.loads(text)
    lines = text.splitlines()
    for name in ("log", "redo"):
        for entry in raw[name]:
            # Each entry is a line of its own, as json writes it compactly.
            assert json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "," in lines \
                or json.dumps(entry, separators=(",", ":"), ensure_ascii=False) in lines
    changes = [ch for e in raw["log"] for ch in e["changes"]]
    assert changes and all(ch.get("op") in ("put", "del") for ch in changes if "op" in ch)
    assert all("roll" not in ev or ev["roll"] is not None for e in raw["log"] for ev in e["events"])
    assert load_session(path) == engine.session


def test_a_replaced_model_is_logged_as_its_changed_fields() -> None:
    engine = _played(6)  # the action dice are rolled
    enc = engine.encounter
    fid = next(f for f in enc.order if enc.fighters[f].status.dice)
    die = enc.fighters[fid].status.dice[0]
    tx = Transaction(enc)
    tx.set_item(("fighters", fid, "status", "dice"), 0,
                die.model_copy(update={"why": "held for later"}))
    assert tx.changes == [Change(target=("fighters", fid, "status", "dice", 0), key="why",
                                 before=die.why, after="held for later")]
    tx.rollback()
    assert enc.fighters[fid].status.dice[0] == die
    # A whole status with two fields changed: two writes, each at its own field.
    status = enc.fighters[fid].status
    tx = Transaction(enc)
    tx.set(("fighters", fid), "status", status.model_copy(update={"ep": status.ep + 1,
                                                                 "health": status.health - 1}))
    assert sorted(str(ch.key) for ch in tx.changes) == ["ep", "health"]
    assert {ch.target for ch in tx.changes} == {("fighters", fid, "status")}


def test_an_old_file_with_every_default_written_loads_the_same(tmp_path: Path) -> None:
    engine = _played(30)
    raw = json.loads(session_from_json_text(engine))
    for entry in raw["log"]:
        for change in entry["changes"]:
            change.setdefault("op", "set")
            change.setdefault("before", None)
            change.setdefault("after", None)
        for event in entry["events"]:
            event.setdefault("roll", None)
            event.setdefault("fighter_id", None)
            event.setdefault("kind", "note")
            event.setdefault("data", {})
    old = json.dumps(raw, indent=1)
    assert session_from_json(old, tmp_path / "old.json") == engine.session


def session_from_json_text(engine: Engine) -> str:
    from fightdesk.storage.sessions import session_to_json

    return session_to_json(engine.session)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(["act", "act", "undo", "redo", "heal"]),
                                        min_size=1, max_size=40))
def test_any_play_rebuilds_to_the_live_fight_and_round_trips(seed: int, script: list[str]) -> None:
    engine = _demo()
    rng = random.Random(seed)
    for step in script:
        if step == "act":
            command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
            if command is not None:
                assert engine.apply(command).ok
        elif step == "undo":
            engine.undo()
        elif step == "redo":
            engine.redo()
        else:
            fid = engine.encounter.order[seed % len(engine.encounter.order)]
            engine.apply(c.SetValue(fighter_id=fid, field="status.health", value=seed % 9 + 1))
        assert engine.rebuild().model_dump(mode="json") == _state(engine)
    text = session_from_json_text(engine)
    again = session_from_json(text, "fight.json")  # checks the history as a load does
    assert again == engine.session
    # Redo after the round trip lands where redo lands live.
    live = Engine(engine.session.model_copy(deep=True))
    loaded = Engine(again)
    while live.redo():
        assert loaded.redo()
        assert _state(loaded) == _state(live)
