"""The main window: demo smoke test, undo/redo through the Edit menu, bad files, recent
files, title marker, layout memory, and that the window module imports no engine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session, save_session
from fightdesk.ui.health_dialog import HealthDialog

from .conftest import ShownBox

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


def _menu_action(menu: QMenu, text: str) -> QAction:
    """The action as the opened menu shows it (Undo and Redo name their step as it opens)."""
    menu.popup(QPoint(0, 0))
    menu.hide()
    for action in menu.actions():
        if action.text().replace("&", "").startswith(text):
            return action
    raise AssertionError(f"no {text!r} in {[a.text() for a in menu.actions()]}")


def test_window_module_does_not_load_the_engine_or_pydantic() -> None:
    code = ("import sys; import fightdesk.ui.main_window as m; "
            "print('pydantic' in sys.modules, any(k.startswith('fightdesk.engine') for k in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_demo_damage_through_the_card_then_undo_redo_in_edit_menu(window: MainWindow, qtbot: QtBot) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert engine is not None
    card = window.cards.card("kaede")
    assert card is not None and card.title.text() == "Kaede Moriyama"
    assert not window.isWindowModified()

    qtbot.mouseClick(card.health_button, Qt.MouseButton.LeftButton)
    dialog = window.findChild(HealthDialog, "HealthDialog")
    assert dialog is not None and dialog.isVisible()
    qtbot.keyClicks(dialog.edit, "-6")
    assert dialog.outcome.text() == "Health 10 \N{RIGHTWARDS ARROW} 4"
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert engine.encounter.fighters["kaede"].status.health == 4
    assert card.health.format() == "Health 4/10"
    assert window.isWindowModified()
    assert window.log_model.rowCount() == 1

    undo = _menu_action(window.edit_menu, "Undo")
    assert "Kaede Moriyama's health to 4" in undo.text()
    undo.trigger()
    assert engine.encounter.fighters["kaede"].status.health == 10
    assert card.health.format() == "Health 10/10"
    assert not window.isWindowModified()
    assert window.log_model.rowCount() == 0
    redo = _menu_action(window.edit_menu, "Redo")
    assert redo.isEnabled()
    redo.trigger()
    assert engine.encounter.fighters["kaede"].status.health == 4
    assert card.health.format() == "Health 4/10"


def test_save_reopen_and_undo_still_reaches_back_through_the_log(window: MainWindow, tmp_path: Path) -> None:
    from fightdesk.engine import commands as c

    window.show_session(Engine(demo_session()), None)
    window.document.apply(c.SetValue(fighter_id="kaede", field="status.health", value=7))
    window.document.apply(c.SetValue(fighter_id="brannock", field="status.health", value=5))
    engine = window.document.engine
    assert engine is not None
    engine.undo()  # one step in the redo list
    path = tmp_path / "duel.json"
    assert window.files.save_to(path)
    assert window.windowTitle() == "duel.json[*] - fightdesk" and not window.isWindowModified()

    assert window.open_file(path)
    stack = window.document.undo_stack
    assert (stack.count(), stack.index()) == (2, 1)
    assert window.undo_action.isEnabled() and window.redo_action.isEnabled()
    window.redo_action.trigger()
    reopened = window.document.engine
    assert reopened is not None
    assert reopened.encounter.fighters["brannock"].status.health == 5
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert reopened.encounter.fighters["kaede"].status.health == 10
    assert not window.undo_action.isEnabled()
    assert [Path(a.data()).name for a in window.recent_menu.actions()] == ["duel.json"]


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    good = json.loads(demo_session().model_dump_json())
    files: dict[str, Path] = {}

    def write(name: str, text: str) -> None:
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(text, encoding="utf-8")

    full = json.dumps(good)
    write("truncated", full[: len(full) // 2])
    write("not-json", "this is not a fight\n")
    wrong = json.loads(full)
    wrong["encounter"]["round"] = "three"
    write("wrong-type", json.dumps(wrong))
    unknown = json.loads(full)
    unknown["encounter"]["ruleset"] = "chess"
    unknown["start"]["ruleset"] = "chess"
    write("unknown-ruleset", json.dumps(unknown))
    newer = json.loads(full)
    newer["schema_version"] = 99
    write("newer", json.dumps(newer))
    missing = json.loads(full)
    del missing["encounter"]["fighters"]["kaede"]["sheet"]
    write("missing-field", json.dumps(missing))
    write("empty", "")
    files["directory"] = tmp_path / "a-folder.json"
    files["directory"].mkdir()
    return files


@pytest.mark.parametrize("case", ["truncated", "not-json", "wrong-type", "unknown-ruleset", "newer",
                                  "missing-field", "empty", "directory"])
def test_open_bad_file_shows_a_clear_dialog_and_changes_nothing(
        window: MainWindow, tmp_path: Path, message_boxes: list[ShownBox], case: str) -> None:
    shown = message_boxes
    engine = Engine(demo_session())
    window.show_session(engine, None)
    path = _bad_files(tmp_path)[case]
    before = path.read_bytes() if path.is_file() else None
    title_before = window.windowTitle()

    assert window.open_file(path) is False
    assert len(shown) == 1
    title, text, _, plain, _ = shown[0]
    assert title == "Cannot open this file" and plain
    assert str(path) in text and "\n" not in text and "Traceback" not in text
    expected = {"truncated": "JSON", "not-json": "JSON", "wrong-type": "round", "unknown-ruleset": "chess",
                "newer": "newer", "missing-field": "sheet", "empty": "empty", "directory": "folder"}[case]
    assert expected.lower() in text.lower()
    assert window.document.engine is engine and window.windowTitle() == title_before
    if before is not None:
        assert path.read_bytes() == before


def test_unreadable_file_is_reported(window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     message_boxes: list[ShownBox]) -> None:
    path = tmp_path / "locked.json"
    save_session(demo_session(), path)

    from fightdesk.storage import files

    def deny(self: Path, *a: object, **k: object) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(files, "read_regular_file", deny)
    assert window.open_file(path) is False
    shown = [box.text for box in message_boxes]
    assert len(shown) == 1 and "permission" in shown[0].lower() and str(path) in shown[0]


def test_layout_is_remembered(qtbot: QtBot, user_dirs: Path) -> None:
    from fightdesk.ui.main_window import MainWindow

    first = MainWindow()
    qtbot.addWidget(first)
    first.resize(760, 560)
    first.show()
    first.log_dock.hide()
    first.close()
    assert (user_dirs / "config" / "fightdesk" / "window.ini").is_file()
    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    assert (second.size().width(), second.size().height()) == (760, 560)
    assert not second.log_dock.isVisible()


def test_every_frequent_action_names_its_shortcut(window: MainWindow) -> None:
    for action in (window.save_action, window.undo_action, window.start_round_action,
                   window.next_step_action, window.end_round_action, window.act_action,
                   window.dice_action, window.stack_action):
        keys = action.shortcut().toString()
        assert keys and keys in action.toolTip(), action.text()
    QApplication.processEvents()
