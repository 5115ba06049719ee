"""A roll-under fight through the widgets, on the bundled demo: the surprise step, a
round with a split Wisdom initiative, a refused drag across the sections, and an assist
added and taken back on the roll panel before the player's typed Defense roll."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session
from tests.start_step import answer_surprise_on_panel

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_roll-under.json"


def lane_point(window: MainWindow, lane_no: int, column: int, top: bool = False) -> QPoint:
    view = window.timeline
    rect = view._lane_rect(lane_no)
    y = rect.top() + 3 if top else rect.center().y()
    return QPoint(view._column_x(column) + 10, y)


def test_surprise_then_a_split_initiative_through_the_widgets(window: MainWindow, qtbot: QtBot) -> None:
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    assert window.start_fight_action.isEnabled() and not window.start_round_action.isEnabled()

    # The surprise step: the sniper ambushes; the Vault Warden cannot be surprised, but
    # is on the sniper's side, no target of the ambush: it waits for the initiative.
    window.start_fight_action.trigger()
    answer_surprise_on_panel(window)
    tl = window.timeline.timeline()
    assert tl is not None and tl.columns == ("Surprise",)
    assert [lane.title for lane in tl.lanes] == ["Rooftop Sniper"]
    assert current_fighter(enc.state.turns) == "rooftop-sniper"

    # The sniper fires at Ji-woo: Ji-woo's player rolls Defense; Tomasz assists, then not.
    dialog = window.open_action_dialog("rooftop-sniper", role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("ji-woo"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    assert panel.isVisible()
    roll = enc.state.roll
    assert roll is not None and roll.roller_id == "ji-woo" and roll.by_player
    need = 13 - (14 - 10)  # Ji-woo's Defense 13 against the sniper's Attack 14
    assert roll.base == need
    assert panel.odds.text() == f"{need} or less on a d20: {need * 5}%"
    assert _frac(need) in panel.odds.toolTip()
    options = [panel.option.itemText(i) for i in range(panel.option.count())]
    tomasz = next(i for i, text in enumerate(options) if text.startswith("Tomasz"))
    panel.option.setCurrentIndex(tomasz)
    panel.amount.setValue(2)
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert enc.state.roll is not None and enc.state.roll.total == need + 2
    assert enc.fighters["tomasz"].status.assists == 1
    assert panel.odds.text().startswith(f"{need + 2} or less on a d20")
    contribution = enc.state.roll.contributions[0].id
    qtbot.mouseClick(panel.take_back_button(contribution), Qt.MouseButton.LeftButton)
    assert enc.fighters["tomasz"].status.assists == 3 and enc.state.roll.total == need
    qtbot.keyClicks(panel.dice, "20")  # Ji-woo's player rolled 20 at the table
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert enc.state.roll is None
    assert enc.fighters["ji-woo"].status.hp < 11  # a failed Defense is a hit

    # The sniper's surprise turn ends; then round 1's Wisdom initiative, each row with its
    # exact chance (the Warden imposes -2: Miguel's Wisdom 11 needs 9 or less).
    window.next_step_action.trigger()
    decision = window.decision_panel
    assert decision.isVisible()
    labels = [label.text() for label in decision.fields_form.parentWidget().findChildren(QLabel)
              if "Wisdom" in label.text() and "or less" in label.text()]
    assert "Miguel: Wisdom, 9 or less (9/20, 45.0% to act before the enemies)" in labels
    assert len(labels) == 4 and all("to act before the enemies)" in t for t in labels)
    rows = {name: decision.field_input(name) for name in ("miguel", "ji-woo", "tomasz", "dee")}
    typed = {"miguel": "3", "ji-woo": "19", "dee": "1"}  # Tomasz's left to the app
    for name, text in typed.items():
        row = rows[name]
        assert isinstance(row, QLineEdit)
        qtbot.keyClicks(row, text)
    qtbot.mouseClick(decision.fields_ok, Qt.MouseButton.LeftButton)
    tl = window.timeline.timeline()
    assert tl is not None
    assert tl.columns == ("Surprise", "Before the enemies", "Enemies", "After the enemies")
    sections = {s.id: [x.fighter_id for x in s.slots] for s in enc.state.turns.sections}
    # The Warden imposes -2: Miguel 3 <= 9 and Dee 1 <= 8 go before; Ji-woo 19 after.
    assert {"miguel", "dee"} <= set(sections["before"]) and "ji-woo" in sections["after"]
    assert enc.round == 1 and current_fighter(enc.state.turns) == sections["before"][0]

    # Dragging Ji-woo from after the enemies to before them is refused, with the reason.
    lanes = [lane.id for lane in tl.lanes]
    ji = lanes.index("ji-woo")
    first_before = lanes.index(sections["before"][0])
    logged = len(engine.session.log)
    viewport = window.timeline.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=lane_point(window, ji, 3))
    qtbot.mouseMove(viewport, lane_point(window, first_before + 1, 1))
    qtbot.mouseMove(viewport, lane_point(window, first_before + 1, 1, top=True))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton,
                       pos=lane_point(window, first_before + 1, 1, top=True))
    assert len(engine.session.log) == logged
    assert window.statusBar().currentMessage().startswith("Not moved: Ji-woo cannot go there")


def _frac(need: int) -> str:
    from fractions import Fraction

    f = Fraction(need, 20)
    return f"{f.numerator}/{f.denominator}"
