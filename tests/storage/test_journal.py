"""Autosave journal, snapshots and recovery bookkeeping (no Qt, no subprocesses)."""

from __future__ import annotations

import errno
import json
import os
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import get_ruleset
from fightdesk.storage import autosave as autosave_mod
from fightdesk.storage import files as files_mod
from fightdesk.storage import journal as journal_mod
from fightdesk.storage.autosave import Autosave, load_snapshot
from fightdesk.storage.files import FileProblem
from fightdesk.storage.journal import ApplyRecord, StepRecord, read_journal

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"


def demo() -> Session:
    return Session.model_validate_json(DEMO.read_text())


def as_json(session: Session) -> str:
    return session.model_dump_json()


def hp(engine: Engine, value: int, who: str = "kaede") -> None:
    out = engine.apply(c.SetValue(fighter_id=who, field="status.health", value=value))
    assert out.ok, out.error


class Statuses:
    """Collects what autosave tells the GM."""

    def __init__(self) -> None:
        self.seen: list[tuple[bool, str]] = []

    def __call__(self, ok: bool, message: str) -> None:
        self.seen.append((ok, message))

    @property
    def problems(self) -> list[str]:
        return [m for ok, m in self.seen if not ok]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "autosave"


@pytest.fixture
def engine() -> Engine:
    return Engine(demo())


def restored(root: Path) -> Session:
    """What a fresh start of the app would bring back."""
    return Autosave(root).restore()


def crash(saver: Autosave) -> None:
    """The app dies here: nothing more is written and its folder lock is gone (detach
    writes nothing either; it only closes the journal and the lock, as the OS would)."""
    saver.detach()


# --- the journal ----------------------------------------------------------------------------


def test_every_action_is_on_disk_when_apply_returns(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 7)
    assert as_json(restored(root)) == as_json(engine.session)
    engine.apply(c.FreeRoll(notation="3d10", who="Kaede"))
    engine.apply(c.Note(text="the crane creaks"))
    assert engine.undo()
    assert as_json(restored(root)) == as_json(engine.session)
    assert engine.redo()
    assert engine.undo() and engine.undo()
    assert as_json(restored(root)) == as_json(engine.session)
    journal = read_journal(saver.fight_dir() / "journal-000001.jsonl")
    ops = [r.op for r in journal.records]
    assert ops == ["apply", "apply", "apply", "undo", "redo", "undo", "undo"]
    assert journal.records[3] == StepRecord(op="undo", seqs=[2])


def test_restored_history_still_undoes_and_redoes(root: Path, engine: Engine) -> None:
    Autosave(root).attach(engine)
    for value in (9, 8, 7):
        hp(engine, value)
    engine.undo()
    back = Engine(restored(root))
    assert back.encounter.fighters["kaede"].status.health == 8
    assert back.redo() and back.encounter.fighters["kaede"].status.health == 7
    assert back.undo() and back.undo() and back.encounter.fighters["kaede"].status.health == 9
    assert back.rebuild() == back.encounter


def test_torn_last_line_counts_as_not_written(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 6)
    after_first = as_json(engine.session)
    hp(engine, 5)
    journal = saver.fight_dir() / "journal-000001.jsonl"
    saver.detach()
    data = journal.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    for cut in (last_start + 1, last_start + 40, len(data) - 1):
        journal.write_bytes(data[:cut])
        contents = read_journal(journal)
        assert contents.torn_tail and len(contents.records) == 1 and contents.problem is None
        assert as_json(restored(root)) == after_first


def test_damaged_line_in_the_middle_stops_replay_and_says_where(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 6)
    after_first = as_json(engine.session)
    hp(engine, 5)
    hp(engine, 4)
    saver.detach()
    journal = saver.fight_dir() / "journal-000001.jsonl"
    lines = journal.read_bytes().split(b"\n")
    lines[1] = b'{"op": "apply", "entry": {"seq": "two"'
    journal.write_bytes(b"\n".join(lines))
    info = Autosave(root).recoverable()
    assert info is not None and info.actions == 1
    assert info.problem is not None and "journal-000001.jsonl: line 2" in info.problem
    assert as_json(restored(root)) == after_first


def test_journal_record_that_does_not_fit_is_reported(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 6)
    saver.detach()
    journal = saver.fight_dir() / "journal-000001.jsonl"
    with journal.open("ab") as handle:
        handle.write(journal_mod.encode(StepRecord(op="redo", seqs=[0])))
    info = Autosave(root).recoverable()
    assert info is not None and info.actions == 1
    assert info.problem is not None and "redo of entries [0]" in info.problem


# --- snapshots --------------------------------------------------------------------------------


def end_round_for_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand-in round rules: EndRound moves the round counter on and says "round-end"."""
    ruleset = get_ruleset("street-fighter")
    real = ruleset.rules.handle

    def handle(ctx: Any, command: c.Command) -> None:
        if isinstance(command, c.EndRound):
            ended = ctx.enc.round
            ctx.set((), "round", ended + 1)
            ctx.summary = f"Round {ended} ends"
            ctx.say(ctx.summary, kind="round-end", round=ended)
            return
        real(ctx, command)

    monkeypatch.setattr(ruleset.rules, "handle", handle)


def test_round_end_writes_a_kept_round_snapshot(
    root: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    end_round_for_test(monkeypatch)
    saver = Autosave(root)
    saver.attach(engine)
    engine.encounter.round = engine.session.start.round = 1  # as if the fight had started (no rule for that here)
    snapshots = {}
    for value in (9, 8, 7):
        hp(engine, value)
        assert engine.apply(c.EndRound()).ok
        snapshots[value] = as_json(engine.session)
    names = [p.name for p in saver.round_snapshots()]
    assert names == ["round-001.json", "round-002.json", "round-003.json"]
    assert as_json(load_snapshot(saver.fight_dir() / "round-002.json")) == snapshots[8]
    # Only the newest two generations of base + journal stay; round files stay for good.
    bases = sorted(p.name for p in saver.fight_dir().glob("base-*.json"))
    assert bases == ["base-000003.json", "base-000004.json"]
    assert not (saver.fight_dir() / "journal-000002.jsonl").exists()
    hp(engine, 2)
    assert as_json(restored(root)) == as_json(engine.session)


def test_undo_of_a_round_end_is_journaled_not_snapshotted(
    root: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    end_round_for_test(monkeypatch)
    saver = Autosave(root)
    engine.encounter.round = engine.session.start.round = 1
    saver.attach(engine)
    engine.apply(c.EndRound())
    engine.undo()
    assert engine.encounter.round == 1
    assert [p.name for p in saver.round_snapshots()] == ["round-001.json"]
    assert as_json(restored(root)) == as_json(engine.session)
    engine.redo()
    assert as_json(restored(root)) == as_json(engine.session)


def test_damaged_newest_snapshot_falls_back_to_the_previous_generation(
    root: Path, engine: Engine
) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 6)
    at_save = as_json(engine.session)
    saver.mark_saved(root.parent / "fight.json")
    hp(engine, 5)
    saver.detach()
    (saver.fight_dir() / "base-000002.json").write_text('{"schema_version": 1, "encounter"')
    info = Autosave(root).recoverable()
    assert info is not None and info.problem is not None
    assert "base-000002.json" in info.problem
    assert as_json(restored(root)) == at_save


# --- bookkeeping ----------------------------------------------------------------------------


def test_crash_is_offered_and_clean_quit_reopens(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 3)
    crash(saver)
    info = Autosave(root).recoverable()
    assert info is not None and info.crashed and info.unsaved and info.path is None
    assert info.last_action == "GM set Kaede Moriyama's health to 3"
    assert info.fight_name == engine.encounter.name and info.actions == 1
    saver.attach(engine, fight_id=saver.fight_id)
    saver.mark_clean_exit()
    info = Autosave(root).recoverable()
    assert info is not None and not info.crashed and info.unsaved


def test_saved_fight_knows_its_file_and_whether_it_changed(root: Path, engine: Engine) -> None:
    target = root.parent / "harbour.json"
    saver = Autosave(root)
    saver.attach(engine, target)
    info = Autosave(root).recoverable()
    assert info is not None and info.path == target and not info.unsaved
    hp(engine, 4)
    info = Autosave(root).recoverable()
    assert info is not None and info.unsaved
    saver.mark_saved(target)
    info = Autosave(root).recoverable()
    assert info is not None and not info.unsaved


def test_continuing_a_restored_fight_keeps_its_folder(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 4)
    first = saver.fight_id
    crash(saver)
    again = Autosave(root)
    info = again.recoverable()
    assert info is not None
    back = Engine(again.restore())
    again.attach(back, info.path, fight_id=info.fight_id, saved=not info.unsaved)
    assert again.fight_id == first
    hp(back, 3)
    assert as_json(restored(root)) == as_json(back.session)


def test_new_or_opened_session_starts_a_new_fight(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    first = saver.fight_id
    hp(engine, 4)
    other = demo()
    other.encounter.name = "Another fight"
    other.start.name = "Another fight"
    engine.replace_session(other)
    assert saver.fight_id != first
    info = Autosave(root).recoverable()
    assert info is not None and info.fight_name == "Another fight" and info.actions == 0
    assert (root / str(first)).is_dir()  # the earlier fight is kept


def test_declined_restore_is_not_offered_again(root: Path, engine: Engine) -> None:
    Autosave(root).attach(engine)
    hp(engine, 4)
    later = Autosave(root)
    assert later.recoverable() is not None
    later.forget()
    assert Autosave(root).recoverable() is None


def test_leftover_temporary_files_are_removed_on_attach(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 4)
    leftover = saver.fight_dir() / ".base-000002.json.abc123.tmp"
    leftover.write_text('{"schema_ver')
    crash(saver)
    info = Autosave(root).recoverable()
    assert info is not None
    again = Autosave(root)
    again.attach(Engine(again.restore()), fight_id=info.fight_id)
    assert not leftover.exists()


def test_old_fights_are_pruned(root: Path) -> None:
    saver = Autosave(root, keep_fights=3)
    ids = []
    for _ in range(5):
        saver.attach(Engine(demo()))
        ids.append(saver.fight_id)
        os.utime(saver.fight_dir(), (1_000_000 + len(ids), 1_000_000 + len(ids)))
    kept = sorted(p.name for p in root.iterdir() if p.is_dir())
    assert len(kept) == 3 and ids[-1] in kept and ids[0] not in kept


def test_a_fight_open_in_another_window_is_neither_offered_nor_taken(
    root: Path, engine: Engine
) -> None:
    running = Autosave(root)
    running.attach(engine)
    hp(engine, 4)
    info = Autosave(root).recoverable()
    assert info is not None and info.in_use and not info.crashed
    second = Autosave(root, keep_fights=0)
    second.attach(Engine(second.restore(info.fight_id)), fight_id=info.fight_id)
    assert second.fight_id != running.fight_id  # its own folder, not the running one's
    assert running.fight_dir().is_dir()  # and pruning left the running fight alone
    hp(engine, 3)
    assert as_json(Autosave(root).restore(running.fight_id)) == as_json(engine.session)
    crash(running)
    later = Autosave(root)
    found = later.recoverable()
    assert found is not None and found.fight_id == second.fight_id and found.in_use


def test_damaged_state_file_counts_as_a_crash_of_the_newest_fight(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 4)
    saver.mark_clean_exit()
    (root / "state.json").write_text("{not json")
    info = Autosave(root).recoverable()
    assert info is not None and info.crashed and info.fight_id == saver.fight_id


# --- a full disk or a read-only folder --------------------------------------------------


class FailingOs(types.SimpleNamespace):
    """The real ``os`` module, except the named calls fail with ``error``."""

    def __init__(self, error: OSError, *names: str) -> None:
        super().__init__()
        self._error = error
        self._names = set(names)
        self.armed = True

    def __getattr__(self, name: str) -> Any:
        real = getattr(os, name)
        if name in self._names:
            def failing(*args: Any, **kwargs: Any) -> Any:
                if self.armed:
                    raise self._error
                return real(*args, **kwargs)
            return failing
        return real


def test_full_disk_during_journal_write_is_reported_and_keeps_the_last_snapshot(
    root: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    statuses = Statuses()
    saver = Autosave(root, on_status=statuses)
    saver.attach(engine)
    hp(engine, 6)
    good = as_json(engine.session)
    snapshot = (saver.fight_dir() / "base-000001.json").read_bytes()
    full = FailingOs(OSError(errno.ENOSPC, "No space left on device"), "write", "replace")
    monkeypatch.setattr(journal_mod, "os", full)
    monkeypatch.setattr(files_mod, "os", full)
    hp(engine, 5)  # the action itself still happens
    assert engine.encounter.fighters["kaede"].status.health == 5
    assert not saver.healthy
    [message] = statuses.problems
    assert "the disk is full" in message and "journal-000001.jsonl" in message
    assert "1 action is only in memory" in message
    hp(engine, 4)  # retried as a full snapshot, which fails too
    assert "2 actions are only in memory" in statuses.problems[-1]
    assert (saver.fight_dir() / "base-000001.json").read_bytes() == snapshot
    assert as_json(restored(root)) == good
    assert not list(saver.fight_dir().glob(".*.tmp"))
    full.armed = False
    hp(engine, 3)  # space again: one snapshot brings the disk up to date
    assert saver.healthy and statuses.seen[-1][0] is True
    assert as_json(restored(root)) == as_json(engine.session)
    hp(engine, 2)
    assert as_json(restored(root)) == as_json(engine.session)


def test_read_only_folder_at_round_end_keeps_the_journal(
    root: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    end_round_for_test(monkeypatch)
    statuses = Statuses()
    saver = Autosave(root, on_status=statuses)
    engine.encounter.round = engine.session.start.round = 1
    saver.attach(engine)
    hp(engine, 6)
    monkeypatch.setattr(files_mod, "os", FailingOs(PermissionError(errno.EACCES, "denied"), "replace"))
    monkeypatch.setattr(autosave_mod, "os", FailingOs(PermissionError(errno.EACCES, "denied"), "replace"))
    assert engine.apply(c.EndRound()).ok
    assert any("end-of-round snapshot" in m for m in statuses.problems)
    assert saver.healthy  # the journal took the action
    assert as_json(restored(root)) == as_json(engine.session)
    assert not list(saver.fight_dir().glob("round-*.json"))


def test_failed_save_compaction_reports_permission_problem(
    root: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    statuses = Statuses()
    saver = Autosave(root, on_status=statuses)
    saver.attach(engine)
    hp(engine, 6)
    monkeypatch.setattr(files_mod, "os", FailingOs(PermissionError(errno.EACCES, "denied"), "replace"))
    saver.mark_saved(root.parent / "fight.json")
    assert any("permission denied" in m and "base-000002.json" in m for m in statuses.problems)
    assert as_json(restored(root)) == as_json(engine.session)


def test_no_autosave_to_restore_is_a_clear_problem(root: Path) -> None:
    assert Autosave(root).recoverable() is None
    with pytest.raises(FileProblem, match="no autosaved fight"):
        Autosave(root).restore()


# --- property: any sequence of actions restores exactly ----------------------------------

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("hp"), st.integers(0, 12)),
        st.tuples(st.just("roll"), st.sampled_from(["1d10", "3d10>=6", "2d6+3"])),
        st.tuples(st.just("note"), st.text("abc xyz", min_size=1, max_size=8)),
        st.tuples(st.just("add"), st.integers(1, 3)),
        st.tuples(st.just("undo"), st.just(0)),
        st.tuples(st.just("redo"), st.just(0)),
        st.tuples(st.just("save"), st.just(0)),
        st.tuples(st.just("restart"), st.just(0)),
    ),
    max_size=25,
)


@given(actions=ACTIONS, write_now=st.booleans())
def test_any_history_restores_exactly(tmp_path_factory: pytest.TempPathFactory,
                                      actions: list[tuple[str, Any]], write_now: bool) -> None:
    """``write_now=False`` is how the window attaches: the first snapshot waits for the
    paint, or for the first action, save or restart, whichever comes first."""
    root = tmp_path_factory.mktemp("autosave")
    engine = Engine(demo())
    start = as_json(engine.session)
    saver = Autosave(root)
    saver.attach(engine, write_now=write_now)
    template = engine.encounter.fighters["dock-thug-1"].model_dump(mode="json")
    template.update(name="Thug", group=None)
    for kind, arg in actions:
        if kind == "hp":
            hp(engine, arg)
        elif kind == "roll":
            engine.apply(c.FreeRoll(notation=arg))
        elif kind == "note":
            engine.apply(c.Note(text=arg))
        elif kind == "add":
            engine.apply(c.AddFighters(fighter=template, count=arg))
        elif kind == "undo":
            engine.undo()
        elif kind == "redo":
            engine.redo()
        elif kind == "save":
            saver.mark_saved(root.parent / "saved.json")
        else:  # the app restarts: restore and carry on in the same fight folder
            info = Autosave(root).recoverable()
            if info is None:  # nothing happened yet, so nothing was written: start over
                assert not write_now and as_json(engine.session) == start
                continue
            assert info.problem is None
            saver.detach()
            saver = Autosave(root)
            engine = Engine(saver.restore())
            saver.attach(engine, info.path, fight_id=info.fight_id, write_now=write_now)
        if Autosave(root).recoverable() is None:
            # Only before anything was written, which only a put-off first write allows,
            # and only while the fight is still exactly what was attached.
            assert not write_now and as_json(engine.session) == start
        else:
            assert as_json(restored(root)) == as_json(engine.session)
    assert engine.rebuild() == engine.encounter


def test_a_put_off_first_write_waits_and_then_holds_the_fight(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine, write_now=False)
    assert not list(saver.fight_dir().glob("base-*.json"))  # nothing written yet
    assert Autosave(root).recoverable() is None
    saver.write_attached()
    saver.write_attached()  # once only
    assert [p.name for p in saver.fight_dir().glob("base-*.json")] == ["base-000001.json"]
    assert as_json(restored(root)) == as_json(engine.session)
    hp(engine, 6)
    assert as_json(restored(root)) == as_json(engine.session)


def test_the_first_action_before_the_put_off_write_is_kept_once(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine, root.parent / "docks.json", write_now=False)
    hp(engine, 6)  # before the window got to write the first snapshot
    assert read_journal(saver.fight_dir() / "journal-000001.jsonl").records == []
    back = restored(root)
    assert as_json(back) == as_json(engine.session)
    assert len(back.log) == len(engine.session.log)  # the action is in it once, not twice
    assert not saver.is_saved  # the fight no longer equals docks.json
    hp(engine, 5)
    assert as_json(restored(root)) == as_json(engine.session)
    saver.write_attached()  # the window's late call changes nothing
    assert as_json(restored(root)) == as_json(engine.session)


def test_a_quit_before_the_put_off_write_still_reopens_the_fight(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine, write_now=False)
    saver.mark_clean_exit()
    info = Autosave(root).recoverable()
    assert info is not None and info.clean_exit
    assert as_json(restored(root)) == as_json(engine.session)


def test_a_fight_replaced_before_its_put_off_write_leaves_no_snapshot(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine, write_now=False)
    first = saver.fight_dir()
    saver.attach(Engine(demo()))  # File > Open before the paint: the first fight never acted
    assert not list(first.glob("base-*.json"))
    assert saver.fight_dir() != first and list(saver.fight_dir().glob("base-*.json"))


def test_journal_lines_are_plain_json(root: Path, engine: Engine) -> None:
    saver = Autosave(root)
    saver.attach(engine)
    hp(engine, 6)
    line = (saver.fight_dir() / "journal-000001.jsonl").read_text().splitlines()[0]
    record = json.loads(line)
    assert record["op"] == "apply" and record["entry"]["summary"].startswith("GM set")
    assert isinstance(journal_mod._records().validate_json(line), ApplyRecord)


def test_round_counter_moving_on_keeps_the_round_once(
    root: Path, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Like street-fighter: EndRound says "round-end", StartRound moves the counter. The
    round kept at its end is not overwritten when the next round starts, even after a
    restart; rules that only move the counter still get a snapshot per round."""
    ruleset = get_ruleset("street-fighter")

    def handle(ctx: Any, command: c.Command) -> None:
        if isinstance(command, c.EndRound):
            ctx.summary = f"Round {ctx.enc.round} ends"
            ctx.say(ctx.summary, kind="round-end", round=ctx.enc.round)
        elif isinstance(command, c.StartRound):
            ctx.set((), "round", ctx.enc.round + 1)
            ctx.summary = "next round"
        else:
            ctx.fail("not in this test")

    monkeypatch.setattr(ruleset.rules, "handle", handle)
    saver = Autosave(root)
    engine.encounter.round = engine.session.start.round = 1
    saver.attach(engine)
    hp(engine, 6)
    assert engine.apply(c.EndRound()).ok
    at_end = as_json(engine.session)
    crash(saver)
    again = Autosave(root)
    info = again.recoverable()
    assert info is not None
    back = Engine(again.restore())
    again.attach(back, fight_id=info.fight_id)
    assert back.apply(c.StartRound()).ok  # 1 -> 2: round 1 was kept at its end
    assert as_json(load_snapshot(again.fight_dir() / "round-001.json")) == at_end
    hp(back, 5)
    assert back.apply(c.StartRound()).ok  # 2 -> 3 with no round-end event: round 2 kept
    round2 = load_snapshot(again.fight_dir() / "round-002.json")
    assert round2.encounter.round == 3 and as_json(round2) == as_json(back.session)
    assert [p.name for p in again.round_snapshots()] == ["round-001.json", "round-002.json"]
