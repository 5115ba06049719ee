"""The summary items in the main window's File menu, wired to the fight on screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.ui.printing import SummaryScopeDialog

from .scripted import Script, two_round_fight

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    from fightdesk.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    yield win
    win.document.undo_stack.setClean()


def texts(window: MainWindow) -> list[str]:
    return [a.text().replace("&", "") for a in window.file_menu.actions() if not a.isSeparator()]


def test_file_menu_lists_print_and_export_before_quit(window: MainWindow) -> None:
    names = texts(window)
    save_as = next(i for i, name in enumerate(names) if name.startswith("Save As"))
    assert names[save_as + 1:] == [
        "Print Summary…", "Print Preview…", "Export Summary as PDF…",
        "Export Summary as HTML…", "Export Summary as Markdown…", "Quit",
    ]


def test_items_follow_the_fight_and_export_it(window: MainWindow, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    printing = window.summary_printing
    assert printing is not None
    fresh = Engine(Script().session)
    window.show_session(fresh, None)
    assert not printing.print_action.isEnabled()  # nothing logged yet
    window.document.apply(c.Note(text="The thugs circle Kaede"))
    assert printing.print_action.isEnabled()  # enabled by the engine's notice

    window.show_session(Engine(two_round_fight()), None)

    def answer(dialog: QDialog) -> bool:
        assert isinstance(dialog, SummaryScopeDialog)
        assert dialog.current_button.text() == "&Current round (Round 2)"
        return True

    monkeypatch.setattr(printing, "run_dialog", answer)
    monkeypatch.setattr(printing, "ask_save_path",
                        lambda caption, name, filt: str(tmp_path / name))
    printing.export_actions["html"].trigger()
    page = tmp_path / "rooftop-duel-at-the-harbour-round-2.html"
    assert page.is_file() and "<h2 class=\"round\">Round 2</h2>" in page.read_text()
