"""Roll-under's start of the fight asks who attacks by surprise: tests that start a
fight for something else answer it with the fighters' marks (the demo's ambusher)."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c

SURPRISE = "surprise"


def answer_surprise(target: Any, engine: Any) -> None:
    """Answer the waiting surprise question, if any, through ``target.apply`` (an engine
    or the window's document) with every row as the fighters' marks left it."""
    pending = engine.pending()
    if pending is not None and pending.id == SURPRISE:
        out = target.apply(c.Answer(decision_id=SURPRISE, values={}, by="the GM"))
        assert out.ok, out.error


def answer_surprise_on_panel(window: Any) -> None:
    """The same through the widgets: OK on the decision panel, each row as it starts."""
    decision = window.decision_panel.decision()
    if decision is not None and decision.id == SURPRISE:
        window.decision_panel.fields_ok.click()
        assert window.decision_panel.decision() is None or window.decision_panel.decision().id != SURPRISE
