"""Fight > Roll Tables: edit a row, apply, roll with a typed-in die, read the log; an
invalid edit shows why and applies nothing; the built-in and campaign copies."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.tables import default_tables
from fightdesk.storage.library import Library
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.table_editor import RollTablesDialog

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

DEATH = "death-and-dismemberment"


def _fight_with_tables(window: MainWindow) -> Engine:
    engine = Engine(demo_session())
    window.show_session(engine, None)
    for table in (*default_tables("d100").values(), *default_tables("roll-under").values()):
        assert window.document.apply(c.SetTable(table=table.model_dump(mode="json"))).ok
    return engine


def _forget_edits(dialog: RollTablesDialog) -> None:
    """A test that fails mid-edit must not leave the "unapplied edits?" question open."""
    dialog.revert()


def _open(window: MainWindow, qtbot: QtBot) -> RollTablesDialog:
    window.tables_action.trigger()
    dialog = window.findChild(RollTablesDialog)
    assert dialog is not None
    qtbot.addWidget(dialog, before_close_func=_forget_edits)
    qtbot.waitExposed(dialog)
    return dialog


def _pick(dialog: RollTablesDialog, table_id: str) -> None:
    for row in range(dialog.table_list.count()):
        item = dialog.table_list.item(row)
        if item.data(Qt.ItemDataRole.UserRole) == table_id:
            dialog.table_list.setCurrentItem(item)
            return
    raise AssertionError(f"no {table_id} in the list")


def _cell(dialog: RollTablesDialog, row: int, col: int) -> str:
    item = dialog.grid.item(row, col)
    assert item is not None
    return item.text()


def _cell_tip(dialog: RollTablesDialog, row: int, col: int) -> str:
    item = dialog.grid.item(row, col)
    assert item is not None
    return item.toolTip()


def _edit(dialog: RollTablesDialog, qtbot: QtBot, row: int, col: int, text: str) -> None:
    """Type into a grid cell the way the GM does: open its editor, type, go on to the
    next cell (which commits it; offscreen the editor gets no focus for Enter)."""
    grid = dialog.grid
    grid.setCurrentCell(row, col)
    item = grid.item(row, col)
    assert item is not None
    grid.editItem(item)
    editors = [e for e in grid.viewport().findChildren(QLineEdit) if e.isVisible()]
    assert len(editors) == 1
    editor = editors[0]
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    grid.setCurrentCell(row, (col + 1) % grid.columnCount())
    assert not editor.isVisible()
    assert _cell(dialog, row, col) == text


def test_menu_action_and_shortcut(window: MainWindow) -> None:
    assert window.tables_action in window.fight_menu.actions()
    assert window.tables_action.shortcut().toString() == "Ctrl+T"
    taken = [k.toString() for a in window.findChildren(type(window.tables_action))
             if a is not window.tables_action for k in a.shortcuts()]
    assert "Ctrl+T" not in taken


def test_edit_a_row_apply_roll_and_read_the_log(window: MainWindow, qtbot: QtBot) -> None:
    engine = _fight_with_tables(window)
    dialog = _open(window, qtbot)
    assert [dialog.table_list.item(i).text() for i in range(dialog.table_list.count())] == [
        "Damage chart", "Death and Dismemberment"]
    assert not dialog.builtin_bar.isVisible()
    _pick(dialog, DEATH)
    assert dialog.die_edit.text() == "1d6" and dialog.grid.rowCount() == 6
    assert dialog.roll_button.isEnabled() and not dialog.apply_button.isEnabled()

    _edit(dialog, qtbot, 3, 2, "Loses an ear")
    assert dialog.is_dirty()
    assert dialog.apply_button.isEnabled() and not dialog.roll_button.isEnabled()
    assert engine.encounter.tables[DEATH].rows[3].text != "Loses an ear"  # not yet
    entries = len(engine.session.log)
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert engine.encounter.tables[DEATH].rows[3].text == "Loses an ear"
    assert len(engine.session.log) == entries + 1
    assert engine.session.log[-1].summary == "GM changed the roll table Death and Dismemberment"
    assert not dialog.is_dirty() and dialog.roll_button.isEnabled()

    dialog.dice_edit.setText("4")  # the player's die
    qtbot.mouseClick(dialog.roll_button, Qt.MouseButton.LeftButton)
    assert dialog.result_label.text() == "Rolled 4: Loses an ear"
    last = engine.session.log[-1]
    assert last.events[-1].text == "Death and Dismemberment: 4 -> Loses an ear"
    assert last.events[-1].kind == "table" and last.events[0].roll is not None
    assert last.events[0].roll.source == "typed"
    log = window.log_model
    top = log.index(log.rowCount() - 1, 1)
    assert top.data() == "Death and Dismemberment: 4 -> Loses an ear"

    # Ctrl+Z in the window takes the roll and the edit back, one step each.
    dialog.reject()
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert engine.encounter.tables[DEATH].rows[3].text != "Loses an ear"


def test_an_invalid_edit_shows_why_and_applies_nothing(window: MainWindow, qtbot: QtBot) -> None:
    engine = _fight_with_tables(window)
    before = engine.encounter.model_dump(mode="json")
    entries = len(engine.session.log)
    dialog = _open(window, qtbot)
    _pick(dialog, "damage-chart")
    assert _cell(dialog, 0, 0) == "01" and _cell(dialog, 4, 1) == "00"

    _edit(dialog, qtbot, 1, 1, "30")  # 11-30 now overlaps 26-75
    assert dialog.problem_label.isVisible()
    assert dialog.problem_label.text() == "row 3 (26-75) overlaps row 2 (11-30)"
    assert not dialog.apply_button.isEnabled()
    assert dialog.apply_edits() is False  # even if asked directly
    _edit(dialog, qtbot, 1, 1, "x")
    assert dialog.problem_label.text() == "row 2, high: 'x' is not a whole number"
    _edit(dialog, qtbot, 1, 1, "25")
    assert not dialog.problem_label.isVisible() and not dialog.is_dirty()
    dialog.die_edit.setText("1d20")
    dialog.die_edit.textEdited.emit("1d20")
    assert dialog.problem_label.text() == "row 5 ends at 100, but 1d20 cannot roll more than 20"
    assert engine.encounter.model_dump(mode="json") == before
    assert len(engine.session.log) == entries
    qtbot.mouseClick(dialog.revert_button, Qt.MouseButton.LeftButton)
    assert dialog.die_edit.text() == "1d100" and not dialog.problem_label.isVisible()


def test_rows_added_and_removed_new_table_and_remove_table(window: MainWindow,
                                                          qtbot: QtBot) -> None:
    engine = Engine(demo_session())
    window.show_session(engine, None)
    dialog = _open(window, qtbot)
    assert dialog.table_list.count() == 0 and not dialog.apply_button.isEnabled()
    assert "no roll tables yet" in dialog.state_label.text()
    qtbot.mouseClick(dialog.new_button, Qt.MouseButton.LeftButton)
    assert list(engine.encounter.tables) == ["table-1"]
    assert dialog.name_edit.text() == "New table"

    dialog.name_edit.setText("Weather")
    dialog.name_edit.textEdited.emit("Weather")
    _edit(dialog, qtbot, 0, 1, "3")
    assert dialog.problem_label.text() == "row 1 ends at 3, but 1d6 can roll up to 6"
    dialog.grid.setCurrentCell(0, 0)
    qtbot.mouseClick(dialog.add_row_button, Qt.MouseButton.LeftButton)
    assert dialog.grid.rowCount() == 2 and _cell(dialog, 1, 0) == "4"
    _edit(dialog, qtbot, 1, 1, "6")
    assert dialog.problem_label.text() == "row 2, text: cannot be empty"
    _edit(dialog, qtbot, 1, 2, "Storm")
    assert not dialog.problem_label.isVisible() and dialog.apply_button.isEnabled()
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    table = engine.encounter.tables["table-1"]
    assert table.name == "Weather" and [(r.low, r.high) for r in table.rows] == [(1, 3), (4, 6)]

    dialog.grid.selectRow(1)
    qtbot.mouseClick(dialog.remove_row_button, Qt.MouseButton.LeftButton)
    assert dialog.grid.rowCount() == 1 and dialog.problem_label.isVisible()
    qtbot.mouseClick(dialog.revert_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert engine.encounter.tables == {} and dialog.table_list.count() == 0
    assert engine.session.log[-1].summary == "GM removed the roll table Weather"


def test_a_fight_lacking_its_builtin_tables_is_offered_them(qtbot: QtBot) -> None:
    engine = Engine(demo_session())
    builtin = default_tables("d100")
    dialog = RollTablesDialog(lambda: engine.encounter.tables, engine.apply, builtin=builtin)
    qtbot.addWidget(dialog, before_close_func=_forget_edits)
    dialog.show()
    assert dialog.builtin_bar.isVisible()
    assert dialog.builtin_label.text() == "This fight lacks its ruleset's built-in tables: Damage chart."
    qtbot.mouseClick(dialog.add_builtin_button, Qt.MouseButton.LeftButton)
    assert engine.encounter.tables == builtin
    assert not dialog.builtin_bar.isVisible()
    assert dialog.name_edit.text() == "Damage chart"
    dialog.dice_edit.setText("00")  # the percentile dice read 00
    assert dialog.roll()
    assert dialog.result_label.text() == "Rolled 00: Double damage [x2]"
    assert engine.session.log[-1].events[0].roll.faces == [100]  # type: ignore[union-attr]
    dialog.dice_edit.setText("7")
    assert dialog.roll()
    assert dialog.result_label.text() == "Rolled 07: The strike fails: no damage, and an armed attacker drops the weapon [x0]"
    dialog.dice_edit.setText("101")
    assert not dialog.roll()
    assert dialog.roll_error.text() == "Damage chart: face 101 is not on a d100 (1..100)"


def test_file_text_is_plain_text(qtbot: QtBot) -> None:
    engine = Engine(demo_session())
    table = default_tables("roll-under")[DEATH].model_copy(deep=True)
    table.name = "<b>Bold</b>"
    table.rows[0].text = "<i>italic</i> & <a href='x'>link</a>"
    assert engine.apply(c.SetTable(table=table.model_dump(mode="json"))).ok
    dialog = RollTablesDialog(lambda: engine.encounter.tables, engine.apply)
    qtbot.addWidget(dialog, before_close_func=_forget_edits)
    dialog.show()
    dialog.dice_edit.setText("1")
    assert dialog.roll()
    for label in (dialog.result_label, dialog.problem_label, dialog.builtin_label,
                  dialog.campaign_label, dialog.state_label, dialog.roll_error):
        assert label.textFormat() == Qt.TextFormat.PlainText
    assert dialog.result_label.text() == "Rolled 1: <i>italic</i> & <a href='x'>link</a>"
    assert dialog.table_list.item(0).text() == "<b>Bold</b>"
    assert "&lt;b&gt;Bold&lt;/b&gt;" in dialog.table_list.item(0).toolTip()
    assert "&lt;i&gt;italic&lt;/i&gt; &amp; &lt;a" in _cell_tip(dialog, 0, 2)


def test_save_to_campaign_and_use_the_campaigns_version(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library = Library(tmp_path / "campaigns")
    library.create("Harbour")
    campaign = library.open("Harbour")
    engine = Engine(demo_session())
    engine.apply(c.SetTable(table=default_tables("roll-under")[DEATH].model_dump(mode="json")))
    dialog = RollTablesDialog(lambda: engine.encounter.tables, engine.apply, campaign=campaign)
    qtbot.addWidget(dialog, before_close_func=_forget_edits)
    dialog.show()
    assert dialog.campaign_label.text() == "Campaign Harbour has no copy of this table."
    assert dialog.save_campaign_button.isEnabled() and not dialog.use_campaign_button.isEnabled()
    qtbot.mouseClick(dialog.save_campaign_button, Qt.MouseButton.LeftButton)
    assert library.open("Harbour").tables == (engine.encounter.tables[DEATH],)
    reopened = library.current  # read back from disk
    assert reopened is not None
    campaign = reopened
    dialog.campaign = campaign
    dialog.refresh()
    assert dialog.campaign_label.text() == "Campaign Harbour has this table, the same."
    assert not dialog.save_campaign_button.isEnabled()

    # The fight's copy changes; the campaign's stays until the GM chooses.
    _edit(dialog, qtbot, 0, 2, "Out cold")
    assert not dialog.save_campaign_button.isEnabled()  # apply first
    assert dialog.apply_edits()
    assert dialog.campaign_label.text() == "Campaign Harbour has another version of this table."
    assert dialog.use_campaign_button.isEnabled()
    assert dialog.use_campaign_version()
    assert engine.encounter.tables[DEATH] == campaign.table(DEATH)
    assert engine.session.log[-1].summary == "GM changed the roll table Death and Dismemberment"
    engine.undo()
    dialog.refresh()
    assert engine.encounter.tables[DEATH].rows[0].text == "Out cold"

    # Replacing the campaign's own version asks first; "No" keeps it.
    asked: list[str] = []

    def say_no(title: str, text: str) -> bool:
        asked.append(text)
        return False

    monkeypatch.setattr(dialog, "confirm", say_no)
    assert not dialog.save_to_campaign()
    assert campaign.table(DEATH).rows[0].text != "Out cold"  # type: ignore[union-attr]
    assert asked == ["Campaign Harbour has its own version of Death and Dismemberment. "
                     "Replace it with this fight's? (The file before is kept as .bak.)"]
    monkeypatch.setattr(dialog, "confirm", lambda title, text: True)
    assert dialog.save_to_campaign()
    assert library.open("Harbour").table(DEATH).rows[0].text == "Out cold"  # type: ignore[union-attr]


def test_new_table_offers_the_campaigns_tables_the_fight_lacks(qtbot: QtBot,
                                                              tmp_path: Path) -> None:
    library = Library(tmp_path / "campaigns")
    library.create("Harbour")
    campaign = library.open("Harbour")
    campaign.save_table(default_tables("d100")["damage-chart"])
    engine = Engine(demo_session())
    dialog = RollTablesDialog(lambda: engine.encounter.tables, engine.apply, campaign=campaign)
    qtbot.addWidget(dialog, before_close_func=_forget_edits)
    dialog.show()
    texts = [a.text() for a in dialog.new_menu.actions()]
    assert texts == ["Blank table", "From the campaign: Damage chart"]
    dialog.new_menu.actions()[1].trigger()
    assert engine.encounter.tables["damage-chart"] == campaign.table("damage-chart")
    assert dialog.new_menu.actions() == []  # nothing left to offer


def test_the_list_stays_in_name_order_after_undo_and_new_ids_avoid_the_campaigns(
        qtbot: QtBot, tmp_path: Path) -> None:
    library = Library(tmp_path / "campaigns")
    library.create("Harbour")
    campaign = library.open("Harbour")
    theirs = default_tables("roll-under")[DEATH].model_copy(update={"id": "table-1"})
    campaign.save_table(theirs)
    engine = Engine(demo_session())
    for table in (*default_tables("d100").values(), *default_tables("roll-under").values()):
        engine.apply(c.SetTable(table=table.model_dump(mode="json")))
    dialog = RollTablesDialog(lambda: engine.encounter.tables, engine.apply, campaign=campaign)
    qtbot.addWidget(dialog, before_close_func=_forget_edits)
    dialog.show()

    def names() -> list[str]:
        return [dialog.table_list.item(i).text() for i in range(dialog.table_list.count())]

    assert names() == ["Damage chart", "Death and Dismemberment"]
    assert dialog.name_edit.text() == "Damage chart"
    assert dialog.remove_table()
    assert names() == ["Death and Dismemberment"]
    engine.undo()
    dialog.refresh()
    assert list(engine.encounter.tables) == [DEATH, "damage-chart"]  # put back at the end
    assert names() == ["Damage chart", "Death and Dismemberment"]
    assert dialog.new_table()
    assert "table-1" not in engine.encounter.tables and "table-2" in engine.encounter.tables


def test_the_window_hands_the_dialog_the_open_campaign(window: MainWindow, qtbot: QtBot,
                                                     tmp_path: Path) -> None:
    library = Library(tmp_path / "campaigns")
    library.create("Harbour")
    panel = window.add_library_panel(library)
    assert panel.open_campaign("Harbour")
    _fight_with_tables(window)
    dialog = _open(window, qtbot)
    assert dialog.campaign is library.current
    assert dialog.save_campaign_button.isEnabled()
    assert dialog.save_to_campaign()
    assert [t.id for t in Library(tmp_path / "campaigns").open("Harbour").tables] == [
        "damage-chart"]


def _answer_next_box(button: QMessageBox.StandardButton, seen: list[QMessageBox]) -> None:
    """Click ``button`` on the question box that is about to open."""
    def click() -> None:
        box = next(w for w in QApplication.topLevelWidgets()
                   if isinstance(w, QMessageBox) and w.isVisible())
        seen.append(box)
        found = box.button(button)
        assert found is not None
        found.click()
    QTimer.singleShot(0, click)


def test_leaving_unapplied_edits_asks_and_the_questions_are_plain_text(qtbot: QtBot) -> None:
    engine = Engine(demo_session())
    for table in (*default_tables("d100").values(), *default_tables("roll-under").values()):
        engine.apply(c.SetTable(table=table.model_dump(mode="json")))
    dialog = RollTablesDialog(lambda: engine.encounter.tables, engine.apply)
    qtbot.addWidget(dialog, before_close_func=_forget_edits)
    dialog.show()
    seen: list[QMessageBox] = []
    _edit(dialog, qtbot, 0, 2, "Fumble")

    _answer_next_box(QMessageBox.StandardButton.Cancel, seen)
    dialog.table_list.setCurrentRow(1)
    assert dialog.name_edit.text() == "Damage chart" and dialog.is_dirty()
    assert dialog.table_list.currentRow() == 0

    _answer_next_box(QMessageBox.StandardButton.Apply, seen)
    dialog.table_list.setCurrentRow(1)
    assert engine.encounter.tables["damage-chart"].rows[0].text == "Fumble"
    assert dialog.name_edit.text() == "Death and Dismemberment"

    _edit(dialog, qtbot, 0, 2, "Gone")
    _answer_next_box(QMessageBox.StandardButton.Discard, seen)
    dialog.table_list.setCurrentRow(0)
    assert engine.encounter.tables[DEATH].rows[0].text != "Gone"
    assert len(seen) == 3

    _answer_next_box(QMessageBox.StandardButton.Yes, seen)
    assert dialog.confirm("Replace?", "<b>Bold</b> name")
    assert seen[-1].textFormat() == Qt.TextFormat.PlainText
