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


#: The d100 demo's first initiative, as the table rolled it: Rook, Vesna, the captain,
#: Bandit 2, Tariq, Bandit 1.
D100_INITIATIVE = {"rook": "88", "vesna": "71", "bandit-captain": "64", "bandit-2": "60",
                   "tariq": "23", "bandit-1": "12"}


def type_initiative(qtbot: Any, panel: Any, faces: dict[str, str] = D100_INITIATIVE) -> None:
    """Type each fighter's initiative into the question ``panel``'s rows and click OK,
    as the GM does (the d100 demo's first initiative unless ``faces`` says otherwise)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit

    for name, text in faces.items():
        row = panel.field_input(name)
        assert isinstance(row, QLineEdit)
        qtbot.keyClicks(row, text)
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)
