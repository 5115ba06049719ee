"""Playing at the table through the widgets: a group card acts for the member whose
turn it is, typed dice at a question, the players' own dice, one-click actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QRadioButton, QSpinBox

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session
from tests.start_step import type_initiative

RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def d100_begun(window: Any, qtbot: Any) -> Engine:
    engine = Engine(load_session(RESOURCES / "demo_d100.json"))
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    decision = window.decision_panel
    type_initiative(qtbot, decision)
    return engine


def member_radio(card: Any, fighter_id: str) -> QRadioButton:
    return next(r for r in card.findChildren(QRadioButton)
                if r.property("fighter_id") == fighter_id)


def test_a_group_card_acts_for_the_member_whose_turn_it_is(window: Any,
                                                          qtbot: Any) -> None:
    engine = d100_begun(window, qtbot)
    enc = engine.encounter
    assert window.document.apply(
        c.SetValue(fighter_id="bandit-1", field="status.dropped", value=[0])).ok
    card = window.cards.card("bandit")
    # The GM looks at Bandit 1 before the bandits' turns come.
    qtbot.mouseClick(member_radio(card, "bandit-1"), Qt.MouseButton.LeftButton)
    assert card.selected_fighter() == "bandit-1"
    for _ in range(3):  # Rook, Vesna and the captain let their turns go
        window.pass_action.trigger()
    assert current_fighter(enc.state.turns) == "bandit-2"
    # The card follows the member whose turn it is...
    assert card.selected_fighter() == "bandit-2"
    # ...and Act acts for that member even with another one checked.
    qtbot.mouseClick(member_radio(card, "bandit-1"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(card.role_buttons["act"], Qt.MouseButton.LeftButton)
    dialog = window._action_dialog
    assert dialog is not None and dialog.windowTitle() == "Bandit 2: action"
    dialog.reject()
    # Each member's line shows a weapon on the floor.
    weapon = enc.fighters["bandit-1"].sheet.weapons[0].name
    line = member_radio(card, "bandit-1").text().replace("\N{NO-BREAK SPACE}", " ")
    assert f"Dropped 1: {weapon}" in line
    assert "Dropped" not in member_radio(card, "bandit-2").text()


def test_typed_dice_are_taken_by_the_question_that_rolls_them(window: Any,
                                                              qtbot: Any) -> None:
    """Brannock's Roundhouse hits Kaede: first he is asked for EP damage dice, then she
    for dice to remove, then the damage is rolled. The GM types the damage dice where a
    question offers a dice field: they are taken, never refused as not needed."""
    from PySide6.QtWidgets import QPushButton

    from fightdesk.storage.sessions import demo_session

    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert engine is not None
    forward = window.forward_button
    for _ in range(3):
        qtbot.mouseClick(forward, Qt.MouseButton.LeftButton)
    app_rolls_kaedes_action_dice(window, qtbot)
    window.pass_action.trigger()
    qtbot.mouseClick(window.decision_panel.findChild(QPushButton, "choice-lose"),
                     Qt.MouseButton.LeftButton)
    qtbot.mouseClick(forward, Qt.MouseButton.LeftButton)
    assert engine.encounter.state.phase == 9
    dialog = window.open_action_dialog("brannock", role="act")
    assert dialog is not None
    maneuver = dialog.input("maneuver")
    maneuver.setCurrentIndex(maneuver.findData("Roundhouse"))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    if dialog.isVisible():
        qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    stack = window._stack_dialog
    qtbot.waitUntil(lambda: stack is not None and stack.isVisible())
    stack = window._stack_dialog
    panel = window._stack_decision
    typed_at: list[str] = []
    for _ in range(12):
        if panel.isVisible():
            prompt = panel.prompt.text()
            if panel.dice.isVisible() and not typed_at and "damage dice" in prompt:
                needed = int(panel.dice.toolTip().split("d10")[0].split()[-1])
                qtbot.keyClicks(panel.dice, " ".join(["9"] * needed))
                typed_at.append(prompt)
            buttons = [b for b in panel.findChildren(QPushButton)
                       if b.objectName().startswith("choice-") and b.isVisible()]
            qtbot.mouseClick(buttons[-1] if buttons else panel.amount_ok,
                             Qt.MouseButton.LeftButton)
            assert not panel.error.isVisible(), (prompt, panel.error.text())
        elif stack.resolve_all.isEnabled():
            qtbot.mouseClick(stack.resolve_all, Qt.MouseButton.LeftButton)
        else:
            break
    assert typed_at and "remove damage dice" in typed_at[0], typed_at
    damage = [ev.roll for e in engine.session.log for ev in e.events
              if ev.roll is not None and ev.roll.purpose.startswith("damage")]
    assert damage and damage[0].source == "typed" and set(damage[0].faces) == {9}


def test_a_player_who_rolls_own_dice_is_asked_for_them(window: Any, qtbot: Any) -> None:
    from fightdesk.storage.sessions import demo_session

    session = demo_session()
    assert session.encounter.fighters["kaede"].rolls_own_dice
    assert not session.encounter.fighters["brannock"].rolls_own_dice
    window.show_session(Engine(session), None)
    for _ in range(3):
        qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    dialog = window.open_action_dialog("kaede")
    assert dialog is not None
    assert dialog.typed.isChecked() and dialog.dice_edit.isEnabled()
    # The field says how several rolls are typed.
    assert ";" in dialog.dice_edit.placeholderText()
    assert "next roll" in dialog.dice_edit.placeholderText()
    dialog.reject()
    dialog = window.open_action_dialog("brannock")
    assert dialog is not None and dialog.app_rolls.isChecked()
    dialog.reject()
    assert ";" in window.decision_panel.dice.placeholderText()


def test_an_action_applies_and_closes_in_one_click(window: Any, qtbot: Any) -> None:
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    for _ in range(3):
        qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)
    log = len(engine.session.log)
    dialog = window.open_action_dialog("dock-thug-1", role="act")
    assert dialog is not None
    qtbot.waitExposed(dialog)
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible() and window._action_dialog is None
    assert len(engine.session.log) > log
    said = engine.session.log[-1].summary
    assert said and said in window.statusBar().currentMessage()


def test_an_error_line_does_not_move_the_buttons(qtbot: Any) -> None:
    from fightdesk.engine.ruleset import ActionForm, FormField, Preview
    from fightdesk.ui.action_dialog import ActionDialog

    form = ActionForm("spend", "Spend", (FormField("ep", "EP", "number", default=0,
                                                   minimum=0, maximum=5),), verb="Spend")

    def preview(form_id: str, values: dict) -> Preview:
        if values["ep"] > 2:
            return Preview(error="not enough EP: has 2")
        return Preview(lines=(f"spends {values['ep']}",))

    dialog = ActionDialog("Kaede", (form,), preview, lambda *_: (True, "done"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.wait(20)  # the form has settled in
    go = dialog.go_button
    place = go.mapTo(dialog, go.rect().topLeft())
    spin = dialog.input("ep")
    for _ in range(3):
        qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert dialog.error.isVisible() and not go.isEnabled()
    qtbot.wait(20)
    assert go.mapTo(dialog, go.rect().topLeft()) == place
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    assert not dialog.error.isVisible() and go.isEnabled()
    qtbot.wait(20)
    assert go.mapTo(dialog, go.rect().topLeft()) == place


def test_a_number_typed_above_the_most_is_capped_with_a_message(qtbot: Any) -> None:
    from fightdesk.engine.base import Decision
    from fightdesk.engine.ruleset import ActionForm, FormField, Preview
    from fightdesk.ui.action_dialog import ActionDialog
    from fightdesk.ui.decision import DecisionPanel

    form = ActionForm("spend", "Spend", (FormField("ep", "EP", "number", default=0,
                                                   minimum=0, maximum=3),), verb="Spend")
    dialog = ActionDialog("Kaede", (form,), lambda *_: Preview(lines=("ok",)),
                          lambda *_: (True, "done"))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    spin = dialog.input("ep")
    assert isinstance(spin, QSpinBox)
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "25")
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert dialog.values()["ep"] == 3
    assert dialog.cap_note.isVisible()
    assert dialog.cap_note.text() == "EP is at most 3: 25 became 3"

    # A question's amount: capped with a message, and Return answers it.
    panel = DecisionPanel()
    qtbot.addWidget(panel)
    panel.show()
    answers: list[tuple] = []
    panel.answered.connect(lambda *a: answers.append(a))
    panel.show_decision(Decision(id="ep", prompt="How many EP?", minimum=0, maximum=2))
    panel.amount.lineEdit().selectAll()
    qtbot.keyClicks(panel.amount, "7")
    qtbot.keyClick(panel.amount, Qt.Key.Key_Return)
    assert answers == [("ep", "", 2, [])]
    assert panel.error.text() == "At most 2: 7 became 2"


def app_rolls_kaedes_action_dice(window: Any, qtbot: Any) -> None:
    """Kaede's player rolls her own dice: asked for the action dice, the GM answers "-"
    and the app rolls them."""
    from PySide6.QtWidgets import QPushButton

    asked = window.decision_panel
    assert asked.prompt.text().startswith("Kaede Moriyama: roll the action dice")
    qtbot.keyClicks(asked.dice, "-")
    qtbot.mouseClick(asked.findChild(QPushButton, "choice-roll"), Qt.MouseButton.LeftButton)


def sf_brannock_roundhouse(window: Any, qtbot: Any) -> Any:
    """The street-fighter demo at phase 9: Brannock's Roundhouse on Kaede declared, the
    stack dialog open with it."""
    from PySide6.QtWidgets import QPushButton

    from fightdesk.storage.sessions import demo_session

    window.show_session(Engine(demo_session()), None)
    forward = window.forward_button
    for _ in range(3):
        qtbot.mouseClick(forward, Qt.MouseButton.LeftButton)
    app_rolls_kaedes_action_dice(window, qtbot)
    window.pass_action.trigger()
    qtbot.mouseClick(window.decision_panel.findChild(QPushButton, "choice-lose"),
                     Qt.MouseButton.LeftButton)
    qtbot.mouseClick(forward, Qt.MouseButton.LeftButton)
    dialog = window.open_action_dialog("brannock", role="act")
    assert dialog is not None
    maneuver = dialog.input("maneuver")
    maneuver.setCurrentIndex(maneuver.findData("Roundhouse"))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window._stack_dialog is not None and window._stack_dialog.isVisible())
    return window._stack_dialog


def test_escape_cancels_the_stack_where_cancelling_is_allowed(window: Any,
                                                             qtbot: Any) -> None:
    stack = sf_brannock_roundhouse(window, qtbot)
    engine = window.document.engine
    # Kaede interrupts: a declared interrupt can be cancelled (its die and EP return).
    qtbot.mouseClick(stack.add_button, Qt.MouseButton.LeftButton)
    interrupt = window._action_dialog
    assert interrupt is not None and interrupt.current_form().id == "interrupt"
    qtbot.keyClick(interrupt.input("ep_speed"), Qt.Key.Key_Up)
    qtbot.mouseClick(interrupt.go_button, Qt.MouseButton.LeftButton)
    assert len(engine.encounter.state.stack) == 2
    assert stack.cancel_button.isEnabled()
    qtbot.keyClick(stack, Qt.Key.Key_Escape)
    assert len(engine.encounter.state.stack) == 1  # the interrupt taken back


def test_the_stack_dialog_marks_resolved_rows(window: Any, qtbot: Any) -> None:
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QPushButton

    stack = sf_brannock_roundhouse(window, qtbot)
    engine = window.document.engine
    qtbot.mouseClick(stack.add_button, Qt.MouseButton.LeftButton)
    interrupt = window._action_dialog
    assert interrupt is not None
    qtbot.keyClick(interrupt.input("ep_speed"), Qt.Key.Key_Up)
    qtbot.mouseClick(interrupt.go_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(stack.resolve_next, Qt.MouseButton.LeftButton)
    panel = window._stack_decision
    for _ in range(8):  # Kaede's interrupt hits: its damage questions, answered
        if not panel.isVisible():
            break
        buttons = [b for b in panel.findChildren(QPushButton)
                   if b.objectName().startswith("choice-") and b.isVisible()]
        qtbot.mouseClick(buttons[-1] if buttons else panel.amount_ok, Qt.MouseButton.LeftButton)
    rows = engine.ruleset.views.stack(engine.encounter)
    model = stack.table.model()
    resolved = [n for n, row in enumerate(rows) if row.note == "resolved"]
    assert resolved, [row.note for row in rows]
    for n in range(model.rowCount()):
        font = model.index(n, 0).data(Qt.ItemDataRole.FontRole)
        struck = isinstance(font, QFont) and font.strikeOut()
        assert struck == (n in resolved), n


def test_the_stack_dialog_closes_itself_once_its_moves_are_resolved(window: Any,
                                                                   qtbot: Any) -> None:
    """At 1093x614 the stack dialog covers the cards: Resolve all (its questions
    answered) empties the stack and the dialog goes by itself, with no Close; the
    window's question panel has any question left."""
    from PySide6.QtWidgets import QPushButton

    window.resize(1093, 614)
    stack = sf_brannock_roundhouse(window, qtbot)
    engine = window.document.engine
    qtbot.mouseClick(stack.resolve_all, Qt.MouseButton.LeftButton)
    panel = window._stack_decision
    for _ in range(8):  # the Roundhouse's damage questions, answered in the dialog
        if not (stack.isVisible() and panel.isVisible()):
            break
        buttons = [b for b in panel.findChildren(QPushButton)
                   if b.objectName().startswith("choice-") and b.isVisible()]
        qtbot.mouseClick(buttons[-1] if buttons else panel.amount_ok, Qt.MouseButton.LeftButton)
    assert not engine.encounter.state.stack and stack.table.model().rowCount() == 0
    qtbot.waitUntil(lambda: not stack.isVisible())
    assert window._stack_decision.decision() is None
    assert window.decision_panel.decision() == engine.pending()


def test_the_stack_dialog_opened_on_an_empty_stack_says_so_and_stays(window: Any,
                                                                    qtbot: Any) -> None:
    """Opened by hand with nothing on it, the dialog says so and waits for Close."""
    window.show_session(Engine(load_session(RESOURCES / "demo_fight.json")), None)
    window.gm.open_stack_dialog()
    stack = window._stack_dialog
    assert stack is not None and stack.isVisible() and stack.table.model().rowCount() == 0
    assert stack.nothing.isVisible() and "Nothing on the stack" in stack.nothing.text()
    qtbot.wait(20)
    assert stack.isVisible()
    qtbot.mouseClick(stack.close_button, Qt.MouseButton.LeftButton)
    assert not stack.isVisible()


def test_quick_add_takes_the_numbers_a_one_off_needs(window: Any, qtbot: Any) -> None:
    from PySide6.QtWidgets import QComboBox, QSpinBox

    from fightdesk.ui.quick_add import QuickAddDialog

    engine = Engine(load_session(RESOURCES / "demo_roll-under.json"))
    window.show_session(engine, None)
    dialog = window.quick_add()
    assert isinstance(dialog, QuickAddDialog)
    qtbot.keyClicks(dialog.name, "Bouncer")
    attack = dialog.findChild(QSpinBox, "quick-attack")
    defense = dialog.findChild(QSpinBox, "quick-defense")
    weapon = dialog.findChild(QComboBox, "quick-weapons.weapon_class")
    assert attack is not None and defense is not None and weapon is not None
    for spin, value in ((attack, "14"), (defense, "12")):
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin, value)
    weapon.setCurrentIndex(weapon.findData("heavy"))
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    added = next(f for f in engine.encounter.fighters.values() if f.name == "Bouncer")
    assert (added.sheet.attack, added.sheet.defense) == (14, 12)
    assert [w.weapon_class for w in added.sheet.weapons] == ["heavy"]

    # Ashes: a skill and its rating.
    engine = Engine(load_session(RESOURCES / "demo_ashes.json"))
    window.show_session(engine, None)
    dialog = window.quick_add()
    assert isinstance(dialog, QuickAddDialog)
    qtbot.keyClicks(dialog.name, "Cutthroat")
    skill = dialog.fields["skills.name"].input
    qtbot.keyClicks(skill, "Knife")
    rating = dialog.findChild(QSpinBox, "quick-skills.rating")
    assert rating is not None
    rating.lineEdit().selectAll()
    qtbot.keyClicks(rating, "4")
    qtbot.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    added = next(f for f in engine.encounter.fighters.values() if f.name == "Cutthroat")
    assert [(s.name, s.rating) for s in added.sheet.skills] == [("Knife", 4)]
    # d100 and street-fighter ask theirs too.
    from fightdesk.storage.sessions import demo_session

    for session, name in ((load_session(RESOURCES / "demo_d100.json"), "quick-weapons.damage"),
                          (demo_session(), "quick-punch")):
        window.show_session(Engine(session), None)
        dialog = window.quick_add()
        assert isinstance(dialog, QuickAddDialog)
        assert dialog.findChild(QSpinBox, name) is not None
        dialog.reject()


def test_a_capped_pump_says_why(window: Any, qtbot: Any) -> None:
    """Ashes: a pump typed past what burst allows is capped, and the note says why."""
    from PySide6.QtWidgets import QApplication

    engine = Engine(load_session(RESOURCES / "demo_ashes.json"))
    window.show_session(engine, None)
    pumped = next((f.id for f in engine.encounter.fighters.values()
                   if any(s.pumpable and s.cost for s in f.sheet.skills)), None)
    assert pumped is not None
    dialog = window.open_action_dialog(pumped)
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("act"))
    spin = dialog.input("pump")
    assert spin is not None
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, "99")
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert dialog.values()["pump"] == spin.maximum() < 99
    assert "never past burst" in dialog.cap_note.text(), dialog.cap_note.text()
    dialog.reject()
