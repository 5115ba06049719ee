"""Closing with unsaved changes: the question tells the truth about autosave."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session


def _answer_with(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton) -> dict:
    seen: dict[str, Any] = {}

    def fake_exec(box: QMessageBox) -> int:
        seen["info"] = box.informativeText()
        seen["no"] = box.button(QMessageBox.StandardButton.Discard).text()
        box.button(button).click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    return seen


@pytest.mark.parametrize("autosaved", [True, False])
def test_closing_says_whether_the_fight_is_kept(window: Any, monkeypatch: pytest.MonkeyPatch,
                                                autosaved: bool) -> None:
    window.show_session(Engine(demo_session()), None)
    assert window.document.apply(
        c.SetValue(fighter_id="kaede", field="status.health", value=5)).ok
    assert window.document.is_modified()
    window.kept_by_autosave = autosaved
    seen = _answer_with(monkeypatch, QMessageBox.StandardButton.Discard)
    assert window.close()
    if autosaved:
        assert "reopens like this the next time" in seen["info"]
        assert seen["no"] == "Close without saving"
    else:
        assert seen["info"] == "" and seen["no"] != "Close without saving"


def test_cancel_keeps_the_window_open(window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    window.show_session(Engine(demo_session()), None)
    window.document.apply(c.Note(text="the thugs regroup"))
    _answer_with(monkeypatch, QMessageBox.StandardButton.Cancel)
    assert not window.close()
    assert window.isVisible()
