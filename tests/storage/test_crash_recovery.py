"""SIGKILL the headless fight driver 100 times; every completed action must come back.

Each kill lands at a seeded random moment: after a random number of actions plus a
few milliseconds, or hung inside a chosen OS call of the storage code (a half-written
journal line, a snapshot or a save written but not yet renamed, a compaction between
its steps), or in the middle of an interrupt stack resolution. After each kill the test
restores the fight as the app would on its next start and checks that it equals the
fight after the last action the driver reported done (or after the one that followed,
when the kill landed between the journal write and the driver's report), that its log
rebuilds to the same state, and that every file left behind reads back. Then the
driver restarts on the restored fight and carries on, so later kills also land in
restarts and in recovered fights.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from fightdesk.engine.engine import Engine
from fightdesk.storage.autosave import Autosave, AutosaveState, load_snapshot
from fightdesk.storage.journal import read_journal
from fightdesk.storage.sessions import load_session

from . import crash_driver
from .crash_driver import fingerprint, reference

DRIVER = Path(crash_driver.__file__)
KILLS = 100
LINE_TIMEOUT = 20.0


class Driver:
    """One run of the driver process, read line by line with a timeout."""

    def __init__(self, args: list[str]) -> None:
        env = dict(os.environ)
        self.proc = subprocess.Popen(
            [sys.executable, str(DRIVER), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        assert self.proc.stdout is not None
        self._fd = self.proc.stdout.fileno()
        self._buffer = b""

    def next_line(self) -> str | None:
        """The next line the driver printed, or None when it exited."""
        deadline = time.monotonic() + LINE_TIMEOUT
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                pytest.fail("the crash driver hung")
            ready, _, _ = select.select([self._fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._fd, 4096)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def finish(self) -> str:
        """Wait for a driver that ran to its end; returns its stderr."""
        assert self.proc.stderr is not None
        err = self.proc.stderr.read().decode()
        self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return err

    def close(self) -> None:
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@dataclass
class Chain:
    """One fight, killed and restarted until it has played all its actions."""

    number: int
    seed: int
    steps: int
    root: Path
    ref: list[str]
    resume: int | None = None
    leftovers: set[Path] = field(default_factory=set)

    @property
    def progress(self) -> Path:
        return self.root.parent / "progress.txt"

    @property
    def done(self) -> int:
        return self.resume or 0


def choose_kill(rng: random.Random, remaining: int, with_stack: bool) -> tuple[str, str | None, int]:
    """(how, trap, after-steps) for the next kill."""
    kinds = ["time"] * 30 + ["write"] * 15 + ["fsync"] * 15 + ["replace"] * 14 + \
        ["save"] * 12 + ["unlink"] * 4 + ["link"] * 4
    if with_stack:
        kinds += ["pending"] * 12
    kind = rng.choice(kinds)
    if kind == "time":
        return "time", None, rng.randint(1, max(1, remaining))
    reach = {"write": remaining, "fsync": int(remaining * 1.4) + 3, "replace": 6, "save": 3,
             "unlink": 3, "link": 2, "pending": 4}[kind]
    return "trap", f"{kind}:{rng.randint(1, max(1, reach))}", 0


@dataclass
class Tally:
    """What the kills actually hit, so the test proves it covered the hard moments."""

    kills: dict[str, int] = field(default_factory=dict)
    in_flight: int = 0  # restored one action past the last reported one
    torn_tails: int = 0
    leftovers: int = 0
    restarts_killed: int = 0  # killed while restoring, before the first new action

    def kill(self, kind: str) -> None:
        self.kills[kind] = self.kills.get(kind, 0) + 1


def run_once(chain: Chain, rng: random.Random, with_stack: bool, tally: Tally) -> bool:
    """Start the driver (fresh or restored) and kill it; False when it finished instead."""
    how, trap, after = choose_kill(rng, chain.steps - chain.done, with_stack)
    args = ["--root", str(chain.root), "--seed", str(chain.seed), "--steps", str(chain.steps),
            "--progress", str(chain.progress)]
    if chain.resume is not None:
        args += ["--resume", str(chain.resume)]
    if trap:
        args += ["--trap", trap]
    driver = Driver(args)
    ready = False
    try:
        while True:
            line = driver.next_line()
            if line is None:
                err = driver.finish()
                assert driver.proc.returncode == 0, f"driver failed ({trap}):\n{err}"
                return False
            if line == "READY":
                ready = True
            elif line == "DONE":
                driver.finish()
                return False
            elif line == "TRAP":
                driver.kill()
                tally.kill(str(trap).partition(":")[0])
                if not ready:
                    tally.restarts_killed += 1
                break
            elif line.startswith("STEP ") and how == "time":
                if int(line.split()[1]) >= chain.done + after:
                    time.sleep(rng.uniform(0, 0.004))
                    driver.kill()
                    tally.kill("time")
                    break
    finally:
        driver.close()
    if ready:
        # The restarted app cleaned up what the previous kill left half-written.
        still = {p for p in chain.leftovers if p.exists()}
        assert not still, f"temporary files survived a restart: {still}"
    return True


def completed_actions(chain: Chain) -> int:
    """The last action the driver reported done (each report is fsynced before the next)."""
    data = chain.progress.read_bytes() if chain.progress.exists() else b""
    whole = data[: data.rfind(b"\n") + 1]
    if whole != data:  # killed while writing its report: that action is not reported
        chain.progress.write_bytes(whole)
    last = chain.done
    for line in whole.decode().splitlines():
        index, fp = line.split()
        assert fp == chain.ref[int(index)], f"the driver is not deterministic at {index}"
        last = max(last, int(index))
    return last


def check_files(chain: Chain, tally: Tally) -> None:
    """Everything in the autosave folder (and the GM's saved file) reads back."""
    chain.leftovers = set()
    for path in chain.root.rglob("*"):
        if path.is_dir():
            continue
        name = path.name
        if name.startswith(".") and name.endswith(".tmp"):
            chain.leftovers.add(path)  # an interrupted atomic write: ignored, then removed
            tally.leftovers += 1
        elif name == "state.json":
            AutosaveState.model_validate_json(path.read_text())
        elif name.endswith(".json"):
            load_snapshot(path)
        elif name.endswith(".jsonl"):
            contents = read_journal(path)
            assert contents.problem is None, contents.problem
            tally.torn_tails += contents.torn_tail
        else:
            pytest.fail(f"unexpected file in the autosave folder: {path}")
    for saved in chain.root.parent.glob("saved.json*"):
        if not saved.name.endswith(".tmp") and not saved.name.startswith("."):
            load_session(saved)


def check_restore(chain: Chain, tally: Tally) -> None:
    """The next start brings back every completed action (and maybe the one in flight)."""
    last = completed_actions(chain)
    check_files(chain, tally)
    saver = Autosave(chain.root)
    info = saver.recoverable()
    if info is None:
        # Killed before the very first snapshot existed: nothing was done yet.
        assert last == 0, f"nothing to restore after {last} completed actions"
        chain.resume = None
        return
    assert info.problem is None, info.problem
    # Only a kill after the quit was recorded (all actions played) reads as a normal quit.
    assert info.crashed or last == chain.steps
    session = saver.restore(info.fight_id)
    got = fingerprint(session)
    allowed = chain.ref[last: last + 2]
    assert got in allowed, (
        f"chain {chain.number}: restored state is none of actions {last}..{last + 1}"
    )
    chain.resume = last + allowed.index(got)
    tally.in_flight += chain.resume - last
    assert Engine(session).rebuild() == session.encounter


def ruleset_has_rounds() -> bool:
    from fightdesk.engine.ruleset import get_ruleset

    return "pending" in type(get_ruleset("street-fighter")).__dict__


@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_a_completed_action(tmp_path: Path) -> None:
    rng = random.Random(5_2024)
    with_stack = ruleset_has_rounds()
    kills = chains = 0
    tally = Tally()
    while kills < KILLS:
        seed = rng.randrange(1_000_000)
        steps = rng.randint(25, 50)
        root = tmp_path / f"fight-{chains:02d}" / "autosave"
        root.parent.mkdir(parents=True)
        chain = Chain(chains, seed, steps, root, reference(seed, steps))
        chains += 1
        while kills < KILLS:
            if not run_once(chain, rng, with_stack, tally):
                # Played to the end and quit normally: reopened exactly as it ended.
                saver = Autosave(root)
                info = saver.recoverable()
                assert info is not None and info.clean_exit and info.problem is None
                assert fingerprint(saver.restore()) == chain.ref[steps]
                check_files(chain, tally)
                break
            kills += 1
            check_restore(chain, tally)
    print(f"{kills} kills in {chains} fights: {tally}")
    # The seeds are fixed; these prove the kills reached the moments that matter.
    assert chains >= 5
    assert {"time", "write", "fsync", "replace", "save"} <= set(tally.kills)
    assert tally.torn_tails and tally.leftovers and tally.in_flight and tally.restarts_killed
    if with_stack:
        assert tally.kills.get("pending")
