"""``fightdesk odds``: the exact chance of a roll before it is made, for the GM's terminal.

``fightdesk/cli.py`` calls :func:`add_parser` to register the sub-command and :func:`run`
to answer it. Each ruleset whose registration says so brings its own sub-command (its
``odds_cli`` module: ``EXAMPLES``, ``add_parser``, ``answer``). Bad arguments print one
line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from types import ModuleType

from .engine.odds_text import Usage, fraction_text, percent_text

__all__ = ["add_parser", "fraction_text", "parts", "percent_text", "run"]


def parts() -> dict[str, ModuleType]:
    """Each ruleset's odds part, by ruleset id, in the registry's order."""
    from .engine.rulesets import registered

    return {rid: importlib.import_module(info.odds_module)
            for rid, info in registered().items() if info.odds}


def _examples(found: dict[str, ModuleType]) -> str:
    lines = [f"  fightdesk odds {line}" for part in found.values() for line in part.EXAMPLES]
    last = next(reversed(found), "RULESET")
    return ("examples:\n" + "\n".join(lines) + "\n\n"
            '--json prints reduced fractions as strings ("3/4", "1", "0").\n'
            f"Each ruleset has its own --help, e.g. fightdesk odds {last} --help.\n")


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``odds`` with one sub-command per ruleset."""
    found = parts()
    parser = subparsers.add_parser(
        "odds",
        help="exact odds of a roll before it is made",
        description="Exact odds (fractions, not simulation) of a roll, for any ruleset.",
        epilog=_examples(found),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rulesets = parser.add_subparsers(
        dest="ruleset", metavar="RULESET", required=True, title="rulesets"
    )
    for part in found.values():
        part.add_parser(rulesets)


def run(args: argparse.Namespace) -> int:
    """Print the odds the arguments ask for; 0 on success."""
    found = parts()
    part = found.get(getattr(args, "ruleset", None) or "")
    if part is None:  # only reachable when called without the parser
        known = ", ".join(found)
        print(f"fightdesk odds: unknown ruleset {args.ruleset!r} (known: {known})", file=sys.stderr)
        return 2
    try:
        data, text = part.answer(args)
    except Usage as usage:
        print(f"fightdesk odds {args.ruleset}: {usage}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(data))
    else:
        print("\n".join(text))
    return 0
