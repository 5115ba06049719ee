"""Roll-under's surprise as a step of starting the fight, through the widgets: Start the
Fight asks who attacks by surprise, every fighter at once on the decision panel, and the
surprise step follows from the answer (docs/rulesets/roll-under.md#surprise)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QPushButton
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.base import Choice, Decision
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.engine.rulesets.roll_under.rules import AMBUSH_FIELD
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session
from fightdesk.ui.decision import DecisionPanel

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
DEMO = RESOURCES / "demo_roll-under.json"


def pick(window: MainWindow, fighter_id: str, answer: str) -> None:
    box = window.decision_panel.field_input(fighter_id)
    assert isinstance(box, QComboBox)
    box.setCurrentIndex(box.findData(answer))


def test_start_the_fight_asks_who_attacks_by_surprise_and_the_pcs_ambush(
        window: MainWindow, qtbot: QtBot) -> None:
    """The demo marks the sniper; the GM answers that the PCs ambush instead: the
    surprise step has the PCs and the Vault Warden (an enemy, the ambush's target, who
    cannot be surprised); undo takes the whole start back."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    # No card action marks an ambusher any more: the question does.
    for role in ("gm", "act"):
        dialog = window.open_action_dialog("miguel", role=role)
        if dialog is not None:
            labels = [dialog.form_box.itemText(i) for i in range(dialog.form_box.count())]
            assert not any("surprise" in label for label in labels)
            dialog.reject()

    window.start_fight_action.trigger()
    panel = window.decision_panel
    assert panel.isVisible()
    assert "who attacks by surprise" in panel.prompt.text()
    assert enc.round == 0 and not enc.state.surprise
    sniper = panel.field_input("rooftop-sniper")
    assert isinstance(sniper, QComboBox) and sniper.currentData() == "yes"  # as the demo marks
    for fid in enc.order:
        pick(window, fid, "yes" if enc.fighters[fid].side == "pc" else "no")
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)

    assert not panel.isVisible() and enc.state.pending is None
    assert enc.round == 1 and enc.state.surprise
    tl = window.timeline.timeline()
    assert tl is not None and tl.columns == ("Surprise",)
    assert [lane.title for lane in tl.lanes] == ["Miguel", "Ji-woo", "Tomasz", "Dee",
                                                 "Vault Warden"]
    assert current_fighter(enc.state.turns) == "miguel"
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == [
        "miguel", "ji-woo", "tomasz", "dee"]

    window.undo_action.trigger()
    assert enc.round == 0 and enc.state.stage == "setup" and enc.state.pending is None
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == ["rooftop-sniper"]


def test_nobody_ambushes_and_round_one_starts_with_its_initiative(
        window: MainWindow, qtbot: QtBot) -> None:
    """Answering nobody for every fighter: no surprise step, straight to round 1's
    Wisdom initiative."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    window.start_fight_action.trigger()
    for fid in enc.order:
        pick(window, fid, "no")
    qtbot.mouseClick(window.decision_panel.fields_ok, Qt.MouseButton.LeftButton)
    assert not enc.state.surprise and enc.state.stage == "initiative"
    pending = enc.state.pending
    assert pending is not None and pending.id.startswith("initiative-1")
    assert not any(f.status.ambusher for f in enc.fighters.values())


def test_one_pick_makes_a_whole_side_ambush_and_the_rows_count_only_as_picked(
        window: MainWindow, qtbot: QtBot) -> None:
    """The question's first field answers the common case at once: "The PCs' side" and
    Answer make every PC and ally an ambusher whatever their rows say (the Vault Warden,
    who cannot be surprised, acts with them); the rows count only with "As picked below",
    the field's default here because the demo marks the sniper."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    window.start_fight_action.trigger()
    panel = window.decision_panel
    who = panel.field_input(AMBUSH_FIELD)
    assert isinstance(who, QComboBox)
    assert [who.itemText(i) for i in range(who.count())] == [
        "Nobody", "The PCs' side", "The enemies' side", "As picked below"]
    assert who.currentData() == "picked"  # the demo's sniper is marked
    pick(window, "miguel", "no")  # a row that does not count once a side is picked
    pick(window, AMBUSH_FIELD, "party")
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)
    assert enc.state.surprise and enc.state.pending is None
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == [
        "miguel", "ji-woo", "tomasz", "dee"]
    tl = window.timeline.timeline()
    assert tl is not None and [lane.title for lane in tl.lanes] == [
        "Miguel", "Ji-woo", "Tomasz", "Dee", "Vault Warden"]

    window.undo_action.trigger()
    window.start_fight_action.trigger()
    pick(window, AMBUSH_FIELD, "enemies")
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)
    enemies = [f for f in enc.order if enc.fighters[f].side == "enemy"]
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == enemies
    assert current_fighter(enc.state.turns) == enemies[0]

    window.undo_action.trigger()
    window.start_fight_action.trigger()
    pick(window, "miguel", "yes")
    pick(window, AMBUSH_FIELD, "nobody")  # the rows (the sniper, Miguel) do not count
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)
    assert not enc.state.surprise and enc.state.stage == "initiative"
    assert not any(f.status.ambusher for f in enc.fighters.values())


def test_the_side_field_starts_on_nobody_and_offers_only_the_sides_in_the_fight(
        window: MainWindow, qtbot: QtBot) -> None:
    """With nobody marked, the question starts on "Nobody" (one Answer starts the fight
    with its initiative); a fight of PCs alone offers no enemies' side."""
    start = load_session(DEMO).start
    for fighter in start.fighters.values():
        fighter.status.ambusher = False
    engine = Engine(Session.begin(start))
    window.show_session(engine, None)
    enc = engine.encounter
    window.start_fight_action.trigger()
    who = window.decision_panel.field_input(AMBUSH_FIELD)
    assert isinstance(who, QComboBox) and who.currentData() == "nobody"
    qtbot.mouseClick(window.decision_panel.fields_ok, Qt.MouseButton.LeftButton)
    assert enc.state.stage == "initiative" and not enc.state.surprise

    start = load_session(DEMO).start
    for fid in [f.id for f in start.fighters.values() if f.side == "enemy"]:
        del start.fighters[fid]
        start.order.remove(fid)
    engine = Engine(Session.begin(start))
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    who = window.decision_panel.field_input(AMBUSH_FIELD)
    assert isinstance(who, QComboBox)
    assert [who.itemData(i) for i in range(who.count())] == ["nobody", "party", "picked"]


def test_the_start_questions_log_line_is_filed_under_the_fights_start(
        window: MainWindow, qtbot: QtBot) -> None:
    """The log's "When" of Start the Fight's question reads "Start" (its tooltip and the
    details pane say "Start of the fight"), apart from the setup edits before it."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    out = window.document.apply(c.AddCondition(fighter_id="miguel", name="Prone"))
    assert out.ok, out.error
    window.start_fight_action.trigger()
    model = window.log_view.tree.model()
    rows = [(model.index(r, 0).data(), model.index(r, 1).data()) for r in range(model.rowCount())]
    assert rows[-2][0] == "Setup"
    assert rows[-1] == ("Start", "Starting the fight: the GM picks who attacks by surprise")
    last = model.index(model.rowCount() - 1, 0)
    assert "(Start)" in str(last.data(Qt.ItemDataRole.ToolTipRole))
    window.log_view.tree.setCurrentIndex(last)
    assert "Start of the fight · log entry" in window.log_view.details.toPlainText()
    qtbot.mouseClick(window.decision_panel.fields_ok, Qt.MouseButton.LeftButton)
    assert model.index(model.rowCount() - 1, 0).data() == "Start"  # the answer folds under it


# --- questions answered from the keyboard ------------------------------------------------


def _focused() -> object:
    return QApplication.focusWidget()


def test_the_start_question_takes_the_focus_and_return_in_its_drop_down_answers_it(
        window: MainWindow, qtbot: QtBot) -> None:
    """Start the Fight's question puts the keyboard on its first drop-down: Up twice
    ("The PCs' side") and Return answer it with no click; the next question (the Wisdom
    rolls) has the focus on its first row, where Return answers too."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.start_fight_action.trigger()
    panel = window.decision_panel
    who = panel.field_input(AMBUSH_FIELD)
    assert isinstance(who, QComboBox) and _focused() is who
    qtbot.keyClick(who, Qt.Key.Key_Up)
    qtbot.keyClick(who, Qt.Key.Key_Up)
    assert who.currentData() == "party"
    qtbot.keyClick(who, Qt.Key.Key_Return)
    assert enc.state.surprise and enc.state.pending is None
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == [
        "miguel", "ji-woo", "tomasz", "dee"]

    window.undo_action.trigger()
    window.start_fight_action.trigger()
    who = panel.field_input(AMBUSH_FIELD)
    assert _focused() is who
    qtbot.keyClick(who, Qt.Key.Key_Up)  # "The enemies' side"
    qtbot.keyClick(who, Qt.Key.Key_Up)  # "The PCs' side"
    qtbot.keyClick(who, Qt.Key.Key_Up)  # "Nobody"
    qtbot.keyClick(who, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
    assert enc.state.stage == "initiative" and not enc.state.surprise
    pending = enc.state.pending
    assert pending is not None and pending.id.startswith("initiative-1")
    first = panel.field_input(pending.fields[0].name)
    assert isinstance(first, QLineEdit) and _focused() is first
    qtbot.keyClick(first, Qt.Key.Key_Return)
    assert enc.state.pending is None and enc.state.stage == "turns"


def test_return_in_an_open_drop_down_picks_and_leaves_the_question_waiting(
        window: MainWindow, qtbot: QtBot) -> None:
    """With the drop-down's list open, Return picks the item under the cursor and closes
    the list; the question still waits until Return on the closed drop-down."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.start_fight_action.trigger()
    who = window.decision_panel.field_input(AMBUSH_FIELD)
    assert isinstance(who, QComboBox)
    who.showPopup()
    view = who.view()
    qtbot.waitUntil(view.isVisible)
    view.setCurrentIndex(who.model().index(who.findData("enemies"), 0))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible())
    assert who.currentData() == "enemies"
    pending = enc.state.pending
    assert pending is not None and pending.id == "surprise" and not enc.state.surprise
    qtbot.keyClick(who, Qt.Key.Key_Return)
    assert enc.state.surprise
    assert all(enc.fighters[f].status.ambusher == (enc.fighters[f].side == "enemy")
               for f in enc.order)


def test_a_question_with_answers_puts_the_focus_on_the_first_and_return_gives_it(
        qtbot: QtBot) -> None:
    """A question of answer buttons: the first takes the focus, Return answers with it."""
    panel = DecisionPanel()
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow)
    panel.show_decision(Decision(id="keep", prompt="Keep the held die?", choices=[
        Choice(id="keep", label="Keep it"), Choice(id="spend", label="Spend it")]))
    button = _focused()
    assert isinstance(button, QPushButton) and button.objectName() == "choice-keep"
    with qtbot.waitSignal(panel.answered) as answered:
        qtbot.keyClick(button, Qt.Key.Key_Return)
    assert answered.args is not None and answered.args[:2] == ["keep", "keep"]


# --- condition labels end with their state -------------------------------------------------

DEMOS = {"street-fighter": "demo_fight.json", "d100": "demo_d100.json",
         "roll-under": "demo_roll-under.json", "ashes": "demo_ashes.json"}


def _play(window: MainWindow, engine: Engine, rng: random.Random,
          until: Callable[[], bool], limit: int = 1500) -> None:
    """The autopilot's commands through the window's command path until ``until``."""
    for _ in range(limit):
        if until():
            return
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None
        out = window.document.apply(command)
        assert out.ok, out.error
    raise AssertionError("the fight never got there")


def _label(window: MainWindow, fighter_id: str) -> str:
    QApplication.processEvents()  # the cards are painted as the window gets to them
    card = window.cards.card_for_fighter(fighter_id)
    assert card is not None
    return card.conditions.text()


def test_a_stun_leaves_the_card_when_its_round_is_over(window: MainWindow) -> None:
    """Street-fighter: "Stunned" shows for the rest of the round the stun came in; once
    End Round closed it (the lost die still kept until the next roll), the card says
    nothing of it (docs/rulesets/street-fighter.md#gm-changes: the GM's stun is the
    rules' stun)."""
    engine = Engine(Session.begin(load_session(RESOURCES / DEMOS["street-fighter"]).start))
    window.show_session(engine, None)
    enc = engine.encounter
    rng = random.Random(1)
    alone = [fid for fid in enc.order if not enc.fighters[fid].group]
    _play(window, engine, rng, lambda: enc.state.stage == "phases"
          and enc.state.pending is None and not enc.state.stack)
    who = alone[0]
    out = window.document.apply(c.AddCondition(fighter_id=who, name="Stunned"))
    assert out.ok, out.error
    assert "Stunned" in _label(window, who)
    _play(window, engine, rng, lambda: enc.state.stage == "round-over")
    assert "Stunned" not in _label(window, who)


@pytest.mark.parametrize("ruleset", sorted(DEMOS))
def test_a_condition_for_one_round_leaves_every_card_when_it_runs_out(
        window: MainWindow, ruleset: str) -> None:
    """Every ruleset: a condition the GM puts on every fighter for one round is on each
    card while it lasts and off each card once the fighter's state no longer has it; the
    roll-under ambusher's mark is gone once the surprise step has begun."""
    engine = Engine(Session.begin(load_session(RESOURCES / DEMOS[ruleset]).start))
    window.show_session(engine, None)
    enc = engine.encounter
    rng = random.Random(2)
    if ruleset == "roll-under":
        card = window.cards.card_for_fighter("rooftop-sniper")
        assert card is not None and "Ambusher" in card.resources.text()
    _play(window, engine, rng, lambda: enc.round >= 1 and enc.state.stage not in ("setup",)
          and enc.state.pending is None and getattr(enc.state, "roll", None) is None)
    if ruleset == "roll-under":
        QApplication.processEvents()
        card = window.cards.card_for_fighter("rooftop-sniper")
        assert card is not None and "Ambusher" not in card.resources.text()
    for fid in enc.order:
        out = window.document.apply(c.AddCondition(fighter_id=fid, name="Dazed",
                                                   duration="rounds", rounds=1))
        assert out.ok, out.error
    alone = [fid for fid in enc.order if not enc.fighters[fid].group]  # a group card
    assert alone and all("Dazed" in _label(window, fid) for fid in alone)  # shows a member
    start = enc.round
    _play(window, engine, rng, lambda: enc.round >= start + 2)
    for fid in alone:
        has = any(x.name == "Dazed" for x in enc.fighters[fid].status.conditions)
        assert ("Dazed" in _label(window, fid)) == has, fid
    assert not all("Dazed" in _label(window, fid) for fid in alone)
