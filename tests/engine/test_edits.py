"""``Edits``: several GM edits in one transaction, all or nothing, one undo step, each
with its own log entry; a refusal names the field."""

from __future__ import annotations

from pathlib import Path

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session, load_session, save_session


def _engine() -> Engine:
    return Engine(demo_session())


def test_two_edits_are_one_undo_step_with_an_entry_each() -> None:
    engine = _engine()
    kaede = engine.encounter.fighters["kaede"]
    out = engine.apply(c.Edits(edits=[
        c.SetValue(fighter_id="kaede", field="name", value="Kaede M."),
        c.SetValue(fighter_id="kaede", field="status.health", value=4)]))
    assert out.ok and (kaede.name, kaede.status.health) == ("Kaede M.", 4)
    log = engine.session.log
    assert [e.command["kind"] for e in log] == ["set-value", "set-value"]
    assert len({e.step for e in log}) == 1 and [e.seq for e in log] == [0, 1]
    assert out.text == "; ".join(e.summary for e in log)
    assert engine.undo()
    assert (kaede.name, kaede.status.health) == ("Kaede Moriyama", 10) and not engine.session.log
    assert engine.redo()
    assert (kaede.name, kaede.status.health) == ("Kaede M.", 4)


def test_a_refused_second_edit_changes_nothing_and_names_the_field() -> None:
    engine = _engine()
    before = engine.encounter.model_dump(mode="json")
    out = engine.apply(c.Edits(edits=[
        c.SetValue(fighter_id="kaede", field="name", value="Kaede M."),
        c.SetValue(fighter_id="kaede", field="status.health", value=-5)]))
    assert not out.ok and out.error is not None
    assert out.error.startswith("health: ") and "nothing was changed" in out.error
    assert engine.encounter.model_dump(mode="json") == before and not engine.session.log
    out = engine.apply(c.Edits(edits=[c.SetOption(option="arena_tn", value=7),
                                      c.SetOption(option="arena_tn", value=99)]))
    assert not out.ok and (out.error or "").startswith("arena tn: ")
    assert engine.encounter.options.arena_tn == 8


def test_edits_are_a_step_of_their_own_and_a_check_changes_nothing() -> None:
    engine = _engine()
    assert engine.apply(c.SetValue(fighter_id="brannock", field="status.health", value=9)).ok
    assert engine.apply(c.Edits(edits=[c.SetOption(option="arena_tn", value=7),
                                       c.SetOption(option="ones_cancel_on_damage", value=True)])).ok
    steps = [e.step for e in engine.session.log]
    assert steps == [0, 1, 1]
    assert engine.check(c.Edits(edits=[c.SetOption(option="arena_tn", value=6)])).ok
    assert engine.encounter.options.arena_tn == 7  # a check changes nothing


def test_a_lean_engine_applies_edits_all_or_nothing_too() -> None:
    engine = Engine.lean(demo_session())
    out = engine.apply(c.Edits(edits=[c.SetOption(option="arena_tn", value=7),
                                      c.SetOption(option="arena_tn", value=99)]))
    assert not out.ok and engine.encounter.options.arena_tn == 8
    assert engine.apply(c.Edits(edits=[c.SetOption(option="arena_tn", value=7)])).ok
    assert engine.encounter.options.arena_tn == 7


def test_a_fight_with_edits_saves_and_loads_with_its_history(tmp_path: Path) -> None:
    engine = _engine()
    assert engine.apply(c.Edits(edits=[
        c.SetValue(fighter_id="kaede", field="status.health", value=3),
        c.SetOption(option="arena_tn", value=7)])).ok
    path = tmp_path / "fight.json"
    save_session(engine.session, path)
    loaded = Engine(load_session(path))
    assert loaded.encounter.fighters["kaede"].status.health == 3
    assert loaded.undo() and loaded.encounter.fighters["kaede"].status.health == 10
    assert loaded.encounter.options.arena_tn == 8
