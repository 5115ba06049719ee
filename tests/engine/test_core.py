"""Core engine: apply, undo, redo, rebuild, GM override, groups, typed dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"


@pytest.fixture
def engine() -> Engine:
    return Engine(Session.model_validate_json(DEMO.read_text()))


def dump(engine: Engine) -> dict:
    return engine.encounter.model_dump(mode="json")


def test_override_undo_redo_restores_exactly(engine: Engine) -> None:
    before = dump(engine)
    out = engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=4))
    assert out.ok, out.error
    after = dump(engine)
    assert engine.encounter.fighters["kaede"].status.health == 4
    assert engine.undo()
    assert dump(engine) == before
    assert engine.redo()
    assert dump(engine) == after
    assert engine.rebuild().model_dump(mode="json") == after


def test_bad_override_is_an_error_value_and_changes_nothing(engine: Engine) -> None:
    before = dump(engine)
    out = engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=-1))
    assert not out.ok and "greater than or equal to 0" in (out.error or "")
    out = engine.apply(c.SetValue(fighter_id="kaede", field="status.nonsense", value=1))
    assert out.error == "Kaede Moriyama has no 'status.nonsense'"
    assert dump(engine) == before and not engine.session.log


def test_group_of_five_is_numbered(engine: Engine) -> None:
    template = engine.encounter.fighters["dock-thug-1"].model_dump(mode="json")
    template["name"] = "Thug"
    template["group"] = None
    out = engine.apply(c.AddFighters(fighter=template, count=5))
    assert out.ok, out.error
    names = [engine.encounter.fighters[f].name for f in engine.encounter.order[-5:]]
    assert names == ["Thug 1", "Thug 2", "Thug 3", "Thug 4", "Thug 5"]
    group = engine.encounter.fighters[engine.encounter.order[-1]].group
    assert group is not None and engine.encounter.groups[group].name == "Thug"
    engine.undo()
    assert "thug" not in engine.encounter.groups


def test_typed_dice_are_recorded_as_typed(engine: Engine) -> None:
    out = engine.apply(c.FreeRoll(notation="3d10>=6", dice=[[6, 1, 10]]))
    assert out.ok and out.entry is not None
    roll = out.entry.events[0].roll
    assert roll is not None and roll.source == "typed" and roll.faces == [6, 1, 10]
    assert out.entry.summary == "rolled 3d10>=6: 2 successes"
    bad = engine.apply(c.FreeRoll(notation="2d10", dice=[[11, 1]]))
    assert bad.error == "dice bar: face 11 is not on a d10 (1..10)"


def test_seeded_dice_repeat_after_undo(engine: Engine) -> None:
    first = engine.apply(c.FreeRoll(notation="10d10")).entry
    engine.undo()
    again = engine.apply(c.FreeRoll(notation="10d10")).entry
    assert first is not None and again is not None
    assert first.events[0].roll == again.events[0].roll


def test_revert_to_entry(engine: Engine) -> None:
    for hp in (9, 8, 7, 6):
        engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=hp))
    engine.revert_to(1)
    assert engine.encounter.fighters["kaede"].status.health == 8
    assert len(engine.session.log) == 2 and len(engine.session.redo) == 2


@pytest.mark.parametrize(
    ("notation", "message"),
    [
        ("", "is not dice notation"),
        ("3x10", "is not dice notation"),
        ("0d10", "between 1 and"),
        ("2d1", "2 to 1000 sides"),
        ("1d6+1d8>=4", "one kind of dice"),
    ],
)
def test_bad_notation(engine: Engine, notation: str, message: str) -> None:
    out = engine.apply(c.FreeRoll(notation=notation))
    assert not out.ok and message in (out.error or "")


def test_ruleset_option_is_a_logged_undoable_override(engine: Engine) -> None:
    assert engine.encounter.options.ones_cancel_on_damage is False
    out = engine.apply(c.SetOption(option="ones_cancel_on_damage", value=True))
    assert out.ok, out.error
    assert engine.encounter.options.ones_cancel_on_damage is True
    assert out.entry is not None
    assert out.entry.summary == "GM set the option ones cancel on damage to True"
    assert engine.rebuild().model_dump(mode="json") == dump(engine)
    engine.undo()
    assert engine.encounter.options.ones_cancel_on_damage is False


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("no_such_option", 1, "'no_such_option' is not an option of this fight"),
        ("ruleset", "d100", "'ruleset' is not an option of this fight"),
        ("seconds_per_round", 0, "greater than or equal to 1"),
        ("arena_tn", 9, "less than or equal to 8"),
    ],
)
def test_bad_option_changes_nothing(engine: Engine, option: str, value: object,
                                    message: str) -> None:
    before = dump(engine)
    out = engine.apply(c.SetOption(option=option, value=value))
    assert not out.ok and message in (out.error or ""), out.error
    assert dump(engine) == before and not engine.session.log


def test_revert_to_tells_the_views_once_and_the_journal_replays_it() -> None:
    """Revert to here over several steps is one notice (the views refresh once), and the
    autosave journal's record of it replays to the same fight."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.engine import Engine, Notice
    from fightdesk.storage.journal import replay_record, step_record
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    start = engine.session.model_copy(deep=True)
    for n in range(5):
        assert engine.apply(c.Note(text=f"note {n}")).ok
    heard: list[Notice] = []
    engine.subscribe(heard.append)
    assert engine.revert_to(1) == 3
    assert len(heard) == 1 and heard[0].kind == "undo"
    assert [e.seq for e in heard[0].entries] == [2, 3, 4]
    assert [e.seq for e in engine.session.log] == [0, 1]
    # The journal's record of that notice, replayed on the fight before the revert.
    replayed = Engine(start)
    for n in range(5):
        assert replayed.apply(c.Note(text=f"note {n}")).ok
    replay_record(replayed, step_record("undo", heard[0].entries))
    assert replayed.session.log == engine.session.log
    assert replayed.session.redo == engine.session.redo
