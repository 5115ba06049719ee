"""File > Save never replaces what another window saved, nor a read-only file, without
asking (fightdesk/ui/save_questions.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QAbstractButton, QMessageBox
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.storage import files
from fightdesk.storage.autosave import Autosave
from fightdesk.storage.sessions import demo_session, load_session, save_session

from .conftest import ShownBox

# The buttons of the questions (fightdesk/ui/save_questions.py), by object name.
SAVE_AS, OVERWRITE, RELOAD = "saveAsButton", "overwriteButton", "reloadButton"


@pytest.fixture
def two_windows(qtbot: QtBot) -> Iterator[tuple[Any, Any]]:
    from fightdesk.ui.main_window import MainWindow

    wins = []
    for _ in range(2):
        win = MainWindow()
        qtbot.addWidget(win, before_close_func=lambda w: w.document.undo_stack.setClean())
        win.show()
        wins.append(win)
    yield wins[0], wins[1]


def answer(monkeypatch: pytest.MonkeyPatch, button: str | None) -> list[ShownBox]:
    """Every question's exec() answered by clicking the button named ``button`` (None:
    its escape button, Cancel), recorded."""
    shown: list[ShownBox] = []

    def fake_exec(box: QMessageBox) -> int:
        from PySide6.QtCore import Qt

        shown.append(ShownBox(box.windowTitle(), box.text(), box.informativeText(),
                              box.textFormat() == Qt.TextFormat.PlainText, box.objectName()))
        chosen = box.findChild(QAbstractButton, button) if button else box.escapeButton()
        if chosen is not None:
            chosen.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    return shown


def notes(path: Path) -> list[str]:
    return [entry.summary for entry in load_session(path).log]


def opened_twice(tmp_path: Path, first: Any, second: Any) -> Path:
    path = tmp_path / "harbour.json"
    save_session(demo_session(), path)
    assert first.open_file(path) and second.open_file(path)
    assert first.document.apply(c.Note(text="saved by the first window")).ok
    assert first.save()
    assert second.document.apply(c.Note(text="saved by the second window")).ok
    return path


@pytest.mark.parametrize("button", [None, OVERWRITE, RELOAD, SAVE_AS])
def test_a_stale_save_asks_before_replacing_another_window_s_save(
    two_windows: tuple[Any, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    button: str | None,
) -> None:
    first, second = two_windows
    path = opened_twice(tmp_path, first, second)
    other = tmp_path / "kept apart.json"
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
    shown = answer(monkeypatch, button)
    saved = second.save()
    assert [box.name for box in shown] == ["FileChanged"] and all(b.plain for b in shown)
    assert str(path) in shown[0].text
    first_note = "saved by the first window"
    if button is None:  # Cancel: nothing written, the other window's save is there
        assert not saved and notes(path)[-1].endswith(first_note)
        assert second.document.is_modified()
    elif button == OVERWRITE:
        assert saved and notes(path)[-1].endswith("saved by the second window")
        assert notes(files.backup_path(path))[-1].endswith(first_note)
    elif button == RELOAD:
        assert not saved and notes(path)[-1].endswith(first_note)
        assert second.document.engine.session.log[-1].summary.endswith(first_note)
        assert not second.document.is_modified()
    else:  # Save As: both kept
        assert saved and notes(path)[-1].endswith(first_note)
        assert notes(other)[-1].endswith("saved by the second window")
        assert second.document.path == other


def test_a_save_over_an_unchanged_file_asks_nothing(
    two_windows: tuple[Any, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _ = two_windows
    path = tmp_path / "harbour.json"
    save_session(demo_session(), path)
    assert first.open_file(path)
    shown = answer(monkeypatch, None)
    for text in ("one", "two"):
        assert first.document.apply(c.Note(text=text)).ok
        assert first.save()
    assert shown == [] and notes(path)[-1].endswith("two")


def test_a_read_only_file_is_never_replaced_without_a_word(
    window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "locked.json"
    save_session(demo_session(), path)
    os.chmod(path, 0o444)
    before = path.read_bytes()
    assert window.open_file(path)
    assert window.document.apply(c.Note(text="not to be lost")).ok
    shown = answer(monkeypatch, None)
    assert window.save() is False
    assert [box.name for box in shown] == ["ReadOnlyFile"]
    assert "read-only" in shown[0].text and str(path) in shown[0].text
    assert path.read_bytes() == before and window.document.is_modified()
    # Save As offered there writes another file and leaves this one alone.
    other = tmp_path / "copy.json"
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
    answer(monkeypatch, SAVE_AS)
    assert window.save() is True
    assert path.read_bytes() == before and notes(other)[-1].endswith("not to be lost")
    # The storage refuses too (the command line, a caller that did not ask).
    with pytest.raises(files.FileProblem, match="read-only"):
        save_session(demo_session(), path)
    assert path.read_bytes() == before


def test_opening_a_file_another_window_has_open_says_so(
    qtbot: QtBot, two_windows: tuple[Any, Any], tmp_path: Path
) -> None:
    from fightdesk.ui.recovery import AutosaveBinder

    first, second = two_windows
    root = tmp_path / "autosave"
    first_saver, second_saver = Autosave(root), Autosave(root)
    AutosaveBinder(first, first_saver)
    AutosaveBinder(second, second_saver)
    path = tmp_path / "harbour.json"
    save_session(demo_session(), path)
    assert first.open_file(path)
    qtbot.waitUntil(lambda: first_saver.is_saved)  # its first write, after the paint
    assert "another fightdesk window" not in first.statusBar().currentMessage()
    assert second.open_file(path)
    assert "open in another fightdesk window" in second.statusBar().currentMessage()
    assert second_saver.open_elsewhere(path) and not first_saver.open_elsewhere(tmp_path / "x")
    first_saver.mark_clean_exit()  # the first window quits: no longer open there
    assert not second_saver.open_elsewhere(path)
