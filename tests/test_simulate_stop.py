"""Stopping a simulation run stops its worker processes: killed (SIGKILL), told to stop
(SIGTERM) or interrupted (Ctrl+C), a run leaves no process behind, and the command line
says why it stopped. Real processes, a run far too long to finish; the time limits are
only there so a failure cannot hang the suite."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

DEMO = Path(__file__).resolve().parents[1] / "resources" / "demo_fight.json"
SAFETY = 60.0  # seconds: never reached when all is well

# The window's way: its own process starts the workers by "spawn".
SPAWN_RUN = (
    "from fightdesk.engine.simulate import simulate\n"
    "from fightdesk.storage.sessions import load_session\n"
    f"simulate(load_session({str(DEMO)!r}), fights=1_000_000, workers=2, start='spawn')\n"
)
COMMANDS = {
    "command line": ["-m", "fightdesk", "simulate", str(DEMO), "--fights", "1000000",
                     "--workers", "2"],
    "spawn": ["-c", SPAWN_RUN],
}


def _stat(pid: int) -> list[str] | None:
    """The fields after the command name in /proc/PID/stat (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and fields[1] == str(pid) and fields[0] not in ("Z", "X"):
                found.append(int(entry))
    return found


def _busy(pid: int) -> bool:
    """Has played a while: a third of a second of processor time."""
    fields = _stat(pid)
    return fields is not None and (int(fields[11]) + int(fields[12])) >= os.sysconf("SC_CLK_TCK") // 3


def _until(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + SAFETY
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"still not {what} after {SAFETY:.0f} s")
        time.sleep(0.05)


class Run:
    """A simulation run in its own process group (as a terminal's foreground job)."""

    def __init__(self, args: list[str], tmp_path: Path) -> None:
        self.err_path = tmp_path / "stderr.txt"
        self.out_path = tmp_path / "stdout.txt"
        with self.out_path.open("w") as out, self.err_path.open("w") as err:
            self.proc = subprocess.Popen([sys.executable, *args], stdout=out, stderr=err,
                                         start_new_session=True, cwd=tmp_path)
        self.workers: list[int] = []

    def wait_for_workers(self) -> None:
        def playing() -> bool:
            if self.proc.poll() is not None:
                pytest.fail(f"the run ended early: {self.err_path.read_text()}")
            busy = [pid for pid in _children(self.proc.pid) if _busy(pid)]
            self.workers = _children(self.proc.pid)
            return len(busy) >= 2

        _until("playing on two workers", playing)

    def workers_gone(self) -> bool:
        return not any(_alive(pid) for pid in self.workers)

    def end(self) -> None:
        """Whatever happened: nothing of this run is left running."""
        for pid in [self.proc.pid, *self.workers]:
            if _alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self.proc.wait(timeout=SAFETY)


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[str], Run]]:
    runs: list[Run] = []

    def starting(how: str) -> Run:
        run = Run(COMMANDS[how], tmp_path)
        runs.append(run)
        run.wait_for_workers()
        return run

    yield starting
    for run in runs:
        run.end()


@pytest.mark.parametrize("how", sorted(COMMANDS))
def test_killing_the_run_ends_its_workers(how: str, start: Callable[[str], Run]) -> None:
    run = start(how)
    run.proc.kill()
    run.proc.wait(timeout=SAFETY)
    _until("rid of the workers", run.workers_gone)


def test_sigterm_stops_the_run_and_says_so(start: Callable[[str], Run]) -> None:
    run = start("command line")
    run.proc.send_signal(signal.SIGTERM)
    assert run.proc.wait(timeout=SAFETY) == 128 + signal.SIGTERM
    _until("rid of the workers", run.workers_gone)
    err = run.err_path.read_text()
    assert err.startswith("fightdesk simulate: stopped by SIGTERM after ")
    assert err.endswith(" of 1000000 fights; no result\n") and err.count("\n") == 1
    assert run.out_path.read_text() == ""


def test_ctrl_c_stops_the_run_and_its_workers(start: Callable[[str], Run]) -> None:
    """A terminal sends Ctrl+C to every process of the job: the workers leave it to the
    run, which stops them and says so, with no traceback."""
    run = start("command line")
    os.killpg(run.proc.pid, signal.SIGINT)
    assert run.proc.wait(timeout=SAFETY) == 128 + signal.SIGINT
    _until("rid of the workers", run.workers_gone)
    err = run.err_path.read_text()
    assert err.startswith("fightdesk simulate: stopped by Ctrl+C (SIGINT) after "), err
    assert "Traceback" not in err and err.count("\n") == 1
