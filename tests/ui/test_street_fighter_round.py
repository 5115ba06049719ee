"""One whole street-fighter round driven through the real widgets with mouse and key
events only: start the round, act on a phase, interrupt twice (depth two), resolve the
stack, undo it as one step, redo it, end the round. The demo fight's seed fixes the
dice: Dock Thug 1 rolls the 10, Brannock a 9, 5 and 4, Kaede 6, 6, 5 and 2."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton, QSpinBox, QWidget

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.action_dialog import ActionDialog


def click(qtbot: Any, widget: QWidget) -> None:
    assert widget.isVisible() and widget.isEnabled(), widget.objectName() or widget
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def toolbar_button(window: Any, action: Any) -> QWidget:
    return window.round_bar.widgetForAction(action)


def open_dialog(qtbot: Any, window: Any) -> ActionDialog:
    found: list[ActionDialog] = []

    def shown() -> bool:
        found[:] = [d for d in window.findChildren(ActionDialog) if d.isVisible()]
        return bool(found)

    qtbot.waitUntil(shown, timeout=2000)
    return found[0]


def answer_decisions(qtbot: Any, panel: Any) -> int:
    """Click the first answer (or OK on an amount) while the panel asks something."""
    answered = 0
    while panel is not None and panel.isVisible():
        buttons = [b for b in panel.findChildren(QPushButton)
                   if b.objectName().startswith("choice-") and b.isVisible()]
        click(qtbot, buttons[0] if buttons else panel.amount_ok)
        answered += 1
        assert answered < 20, (panel.prompt.text(), panel.error.text())
    return answered


def choose(qtbot: Any, combo: Any, starts: str) -> None:
    """Pick a combo entry with the arrow keys, as a GM on the keyboard would."""
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        if combo.currentText().startswith(starts):
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText().startswith(starts), combo.currentText()


def dump(engine: Engine) -> dict:
    return engine.encounter.model_dump(mode="json")


def test_one_street_fighter_round_through_the_widgets(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    enc = engine.encounter

    # Start the fight, round 1, roll the action dice: the one forward button each time.
    forward = window.forward_button
    assert forward.text() == "Start the fight"
    click(qtbot, forward)
    assert forward.text() == "Start round 1"
    click(qtbot, forward)
    assert forward.text() == "Roll action dice" == window.next_step_action.text()
    click(qtbot, forward)
    # Kaede's player rolls her own dice: she is asked; "-" lets the app roll them.
    asked = window.decision_panel
    assert asked.prompt.text().startswith("Kaede Moriyama: roll the action dice")
    qtbot.keyClicks(asked.dice, "-")
    click(qtbot, asked.findChild(QPushButton, "choice-roll"))
    assert enc.state.phase == 10
    assert window.round_title.text().startswith("Round 1 · phase 10")
    assert forward.text() == "Act: Dock Thug 1\N{HORIZONTAL ELLIPSIS}"
    assert window.timeline.timeline().current_column == 0

    # Dock Thug 1 lets the 10 go (Pass); the decision panel asks hold or lose: lose it.
    assert window.pass_action.text() == "Dock Thug 1 lets the 10 go"
    click(qtbot, toolbar_button(window, window.pass_action))
    assert window.decision_panel.isVisible()
    click(qtbot, window.decision_panel.findChild(QPushButton, "choice-lose"))
    assert not window.decision_panel.isVisible()
    assert forward.text() == "Next phase (9)"
    click(qtbot, forward)
    assert enc.state.phase == 9 and window.timeline.timeline().current_column == 1
    brannock_card = window.cards.card("brannock")
    assert brannock_card.is_acting()

    # Act on phase 9: click Brannock's 9 on the timeline, choose Roundhouse, roll.
    before_stack = dump(engine)
    steps_before = window.document.undo_stack.index()
    chip = window.timeline.chip_rect("brannock:1")
    assert not chip.isEmpty()
    qtbot.mouseClick(window.timeline.viewport(), Qt.MouseButton.LeftButton, pos=chip.center())
    dialog = open_dialog(qtbot, window)
    form = dialog.current_form()
    assert form is not None and form.id == "act"
    choose(qtbot, dialog.input("maneuver"), "Roundhouse")
    assert dialog.values()["maneuver"] == "Roundhouse"
    assert "Speed 8" in dialog.preview_lines.text()
    assert "%" in dialog.odds_label.text() and not re.search(r"\d/\d", dialog.odds_label.text())
    assert "exactly" in dialog.odds_label.toolTip() and re.search(r"\d/\d", dialog.odds_label.toolTip())
    click(qtbot, dialog.go_button)
    # Applied and closed in one click; the result in the status bar.
    assert not dialog.isVisible()
    assert "Roundhouse on Kaede Moriyama" in window.statusBar().currentMessage()

    # The stack dialog opens with the one move; Kaede interrupts it (+1 EP of speed).
    stack_dialog = window._stack_dialog
    qtbot.waitUntil(lambda: stack_dialog is not None and stack_dialog.isVisible())
    stack_dialog = window._stack_dialog
    assert stack_dialog.table.model().rowCount() == 1
    assert not stack_dialog.close_button.isEnabled()
    choose(qtbot, stack_dialog.fighter_box, "Kaede")
    click(qtbot, stack_dialog.add_button)
    dialog = open_dialog(qtbot, window)
    form = dialog.current_form()
    assert form is not None and form.id == "interrupt"
    spin = dialog.input("ep_speed")
    assert isinstance(spin, QSpinBox)
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert dialog.values()["ep_speed"] == 1
    click(qtbot, dialog.go_button)
    assert not dialog.isVisible()
    assert stack_dialog.table.model().rowCount() == 2

    # Brannock interrupts Kaede's interrupt: without EP his Jab is 7, not above 8 (shown inline).
    choose(qtbot, stack_dialog.fighter_box, "Brannock")
    click(qtbot, stack_dialog.add_button)
    dialog = open_dialog(qtbot, window)
    form = dialog.current_form()
    assert form is not None and form.id == "interrupt"
    assert dialog.error.isVisible() and "not above" in dialog.error.text()
    assert not dialog.go_button.isEnabled()
    qtbot.keyClick(dialog.input("ep_speed"), Qt.Key.Key_Up)
    assert not dialog.error.isVisible() and dialog.go_button.isEnabled(), dialog.error.text()
    click(qtbot, dialog.go_button)
    assert not dialog.isVisible()

    # Depth two: Brannock's Jab interrupts Kaede's Jab, which interrupts his Roundhouse.
    moves = {m.id: m for m in enc.state.stack}
    depth = {m.id: 0 for m in enc.state.stack}
    for m in enc.state.stack:
        if m.interrupts is not None:
            depth[m.id] = depth[m.interrupts] + 1
    assert max(depth.values()) == 2 and len(moves) == 3
    table = stack_dialog.table.model()
    shown_rows = [[table.index(r, c).data() for c in range(6)] for r in range(table.rowCount())]
    assert shown_rows == [[row.fighter, row.action, row.source,
                           "" if row.speed is None else str(row.speed), str(row.spent), row.cost]
                          for row in engine.ruleset.views.stack(enc)]
    assert shown_rows[0][0] == "Kaede Moriyama" and shown_rows[0][3] == "10"  # fastest first
    assert not stack_dialog.close_button.isEnabled()

    # Resolve it all, answering each decision in the stack dialog.
    while enc.state.stack:
        if window._stack_decision.isVisible():
            answer_decisions(qtbot, window._stack_decision)
        elif stack_dialog.resolve_all.isEnabled():
            click(qtbot, stack_dialog.resolve_all)
        else:
            raise AssertionError(f"stuck: {window.round_title.text()} {window.state_label.text()}")
    assert engine.pending() is None
    assert table.rowCount() == 0 and stack_dialog.close_button.isEnabled()
    click(qtbot, stack_dialog.close_button)
    assert not stack_dialog.isVisible()
    after_stack = dump(engine)
    assert after_stack != before_stack
    assert window.document.undo_stack.index() == steps_before + 1  # one undo step
    log_rows = window.log_model.rowCount()

    # Undo the whole stack as one step (Ctrl+Z), then redo it (Ctrl+Shift+Z).
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert dump(engine) == before_stack
    assert window.log_model.rowCount() < log_rows
    assert brannock_card.is_acting() and "9" in window.timeline.timeline().lanes[1].chips[0].label
    assert window.timeline.timeline().lanes[1].chips[0].state == "ready"
    qtbot.keyClick(window, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert dump(engine) == after_stack
    assert window.log_model.rowCount() == log_rows
    assert window.cards.card("brannock").health.format() == (
        f"Health {enc.fighters['brannock'].status.health}/12")

    # End the round: it says which dice go unplayed and asks; then they are offered as
    # EP or lost; answer, and the round is over.
    click(qtbot, toolbar_button(window, window.end_round_action))
    question = window._end_round_box
    assert question is not None and "unused dice" in question.text()
    click(qtbot, question.findChild(QPushButton, "endRoundButton"))
    answer_decisions(qtbot, window.decision_panel)
    assert enc.state.stage == "round-over"
    assert window.round_title.text().startswith("Round 1 over")
    assert window.start_round_action.isEnabled()
    assert engine.rebuild().model_dump(mode="json") == dump(engine)


def test_cancelling_the_stack_gives_back_dice_and_ep(window: Any, qtbot: Any) -> None:
    from fightdesk.engine import commands as c

    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    enc = engine.encounter
    doc = window.document
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert doc.apply(command).ok
    asked = engine.pending()  # Kaede rolls her own action dice: the GM lets the app roll
    assert asked is not None and asked.id.startswith("action-dice-kaede")
    assert doc.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    assert doc.apply(c.NextStep()).ok
    decision = engine.pending()
    assert decision is not None
    doc.apply(c.Answer(decision_id=decision.id, choice="lose"))
    doc.apply(c.NextStep())
    rules = engine.ruleset

    def act(fid: str, form: str, **values: object) -> None:
        chosen = next(f for f in rules.views.action_forms(enc, fid) if f.id == form)
        data = {f.name: f.default for f in chosen.fields}
        data.update(values)
        assert doc.apply(rules.views.build_command(form, fid, data)).ok

    act("brannock", "act", maneuver="Roundhouse")
    before_interrupt = dump(engine)
    act("kaede", "interrupt", ep_speed=1)
    stack_dialog = window._stack_dialog
    assert stack_dialog is not None and stack_dialog.isVisible()
    assert stack_dialog.table.model().rowCount() == 2 and enc.fighters["kaede"].status.ep == 1
    click(qtbot, stack_dialog.cancel_button)
    # Kaede's die and both EP are back; Brannock's action still waits.
    after = dump(engine)["fighters"]["kaede"]["status"]
    before = before_interrupt["fighters"]["kaede"]["status"]
    assert (after["dice"], after["ep"]) == (before["dice"], before["ep"])
    assert stack_dialog.table.model().rowCount() == 1
    click(qtbot, stack_dialog.close_button)
    assert not stack_dialog.isVisible() and window.stack_action.isEnabled()
