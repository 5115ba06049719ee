"""The window's layout comes back: after a restart in the middle of a round it is laid
out as before the quit, at the three screen sizes the GM's laptops and desks have; a
saved window off screen, or a dock wider than half the window, is put right; View >
Reset Layout puts back a first start's layout."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.storage.library import Library
from fightdesk.storage.sessions import demo_session
from fightdesk.ui import settings, window_layout
from fightdesk.ui.main_window import MainWindow

SIZES = [(1093, 614), (1280, 800), (1920, 1080)]


class Layout(NamedTuple):
    size: tuple[int, int]
    docks: dict[str, tuple[bool, int]]  # shown, width (0: hidden)
    columns: tuple[int, int]  # timeline columns in view, of
    scrolls: bool  # the timeline scrolls sideways


def layout_of(window: MainWindow) -> Layout:
    timeline = window.timeline
    shown = timeline.timeline()
    columns = len(shown.columns) if shown is not None else 0
    in_view = (timeline.viewport().width() - timeline._title_width) // timeline._column_width
    docks = {d.objectName(): (d.isVisible(), d.width() if d.isVisible() else 0)
             for d in (window.log_dock, window.library_dock) if d is not None}
    return Layout((window.width(), window.height()), docks, (min(in_view, columns), columns),
                  timeline.horizontalScrollBar().maximum() > 0)


def alike(one: Layout, other: Layout) -> bool:
    """The same layout, but for the few pixels a dock gives way so that the whole
    timeline shows (decided by the layout pass that comes first)."""
    return (one.size, one.columns, one.scrolls, one.docks.keys()) == (
        other.size, other.columns, other.scrolls, other.docks.keys()) and all(
        one.docks[name][0] == other.docks[name][0]
        and abs(one.docks[name][1] - other.docks[name][1]) <= 8 for name in one.docks)


def settle(qtbot: QtBot, ms: int = 150) -> None:
    qtbot.wait(ms)
    QApplication.processEvents()


def start(qtbot: QtBot, session: Session, library: Path, size: tuple[int, int] | None = None
          ) -> MainWindow:
    """As the app starts: the frame, the body, the fight, then the library dock."""
    window = MainWindow(staged=True)
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    if size is not None:
        window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.build_body()
    window.show_session(Engine(session), None)
    settle(qtbot, 50)
    window.add_library_panel(Library(library))
    settle(qtbot)
    return window


def mid_round(window: MainWindow, qtbot: QtBot) -> None:
    window.start_fight_action.trigger()
    if window.start_round_action.isEnabled():
        window.start_round_action.trigger()
    settle(qtbot)
    assert window.views.round_going


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> list[QRect]:
    """The screens the window is checked against (the test sets their size)."""
    screens = [QRect(0, 0, 1920, 1080)]
    monkeypatch.setattr(window_layout, "available_screens", lambda: list(screens))
    return screens


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_restart_in_the_middle_of_a_round_lays_out_as_before_the_quit(
        qtbot: QtBot, tmp_path: Path, screen: list[QRect], size: tuple[int, int]) -> None:
    screen[0] = QRect(0, 0, size[0] + 8, size[1] + 8)  # the window and its frame
    first = start(qtbot, demo_session(), tmp_path, size)
    mid_round(first, qtbot)
    before = layout_of(first)
    assert before.docks["LibraryPanelDock"][0] is False  # stepped aside for the round
    assert before.columns[0] == before.columns[1] and not before.scrolls
    first.grab().save(str(tmp_path / f"before-{size[0]}.png"))
    assert first.document.engine is not None
    session = first.document.engine.session.model_copy(deep=True)
    first.document.undo_stack.setClean()
    first.close()

    second = start(qtbot, session, tmp_path)
    after = layout_of(second)
    second.grab().save(str(tmp_path / f"after-{size[0]}.png"))
    assert after == before
    assert all(width <= size[0] // 2 for shown, width in after.docks.values() if shown)
    # The library was hidden for the round, not by the GM: it comes back after it.
    assert second.library.auto_hidden
    second.library.follow_round(False)
    settle(qtbot)
    assert second.library_dock is not None and second.library_dock.isVisible()


def test_reset_layout_puts_back_a_first_start_s_layout(
        qtbot: QtBot, tmp_path: Path, screen: list[QRect]) -> None:
    fresh = start(qtbot, demo_session(), tmp_path, (1280, 800))
    default = layout_of(fresh)
    fresh.document.undo_stack.setClean()
    fresh.close()
    settings.app_settings().clear()

    window = start(qtbot, demo_session(), tmp_path, (1280, 800))
    assert alike(layout_of(window), default)
    # The GM pulls the log wide, floats the library and hides the dice bar.
    window.resizeDocks([window.log_dock], [600], Qt.Orientation.Horizontal)
    assert window.library_dock is not None
    window.library_dock.setFloating(True)
    window.dice_toolbar.hide()
    settle(qtbot)
    assert not alike(layout_of(window), default)
    assert window.reset_layout_action in window.view_menu.actions()
    window.reset_layout_action.trigger()
    settle(qtbot)
    assert alike(layout_of(window), default)
    assert not window.library_dock.isFloating() and window.dice_toolbar.isVisible()
    assert window.dockWidgetArea(window.library_dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert window.dockWidgetArea(window.log_dock) == Qt.DockWidgetArea.RightDockWidgetArea


def test_a_window_saved_off_screen_comes_back_whole_on_a_screen(
        qtbot: QtBot, tmp_path: Path, screen: list[QRect]) -> None:
    store = settings.app_settings()
    store.setValue("window/rect", "2500,1400,1280,800")  # a second screen, now gone
    store.setValue("window/frame", "2,2,2,2")  # the frame's margins, as the last run had them
    store.setValue("window/dock_widths", "FightLogDock=1100,LibraryPanelDock=380")
    store.sync()
    screen[0] = QRect(0, 0, 1093, 614)
    window = start(qtbot, demo_session(), tmp_path)
    assert QRect(0, 0, 1093, 614).contains(window.frameGeometry())
    laid = layout_of(window)
    # No dock wider than half the window, and the timeline whole.
    assert all(width <= window.width() // 2 for shown, width in laid.docks.values() if shown)
    assert laid.columns[0] == laid.columns[1] and not laid.scrolls


def test_fit_to_screens_moves_and_shrinks_onto_the_screen_it_overlaps_most() -> None:
    left, right = QRect(0, 0, 1280, 800), QRect(1280, 0, 1920, 1080)
    fit = window_layout.fit_to_screens
    assert fit(QRect(100, 100, 800, 600), [left, right]) == QRect(100, 100, 800, 600)
    assert fit(QRect(1200, 50, 1000, 700), [left, right]) == QRect(1280, 50, 1000, 700)
    assert fit(QRect(5000, 5000, 2500, 1500), [left, right]) == QRect(0, 0, 1280, 800)
    assert fit(QRect(-300, -40, 900, 600), [left]) == QRect(0, 0, 900, 600)
    assert window_layout.checked_widths({"a": 900, "b": 200}, 1093) == {"a": 546, "b": 200}
