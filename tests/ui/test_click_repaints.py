"""A click lays out and paints each widget it changes once, and what it paints is right:
a new log line at the end of a full log is in view and the view follows the end; a card
that changes keeps the other cards where they are unless its height changed, and then
they move; the stack table's columns fit their contents before it is painted; nothing
on the screen differs from a full render. Counted in paint and layout events, never in
time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QObject,
    QPoint,
    QRect,
    Qt,
)
from PySide6.QtGui import QImage, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QToolButton, QWidget
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.ruleset import StackRow
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.models import SHOWN_ACTIONS, ItemRole, KeyRole, StackModel
from fightdesk.ui.stack_dialog import InterruptStackDialog

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


class Events(QObject):
    """Counts the events of some types a widget receives."""

    def __init__(self, widget: QWidget, kind: QEvent.Type) -> None:
        super().__init__(widget)
        self.kind = kind
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == self.kind:
            self.count += 1
        return False


def _settle(qapp: QApplication) -> None:
    for _ in range(3):
        qapp.processEvents()


def _screen_and_render(widget: QWidget, qapp: QApplication) -> tuple[QImage, QImage]:
    """The widget as its window's screen holds it after the click's own paints, and the
    widget rendered whole now."""
    _settle(qapp)
    top = widget.window()
    whole = qapp.primaryScreen().grabWindow(top.winId()).toImage()
    screen = whole.copy(QRect(widget.mapTo(top, QPoint(0, 0)), widget.size()))
    return screen, widget.grab().toImage().convertToFormat(screen.format())


def _alike(screen: QImage, full: QImage) -> bool:
    """The same picture but for rounding in a gradient (a health bar's fill differs by one
    in a colour channel between the screen and a grab, before and after this work alike);
    anything stale differs by far more."""
    if screen.size() != full.size():
        return False
    a, b = bytes(screen.constBits()), bytes(full.constBits())
    return all(abs(x - y) <= 2 for x, y in zip(a, b, strict=True))


@pytest.fixture
def full_log(window: MainWindow) -> Engine:
    """The demo with more actions in its log than the log view's rows hold."""
    engine = Engine(demo_session())
    for n in range(SHOWN_ACTIONS + 5):
        assert engine.apply(c.Note(text=f"Note {n}")).ok
    window.show_session(engine, None)
    return engine


def test_a_new_line_at_the_end_of_a_full_log_is_in_view_and_painted_once(
        window: MainWindow, full_log: Engine, qapp: QApplication) -> None:
    tree, model = window.log_view.tree, window.log_model
    _settle(qapp)
    assert model.rowCount() == SHOWN_ACTIONS and model.earlier == 5
    painted = Events(tree.viewport(), QEvent.Type.Paint)
    # The "Show N earlier actions" line reads anew with each step, and is one line tall
    # still: the log's layouts (and the dock's and window's above them) are not run again.
    laid_out = Events(window.log_view, QEvent.Type.LayoutRequest)
    dock_painted = Events(window.log_dock, QEvent.Type.Paint)  # under the flat button
    for n in range(3):
        painted.count = dock_painted.count = 0
        text = f"The crowd roars, {n + 1} times"
        assert window.document.apply(c.Note(text=text)).ok
        _settle(qapp)
        # The oldest line went off the top before the new one came: one layout, one paint.
        assert painted.count == 1
        assert model.rowCount() == SHOWN_ACTIONS and model.earlier == 6 + n
        last = model.index(model.rowCount() - 1, 1)
        assert last.data() == text
        assert tree.viewport().rect().contains(tree.visualRect(last))
        bar = tree.verticalScrollBar()
        assert bar.value() == bar.maximum()
        assert f"Show {6 + n} earlier actions" == window.log_view.earlier_button.text()
        screen, full = _screen_and_render(tree.viewport(), qapp)
        assert screen == full
        screen, full = _screen_and_render(window.log_view.earlier_button, qapp)
        assert screen == full
        assert laid_out.count == 0
        # The first new line moves the tree's scroll bar to the end, painted over the
        # dock; after it, nothing of the dock is painted again for the button's count.
        assert dock_painted.count == 0 or n == 0
    window.undo_action.trigger()
    screen, full = _screen_and_render(tree.viewport(), qapp)
    assert screen == full
    assert model.rowCount() == SHOWN_ACTIONS
    assert model.index(model.rowCount() - 1, 1).data() == "The crowd roars, 2 times"
    assert window.log_view.details.toPlainText() == ""


def test_the_selected_line_stays_in_the_details_pane_as_the_log_grows(
        window: MainWindow, full_log: Engine, qapp: QApplication) -> None:
    tree, model = window.log_view.tree, window.log_model
    tree.setCurrentIndex(model.index(model.rowCount() - 1, 1))
    assert "Note 104" in window.log_view.details.toPlainText()
    assert window.document.apply(c.Note(text="A new line")).ok
    _settle(qapp)
    assert "Note 104" in window.log_view.details.toPlainText()
    window.undo_action.trigger()
    window.undo_action.trigger()  # the selected line's own action goes
    _settle(qapp)
    # The pane follows what is selected now (Qt selects a neighbour), never the gone line.
    shown = window.log_view.selected_entry()
    details = window.log_view.details.toPlainText()
    assert "Note 104" not in details
    assert (shown.summary in details) if shown is not None else details == ""


def _no_overlap(window: MainWindow) -> None:
    cards = window.cards.cards()
    for n, card in enumerate(cards):
        layout = card.layout()
        assert layout is not None
        assert card.height() >= layout.totalHeightForWidth(card.width())
        for other in cards[n + 1:]:
            assert not card.geometry().intersects(other.geometry()), (card.key, other.key)


def test_a_card_that_changes_lays_out_the_grid_only_when_its_height_changes(
        window: MainWindow, qapp: QApplication) -> None:
    engine = Engine(demo_session())
    window.show_session(engine, None)
    # At 1280x800 two cards fit a row: the third is under the first.
    _settle(qapp)
    grid = window.cards.widget()
    assert grid is not None
    laid_out = Events(grid, QEvent.Type.LayoutRequest)
    kaede = window.cards.card("kaede")
    assert kaede is not None
    below = [card for card in window.cards.cards() if card.y() > kaede.y()
             and card.x() < kaede.x() + kaede.width()]
    assert below, "a card under Kaede's"
    before = {card.key: card.geometry() for card in window.cards.cards()}

    # Health: the same lines, the same height; only Kaede's card reads anew.
    assert window.document.apply(c.SetValue(fighter_id="kaede", field="status.health", value=4)).ok
    _settle(qapp)
    assert kaede.health.format() == "Health 4/10"
    assert laid_out.count == 0
    assert {card.key: card.geometry() for card in window.cards.cards()} == before
    screen, full = _screen_and_render(window.cards.viewport(), qapp)
    assert _alike(screen, full)

    # A condition: a new line, a taller card, the card under it moves down.
    assert window.document.apply(c.AddCondition(fighter_id="kaede", name="Dazed")).ok
    _settle(qapp)
    assert "Dazed" in kaede.conditions.text() and kaede.conditions.isVisibleTo(kaede)
    assert kaede.height() > before["kaede"].height()
    assert all(card.y() > before[card.key].y() for card in below)
    _no_overlap(window)
    screen, full = _screen_and_render(window.cards.viewport(), qapp)
    assert _alike(screen, full)

    window.undo_action.trigger()  # the line goes: the card shrinks back
    _settle(qapp)
    assert {card.key: card.geometry() for card in window.cards.cards()} == {
        **before, "kaede": before["kaede"]}
    screen, full = _screen_and_render(window.cards.viewport(), qapp)
    assert _alike(screen, full)


def _stack_models() -> tuple[QStandardItemModel, QStandardItemModel]:
    stack = QStandardItemModel(0, 7)
    stack.setHorizontalHeaderLabels(["Fighter", "Action", "Uses", "Speed", "Spent", "Cost",
                                     "Interrupts"])
    fighters = QStandardItemModel(0, 1)
    fighters.appendRow(QStandardItem("Kaede"))
    return stack, fighters


def _row(*texts: str) -> list[QStandardItem]:
    return [QStandardItem(text) for text in texts]


def _widths(dialog: InterruptStackDialog) -> list[int]:
    header = dialog.table.horizontalHeader()
    return [header.sectionSize(n) for n in range(header.count())]


def test_the_stack_tables_columns_fit_a_change_before_it_is_painted(
        qtbot: QtBot, qapp: QApplication) -> None:
    stack, fighters = _stack_models()
    dialog = InterruptStackDialog(stack, fighters)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    rows = (_row("Kaede", "Jab", "die 7", "3", "1", "one action die", "\N{EM DASH}"),
            _row("Kaede", "Spinning Piledriver (grapple)", "die 10 and 2 EP",
                 "12", "2", "2 EP", "Kaede's Jab"))
    for step in ("add", "add", "grow", "take", "take"):
        if step == "add":
            stack.appendRow(rows[stack.rowCount()])
        elif step == "grow":  # a row that stays reads longer (what it interrupts now)
            item = stack.item(0, 6)
            assert item is not None
            item.setText("Kaede's Spinning Piledriver (grapple)")
        else:
            stack.takeRow(stack.rowCount() - 1)
        # Before the event loop runs (before any paint), the columns already are what a
        # dialog opened now on the same stack gives them (the Fighter column, fitted by
        # the dialog itself, keeps its width here: the others must follow on their own).
        now = _widths(dialog)
        fresh = InterruptStackDialog(stack, fighters)
        qtbot.addWidget(fresh)
        fresh.resize(dialog.size())
        fresh.show()
        qtbot.waitExposed(fresh)
        _settle(qapp)
        assert now == _widths(fresh), step
        fresh.close()
        _settle(qapp)
        assert _widths(dialog) == now
        screen, full = _screen_and_render(dialog.table.viewport(), qapp)
        assert screen == full


class Rows(StackModel):
    """A stack model over rows given here (the ruleset's stack is not needed)."""

    def __init__(self, rows: list[StackRow]) -> None:
        super().__init__()
        self.rows = rows

    def _fetch(self) -> list[tuple[Any, Any]]:
        return [(row.id, row) for row in self.rows]


# What QStyledItemDelegate asks for, plus the model's own roles.
ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole,
         Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ForegroundRole,
         Qt.ItemDataRole.CheckStateRole, Qt.ItemDataRole.DecorationRole,
         Qt.ItemDataRole.BackgroundRole, ItemRole, KeyRole)


def test_the_stack_models_multi_data_answers_every_role_like_data() -> None:
    model = Rows([StackRow("s1", "kaede", "Kaede", "Jab", "die 7", 3, 1, "one die"),
                  StackRow("s2", "brannock", "Brannock", "Throw", "die 10", None, 2, "2 EP",
                           note="Grapple", reacts_to="Kaede's Jab")])
    model.engine = object()  # type: ignore[assignment]  # refresh only asks _fetch
    model.refresh()
    assert model.rowCount() == 2
    answered = 0
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            for role in ROLES:
                slot = QModelRoleData(int(role))
                model.multiData(index, QModelRoleDataSpan(slot))
                expected = model.data(index, int(role))
                assert slot.data() == expected, (row, column, role)
                answered += expected is not None
    assert answered > 2 * 7
    slot = QModelRoleData(int(Qt.ItemDataRole.DisplayRole))
    model.multiData(QModelIndex(), QModelRoleDataSpan(slot))
    assert slot.data() is None


def test_the_stack_table_is_painted_once_per_change_of_the_stack(
        window: MainWindow, qapp: QApplication) -> None:
    from .test_table_bugs import demo_past_the_ten, move

    engine = demo_past_the_ten(window)
    assert window.document.apply(move(engine, "brannock", "act", maneuver="Roundhouse")).ok
    _settle(qapp)
    dialog = window._stack_dialog
    assert dialog is not None and dialog.isVisible()
    painted = Events(dialog.table.viewport(), QEvent.Type.Paint)
    header = Events(dialog.table.horizontalHeader().viewport(), QEvent.Type.Paint)
    widths = _widths(dialog)
    interrupt = move(engine, "kaede", "interrupt", ep_speed=1)
    for click in (lambda: window.document.apply(interrupt), window.undo_action.trigger,
                  window.redo_action.trigger):
        painted.count = header.count = 0
        click()
        _settle(qapp)
        if not engine.encounter.state.stack:  # Undo took the exchange back: nothing left,
            assert not dialog.isVisible()  # the dialog closed itself (Redo opens it again)
            widths = _widths(dialog)
            continue
        # A row comes or goes and the columns fit it: painted once (Qt painted the table
        # again, on a timer after the first paint, for the columns that changed width).
        assert painted.count == 1 and header.count <= 1
        screen, full = _screen_and_render(dialog.table, qapp)
        assert screen == full
        assert _widths(dialog) != widths  # the columns did change, so the test means it
        widths = _widths(dialog)


def test_a_step_lays_out_the_round_bar_only_when_what_it_shows_changes(
        window: MainWindow, qapp: QApplication) -> None:
    window.show_session(Engine(demo_session()), None)
    assert window.document.apply(c.Note(text="The fighters gather")).ok  # Undo can be used
    _settle(qapp)
    bar = window.round_bar
    laid_out = Events(bar, QEvent.Type.LayoutRequest)
    undo = bar.widgetForAction(window.undo_action)
    redo = bar.widgetForAction(window.redo_action)
    assert isinstance(undo, QToolButton) and isinstance(redo, QToolButton)
    for n in range(3):  # a note: the round bar reads the same, the undo step is new
        assert window.document.apply(c.Note(text=f"Note {n}")).ok
        _settle(qapp)
    assert laid_out.count == 0
    assert undo.isEnabled() and not redo.isEnabled() and undo.text() == "Undo"
    # The Edit menu names the step to undo as it opens.
    window.edit_menu.popup(QPoint(0, 0))
    assert window.undo_action.text() == "&Undo Note 2"
    assert window.redo_action.text() == "&Redo"
    window.edit_menu.hide()
    # Undo: Redo can be used now, and the screen shows it so.
    window.undo_action.trigger()
    screen, full = _screen_and_render(bar, qapp)
    assert redo.isEnabled() and screen == full
    window.edit_menu.popup(QPoint(0, 0))
    assert window.undo_action.text() == "&Undo Note 1"
    assert window.redo_action.text() == "&Redo Note 2"
    # While the menu is open, a step renames its items at once.
    window.redo_action.trigger()
    assert window.undo_action.text() == "&Undo Note 2"
    assert window.redo_action.text() == "&Redo"
    window.edit_menu.hide()
    screen, full = _screen_and_render(bar, qapp)
    assert not redo.isEnabled() and screen == full


def test_a_group_members_line_reads_anew_without_measuring_the_card_again(
        window: MainWindow, qapp: QApplication) -> None:
    window.show_session(Engine(demo_session()), None)
    _settle(qapp)
    group = next(card for card in window.cards.cards() if len(card._member_radios) > 1)
    before = {card.key: card.geometry() for card in window.cards.cards()}
    measured: list[int] = []
    measure = group.fit_height

    def counted() -> None:
        measured.append(1)
        measure()

    group.fit_height = counted  # type: ignore[method-assign]
    member = group._member_radios[1]
    fighter = str(member.property("fighter_id"))
    assert window.document.apply(c.SetValue(fighter_id=fighter, field="status.health", value=1)).ok
    _settle(qapp)
    assert "1/" in member.text() and member.toolTip()
    assert measured == []  # the same lines: the card keeps its height unmeasured
    assert {card.key: card.geometry() for card in window.cards.cards()} == before
    screen, full = _screen_and_render(group, qapp)
    assert _alike(screen, full)
    # A condition on the member: its line reads longer, still one line; on a fighter of
    # its own, a new line and a taller card.
    assert window.document.apply(c.AddCondition(fighter_id=fighter, name="Dazed")).ok
    _settle(qapp)
    assert "Dazed" in member.text()
    assert group.height() == before[group.key].height()
    screen, full = _screen_and_render(group, qapp)
    assert _alike(screen, full)
    _no_overlap(window)


def test_an_act_that_opens_the_stack_shows_the_window_once_and_the_dialog_ready(
        window: MainWindow, qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    from .test_table_bugs import demo_past_the_ten, move

    engine = demo_past_the_ten(window)
    rules, enc = engine.ruleset, engine.encounter
    _settle(qapp)  # the library dock, built after the first fight, is in
    shown: list[int] = []
    show = window.views.show_views

    def counted(auto_open: bool = True) -> None:
        shown.append(1)
        show(auto_open)

    monkeypatch.setattr(window.views, "show_views", counted)
    assert window.document.apply(move(engine, "brannock", "act", maneuver="Roundhouse")).ok
    _settle(qapp)
    dialog = window._stack_dialog
    assert dialog is not None and dialog.isVisible()
    assert len(shown) == 1  # the dialog's opening does not show the whole window again
    assert dialog.resolve_next.isEnabled() and dialog.status.text() == rules.views.describe_state(enc)
    assert not window.decision_panel.isVisible()
    assert window.stack_action.isEnabled()
    screen, full = _screen_and_render(dialog, qapp)
    assert screen == full
