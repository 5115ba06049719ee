"""The encounter simulator: play a fight thousands of times by the real rules, and count.

Each fight is a copy of the given fight from its current state (before round 1 or in the
middle of a round), played by the ruleset's own ``handle`` through a lean
:class:`~fightdesk.engine.engine.Engine` (no log, no listeners, no journal), one command
at a time chosen by a policy: the ruleset's ``autopilot`` (a plain, sensible table) or
``random`` (uniformly among the legal commands, to explore what a plain table never
does). A fight ends when every fighter of one camp is out (the ruleset's ``is_out``), or
as a draw at the round cap. Fight *i* draws its dice and its policy's choices from a seed
made from the run's seed and *i*, so the result is the same on any number of processes.
The fight given is only read (as JSON, once; each fight unpickles a copy of what was read):
it, its log and its autosave never change.
No Qt here: the command line and the window's dialog both call :func:`simulate`.
"""

from __future__ import annotations

import hashlib
import math
import os
import pickle
import random
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

from pydantic import ValidationError

from .changes import RuleViolation
from .engine import Engine
from .model import Encounter, Session
from .ruleset import Autopilot, LegalOption, Ruleset, get_ruleset

if TYPE_CHECKING:
    from .commands import Command
    from .engine import Engine

Policy = Literal["autopilot", "random"]
POLICIES: tuple[Policy, ...] = ("autopilot", "random")
Camp = Literal["party", "enemies"]
# How the worker processes start (:func:`quick_start`).
StartMethod = Literal["spawn", "fork", "forkserver"]


class Stopping(Protocol):
    """The run's stop sign, shared with its workers (a ``multiprocessing`` event)."""

    def set(self) -> None: ...
    def wait(self, timeout: float | None = None) -> bool: ...
PARTY_SIDES = ("pc", "ally")
DEFAULT_FIGHTS = 1000
DEFAULT_MAX_ROUNDS = 20
# A fight that has not ended after this many commands is called a draw (a policy that
# only walks in circles; the round cap ends every fight the rules move forward).
MAX_COMMANDS = 20_000
# The random policy tries this many picks (some are refused by the rules, which leaves
# the fight unchanged) before it takes the autopilot's command for that step.
RANDOM_TRIES = 12


class SimulationError(ValueError):
    """A fight that cannot be simulated, or a bad setting: one line for the GM."""


def fight_seed(seed: int, index: int) -> int:
    """The seed of fight ``index`` of a run seeded ``seed``: the fight's dice and its
    policy's picks both come from it, so no fight depends on which process played it."""
    digest = hashlib.sha256(f"fightdesk-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def camp_of(side: str) -> Camp:
    return "party" if side in PARTY_SIDES else "enemies"


def check_playable(encounter: Encounter, max_rounds: int, fights: int = 1) -> Ruleset:
    """The fight's ruleset, or why the fight cannot be simulated (one line)."""
    if fights < 1:
        raise SimulationError(f"--fights must be at least 1, not {fights}")
    if max_rounds < 1:
        raise SimulationError(f"--max-rounds must be at least 1, not {max_rounds}")
    ruleset = get_ruleset(encounter.ruleset)
    title = ruleset.title or ruleset.id
    if not ruleset.rules.rules_built:
        raise SimulationError(f"{title}: rules not built yet, so its fights cannot be simulated")
    if type(ruleset.autopilot).next_command is Autopilot.next_command:
        raise SimulationError(f"{title} has no autopilot yet, so its fights cannot be simulated")
    camps = {camp_of(f.side) for f in encounter.fighters.values() if not ruleset.rules.is_out(f)}
    for camp in ("party", "enemies"):
        if camp not in camps:
            raise SimulationError(f"the fight has no {camp} left standing: nothing to simulate")
    if ruleset.autopilot.next_command(encounter, random.Random(0)) is None:
        raise SimulationError("the rules offer nothing more to play in this fight "
                              "(it is over)")
    if encounter.round > max_rounds:
        raise SimulationError(f"the fight is in round {encounter.round}, past the round cap "
                              f"of {max_rounds} (raise --max-rounds)")
    return ruleset


class FightResult(NamedTuple):
    """How one simulated fight ended."""

    number: int  # the fight's index in the run
    winner: Camp | None  # None: a draw
    rounds: int
    down: tuple[bool, ...]  # per fighter, in the order of :attr:`Simulation.fighter_ids`
    health: tuple[int, ...]
    # The fight stopped because the policy had no command the rules accept (a draw).
    stuck: bool = False


def _winner(ruleset: Ruleset, enc: Encounter) -> Camp | Literal[False] | None:
    """The camp that won, None for a draw (both out), False while the fight goes on.
    Asked before every command: it stops at the first fighter of each camp standing."""
    is_out = ruleset.rules.is_out
    party = enemies = False
    for f in enc.fighters.values():
        if party if f.side in PARTY_SIDES else enemies:
            continue  # this camp is known to stand
        if not is_out(f):
            if f.side in PARTY_SIDES:
                party = True
            else:
                enemies = True
            if party and enemies:
                return False
    if party:
        return "party"
    return "enemies" if enemies else None


def _random_command(options: Sequence[LegalOption], rng: random.Random) -> Command | None:
    """One legal command, uniformly: an option (form, reaction, answer, GM step), then one
    combination of its fields' values."""
    if not options:
        return None
    option = options[rng.randrange(len(options))]
    try:
        return option.command_at(rng.randrange(option.size))
    except (RuleViolation, ValidationError, ValueError):
        return None  # values the form's own check refuses: the table picks again


def fight_copies(encounter: Encounter) -> bytes:
    """The fight as each simulated fight copies it: read back from its JSON once (as a
    saved fight loads), then pickled. Unpickling a fresh copy is about 2.5 times quicker
    than reading the JSON again (measured), and gives the same models."""
    return pickle.dumps(Encounter.model_validate_json(encounter.model_dump_json()),
                        protocol=pickle.HIGHEST_PROTOCOL)


def play_fight(fight: str | bytes, fighter_ids: Sequence[str], index: int, seed: int,
               policy: Policy, max_rounds: int,
               make_engine: Callable[[Session], Engine] | None = None) -> FightResult:
    """Play fight ``index`` to its end on a fresh copy of the fight: ``fight`` is its JSON
    or :func:`fight_copies` of it (quicker than a deep copy either way). ``make_engine``
    (default: a lean engine) lets the benchmark and the tests play the same fight on a
    full one."""
    enc: Encounter = (Encounter.model_validate_json(fight) if isinstance(fight, str)
                      else pickle.loads(fight))
    ruleset = get_ruleset(enc.ruleset)
    own_seed = fight_seed(seed, index)
    enc.dice_seed = own_seed
    session = Session.model_construct(encounter=enc, start=enc, log=[], redo=[])
    engine = (make_engine or Engine.lean)(session)
    rng = random.Random(own_seed)
    stuck = True  # until the fight ends by the rules or at the round cap
    for _ in range(MAX_COMMANDS):
        if _winner(ruleset, enc) is not False or enc.round > max_rounds:
            stuck = False
            break
        done = False
        if policy == "random":
            options = ruleset.autopilot.legal_commands(enc)  # a refused pick changes nothing
            for _ in range(RANDOM_TRIES):
                command = _random_command(options, rng)
                if command is not None and engine.apply(command).ok:
                    done = True
                    break
        if not done:
            command = ruleset.autopilot.next_command(enc, rng)
            if command is None or not engine.apply(command).ok:
                break  # the rules offer nothing more: a draw
    ended = _winner(ruleset, enc)
    winner = None if ended is False else ended
    rounds = min(enc.round, max_rounds)
    down = tuple(fid not in enc.fighters or ruleset.rules.is_out(enc.fighters[fid])
                 for fid in fighter_ids)
    health = tuple(ruleset.views.card(enc, fid).health if fid in enc.fighters else 0
                   for fid in fighter_ids)
    return FightResult(index, winner, rounds, down, health, stuck and ended is False)


# --- the summary ---------------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval (95% by default) for a chance seen ``successes`` times in
    ``trials``: unlike the plain normal interval it stays inside 0..1 and is honest near
    0 and 1, where a walkover or a massacre lives."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


@dataclass
class FighterOdds:
    id: str
    name: str
    camp: Camp
    down: int = 0
    health_total: int = 0
    health_max: int = 0


@dataclass
class Simulation:
    """What a run of simulated fights found."""

    fights: int
    policy: Policy
    seed: int
    max_rounds: int
    fighter_ids: tuple[str, ...]
    wins: dict[Camp, int] = field(default_factory=lambda: {"party": 0, "enemies": 0})
    draws: int = 0
    stuck: int = 0
    rounds: list[int] = field(default_factory=list)
    # The rounds of the fights that ended (a side won): a draw at the round cap is not
    # a fight "over by" that round.
    ended_rounds: list[int] = field(default_factory=list)
    fighters: dict[str, FighterOdds] = field(default_factory=dict)

    @property
    def median_rounds(self) -> int | float:
        return _number(statistics.median(self.rounds)) if self.rounds else 0

    @property
    def p90_rounds(self) -> int:
        """The 90th percentile by nearest rank of the fights that ended: 9 in 10 of
        them were over by then (0 when none ended)."""
        if not self.ended_rounds:
            return 0
        ordered = sorted(self.ended_rounds)
        return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]

    def over_by(self) -> str:
        """How soon the fights that ended were over, in words (draws left out)."""
        if not self.ended_rounds:
            return f"no fight ended within the round cap of {self.max_rounds}"
        return (f"90% of the {len(self.ended_rounds)} fights that ended were over by round "
                f"{self.p90_rounds}")

    def chance(self, camp: Camp) -> Fraction:
        return Fraction(self.wins[camp], self.fights)

    def interval(self, camp: Camp) -> tuple[float, float]:
        return wilson(self.wins[camp], self.fights)

    def health(self, fid: str) -> float:
        return round(self.fighters[fid].health_total / self.fights, 2)

    def add(self, result: FightResult) -> None:
        if result.winner is None:
            self.draws += 1
        else:
            self.wins[result.winner] += 1
            self.ended_rounds.append(result.rounds)
        self.stuck += int(result.stuck)
        self.rounds.append(result.rounds)
        for fid, down, health in zip(self.fighter_ids, result.down, result.health,
                                     strict=True):
            odds = self.fighters[fid]
            odds.down += int(down)
            odds.health_total += health

    def as_json(self) -> dict[str, object]:
        return {
            "fights": self.fights,
            "wins": dict(self.wins),
            "draws": self.draws,
            "rounds": {"median": self.median_rounds, "p90": self.p90_rounds},
            "fighters": {fid: {"down": f"{o.down}/{self.fights}", "health": self.health(fid)}
                         for fid, o in self.fighters.items()},
        }

    def text(self) -> str:
        """The result as plain lines (the command line, and the dialog's Copy)."""
        lines = [f"{self.fights} fights, policy {self.policy}, seed {self.seed}, "
                 f"round cap {self.max_rounds}"]
        for camp, label in (("party", "Party wins"), ("enemies", "Enemies win")):
            low, high = self.interval(camp)  # type: ignore[arg-type]
            count = self.wins[camp]  # type: ignore[index]
            lines.append(f"{label}: {count / self.fights:.1%} ({count}/{self.fights}; "
                         f"95% interval {low:.1%} to {high:.1%})")
        lines.append(f"Draws: {self.draws / self.fights:.1%} ({self.draws}/{self.fights})")
        if self.stuck:
            lines.append(f"Of the draws, {self.stuck} stopped early: no command the rules "
                         f"accept, or {MAX_COMMANDS:,} commands without an end")
        lines.append(f"Rounds: median {self.median_rounds}; {self.over_by()}")
        for fid, o in self.fighters.items():
            lines.append(f"{o.name} ({o.camp}): down {o.down}/{self.fights} "
                         f"({o.down / self.fights:.1%}), health left {self.health(fid):.2f}"
                         f" of {o.health_max} on average")
        return "\n".join(lines)


def _empty(encounter: Encounter, ruleset: Ruleset, fights: int, policy: Policy, seed: int,
           max_rounds: int) -> Simulation:
    ids = tuple(fid for fid in encounter.order if fid in encounter.fighters)
    sim = Simulation(fights=fights, policy=policy, seed=seed, max_rounds=max_rounds,
                     fighter_ids=ids)
    for fid in ids:
        f = encounter.fighters[fid]
        sim.fighters[fid] = FighterOdds(fid, f.name, camp_of(f.side),
                                        health_max=ruleset.views.card(encounter, fid).health_max)
    return sim


# --- running many fights, on every core ------------------------------------------------------

_WORKER: dict[str, object] = {}


def _worker_start(copies: bytes, ids: tuple[str, ...], policy: Policy,
                  max_rounds: int, seed: int) -> None:
    _WORKER.update(fight=copies, ids=ids, policy=policy, max_rounds=max_rounds,
                   seed=seed)


def _worker_play(indices: range) -> list[FightResult]:
    w = _WORKER
    return [play_fight(w["fight"], w["ids"], i, w["seed"],  # type: ignore[arg-type]
                       w["policy"], w["max_rounds"])  # type: ignore[arg-type]
            for i in indices]


# How often a worker looks whether its run still wants it (seconds).
WATCH_SECONDS = 0.2


def _worker_begin(stop: Stopping, parent: int, copies: bytes, ids: tuple[str, ...],
                  policy: Policy, max_rounds: int, seed: int) -> None:
    """A worker process's start: it plays only while its run goes on (see
    :func:`_end_with_the_run`), then takes the fight and the run's settings."""
    _end_with_the_run(stop, parent)
    _worker_start(copies, ids, policy, max_rounds, seed)


def _end_with_the_run(stop: Stopping, parent: int) -> None:
    """Ctrl+C is the run's to handle, not each worker's (the terminal sends it to every
    process of the group: the run stops its workers itself); a SIGTERM ends the worker as
    usual (a fork copies the parent's handler). A watch thread ends the worker at once
    when the run stops it, or when its parent is gone (killed: nobody would read what it
    plays, and it would wait for its next batch forever)."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch, args=(stop, parent), name="simulate-watch",
                     daemon=True).start()


def _watch(stop: Stopping, parent: int) -> None:
    while not stop.wait(WATCH_SECONDS) and not _orphaned(parent):
        pass
    os._exit(0)


def _orphaned(parent: int) -> bool:
    """Whether the process that started this worker has ended. On POSIX an orphan is
    adopted, so its parent's id changes; Windows keeps the old id, so there the parent
    process's handle is asked."""
    if os.name == "nt":
        import multiprocessing

        process = multiprocessing.parent_process()
        return process is not None and not process.is_alive()
    return os.getppid() != parent


Progress = Callable[[int, int], None]


def simulate(fight: Session | Encounter, *, fights: int = DEFAULT_FIGHTS, seed: int = 0,
             policy: Policy = "autopilot", max_rounds: int = DEFAULT_MAX_ROUNDS,
             workers: int | None = None, progress: Progress | None = None,
             cancelled: Callable[[], bool] | None = None,
             start: StartMethod = "spawn") -> Simulation | None:
    """Play ``fights`` copies of the fight (a session's live encounter) from its current
    state and count who won; the fight is read once, as JSON, before the first
    (:func:`fight_copies`).
    ``workers`` processes (default: every core; 1 plays here, in this process), started
    by ``start`` (see :func:`quick_start`); ``progress(done, total)`` is called as fights
    finish, and ``cancelled()`` is asked as often: when it says True the run stops and
    None is returned."""
    if policy not in POLICIES:
        raise SimulationError(f"--policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    encounter = fight.encounter if isinstance(fight, Session) else fight
    ruleset = check_playable(encounter, max_rounds, fights)
    sim = _empty(encounter, ruleset, fights, policy, seed, max_rounds)
    results: list[FightResult] = []
    workers = max(1, min(workers or os.cpu_count() or 1, fights))
    copies = fight_copies(encounter)
    if workers == 1:
        for i in range(fights):
            if cancelled is not None and cancelled():
                return None
            results.append(play_fight(copies, sim.fighter_ids, i, seed, policy,
                                      max_rounds))
            if progress is not None:
                progress(i + 1, fights)
    else:
        got = _in_processes(copies, sim.fighter_ids, fights, seed, policy,
                            max_rounds, workers, progress, cancelled, start)
        if got is None:
            return None
        results = got
    for result in sorted(results, key=lambda r: r.number):
        sim.add(result)
    return sim


def quick_start() -> StartMethod:
    """The quickest safe way to start the worker processes of a process with no window:
    "fork" where the system has it (Linux), which copies this process with everything
    it has imported, so a worker plays its first fight at once (a "spawn" worker starts
    a new interpreter and imports the engine again: about 0.7 s of processor time each,
    measured); "spawn" elsewhere. The window keeps "spawn": a fork of a process with Qt's
    threads may inherit a lock one of them holds."""
    import multiprocessing
    import sys
    import threading

    if (sys.platform.startswith("linux") and threading.active_count() == 1
            and "fork" in multiprocessing.get_all_start_methods()):
        return "fork"
    return "spawn"


def batches(fights: int, workers: int) -> list[range]:
    """The fights cut into batches for the workers, in order: big batches first (fewer
    round trips), then smaller and smaller ones, so the workers finish together instead
    of one waiting on the other's last big batch; never above 20 fights, so the progress
    bar moves and Cancel is quick."""
    out: list[range] = []
    start = 0
    while start < fights:
        left = fights - start
        size = min(20, -(-left // (workers * 3)))  # left / (3 x workers), rounded up
        out.append(range(start, start + size))
        start += size
    return out


def _in_processes(copies: bytes, ids: tuple[str, ...], fights: int, seed: int, policy: Policy,
                  max_rounds: int, workers: int, progress: Progress | None,
                  cancelled: Callable[[], bool] | None,
                  start: StartMethod) -> list[FightResult] | None:
    import multiprocessing

    context = multiprocessing.get_context(start)
    stop = context.Event()
    results: list[FightResult] = []
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_begin,
                               initargs=(stop, os.getpid(), copies, ids, policy, max_rounds,
                                         seed))
    played = False
    # A few batches per worker handed out at a time, the next as one comes back: handing
    # out a million fights' batches at once would take seconds before the first check.
    todo = iter(batches(fights, workers))
    waiting: set[Future[list[FightResult]]] = set()

    def hand_out() -> None:
        while len(waiting) < workers * 3 and (indices := next(todo, None)) is not None:
            waiting.add(pool.submit(_worker_play, indices))

    try:
        hand_out()
        while waiting:
            finished, waiting = wait(waiting, timeout=0.1, return_when=FIRST_COMPLETED)
            for future in finished:
                results.extend(future.result())
            if finished and progress is not None:
                progress(len(results), fights)
            if cancelled is not None and cancelled():
                return None
            hand_out()
        played = True
    finally:
        if not played:
            # Cancelled, or an error: every worker ends now, in the middle of its batch,
            # rather than after every batch already handed out.
            stop.set()
        pool.shutdown(wait=True, cancel_futures=not played)
    return results
