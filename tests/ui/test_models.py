"""The item models pass qtmodeltester and follow the engine's notices row by row."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt

from fightdesk.engine import commands as c
from fightdesk.engine.ruleset import StackRow
from fightdesk.ui.models import FightersModel, GroupRole, ItemRole, KeyRole, LogModel, StackModel
from fightdesk.ui.plain import plain_tip

from .fake_ruleset import PracticeEngine


def test_fighters_model_passes_modeltester_and_follows_changes(qtmodeltester, engine: PracticeEngine) -> None:
    model = FightersModel()
    model.set_engine(engine)
    qtmodeltester.check(model)
    assert model.rowCount() == len(engine.encounter.order)
    assert model.index(0, 0).data(KeyRole) == "kaede"
    assert model.index(0, 0).data() == "Kaede Moriyama"
    thug_row = model.row_of("dock-thug-2")
    assert model.index(thug_row, 0).data(GroupRole) == engine.encounter.fighters["dock-thug-2"].group

    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda a, b, *_: changed.append((a.row(), b.row())))
    engine.subscribe(model.refresh)
    engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=3))
    assert changed == [(0, 0)]
    assert model.index(0, 2).data() == "3/10"
    assert model.index(0, 0).data(ItemRole).health == 3

    removed: list[tuple[int, int]] = []
    model.rowsRemoved.connect(lambda _p, a, b: removed.append((a, b)))
    engine.apply(c.RemoveFighter(fighter_id="brannock"))
    assert removed == [(1, 1)] and model.row_of("brannock") == -1
    inserted: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _p, a, b: inserted.append((a, b)))
    engine.undo()
    assert inserted == [(1, 1)] and model.row_of("brannock") == 1
    qtmodeltester.check(model)


def test_log_model_is_a_tree_of_entries_and_events(qtmodeltester, engine: PracticeEngine) -> None:
    model = LogModel()
    model.set_engine(engine)
    engine.subscribe(model.refresh)
    qtmodeltester.check(model)
    engine.apply(c.StartRound())
    engine.apply(c.FreeRoll(notation="3d10", dice=[[2, 5, 9]]))
    assert model.rowCount() == 2
    entry = model.index(1, 1)
    assert entry.data() == "rolled 3d10: 16"
    assert model.index(1, 0).data() == "R1 · phase 10"
    assert model.rowCount(model.index(1, 0)) == 1
    event = model.index(0, 1, model.index(1, 0))
    assert event.data() == "3d10 for dice bar typed in [2, 5, 9] -> 16"
    assert event.parent() == model.index(1, 0)
    assert model.index(0, 0).data(KeyRole) == 0
    qtmodeltester.check(model)
    engine.undo()
    assert model.rowCount() == 1
    engine.redo()
    assert model.rowCount() == 2
    qtmodeltester.check(model)


def test_stack_model_rows_in_resolution_order(qtmodeltester, engine: PracticeEngine) -> None:
    model = StackModel()
    model.set_engine(engine)
    qtmodeltester.check(model)
    rows = [
        StackRow("m2", "brannock", "Brannock Vale", "Jab", "held die", 7, 2, "1 EP"),
        StackRow("m1", "kaede", "Kaede Moriyama", "Fierce", "die 6", 4, 0, "free"),
    ]
    engine.practice.stack_rows = rows
    model.refresh()
    assert model.rowCount() == 2
    assert [model.index(0, col).data() for col in range(6)] == [
        "Brannock Vale", "Jab", "held die", "7", "2", "1 EP"]
    assert model.headerData(3, Qt.Orientation.Horizontal) == "Speed"
    # The maneuver and the cost may be cut short in the table: their tooltips are whole.
    assert model.index(0, 5).data(Qt.ItemDataRole.ToolTipRole) == plain_tip("1 EP")
    assert model.index(0, 1).data(Qt.ItemDataRole.ToolTipRole) == plain_tip("Jab")
    assert model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole) is None
    qtmodeltester.check(model)
    engine.practice.stack_rows = [StackRow("m3", "dock-thug-1", "Dock Thug 1", "Short", "die 3", 9, 0, "free"), *rows]
    inserted: list[int] = []
    model.rowsInserted.connect(lambda _p, a, _b: inserted.append(a))
    model.refresh()
    assert inserted == [0] and model.index(0, 0).data() == "Dock Thug 1"
    engine.practice.stack_rows = []
    model.refresh()
    assert model.rowCount() == 0 and not model.index(0, 0, QModelIndex()).isValid()
    qtmodeltester.check(model)
