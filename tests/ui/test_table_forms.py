"""The forms at the table, through the widgets: a weapon class shows its die where it is
picked, the sheet editor shows the armour range it saves, and a number typed out of
range is capped with a message (sheet table cells, quick add, Simulate, the fight's
editor)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QSpinBox, QWidget

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import load_session

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
CLASS_DICE = {"light": "d6", "medium-one-handed": "d8", "medium-two-handed": "d10",
              "medium-ranged": "d8", "rifle": "d10", "heavy": "d12"}


def focused(qtbot: Any, dialog: QWidget) -> None:
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)


def type_into(qtbot: Any, spin: QSpinBox, text: str) -> None:
    """Type a number over what the box holds, then leave it (Tab), as the GM would."""
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Tab)


def open_cell(qtbot: Any, table: Any, row: int, column: int) -> QWidget:
    """Open a cell's editor as a double click would; the editor that shows."""
    item = table.item(row, column)
    assert item is not None
    table.setCurrentItem(item)
    table.editItem(item)
    editors = cell_editors(table)
    assert len(editors) == 1, editors
    return editors[0]


def cell_editors(table: Any) -> list[QWidget]:
    return [w for w in table.viewport().findChildren(QWidget)
            if isinstance(w, QSpinBox | QComboBox) and w.isVisible()]


def close_cell(qtbot: Any, table: Any, editor: QWidget) -> None:
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The delegate commits and closes the editor on the next turn of the event loop.
    qtbot.waitUntil(lambda: not cell_editors(table))


# --- a weapon class shows its die -------------------------------------------------------


def test_a_weapon_class_shows_its_die_in_the_sheet_editor_and_quick_add(
        window: Any, qtbot: Any) -> None:
    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterDialog
    from fightdesk.ui.quick_add import QuickAddDialog

    dialog = FighterDialog(new_fighter("roll-under"), "New fighter")
    qtbot.addWidget(dialog)
    focused(qtbot, dialog)
    weapons = dialog.form.tables["sheet.weapons"]
    qtbot.mouseClick(weapons.add_button, Qt.MouseButton.LeftButton)
    row = weapons.table.rowCount() - 1
    column = weapons.column_of("weapon_class")
    combo = open_cell(qtbot, weapons.table, row, column)
    assert isinstance(combo, QComboBox)
    offered = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    for name, die in CLASS_DICE.items():
        assert offered[name].endswith(f"({die})"), offered
    combo.setCurrentIndex(combo.findData("heavy"))
    close_cell(qtbot, weapons.table, combo)
    cell = weapons.table.item(row, column)
    assert cell is not None and cell.text() == "Heavy (d12)"
    fighter = dialog.result_fighter()
    assert fighter is not None and fighter.sheet.weapons[-1].weapon_class == "heavy"

    # Quick add offers the classes by their dice too.
    window.show_session(Engine(load_session(RESOURCES / "demo_roll-under.json")), None)
    quick = window.quick_add()
    assert isinstance(quick, QuickAddDialog)
    box = quick.findChild(QComboBox, "quick-weapons.weapon_class")
    assert box is not None
    assert [box.itemText(i) for i in range(box.count())] == [
        "Light (d6)", "Medium one handed (d8)", "Medium two handed (d10)",
        "Medium ranged (d8)", "Rifle (d10)", "Heavy (d12)"]
    quick.reject()


# --- the armour range shown is the one saved ----------------------------------------------


def test_the_sheet_editor_shows_the_armour_range_it_saves(qtbot: Any) -> None:
    """A suit of armour already on the sheet, changed to a half suit: the range cells
    read 25-75 (the range it saves), not the 1-100 they read before."""
    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterDialog

    blank = new_fighter("d100")
    sheet = blank.sheet.model_copy(update={"armour": [
        type(blank.sheet).model_fields["armour"].annotation.__args__[0](name="Coat")]})
    fighter = blank.model_copy(update={"sheet": sheet})
    assert (fighter.sheet.armour[0].low, fighter.sheet.armour[0].high) == (1, 100)
    dialog = FighterDialog(fighter, "Edit fighter")
    qtbot.addWidget(dialog)
    focused(qtbot, dialog)
    armour = dialog.form.tables["sheet.armour"]
    table = armour.table

    def shown(name: str) -> str:
        cell = table.item(0, armour.column_of(name))
        assert cell is not None
        return cell.text()

    assert (shown("low"), shown("high")) == ("1", "100")
    combo = open_cell(qtbot, table, 0, armour.column_of("suit"))
    assert isinstance(combo, QComboBox)
    combo.setCurrentIndex(combo.findData("half"))
    close_cell(qtbot, table, combo)
    assert (shown("suit"), shown("low"), shown("high")) == ("Half", "25", "75")
    saved = dialog.result_fighter()
    assert saved is not None
    assert (saved.sheet.armour[0].low, saved.sheet.armour[0].high) == (25, 75)

    # A range typed on a half suit cannot stay: the cell shows what is saved, and says why.
    spin = open_cell(qtbot, table, 0, armour.column_of("low"))
    assert isinstance(spin, QSpinBox)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "30")
    close_cell(qtbot, table, spin)
    assert shown("low") == "25"
    assert armour.message.isVisible()
    assert armour.message.text() == ("Armour 1 (Coat): low 30 became 25 "
                                     "(the row's other values set it)")
    saved = dialog.result_fighter()
    assert saved is not None and saved.sheet.armour[0].low == 25


# --- typed numbers out of range: capped, with a message -------------------------------------


def test_a_number_typed_past_a_sheet_table_cells_bounds_is_capped_with_a_message(
        qtbot: Any) -> None:
    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterDialog

    dialog = FighterDialog(new_fighter("d100"), "New fighter")
    qtbot.addWidget(dialog)
    focused(qtbot, dialog)
    weapons = dialog.form.tables["sheet.weapons"]
    qtbot.mouseClick(weapons.add_button, Qt.MouseButton.LeftButton)
    row = weapons.table.rowCount() - 1
    spin = open_cell(qtbot, weapons.table, row, weapons.column_of("damage"))
    assert isinstance(spin, QSpinBox) and spin.maximum() == 1000
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "2500")
    close_cell(qtbot, weapons.table, spin)
    assert weapons.rows()[row]["damage"] == 1000
    name = weapons.rows()[row]["name"]
    assert weapons.message.isVisible()
    assert weapons.message.text() == (f"Weapon {row + 1} ({name}): "
                                      "Damage is at most 1000: 2500 became 1000")
    # The next edit starts afresh.
    spin = open_cell(qtbot, weapons.table, row, weapons.column_of("damage"))
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "7")
    close_cell(qtbot, weapons.table, spin)
    assert not weapons.message.isVisible()


def test_quick_add_caps_a_typed_health_and_count_with_a_message(window: Any,
                                                                qtbot: Any) -> None:
    from fightdesk.ui.quick_add import QuickAddDialog

    engine = Engine(load_session(RESOURCES / "demo_roll-under.json"))
    window.show_session(engine, None)
    dialog = window.quick_add()
    assert isinstance(dialog, QuickAddDialog)
    focused(qtbot, dialog)
    qtbot.keyClicks(dialog.name, "Bouncer")
    # Roll-under's hit points run to 20: "25" is capped, never cut to "2".
    type_into(qtbot, dialog.health, "25")
    assert dialog.health.value() == 20
    assert dialog.cap_note.isVisible()
    assert dialog.cap_note.text() == "Health is at most 20: 25 became 20"
    type_into(qtbot, dialog.count, "0")
    assert dialog.count.value() == 1
    assert dialog.cap_note.text() == "How many is at least 1: 0 became 1"
    # A number in range clears the note.
    type_into(qtbot, dialog.count, "2")
    assert not dialog.cap_note.isVisible()
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    added = [f for f in engine.encounter.fighters.values() if f.name.startswith("Bouncer")]
    assert len(added) == 2 and all(f.sheet.max_hp == 20 for f in added)


def test_simulate_caps_a_typed_number_with_a_message(window: Any, qtbot: Any) -> None:
    from fightdesk.ui.simulate_dialog import SimulateDialog

    dialog = SimulateDialog(lambda: None)
    qtbot.addWidget(dialog)
    focused(qtbot, dialog)
    type_into(qtbot, dialog.fights, "5")
    assert dialog.fights.value() == 10
    assert dialog.cap_note.isVisible()
    assert dialog.cap_note.text() == "Fights is at least 10: 5 became 10"
    type_into(qtbot, dialog.max_rounds, "5000")
    assert dialog.max_rounds.value() == 1000
    assert dialog.cap_note.text() == "Round cap is at most 1000: 5000 became 1000"
    type_into(qtbot, dialog.max_rounds, "12")
    assert not dialog.cap_note.isVisible() and dialog.max_rounds.value() == 12


def test_the_fights_editor_caps_a_typed_number_with_a_message(window: Any,
                                                              qtbot: Any) -> None:
    from fightdesk.ui.fighter_editor import FighterEditor

    engine = Engine(load_session(RESOURCES / "demo_roll-under.json"))
    fighter = next(iter(engine.encounter.fighters.values()))
    editor = FighterEditor(fighter)
    qtbot.addWidget(editor)
    focused(qtbot, editor)
    spin = editor.findChild(QSpinBox, "edit-status.hp")
    assert spin is not None
    type_into(qtbot, spin, "5000")
    assert spin.value() == spin.maximum() == 999
    assert editor.cap_note.text() == "Hp is at most 999: 5000 became 999"
