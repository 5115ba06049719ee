"""UI test helpers: a shown main window, a practice engine, a dark palette."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from fightdesk.ui.palettes import dark_palette

from .fake_ruleset import PracticeEngine, practice_engine

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


@pytest.fixture
def engine() -> PracticeEngine:
    return practice_engine()


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    from fightdesk.ui.main_window import MainWindow

    win = MainWindow()
    # No "save changes?" question when the test closes the window.
    qtbot.addWidget(win, before_close_func=lambda w: w.document.undo_stack.setClean())
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


class ShownBox(NamedTuple):
    title: str
    text: str
    informative: str
    plain: bool
    name: str


@pytest.fixture
def message_boxes(monkeypatch: pytest.MonkeyPatch) -> list[ShownBox]:
    """Every QMessageBox the code opens with exec(), recorded instead of shown (answered
    with its escape button, else Ok)."""
    shown: list[ShownBox] = []

    def fake_exec(box: QMessageBox) -> int:
        shown.append(ShownBox(box.windowTitle(), box.text(), box.informativeText(),
                              box.textFormat() == Qt.TextFormat.PlainText, box.objectName()))
        return int(QMessageBox.StandardButton.Ok)

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    return shown


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[QPalette]:
    before = qapp.palette()
    qapp.setPalette(dark_palette())
    yield qapp.palette()
    qapp.setPalette(before)
