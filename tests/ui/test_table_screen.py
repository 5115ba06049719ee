"""What the screen says at the table, through the widgets: the player view while a hidden
enemy acts and where it opens, chances too small to round, file names, the log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from tests.drill_ruleset import drill_engine

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


def test_the_player_view_says_an_enemys_turn_while_a_hidden_one_acts(
        window: MainWindow, qtbot: QtBot) -> None:
    engine = drill_engine()
    window.show_session(engine, None)
    enc = engine.encounter
    enc.fighters["kaede"] = enc.fighters["kaede"].model_copy(update={"side": "enemy"})
    assert window.document.apply(c.HideFighter(fighter_id="kaede")).ok
    window.player_view_action.trigger()
    view = window.player_view
    assert view is not None
    assert window.document.apply(c.StartRound()).ok
    assert window.document.apply(c.Answer(decision_id="initiative",
                                          values={"kaede": 1, "brannock": 19})).ok
    assert view.headline.text().startswith("Round 1 · slow, an enemy's turn")
    assert not [t for t in view.texts() if "someone's turn" in t or "Kaede" in t]


def test_the_player_view_opens_beside_the_gms_window_not_over_it(
        window: MainWindow, qtbot: QtBot) -> None:
    screen = window.screen().availableGeometry()
    window.setGeometry(screen.left(), screen.top(), screen.width() // 2, screen.height() // 2)
    window.player_view_action.trigger()
    view = window.player_view
    assert view is not None and view.isVisible()
    assert not view.frameGeometry().intersects(window.frameGeometry())


def test_a_tiny_chance_reads_below_one_percent_with_the_fraction_in_the_tooltip(
        window: MainWindow) -> None:
    from PySide6.QtWidgets import QPushButton

    from fightdesk.engine.base import Choice, Decision

    panel = window.decision_panel
    panel.show_decision(Decision(id="d", prompt="Critical?", asks="", choices=[
        Choice(id="crit", label="Critical", chance="1/1024"),
        Choice(id="miss", label="Anything but", chance="1023/1024")]))
    crit = panel.findChild(QPushButton, "choice-crit")
    miss = panel.findChild(QPushButton, "choice-miss")
    assert crit is not None and miss is not None
    assert crit.text() == "&1 Critical · <1%" and miss.text() == "&2 Anything but · >99%"
    assert crit.toolTip().endswith("Chance of success: 1/1024")


def test_print_and_export_suggest_the_same_file_name_with_no_colon(
        window: MainWindow, tmp_path: object, monkeypatch: object) -> None:
    import pytest
    from PySide6.QtPrintSupport import QPrintDialog
    from PySide6.QtWidgets import QDialog

    from fightdesk.engine.engine import Engine
    from tests.report.scripted import two_round_fight

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    printing = window.summary_printing
    assert printing is not None
    window.show_session(Engine(two_round_fight()), None)
    job: list[str] = []
    suggested: list[str] = []

    def answer(dialog: QDialog) -> bool:
        if isinstance(dialog, QPrintDialog):
            job.append(dialog.printer().docName())
            return False  # nothing is printed
        return True

    monkeypatch.setattr(printing, "run_dialog", answer)
    monkeypatch.setattr(printing, "ask_save_path",
                        lambda caption, name, filt: suggested.append(name) or "")
    printing.print_action.trigger()
    printing.export_actions["pdf"].trigger()
    assert suggested == ["rooftop-duel-at-the-harbour-round-2.pdf"]
    assert job == ["rooftop-duel-at-the-harbour-round-2"]
    assert not any(ch in job[0] for ch in ':/\\*?"<>|')
