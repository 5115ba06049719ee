"""What the screen says at the table, through the widgets: the player view while a hidden
enemy acts and where it opens, chances too small to round, file names, the log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
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


def test_street_fighters_player_view_says_an_enemys_turn_while_a_hidden_one_acts(
        window: MainWindow, qtbot: QtBot) -> None:
    """Street-fighter's round words name only the phase ("phase 10"): while a hidden
    enemy's die is up, the headline still says that an enemy acts, never who."""
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    doc = window.document
    assert doc.apply(c.HideFighter(fighter_id="dock-thug-1")).ok
    window.player_view_action.trigger()
    view = window.player_view
    assert view is not None
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert doc.apply(command).ok
    asked = engine.pending()  # Kaede rolls her own action dice: the app rolls them
    assert asked is not None
    assert doc.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    assert doc.apply(c.SetValue(fighter_id="dock-thug-1", field="status.dice.0.face",
                                value=10)).ok
    assert engine.ruleset.views.round_controls(engine.encounter).actor == "dock-thug-1"
    headline = view.headline.text()
    assert headline.startswith("Round 1 · phase 10") and "an enemy's turn" in headline, headline
    assert not [t for t in view.texts() if "Dock Thug 1" in t]


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
    from fightdesk.ui.plain import plain_tip

    assert crit.toolTip() == plain_tip("Answer: Critical (Alt+1)\nChance of success: 1/1024")


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
    def ask_save_path(caption: str, name: str, filt: str) -> str:
        suggested.append(name)
        return ""  # cancelled: nothing is written

    monkeypatch.setattr(printing, "ask_save_path", ask_save_path)
    printing.print_action.trigger()
    printing.export_actions["pdf"].trigger()
    assert suggested == ["rooftop-duel-at-the-harbour-round-2.pdf"]
    assert job == ["rooftop-duel-at-the-harbour-round-2"]
    assert not any(ch in job[0] for ch in ':/\\*?"<>|')


def small_screen(monkeypatch: object) -> None:
    """Dialogs see a 1093x614 laptop screen (the offscreen screen is larger)."""
    import pytest
    from PySide6.QtCore import QRect

    from fightdesk.ui import screen_fit

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setattr(screen_fit, "available", lambda widget: QRect(0, 0, 1093, 614))


def reachable(button: object, dialog: object) -> bool:
    """The button is inside the dialog's own rectangle, the dialog inside 1093x614."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QWidget

    assert isinstance(button, QWidget) and isinstance(dialog, QWidget)
    corner = button.mapTo(dialog, QPoint(button.width() - 1, button.height() - 1))
    return (dialog.rect().contains(corner) and button.isVisible()
            and dialog.frameGeometry().height() <= 614 and dialog.width() <= 1093)


def test_at_1093x614_the_fighter_editors_ok_and_cancel_are_in_reach(
        qtbot: QtBot, monkeypatch: object) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterDialog

    small_screen(monkeypatch)
    for ruleset in ("street-fighter", "d100", "roll-under", "ashes"):
        dialog = FighterDialog(new_fighter(ruleset, "Vera"), "New fighter")
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        for which in (QDialogButtonBox.StandardButton.Ok, QDialogButtonBox.StandardButton.Cancel):
            assert reachable(dialog.buttons.button(which), dialog), (ruleset, dialog.size())


def test_at_1093x614_the_whole_simulate_result_scrolls_into_view(
        window: MainWindow, qtbot: QtBot, monkeypatch: object) -> None:
    from fightdesk.engine.engine import Engine
    from fightdesk.engine.simulate import simulate
    from fightdesk.storage.sessions import load_session
    from fightdesk.ui.simulate_dialog import SimulateDialog
    from tests.golden import RESOURCES

    small_screen(monkeypatch)
    session = load_session(RESOURCES / "demo_roll-under.json")
    window.show_session(Engine(session), None)
    window.simulate_action.trigger()
    dialog = window.findChild(SimulateDialog)
    assert dialog is not None
    height = dialog.frameGeometry().height()
    result = simulate(session.encounter, fights=10, seed=3, workers=1)
    dialog._done(result)  # what a finished run hands the dialog
    qtbot.wait(10)
    assert dialog.frameGeometry().height() <= max(height, 614)  # it scrolls, not grows
    assert reachable(dialog.close_button, dialog)
    area = dialog.result_area
    bar = area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)  # the result is taller than its room
    bar.setValue(bar.maximum())
    qtbot.wait(10)
    bottom = dialog.summary.mapTo(area.viewport(), dialog.summary.rect().bottomLeft())
    assert 0 <= bottom.y() <= area.viewport().height()


def test_simulates_health_bar_stays_in_its_frame_below_zero() -> None:
    from fightdesk.engine.simulate import FighterOdds, Simulation
    from fightdesk.ui.simulate_dialog import SimulationChart

    sim = Simulation(fights=2, policy="autopilot", seed=0, max_rounds=20, fighter_ids=("a",))
    sim.fighters["a"] = FighterOdds("a", "Ganger", "enemies", down=2, health_total=-14,
                                    health_max=10)
    chart = SimulationChart()
    chart.show_result(sim)
    bar = chart.rows()[-1]
    assert bar[0] == "Ganger" and bar[1] == 0.0 and "health -7.00/10" in bar[3]


def test_view_theme_applies_live_to_every_window_and_is_remembered(
        window: MainWindow, qtbot: QtBot) -> None:
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication, QDialog

    from fightdesk.ui import settings
    from fightdesk.ui.main_window import MainWindow as Window
    from fightdesk.ui.palettes import dark_palette, light_palette

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.palette().color(QPalette.ColorRole.Window)
    dark = dark_palette().color(QPalette.ColorRole.Window)
    from PySide6.QtWidgets import QMenu

    theme_item = next(a for a in window.view_menu.actions() if a.text() == "&Theme")
    menu = theme_item.menu()
    assert isinstance(menu, QMenu)
    assert [a.text() for a in menu.actions()] == ["&System", "&Light", "&Dark"]
    other = QDialog()  # a window open before the change follows it too
    qtbot.addWidget(other)
    other.show()
    try:
        window.theme_actions["dark"].trigger()
        qtbot.waitUntil(lambda: window.palette().color(QPalette.ColorRole.Window) == dark)
        for widget in (window, window.log_view, other):
            assert widget.palette().color(QPalette.ColorRole.Window) == dark
        assert settings.app_settings().value("view/theme") == "dark"
        again = Window()  # the next start reads the setting
        qtbot.addWidget(again)
        assert again.theme_actions["dark"].isChecked()
        window.theme_actions["light"].trigger()
        light = light_palette().color(QPalette.ColorRole.Window)
        qtbot.waitUntil(lambda: window.palette().color(QPalette.ColorRole.Window) == light)
        assert other.palette().color(QPalette.ColorRole.Window) == light
    finally:
        window.theme_actions["system"].trigger()
    assert app.palette().color(QPalette.ColorRole.Window) == before
    assert settings.app_settings().value("view/theme") == "system"


def test_the_log_opens_at_its_newest_entry_when_a_fight_is_opened_again(
        window: MainWindow, qtbot: QtBot) -> None:
    from fightdesk.engine.engine import Engine
    from tests.report.scripted import two_round_fight

    window.resize(1093, 614)
    window.show_session(Engine(two_round_fight()), None)
    tree = window.log_view.tree
    bar = tree.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)  # more lines than room
    bar.setValue(0)  # the GM read back to the start
    window.show_session(Engine(two_round_fight()), None)  # and opens the fight again
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    qtbot.wait(20)
    assert bar.value() == bar.maximum()  # the newest entry in view


def test_with_no_fight_open_the_forward_item_says_so(window: MainWindow) -> None:
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import demo_session

    assert window.document.engine is None
    assert window.forward_button.text() == "No fight open"
    assert window.forward_action.text() == "No Fight Open"
    assert not window.forward_action.isEnabled() and not window.forward_button.isEnabled()
    window.show_session(Engine(demo_session()), None)
    assert window.forward_button.text() == "Start the fight"


# Roles a screen reader announces as controls or as the fight's own views; plain layout
# containers (a bare QWidget, a scroll area's viewport, a button box) are not in the list.
def unnamed_controls(root: QObject) -> list[str]:
    from PySide6.QtGui import QAccessible, QAccessibleInterface
    from PySide6.QtWidgets import (
        QAbstractScrollArea,
        QDialogButtonBox,
        QScrollBar,
        QWidget,
    )

    role = QAccessible.Role
    controls = {role.PushButton, role.ComboBox, role.SpinBox, role.EditableText,
                role.CheckBox, role.RadioButton, role.Slider, role.List, role.Table,
                role.Tree, role.ButtonMenu, role.PageTabList}
    found: list[str] = []

    def walk(node: QAccessibleInterface | None) -> None:
        if node is None or not node.isValid():
            return
        widget = node.object()
        plain = type(widget) in (QWidget, QScrollBar, QDialogButtonBox) or (
            isinstance(widget, QAbstractScrollArea) and not hasattr(widget, "model")
            and type(widget).__module__.startswith("PySide6"))
        ours = isinstance(widget, QWidget) and not type(widget).__module__.startswith("PySide6")
        wanted = node.role() in controls or (ours and not plain)
        if (wanted and not node.state().invisible
                and not node.text(QAccessible.Text.Name).strip()):
            name = widget.objectName() if widget is not None else ""
            found.append(f"{node.role().name} {type(widget).__name__} {name!r}")
        for i in range(node.childCount()):
            walk(node.child(i))

    walk(QAccessible.queryAccessibleInterface(root))
    return found


def test_every_control_of_the_window_and_its_dialogs_has_an_accessible_name(
        window: MainWindow, qtbot: QtBot, tmp_path: object) -> None:
    from pathlib import Path

    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.library import Library, new_fighter
    from fightdesk.storage.sessions import demo_session
    from fightdesk.ui.fighter_form import FighterDialog
    from fightdesk.ui.ruleset_choice import RulesetChoice
    from fightdesk.ui.simulate_dialog import SimulateDialog

    assert isinstance(tmp_path, Path)
    window.show_session(Engine(demo_session()), None)
    window.add_library_panel(Library(tmp_path / "campaigns"))
    assert window.document.apply(c.StartFight()).ok
    assert window.document.apply(c.StartRound()).ok
    qtbot.wait(10)
    assert unnamed_controls(window) == []
    dialogs = [RulesetChoice("New Fight", "Which rules?", None, window, name="New fight"),
               SimulateDialog(lambda: None, window)]
    dialogs += [FighterDialog(new_fighter(r, "Vera"), "New fighter", window)
                for r in ("street-fighter", "d100", "roll-under", "ashes")]
    action = window.open_action_dialog("kaede", role="act")
    assert action is not None
    for dialog in [*dialogs, action]:
        dialog.show()
        qtbot.waitExposed(dialog)
        assert unnamed_controls(dialog) == [], type(dialog).__name__
        dialog.close()


def test_at_1093x614_the_cards_scroll_to_the_fighter_who_acts(
        window: MainWindow, qtbot: QtBot) -> None:
    import random

    from PySide6.QtCore import QRect

    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import load_session
    from tests.golden import RESOURCES

    window.resize(1093, 614)
    engine = Engine(load_session(RESOURCES / "demo_roll-under.json"))
    window.show_session(engine, None)
    rng = random.Random(2)
    cards = window.cards
    scrolled = 0
    for _ in range(40):
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        if command is None or not window.document.apply(command).ok:
            break
        qtbot.wait(5)
        acting = [card for card in cards.cards() if card.is_acting()]
        for card in acting:
            where = QRect(card.mapTo(cards.viewport(), card.rect().topLeft()), card.size())
            assert cards.viewport().rect().intersects(where), card.objectName()
        scrolled = max(scrolled, cards.verticalScrollBar().value())
    assert scrolled > 0  # a fighter below the fold acted, and the cards followed


def test_a_printed_heading_never_breaks_inside_a_word(qapp: object) -> None:
    from fightdesk.report.blocks import Style, Table
    from fightdesk.ui.summary_pages import Layout
    from tests.report.test_summary_pages import a4_writer

    def cell(text: str) -> tuple[tuple[tuple[str, Style], ...], ...]:
        return (((text, Style.PLAIN),),)

    head = ("Fighter", "Armour", "Seriously wounded", "What happened")
    table = Table(head, (False, True, True, False),
                  ((cell("Dock Thug 1"), cell("3"), cell("1"), cell("Jab on Kaede")),),
                  widths=(20, 4, 4, 72))
    layout = Layout(a4_writer())
    pages = layout.pages(layout.units([table]))
    heading_row = pages[0].placed[0][1]
    words = {word for h in head for word in h.split()}
    shown = [text for _, _, text, _ in heading_row.texts]
    assert shown and all(word in words for text in shown for word in text.split()), shown


def test_save_as_suggests_a_file_name_every_desktop_system_takes(
        window: MainWindow, monkeypatch: object) -> None:
    import pytest
    from PySide6.QtWidgets import QFileDialog

    from fightdesk.engine.engine import Engine
    from fightdesk.engine.model import Session, new_encounter

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    window.show_session(Engine(Session.begin(new_encounter("d100", "Ambush: round 2?"))), None)
    offered: list[str] = []

    def ask(parent: object, caption: str, start: str, filters: str) -> tuple[str, str]:
        offered.append(start)
        return "", ""  # cancelled

    monkeypatch.setattr(QFileDialog, "getSaveFileName", ask)
    window.save_as_action.trigger()
    assert len(offered) == 1 and offered[0].endswith("Ambush - round 2.json")
