"""Roll tables: the rules of a table, the built-in tables, and the three core commands
(set, remove, roll) with pinned dice, undo/redo and the rebuild from the log."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from fightdesk.engine import commands as c
from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Session
from fightdesk.engine.tables import (
    RollTable,
    TableProblem,
    TableRow,
    default_tables,
    describe_error,
    die_range,
    load_tables_file,
    lookup,
    missing_builtin_tables,
    multiplier,
    read_total,
    rows_problem,
    show_range,
    show_total,
    table_from_data,
)

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"


def rows(*spans: tuple[int, int]) -> list[dict[str, Any]]:
    return [{"low": lo, "high": hi, "text": f"result {lo}-{hi}"} for lo, hi in spans]


def table(die: str = "1d6", spans: tuple[tuple[int, int], ...] = ((1, 2), (3, 6)),
          **extra: Any) -> dict[str, Any]:
    return {"id": "injury", "name": "Injury", "die": die, "rows": rows(*spans), **extra}


def problem(data: dict[str, Any]) -> str:
    with pytest.raises(TableProblem) as caught:
        table_from_data(data)
    return str(caught.value)


@pytest.fixture
def engine() -> Engine:
    return Engine(Session.model_validate_json(DEMO.read_text()))


def dump(engine: Engine) -> dict[str, Any]:
    return engine.encounter.model_dump(mode="json")


# --- the model ---------------------------------------------------------------------------


def test_a_good_table_and_its_rows() -> None:
    t = table_from_data(table("2d6", ((2, 6), (7, 7), (8, 12))))
    assert die_range("2d6") == (2, 12)
    assert [lookup(t, n).text for n in (2, 6, 7, 8, 12)] == [
        "result 2-6", "result 2-6", "result 7-7", "result 8-12", "result 8-12"]
    with pytest.raises(RuleViolation, match="Injury has no row for 13"):
        lookup(t, 13)


def test_overlap_names_both_rows() -> None:
    assert problem(table(spans=((1, 3), (3, 6)))) == (
        "table 'Injury': row 2 (3-6) overlaps row 1 (1-3)")


def test_gap_names_the_row_and_the_missing_totals() -> None:
    assert problem(table("1d20", ((1, 5), (9, 20)))) == (
        "table 'Injury': row 2 (9-20) leaves a gap after row 1: 6-8 has no row")
    assert problem(table("1d20", ((1, 5), (6, 19)))) == (
        "table 'Injury': row 2 ends at 19, but 1d20 can roll up to 20")
    assert problem(table("1d20", ((2, 20),))) == (
        "table 'Injury': row 1 starts at 2, but 1d20 can roll 1: that total has no row")
    assert problem(table("1d6", ((0, 6),))) == (
        "table 'Injury': row 1 starts at 0, but 1d6 cannot roll less than 1")
    assert problem(table("1d6", ((1, 7),))) == (
        "table 'Injury': row 1 ends at 7, but 1d6 cannot roll more than 6")


def test_rows_out_of_order_or_backwards() -> None:
    assert problem(table(spans=((4, 6), (1, 3)))) == (
        "table 'Injury': row 2 (1-3) comes after row 1 (4-6): list the rows from the "
        "lowest total up")
    assert problem(table(spans=((1, 2), (5, 6), (3, 4)))) == (
        "table 'Injury': row 3 (3-4) comes after row 2 (5-6): list the rows from the "
        "lowest total up")
    assert problem(table(spans=((1, 2), (6, 3)))) == (
        "table 'Injury': row 2: it runs from 6 down to 3; the low end comes first")


def test_bad_die_and_bad_fields_are_named() -> None:
    assert problem(table("banana")) == (
        "table 'Injury': die: 'banana' is not dice notation: try 3d10, 1d100+20 or 5d10>=6")
    assert "counts successes" in problem(table("3d10>=6"))
    assert problem(table(spans=())) == "table 'Injury': the table needs at least one row"
    bad = table()
    bad["rows"][1]["low"] = "x"
    assert problem(bad).startswith("table 'Injury': row 2, low: Input should be a valid integer")
    bad = table()
    bad["rows"][0]["text"] = ""
    assert problem(bad) == "table 'Injury': row 1, text: cannot be empty"
    bad = table()
    bad["rows"][0]["text"] = "   "
    assert problem(bad) == "table 'Injury': row 1: the result text is empty"
    assert problem(table(id="Not An Id")).startswith("table 'Injury': id: must be lower-case")
    assert problem(table(colour="red")) == "table 'Injury': colour: is not a field fightdesk knows"
    with pytest.raises(ValidationError) as caught:
        RollTable.model_validate(table(spans=((1, 3), (3, 6))))
    assert describe_error(caught.value) == "row 2 (3-6) overlaps row 1 (1-3)"


def test_modifiers_and_negative_dice_shift_the_range() -> None:
    assert die_range("1d6+2") == (3, 8)
    assert die_range("1d20-1d4") == (-3, 19)
    t = table_from_data(table("1d6+2", ((3, 5), (6, 8))))
    assert lookup(t, 8).text == "result 6-8"


def test_d100_reads_01_to_00() -> None:
    chart = default_tables("d100")["damage-chart"]
    assert show_total("1d100", 100) == "00" and show_total("1d100", 7) == "07"
    assert show_total("1d20", 7) == "7"
    assert show_range(chart.die, chart.rows[0]) == "01-10"
    assert show_range(chart.die, chart.rows[-1]) == "91-00"
    assert read_total("1d100", "00") == 100 and read_total("1d100", "07") == 7
    assert read_total("1d6", "0") == 0 and read_total("1d100", "0") == 100
    assert read_total("1d20", "00") == 100  # a d100 row while the GM changes the die
    with pytest.raises(ValueError, match=r"'1\.5' is not a whole number"):
        read_total("1d6", "1.5")
    assert lookup(chart, 100).effect == "x2"
    assert problem(table("1d100", ((1, 50), (51, 99)))) == (
        "table 'Injury': row 2 ends at 99, but 1d100 can roll up to 00")


@given(st.lists(st.integers(1, 30), min_size=1, max_size=8), st.integers(1, 4),
       st.sampled_from([4, 6, 10, 20]))
def test_consecutive_rows_always_cover_and_every_total_has_one_row(
        widths: list[int], count: int, sides: int) -> None:
    """Rows cut from the die's range end to end are valid; each total lands in one row.
    Moving any boundary by one breaks coverage or order, and the check says so."""
    low, high = count, count * sides
    cuts: list[tuple[int, int]] = []
    start = low
    for w in widths:
        if start > high:
            break
        end = min(high, start + w - 1)
        cuts.append((start, end))
        start = end + 1
    if cuts[-1][1] < high:
        cuts[-1] = (cuts[-1][0], high)
    die = f"{count}d{sides}"
    made = [TableRow(low=lo, high=hi, text="r") for lo, hi in cuts]
    assert rows_problem(die, made) is None
    t = RollTable(id="t", name="T", die=die, rows=made)
    for total in range(low, high + 1):
        assert sum(1 for r in t.rows if r.low <= total <= r.high) == 1
        assert lookup(t, total).low <= total
    shifted = [r.model_copy() for r in made]
    shifted[-1] = shifted[-1].model_copy(update={"high": high + 1})
    assert rows_problem(die, shifted) is not None


def test_multiplier_reads_the_effect_exactly() -> None:
    assert multiplier("x0.5") == Fraction(1, 2)
    assert multiplier(" X1.5 ") == Fraction(3, 2)
    assert multiplier("x0") == 0
    assert multiplier("") is None and multiplier("lose weapon") is None


# --- built-in tables ---------------------------------------------------------------------


def test_builtin_tables_by_ruleset() -> None:
    chart = default_tables("d100")["damage-chart"]
    assert chart.die == "1d100"
    spans = [(r.low, r.high, r.effect) for r in chart.rows]
    assert spans == [(1, 10, "x0"), (11, 25, "x0.5"), (26, 75, "x1"), (76, 90, "x1.5"),
                     (91, 100, "x2")]
    death = default_tables("roll-under")["death-and-dismemberment"]
    assert death.name == "Death and Dismemberment" and death.die == "1d6"
    assert all("Fight > Roll Tables" in r.text for r in death.rows)
    assert default_tables("street-fighter") == {}
    assert default_tables("no-such-ruleset") == {}
    assert default_tables("../campaigns") == {}
    # Fresh copies: changing one does not change the next fight's.
    chart.rows[0].text = "changed"
    assert default_tables("d100")["damage-chart"].rows[0].text != "changed"


def test_a_bad_tables_file_names_file_table_and_row(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"tables": [' + RollTable(**table()).model_dump_json()
                    + ', {"id": "b", "name": "Broken", "die": "1d6", "rows": '
                    '[{"low": 1, "high": 4, "text": "a"}, {"low": 4, "high": 6, "text": "b"}]}]}')
    with pytest.raises(TableProblem) as caught:
        load_tables_file(path)
    assert str(caught.value) == f"{path}, #2: table 'Broken': row 2 (4-6) overlaps row 1 (1-4)"
    path.write_text("{")
    with pytest.raises(TableProblem, match="not a JSON file"):
        load_tables_file(path)
    path.write_text('{"tables": {}}')
    with pytest.raises(TableProblem, match="needs a 'tables' list"):
        load_tables_file(path)


def test_missing_builtin_tables_of_a_fight() -> None:
    enc = Encounter()
    assert missing_builtin_tables(enc) == {}  # street-fighter ships none


# --- the commands -------------------------------------------------------------------------


def test_set_table_is_logged_undone_redone_and_rebuilt(engine: Engine) -> None:
    before = dump(engine)
    out = engine.apply(c.SetTable(table=table()))
    assert out.ok, out.error
    assert out.entry is not None and out.entry.summary == "GM added the roll table Injury"
    assert engine.encounter.tables["injury"].rows[1].high == 6
    added = dump(engine)
    changed = table(spans=((1, 1), (2, 6)))
    out = engine.apply(c.SetTable(table=changed))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "GM changed the roll table Injury"
    assert engine.encounter.tables["injury"].rows[0].high == 1
    assert engine.rebuild().model_dump(mode="json") == dump(engine)
    engine.undo()
    assert dump(engine) == added
    engine.undo()
    assert dump(engine) == before
    engine.redo()
    engine.redo()
    assert engine.encounter.tables["injury"].rows[0].high == 1
    assert engine.rebuild().model_dump(mode="json") == dump(engine)


def test_a_bad_or_unchanged_table_is_refused_and_changes_nothing(engine: Engine) -> None:
    before = dump(engine)
    out = engine.apply(c.SetTable(table=table(spans=((1, 3), (5, 6)))))
    assert out.error == "table 'Injury': row 2 (5-6) leaves a gap after row 1: 4 has no row"
    assert dump(engine) == before and not engine.session.log
    assert engine.apply(c.SetTable(table=table())).ok
    again = engine.apply(c.SetTable(table=table()))
    assert again.error == "the roll table Injury already reads like this"
    assert len(engine.session.log) == 1


def test_remove_table_and_undo(engine: Engine) -> None:
    engine.apply(c.SetTable(table=table()))
    with_table = dump(engine)
    out = engine.apply(c.RemoveTable(table_id="injury"))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "GM removed the roll table Injury"
    assert "injury" not in engine.encounter.tables
    assert engine.rebuild().model_dump(mode="json") == dump(engine)
    engine.undo()
    assert dump(engine) == with_table
    assert engine.apply(c.RemoveTable(table_id="nope")).error == (
        "this fight has no roll table 'nope' (add it under Fight > Roll Tables)")


def test_roll_on_table_with_typed_dice_logs_roll_and_row(engine: Engine) -> None:
    engine.apply(c.SetTable(table=default_tables("roll-under")["death-and-dismemberment"]
                            .model_dump()))
    out = engine.apply(c.RollOnTable(table_id="death-and-dismemberment", who="Kaede",
                                     dice=[[4]]))
    assert out.ok, out.error
    entry = out.entry
    assert entry is not None
    roll_event, table_event = entry.events
    assert roll_event.kind == "roll" and roll_event.roll is not None
    assert roll_event.roll.faces == [4] and roll_event.roll.source == "typed"
    assert roll_event.text == "Kaede: 1d6 for Death and Dismemberment typed in [4] -> 4"
    assert table_event.kind == "table"
    row = "Result 4 of your own Death and Dismemberment table: write it in under Fight > Roll Tables"
    assert table_event.text == f"Death and Dismemberment: 4 -> {row}"
    assert table_event.data == {"table": "death-and-dismemberment", "total": 4, "row": row,
                                "effect": ""}
    assert entry.summary == f"Kaede on Death and Dismemberment: 4 -> {row}"
    bad = engine.apply(c.RollOnTable(table_id="death-and-dismemberment", dice=[[7]]))
    assert bad.error == "Death and Dismemberment: face 7 is not on a d6 (1..6)"


def test_roll_on_a_d100_table_shows_00_and_the_effect(engine: Engine) -> None:
    engine.apply(c.SetTable(table=default_tables("d100")["damage-chart"].model_dump()))
    out = engine.apply(c.RollOnTable(table_id="damage-chart", dice=[[100]]))
    assert out.ok and out.entry is not None
    event = out.entry.events[-1]
    assert event.text == "Damage chart: 00 -> Double damage [x2]"
    assert event.data["total"] == 100 and event.data["effect"] == "x2"


def test_seeded_table_rolls_repeat_after_undo_and_several_dice_add_up(engine: Engine) -> None:
    engine.apply(c.SetTable(table=table("2d6+1", ((3, 8), (9, 13)))))
    first = engine.apply(c.RollOnTable(table_id="injury")).entry
    engine.undo()
    again = engine.apply(c.RollOnTable(table_id="injury")).entry
    assert first is not None and again is not None
    assert first.events == again.events
    faces = again.events[0].roll.faces  # type: ignore[union-attr]
    assert again.events[-1].data["total"] == sum(faces) + 1
    assert engine.rebuild().model_dump(mode="json") == dump(engine)
    assert engine.encounter.dice_drawn == 2
    typed = engine.apply(c.RollOnTable(table_id="injury", dice=[[6, 6]]))
    assert typed.entry is not None and typed.entry.events[-1].data["total"] == 13


def test_tables_survive_a_save_and_reload(engine: Engine, tmp_path: Path) -> None:
    from fightdesk.storage.sessions import load_session, save_session

    engine.apply(c.SetTable(table=default_tables("d100")["damage-chart"].model_dump()))
    path = tmp_path / "fight.json"
    save_session(engine.session, path)
    loaded = load_session(path)
    assert loaded.encounter.tables == engine.encounter.tables
    assert Engine(loaded).rebuild().model_dump(mode="json") == dump(engine)


def test_an_old_fight_loads_without_tables_and_a_table_under_another_key_is_refused() -> None:
    data = Session.model_validate_json(DEMO.read_text()).model_dump(mode="json")
    assert "tables" not in DEMO.read_text()
    assert Session.model_validate(data).encounter.tables == {}
    data["encounter"]["tables"] = {"other": table()}
    with pytest.raises(ValidationError, match="the table under 'other' has the id 'injury'"):
        Session.model_validate(data)


table_steps = st.lists(
    st.one_of(
        st.tuples(st.just("set"), st.sampled_from(["a", "b"]), st.integers(1, 6),
                  st.booleans()),
        st.tuples(st.just("remove"), st.sampled_from(["a", "b", "c"])),
        st.tuples(st.just("roll"), st.sampled_from(["a", "b"]),
                  st.one_of(st.none(), st.integers(0, 7))),
        st.tuples(st.just("undo")),
        st.tuples(st.just("redo")),
    ),
    max_size=25,
)


@given(table_steps)
def test_any_run_of_table_commands_rebuilds_undoes_and_redoes_exactly(
        steps: list[tuple[Any, ...]]) -> None:
    """After every step the log rebuilds the live fight; a refusal changes nothing; at
    the end undoing everything gives the start and redoing everything the whole history."""
    engine = Engine(Session.model_validate_json(DEMO.read_text()))
    start = dump(engine)
    for step in steps:
        before = dump(engine)
        if step[0] == "set":
            _, tid, cut, broken = step
            spans = ((1, cut), (cut + 1, 6)) if cut < 6 else ((1, 6),)
            data = {"id": tid, "name": tid.upper(), "die": "1d6", "rows": rows(*spans)}
            if broken:
                data["rows"][0]["high"] = 7
            out = engine.apply(c.SetTable(table=data))
        elif step[0] == "remove":
            out = engine.apply(c.RemoveTable(table_id=step[1]))
        elif step[0] == "roll":
            typed = [] if step[2] is None else [[step[2]]]
            out = engine.apply(c.RollOnTable(table_id=step[1], dice=typed))
            if out.ok:
                assert out.entry is not None and out.entry.events[-1].kind == "table"
        elif step[0] == "undo":
            engine.undo()
            out = None
        else:
            engine.redo()
            out = None
        if out is not None and not out.ok:
            assert dump(engine) == before
        assert engine.rebuild().model_dump(mode="json") == dump(engine)
    while engine.redo():  # what was undone last is part of the history too
        pass
    end = dump(engine)
    while engine.undo():
        pass
    assert dump(engine) == start
    while engine.redo():
        pass
    assert dump(engine) == end
