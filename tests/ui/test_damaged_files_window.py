"""The window's side of the damaged-file findings (1, 3, 4, 6): undo that cannot apply a
step changes nothing and says so in one line; a bad campaign or an unusable data folder
never stops the start-up; text from a file is plain text everywhere."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.storage.autosave import RecoveryInfo
from fightdesk.storage.sessions import demo_session
from tests.storage.damaged import GHOST, campaign_text, nested, played_data, write
from tests.test_app import STAGES_WITHOUT_PICTURE, _run_app_in_process, new_main_window

from .conftest import ShownBox

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


def ghost_session() -> Session:
    data = played_data()
    data["log"][-1]["changes"].append(GHOST)
    return Session.model_validate(data)


# --- 1. undo in the window ------------------------------------------------------------------


def test_finding_1_ctrl_z_on_a_step_that_does_not_fit_changes_nothing(
    qtbot: QtBot, window: MainWindow
) -> None:
    session = ghost_session()
    window.show_session(Engine(session), None)
    doc = window.document
    before = session.model_dump(mode="json")
    index = doc.undo_stack.index()
    window.undo_action.trigger()  # pytest-qt fails the test if anything escapes
    assert session.model_dump(mode="json") == before
    message = window.statusBar().currentMessage()
    assert message.startswith("Cannot undo") and "nothing was changed" in message
    assert "\n" not in message
    qtbot.waitUntil(lambda: doc.undo_stack.index() == index)
    assert doc.undo_stack.isClean() and not window.isWindowModified()
    # The step below it is sound only after this one: the same answer, again.
    window.undo_action.trigger()
    assert session.model_dump(mode="json") == before


def test_finding_1_revert_to_here_across_a_bad_step_changes_nothing(window: MainWindow) -> None:
    data = played_data()
    data["log"][1]["changes"].append(GHOST)
    session = Session.model_validate(data)
    window.show_session(Engine(session), None)
    before = session.model_dump(mode="json")
    window.gm.revert_to(0)
    assert session.model_dump(mode="json") == before
    assert window.statusBar().currentMessage().startswith("Revert stopped")


def test_finding_1_opening_a_file_whose_log_does_not_replay_offers_the_live_fight(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = played_data()
    data["log"][-1]["changes"].append(GHOST)
    path = write(tmp_path / "ghost.json", data)
    before = path.read_bytes()
    shown: list[str] = []

    def open_it(box: QMessageBox) -> int:
        shown.append(box.text())
        assert box.textFormat() == Qt.TextFormat.PlainText
        button = next(b for b in box.findChildren(QAbstractButton)
                      if b.text() == "Open without its history")
        button.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", open_it)
    assert window.open_file(path)
    assert len(shown) == 1 and "does not replay" in shown[0]
    engine = window.document.engine
    assert engine is not None and engine.session.log == [] and not engine.can_undo()
    assert engine.encounter == Session.model_validate(data).encounter
    assert window.document.path is None and window.isWindowModified()
    assert path.read_bytes() == before


# --- 3. a bad campaign at start-up ------------------------------------------------------------


@pytest.mark.parametrize("body", [nested(100_000), "HUGE"])
def test_finding_3_a_bad_campaign_open_last_never_stops_the_start_up(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    user_dirs: Path, body: str
) -> None:
    folder = user_dirs / "data" / "fightdesk" / "campaigns"
    folder.mkdir(parents=True)
    if body == "HUGE":
        body = campaign_text().replace('"strength": 3', f'"strength": {"9" * 5000}', 1)
    (folder / "Bad.json").write_text(body, encoding="utf-8")
    (folder / ".last-open").write_text("Bad\n", encoding="utf-8")
    window, times = _run_app_in_process([], monkeypatch, capsys)
    qtbot.addWidget(window)
    assert "settled" in times  # every start-up step ran
    panel = window.library_panel
    assert panel is not None and window.summary_printing is not None
    assert panel.banner.isVisible() and "Cannot open this campaign" in panel.banner.text()
    assert "Bad.json" in panel.banner.text()
    assert panel.banner.textFormat() == Qt.TextFormat.PlainText
    assert panel.campaign is None


# --- 4. unwritable or refused data folders ----------------------------------------------------


@pytest.mark.parametrize("how", ["not-a-folder", "others-can-write"])
def test_finding_4_an_unusable_data_folder_turns_autosave_and_the_library_off(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    user_dirs: Path, how: str
) -> None:
    """Real folders: a file where the data folder's parent should be (cannot be made,
    even as root), or a parent folder every user can write to (refused)."""
    data = user_dirs / "data"
    if how == "not-a-folder":
        data.write_text("not a folder")
    else:
        data.mkdir(parents=True)
        os.chmod(data, 0o777)
    # No autosave folder to read a picture from: the fight is shown once loaded.
    window, times = _run_app_in_process([], monkeypatch, capsys, STAGES_WITHOUT_PICTURE)
    qtbot.addWidget(window)
    assert "settled" in times and window.document.engine is not None
    panel = window.library_panel
    assert panel is not None and window.summary_printing is not None
    assert panel.banner.text().startswith("The campaign library is off:")
    assert window.statusBar().currentMessage().startswith("Autosave is off:")
    if how == "others-can-write":
        assert "other users can write" in panel.banner.text()
        assert not (data / "fightdesk").exists() or not any((data / "fightdesk").iterdir())


def test_finding_4_an_unusable_settings_folder_is_said_once(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    user_dirs: Path
) -> None:
    (user_dirs / "config").write_text("not a folder")
    window, times = _run_app_in_process([], monkeypatch, capsys)
    qtbot.addWidget(window)
    assert "settled" in times and window.document.engine is not None
    window.save_layout()  # nothing to write to: no error either


# --- 6. text from files is plain text ----------------------------------------------------------


MARKUP = "<b>bold</b> <img src=x>"


def test_finding_6_card_titles_and_tooltips_show_names_as_typed(
    qtbot: QtBot, window: MainWindow
) -> None:
    session = demo_session()
    for enc in (session.encounter, session.start):
        enc.fighters["kaede"].name = MARKUP
    window.show_session(Engine(session), None)
    labels = [label for label in window.findChildren(QLabel) if MARKUP in label.text()]
    assert labels, "the name is shown somewhere"
    for label in labels:
        assert label.textFormat() == Qt.TextFormat.PlainText, label.objectName()
    for widget in window.findChildren(QLabel):
        if MARKUP in widget.toolTip():
            pytest.fail(f"raw markup in a tooltip: {widget.toolTip()!r}")


def test_finding_6_the_restore_question_and_the_open_box_are_plain_text(
    window: MainWindow, tmp_path: Path, message_boxes: list[ShownBox]
) -> None:
    from fightdesk.ui.recovery import restore_box

    info = RecoveryInfo(fight_id="x", path=None, clean_exit=False, fight_name=MARKUP,
                        round=1, actions=3, last_action=MARKUP, changed_at=0.0, unsaved=True)
    box = restore_box(window, info)
    assert box.textFormat() == Qt.TextFormat.PlainText
    # The informative text is shown exactly as written: the label that shows it is
    # plain text (no markup read, no escapes shown).
    shown = [label for label in box.findChildren(QLabel)
             if label.text() == box.informativeText()]
    assert "<b>bold</b>" in box.informativeText() and "&lt;" not in box.informativeText()
    assert shown and all(label.textFormat() == Qt.TextFormat.PlainText for label in shown)
    box.deleteLater()
    session = json.loads(json.dumps(played_data()))
    session["encounter"]["fighters"]["kaede"]["status"]["health"] = "<b>x</b>"
    path = write(tmp_path / f"{MARKUP[:3]}x.json", session)
    assert not window.open_file(path)
    assert len(message_boxes) == 1 and message_boxes[0].plain


def test_finding_6_the_autosave_warning_is_plain_text(qtbot: QtBot, window: MainWindow,
                                                     tmp_path: Path) -> None:
    from fightdesk.storage.autosave import Autosave
    from fightdesk.ui import recovery

    binder = recovery.AutosaveBinder(window, Autosave(tmp_path / "autosave"))
    binder.status.emit(False, f"Autosave failed: {MARKUP}")
    box = window.findChild(QMessageBox, "AutosaveWarning")
    assert box is not None and box.textFormat() == Qt.TextFormat.PlainText
    box.close()


def test_finding_7_the_size_limit_is_a_window_setting(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: Path, message_boxes: list[ShownBox]
) -> None:
    from fightdesk.storage import files
    from fightdesk.ui import settings

    store = settings.app_settings()
    store.setValue(settings.SIZE_LIMIT_KEY, 0.001)  # about a kilobyte
    store.sync()
    path = write(tmp_path / "fight.json", played_data())
    import fightdesk.app as app_module

    monkeypatch.setenv(app_module.PROBE_ENV, "1")
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "__all__")
    monkeypatch.setattr(app_module, "_close_on_interrupt", lambda window: None)
    before = QApplication.topLevelWidgets()
    try:
        assert app_module.main([str(path)]) == 1  # the file was refused
        window = new_main_window(before)
        qtbot.addWidget(window)
        assert files.size_limit() == int(0.001 * 1024 * 1024)
        assert window.document.path != path  # refused: too big under this setting
        assert [box.title for box in message_boxes] == ["Cannot open this file"]
        assert "too big" in message_boxes[0].text
    finally:
        files.set_size_limit(None)


def test_finding_4_folder_problems_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reasons, one by one (an unreadable folder simulated: root reads everything)."""
    from fightdesk import paths

    fine = tmp_path / "fine"
    assert paths.folder_problem(fine) is None and fine.is_dir()
    (tmp_path / "file").write_text("x")
    assert "cannot create" in str(paths.folder_problem(tmp_path / "file" / "sub"))
    open_to_all = tmp_path / "open"
    open_to_all.mkdir()
    os.chmod(open_to_all, 0o777)
    assert "other users can write" in str(paths.folder_problem(open_to_all / "fightdesk"))
    os.chmod(open_to_all, 0o1777)  # sticky, like /tmp: others cannot touch our entries
    assert paths.folder_problem(open_to_all / "fightdesk") is None
    monkeypatch.setattr(os, "access", lambda *_a, **_k: False)
    assert "permission denied" in str(paths.folder_problem(fine))
    with pytest.raises(paths.FolderProblem, match="permission denied"):
        paths.checked_folder(fine)
