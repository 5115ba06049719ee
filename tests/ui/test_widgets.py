"""Each widget alone, against the practice ruleset's views: the timeline, the cards, the
action dialog, the stack dialog, the decision panel, the log and the dice bar."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QPushButton

from fightdesk.engine import commands as c
from fightdesk.engine.base import Choice, Decision
from fightdesk.engine.ruleset import ActionForm, FormField, Odds, Preview, StackRow
from fightdesk.ui.action_dialog import ActionDialog
from fightdesk.ui.cards import CardsView
from fightdesk.ui.decision import DecisionPanel
from fightdesk.ui.inline import parse_typed_dice
from fightdesk.ui.models import FightersModel, StackModel
from fightdesk.ui.plain import plain_tip
from fightdesk.ui.stack_dialog import InterruptStackDialog
from fightdesk.ui.timeline import TimelineView

from .fake_ruleset import PracticeEngine


def test_timeline_chips_click_and_tooltips(qtbot: Any, engine: PracticeEngine) -> None:
    engine.apply(c.StartRound())
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(700, 300)
    view.show()
    tl = engine.ruleset.views.timeline(engine.encounter)
    view.set_timeline(tl)
    assert [lane.title for lane in tl.lanes] == ["Kaede Moriyama", "Brannock Vale", "Dock Thug"]
    assert tl.lanes[2].compact and len(tl.lanes[2].chips) == 3
    chip = tl.lanes[0].chips[0]
    rect = view.chip_rect(chip.id)
    assert not rect.isEmpty()
    with qtbot.waitSignal(view.chipClicked) as clicked:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert clicked.args == ["kaede", chip.id]
    assert view._chip_at(rect.center()) == chip
    assert "ready" in view._chip_tip(chip) and "Click to act" in view._chip_tip(chip)
    # Clicking empty space emits nothing.
    with qtbot.assertNotEmitted(view.chipClicked):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(5, 5))


def test_timeline_scrolls_with_many_lanes(qtbot: Any) -> None:
    from fightdesk.engine.ruleset import Chip, Lane, Timeline

    lanes = tuple(Lane(id=f"f{n}", title=f"Fighter {n}", fighter_ids=(f"f{n}",),
                       chips=(Chip(id=f"f{n}:0", fighter_id=f"f{n}", column=n % 10,
                                   label=str(10 - n % 10), state="ready", clickable=True),))
                  for n in range(40))
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(600, 300)
    view.show()
    view.set_timeline(Timeline(columns=tuple(str(p) for p in range(10, 0, -1)), lanes=lanes,
                               current_column=3))
    assert view.verticalScrollBar().maximum() > 0
    assert view.chip_rect("f39:0").top() > view.viewport().height()
    view.scroll_to_chip("f39:0")
    assert 0 < view.chip_rect("f39:0").center().y() < view.viewport().height()


def shown_cards(qtbot: Any, engine: PracticeEngine, width: int) -> CardsView:
    """A cards view on the engine's fighters, following its changes, shown ``width`` wide."""
    model = FightersModel()
    model.set_engine(engine)
    engine.subscribe(model.refresh)
    view = CardsView()
    qtbot.addWidget(view)
    view.set_model(model)
    view.resize(width, 600)
    view.show()
    return view


def test_cards_show_group_and_ask_by_signal(qtbot: Any, engine: PracticeEngine) -> None:
    view = shown_cards(qtbot, engine, width=900)
    assert [card.title.text() for card in view.cards()] == ["Kaede Moriyama", "Brannock Vale",
                                                           "Dock Thug ×3"]
    group = view.card_for_fighter("dock-thug-2")
    assert group is not None and group.health.format() == "Health 12/12 · 3 standing"
    with qtbot.waitSignal(view.requested) as asked:
        click = group._member_radios[1]
        qtbot.mouseClick(click, Qt.MouseButton.LeftButton, pos=QPoint(6, click.height() // 2))
        qtbot.mouseClick(group.health_button, Qt.MouseButton.LeftButton)
    assert asked.args == ["health", "dock-thug-2"]
    engine.apply(c.SetValue(fighter_id="dock-thug-2", field="status.health", value=0))
    assert group.health.format() == "Health 8/12 · 2 standing"
    assert "out" in group._member_radios[1].text()
    engine.apply(c.SetValue(fighter_id="brannock", field="status.health", value=0))
    brannock = view.card("brannock")
    assert brannock is not None and brannock.act_button is not None
    assert not brannock.act_button.isEnabled()
    assert brannock.palette().color(QPalette.ColorRole.WindowText) == \
        brannock.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)


def test_a_cards_more_button_offers_edit_and_remove(qtbot: Any, engine: PracticeEngine) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMenu

    view = shown_cards(qtbot, engine, width=900)
    card = view.card("brannock")
    assert card is not None
    offered: list[list[str]] = []
    for choice, expected in ((0, "edit"), (1, "remove"), (2, "hide")):
        def pick(choice: int = choice) -> None:
            menu = QApplication.activePopupWidget()
            assert isinstance(menu, QMenu)
            offered.append([a.text() for a in menu.actions()])
            menu.actions()[choice].trigger()
            menu.close()

        QTimer.singleShot(50, pick)
        with qtbot.waitSignal(view.requested) as asked:
            qtbot.mouseClick(card.more_button, Qt.MouseButton.LeftButton)
        assert asked.args == [expected, "brannock"]
    assert offered == [["Edit...", "Remove from fight", "Hide from / show to the players", "",
                        "Add condition...", "Remove condition"]] * 3


def _form() -> ActionForm:
    return ActionForm("attack", "Attack", (
        FormField("maneuver", "Maneuver", "choice", (("jab", "Jab"), ("fierce", "Fierce")), default="jab"),
        FormField("ep", "EP", "number", minimum=0, maximum=3, default=0),
        FormField("all_out", "All out", "flag", default=False),
        FormField("note", "Note", "text", default=""),
    ))


def test_action_dialog_preview_odds_typed_dice_and_result(qtbot: Any) -> None:
    seen: list[tuple[str, dict, list]] = []

    def preview(form_id: str, values: dict) -> Preview:
        if values["ep"] > 2:
            return Preview(error="not enough EP: has 2")
        return Preview(lines=(f"speed {4 + values['ep']}",), odds=(Odds("hit", Fraction(3, 4)),))

    def submit(form_id: str, values: dict, dice: list) -> tuple[bool, str]:
        seen.append((form_id, values, dice))
        return True, "Kaede hits Brannock for 2 health levels."

    dialog = ActionDialog("Kaede", (_form(),), preview, submit, preset={"maneuver": "fierce"})
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.values() == {"maneuver": "fierce", "ep": 0, "all_out": False, "note": ""}
    assert dialog.odds_label.text() == "75%  hit"
    assert "exactly 3/4 (75.0%)" in dialog.odds_label.toolTip()
    spin = dialog.input("ep")
    for _ in range(3):
        qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert dialog.error.isVisible() and dialog.error.text() == "not enough EP: has 2"
    assert not dialog.go_button.isEnabled()
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    qtbot.mouseClick(dialog.typed, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.dice_edit, "7 x")
    assert "not a die face" in dialog.error.text() and not dialog.go_button.isEnabled()
    dialog.dice_edit.clear()
    qtbot.keyClicks(dialog.dice_edit, "7 3 9; 4")
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    assert seen == [("attack", {"maneuver": "fierce", "ep": 2, "all_out": False, "note": ""},
                     [[7, 3, 9], [4]])]
    assert dialog.result_label.text() == "Kaede hits Brannock for 2 health levels."
    assert not dialog.go_button.isVisible()


def test_action_dialog_fits_each_form_and_offers_dice_only_to_a_rolling_one(qtbot: Any) -> None:
    """Switching from a form with many fields to one with none leaves no empty band
    above the preview (the dialog takes the short form's height), and a form that rolls
    nothing offers no dice; back on the long form, the dice are offered again."""
    stance = ActionForm("stance", "Defensive stance", verb="Apply", rolls=False)

    def preview(form_id: str, values: dict) -> Preview:
        return Preview(lines=("the next 3 defenses are free",) if form_id == "stance"
                       else ("speed 4",))

    dialog = ActionDialog("Kaede", (_form(), stance), preview, lambda *_: (True, "done"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    tall = dialog.height()
    assert not dialog.typed.isHidden() and dialog.preview_box.title() == "Before the roll"
    dialog.form_box.setCurrentIndex(1)
    assert dialog.fields_box.isHidden()
    for widget in (dialog.app_rolls, dialog.typed, dialog.dice_edit):
        assert widget.isHidden()
    assert dialog.preview_box.title() == "What it does"
    # No band: the form row, the preview and the buttons take the whole height.
    layout = dialog.layout()
    assert layout is not None
    qtbot.waitUntil(lambda: dialog.height() <= layout.totalSizeHint().height() + 1)
    assert dialog.height() < tall
    dialog.form_box.setCurrentIndex(0)
    qtbot.waitUntil(lambda: dialog.height() >= tall - 1)
    assert not dialog.typed.isHidden() and not dialog.fields_box.isHidden()


def test_action_dialog_sends_a_waiting_rolls_dice_to_the_roll_panel(qtbot: Any) -> None:
    """An attack whose roll waits on the roll panel (helpers and defenders join it first)
    offers no dice of its own: it says the roll panel takes them, and sends none, even
    with dice typed in on a form before it."""
    strike = ActionForm("strike", "Strike", verb="Strike", roll_waits=True)
    seen: list[tuple[str, dict, list]] = []

    def submit(form_id: str, values: dict, dice: list) -> tuple[bool, str]:
        seen.append((form_id, values, dice))
        return True, "the strike waits on the roll panel"

    dialog = ActionDialog("Kaede", (_form(), strike), lambda *_: Preview(lines=("speed 4",)),
                          submit)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.roll_waits_note.isHidden()
    qtbot.mouseClick(dialog.typed, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.dice_edit, "7 3")
    dialog.form_box.setCurrentIndex(1)
    for widget in (dialog.app_rolls, dialog.typed, dialog.dice_edit):
        assert widget.isHidden()
    assert not dialog.roll_waits_note.isHidden() and "roll panel" in dialog.roll_waits_note.text()
    assert dialog.preview_box.title() == "Before the roll" and dialog.go_button.text() == "Strike"
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    assert seen == [("strike", {}, [])]


def _stack_dialog_of_one_jab(qtbot: Any,
                             engine: PracticeEngine) -> tuple[InterruptStackDialog, StackModel]:
    """The interrupt stack dialog over a stack of one move (Kaede Moriyama's Jab), and
    the stack's model."""
    stack, fighters = StackModel(), FightersModel()
    stack.set_engine(engine)
    fighters.set_engine(engine)
    engine.practice.stack_rows = [StackRow("m1", "kaede", "Kaede Moriyama", "Jab", "6", 8, 0, "free")]
    stack.refresh()
    dialog = InterruptStackDialog(stack, fighters)
    qtbot.addWidget(dialog)
    return dialog, stack


def test_stack_dialog_keys_resolve_on_either_enter_key(qtbot: Any, engine: PracticeEngine) -> None:
    """Ctrl+Enter resolves the next move and Ctrl+Shift+Enter all of them, on the main
    Enter key and the keypad's, whichever widget of the dialog has the focus, at once
    (the keypad's Ctrl+Shift+Enter used to resolve only the next: the dialog's default
    button took it); nothing while resolving is not allowed."""
    dialog, _ = _stack_dialog_of_one_jab(qtbot, engine)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    asked: list[str] = []
    dialog.resolveNextRequested.connect(lambda: asked.append("next"))
    dialog.resolveAllRequested.connect(lambda: asked.append("all"))
    ctrl, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
    keypad = Qt.KeyboardModifier.KeypadModifier
    presses = [(Qt.Key.Key_Return, ctrl, "next"), (Qt.Key.Key_Return, ctrl | shift, "all"),
               (Qt.Key.Key_Enter, ctrl | keypad, "next"),
               (Qt.Key.Key_Enter, ctrl | shift | keypad, "all")]
    for focus in (dialog.table, dialog.fighter_box):
        focus.setFocus()
        for key, modifiers, wanted in presses:
            qtbot.keyClick(focus, key, modifiers)
            assert asked == [wanted], (focus.objectName(), key, modifiers)
            asked.clear()
    dialog.set_controls(can_resolve=False, can_cancel=True)
    for key, modifiers, _ in presses:
        qtbot.keyClick(dialog.table, key, modifiers)
    assert asked == []


def test_parse_typed_dice() -> None:
    assert parse_typed_dice("7 3, 9 | 4;") == [[7, 3, 9], [4]]
    assert parse_typed_dice("  ") == []


def test_stack_dialog_closes_only_when_empty_or_cancelled(qtbot: Any, engine: PracticeEngine) -> None:
    dialog, stack = _stack_dialog_of_one_jab(qtbot, engine)
    dialog.show()
    assert not dialog.close_button.isEnabled()
    # Escape cancels the stack where cancelling is allowed...
    with qtbot.waitSignal(dialog.cancelRequested):
        dialog.reject()
    assert dialog.isVisible()
    # ...and only says why where it is not.
    dialog.set_controls(can_resolve=True, can_cancel=False)
    dialog.reject()
    assert dialog.isVisible() and "Resolve or cancel" in dialog.error.text()
    dialog.set_controls(can_resolve=True, can_cancel=True)
    dialog.select_fighter("brannock")
    with qtbot.waitSignal(dialog.addRequested) as added:
        qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert added.args == ["brannock"]
    with qtbot.waitSignal(dialog.resolveNextRequested):
        qtbot.mouseClick(dialog.resolve_next, Qt.MouseButton.LeftButton)
    dialog.mark_cancelled()
    assert dialog.close_button.isEnabled()
    engine.practice.stack_rows = []
    stack.refresh()
    assert dialog.close_button.isEnabled() and not dialog.resolve_next.isEnabled()
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


def test_decision_panel_answers(qtbot: Any) -> None:
    panel = DecisionPanel()
    qtbot.addWidget(panel)
    panel.show()
    decision = Decision(id="d1", prompt="Dodge for 1 EP?", choices=[
        Choice(id="dodge", label="Dodge"), Choice(id="accept", label="Take 3")], dice_needed="2d10")
    panel.show_decision(decision)
    assert panel.isVisible() and panel.prompt.text() == "Dodge for 1 EP?"
    qtbot.keyClicks(panel.dice, "4 9")
    with qtbot.waitSignal(panel.answered) as answered:
        qtbot.mouseClick(panel.findChild(QPushButton, "choice-dodge"), Qt.MouseButton.LeftButton)
    assert answered.args == ["d1", "dodge", -1, [[4, 9]]]
    panel.show_decision(Decision(id="d2", prompt="EP damage dice?", minimum=0, maximum=2))
    qtbot.keyClick(panel.amount, Qt.Key.Key_Up)
    with qtbot.waitSignal(panel.answered) as answered:
        qtbot.mouseClick(panel.amount_ok, Qt.MouseButton.LeftButton)
    assert answered.args == ["d2", "", 1, []]
    panel.show_decision(None)
    assert not panel.isVisible()


def test_dice_bar_log_and_revert_in_the_window(window: Any, qtbot: Any, engine: PracticeEngine) -> None:
    window.show_session(engine, None)
    qtbot.keyClicks(window.dice_bar.edit, "5d10>=6")
    qtbot.keyClick(window.dice_bar.edit, Qt.Key.Key_Return)
    assert window.dice_bar.result.text().startswith("rolled 5d10>=6: ")
    assert engine.session.log[-1].command["kind"] == "free-roll"
    window.dice_bar.edit.clear()
    qtbot.keyClicks(window.dice_bar.edit, "3x")
    qtbot.keyClick(window.dice_bar.edit, Qt.Key.Key_Return)
    assert window.dice_bar.error.isVisible() and "not dice notation" in window.dice_bar.error.text()
    assert len(engine.session.log) == 1
    window.dice_bar.edit.clear()
    qtbot.keyClicks(window.dice_bar.edit, "1d100+20")
    qtbot.keyClick(window.dice_bar.edit, Qt.Key.Key_Return)
    tree = window.log_view.tree
    assert window.log_model.rowCount() == 2
    rect = tree.visualRect(window.log_model.index(0, 1))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.log_view.revert_button.isEnabled()
    qtbot.mouseClick(window.log_view.revert_button, Qt.MouseButton.LeftButton)
    assert len(engine.session.log) == 1 and window.log_model.rowCount() == 1
    assert window.redo_action.isEnabled()
    window.redo_action.trigger()
    assert window.log_model.rowCount() == 2


def test_dark_palette_reaches_the_widgets(window: Any, dark: QPalette, engine: PracticeEngine) -> None:
    window.show_session(engine, None)
    image = window.timeline.grab().toImage()
    corner = image.pixelColor(image.width() // 2, image.height() - 5)
    assert corner.lightness() < 100  # the dark Base, not a hard-coded white
    assert window.cards.cards()[0].palette().color(QPalette.ColorRole.Base).lightness() < 100


def test_log_details_show_the_selected_entry_in_full(window: Any, qtbot: Any,
                                                      engine: PracticeEngine) -> None:
    window.show_session(engine, None)
    long_note = "The harbour crane swings loose " + "and the crowd scatters " * 12 + "END"
    engine.apply(c.Note(text=long_note))
    engine.apply(c.FreeRoll(notation="3d10", who="Kaede Moriyama", dice=[[7, 2, 9]]))
    engine.apply(c.FreeRoll(notation="2d6", who="Brannock Vale"))
    view, tree, model = window.log_view, window.log_view.tree, window.log_model
    assert view.details.toPlainText() == ""
    # the long note: cut off in the tree, whole (wrapped) in the pane
    rect = tree.visualRect(model.index(0, 1))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert long_note in " ".join(view.details.toPlainText().split())
    # the typed-in roll, selected by one of its event rows: who, dice, faces, source
    entry = model.index(1, 0)
    tree.expand(entry)
    rect = tree.visualRect(model.index(0, 1, entry))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    text = view.details.toPlainText()
    roll = engine.session.log[1].events[0].roll
    assert roll is not None and roll.faces == [7, 2, 9]
    assert engine.session.log[1].summary in text
    assert "Kaede Moriyama: 3d10" in text and "typed in by the GM" in text
    assert "faces: 7, 2, 9" in text
    if roll.outcome:
        assert f"outcome: {roll.outcome}" in text
    assert view.revert_button.isEnabled()
    # the app's roll
    rect = tree.visualRect(model.index(2, 1))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    text = view.details.toPlainText()
    assert "Brannock Vale: 2d6" in text and "rolled by the app" in text
    assert not view.revert_button.isEnabled()  # the last entry: nothing to revert
    # undo takes the shown entry away: the pane does not keep showing it
    window.undo_action.trigger()
    assert model.rowCount() == 2
    assert "Brannock Vale" not in view.details.toPlainText()


def test_cards_fill_the_width_and_reflow_on_resize(qtbot: Any, engine: PracticeEngine) -> None:
    view = shown_cards(qtbot, engine, width=560)
    qtbot.waitExposed(view)
    kaede, brannock, thugs = view.cards()
    assert view.columns() == 2
    # side by side, then the third under the first; the row fills the width
    assert kaede.y() == brannock.y() < thugs.y() and kaede.x() == thugs.x() < brannock.x()
    assert view.viewport().width() - brannock.geometry().right() < 16 + 2
    view.resize(900, 600)
    qtbot.waitUntil(lambda: view.columns() == 3)
    qtbot.waitUntil(lambda: kaede.y() == brannock.y() == thugs.y()
                    and kaede.x() < brannock.x() < thugs.x())
    view.resize(300, 600)
    qtbot.waitUntil(lambda: view.columns() == 1)
    qtbot.waitUntil(lambda: kaede.y() < brannock.y() < thugs.y())
    # Tab goes through the cards in fight order, whatever the layout
    chain = [w for card in view.cards() for w in card.focus_chain()]
    stops = set(chain)
    for first, second in pairwise(chain):
        following = first.nextInFocusChain()
        while following not in stops:  # the cards and layouts' own widgets take no focus
            assert following is not None
            following = following.nextInFocusChain()
        assert following is second


def test_round_status_stays_in_the_toolbar_when_long(window: Any, qtbot: Any,
                                                     engine: PracticeEngine) -> None:
    window.show_session(engine, None)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    line = "Round 1 · phase 10 · " + "a long question the ruleset asks the GM " * 4
    window.state_label.setText(line)
    window.round_bar.layout().invalidate()
    # shrunk and elided, not moved into the toolbar's overflow menu (which hides it)
    qtbot.waitUntil(lambda: window.state_label.isVisible() and window.state_label.width() > 100)
    assert window.state_label.text() == line and window.state_label.toolTip() == plain_tip(line)
    assert window.state_label.geometry().right() <= window.round_bar.width()
