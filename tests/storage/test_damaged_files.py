"""The reliability run's findings on damaged and hostile files, one test (or a few) per
numbered finding of the issue, below the window: the loaders, the engine, the CLI.
The window's side of findings 1, 3, 4 and 6 is in tests/ui/test_damaged_files_window.py."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path
from typing import Any

import pytest

from fightdesk.cli import main as cli_main
from fightdesk.engine.engine import Engine, StepFailed
from fightdesk.engine.model import Session
from fightdesk.storage import files
from fightdesk.storage.files import FileProblem
from fightdesk.storage.library import Campaign, Library, LibraryProblem
from fightdesk.storage.sessions import load_session
from fightdesk.storage.trust import HistoryProblem, first_misfit

from .damaged import GHOST, campaign_text, nested, played_data, stacked_data, write


def refused(path: Path, exc_type: type[FileProblem] = FileProblem) -> FileProblem:
    """Load ``path``: it must be refused with one short line, the file untouched."""
    before = path.read_bytes()
    with pytest.raises(exc_type) as caught:
        load_session(path)
    assert path.read_bytes() == before
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    assert len(message) - len(str(path)) <= 300
    return caught.value


def check_cli(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """`fightdesk check`: exit 2 and one line on stderr, no traceback."""
    code = cli_main(["check", str(path)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


# --- 1. a log that does not replay ------------------------------------------------------------


def ghost_data() -> dict[str, Any]:
    data = played_data()
    data["log"][-1]["changes"].append(GHOST)
    return data


def test_finding_1_a_change_naming_a_missing_fighter_is_refused_by_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "ghost.json", ghost_data())
    problem = refused(path, HistoryProblem)
    assert "log entry" in str(problem) and "fighters.ghost.status.health" in str(problem)
    assert problem.field == "log[2].changes[1]"
    assert "does not replay" in check_cli(path, capsys)


def test_finding_1_the_live_fight_out_of_step_with_its_log_is_refused(tmp_path: Path) -> None:
    data = played_data()
    data["encounter"]["fighters"]["kaede"]["status"]["health"] = 9
    problem = refused(write(tmp_path / "step.json", data), HistoryProblem)
    assert problem.field is not None and "kaede" in problem.field


@pytest.mark.parametrize("edit, words", [
    (lambda ch: ch.update(key="no_such_field"), "is not a field"),
    (lambda ch: ch.update(after="lots"), "refused by the model"),
    (lambda ch: ch.update(before=99), "not 99 as the log says"),
])
def test_finding_1_a_change_the_model_refuses_is_refused(tmp_path: Path, edit: Any,
                                                         words: str) -> None:
    data = played_data()
    change = next(ch for entry in data["log"] for ch in entry["changes"]
                  if ch["key"] == "health")
    edit(change)
    assert words in str(refused(write(tmp_path / "bad.json", data), HistoryProblem))


def test_finding_1_a_redo_list_that_does_not_redo_is_refused(tmp_path: Path) -> None:
    data = played_data()
    data["redo"][-1]["changes"].append(GHOST)
    assert "does not redo" in str(refused(write(tmp_path / "redo.json", data), HistoryProblem))


def test_finding_1_the_live_fight_opens_without_its_history(tmp_path: Path) -> None:
    problem = refused(write(tmp_path / "ghost.json", ghost_data()), HistoryProblem)
    assert isinstance(problem, HistoryProblem)
    session = problem.without_history()
    assert session.log == [] and session.redo == []
    assert session.start == session.encounter == problem.session.encounter
    assert first_misfit(session) is None


def test_finding_1_undo_is_all_or_nothing() -> None:
    """Past the loader (a session built in memory): the failed undo changes nothing."""
    session = Session.model_validate(ghost_data())
    engine = Engine(session)
    before = session.model_dump(mode="json")
    heard: list[object] = []
    engine.subscribe(heard.append)
    with pytest.raises(StepFailed) as caught:
        engine.undo()
    assert session.model_dump(mode="json") == before and not heard
    message = str(caught.value)
    assert "\n" not in message and "nothing was changed" in message
    assert "log entry 2" in message


def test_finding_1_redo_and_revert_are_all_or_nothing() -> None:
    data = played_data()
    data["redo"][-1]["changes"].append(GHOST)
    session = Session.model_validate(data)
    engine = Engine(session)
    before = session.model_dump(mode="json")
    with pytest.raises(StepFailed):
        engine.redo()
    assert session.model_dump(mode="json") == before
    # Revert across a step that cannot be undone: the steps undone before it come back.
    data = played_data()
    data["log"][0]["changes"].append(GHOST)
    session = Session.model_validate(data)
    engine = Engine(session)
    before = session.model_dump(mode="json")
    with pytest.raises(StepFailed, match="Revert stopped"):
        engine.revert_to(-1)
    assert session.model_dump(mode="json") == before


# --- 2. integers longer than 4,300 digits ---------------------------------------------------


HUGE = "9" * 5000


def test_finding_2_huge_integer_in_a_session(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(played_data()).replace('"dice_seed": ', f'"dice_seed": {HUGE}, "x": ', 1)
    path = tmp_path / "huge.json"
    path.write_text(text, encoding="utf-8")
    assert "far too long" in str(refused(path))
    assert "far too long" in check_cli(path, capsys)


def test_finding_2_huge_integer_in_a_campaign_and_an_import(tmp_path: Path) -> None:
    library = Library(tmp_path / "campaigns")
    library.folder.mkdir()
    text = campaign_text().replace('"strength": 3', f'"strength": {HUGE}', 1)
    assert HUGE in text
    (library.folder / "Huge.json").write_text(text, encoding="utf-8")
    with pytest.raises(LibraryProblem, match="far too long"):
        library.open("Huge")
    library.create("Good")
    good = library.open("Good")
    with pytest.raises(LibraryProblem, match="far too long"):
        good.import_file(library.folder / "Huge.json")
    assert len(good) == 0


# --- 3. a campaign nested 100,000 deep -------------------------------------------------------


@pytest.mark.parametrize("body", [nested(100_000), '{"fighters": ' + nested(100_000) + "}"])
def test_finding_3_deeply_nested_campaign_and_import(tmp_path: Path, body: str) -> None:
    library = Library(tmp_path / "campaigns")
    library.folder.mkdir()
    (library.folder / "Deep.json").write_text(body, encoding="utf-8")
    with pytest.raises(LibraryProblem, match="nested too deeply"):
        library.open("Deep")
    library.create("Good")
    good = library.open("Good")
    with pytest.raises(LibraryProblem, match="nested too deeply"):
        good.import_file(library.folder / "Deep.json")


def test_finding_3_deeply_nested_session(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"schema_version": 1, "encounter": ' + nested(100_000) + "}")
    assert "nested too deeply" in str(refused(path))


# --- 5. a stack entry pointing at a die or maneuver that does not exist -----------------------


@pytest.mark.parametrize("field, value, words", [
    ("die_id", 99, "has no action die 99"),
    ("maneuver", None, "without its maneuver"),
])
def test_finding_5_stack_entry_without_its_die_or_maneuver(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: Any, words: str
) -> None:
    data = stacked_data()
    stack = data["encounter"]["state"]["stack"]
    index = next(i for i, m in enumerate(stack) if not m["resolved"] and not m["lost"]
                 and m["action"] == "maneuver")
    stack[index][field] = value
    path = write(tmp_path / "stack.json", data)
    problem = refused(path)
    assert problem.field == f"encounter.state.stack[{index}].{field}"
    assert words in str(problem)
    assert words in check_cli(path, capsys)


def test_finding_5_the_hook_is_the_rulesets(tmp_path: Path) -> None:
    """The generic ruleset has no checks; street-fighter's find nothing in a sound fight."""
    from fightdesk.engine.ruleset import Rules, get_ruleset

    data = stacked_data()
    session = Session.model_validate(data)
    assert Rules().check_state(session.encounter) == []
    assert get_ruleset("street-fighter").rules.check_state(session.encounter) == []


# --- 7. no size limit ------------------------------------------------------------------------


def test_finding_7_files_over_the_limit_are_refused_before_they_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:  # sparse: 60 MB on the books, nothing on the disk
        handle.truncate(60 * 1024 * 1024)

    def never(fd: int, n: int) -> bytes:
        raise AssertionError("a file over the limit was read")

    monkeypatch.setattr(os, "read", never)
    with pytest.raises(FileProblem, match="too big") as caught:
        load_session(path)
    assert "(60.0 MB; the limit is 50 MB" in str(caught.value)
    library = Library(tmp_path)
    (tmp_path / "Big.json").symlink_to(path)
    with pytest.raises(FileProblem, match="too big"):
        library.open("Big")
    monkeypatch.undo()


def test_finding_7_the_limit_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "fight.json", played_data())
    load_session(path)
    monkeypatch.setenv(files.SIZE_LIMIT_ENV, "0.001")  # about a kilobyte
    assert "too big" in str(refused(path))
    files.set_size_limit(10 * 1024 * 1024)
    try:
        load_session(path)
    finally:
        files.set_size_limit(None)


# --- 8. byte-order marks, long names ---------------------------------------------------------


def test_finding_8_a_byte_order_mark_is_accepted_everywhere(tmp_path: Path) -> None:
    session = tmp_path / "bom.json"
    session.write_bytes(codecs.BOM_UTF8 + json.dumps(played_data()).encode())
    load_session(session)
    folder = tmp_path / "campaigns"
    folder.mkdir()
    (folder / "Bom.json").write_bytes(codecs.BOM_UTF8 + campaign_text().encode())
    library = Library(folder)
    assert len(library.open("Bom")) == len(Campaign.load(folder / "Bom.json"))
    library.create("Other")
    assert library.open("Other").import_file(folder / "Bom.json")


def test_finding_8_a_file_that_is_only_a_byte_order_mark_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "bom-only.json"
    path.write_bytes(codecs.BOM_UTF8)
    assert "the file is empty" in str(refused(path))


def test_finding_8_a_long_name_makes_a_short_message(tmp_path: Path) -> None:
    data = json.loads(campaign_text())
    data["fighters"][0]["name"] = "\N{GRINNING FACE}" * 500
    data["fighters"][0]["sheet"]["strength"] = 99
    folder = tmp_path / "campaigns"
    folder.mkdir()
    write(folder / "Long.json", data)
    with pytest.raises(LibraryProblem) as caught:
        Library(folder).open("Long")
    message = str(caught.value)
    assert len(message) - len(str(folder / "Long.json")) < 200 and "\n" not in message
    session = played_data()
    session["encounter"]["fighters"]["kaede"]["name"] = "\N{GRINNING FACE}" * 500
    session["encounter"]["ruleset"] = "\N{GRINNING FACE}" * 500
    refused(write(tmp_path / "long.json", session))
