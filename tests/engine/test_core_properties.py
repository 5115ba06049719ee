"""Property tests of the engine core over random sequences of core commands on the demo
fight, interleaved with undo and redo.

After every step: the log rebuild equals the live encounter; a refused command (or a dry
run) changed nothing and logged nothing; no tracked value is negative; undo and redo land
exactly on the states seen before. At the end, undoing everything gives the start and
redoing everything gives the end, and the saved session reloads to the same fight.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"
NOBODY = -1  # a fighter pick that names no fighter
TRACKED = ("status.health", "status.ep", "status.willpower", "status.chi")

Step = tuple[Any, ...]

# Fighter picks are indices into the current order (taken modulo its length), or NOBODY;
# a small range makes several steps hit the same fighter.
picks = st.integers(NOBODY, 6)
values: st.SearchStrategy[Any] = st.one_of(
    st.integers(0, 30),
    st.integers(-5, -1),
    st.sampled_from(["7", "abc", None, 2.5, 3.0, [], {"x": 1}]),
)
set_tracked = st.tuples(st.just("set"), picks, st.sampled_from(TRACKED), values)
set_other = st.tuples(
    st.just("set"),
    picks,
    st.sampled_from(
        [
            "status.nonsense",
            "id",
            "",
            "status.",
            "status..ep",
            "sheet.strength",
            "sheet.maneuvers.0.speed",
            "status.dice",
            "status.dice.0",
            "status.dice.1",
            "status.dice.1.face",
            "name",
            "group",
            "tags.0",
        ]
    ),
    st.one_of(
        values,
        st.sampled_from(
            [
                "Mara",
                "",
                "ghost",
                [{"id": 0, "face": 4}],
                [{"id": 0, "face": 0}],
                {"id": 1, "face": 9},
                {"id": 0, "face": 11},
                {"id": 0},
            ]
        ),
    ),
)
GOOD_ROLLS = {"3d10": [[4, 10, 1]], "5d10>=6": [[6, 5, 10, 1, 7]], "2d6+1d4-1": [[3, 4], [2]]}
notations = st.sampled_from([*GOOD_ROLLS, "1d100+20", "", "3x10", "0d10", "2d6 3", "1d6+1d8>=4"])
free_roll = st.tuples(st.just("roll"), notations, st.sampled_from(["app", "typed", "wrong"]))
add = st.tuples(st.just("add"), picks, st.integers(1, 4), st.sampled_from(["ok", "bad", "named"]))
remove = st.tuples(st.just("remove"), picks)
order = st.tuples(st.just("order"), st.integers(0, 2**32), st.booleans())
note = st.tuples(st.just("note"), st.text(min_size=1, max_size=20))
history = st.tuples(st.sampled_from(["undo", "redo"]))
# Conditions (engine/conditions.py): good and bad names, each duration, any index.
add_condition = st.tuples(
    st.just("condition"), picks,
    st.sampled_from(["Stunned", "Knocked down", "<b>Bold</b>", "stunned", " ", "a\nb"]),
    st.sampled_from(["rounds", "until-removed", "until-removed", "until-turn-end"]),
    st.sampled_from([1, 3, None]), picks,
)
remove_condition = st.tuples(st.just("uncondition"), picks, st.integers(0, 2))
steps = st.lists(
    st.one_of(
        set_tracked,
        set_tracked,
        set_other,
        set_other,
        free_roll,
        add,
        remove,
        order,
        note,
        add_condition,
        add_condition,
        remove_condition,
        history,
        history,
    ),
    max_size=30,
)


def fresh() -> Engine:
    """The demo fight, with action dice on its first two fighters so that overrides of
    single dice have something to change."""
    session = Session.model_validate_json(DEMO.read_text())
    enc = session.encounter
    for fid in enc.order[:2]:
        status = enc.fighters[fid].status.model_dump()
        status["dice"] = [{"id": 0, "face": 3}, {"id": 1, "face": 8}]
        enc.fighters[fid].status = type(enc.fighters[fid].status).model_validate(status)
    return Engine(Session.begin(enc))


def dump(engine: Engine) -> dict[str, Any]:
    return engine.encounter.model_dump(mode="json")


def fighter_id(engine: Engine, pick: int) -> str:
    order = engine.encounter.order
    if pick == NOBODY or not order:
        return "nobody-by-that-name"
    return order[pick % len(order)]


def build(engine: Engine, step: Step) -> c.Command:
    """The command a step stands for, in the state the engine is in now."""
    kind = step[0]
    if kind == "set":
        _, pick, field, value = step
        return c.SetValue(fighter_id=fighter_id(engine, pick), field=field, value=value)
    if kind == "roll":
        _, notation, source = step
        typed = {"app": [], "typed": GOOD_ROLLS.get(notation, []), "wrong": [[4, 11]]}[source]
        return c.FreeRoll(notation=notation, dice=typed, who="GM")
    if kind == "add":
        _, pick, count, flavour = step
        fighters = engine.encounter.fighters
        if fighters:
            template = fighters[fighter_id(engine, pick % len(fighters))].model_dump(mode="json")
        else:
            template = fresh().encounter.fighters["kaede"].model_dump(mode="json")
        if flavour == "bad":
            template["sheet"]["strength"] = 99  # above the sheet's maximum
        elif flavour == "named":
            template["name"] = "Harbour Guard"
            template["group"] = None
        return c.AddFighters(fighter=template, count=count)
    if kind == "remove":
        return c.RemoveFighter(fighter_id=fighter_id(engine, step[1]))
    if kind == "order":
        _, seed, valid = step
        shuffled = list(engine.encounter.order)
        random.Random(seed).shuffle(shuffled)
        return c.SetOrder(order=shuffled if valid else [*shuffled, "nobody-by-that-name"])
    if kind == "condition":
        _, pick, name, duration, rounds, until = step
        return c.AddCondition(fighter_id=fighter_id(engine, pick), name=name, duration=duration,
                              rounds=rounds, until_fighter=fighter_id(engine, until))
    if kind == "uncondition":
        _, pick, index = step
        return c.RemoveCondition(fighter_id=fighter_id(engine, pick), index=index)
    assert kind == "note"
    return c.Note(text=step[1])


def assert_no_negatives(engine: Engine) -> None:
    for fighter in engine.encounter.fighters.values():
        for field in TRACKED:
            assert getattr(fighter.status, field.split(".")[1]) >= 0, (fighter.id, field)


def check_invariants(engine: Engine) -> None:
    assert engine.rebuild().model_dump(mode="json") == dump(engine)
    assert_no_negatives(engine)
    enc = engine.encounter
    assert sorted(enc.order) == sorted(enc.fighters)


@given(steps)
def test_random_core_commands_with_undo_and_redo(script: list[Step]) -> None:
    engine = fresh()
    start = dump(engine)
    # seen[k] is the encounter after the first k log entries of the current branch, so
    # undo and redo can be checked against the exact states they must land on.
    seen: list[dict[str, Any]] = [start]
    for step in script:
        before = dump(engine)
        log_len, redo_len = len(engine.session.log), len(engine.session.redo)
        if step[0] in ("undo", "redo"):
            could = engine.can_undo() if step[0] == "undo" else engine.can_redo()
            moved = engine.undo() if step[0] == "undo" else engine.redo()
            assert moved == could
            if moved:
                assert dump(engine) == seen[len(engine.session.log)]
            else:
                assert dump(engine) == before
            check_invariants(engine)
            continue

        assert seen[log_len] == before
        command = build(engine, step)
        dry = engine.check(command)
        assert dump(engine) == before, "a dry run changed the fight"
        assert len(engine.session.log) == log_len and len(engine.session.redo) == redo_len
        outcome = engine.apply(command)
        event(f"{command.kind} {'applied' if outcome.ok else 'refused'}")
        assert (dry.ok, dry.error) == (outcome.ok, outcome.error)
        if outcome.ok:
            assert outcome.entry is not None
            assert len(engine.session.log) == log_len + 1 and not engine.session.redo
            del seen[log_len + 1 :]
            seen.append(dump(engine))
            if isinstance(command, c.SetValue) and command.field in TRACKED:
                value = command.value
                assert isinstance(value, int | float | str) and int(value) >= 0
                status = engine.encounter.fighters[command.fighter_id].status
                assert getattr(status, command.field.split(".")[1]) == int(value)
        else:
            assert outcome.error, "a refusal must say why"
            assert dump(engine) == before, f"refused {command.kind} changed the fight"
            assert len(engine.session.log) == log_len, f"refused {command.kind} was logged"
            assert len(engine.session.redo) == redo_len
            if isinstance(command, c.SetValue) and isinstance(command.value, int):
                # Negative values are always refused; the others only for other reasons.
                known = command.fighter_id in engine.encounter.fighters
                if known and command.field in TRACKED and command.value >= 0:
                    pytest.fail(f"refused a valid override: {outcome.error}")
        check_invariants(engine)

    end = dump(engine)
    # Redo what is still on the redo list first, so "everything" is the whole branch.
    while engine.redo():
        pass
    end = dump(engine)
    while engine.undo():
        pass
    assert dump(engine) == start == engine.session.start.model_dump(mode="json")
    assert not engine.session.log
    while engine.redo():
        pass
    assert dump(engine) == end
    check_invariants(engine)

    # The saved session (state and log) reloads to the same fight and rebuilds to it.
    reloaded = Engine(Session.model_validate_json(engine.session.model_dump_json()))
    assert dump(reloaded) == end
    assert reloaded.rebuild().model_dump(mode="json") == end


@given(
    pick=st.integers(0, 10),
    field=st.sampled_from(TRACKED),
    value=st.integers(-1000, -1),
)
def test_negative_values_are_always_refused(pick: int, field: str, value: int) -> None:
    engine = fresh()
    before = dump(engine)
    fid = fighter_id(engine, pick)
    outcome = engine.apply(c.SetValue(fighter_id=fid, field=field, value=value))
    assert not outcome.ok
    assert "greater than or equal to 0" in (outcome.error or "")
    assert dump(engine) == before and not engine.session.log


def test_override_of_a_list_item_with_a_bad_value_is_an_error_value() -> None:
    """A die set to an impossible face is refused as a message, not an exception."""
    engine = fresh()
    ok = engine.apply(
        c.SetValue(fighter_id="kaede", field="status.dice", value=[{"id": 0, "face": 4}])
    )
    assert ok.ok, ok.error
    before = dump(engine)
    bad = engine.apply(
        c.SetValue(fighter_id="kaede", field="status.dice.0", value={"id": 0, "face": 11})
    )
    assert not bad.ok and "face" in (bad.error or "") and "10" in (bad.error or "")
    assert dump(engine) == before and len(engine.session.log) == 1


def test_removing_a_fighter_whose_group_is_gone() -> None:
    """A GM override may name a group that does not exist; removing the fighter works."""
    engine = fresh()
    assert engine.apply(c.SetValue(fighter_id="kaede", field="group", value="ghost")).ok
    out = engine.apply(c.RemoveFighter(fighter_id="kaede"))
    assert out.ok, out.error
    assert "kaede" not in engine.encounter.fighters
    engine.undo()
    assert engine.encounter.fighters["kaede"].group == "ghost"
    assert engine.rebuild().model_dump(mode="json") == dump(engine)


def test_override_records_the_validated_value() -> None:
    """Setting health to "7" stores 7 in the state and in the log; setting it to what it
    already is (written differently) records no change."""
    engine = fresh()
    out = engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value="7"))
    assert out.ok and out.entry is not None
    assert [ch.after for ch in out.entry.changes] == [7]
    again = engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=7.0))
    assert again.ok and again.entry is not None and again.entry.changes == []
