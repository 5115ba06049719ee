"""``fightdesk new`` and ``fightdesk rulesets``: an empty fight of a ruleset, and the list
of rulesets this fightdesk knows.

    fightdesk new RULESET [-o FILE] [--name NAME]
    fightdesk rulesets

``new`` writes the fight to standard output, or to FILE, which it never overwrites. Bad
input prints one line on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .engine.rulesets import known_ids

    new = subparsers.add_parser(
        "new",
        help="write an empty fight of a ruleset (to standard output, or to -o FILE)",
        description="Write an empty fight of RULESET: its options, round state and "
        "built-in roll tables, no fighters. 'fightdesk check' accepts it and the window "
        "opens it. An existing FILE is never overwritten.",
    )
    new.add_argument("ruleset", metavar="RULESET",
                     help=f"the ruleset id: {', '.join(known_ids())} (see 'fightdesk rulesets')")
    new.add_argument("-o", "--output", metavar="FILE", type=Path,
                     help="write the fight here (a new file) instead of to standard output")
    new.add_argument("--name", default="New fight", help="the fight's name (default: New fight)")
    subparsers.add_parser(
        "rulesets",
        help="list the rulesets this fightdesk knows, with their titles",
        description="List the ruleset ids, each with its title and what it is.",
    )


def run(args: argparse.Namespace) -> int:
    if getattr(args, "ruleset", None) is None:
        return _list()
    return _new(args)


def _list() -> int:
    from .engine.rulesets import BROKEN, registered

    found = registered().values()
    width = max((len(info.id) for info in found), default=0)
    for info in found:
        print(f"{info.id:<{width}}  {info.title}: {info.blurb}")
    for _, line in BROKEN:
        print(line)
    return 0


def _new(args: argparse.Namespace) -> int:
    from .engine.rulesets import known_ids, missing_line

    if args.ruleset not in known_ids():
        _error(f"fightdesk new: {missing_line(args.ruleset)}")
        return 2
    name = " ".join(str(args.name).split())
    if not name:
        _error("fightdesk new: --name: the fight needs a name")
        return 2
    from .engine.model import Session, new_encounter
    from .storage.files import FileProblem
    from .storage.sessions import session_to_json

    text = session_to_json(Session.begin(new_encounter(args.ruleset, name)))
    out: Path | None = args.output
    if out is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(out, "x", encoding="utf-8") as handle:  # "x": never over an existing file
            handle.write(text)
    except FileExistsError:
        _error(f"fightdesk new: {out} already exists; it was left as it is "
               "(choose another name)")
        return 2
    except OSError as exc:
        from .storage.files import describe_os_error

        _error(str(FileProblem(out, f"could not write: {describe_os_error(exc)}")))
        return 2
    return 0


def _error(message: str) -> None:
    print(" ".join(message.splitlines()), file=sys.stderr)
