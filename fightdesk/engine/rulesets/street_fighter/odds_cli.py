"""The street-fighter part of ``fightdesk odds``: a pool of d10 against a target number,
and the damage left after EP dodges (docs/rulesets/street-fighter.md#successes-and-ones)."""

from __future__ import annotations

import argparse
from typing import Any

from ... import odds
from ...odds_text import fraction_text, int_in, json_flag, percent_text, table_lines

MAX_DICE = 200
_dice = int_in(0, MAX_DICE, f"a pool has 0 to {MAX_DICE} dice")
_tn = int_in(2, 10, "a target number is 2 to 10")
_dodges = int_in(0, 50, "0 to 50 dodges")

# Lines of ``fightdesk odds --help``'s examples, after "fightdesk odds ".
EXAMPLES = (
    "street-fighter --dice 5 --tn 6            successes of 5 d10 at TN 6",
    "street-fighter --dice 4 --tn 7 --ones-cancel --json",
    "street-fighter --dice 3 --dodges 2        damage left after 2 EP dodges",
)


def add_parser(rulesets: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sf = rulesets.add_parser(
        "street-fighter",
        help="a pool of d10 against a target number; damage after EP dodges",
        description="Net successes of a pool of d10 against a target number "
        "(docs/rulesets/street-fighter.md#successes-and-ones). With --dodges the pool "
        "is read as a damage roll and the result is the damage left after that many "
        "2-dice EP dodges.",
    )
    sf.add_argument("--dice", type=_dice, required=True, metavar="N", help="dice in the pool")
    sf.add_argument("--tn", type=_tn, default=6, metavar="T", help="target number (default 6)")
    sf.add_argument(
        "--ones-cancel", action="store_true", help="each 1 cancels one success (default: off)"
    )
    sf.add_argument(
        "--dodges", type=_dodges, default=0, metavar="K", help="EP dodges after a damage roll"
    )
    sf.add_argument(
        "--dodge-tn", type=_tn, default=6, metavar="T", help="dodge target number (default 6)"
    )
    sf.add_argument(
        "--dodge-ones-ignored",
        action="store_true",
        help="1s do not cancel dodge successes (default: they cancel)",
    )
    json_flag(sf)


def answer(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    dist = odds.pool_successes(args.dice, args.tn, ones_cancel=args.ones_cancel)
    ones = "1s cancel successes" if args.ones_cancel else "1s do not cancel"
    head = f"{args.dice} d10 at TN {args.tn}, {ones}"
    noun, least = "successes", "at least one success"
    if args.dodges:
        dodge_ones = not args.dodge_ones_ignored
        dist = odds.damage_after_dodges(dist, args.dodges, tn=args.dodge_tn, ones_cancel=dodge_ones)
        head = (
            f"Damage: {head}; then {args.dodges} EP dodge{'s' if args.dodges > 1 else ''} "
            f"of 2 d10 at TN {args.dodge_tn}, "
            f"{'1s cancel' if dodge_ones else '1s do not cancel'}"
        )
        noun, least = "damage", "at least one point of damage"
    at_least_one = odds.at_least(dist, 1)
    data = {
        "distribution": {str(k): fraction_text(p) for k, p in sorted(dist.items())},
        "at_least_one": fraction_text(at_least_one),
    }
    rows = [(str(k), p) for k, p in sorted(dist.items())]
    text = [head, *table_lines(rows, header=noun)]
    text.append(f"{least}: {fraction_text(at_least_one)} ({percent_text(at_least_one)})")
    return data, text
