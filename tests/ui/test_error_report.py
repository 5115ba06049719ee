"""An unexpected error: the GM is told in one line that the fight is unchanged, the
traceback goes to the log file, and the fight goes on."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import qInstallMessageHandler
from pytestqt.qtbot import QtBot

from fightdesk.engine.commands import Command
from fightdesk.engine.engine import Engine
from fightdesk.engine.ruleset import Context, Rules
from fightdesk.storage.sessions import demo_session
from fightdesk.ui import error_report
from fightdesk.ui.main_window import MainWindow


@pytest.fixture
def reported(window: MainWindow, tmp_path: Path) -> Iterator[error_report.ErrorReport]:
    hook = sys.excepthook
    report = error_report.install(window, tmp_path / "logs")
    yield report
    sys.excepthook = hook
    qInstallMessageHandler(report._previous_handler)


@pytest.mark.qt_no_exception_capture
def test_a_rule_that_raises_tells_the_gm_one_line_and_the_fight_is_as_before(
        window: MainWindow, qtbot: QtBot, tmp_path: Path, reported: error_report.ErrorReport,
        monkeypatch: pytest.MonkeyPatch) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert engine is not None
    before = engine.encounter.model_dump(mode="json")
    ruleset = type(engine.ruleset.rules)
    handle = ruleset.handle

    def broken(self: Rules, ctx: Context, command: Command) -> None:
        handle(self, ctx, command)  # the rule writes, then fails half way
        raise ZeroDivisionError("a rule divided by zero")

    monkeypatch.setattr(ruleset, "handle", broken)
    window.start_fight_action.trigger()  # a slot that raises: Qt goes on
    qtbot.wait(20)
    line = window.statusBar().currentMessage()
    assert "\n" not in line and "the fight is unchanged" in line
    assert "ZeroDivisionError: a rule divided by zero" in line
    assert engine.encounter.model_dump(mode="json") == before and not engine.session.log
    log = tmp_path / "logs" / error_report.LOG_NAME
    assert str(log) in line
    text = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "a rule divided by zero" in text
    # The fight goes on.
    monkeypatch.setattr(ruleset, "handle", handle)
    window.start_fight_action.trigger()
    assert engine.session.log and reported.reported == 1


def test_qt_s_critical_messages_are_told_and_its_warnings_logged(
        window: MainWindow, tmp_path: Path, reported: error_report.ErrorReport) -> None:
    from PySide6.QtCore import QMessageLogContext, QtMsgType

    reported._previous_handler = None  # (pytest-qt's own would fail the test on purpose)
    reported.qt_message(QtMsgType.QtWarningMsg, QMessageLogContext(), "a warning")
    assert reported.reported == 0
    reported.qt_message(QtMsgType.QtCriticalMsg, QMessageLogContext(), "a critical one")
    assert reported.reported == 1
    assert "Qt: a critical one" in window.statusBar().currentMessage()
    text = (tmp_path / "logs" / error_report.LOG_NAME).read_text(encoding="utf-8")
    assert "Qt warning: a warning" in text and "Qt critical: a critical one" in text


def test_the_log_folder_is_the_user_log_folder_of_the_test(window: MainWindow) -> None:
    import os

    report = error_report.ErrorReport(window)
    path = report.log_path()
    assert path is not None and str(path).startswith(os.environ["XDG_STATE_HOME"])
