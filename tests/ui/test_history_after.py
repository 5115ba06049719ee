"""A long fight opens live fight first: the window shows it and takes clicks at once,
its history (the log view's rows, undo reaching back) arrives after, and whatever needs
the history before it is in reads it then (storage/history.py, FightDocument)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QToolButton
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.storage.files import FileProblem
from fightdesk.storage.history import LIVE_FIRST_FROM, open_live_first
from fightdesk.storage.sessions import demo_session, load_session, save_session
from fightdesk.ui.main_window import MainWindow
from fightdesk.ui.models import SHOWN_ACTIONS

NOTES = 5000


@pytest.fixture(scope="module")
def long_fight(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Session]:
    """A 5,003-entry fight: two health changes around 5,000 GM notes, one step undone."""
    engine = Engine(demo_session())
    engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=7))
    for n in range(NOTES):
        engine.apply(c.Note(text=f"note {n}"))
    engine.apply(c.SetValue(fighter_id="brannock", field="status.health", value=5))
    engine.apply(c.SetValue(fighter_id="brannock", field="status.health", value=3))
    engine.undo()  # one step in the redo list
    path = tmp_path_factory.mktemp("long") / "long.json"
    save_session(engine.session, path)
    assert path.stat().st_size > LIVE_FIRST_FROM
    return path, engine.session


def _undo_button(window: MainWindow) -> QToolButton:
    button = window.round_bar.widgetForAction(window.undo_action)
    assert isinstance(button, QToolButton)
    return button


def test_the_fight_is_shown_and_undo_works_before_its_history_is_in(
        window: MainWindow, qtbot: QtBot, long_fight: tuple[Path, Session]) -> None:
    path, saved = long_fight
    assert window.open_file(path)
    doc = window.document
    engine = doc.engine
    assert engine is not None
    # Shown, its history not in yet: the log view says so plainly.
    assert doc.history_pending
    assert engine.encounter == saved.encounter
    assert window.cards.isVisible() and window.windowTitle() == "long.json[*] - fightdesk"
    assert window.log_model.rowCount() == 0
    assert window.log_view.loading_label.isVisible()
    assert "Loading the fight's history" in window.log_view.loading_label.text()
    assert window.undo_action.isEnabled() and window.redo_action.isEnabled()

    # A click on Undo right away: the history is read first, then the last step undone.
    qtbot.mouseClick(_undo_button(window), Qt.MouseButton.LeftButton)
    assert not doc.history_pending
    assert engine.encounter.fighters["brannock"].status.health == 12
    assert [e.seq for e in engine.session.log] == [e.seq for e in saved.log[:-1]]
    assert [e.seq for e in engine.session.redo] == [e.seq for e in saved.redo + saved.log[-1:]]
    assert engine.rebuild() == engine.encounter
    # The log view is complete: the latest actions as rows, every older one on request.
    model = window.log_model
    assert not window.log_view.loading_label.isVisible()
    assert model.rowCount() == SHOWN_ACTIONS
    assert model.rowCount() + model.earlier == len(saved.log) - 1
    assert model.index(model.rowCount() - 1, 1).data() == f"note {NOTES - 1}"
    assert model.show_earlier() == len(saved.log) - 1 - SHOWN_ACTIONS
    # Undo reaches back through the whole log; redo brings the steps back.
    assert doc.undo_stack.count() == len(saved.log) + len(saved.redo)
    window.redo_action.trigger()
    window.redo_action.trigger()
    assert engine.encounter.fighters["brannock"].status.health == 3
    assert window.isWindowModified()


def test_the_history_arrives_by_itself_and_the_log_view_ends_up_complete(
        window: MainWindow, qtbot: QtBot, long_fight: tuple[Path, Session]) -> None:
    path, saved = long_fight
    assert window.open_file(path)
    doc = window.document
    assert doc.history_pending
    # Once the fight is painted the history is read a slice at a time between clicks.
    qtbot.waitUntil(lambda: doc._history_timer is not None, timeout=5000)
    qtbot.waitUntil(lambda: not doc.history_pending, timeout=60000)
    engine = doc.engine
    assert engine is not None
    assert engine.session == saved
    model = window.log_model
    assert model.rowCount() + model.earlier == len(saved.log)
    # (the row says the override with its old value, the line of its event)
    assert model.index(model.rowCount() - 1, 1).data() == \
        "GM set Brannock Vale's health to 5 (was 12)"
    assert not window.log_view.loading_label.isVisible()
    window.edit_menu.aboutToShow.emit()  # the menu names the step as it opens
    assert window.undo_action.text() == "&Undo GM set Brannock Vale's health to 5"
    assert not window.isWindowModified()


def test_saving_and_printing_before_the_history_is_in_use_all_of_it(
        window: MainWindow, long_fight: tuple[Path, Session], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    path, saved = long_fight
    assert window.open_file(path)
    assert window.document.history_pending
    copy = tmp_path / "copy.json"
    assert window.files.save_to(copy)
    assert load_session(copy) == saved

    assert window.open_file(path)
    printing = window.summary_printing
    assert printing is not None and window.document.history_pending
    assert printing.export_actions["md"].isEnabled()
    monkeypatch.setattr(printing, "run_dialog", lambda dialog: True)
    monkeypatch.setattr(printing, "ask_save_path", lambda caption, name, filt: str(tmp_path / name))
    printing.export_actions["md"].trigger()
    assert not window.document.history_pending
    (summary,) = tmp_path.glob("*.md")
    assert f"note {NOTES - 1}" in summary.read_text(encoding="utf-8")


def test_a_history_that_cannot_be_read_is_said_plainly_and_loses_nothing(
        window: MainWindow, qtbot: QtBot, long_fight: tuple[Path, Session],
        tmp_path: Path) -> None:
    path, saved = long_fight
    data = json.loads(path.read_text(encoding="utf-8"))
    data["log"][2500]["seq"] = "twelve"  # one bad entry deep in the log
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data, indent=1), encoding="utf-8")
    before = broken.read_bytes()
    with pytest.raises(FileProblem) as refused:
        load_session(broken)

    assert window.open_file(broken)
    doc = window.document
    assert doc.history_pending  # the live fight itself is sound: shown at once
    qtbot.waitUntil(lambda: not doc.history_pending, timeout=60000)
    # The same one line a load gives: the file, the field, the problem.
    assert doc.history_problem == str(refused.value)
    assert "broken.json at log[2500].seq" in doc.history_problem
    box = window.history_box
    assert box is not None and box.isVisible() and not box.isModal()
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert box.text().startswith(doc.history_problem + "\n\nThe fight is shown as it is now")
    assert box.icon() == QMessageBox.Icon.Warning
    assert "could not be read" in window.log_view.loading_label.text()
    box.close()
    # Nothing lost: the file is as it was, and the fight goes on from where it stood, as
    # a new unsaved fight (Save asks for a new name).
    assert broken.read_bytes() == before
    engine = doc.engine
    assert engine is not None
    assert engine.encounter == saved.encounter
    assert doc.path is None and window.isWindowModified()
    assert engine.session.log == [] and not window.undo_action.isEnabled()
    window.document.apply(c.Note(text="on we go"))
    assert [e.summary for e in engine.session.log] == ["on we go"]


def test_live_first_reads_what_a_load_reads(long_fight: tuple[Path, Session]) -> None:
    path, saved = long_fight
    session, history = open_live_first(path)
    assert history is not None and history.has_log and history.has_redo
    assert session.encounter == saved.encounter and session.log == []
    slices = 0
    while not history.step(0.0):
        slices += 1
    assert slices > 10 and history.problem is None
    assert session == saved == load_session(path)


def test_a_short_file_loads_whole(tmp_path: Path) -> None:
    path = tmp_path / "short.json"
    save_session(demo_session(), path)
    session, history = open_live_first(path)
    assert history is None and session == demo_session()


@pytest.mark.parametrize("damage", ["cut", "extra member", "out of order", "bad redo"])
def test_a_damaged_history_gives_the_message_a_load_gives(
        long_fight: tuple[Path, Session], tmp_path: Path, damage: str) -> None:
    path, saved = long_fight
    text = path.read_text(encoding="utf-8")
    if damage == "cut":
        text = text[: len(text) * 2 // 3]
    else:
        data = json.loads(text)
        if damage == "extra member":
            data["notes"] = "kept by hand"
        elif damage == "out of order":
            data["log"][4000]["seq"] = 3
        else:
            data["redo"][0]["changes"][0]["before"] = 99
        text = json.dumps(data, indent=1)
    damaged = tmp_path / "damaged.json"
    damaged.write_text(text, encoding="utf-8")
    with pytest.raises(FileProblem) as refused:
        load_session(damaged)
    session, history = open_live_first(damaged)
    assert history is not None and session.encounter == saved.encounter
    history.complete()
    assert str(history.problem) == str(refused.value)
    # The fight stands as it is, with nothing to undo; the file is as it was.
    assert session.log == [] and session.redo == [] and session.start == session.encounter
    assert damaged.read_text(encoding="utf-8") == text


def test_the_last_fight_reopened_after_a_normal_quit_shows_before_its_history(
        window: MainWindow, qtbot: QtBot, long_fight: tuple[Path, Session],
        tmp_path: Path) -> None:
    from fightdesk.storage.autosave import Autosave
    from fightdesk.ui import recovery

    path, saved = long_fight
    root = tmp_path / "autosave"
    first = Autosave(root)
    first.attach(Engine(load_session(path)), path)
    first.mark_clean_exit()  # the GM quit normally: the next start reopens it silently

    again = Autosave(root)
    binder = recovery.AutosaveBinder(window, again)
    choice = recovery.choose_start(window, again, None)
    assert choice is not None and not choice.after_crash and choice.history is not None
    binder.show_restored(choice, window.show_session)
    doc = window.document
    assert doc.history_pending and doc.path == path and not doc.is_modified()
    assert "Loading the fight's history" in window.log_view.loading_label.text()
    assert not list((root / choice.fight_id).glob("base-000002.json"))  # waits for it
    qtbot.waitUntil(lambda: not doc.history_pending, timeout=60000)
    engine = doc.engine
    assert engine is not None and engine.session == saved
    assert window.log_model.rowCount() + window.log_model.earlier == len(saved.log)
    # Its first snapshot holds the whole history, in the folder it came from.
    assert Autosave(root).restore(choice.fight_id) == saved
    assert again.fight_id == choice.fight_id and not doc.is_modified()
    binder.quit()
