"""The shared core in the real window, driven through the widgets by the drill ruleset
(tests/drill_ruleset.py): the initiative rows, drag-reorder allowed and refused, the turn
timer running out, a contribution added and taken back with the odds changing, typed
dice for one roll only, heads and tails in the log, a condition counting down and ending,
and a ruleset whose rules are not built yet."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.engine.ruleset import RULESETS, Ruleset, get_ruleset
from fightdesk.engine.turn_ruleset import TurnAutopilot, TurnOrderRules, TurnViews
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.library import new_fighter
from fightdesk.ui.plain import plain_tip
from tests.drill_ruleset import DrillEngine, Feint, drill_engine

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

SHOTS = Path(__file__).resolve().parents[2] / "build" / "shots"


def shown(window: MainWindow, seed: int = 7) -> DrillEngine:
    engine = drill_engine(seed)
    window.show_session(engine, None)
    return engine


def start_round(window: MainWindow, qtbot: QtBot, kaede: str = "5", brannock: str = "") -> None:
    """Start Round, then the initiative rows: Kaede's player's roll typed, Brannock's left
    for the app."""
    window.start_round_action.trigger()
    panel = window.decision_panel
    assert panel.isVisible()
    assert panel.prompt.text() == ("Each player rolls Wisdom (d20, at or under) "
                                   "(answered by the players)")
    kaede_row = panel.field_input("kaede")
    brannock_row = panel.field_input("brannock")
    assert isinstance(kaede_row, QLineEdit) and isinstance(brannock_row, QLineEdit)
    assert brannock_row.placeholderText() == "1..20, blank: the app rolls"
    qtbot.keyClicks(kaede_row, kaede)
    if brannock:
        qtbot.keyClicks(brannock_row, brannock)
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)


def test_initiative_rows_typed_and_rolled_then_the_turns_on_the_timeline(
        window: MainWindow, qtbot: QtBot) -> None:
    engine = shown(window)
    start_round(window, qtbot, kaede="25")
    assert window.decision_panel.error.text() == "Kaede's Wisdom roll: '25' is not a number from 1 to 20"
    assert engine.encounter.state.stage == "initiative"
    row = window.decision_panel.field_input("kaede")
    assert isinstance(row, QLineEdit)
    row.clear()
    qtbot.keyClicks(row, "5")
    qtbot.mouseClick(window.decision_panel.fields_ok, Qt.MouseButton.LeftButton)
    assert engine.encounter.state.stage == "turns"
    entry = engine.session.log[-1]
    assert entry.command["by"] == "the players"
    timeline = window.timeline.timeline()
    assert timeline is not None and timeline.columns == ("Quick", "Slow")
    assert timeline.movable and timeline.column_ids == ("quick", "slow")
    assert timeline.lanes[0].title == "Kaede"
    assert timeline.lanes[0].chips[0].state == "acting"
    assert window.round_title.text().startswith("Round 1 · quick, Kaede's turn")


def _lane_point(window: MainWindow, lane_no: int, column: int) -> QPoint:
    view = window.timeline
    rect = view._lane_rect(lane_no)
    return QPoint(view._column_x(column) + 10, rect.center().y())


def test_drag_a_turn_inside_its_section_and_a_refused_drag_across(
        window: MainWindow, qtbot: QtBot) -> None:
    engine = shown(window)
    start_round(window, qtbot, kaede="5", brannock="15")
    view = window.timeline
    tl = view.timeline()
    assert tl is not None
    assert [lane.id for lane in tl.lanes] == ["kaede", "brannock", "thug-1", "thug-2"]
    # Drag Thug 2 (lane 3) above Brannock (lane 1), in the Slow column: allowed.
    viewport = view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=_lane_point(window, 3, 1))
    qtbot.mouseMove(viewport, _lane_point(window, 2, 1))
    top = view._lane_rect(1).top() + 3
    qtbot.mouseMove(viewport, QPoint(_lane_point(window, 1, 1).x(), top))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=QPoint(_lane_point(window, 1, 1).x(), top))
    slow = engine.encounter.state.turns.sections[1]
    assert [s.fighter_id for s in slow.slots] == ["thug-2", "brannock", "thug-1"]
    assert engine.session.log[-1].summary == "GM moved Thug 2's turn (Slow, place 1)"
    # Drag Thug 1 into the Quick column, above Kaede: refused, with the reason.
    lanes = [lane.id for lane in (view.timeline() or tl).lanes]
    thug1 = lanes.index("thug-1")
    logged = len(engine.session.log)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=_lane_point(window, thug1, 1))
    target = QPoint(_lane_point(window, 0, 0).x(), view._lane_rect(0).top() + 3)
    qtbot.mouseMove(viewport, _lane_point(window, 1, 0))
    qtbot.mouseMove(viewport, target)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=target)
    assert len(engine.session.log) == logged
    assert window.statusBar().currentMessage() == (
        "Not moved: Thug 1 cannot go there: a turn moves only inside its own section")
    # The allowed move is one undoable step.
    window.document.undo_stack.undo()
    assert [s.fighter_id for s in engine.encounter.state.turns.sections[1].slots] == [
        "brannock", "thug-1", "thug-2"]


def test_the_turn_timer_counts_down_and_passes_the_turn(window: MainWindow, qtbot: QtBot) -> None:
    engine = shown(window)
    engine.drill_rules.timer_seconds = 30
    now = [1000.0]
    window.views.clock = lambda: now[0]  # type: ignore[method-assign]
    start_round(window, qtbot)
    assert window.turn_clock.isActive()
    assert window.timeline.countdown() == "0:30"
    now[0] += 21.5
    window.views.tick_turn_timer()
    assert window.timeline.countdown() == "0:09"
    assert current_fighter(engine.encounter.state.turns) == "kaede"
    now[0] += 9
    window.views.tick_turn_timer()
    assert current_fighter(engine.encounter.state.turns) == "brannock"
    assert any(e.text == "Time is up: Kaede's turn passes" for e in engine.session.log[-1].events)
    assert window.timeline.countdown() == "0:30"  # Brannock's turn has its own 30 seconds
    logged = len(engine.session.log)
    window.views.tick_turn_timer()
    assert len(engine.session.log) == logged


def test_a_contribution_added_and_taken_back_changes_the_odds_then_a_typed_roll(
        window: MainWindow, qtbot: QtBot) -> None:
    engine = shown(window, seed=11)
    start_round(window, qtbot)
    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    # Brannock is Kaede's teammate here (the form starts on an enemy): pick him.
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("brannock"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    assert panel.isVisible()
    assert panel.title.text() == "Kaede strikes Brannock (Kaede rolls 1d20)"
    assert panel.odds.text() == "11 or less on a d20: 55%"  # 14 - (13 - 10)
    assert panel.odds.toolTip() == plain_tip("11 or less on a d20: exactly 11/20 (55.0%)")
    options = [panel.option.itemText(i) for i in range(panel.option.count())]
    assert options == ["Brannock: brace (-2) (1 assist)", "Thug 1: assist (1 assist a point)"]
    panel.option.setCurrentIndex(1)
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert panel.odds.text() == "12 or less on a d20: 60%"
    assert engine.encounter.fighters["thug-1"].status.assists == 0
    contribution = engine.encounter.state.roll.contributions[0].id
    qtbot.mouseClick(panel.take_back_button(contribution), Qt.MouseButton.LeftButton)
    assert panel.odds.text() == "11 or less on a d20: 55%"
    assert engine.encounter.fighters["thug-1"].status.assists == 1
    # The player's roll typed for the strike only; the app rolls the damage.
    qtbot.keyClicks(panel.dice, "4")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert not panel.isVisible()
    rolls = [e.roll for e in engine.session.log[-1].events if e.roll]
    assert [(r.purpose, r.source, r.faces[0] if r.source == "typed" else None) for r in rolls] == [
        ("Kaede strikes Brannock", "typed", 4), ("damage", "app", None)]
    # The whole exchange is one undo step.
    window.document.undo_stack.undo()
    assert engine.encounter.state.roll is None
    assert engine.encounter.fighters["brannock"].status.hp == 12
    assert current_fighter(engine.encounter.state.turns) == "kaede"


def test_heads_and_tails_in_the_log(window: MainWindow, qtbot: QtBot) -> None:
    engine = shown(window)
    start_round(window, qtbot)
    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    window.document.apply(Feint(fighter_id="kaede", target_id="thug-2", dice=[[2, 1]]))
    dialog.close()
    model = window.log_model
    last = model.index(model.rowCount() - 1, 1)
    texts = [model.index(r, 1, last.siblingAtColumn(0)).data() for r in range(model.rowCount(last.siblingAtColumn(0)))]
    assert "Kaede: 2 coins for feint typed in [H T] -> 1 heads" in texts
    assert engine.encounter.fighters["thug-2"].status.hp == 6


def test_a_condition_counts_down_on_the_card_and_ends(window: MainWindow, qtbot: QtBot) -> None:
    engine = shown(window)
    assert window.document.apply(c.AddCondition(fighter_id="thug-1", name="Shoved",
                                                duration="rounds", rounds=2)).ok
    card = window.cards.card_for_fighter("thug-1")
    assert card is not None
    assert "Shoved · 2 rounds" in card.conditions.text()
    for left in ("1 round", None):
        start_round(window, qtbot)
        window.end_round_action.trigger()
        text = card.conditions.text()
        if left:
            assert f"Shoved · {left}" in text
        else:
            assert "Shoved" not in text
    ended = [e.text for e in engine.session.log[-1].events if e.kind == "condition-off"]
    assert ended == ["Thug 1 is no longer shoved"]


def test_a_fight_whose_rules_are_not_built_yet(window: MainWindow, qtbot: QtBot,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Every ruleset is built now; the flag still guards a ruleset added before its rules:
    # its data models and the shared turn-order base, nothing of its own yet.
    class NotBuilt(TurnOrderRules):
        id = "ashes"
        title = get_ruleset("ashes").title
        rules_built = False

    rules = NotBuilt()
    views = TurnViews(rules)
    monkeypatch.setitem(RULESETS, "ashes", Ruleset(rules, views, TurnAutopilot(rules, views)))
    engine = Engine(Session.begin(new_encounter("ashes", "Ash road")))
    window.show_session(engine, None)
    fighter = new_fighter("ashes", "Vera").model_dump(mode="json")
    assert window.document.apply(c.AddFighters(fighter=fighter)).ok
    assert window.cards.card("vera") is not None
    assert not window.start_round_action.isEnabled() and not window.act_action.isEnabled()
    assert "From the Ashes: rules not built yet" in window.state_label.text()
    window.open_action_dialog("vera", role="act")
    assert window.statusBar().currentMessage() == "From the Ashes: rules not built yet"


def test_new_fight_asks_the_ruleset(window: MainWindow, qtbot: QtBot, monkeypatch: object) -> None:
    from PySide6.QtCore import QTimer

    from fightdesk.ui.ruleset_choice import RulesetChoice

    seen: list[str] = []

    def pick() -> None:
        dialog = window.findChild(RulesetChoice)
        assert dialog is not None
        seen.extend(dialog.list.item(i).text() for i in range(dialog.list.count()))
        dialog.list.setCurrentRow(1)
        dialog.accept()  # before any check: a failed check must not leave the dialog open

    QTimer.singleShot(0, pick)
    window.new_fight()
    assert seen[0].startswith("Street Fighter\n")
    assert seen[1].startswith("d100\n")
    assert "not built" not in seen[1] and "not built" not in seen[2]  # d100, roll-under
    engine = window.document.engine
    assert engine is not None and engine.encounter.ruleset == "d100"


def test_a_choice_shows_its_chance_and_the_stack_its_rulesets_columns(
        window: MainWindow, qtbot: QtBot) -> None:
    from fightdesk.engine.base import Choice, Decision
    from fightdesk.storage.sessions import demo_session

    panel = window.decision_panel
    panel.show_decision(Decision(id="d", prompt="Defend how?", asks="Kaede's player", choices=[
        Choice(id="parry", label="Parry", chance="13/20"),
        Choice(id="dodge", label="Dodge", chance="1/200"), Choice(id="take", label="Take it")]))
    buttons = [panel.findChild(QPushButton, f"choice-{c}") for c in ("parry", "dodge", "take")]
    assert [b.text() for b in buttons if b is not None] == [
        "&1 Parry · 65%", "&2 Dodge · <1%", "&3 Take it"]
    assert buttons[0] is not None and buttons[0].toolTip() == plain_tip(
        "Answer: Parry (Alt+1)\nChance of success: 13/20")
    assert panel.prompt.text() == "Defend how? (answered by Kaede's player)"
    window.show_session(Engine(demo_session()), None)
    titles = [window.stack_model.headerData(i, Qt.Orientation.Horizontal) for i in range(6)]
    assert titles == ["Fighter", "Maneuver", "Die", "Speed", "EP spent", "Cost"]
    window.show_session(drill_engine(), None)
    titles = [window.stack_model.headerData(i, Qt.Orientation.Horizontal) for i in range(6)]
    assert titles == ["Fighter", "Action", "Uses", "Speed", "Spent", "Cost"]
    card = window.cards.card("kaede")
    assert card is not None and [b.text() for b in card.role_buttons.values()] == ["Act", "Brace"]


def test_remove_the_next_fighter_then_hold_offers_no_dice_and_only_those_to_come(
        window: MainWindow, qtbot: QtBot) -> None:
    """A GM removes the fighter whose turn is next (their lane leaves the timeline, undo
    brings it back), then opens Hold: the dialog lists only fighters whose turn is to
    come and offers no dice (holding rolls nothing), while Strike still does."""
    engine = shown(window)
    start_round(window, qtbot, kaede="5", brannock="15")
    assert engine.apply(c.SetValue(fighter_id="thug-2", field="status.hp", value=0)).ok
    window.cards.requested.emit("remove", "brannock")
    timeline = window.timeline.timeline()
    assert timeline is not None
    assert [lane.title for lane in timeline.lanes] == ["Kaede", "Thug 1", "Thug 2"]
    dialog = window.open_action_dialog("kaede")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("hold-turn"))
    hold = dialog.input("after")
    assert isinstance(hold, QComboBox)
    assert [hold.itemText(i) for i in range(hold.count())] == ["Thug 1"]
    for widget in (dialog.app_rolls, dialog.typed, dialog.dice_edit):
        assert widget.isHidden()
    assert dialog.preview_box.title() == "What it does"
    assert dialog.go_button.text() == "Hold" and dialog.go_button.isEnabled()
    SHOTS.mkdir(parents=True, exist_ok=True)
    qtbot.waitExposed(dialog)
    qtbot.wait(50)
    dialog.grab().save(str(SHOTS / "hold-dialog.png"))
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("act"))
    assert not dialog.app_rolls.isHidden() and dialog.preview_box.title() == "Before the roll"
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("hold-turn"))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    assert dialog.done_sentence == "Kaede holds to act right after Thug 1"
    dialog.close()
    assert current_fighter(engine.encounter.state.turns) == "thug-1"
    qtbot.wait(50)
    window.grab().save(str(SHOTS / "hold-after-remove.png"))
    window.undo_action.trigger()
    window.undo_action.trigger()
    timeline = window.timeline.timeline()
    assert timeline is not None
    assert [lane.title for lane in timeline.lanes] == ["Kaede", "Brannock", "Thug 1", "Thug 2"]
