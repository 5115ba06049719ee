"""The log dock: one line per action with its answers and dice folded under it, text on
two lines cut only between words (whole in the tooltip), the exact odds of a roll in the
details, and a long log costing a click no more than a short one (counted in rows the
model touches and calls the view makes, never in time)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.ui.log_view import ELLIPSIS, LogView, two_lines
from fightdesk.ui.models import SHOWN_ACTIONS, KeyRole, LogModel, StepRole
from tests.drill_ruleset import Strike, drill_engine
from tests.engine.test_shared_core import start

from .fake_ruleset import PracticeEngine, practice_engine

SMALL_WINDOW = 3


@pytest.fixture
def monkeypatch_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows hold only the latest three actions, so a short fight moves the window."""
    from fightdesk.ui import models

    monkeypatch.setattr(models, "SHOWN_ACTIONS", SMALL_WINDOW)


def top_texts(model: LogModel) -> list[str]:
    return [model.index(row, 1).data() for row in range(model.rowCount())]


def folded_texts(model: LogModel, row: int) -> list[str]:
    parent = model.index(row, 0)
    return [model.index(r, 1, parent).data() for r in range(model.rowCount(parent))]


# --- one line per action --------------------------------------------------------------------


def test_an_action_folds_its_answers_and_rolls_under_one_line(window: Any, qtbot: QtBot) -> None:
    engine = drill_engine()
    window.show_session(engine, None)
    start(engine)  # Start Round and the initiative question answered: one action
    model, tree = window.log_model, window.log_view.tree
    assert len(engine.session.log) == 2 and model.rowCount() == 1
    assert top_texts(model) == [engine.session.log[0].summary]
    folded = folded_texts(model, 0)
    assert engine.session.log[1].summary in folded  # the answer, under its action
    assert any("d20" in line for line in folded)  # and its rolls
    steps = model.index(0, 0).data(StepRole)
    assert [e.seq for e in steps] == [0, 1]
    assert model.index(0, 0).data(KeyRole) == 1  # revert to here keeps the whole action
    # Only the newest action with dice is open; a new one folds it.
    assert tree.isExpanded(model.index(0, 0))
    assert window.document.apply(c.Note(text="The crowd roars")).ok
    assert model.rowCount() == 2
    assert not tree.isExpanded(model.index(0, 0))
    # Undo takes the note's row away, and nothing else.
    window.undo_action.trigger()
    assert model.rowCount() == 1 and folded_texts(model, 0) == folded


def test_a_strike_and_its_roll_are_one_action_with_the_odds_in_the_details(
        window: Any, qtbot: QtBot) -> None:
    engine = drill_engine()
    window.show_session(engine, None)
    start(engine)
    doc = window.document
    assert doc.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert doc.apply(c.Contribute(roll_id=roll.id, fighter_id="brannock", contribution="assist",
                                  amount=2)).ok
    panel = engine.ruleset.views.roll_view(engine.encounter)  # what the roll panel shows
    assert panel is not None
    odds = panel.odds
    assert doc.apply(c.MakeRoll(roll_id=roll.id, dice=[[4]])).ok
    made = next(e for e in engine.session.log[-1].events if e.roll is not None)
    assert made.data["odds"] == [[o.label, o.exact] for o in odds]
    assert made.data["odds"][0][1] == "3/4"  # 15 or under on a d20
    model, view = window.log_model, window.log_view
    row = model.rowCount() - 1
    view.tree.setCurrentIndex(model.index(row, 1))
    text = " ".join(view.details.toPlainText().split())
    assert f"chance of {odds[0].label}: 3/4 (75%)" in text
    assert "faces: 4" in text and "typed in by the GM" in text
    # The strike, the help and the roll: one action in the log.
    assert engine.session.log[-1].step == engine.session.log[-3].step
    assert top_texts(model)[row] == engine.session.log[-3].summary


def test_a_roll_logged_without_odds_reads_as_before(window: Any, engine: PracticeEngine) -> None:
    window.show_session(engine, None)
    assert window.document.apply(c.FreeRoll(notation="2d6", who="Brannock Vale")).ok
    view, model = window.log_view, window.log_model
    view.tree.setCurrentIndex(model.index(model.rowCount() - 1, 1))
    text = view.details.toPlainText()
    assert "Brannock Vale: 2d6" in text and "chance of" not in text


# --- two lines, cut between words ----------------------------------------------------------


def test_a_long_line_is_cut_between_words_and_whole_in_the_tooltip(window: Any,
                                                                     engine: PracticeEngine) -> None:
    window.show_session(engine, None)
    long_note = ("Brannock Vale sweeps the harbour crane's chain across the pier and "
                 "everyone on the planks is knocked into the cold water below")
    assert window.document.apply(c.Note(text=long_note)).ok
    model = window.log_model
    index = model.index(model.rowCount() - 1, 1)
    assert index.data() == long_note
    tip = QTextDocument()
    tip.setHtml(index.data(Qt.ItemDataRole.ToolTipRole))
    assert long_note in " ".join(tip.toPlainText().split())  # whole, as plain text
    metrics = QFontMetrics(window.log_view.tree.font())
    width = metrics.horizontalAdvance("Brannock Vale sweeps the harbour")
    shown = two_lines(metrics, long_note, width)
    assert shown.endswith(ELLIPSIS) and shown != long_note
    kept = shown.removesuffix(ELLIPSIS).split(" ")
    assert long_note.split(" ")[:len(kept)] == kept  # whole words only
    assert len(kept) >= 4  # two lines' worth, not one
    # What fits stays whole; a word longer than both lines is the only thing cut inside.
    assert two_lines(metrics, "Phase 9", width) == "Phase 9"
    word = "Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    assert two_lines(metrics, word, width // 4) != word
    # Every row has room for two lines of text.
    tree = window.log_view.tree
    assert tree.uniformRowHeights()
    assert tree.visualRect(index).height() >= 2 * metrics.lineSpacing()


# --- a long log costs a click no more than a short one ----------------------------------------


def long_log(entries: int) -> PracticeEngine:
    """A practice fight whose log holds ``entries`` notes (copies of one, each its own step)."""
    engine = practice_engine()
    assert engine.apply(c.Note(text="The crowd roars")).ok
    note = engine.session.log[0]
    engine.session.log[:] = [replace(note, seq=n, step=n) for n in range(entries)]
    return engine


class Counted(LogModel):
    """A log model that counts what the view asks of it."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[str] = Counter()

    def index(self, row: int, column: int, parent: Any = QModelIndex()) -> QModelIndex:  # noqa: B008
        self.calls["index"] += 1
        return super().index(row, column, parent)

    def hasChildren(self, parent: Any = QModelIndex()) -> bool:  # noqa: B008
        self.calls["hasChildren"] += 1
        return super().hasChildren(parent)

    def flags(self, index: Any) -> Qt.ItemFlag:
        self.calls["flags"] += 1
        return super().flags(index)

    def multiData(self, index: Any, roleDataSpan: Any) -> None:
        self.calls["data"] += 1
        super().multiData(index, roleDataSpan)


def one_click(entries: int, qtbot: QtBot) -> tuple[Counter[str], Counter[str]]:
    """Rows the model reports touched, and the calls a shown log view makes, for one new
    entry, its undo and its redo at the end of a log of ``entries``."""
    engine = long_log(entries)
    model = Counted()
    model.set_engine(engine)
    engine.subscribe(model.refresh)
    view = LogView()
    qtbot.addWidget(view)
    view.set_model(model)
    view.resize(360, 500)
    view.show()
    qtbot.waitExposed(view)
    touched: Counter[str] = Counter()
    for signal, name in ((model.rowsInserted, "inserted"), (model.rowsRemoved, "removed")):
        signal.connect(lambda _p, first, last, name=name: touched.update({name: last - first + 1}))
    model.modelReset.connect(lambda: touched.update({"reset": 1}))
    model.layoutChanged.connect(lambda: touched.update({"layout": 1}))
    for _ in range(3):
        QApplication.processEvents()
    model.calls.clear()
    assert engine.apply(c.Note(text="Kaede circles left")).ok
    assert engine.undo() and engine.redo()
    view.repaint()
    QApplication.processEvents()
    assert model.index(model.rowCount() - 1, 1).data() == "Kaede circles left"
    return touched, model.calls


def test_a_new_entry_and_its_undo_touch_the_same_rows_at_entry_10000_as_at_100(qtbot: QtBot) -> None:
    short_rows, short_calls = one_click(100, qtbot)
    long_rows, long_calls = one_click(10_000, qtbot)
    # The note in, out and in again (the oldest shown action dropping off the top and
    # coming back): a row at a time, never a reset or a relayout of the whole log.
    assert short_rows == long_rows
    assert set(long_rows) <= {"inserted", "removed"} and sum(long_rows.values()) <= 6
    # The view asks about the rows it holds (at most SHOWN_ACTIONS), not the log.
    for what in ("index", "hasChildren", "flags", "data"):
        assert long_calls[what] <= short_calls[what] * 1.1 + 20, (what, short_calls, long_calls)
    assert long_calls["index"] < 10 * SHOWN_ACTIONS


def test_older_actions_come_back_on_request_and_revert_refreshes_once(window: Any,
                                                                     qtbot: QtBot) -> None:
    engine = long_log(SHOWN_ACTIONS + 60)
    window.show_session(engine, None)
    model, view = window.log_model, window.log_view
    assert model.rowCount() == SHOWN_ACTIONS and model.earlier == 60
    assert view.earlier_button.isVisible() and "60 earlier actions" in view.earlier_button.text()
    qtbot.mouseClick(view.earlier_button, Qt.MouseButton.LeftButton)
    assert model.rowCount() == SHOWN_ACTIONS + 60 and model.earlier == 0
    assert not view.earlier_button.isVisible()
    # Revert to here over 50 steps: the window is told once, and the rows follow.
    changed: list[object] = []
    window.document.changed.connect(changed.append)
    target = model.index(model.rowCount() - 51, 0).data(KeyRole)
    assert window.document.revert_to(target) == 50
    assert len(changed) == 1
    assert model.rowCount() == SHOWN_ACTIONS + 10
    assert model.index(model.rowCount() - 1, 0).data(KeyRole) == target


# --- the rows always read as a model built afresh -----------------------------------------


def rows_of(model: LogModel) -> list[tuple[Any, str, list[str]]]:
    return [(model.index(r, 0).data(KeyRole), model.index(r, 1).data(), folded_texts(model, r))
            for r in range(model.rowCount())]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["note", "strike", "help", "roll", "undo", "redo", "earlier"]),
                max_size=25))
def test_the_rows_followed_step_by_step_read_as_rows_built_afresh(
        monkeypatch_shown: None, steps: list[str]) -> None:
    """Whatever the GM does (actions, a strike whose help and roll join it, undo, redo,
    older actions brought back), the rows kept up to date one change at a time are the
    latest actions of the whole log, each with its folded lines."""
    engine = drill_engine()
    start(engine)
    model = LogModel()
    model.set_engine(engine)
    engine.subscribe(model.refresh)
    for n, step in enumerate(steps):
        roll = engine.encounter.state.roll
        if step == "note":
            engine.apply(c.Note(text=f"note {n}"))
        elif step == "strike" and roll is None:
            engine.apply(Strike(fighter_id="kaede", target_id="thug-1"))
        elif step == "help" and roll is not None:
            engine.apply(c.Contribute(roll_id=roll.id, fighter_id="brannock",
                                      contribution="assist", amount=1))
        elif step == "roll" and roll is not None:
            engine.apply(c.MakeRoll(roll_id=roll.id))
        elif step == "undo":
            engine.undo()
        elif step == "redo":
            engine.redo()
        elif step == "earlier":
            model.show_earlier()
        fresh = LogModel()
        fresh.set_engine(engine)
        fresh.show_earlier()
        whole = rows_of(fresh)
        shown = rows_of(model)
        assert shown == whole[len(whole) - len(shown):]
        assert model.earlier == len(whole) - len(shown)
        assert len(shown) >= min(len(whole), SMALL_WINDOW)


def test_the_model_keeps_qts_rules_while_its_rows_move(qtmodeltester: Any,
                                                        monkeypatch_shown: None) -> None:
    """Qt's model tester watches every signal while actions join, drop off the top, come
    back after undo, and older ones are brought back."""
    engine = drill_engine()
    start(engine)
    model = LogModel()
    model.set_engine(engine)
    engine.subscribe(model.refresh)
    qtmodeltester.check(model)
    for n in range(5):
        assert engine.apply(c.Note(text=f"note {n}")).ok
    assert engine.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert engine.apply(c.Contribute(roll_id=roll.id, fighter_id="brannock",
                                     contribution="assist", amount=1)).ok
    assert engine.apply(c.MakeRoll(roll_id=roll.id)).ok
    assert model.rowCount() == SMALL_WINDOW and model.earlier == 4
    for _ in range(3):
        assert engine.undo()
    assert engine.redo()
    model.show_earlier()
    assert model.earlier == 0
    qtmodeltester.check(model)
