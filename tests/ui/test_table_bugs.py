"""The bugs a GM met at the table (issue 15), each through the real window."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.action_dialog import ActionDialog

KAEDE = "kaede"


def demo_in_phases(window: Any) -> Engine:
    """The demo fight at phase 10 of round 1, Dock Thug 1's die let go: the decision
    (hold or lose) is open for Dock Thug 1."""
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    for command in (c.StartFight(), c.StartRound(), c.NextStep(), c.NextStep()):
        assert window.document.apply(command).ok
    assert engine.pending() is not None
    return engine


def test_act_on_a_card_opens_the_act_form_and_cannot_spend_by_mistake(window: Any, qtbot: Any) -> None:
    demo_in_phases(window)
    card = window.cards.card_for_fighter(KAEDE)
    assert card is not None and card.act_button is not None
    qtbot.mouseClick(card.act_button, Qt.MouseButton.LeftButton)
    dialog = next(d for d in window.findChildren(ActionDialog) if d.isVisible())
    form = dialog.current_form()
    assert form is not None and form.id == "act" and not form.enabled
    assert not dialog.go_button.isEnabled()
    assert dialog.error.isVisible() and dialog.error.text()
    # Enter confirms nothing: no log entry, the dialog still open.
    entries = len(window.document.engine.session.log)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert len(window.document.engine.session.log) == entries
    assert dialog.result_label.isHidden()
    # A form that spends points says so on its button.
    words = {}
    for row in range(dialog.form_box.count()):
        dialog.form_box.setCurrentIndex(row)
        words[dialog.current_form().id] = dialog.go_button.text()
    assert words["willpower-ep"] == "Spend"
    assert words["convert"] == "Convert"
    assert words["act"] == "Roll"
    dialog.reject()
    QApplication.processEvents()
