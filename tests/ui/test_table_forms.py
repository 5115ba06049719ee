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
from tests.start_step import answer_surprise_on_panel, type_initiative

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
    assert isinstance(spin, QSpinBox)
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


# --- the players' own dice ------------------------------------------------------------------


def roll_under_pcs_roll_their_own(window: Any, qtbot: Any) -> Engine:
    """The roll-under demo, every PC rolling their own dice, at the first PC's turn of
    round 1 (the surprise step passed, every Wisdom roll typed as 1: all act first)."""
    from PySide6.QtWidgets import QLineEdit

    from fightdesk.engine.turns import current_fighter

    session = load_session(RESOURCES / "demo_roll-under.json")
    fighters = session.encounter.fighters
    for fid, fighter in list(fighters.items()):
        if fighter.side == "pc":
            fighters[fid] = fighter.model_copy(update={"rolls_own_dice": True})
    engine = Engine(session)
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    answer_surprise_on_panel(window)
    window.next_step_action.trigger()  # the sniper's surprise turn goes by
    decision = window.decision_panel
    for fid in ("miguel", "ji-woo", "tomasz", "dee"):
        row = decision.field_input(fid)
        assert isinstance(row, QLineEdit)
        qtbot.keyClicks(row, "1")
    qtbot.mouseClick(decision.fields_ok, Qt.MouseButton.LeftButton)
    assert fighters[current_fighter(engine.encounter.state.turns) or ""].side == "pc"
    return engine


def attack(window: Any, qtbot: Any, engine: Engine, foe: str) -> str:
    from fightdesk.engine.turns import current_fighter

    me = current_fighter(engine.encounter.state.turns)
    assert me is not None
    dialog = window.open_action_dialog(me, role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData(foe))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    return me


def test_a_player_who_rolls_own_dice_is_asked_for_the_damage_too(window: Any,
                                                                 qtbot: Any) -> None:
    from fightdesk.engine.rulesets.roll_under.targets import DAMAGE_DIE

    engine = roll_under_pcs_roll_their_own(window, qtbot)
    enc = engine.encounter
    panel = window.roll_panel
    me = attack(window, qtbot, engine, "rent-a-cop-1")
    name = enc.fighters[me].name
    assert panel.isVisible() and panel.title.text().startswith(f"{name} rolls Attack")
    # The field says how to type several rolls.
    assert "14 6" in panel.dice.toolTip() and ";" in panel.dice.toolTip()
    qtbot.keyClicks(panel.dice, "1")  # the player's d20: a hit
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    # The hit's damage is the player's roll too: it waits on the panel, never app-rolled.
    roll = enc.state.roll
    die = DAMAGE_DIE[enc.fighters[me].sheet.weapons[0].weapon_class]
    assert roll is not None and roll.roller_id == me and roll.by_player
    assert (roll.count, roll.sides) == (1, die)
    assert panel.title.text() == (f"{name} rolls damage ({enc.fighters[me].sheet.weapons[0].name})"
                                  f" on Rent-A-Cop 1 ({name} rolls 1d{die})")
    assert panel.dice.placeholderText().startswith(f"{name}'s faces as rolled at the table")
    assert enc.fighters["rent-a-cop-1"].status.hp == 8
    qtbot.keyClicks(panel.dice, "3")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert enc.state.roll is None and enc.fighters["rent-a-cop-1"].status.hp == 5
    damage = [ev.roll for e in engine.session.log for ev in e.events
              if ev.roll is not None and ev.roll.purpose.startswith("damage")]
    assert [(r.faces, r.source) for r in damage] == [([3], "typed")]

    # The next PC types both rolls at once, split by a space: attack 2, damage 4.
    window.next_step_action.trigger()
    other = attack(window, qtbot, engine, "rent-a-cop-1")
    assert other != me and enc.fighters[other].side == "pc"
    qtbot.keyClicks(panel.dice, "2 4")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert not panel.error.isVisible(), panel.error.text()
    assert enc.state.roll is None and enc.fighters["rent-a-cop-1"].status.hp == 1


# --- one choice answers an attack; Add adds ----------------------------------------------------


def test_a_d100_defense_is_one_pick_with_its_odds_and_rolls_at_once(window: Any,
                                                                   qtbot: Any) -> None:
    """Rook's strike of 67 on Bandit 1 (parry +5, dodge +5): the bandit's
    answer is one click on a defense showing its chance, with the player's face typed
    first; no Add button (a second defense would replace, not add)."""

    engine = Engine(load_session(RESOURCES / "demo_d100.json"))
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    answer_surprise_on_panel(window)
    decision = window.decision_panel
    type_initiative(qtbot, decision)
    dialog = window.open_action_dialog("rook", role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("bandit-1"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    qtbot.keyClicks(panel.dice, "52")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert panel.title.text().startswith("Bandit 1 rolls Defense against Rook's strike of 67")
    assert panel.add_button.isHidden() and panel.option.isHidden()
    # Each pick has its key (Alt+1...) before its words.
    keys = [b.text().split(" ", 1)[0] for b in panel.pick_buttons()]
    assert keys == [f"&{n}" for n in range(1, len(keys) + 1)]
    picks = {b.objectName(): b.text().split(" ", 1)[1] for b in panel.pick_buttons()}
    # Beating 67 with +5 takes 63-00: 38 faces.
    assert picks["pick-parry"] == "parry +5 · 38%"
    assert picks["pick-dodge"] == "dodge +5 · 38%"
    assert picks["pick-none"] == "no defense (take the strike)"
    assert "exactly 19/50" in panel.pick_button("parry").toolTip()
    entries = len(engine.session.log)
    qtbot.keyClicks(panel.dice, "30")  # the bandit's d100, typed before the pick
    qtbot.mouseClick(panel.pick_button("parry"), Qt.MouseButton.LeftButton)
    enc = engine.encounter
    assert enc.state.roll is None and not panel.isVisible()
    assert (enc.fighters["bandit-1"].status.armour_hp, enc.fighters["bandit-1"].status.hp) \
        == (0, 10)
    defense = [ev.roll for e in engine.session.log[entries:] for ev in e.events
               if ev.roll is not None]
    assert [(r.faces, r.source) for r in defense] == [([30], "typed")]


def test_add_adds_to_a_roll_it_does_not_replace(window: Any, qtbot: Any) -> None:
    """Roll-under: two allies' assists on one roll both count (the panel's Add adds)."""
    engine = roll_under_pcs_roll_their_own(window, qtbot)
    enc = engine.encounter
    panel = window.roll_panel
    attack(window, qtbot, engine, "rent-a-cop-1")
    roll = enc.state.roll
    assert roll is not None and not panel.add_button.isHidden() and not panel.pick_buttons()
    base = roll.total
    helpers = [panel.option.itemText(i) for i in range(panel.option.count())]
    # An amount typed past what the helper has is capped, and the panel says so.
    focused(qtbot, window)
    most = panel.amount.maximum()
    type_into(qtbot, panel.amount, "9")
    assert panel.amount.value() == most < 9
    assert panel.error.isVisible() and panel.error.text() == f"At most {most}: 9 became {most}"
    for n in range(2):
        panel.option.setCurrentIndex(n)
        panel.amount.setValue(1)
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    roll = enc.state.roll
    assert roll is not None and len(roll.contributions) == 2, helpers
    assert roll.total == base + 2


def test_a_street_fighter_player_is_asked_for_the_damage_dice(window: Any,
                                                              qtbot: Any) -> None:
    """Kaede's player rolls her own dice. With no EP on either side no question offered
    a dice field before the damage roll, which the app then rolled unseen: now she is
    asked for the damage dice."""
    from PySide6.QtWidgets import QPushButton

    from fightdesk.engine import commands as c
    from fightdesk.storage.sessions import demo_session

    session = demo_session()
    assert session.encounter.fighters["kaede"].rolls_own_dice
    engine = Engine(session)
    window.show_session(engine, None)
    enc = engine.encounter
    decision = window.decision_panel
    for _ in range(20):  # to Kaede's first die, at phase 6; the others let theirs go
        if decision.isVisible() and "action dice" in decision.prompt.text():
            qtbot.keyClicks(decision.dice, "-")  # Kaede's own action dice: the app rolls
            qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"),
                             Qt.MouseButton.LeftButton)
        elif decision.isVisible():
            qtbot.mouseClick(decision.findChild(QPushButton, "choice-lose"),
                             Qt.MouseButton.LeftButton)
        elif enc.state.stage == "phases" and window.pass_action.text().startswith("Kaede"):
            break
        elif window.pass_action.isEnabled():
            window.pass_action.trigger()
        else:
            qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    assert enc.state.phase == 6
    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    foe = dialog.values()["target"]
    dialog.reject()
    for fid in ("kaede", foe):
        assert window.document.apply(c.SetValue(fighter_id=fid, field="status.ep",
                                                value=0)).ok
    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window._stack_dialog is not None and window._stack_dialog.isVisible())
    stack = window._stack_dialog
    panel = window._stack_decision
    asked = ""
    for _ in range(8):
        if panel.isVisible() and "damage di" in panel.prompt.text():
            asked = panel.prompt.text()
            break
        assert not panel.isVisible(), panel.prompt.text()
        assert stack.resolve_next.isEnabled()
        qtbot.mouseClick(stack.resolve_next, Qt.MouseButton.LeftButton)
    assert asked.startswith("Kaede Moriyama: roll the "), asked
    needed = int(panel.dice.toolTip().split("Dice needed: ")[1].split("d10")[0])
    assert panel.dice.isVisible()
    qtbot.keyClicks(panel.dice, " ".join(["8"] * needed))
    qtbot.mouseClick(panel.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not panel.error.isVisible(), panel.error.text()
    damage = [ev.roll for e in engine.session.log for ev in e.events
              if ev.roll is not None and ev.roll.purpose.startswith("damage")]
    assert [(r.faces, r.source) for r in damage] == [([8] * needed, "typed")]


def test_an_ashes_defense_shows_its_odds_and_add_adds_another(window: Any, qtbot: Any) -> None:
    """The Ash Hound's Bite (+2) on Kestrel: each defense offered says what the
    challenge's chance becomes with it; Kestrel's skill, then a dodge: both count."""
    from fractions import Fraction

    from fightdesk.engine.odds import challenge_odds
    from fightdesk.engine.turns import current_fighter

    engine = Engine(load_session(RESOURCES / "demo_ashes.json"))
    window.show_session(engine, None)
    enc = engine.encounter
    window.forward_action.trigger()  # start the fight: the enemies' surprise round
    assert enc.state.stage == "turns" and current_fighter(enc.state.turns) == "ash-hound"
    dialog = window.open_action_dialog("ash-hound", role="act")
    assert dialog is not None and dialog.values()["target"] == "kestrel"
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    panel = window.roll_panel
    roll = enc.state.roll
    assert roll is not None and roll.total == 2
    options = [panel.option.itemText(i) for i in range(panel.option.count())]
    with_skill = challenge_odds(1, automatic_beyond_six=True).success
    assert with_skill == Fraction(21, 32)  # at +1, from 99/128 at +2
    assert options[0] == ("Kestrel: Dodge roll (+1 defense) (free) · then Ash Hound's roll 66%")
    assert not panel.add_button.isHidden() and not panel.pick_buttons()
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    panel.option.setCurrentIndex(next(i for i in range(panel.option.count())
                                      if "dodge (+1 defense per 3" in panel.option.itemText(i)))
    panel.amount.setValue(3)
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    roll = enc.state.roll
    assert roll is not None and [c.kind for c in roll.contributions] == ["skill:Dodge roll",
                                                                       "dodge"]
    assert roll.total == 0


def test_a_d100_player_is_asked_for_the_counter_against_a_failed_strike(
        window: Any, qtbot: Any) -> None:
    """Vesna's player rolls her own dice. The Captain's strike fails on a natural 05:
    her declared counterstrike is still rolled, and now waits for her face (the app
    rolled it unseen before)."""

    session = load_session(RESOURCES / "demo_d100.json")
    fighters = session.encounter.fighters
    fighters["vesna"] = fighters["vesna"].model_copy(update={"rolls_own_dice": True})
    engine = Engine(session)
    enc = engine.encounter
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    answer_surprise_on_panel(window)
    decision = window.decision_panel
    type_initiative(qtbot, decision)
    window.next_step_action.trigger()
    window.next_step_action.trigger()
    dialog = window.open_action_dialog("bandit-captain", role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("vesna"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    panel.option.setCurrentIndex(next(i for i in range(panel.option.count())
                                      if "counterstrike" in panel.option.itemText(i)))
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.dice, "05")  # the Captain's strike: a natural 05 fails
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    roll = enc.state.roll
    assert roll is not None and roll.roller_id == "vesna" and roll.by_player
    assert panel.title.text().startswith("Vesna rolls Counterstrike against Bandit Captain's "
                                         "failed strike")
    # 1d100 + 20 must beat the failed strike's 20, and 01-10 fails: 90 faces of 100.
    assert panel.odds.text() == "the counter hits (21 or more, not 01-10): 90%"
    qtbot.keyClicks(panel.dice, "61")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert enc.state.roll is None
    counter = [ev.roll for e in engine.session.log for ev in e.events
               if ev.roll is not None and ev.roll.purpose.startswith("Counterstrike")]
    assert [(r.faces, r.source, r.outcome) for r in counter] == [
        ([61], "typed", "81: the counter hits")]


def test_a_street_fighter_player_is_asked_for_the_concentration_roll(window: Any,
                                                                     qtbot: Any) -> None:
    """Kaede's player rolls her own dice: she concentrates (Power Up) on her die at phase
    6; when the round ends her concentration roll is asked for, not rolled unseen."""
    from PySide6.QtWidgets import QPushButton

    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    enc = engine.encounter
    decision = window.decision_panel
    for _ in range(20):  # to Kaede's first die, at phase 6; the others let theirs go
        if decision.isVisible() and "action dice" in decision.prompt.text():
            qtbot.keyClicks(decision.dice, "-")  # Kaede's own action dice: the app rolls
            qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"),
                             Qt.MouseButton.LeftButton)
        elif decision.isVisible():
            qtbot.mouseClick(decision.findChild(QPushButton, "choice-lose"),
                             Qt.MouseButton.LeftButton)
        elif enc.state.stage == "phases" and window.pass_action.text().startswith("Kaede"):
            break
        elif window.pass_action.isEnabled():
            window.pass_action.trigger()
        else:
            qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("concentrate"))
    kind = dialog.input("concentration")
    assert isinstance(kind, QComboBox)
    kind.setCurrentIndex(kind.findData("power-up"))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window._stack_dialog is not None and window._stack_dialog.isVisible())
    stack = window._stack_dialog
    qtbot.mouseClick(stack.resolve_all, Qt.MouseButton.LeftButton)
    assert enc.fighters["kaede"].status.concentration is not None
    if stack.isVisible():
        qtbot.keyClick(stack, Qt.Key.Key_Escape)
    end = window.round_bar.widgetForAction(window.end_round_action)
    qtbot.mouseClick(end, Qt.MouseButton.LeftButton)
    box = window._end_round_box
    if box is not None and box.isVisible():
        qtbot.mouseClick(box.findChild(QPushButton, "endRoundButton"), Qt.MouseButton.LeftButton)
    for _ in range(10):  # the others' leftover dice go; then Kaede is asked
        assert decision.isVisible()
        if "concentration" in decision.prompt.text():
            break
        qtbot.mouseClick(decision.findChild(QPushButton, "choice-lose"),
                         Qt.MouseButton.LeftButton)
    assert decision.prompt.text().startswith("Kaede Moriyama: roll the Power Up "
                                             "concentration (")
    needed = int(decision.dice.toolTip().split("Dice needed: ")[1].split("d10")[0])
    qtbot.keyClicks(decision.dice, " ".join(["9"] * needed))
    qtbot.mouseClick(decision.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)
    assert not decision.error.isVisible(), decision.error.text()
    rolls = [ev.roll for e in engine.session.log for ev in e.events
             if ev.roll is not None and ev.roll.purpose.startswith("Power Up")]
    assert [(r.faces, r.source) for r in rolls] == [([9] * needed, "typed")]
