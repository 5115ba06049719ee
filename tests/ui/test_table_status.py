"""The status bar says what an action did, not only what was declared or answered: in
street-fighter a hit lands on the answer to the last damage or dodge question, and the
status bar names the hit there."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session


def test_the_status_bar_names_the_hit_a_street_fighter_answer_lands(window: Any,
                                                                     qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    doc = window.document
    engine = doc.engine
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert doc.apply(command).ok
    asked = engine.pending()  # Kaede rolls her own action dice: the app rolls them
    assert doc.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    enc = engine.encounter
    assert enc.state.phase == 10
    assert doc.apply(c.SetValue(fighter_id="dock-thug-1", field="status.dice.0.face", value=10)).ok
    views = engine.ruleset.views
    form = next(f for f in views.action_forms(enc, "dock-thug-1") if f.id == "act")
    values = {f.name: f.default for f in form.fields} | {"maneuver": "Jab", "target": "kaede"}
    assert doc.apply(views.build_command("act", "dock-thug-1", values)).ok
    stack = window._stack_dialog
    qtbot.waitUntil(lambda: stack is not None and stack.isVisible())
    stack = window._stack_dialog
    qtbot.mouseClick(stack.resolve_all, Qt.MouseButton.LeftButton)
    # Every question the resolution asks, answered with its first offer in the stack.
    for _ in range(10):
        panel = window._stack_decision
        if engine.pending() is None:
            break
        choices = [b for b in panel.findChildren(QPushButton)
                   if b.objectName().startswith("choice-") and b.isVisible()]
        button = choices[-1] if choices else panel.amount_ok
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert engine.pending() is None
    last = engine.session.log[-1]
    hit = next(e.text for e in last.events if e.kind == "damage")
    assert last.command["kind"] == "answer" and hit not in last.summary
    message = window.statusBar().currentMessage()
    assert last.summary in message and hit in message, message
