"""``fightdesk simulate``: who wins? Play a saved fight thousands of times by the rules.

    fightdesk simulate SESSION [--fights N] [--seed S] [--policy autopilot|random]
                               [--max-rounds R] [--json]

The fight is played from its current state (before round 1, or mid-fight) and never
changed. Bad input prints one line on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from .engine.odds_text import whole_number

EXAMPLES = """\
examples:
  fightdesk simulate fight.json                          1000 fights, the autopilot
  fightdesk simulate fight.json --fights 500 --seed 7 --json
  fightdesk simulate fight.json --policy random --max-rounds 10
"""



def _count(what: str, low: int, high: int) -> Callable[[str], int]:
    return whole_number(low, high, f"{what} must be {low} to {high}, not {{value}}")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play a fight many times by the rules and show who wins, how often",
        description="Play copies of the fight in SESSION from its current state, by the "
        "same rules the table uses, and report each camp's chance to win (with a 95% "
        "Wilson interval), draws, how many rounds a fight lasts, and each fighter's chance "
        "of going down and health left. The file is only read. The same --seed gives the "
        "same result on any number of cores.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("session", metavar="SESSION", type=Path, help="the session file (.json)")
    parser.add_argument("--fights", "-n", type=_count("--fights", 1, 1_000_000), default=1000,
                        metavar="N", help="how many fights to play (default 1000)")
    parser.add_argument("--seed", "-s", type=_count("--seed", 0, 2**63 - 1), default=0,
                        metavar="S", help="the run's seed (default 0)")
    parser.add_argument("--policy", choices=("autopilot", "random"), default="autopilot",
                        help="who picks the commands: the ruleset's autopilot (a plain "
                        "table, the default) or random (any legal command)")
    parser.add_argument("--max-rounds", type=_count("--max-rounds", 1, 1000), default=20,
                        metavar="R", help="a fight still going after round R is a draw "
                        "(default 20)")
    parser.add_argument("--workers", type=_count("--workers", 1, 256), default=None,
                        metavar="P", help="processes to play on (default: every core)")
    parser.add_argument("--json", action="store_true",
                        help="print the result as one JSON object")


def run(args: argparse.Namespace) -> int:
    from .engine.simulate import SimulationError, quick_start, simulate
    from .storage.files import FileProblem
    from .storage.sessions import load_session

    path: Path = args.session
    stop = _StopSigns()
    done = [0]

    def count(played: int, _total: int) -> None:
        done[0] = played

    try:
        session = load_session(path)
        with stop.caught():
            result = simulate(session, fights=args.fights, seed=args.seed, policy=args.policy,
                              max_rounds=args.max_rounds, workers=args.workers,
                              progress=count, cancelled=stop.asked,
                              start=quick_start())  # no window here: fork where it can
    except FileProblem as problem:
        return _fail(str(problem))
    except SimulationError as problem:
        return _fail(f"{path}: {problem}")
    if result is None:
        name, number = stop.got or ("a stop", 1)
        print(f"fightdesk simulate: stopped by {name} after {done[0]} of {args.fights} "
              "fights; no result", file=sys.stderr)
        return 128 + number
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        print(result.text())
    return 0


class _StopSigns:
    """Ctrl+C (SIGINT) and SIGTERM stop the run between two checks (a tenth of a second
    apart) instead of raising wherever the run happens to be: the run then ends its
    worker processes itself, and says which signal stopped it."""

    def __init__(self) -> None:
        self.got: tuple[str, int] | None = None

    def asked(self) -> bool:
        return self.got is not None

    @contextlib.contextmanager
    def caught(self) -> Iterator[None]:
        names = {signal.SIGINT: "Ctrl+C (SIGINT)", signal.SIGTERM: "SIGTERM"}

        def note(number: int, _frame: object) -> None:
            if self.got is None:
                self.got = (names.get(signal.Signals(number), str(number)), number)

        before = {number: signal.signal(number, note) for number in names}
        try:
            yield
        finally:
            for number, handler in before.items():
                signal.signal(number, handler)


def _fail(message: str) -> int:
    print("fightdesk simulate: " + " ".join(message.splitlines()), file=sys.stderr)
    return 2
