"""In an ashes fight the GM types the players' coins on the roll panel: the stack dialog
does not open by itself over it, closes when asked with the roll still waiting, and its
Resolve is only the app's flip for a GM who wants it (docs/ui.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import load_session

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_ashes.json"


def _choose(dialog: QWidget, name: str, key: str) -> None:
    box = dialog.findChild(QComboBox, f"field-{name}")
    assert box is not None, name
    box.setCurrentIndex(box.findData(key))


def test_the_gm_types_the_coins_of_a_challenge_and_its_critical(window: MainWindow,
                                                                 qtbot: QtBot) -> None:
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    window.start_fight_action.trigger()

    # The hound bites Oren: a challenge at +1 waits on the roll panel.
    dialog = window.open_action_dialog("ash-hound", role="act")
    assert dialog is not None
    _choose(dialog, "target", "oren")
    _choose(dialog, "skill", "Bite")
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert enc.state.roll is not None
    # Nothing opened over the roll panel by itself.
    stack = window._stack_dialog
    assert stack is None or not stack.isVisible()
    assert window.roll_panel.isVisible() and window.roll_panel.dice.isEnabled()

    # Opened by the GM, the stack dialog closes again with the roll still waiting.
    window.stack_action.trigger()
    stack = window._stack_dialog
    assert stack is not None and stack.isVisible()
    stack.close()
    assert not stack.isVisible() and enc.state.roll is not None

    # The GM types six challenge coins (+1: five, plus one) and two for criticals.
    panel = window.roll_panel
    qtbot.keyClicks(panel.dice, "HHHHHH HH")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    texts = [e.text for e in engine.session.log[-1].events]
    assert any(t.startswith("Challenge coins at +1: H H H H H H") and "critical coins: H H" in t
               for t in texts), texts
    assert not stack.isVisible()
