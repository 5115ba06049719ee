"""Tooltips and status tips show names as text: a fight played in the real window with
fighters named like markup, and after every step every widget's, action's and item's
tooltip and status tip is read the way Qt shows it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QAction, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QWidget
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.ruleset import ActionForm, Odds
from tests.drill_ruleset import DrillRuleset, DrillViews, drill_engine

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

# Each with a word to find it by, and markup that would vanish or turn into an image.
NAMES = {"kaede": ("Zorq", "<b>Zorq</b><img src=x>"),
         "brannock": ("Vexa", "<i>Vexa</i> &amp; <u>co</u>")}
OBJECT = "\ufffc"  # what an <img> leaves in a document's plain text


def as_shown(tip: str, status: bool) -> str:
    """The text the GM sees: the status bar draws plain text; a tooltip is read as rich
    text when Qt guesses it is."""
    if status or not GuiQt.mightBeRichText(tip):
        return tip
    doc = QTextDocument()
    doc.setHtml(tip)
    return doc.toPlainText()


def _items(model: QAbstractItemModel, parent: QModelIndex, depth: int = 0) -> Iterator[QModelIndex]:
    for row in range(min(model.rowCount(parent), 200)):
        for col in range(model.columnCount(parent)):
            index = model.index(row, col, parent)
            yield index
            if col == 0 and depth < 2:
                yield from _items(model, index, depth + 1)


def every_tip(root: QWidget) -> Iterator[tuple[str, str, bool]]:
    """(where, text, is a status tip) for the window, every widget and action in it, and
    every item of its views and combo boxes."""
    widgets = [root, *root.findChildren(QWidget)]
    actions: set[QAction] = set(root.findChildren(QAction))
    for w in widgets:
        where = f"{type(w).__name__} {w.objectName()!r}"
        yield where, w.toolTip(), False
        yield where, w.statusTip(), True
        actions.update(w.actions())
        model = (w.model() if isinstance(w, QAbstractItemView | QComboBox) else None)
        if model is not None:
            for index in _items(model, QModelIndex()):
                for role, status in ((Qt.ItemDataRole.ToolTipRole, False),
                                     (Qt.ItemDataRole.StatusTipRole, True)):
                    value = index.data(role)
                    if isinstance(value, str):
                        yield f"{where} item {index.row()},{index.column()}", value, status
    for a in actions:
        where = f"action {a.text()!r}"
        yield where, a.toolTip(), False
        yield where, a.statusTip(), True


def misread(root: QWidget) -> list[str]:
    wrong = []
    for where, tip, status in every_tip(root):
        shown = as_shown(tip, status)
        if OBJECT in shown:
            wrong.append(f"{where}: an image in {tip!r}")
        for word, name in NAMES.values():
            if word in shown and name not in shown:
                wrong.append(f"{where}: {tip!r} shows as {shown!r}")
    return wrong


def assert_plain(root: QWidget) -> None:
    wrong = misread(root)
    assert not wrong, "\n".join(wrong)


def shown_tip(obj: QObject, status: bool = False) -> str:
    tip = obj.statusTip() if status else obj.toolTip()  # type: ignore[attr-defined]
    return as_shown(tip, status)


@pytest.fixture
def named_in_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drill ruleset names the fighter in a form's reason and in the roll's odds, and
    its turn holder keeps a turn's action (the forward button and Pass name them), as real
    rulesets do ("not Kaede's turn", "Kaede wins", "Act: Kaede...")."""
    forms, odds = DrillViews.action_forms, DrillRuleset.roll_odds

    def named_forms(self: DrillViews, enc: Any, fighter_id: str) -> tuple[ActionForm, ...]:
        return tuple(f._replace(reason=f"{enc.name_of(fighter_id)}: {f.reason}") if f.reason
                     else f for f in forms(self, enc, fighter_id))

    def named_odds(self: DrillRuleset, enc: Any, roll: Any) -> tuple[Odds, ...]:
        who = enc.name_of(roll.roller_id) if roll.roller_id else "someone"
        return tuple(o._replace(label=f"{who} hits: {o.label}") for o in odds(self, enc, roll))

    monkeypatch.setattr(DrillViews, "action_forms", named_forms)
    monkeypatch.setattr(DrillRuleset, "roll_odds", named_odds)
    monkeypatch.setattr(DrillRuleset, "has_turn_action", lambda self, fighter: True)


def test_every_tip_in_a_played_fight_shows_names_as_text(window: MainWindow, qtbot: QtBot,
                                                         named_in_views: None) -> None:
    engine = drill_engine(seed=11)
    for fid, (_, name) in NAMES.items():
        for fight in (engine.encounter, engine.session.start):
            fight.fighters[fid] = fight.fighters[fid].model_copy(update={"name": name})
    window.show_session(engine, None)
    kaede = NAMES["kaede"][1]
    assert_plain(window)

    window.document.apply(c.StartRound())
    assert window.decision_panel.isVisible()
    assert_plain(window)
    window.document.apply(c.Answer(decision_id="initiative", values={"kaede": 1, "brannock": 1}))
    assert_plain(window)
    # Kaede's turn: the round title, the forward button and Pass name her.
    assert kaede in shown_tip(window.round_title)
    assert kaede in shown_tip(window.forward_button)
    assert kaede in shown_tip(window.pass_action)
    assert kaede in shown_tip(window.pass_action, status=True)

    # Brannock's forms are disabled, with a reason that names him (his Act says why on
    # the status bar; the dialog opened for him lists them).
    window.open_action_dialog("brannock", role="act")
    assert NAMES["brannock"][1] in window.statusBar().currentMessage()
    dialog = window.open_action_dialog("brannock")
    assert dialog is not None
    assert_plain(window)
    reasons = [as_shown(dialog.form_box.itemData(i, Qt.ItemDataRole.ToolTipRole) or "", False)
               for i in range(dialog.form_box.count())]
    assert any(NAMES["brannock"][1] in reason for reason in reasons), reasons
    dialog.reject()

    dialog = window.open_action_dialog("kaede", role="act")
    assert dialog is not None
    assert_plain(window)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Strike Brannock: the roll waits
    panel = window.roll_panel
    assert panel.isVisible()
    assert kaede in shown_tip(panel.odds)
    assert_plain(window)
    qtbot.keyClicks(panel.dice, "4")
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)
    assert not panel.isVisible()
    assert_plain(window)
