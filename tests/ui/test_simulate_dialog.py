"""Fight > Simulate...: runs in the background with progress and Cancel, the window
answers the whole time, and the chart shows what the command line prints."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fightdesk.cli import main as cli_main
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.simulate_dialog import SimulateDialog

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"


def test_simulate_cancel_then_complete_matches_the_command_line(
        window: Any, qtbot: Any, tmp_path: Path, capsys: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    before = window.document.engine.session.model_dump_json()
    assert window.simulate_action.shortcut().toString() == "Ctrl+Shift+M"
    assert window.simulate_action in window.fight_menu.actions()
    window.simulate_action.trigger()
    dialog = window.findChild(SimulateDialog)
    assert dialog is not None and dialog.isVisible()
    dialog.seed.setValue(7)

    # A long run, cancelled: nothing is counted and Run is offered again.
    dialog.fights.setValue(5000)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert dialog.running and dialog.cancel_button.isEnabled()
    # The window answers while it runs: its actions still work.
    clicks: list[bool] = []
    window.log_dock.toggleViewAction().toggled.connect(clicks.append)
    window.log_dock.toggleViewAction().trigger()
    QApplication.processEvents()
    assert clicks
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.simulation is None and "Cancelled" in dialog.status.text()
    assert dialog.run_button.isEnabled()

    # A complete run: progress reaches the end, the chart holds the numbers.
    dialog.fights.setValue(24)
    start = time.monotonic()
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=120_000)
    assert time.monotonic() - start < 120
    assert dialog.simulation is not None
    assert dialog.progress.value() == dialog.progress.maximum() == 24
    shown = dialog.chart.numbers()
    dialog.grab().save(str(tmp_path / "simulate.png"))

    assert cli_main(["simulate", str(DEMO), "--fights", "24", "--seed", "7", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert shown == printed
    rows = dialog.chart.rows()
    assert rows[0][0] == "Party wins" and rows[0][1] == printed["wins"]["party"] / 24
    # Copy gives the same result as text.
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert copied == dialog.simulation.text() and "Party wins" in copied
    # The fight itself was never touched.
    assert window.document.engine.session.model_dump_json() == before
    assert not window.isWindowModified()

    # Mid-fight, the same dialog plays the fight from where it stands now.
    from fightdesk.engine import commands as c

    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert window.document.apply(command).ok
    engine = window.document.engine
    asked = engine.pending()  # Kaede rolls her own action dice: the app rolls them
    if asked is not None:
        assert window.document.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    assert engine.encounter.round == 1 and engine.encounter.state.stage == "phases"
    during = engine.session.model_dump_json()
    dialog.fights.setValue(10)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=120_000)
    assert dialog.simulation is not None and dialog.simulation.fights == 10
    assert min(dialog.simulation.rounds) >= 1
    assert engine.session.model_dump_json() == during
