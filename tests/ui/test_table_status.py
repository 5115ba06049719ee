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


def test_the_status_bar_says_what_a_roll_on_the_roll_panel_did(window: Any, qtbot: Any) -> None:
    """A d100 strike waits on the roll panel; its Roll button rolls it, then a defense's
    button rolls the defense: each time the status bar says the result, not the line of
    the strike that opened the roll."""
    from fightdesk.resources_path import resource_path
    from fightdesk.storage.sessions import load_session

    window.show_session(Engine(load_session(resource_path("demo_d100.json"))), None)
    doc = window.document
    engine = doc.engine
    assert doc.apply(c.StartFight()).ok
    asked = engine.pending()  # the initiative: the app rolls every fighter's
    assert asked is not None
    assert doc.apply(c.Answer(decision_id=asked.id, values={}, by="the GM")).ok
    enc = engine.encounter
    views = engine.ruleset.views
    actor = next(fid for fid in enc.order
                 if any(f.id == "strike" and f.enabled for f in views.action_forms(enc, fid)))
    form = next(f for f in views.action_forms(enc, actor) if f.id == "strike")
    declared = doc.apply(views.build_command("strike", actor,
                                             {f.name: f.default for f in form.fields}))
    assert declared.ok
    window.statusBar().showMessage(declared.text)
    panel = window.roll_panel
    qtbot.waitUntil(panel.isVisible)
    roll = enc.state.roll
    assert roll is not None
    panel.dice.setText("50")  # the strike's d100, typed as rolled at the table
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    rolled = engine.session.log[-1]
    assert rolled.summary != declared.text
    assert window.statusBar().currentMessage() == rolled.summary
    picks = [b for b in panel.pick_buttons() if b.isVisible() and b.isEnabled()]
    assert picks, "the defender is asked for a defense"
    qtbot.mouseClick(picks[0], Qt.MouseButton.LeftButton)
    defended = engine.session.log[-1]
    assert defended.seq > rolled.seq
    assert window.statusBar().currentMessage() == defended.summary
    assert any(word in defended.summary for word in ("hits", "beats", "misses")), defended.summary
