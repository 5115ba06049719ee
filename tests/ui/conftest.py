"""UI test helpers: a shown main window, a practice engine, a dark palette."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from .fake_ruleset import PracticeEngine, practice_engine


@pytest.fixture
def engine() -> PracticeEngine:
    return practice_engine()


@pytest.fixture
def window(qtbot):  # type: ignore[no-untyped-def]
    from fightdesk.ui.main_window import MainWindow

    win = MainWindow()
    # No "save changes?" question when the test closes the window.
    qtbot.addWidget(win, before_close_func=lambda w: w.document.undo_stack.setClean())
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


def dark_palette() -> QPalette:
    pal = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#2b2b2e", QPalette.ColorRole.WindowText: "#e8e8e8",
        QPalette.ColorRole.Base: "#1e1e20", QPalette.ColorRole.AlternateBase: "#2a2a2d",
        QPalette.ColorRole.Text: "#e8e8e8", QPalette.ColorRole.Button: "#353538",
        QPalette.ColorRole.ButtonText: "#e8e8e8", QPalette.ColorRole.Highlight: "#3d7fd1",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#353538",
        QPalette.ColorRole.ToolTipText: "#e8e8e8", QPalette.ColorRole.Mid: "#5a5a5e",
        QPalette.ColorRole.Dark: "#19191a", QPalette.ColorRole.Light: "#505054",
        QPalette.ColorRole.PlaceholderText: "#9a9a9a",
    }
    for role, color in colors.items():
        pal.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return pal


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[QPalette]:
    before = qapp.palette()
    qapp.setPalette(dark_palette())
    yield qapp.palette()
    qapp.setPalette(before)
