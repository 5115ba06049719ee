"""A screen reader and a keyboard reach everything: the accessibility tree of the window
and of each of its dialogs, in every ruleset's demo fight, names every control so that
one can be told from another, and Tab walks the roll panel and the stack dialog."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import load_session
from tests.start_step import answer_surprise

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from fightdesk.ui.main_window import MainWindow

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
DEMOS = {"street-fighter": "demo_fight.json", "d100": "demo_d100.json",
         "roll-under": "demo_roll-under.json", "ashes": "demo_ashes.json"}

ROLE = QAccessible.Role
# What the GM works with: a screen reader must say what each one is.
CONTROLS = {ROLE.PushButton, ROLE.ComboBox, ROLE.SpinBox, ROLE.EditableText, ROLE.CheckBox,
            ROLE.RadioButton, ROLE.Slider, ROLE.List, ROLE.Table, ROLE.Tree, ROLE.ButtonMenu,
            ROLE.ButtonDropDown, ROLE.PageTabList, ROLE.ProgressBar}
# Rows and cells of a table or tree are data, read with their column's header.
ITEMS = {ROLE.Cell, ROLE.TreeItem, ROLE.ListItem, ROLE.Row, ROLE.ColumnHeader,
         ROLE.RowHeader, ROLE.PageTab, ROLE.MenuItem}
# A label is read by its text (empty until there is something to say).
TEXT = {ROLE.StaticText}


def accessibility_problems(root: QObject) -> list[str]:
    """Every control under ``root`` a screen reader cannot name, or names like another:
    no letter or digit in its name ("⋯" says nothing), or the same role and name as
    another control (three "Act" buttons: whose?)."""
    found: list[str] = []
    names: Counter[tuple[str, str]] = Counter()

    def walk(node: QAccessibleInterface | None) -> None:
        if node is None or not node.isValid():
            return
        state = node.state()
        if state.invisible:
            return
        role = node.role()
        widget = node.object()
        name = node.text(QAccessible.Text.Name).strip()
        if role not in ITEMS | TEXT and (role in CONTROLS or state.focusable):
            what = f"{role.name} {type(widget).__name__} {getattr(widget, 'objectName', str)()!r}"
            if not any(ch.isalnum() for ch in name):
                found.append(f"unnamed: {what} {name!r}")
            elif state.focusable:
                names[(role.name, name)] += 1
        for i in range(node.childCount()):
            walk(node.child(i))

    walk(QAccessible.queryAccessibleInterface(root))
    found += [f"{n} controls named alike: {role} {name!r}" for (role, name), n in names.items()
              if n > 1]
    return found


def shown_windows() -> list[QWidget]:
    return [w for w in QApplication.topLevelWidgets() if w.isVisible()]


def open_demo(window: MainWindow, ruleset: str) -> Engine:
    engine = Engine(load_session(RESOURCES / DEMOS[ruleset]))
    window.show_session(engine, None)
    return engine


@pytest.mark.parametrize("ruleset", DEMOS)
def test_every_control_is_named_through_a_fight(window: MainWindow, qtbot: QtBot,
                                                ruleset: str) -> None:
    """The window, the roll panel, the questions and the stack dialog, at each step of
    a fight the autopilot plays (its dice pinned by the seed)."""
    engine = open_demo(window, ruleset)
    rng = random.Random(1)
    problems: set[str] = set()
    stack_seen = roll_seen = False
    for _ in range(30):
        qtbot.wait(1)
        stack = window._stack_dialog
        if stack is not None and stack.isVisible():
            stack_seen = True
        roll_seen = roll_seen or window.roll_panel.isVisible()
        for top in shown_windows():
            problems.update(f"{type(top).__name__}: {p}" for p in accessibility_problems(top))
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        if command is None or not window.document.apply(command).ok:
            break
    assert sorted(problems) == []
    assert stack_seen or roll_seen  # the fight reached a roll or an interrupt


def dialogs_of(window: MainWindow, engine: Engine) -> list[QWidget]:
    """Every dialog the GM opens from the window, opened as the GM would."""
    enc = engine.encounter
    gm = window.gm
    fighter = enc.order[0] if enc.order else next(iter(enc.fighters))
    opened: list[QWidget | None] = [
        gm.edit_fighter(fighter), gm.ask_health(fighter), gm.add_condition(fighter),
        gm.edit_options(), gm.edit_tables(), gm.simulate(), gm.quick_add(),
        window.share.open_dialog()]
    card = window.cards.card(window.cards._order[0]) if window.cards._order else None
    assert card is not None
    for role in card.role_buttons:
        opened.append(window.open_action_dialog(fighter, role=role))
    return [d for d in opened if d is not None]


@pytest.mark.parametrize("ruleset", DEMOS)
def test_every_dialog_names_its_controls(window: MainWindow, qtbot: QtBot,
                                         ruleset: str, tmp_path: Path) -> None:
    from fightdesk.storage.library import Library, new_fighter
    from fightdesk.ui.fighter_form import FighterDialog
    from fightdesk.ui.printing import SummaryScopeDialog
    from fightdesk.ui.ruleset_choice import RulesetChoice

    engine = open_demo(window, ruleset)
    window.add_library_panel(Library(tmp_path / "campaigns"))
    assert window.document.apply(c.StartFight()).ok
    answer_surprise(window.document, engine)
    qtbot.wait(1)
    assert accessibility_problems(window) == []
    dialogs = dialogs_of(window, engine)
    dialogs.append(RulesetChoice("New Fight", "Which rules?", ruleset, window, name="New fight"))
    dialogs.append(SummaryScopeDialog([0, 1], 1, title="Print", show_paper=True, parent=window))
    dialogs.append(FighterDialog(new_fighter(ruleset, "Vera"), "New fighter", window))
    assert len(dialogs) >= 11
    problems: list[str] = []
    for dialog in dialogs:
        dialog.show()
        qtbot.waitExposed(dialog)
        problems += [f"{dialog.windowTitle()}: {p}" for p in accessibility_problems(dialog)]
        if isinstance(dialog, QDialog):
            dialog.reject()
        dialog.close()
    assert problems == []


@pytest.fixture
def screen_reader() -> Iterator[None]:
    """Qt as it is while a screen reader listens."""
    was = QAccessible.isActive()
    QAccessible.setActive(True)
    yield
    QAccessible.setActive(was)


def spoken(widget: QWidget) -> str:
    return QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Description)


def to_the_phases(window: MainWindow) -> None:
    """The street-fighter demo into round 1's phases; Kaede's player rolls her own dice,
    and the GM lets the app roll her action dice ("roll")."""
    from fightdesk.engine import commands as c

    for _ in range(3):
        window.forward_action.trigger()
    engine = window.document.engine
    assert engine is not None
    asked = engine.pending()
    if asked is not None:
        assert window.document.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
    assert engine.encounter.state.stage == "phases"


def test_the_timeline_tells_a_screen_reader_what_it_shows(
        window: MainWindow, qtbot: QtBot, screen_reader: None) -> None:
    """The timeline is painted: its description reads each lane and its chips, in the
    order they are shown, and follows each step."""
    open_demo(window, "street-fighter")
    to_the_phases(window)
    qtbot.wait(1)
    shown = window.timeline.timeline()
    assert shown is not None and any(lane.chips for lane in shown.lanes)
    told = spoken(window.timeline)
    lines = told.splitlines()
    titles = [lane.title for lane in shown.lanes]
    where = [next(i for i, line in enumerate(lines) if line.startswith(f"{t}:")) for t in titles]
    assert where == sorted(where), told
    for lane, at in zip(shown.lanes, where, strict=True):
        for chip in lane.chips:
            assert f"{chip.label} at {shown.columns[chip.column]}" in lines[at], told
    assert shown.current_column is not None
    assert f"Now: {shown.columns[shown.current_column]}" in lines
    window.pass_action.trigger()
    qtbot.wait(1)
    assert spoken(window.timeline) != told


def test_reaching_the_timeline_brings_its_words_up_to_date(window: MainWindow,
                                                          qtbot: QtBot) -> None:
    """Without a screen reader the words are not made at each step (a long fight's
    lanes cost milliseconds); the focus on the timeline makes them."""
    assert not QAccessible.isActive()
    open_demo(window, "street-fighter")
    to_the_phases(window)
    qtbot.wait(1)
    shown = window.timeline.timeline()
    assert shown is not None
    window.activateWindow()
    window.forward_button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(window.forward_button.hasFocus)
    window.timeline.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(window.timeline.hasFocus)
    told = spoken(window.timeline)
    assert all(f"{lane.title}:" in told for lane in shown.lanes), told


def tab_stops(start: QWidget, within: QWidget, qtbot: QtBot, most: int = 40) -> list[QWidget]:
    """The widgets the Tab key reaches from ``start`` while the focus stays in ``within``."""
    within.window().activateWindow()
    start.setFocus(Qt.FocusReason.TabFocusReason)
    seen: list[QWidget] = []
    for _ in range(most):
        now = QApplication.focusWidget()
        if now is None or (now is not within and not within.isAncestorOf(now)) or now in seen:
            break
        seen.append(now)
        qtbot.keyClick(now, Qt.Key.Key_Tab)
    return seen


def test_tab_walks_the_roll_panel_to_its_roll_button(window: MainWindow, qtbot: QtBot) -> None:
    engine = open_demo(window, "d100")
    rng = random.Random(1)
    panel = window.roll_panel
    for _ in range(60):
        qtbot.wait(1)
        if panel.isVisible():
            break
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None and window.document.apply(command).ok
    assert panel.isVisible()
    window.activateWindow()
    stops = tab_stops(panel.option if panel.option.isVisible() else panel.dice, panel, qtbot)
    assert panel.dice in stops and panel.roll_button in stops, stops
    assert stops.index(panel.dice) < stops.index(panel.roll_button)
    names = [QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Name) for w in stops]
    assert all(names), names


def test_tab_walks_the_stack_dialog_to_its_buttons(window: MainWindow, qtbot: QtBot) -> None:
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    window.show_session(engine, None)
    stack_dialog = None
    rng = random.Random(3)
    for _ in range(60):
        qtbot.wait(1)
        stack_dialog = window._stack_dialog
        if stack_dialog is not None and stack_dialog.isVisible():
            break
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None and window.document.apply(command).ok
    assert stack_dialog is not None and stack_dialog.isVisible()
    stack_dialog.activateWindow()
    qtbot.waitExposed(stack_dialog)
    stops = tab_stops(stack_dialog.fighter_box, stack_dialog, qtbot)
    # Every button that can be pressed now, and the table, are on the way round.
    buttons = [b for b in (stack_dialog.add_button, stack_dialog.resolve_next,
                           stack_dialog.resolve_all, stack_dialog.cancel_button,
                           stack_dialog.close_button) if b.isVisible() and b.isEnabled()]
    assert len(buttons) >= 2
    for widget in (stack_dialog.table, *buttons):
        assert widget in stops, [w.objectName() for w in stops]
    # One Tab leaves the table (the arrow keys move between its rows).
    stack_dialog.table.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(stack_dialog.table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not stack_dialog.table


def test_the_main_actions_have_keys(window: MainWindow) -> None:
    """Every item of the File, Edit and Fight menus has a shortcut or an underlined
    letter: the whole fight is played from the keyboard."""
    missing = []
    for menu in (window.file_menu, window.edit_menu, window.fight_menu):
        for act in menu.actions():
            if act.isSeparator() or act.menu() is not None:
                continue
            if act.shortcut().isEmpty() and "&" not in act.text().replace("&&", ""):
                missing.append(act.text())
    assert missing == []
    for act in (window.forward_action, window.pass_action, window.act_action,
                window.health_action, window.stack_action, window.end_round_action):
        assert not act.shortcut().isEmpty(), act.text()


def has_key(button: QWidget) -> bool:
    """A key presses it wherever the focus is in its window: its underlined letter or a
    shortcut of its own."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QAbstractButton

    assert isinstance(button, QAbstractButton)
    return not QKeySequence.mnemonic(button.text()).isEmpty() or not button.shortcut().isEmpty()


@pytest.mark.parametrize("ruleset", DEMOS)
def test_each_answer_and_roll_has_a_key(window: MainWindow, qtbot: QtBot, ruleset: str) -> None:
    """A question's answers, the roll panel's Add and Roll, the stack's buttons: each has
    a key, so the GM never tabs through the window to reach one."""
    from PySide6.QtWidgets import QPushButton

    engine = open_demo(window, ruleset)
    rng = random.Random(1)
    missing: set[str] = set()
    for _ in range(30):
        qtbot.wait(1)
        panels: list[QWidget] = [window.decision_panel, window.roll_panel]
        stack = window._stack_dialog
        if stack is not None and stack.isVisible():
            panels.append(stack)
        for panel in panels:
            for button in panel.findChildren(QPushButton):
                if button.isVisible() and button.isEnabled() and not has_key(button) \
                        and not button.objectName().startswith("takeBack") \
                        and button is not window.decision_panel.fields_ok:
                    missing.add(f"{type(panel).__name__}: {button.text()!r}")
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        if command is None or not window.document.apply(command).ok:
            break
    assert sorted(missing) == []


def test_return_in_a_questions_field_answers_it(window: MainWindow, qtbot: QtBot) -> None:
    """Roll-under's initiative asks each PC's Wisdom roll: Return in a field answers (the
    blank ones rolled by the app), as the OK button does."""
    engine = open_demo(window, "roll-under")
    rng = random.Random(1)
    panel = window.decision_panel
    for _ in range(10):
        qtbot.wait(1)
        decision = panel.decision()
        if (panel.isVisible() and decision is not None and decision.fields
                and decision.fields[0].kind != "choice"):  # a typed field, not a pick
            break
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None and window.document.apply(command).ok
    decision = panel.decision()
    assert decision is not None and decision.fields
    log = len(engine.session.log)
    field = panel.field_input(decision.fields[0].name)
    window.activateWindow()
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert len(engine.session.log) > log
    assert panel.decision() != decision


@pytest.mark.parametrize("ruleset", DEMOS)
def test_the_player_view_names_what_it_shows(window: MainWindow, qtbot: QtBot,
                                             ruleset: str) -> None:
    """The players' screen, on each ruleset's demo, at every step of a fight the autopilot
    plays (its dice pinned by the seed) until an enemy hidden from the players acts: a
    screen reader there names each thing it reaches, as in the GM's window."""
    engine = open_demo(window, ruleset)
    enc = engine.encounter
    hidden = next(fid for fid in enc.order if enc.fighters[fid].side == "enemy")
    assert window.document.apply(c.HideFighter(fighter_id=hidden)).ok
    window.player_view_action.trigger()
    view = window.player_view
    assert view is not None and view.isVisible()
    rng = random.Random(1)
    problems: set[str] = set()
    hidden_acted = False
    for _ in range(80):
        qtbot.wait(1)
        problems.update(accessibility_problems(view))
        if engine.ruleset.views.card(enc, hidden).acting:
            hidden_acted = True
            headline = view.headline.text()
            assert enc.fighters[hidden].name not in headline
            assert "'s turn" not in headline or "an enemy's turn" in headline, headline
            break
        command = engine.ruleset.autopilot.next_command(enc, rng)
        assert command is not None and window.document.apply(command).ok
    assert hidden_acted
    assert view.findChildren(QWidget)  # its cards and timeline were walked
    assert sorted(problems) == []
