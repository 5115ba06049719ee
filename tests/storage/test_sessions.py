"""Session files: save/load round trip, atomic saves, failed saves, and loads that fail
with one clear line while leaving the file exactly as it was."""

from __future__ import annotations

import errno
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine import model
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.storage import sessions
from fightdesk.storage.files import FileProblem
from fightdesk.storage.sessions import demo_session, load_session, save_session

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"


def demo_data() -> dict[str, Any]:
    return json.loads(DEMO.read_text(encoding="utf-8"))


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def problem_of(path: Path) -> FileProblem:
    before = path.read_bytes()
    with pytest.raises(FileProblem) as caught:
        load_session(path)
    assert path.read_bytes() == before, "a file that failed to load must not change"
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return caught.value


@pytest.fixture
def played() -> Engine:
    """The demo with a few logged actions, one of them undone (so redo is non-empty)."""
    engine = Engine(demo_session())
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=6)).ok
    assert engine.apply(c.FreeRoll(notation="3d10", dice=[[2, 9, 10]], who="GM")).ok
    assert engine.apply(c.Note(text="Thug 2 hesitates")).ok
    assert engine.undo()
    return engine


# --- round trip ---------------------------------------------------------------------------


def test_demo_is_the_bundled_street_fighter_fight() -> None:
    session = demo_session()
    assert session.encounter.ruleset == "street-fighter"
    assert session.encounter.fighters["kaede"].name == "Kaede Moriyama"
    assert session.model_dump(mode="json") == Session.model_validate(demo_data()).model_dump(mode="json")


def test_save_then_load_gives_an_equal_session(played: Engine, tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    save_session(played.session, path)
    loaded = load_session(path)
    assert loaded == played.session
    assert loaded.model_dump(mode="json") == played.session.model_dump(mode="json")
    # The log came along: redo and undo reach through it on the reopened fight.
    reopened = Engine(loaded)
    assert reopened.redo()  # the note undone before saving
    assert reopened.rebuild() == reopened.encounter
    assert reopened.undo() and reopened.undo() and reopened.undo()
    assert not reopened.can_undo()
    assert reopened.encounter == demo_session().encounter


def test_saved_file_is_readable_json_with_schema_version_first(played: Engine, tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    save_session(played.session, path)
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert next(iter(data)) == "schema_version"
    assert data["schema_version"] == model.SCHEMA_VERSION
    assert text.endswith("\n") and text.count("\n") > 100  # indented, not one long line


def test_save_keeps_the_previous_version_as_bak(played: Engine, tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    save_session(demo_session(), path)
    first = path.read_bytes()
    save_session(played.session, path)
    assert (tmp_path / "fight.json.bak").read_bytes() == first
    assert load_session(path) == played.session
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.json", "fight.json.bak"]


def test_save_creates_missing_folders(tmp_path: Path) -> None:
    path = tmp_path / "campaign" / "night 3" / "fight.json"
    save_session(demo_session(), path)
    assert load_session(path) == demo_session()


# --- a save that fails leaves the old file --------------------------------------------------


def _fail_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)


def _fail_mkstemp(monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)


def _fail_replace(monkeypatch: pytest.MonkeyPatch) -> None:
    def locked(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", locked)


@pytest.mark.parametrize(
    ("sabotage", "words"),
    [
        (_fail_fsync, "the disk is full"),
        (_fail_mkstemp, "permission denied"),
        (_fail_replace, "permission denied"),
    ],
    ids=["disk-full-while-writing", "folder-read-only", "rename-refused"],
)
def test_failed_save_keeps_the_old_file(
    sabotage: Any, words: str, played: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "fight.json"
    save_session(demo_session(), path)
    old = path.read_bytes()
    sabotage(monkeypatch)
    with pytest.raises(FileProblem) as caught:
        save_session(played.session, path)
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert words in str(caught.value) and str(path) in str(caught.value)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in ("fight.json", "fight.json.bak")]
    assert leftovers == [], "no temporary file may be left behind"
    assert load_session(path) == demo_session()


def test_unsaveable_value_is_refused_before_touching_the_file(tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    save_session(demo_session(), path)
    old = path.read_bytes()
    session = demo_session()
    # A command dict is free-form; something JSON cannot hold must not half-write a file.
    session.log.append(
        model.LogEntry(seq=0, step=0, command={"kind": "note", "when": object()}, summary="x")
    )
    with pytest.raises(FileProblem, match="could not save"):
        save_session(session, path)
    assert path.read_bytes() == old


# --- loads that fail: one line naming the file, the field and the problem -------------------


def test_wrong_type_names_the_field_path(tmp_path: Path) -> None:
    data = demo_data()
    data["encounter"]["fighters"]["kaede"]["status"]["health"] = "lots"
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == "encounter.fighters.kaede.status.health"
    assert "valid integer" in problem.problem and '"lots"' in problem.problem


def test_list_positions_are_shown_as_indexes(tmp_path: Path) -> None:
    data = demo_data()
    data["encounter"]["fighters"]["kaede"]["sheet"]["maneuvers"][2]["speed"] = "fast"
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == "encounter.fighters.kaede.sheet.maneuvers[2].speed"


def test_out_of_range_value(tmp_path: Path) -> None:
    data = demo_data()
    data["start"]["fighters"]["kaede"]["status"]["health"] = -3
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == "start.fighters.kaede.status.health"
    assert "greater than or equal to 0" in problem.problem and "-3" in problem.problem


def test_missing_field(tmp_path: Path) -> None:
    data = demo_data()
    del data["encounter"]["fighters"]["kaede"]["sheet"]
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == "encounter.fighters.kaede.sheet"
    assert "required field is missing" in problem.problem


def test_unknown_field_is_refused(tmp_path: Path) -> None:
    data = demo_data()
    data["encounter"]["fighters"]["kaede"]["status"]["mana"] = 3
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == "encounter.fighters.kaede.status.mana"
    assert "unknown field" in problem.problem


def test_several_problems_are_counted(tmp_path: Path) -> None:
    data = demo_data()
    data["encounter"]["fighters"]["kaede"]["status"]["health"] = "lots"
    data["encounter"]["fighters"]["kaede"]["status"]["ep"] = "some"
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.problem.endswith("(and 1 more problem)")


@pytest.mark.parametrize(
    ("where", "field"),
    [
        (("encounter",), "encounter.ruleset"),
        (("encounter", "fighters", "kaede", "sheet"), "encounter.fighters.kaede.sheet.ruleset"),
        (("start", "options"), "start.options.ruleset"),
    ],
)
def test_unknown_ruleset_is_named(tmp_path: Path, where: tuple[str, ...], field: str) -> None:
    data = demo_data()
    node = data
    for key in where:
        node = node[key]
    node["ruleset"] = "warhammer"
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == field
    assert "unknown ruleset id 'warhammer'" in problem.problem and "street-fighter" in problem.problem


def test_newer_schema_version_is_refused_before_anything_else(tmp_path: Path) -> None:
    data = demo_data()
    data["schema_version"] = model.SCHEMA_VERSION + 1
    data["encounter"] = "a shape this fightdesk has never seen"
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == "schema_version"
    assert "newer fightdesk" in problem.problem and "update fightdesk" in problem.problem


@pytest.mark.parametrize(
    ("version", "words"),
    [(None, "no schema_version"), ("1", "whole number"), (True, "whole number"), (0, "not a fightdesk")],
)
def test_bad_schema_version(tmp_path: Path, version: Any, words: str) -> None:
    data = demo_data()
    if version is None:
        del data["schema_version"]
    else:
        data["schema_version"] = version
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert words in problem.problem


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the file is empty"),
        ("  \n\n ", "the file is empty"),
        ("name: Kaede\nhealth: 3\n", "not valid JSON (expecting value at line 1, column 1)"),
        ('{"schema_version": 1,\n "encounter": {} x}', "expecting ',' delimiter at line 2, column 18"),
        ('[{"schema_version": 1}]', "expected a JSON object at the top, found a list"),
        ("\ufeff[]", "found a list"),
    ],
)
def test_not_a_session_at_all(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "fight.json"
    path.write_text(text, encoding="utf-8")
    assert words in str(problem_of(path))


def test_truncated_file_says_it_ends_too_early(tmp_path: Path) -> None:
    text = DEMO.read_text(encoding="utf-8")
    for cut in (len(text) // 3, len(text) // 2, len(text) - 3):
        path = tmp_path / f"cut-{cut}.json"
        path.write_text(text[:cut], encoding="utf-8")
        assert "ends too early" in problem_of(path).problem


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert "not a text file" in problem_of(path).problem


def test_folder_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileProblem, match="this is a folder, not a file"):
        load_session(tmp_path)
    with pytest.raises(FileProblem, match="no such file"):
        load_session(tmp_path / "gone.json")


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_json(tmp_path / "fight.json", demo_data())
    before = path.read_bytes()

    from fightdesk.storage import files

    def refuse(self: Path, limit: int) -> bytes:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(files, "read_regular_file", refuse)
    with pytest.raises(FileProblem, match="permission denied") as caught:
        load_session(path)
    monkeypatch.undo()
    assert str(path) in str(caught.value) and path.read_bytes() == before


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [
        (lambda d: d["encounter"]["order"].append("ghost"), "encounter.order[LAST]", "not one of the fighters"),
        (lambda d: d["encounter"]["order"].append("kaede"), "encounter.order[LAST]", "listed twice"),
        (
            lambda d: d["encounter"]["fighters"]["kaede"].update(id="ryu"),
            "encounter.fighters.kaede.id",
            "does not match its key",
        ),
        (
            lambda d: d["encounter"]["fighters"]["kaede"].update(group="ninjas"),
            "encounter.fighters.kaede.group",
            "no group 'ninjas'",
        ),
    ],
    ids=["unknown-in-order", "twice-in-order", "id-mismatch", "unknown-group"],
)
def test_inconsistent_fight_is_refused(tmp_path: Path, edit: Any, field: str, words: str) -> None:
    data = demo_data()
    edit(data)
    field = field.replace("LAST", str(len(data["encounter"]["order"]) - 1))
    problem = problem_of(write_json(tmp_path / "fight.json", data))
    assert problem.field == field and words in problem.problem


@given(cut=st.integers(min_value=0), junk=st.text(max_size=3))
def test_any_damage_gives_a_file_problem_or_a_valid_session(cut: int, junk: str) -> None:
    """Cut the demo anywhere and splice in junk: loading either works or says why,
    never another exception."""
    text = DEMO.read_text(encoding="utf-8")
    cut %= len(text)
    damaged = text[:cut] + junk + text[cut + len(junk):]
    try:
        session = sessions.session_from_json(damaged, "damaged.json")
    except FileProblem as problem:
        assert "\n" not in str(problem) and str(problem).startswith("damaged.json")
    else:
        assert isinstance(session, Session)


# --- migrations -------------------------------------------------------------------------------


def test_older_file_is_upgraded_in_memory_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the current schema is 3 and version 2 called the live fight "fight"."""

    def rename_fight(data: dict[str, Any]) -> dict[str, Any]:
        data["encounter"] = data.pop("fight")
        return data

    expected = demo_session().encounter
    monkeypatch.setattr(model, "SCHEMA_VERSION", 3)
    monkeypatch.setitem(sessions.MIGRATIONS, 2, rename_fight)
    data = demo_data()
    assert data["schema_version"] == 2
    data["fight"] = data.pop("encounter")
    path = write_json(tmp_path / "old.json", data)
    before = path.read_bytes()
    session = load_session(path)
    assert session.schema_version == 3
    assert session.encounter == expected
    assert path.read_bytes() == before, "loading never writes, even after an upgrade"


def test_older_file_without_an_upgrade_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "SCHEMA_VERSION", 4)
    monkeypatch.setitem(sessions.MIGRATIONS, 3, lambda data: data)
    problem = problem_of(write_json(tmp_path / "old.json", demo_data()))
    assert "schema version 2 is too old" in problem.problem
