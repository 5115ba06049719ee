"""Chains of SIGKILL and restart of the real window (``python -m fightdesk``, offscreen).

The headless driver (test_crash_recovery.py) kills the storage code a hundred times;
this kills the window itself, where the start-up, the restore question and File > Save
run through Qt: during the start-up's first autosave write, during the restore of the
fight killed before, in the middle of a save over the file the window opened, and
after a random number of actions of a long played fight. Every run after a kill must ask
to restore and show the fight as it was after the last action the window reported (or
the one in flight); the GM's saved file must always read back. Each run plays the
fight on from where the last one was restored, so later kills land on restored fights.

A few kills run in CI (about 15 s); ``--stress`` runs 60.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.storage.autosave import Autosave
from fightdesk.storage.sessions import load_session

from .crash_driver import choose, fingerprint, new_session, perform
from .test_crash_recovery import gui_env, run_gui

CI_KILLS = 4
STRESS_KILLS = 60


@dataclass
class Run:
    """How the next window run is started and where it is killed."""

    name: str
    trap: str | None = None
    kill_at: int | None = None
    steps: int = 12
    open_file: bool = False  # start as `fightdesk saved.json` (saves go over it)


def plan(rng: random.Random, kills: int) -> list[Run]:
    """The kinds the issue names, first once each, then at random."""
    kinds = [
        Run("start-up", trap="replace:1"),          # the first snapshot after the paint
        Run("save over the opened file", trap="save:1", open_file=True, steps=30),
        Run("long played fight", kill_at=0, steps=60),
        Run("restore", trap="replace:1", open_file=True),  # after a crash: a restore
    ]
    runs = kinds[:kills]
    while len(runs) < kills:
        pick = rng.choice(kinds)
        runs.append(Run(pick.name, pick.trap, pick.kill_at, pick.steps, pick.open_file))
    return runs


def starting_session(root: Path, saved: Path, open_file: bool) -> tuple[Session, bool]:
    """The fight the next run will show, and whether it comes back after a crash (the
    run answers the restore question with Restore); else the file named, or the demo."""
    info = Autosave(root).recoverable()
    if info is not None and not info.clean_exit:
        return Autosave(root).restore(info.fight_id), True
    if open_file and saved.exists():
        return load_session(saved), False
    return new_session(), False


def expected_prints(session: Session, seed: int, steps: int) -> tuple[list[str], bool]:
    """The fingerprints the run reports, played in memory (same policy, same start),
    and whether the GM saves on the way."""
    engine = Engine(session.model_copy(deep=True))
    prints = [fingerprint(engine.session)]
    saves = False
    for index in range(steps):
        action = choose(seed, index, engine)
        saves = saves or action[0] == "save"
        perform(engine, action, lambda: None)
        prints.append(fingerprint(engine.session))
    return prints, saves


@pytest.mark.slow
def test_sigkill_chains_of_the_real_window(tmp_path: Path, stress: bool) -> None:
    rng = random.Random(14)
    home = tmp_path / "home"
    root = home / "data" / "fightdesk" / "autosave"
    saved = home / "saved.json"
    previous: tuple[list[str], int] = ([], 0)  # what the last run played, how far
    kinds: dict[str, int] = {}
    runs: list[Run | None] = [*plan(rng, STRESS_KILLS if stress else CI_KILLS), None]
    for number, run in enumerate(runs):
        last = run is None  # play on and quit normally
        run = run or Run("quit", steps=5)
        args = (str(saved),) if run.open_file and saved.exists() else ()
        start, restored = starting_session(root, saved, bool(args))
        while True:  # a save to kill in needs a fight where the GM saves
            seed = rng.randrange(10_000)
            ref, saves = expected_prints(start, seed, run.steps)
            if saves or run.trap != "save:1":
                break
        kill_at = rng.randint(1, run.steps - 1) if run.kill_at is not None else None
        mode = f"play:{seed}:{run.steps}" + (":quit" if last else "")
        lines, killed = run_gui(gui_env(home, mode, run.trap), kill_at_step=kill_at,
                                args=args)
        assert killed != last, f"run {number} ({run.name}): killed={killed}: {lines[-5:]}"
        kinds[run.name] = kinds.get(run.name, 0) + 1
        shown = [x.split()[1] for x in lines if x.startswith("SHOWN ")]
        prints, done = previous
        if restored:
            assert "ASKED" in lines, f"run {number}: no restore question after the kill"
            assert not shown or shown[0] in prints[done: done + 2], (
                f"run {number} ({run.name}) restored none of actions {done}..{done + 1}")
        else:
            # Nothing to restore: the kill came before the first autosave, so before
            # any action was done.
            assert done == 0, f"run {number}: {done} actions lost"
        assert not shown or shown[0] == ref[0], f"run {number}: the simulation starts elsewhere"
        steps = [x.split() for x in lines if x.startswith("STEP ")]
        for _, index, fp in steps:
            assert fp == ref[int(index)], f"run {number}: the window is not deterministic"
        if shown:  # killed before the fight was shown: the next start has the one before
            previous = (ref, len(steps))
        if saved.exists():
            load_session(saved)  # the GM's file, old or new, always reads back
    # After the normal quit the next start reopens the fight as it was, without asking.
    lines, _ = run_gui(gui_env(home, "check"))
    assert "ASKED" not in lines and "QUITTING" not in lines
    ref, done = previous
    assert [x.split()[1] for x in lines if x.startswith("SHOWN ")] == [ref[done]]
    print(f"window kills: {kinds}")
    assert {"start-up", "save over the opened file", "long played fight",
            "restore"} <= set(kinds)
