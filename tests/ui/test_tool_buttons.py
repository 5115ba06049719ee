"""Tool buttons keep one connection to their action however often it changes
(fightdesk/ui/tool_buttons.py): Qt 6.10 and later add one on every change, which made
a long fight's memory grow with every undo and redo; and no layout item is taken and
left behind (both found by benchmarks/soak.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QToolButton, QWidget
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.main_window import MainWindow
from fightdesk.ui.tool_buttons import keep_button_lean

CHANGED = "2changed()"


def test_a_lean_button_keeps_one_connection_and_still_follows_its_action(qtbot: QtBot) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    action = QAction("&Undo", holder)
    button = QToolButton(holder)
    button.setDefaultAction(action)
    keep_button_lean(button)
    connections = action.receivers(CHANGED)
    for n in range(60):
        action.setText(f"&Undo step {n}")
        action.setEnabled(n % 3 != 0)
        action.setToolTip(f"Undo step {n} (Ctrl+Z)")
    assert action.receivers(CHANGED) == connections
    # The button still shows what its action says.
    assert button.text() == "Undo step 59"
    assert button.isEnabled() == action.isEnabled()
    assert button.toolTip() == "Undo step 59 (Ctrl+Z)"
    action.setIconText("Undo")
    action.setEnabled(True)
    assert button.text() == "Undo" and button.isEnabled()
    # A click still triggers the action.
    triggered: list[bool] = []
    action.triggered.connect(lambda checked=False: triggered.append(checked))
    button.click()
    assert triggered == [False]


def test_undo_and_redo_in_the_window_add_no_connections(window: MainWindow) -> None:
    engine = Engine(demo_session())
    window.show_session(engine, None)
    for n in range(6):
        window.document.apply(c.Note(text=f"note {n}"))
    bar = window.round_bar
    buttons = [(act, bar.widgetForAction(act)) for act in bar.actions()]
    shown = [(act, b) for act, b in buttons if isinstance(b, QToolButton)]
    assert {act for act, _ in shown} >= {window.undo_action, window.redo_action,
                                          window.pass_action, window.end_round_action}
    before = {act: act.receivers(CHANGED) for act, _ in shown}
    for _ in range(25):
        for _ in range(3):
            window.undo_action.trigger()
        for _ in range(3):
            window.redo_action.trigger()
    window.undo_action.trigger()
    assert {act: act.receivers(CHANGED) for act, _ in shown} == before
    undo_button = bar.widgetForAction(window.undo_action)
    redo_button = bar.widgetForAction(window.redo_action)
    assert isinstance(undo_button, QToolButton) and isinstance(redo_button, QToolButton)
    assert undo_button.isEnabled() and redo_button.isEnabled()
    window.edit_menu.aboutToShow.emit()  # the menu names the step as it opens
    assert window.redo_action.text().startswith("&Redo") and "note 5" in window.redo_action.text()
    assert engine.session.log[-1].summary.endswith("note 4")


def test_no_layout_item_is_taken_and_left_to_nobody() -> None:
    """PySide's ``QLayout.takeAt`` hands the taken item to nobody: every relayout of the
    cards leaked one item per card that way. The window removes widgets from layouts
    with ``removeWidget``, which deletes the item."""
    ui = Path(__file__).resolve().parents[2] / "fightdesk" / "ui"
    taking = [f"{path.name}:{n}" for path in sorted(ui.glob("*.py"))
              for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if ".takeAt(" in line]
    assert taking == []
