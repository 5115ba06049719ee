"""The two ways a session file is read: a file of today's schema is parsed straight into
the models in one pass; anything else (an older schema, a file the models refuse) takes
the full path that upgrades it or says plainly what is wrong. Both must give the same
fight and the same messages (the first one is there for speed)."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import KNOWN_RULESETS, SCHEMA_VERSION, LogEntry, Session, new_encounter
from fightdesk.storage import sessions
from fightdesk.storage.files import FileProblem
from fightdesk.storage.journal import ApplyRecord, read_journal
from fightdesk.storage.sessions import demo_session, load_session, save_session, session_to_json
from fightdesk.storage.trust import HistoryProblem


@pytest.fixture
def played() -> Engine:
    engine = Engine(demo_session())
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=6)).ok
    assert engine.apply(c.FreeRoll(notation="3d10", dice=[[2, 9, 10]], who="GM")).ok
    assert engine.apply(c.Note(text="Thug 2 hesitates")).ok
    assert engine.undo()
    return engine


def test_a_current_file_reads_the_same_on_both_paths(played: Engine) -> None:
    text = session_to_json(played.session)
    direct = sessions._current_session(text, Session, SCHEMA_VERSION)
    assert direct is not None
    assert direct == Session.model_validate(json.loads(text)) == played.session
    assert sessions.session_from_json(text, "fight.json") == played.session


@pytest.mark.parametrize("version", [1, SCHEMA_VERSION + 1])
def test_another_schema_version_is_left_to_the_full_path(played: Engine, version: int) -> None:
    data = json.loads(session_to_json(played.session))
    data["schema_version"] = version
    assert sessions._current_session(json.dumps(data), Session, SCHEMA_VERSION) is None


def test_fighters_of_another_ruleset_than_the_fight_are_named(tmp_path: Path) -> None:
    """The models accept such a file (each fighter agrees with itself, the fight's own
    parts with the fight): the one-pass read must still refuse it, in the same words."""
    data: dict[str, Any] = json.loads(session_to_json(demo_session()))
    for root in ("encounter", "start"):
        data[root].update(ruleset="d100", options={"ruleset": "d100"}, state={"ruleset": "d100"})
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert sessions._current_session(path.read_text(), Session, SCHEMA_VERSION) is not None
    with pytest.raises(FileProblem) as caught:
        load_session(path)
    first = next(iter(data["encounter"]["fighters"]))
    assert caught.value.field == f"encounter.fighters.{first}.sheet.ruleset"
    assert caught.value.problem == "this part is for street-fighter, but the fight is d100"
    # The full path (which reads the raw JSON) says exactly the same.
    with pytest.raises(FileProblem) as full:
        sessions._check_ruleset_ids(data, path)
    assert (full.value.field, full.value.problem) == (caught.value.field, caught.value.problem)


def test_a_journal_left_by_the_version_before_reads_in_todays_words(
        played: Engine, tmp_path: Path) -> None:
    """Log entries no longer upgrade themselves (a validator on each of thousands of
    entries): an old journal's entries are upgraded where the journal is read."""
    entry = json.loads(session_to_json(played.session))["log"][0]
    entry.pop("where", None)
    entry["phase"] = 3
    path = tmp_path / "journal.jsonl"
    path.write_text(json.dumps({"op": "apply", "entry": entry}) + "\n", encoding="utf-8")
    found = read_journal(path)
    assert found.problem is None
    [record] = found.records
    assert isinstance(record, ApplyRecord) and record.entry.where == "phase 3"
    # A line that is damaged, not old, is still reported where it is.
    entry["phase"] = 3
    entry["seq"] = "first"
    path.write_text(json.dumps({"op": "apply", "entry": entry}) + "\n", encoding="utf-8")
    assert read_journal(path).problem == f"{path}: line 1 at apply.entry.seq: " \
        "Input should be a valid integer, unable to parse string as an integer"


def test_an_entry_validated_alone_keeps_todays_fields(played: Engine, tmp_path: Path) -> None:
    path = tmp_path / "fight.json"
    save_session(played.session, path)
    loaded = load_session(path)
    assert all(isinstance(e, LogEntry) for e in (*loaded.log, *loaded.redo))
    assert loaded.log == played.session.log and loaded.redo == played.session.redo


@pytest.mark.parametrize("version", ['"2"', "2.0", "true"])
def test_a_current_version_not_written_as_a_whole_number_is_refused_by_name(
        played: Engine, tmp_path: Path, version: str) -> None:
    """The models would read "2" or 2.0 as today's version; the file is still refused,
    naming the field, as the full path always did."""
    text = session_to_json(played.session)
    assert text.startswith('{\n "schema_version": 2,')
    path = tmp_path / "fight.json"
    path.write_text(text.replace('"schema_version": 2', f'"schema_version": {version}', 1),
                    encoding="utf-8")
    with pytest.raises(FileProblem) as caught:
        load_session(path)
    assert caught.value.field == "schema_version" and "whole number" in caught.value.problem


def test_a_second_schema_version_takes_the_full_path(played: Engine) -> None:
    text = session_to_json(played.session)
    twice = text.replace('"schema_version": 2,', '"schema_version": 2, "schema_version": "2",', 1)
    assert sessions._current_session(twice, Session, SCHEMA_VERSION) is None
    with pytest.raises(FileProblem, match="whole number"):
        sessions.session_from_json(twice, "fight.json")


@pytest.mark.parametrize("ruleset", KNOWN_RULESETS)
def test_a_fight_without_its_options_and_round_state_gets_its_rulesets_empty_ones(
        ruleset: str) -> None:
    """They are filled in once the fight is built (not by a validator that would turn the
    whole fight into Python dicts before reading it): the same on both paths."""
    data = json.loads(session_to_json(Session.begin(new_encounter(ruleset, "Test"))))
    for root in ("encounter", "start"):
        del data[root]["options"], data[root]["state"]
    text = json.dumps(data)
    direct = sessions._current_session(text, Session, SCHEMA_VERSION)
    assert direct is not None and direct == Session.model_validate(data)
    for enc in (direct.encounter, direct.start):
        assert enc.options.ruleset == enc.state.ruleset == ruleset
        assert enc.options == new_encounter(ruleset).options
        assert enc.state == new_encounter(ruleset).state


def test_a_given_part_of_another_ruleset_is_refused_when_the_other_is_left_out(
        tmp_path: Path) -> None:
    data = json.loads(session_to_json(Session.begin(new_encounter("d100", "Test"))))
    del data["encounter"]["state"]
    data["encounter"]["options"] = {"ruleset": "ashes"}
    with pytest.raises(ValidationError, match="options are for ashes, but this is a d100 fight"):
        Session.model_validate(data)
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FileProblem) as caught:
        load_session(path)
    assert caught.value.field == "encounter.options.ruleset"
    assert caught.value.problem == "this part is for ashes, but the fight is d100"


def test_the_collector_is_on_again_after_a_load_and_after_a_refused_history(
        played: Engine, tmp_path: Path) -> None:
    """The checks and the history proof now run with the collector paused too."""
    path = tmp_path / "fight.json"
    save_session(played.session, path)
    assert gc.isenabled()
    assert load_session(path) == played.session and gc.isenabled()
    data = json.loads(path.read_text(encoding="utf-8"))
    change = next(ch for entry in data["log"] for ch in entry["changes"]
                  if ch["key"] == "health")
    change["before"] = change["before"] + 1
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(HistoryProblem):
        load_session(path)
    assert gc.isenabled()
