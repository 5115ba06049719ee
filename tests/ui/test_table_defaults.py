"""What the forms start on at the table: an attack's Target on an enemy still
standing, an interrupt's on the fighter it interrupts, the stack's "Interrupt with:" on
the fighter being attacked; and a new fighter's current values at its sheet's full."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QPushButton, QSpinBox

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session, load_session

RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def target_of(dialog: Any) -> str:
    box = dialog.findChild(QComboBox, "field-target")
    assert box is not None
    return str(box.currentData())


def test_an_attack_starts_on_the_first_enemy_standing(window: Any, qtbot: Any) -> None:
    # d100's roster puts Rook's teammate Vesna first among the others.
    engine = Engine(load_session(RESOURCES / "demo_d100.json"))
    window.show_session(engine, None)
    dialog = window.open_action_dialog("rook")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("strike"))
    assert target_of(dialog) == "bandit-captain"
    dialog.reject()
    # An enemy starts on a PC.
    dialog = window.open_action_dialog("bandit-1")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("strike"))
    assert engine.encounter.fighters[target_of(dialog)].side == "pc"
    dialog.reject()


def test_a_street_fighter_attack_skips_a_teammate(window: Any, qtbot: Any) -> None:
    # Brannock on Kaede's side: he comes first in the roster after her.
    session = demo_session()
    brannock = session.encounter.fighters["brannock"]
    session.encounter.fighters["brannock"] = brannock.model_copy(update={"side": "pc"})
    window.show_session(Engine(session), None)
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)  # start the fight
    dialog = window.open_action_dialog("kaede")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("intimidate"))
    assert dialog.current_form().id == "intimidate"
    assert target_of(dialog) == "dock-thug-1"
    dialog.reject()


def test_an_interrupt_starts_on_the_fighter_it_interrupts(window: Any, qtbot: Any) -> None:
    # Street-fighter: Dock Thug 1 attacks Kaede on the 10; Kaede's interrupt starts on
    # the thug (the roster's first other fighter for her is Brannock).
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert engine is not None
    enc = engine.encounter
    forward = window.forward_button
    for _ in range(3):
        qtbot.mouseClick(forward, Qt.MouseButton.LeftButton)
    # Kaede's player rolls her own dice: asked; "-" lets the app roll them.
    qtbot.keyClicks(window.decision_panel.dice, "-")
    qtbot.mouseClick(window.decision_panel.findChild(QPushButton, "choice-roll"),
                     Qt.MouseButton.LeftButton)
    assert enc.state.phase == 10
    dialog = window.open_action_dialog("dock-thug-1", role="act")
    assert dialog is not None and dialog.current_form().id == "act"
    assert target_of(dialog) == "kaede"
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    assert dialog.result_label.isVisible() or not dialog.isVisible(), dialog.error.text()
    if dialog.isVisible():
        qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    stack = window._stack_dialog
    qtbot.waitUntil(lambda: stack is not None and stack.isVisible())
    stack = window._stack_dialog
    # "Interrupt with:" starts on the fighter being attacked, not the roster's first.
    assert stack.fighter_box.currentText().startswith("Kaede")
    qtbot.mouseClick(stack.add_button, Qt.MouseButton.LeftButton)
    dialog = window._action_dialog
    assert dialog is not None and dialog.current_form().id == "interrupt"
    assert target_of(dialog) == "dock-thug-1"
    dialog.reject()


def type_number(qtbot: Any, editor: Any, value: int) -> None:
    """Select the spin box's text and type a number, as the GM would."""
    spin = editor.input
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Tab)


def test_a_new_fighters_now_values_follow_the_sheet(qtbot: Any) -> None:
    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterDialog

    dialog = FighterDialog(new_fighter("street-fighter"), "New fighter")
    qtbot.addWidget(dialog)
    dialog.show()
    form = dialog.form
    for name, value in (("health", 12), ("chi", 2), ("willpower", 5)):
        type_number(qtbot, form.editors[f"sheet.{name}"], value)
    fighter = dialog.result_fighter()
    assert fighter is not None
    assert (fighter.status.health, fighter.status.chi, fighter.status.willpower) == (12, 2, 5)
    # A Now value the GM sets stays set when the sheet changes again.
    type_number(qtbot, form.editors["status.chi"], 1)
    type_number(qtbot, form.editors["sheet.chi"], 3)
    assert form.editors["status.chi"].value() == 1
    assert form.editors["status.health"].value() == 12


def test_fully_rested_fills_hp_from_max_hp(qtbot: Any) -> None:
    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterDialog

    for ruleset in ("d100", "roll-under", "ashes"):
        dialog = FighterDialog(new_fighter(ruleset), "New fighter")
        qtbot.addWidget(dialog)
        dialog.show()
        form = dialog.form
        type_number(qtbot, form.editors["sheet.max_hp"], 18)
        assert form.editors["status.hp"].value() == 18, ruleset
        type_number(qtbot, form.editors["status.hp"], 10)
        type_number(qtbot, form.editors["sheet.max_hp"], 17)
        assert form.editors["status.hp"].value() == 10, ruleset
        qtbot.mouseClick(form.rested_button, Qt.MouseButton.LeftButton)
        assert form.editors["status.hp"].value() == 17, ruleset


def test_a_new_d100_weapons_hit_points_follow_its_damage(qtbot: Any) -> None:
    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterDialog

    dialog = FighterDialog(new_fighter("d100"), "New fighter")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    weapons = dialog.form.tables["sheet.weapons"]
    qtbot.mouseClick(weapons.add_button, Qt.MouseButton.LeftButton)
    table = weapons.table
    row = table.rowCount() - 1

    def type_cell(column: str, value: int) -> None:
        item = table.item(row, weapons.column_of(column))
        assert item is not None
        table.setCurrentItem(item)
        table.editItem(item)
        editors = [w for w in table.findChildren(QSpinBox) if w.isVisible()]
        assert len(editors) == 1
        editor = editors[0]
        editor.selectAll()
        qtbot.keyClicks(editor, str(value))
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        # The delegate commits and closes the editor on the next turn of the event loop.
        qtbot.waitUntil(lambda: not [w for w in table.findChildren(QSpinBox) if w.isVisible()])

    type_cell("damage", 6)
    assert weapons.rows()[row]["hp"] == 6
    type_cell("damage", 8)
    assert weapons.rows()[row]["hp"] == 8
    # Once the GM sets the hit points, they stay.
    type_cell("hp", 3)
    type_cell("damage", 9)
    assert weapons.rows()[row]["hp"] == 3 and weapons.rows()[row]["damage"] == 9
    fighter = dialog.result_fighter()
    assert fighter is not None and fighter.sheet.weapons[-1].hp == 3
