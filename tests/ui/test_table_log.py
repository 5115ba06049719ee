"""The log dock as a GM reads it after playing through the window: each line filed under
the step it happened in, one line for one action, and a roll's line naming the target
it was made against."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session
from tests.start_step import answer_surprise_on_panel, type_initiative

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
SHOTS = Path("/tmp/log-shots")


def log_rows(window: Any) -> list[tuple[str, str]]:
    """The log's top lines as the dock shows them: (When, What happened)."""
    model = window.log_view.tree.model()
    return [(model.index(row, 0).data(), model.index(row, 1).data())
            for row in range(model.rowCount())]


def log_lines(window: Any) -> list[str]:
    """Every line of the log's tree, each action's folded lines under it."""
    model = window.log_view.tree.model()
    lines: list[str] = []
    for row in range(model.rowCount()):
        top = model.index(row, 1)
        lines.append(top.data())
        parent = model.index(row, 0)
        lines += [model.index(n, 1, parent).data() for n in range(model.rowCount(parent))]
    return lines


def test_a_new_rounds_initiative_and_a_hold_are_filed_where_they_happened(
        window: Any, qtbot: Any) -> None:
    """d100: Rook holds to act after Vesna (the hold is Rook's turn's, not Vesna's); the
    round's turns pass; Start Round opens round 2's initiative, which is round 2's."""
    engine = Engine(load_session(RESOURCES / "demo_d100.json"))
    window.show_session(engine, None)
    window.start_fight_action.trigger()
    answer_surprise_on_panel(window)
    assert log_rows(window)[-1] == ("R1 · initiative", "Round 1: initiative (method B)")
    type_initiative(qtbot, window.decision_panel)
    assert current_fighter(engine.encounter.state.turns) == "rook"
    dialog = window.open_action_dialog("rook")
    assert dialog is not None
    dialog.form_box.setCurrentIndex(dialog.form_box.findData("hold-turn"))
    after = dialog.input("after")
    after.setCurrentIndex(after.findData("vesna"))
    qtbot.mouseClick(dialog.go_button, Qt.MouseButton.LeftButton)
    if dialog.isVisible():
        dialog.close()
    assert current_fighter(engine.encounter.state.turns) == "vesna"
    when, what = log_rows(window)[-1]
    assert what.startswith("Rook holds")
    assert when == "R1 · Rook's turn"
    for _ in range(20):
        if engine.encounter.state.stage != "turns":
            break
        window.pass_action.trigger()
    window.start_round_action.trigger()
    assert engine.encounter.state.stage == "initiative"
    assert log_rows(window)[-1] == ("R2 · initiative", "Round 2: initiative (method B)")
    type_initiative(qtbot, window.decision_panel)
    assert engine.session.log[-1].round == 2
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.resizeDocks([window.log_dock], [620], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: window.log_view.width() >= 500)
    assert not window.log_view.tree.header().isSectionHidden(0)  # the "When" column shows
    window.log_view.grab().save(str(SHOTS / "d100-when.png"))


def test_a_typed_roll_names_the_target_the_assists_left(window: Any, qtbot: Any) -> None:
    """roll-under: the sniper fires at Ji-woo (Defense 9 or less); Tomasz spends two
    assists, so the roll is made against 11; Ji-woo's player types 11. The log's roll line
    names 11 or less, with the 9 and the assists beside it."""
    from PySide6.QtWidgets import QComboBox

    engine = Engine(load_session(RESOURCES / "demo_roll-under.json"))
    window.show_session(engine, None)
    enc = engine.encounter
    window.start_fight_action.trigger()
    answer_surprise_on_panel(window)
    dialog = window.open_action_dialog("rooftop-sniper", role="act")
    assert dialog is not None
    target = dialog.findChild(QComboBox, "field-target")
    assert target is not None
    target.setCurrentIndex(target.findData("ji-woo"))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    roll = enc.state.roll
    assert roll is not None and roll.roller_id == "ji-woo" and roll.base == 9
    options = [panel.option.itemText(i) for i in range(panel.option.count())]
    panel.option.setCurrentIndex(next(i for i, text in enumerate(options)
                                      if text.startswith("Tomasz")))
    panel.amount.setValue(2)
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert enc.state.roll is not None and enc.state.roll.total == 11
    qtbot.keyClicks(panel.dice, "11")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert enc.state.roll is None
    rolled = [line for line in log_lines(window) if "1d20" in line]
    assert rolled == ["Ji-woo: 1d20 for Defense against Rooftop Sniper, 11 or less "
                      "(9, assists +2) typed in [11] -> success (11, 11 or less)"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.log_view.grab().save(str(SHOTS / "roll-under-target.png"))


def test_a_coin_flip_names_the_advantage_the_defenses_left(window: Any, qtbot: Any) -> None:
    """ashes: the hound bites Oren at +1; Oren's Directed parry takes it to -1; the coins
    typed in. The log's roll line says -1, and the +1 before the defenses beside it."""
    from PySide6.QtWidgets import QComboBox

    engine = Engine(load_session(RESOURCES / "demo_ashes.json"))
    window.show_session(engine, None)
    enc = engine.encounter
    window.start_fight_action.trigger()
    answer_surprise_on_panel(window)
    dialog = window.open_action_dialog("ash-hound", role="act")
    assert dialog is not None
    for name, key in (("target", "oren"), ("skill", "Bite")):
        box = dialog.findChild(QComboBox, f"field-{name}")
        assert box is not None
        box.setCurrentIndex(box.findData(key))
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    texts = [panel.option.itemText(i) for i in range(panel.option.count())]
    panel.option.setCurrentIndex(next(i for i, t in enumerate(texts)
                                      if t.startswith("Oren: Directed parry")))
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    roll = enc.state.roll
    assert roll is not None and (roll.base, roll.total) == (1, -1)
    qtbot.keyClicks(panel.dice, "H H T T H T H T")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    flips = [line for line in log_lines(window) if " coins for " in line]
    assert len(flips) == 1
    assert "8 coins for a challenge on Oren with Bite at -1 (+1, defenses -2) typed in" \
        in flips[0]


def log_actions(window: Any) -> list[list[str]]:
    """Each action of the log dock: its own line, then the lines folded under it."""
    view = window.log_view
    model = view.tree.model()
    getattr(model, "show_earlier", lambda: 0)()
    actions = []
    for row in range(model.rowCount()):
        parent = model.index(row, 0)
        actions.append([model.index(row, 1).data()]
                       + [model.index(n, 1, parent).data() for n in range(model.rowCount(parent))])
    return actions


def says_more(fuller: str, line: str) -> bool:
    return len(fuller) > len(line) and fuller.startswith(line) and fuller[len(line)] in " (:,;"


def assert_each_thing_said_once(actions: list[list[str]]) -> None:
    for n, lines in enumerate(actions):
        for line in lines:
            assert not any(says_more(other, line) for other in lines), (line, lines)
        assert not [line for line in lines if " chooses: " in line], lines
        if n < len(actions) - 1:  # a question is gone once answered
            assert not [line for line in lines if line.endswith("?")
                        or "waiting for help or defenses" in line], lines


FILES = {"street-fighter": "demo_fight.json", "d100": "demo_d100.json",
         "roll-under": "demo_roll-under.json", "ashes": "demo_ashes.json"}


@pytest.mark.parametrize("ruleset", sorted(FILES))
def test_a_played_fight_says_each_thing_once_in_the_log(window: Any, qtbot: Any,
                                                        ruleset: str) -> None:
    """Two rounds of each demo fight played by the autopilot through the window's
    command path; the log dock says each thing once: no "resolves" twice, no question
    left after its answer, no answer restated as "chooses"."""
    import random

    from fightdesk.engine.model import Session

    engine = Engine(Session.begin(load_session(RESOURCES / FILES[ruleset]).start))
    window.show_session(engine, None)
    rng = random.Random(1)
    for _ in range(2000):
        if engine.encounter.round > 2:
            break
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None
        assert window.document.apply(command).ok
    actions = log_actions(window)
    assert len(actions) > 20
    assert_each_thing_said_once(actions)
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.log_view.tree.expandAll()
    window.log_view.grab().save(str(SHOTS / f"{ruleset}-log.png"))


def test_a_fight_played_in_the_window_reads_once_in_the_log(window: Any) -> None:
    """Three street-fighter rounds a GM played in the window (holds, interrupts, dodges,
    GM overrides), opened again: one line a thing in the log dock."""
    session = load_session(Path(__file__).resolve().parents[1] / "storage" / "data"
                           / "street_fighter_v1.json")
    window.show_session(Engine(session), None)
    actions = log_actions(window)
    assert len(actions) > 50
    assert_each_thing_said_once(actions)
