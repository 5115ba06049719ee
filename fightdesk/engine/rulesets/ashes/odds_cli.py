"""The ashes part of ``fightdesk odds``: a coin challenge at an advantage, with criticals
(docs/odds.md#ashes-challenge)."""

from __future__ import annotations

import argparse
from typing import Any

from ... import odds
from ...odds_text import fraction_text, int_in, json_flag, table_lines

MAX_ADVANTAGE = 50
_advantage = int_in(
    -MAX_ADVANTAGE, MAX_ADVANTAGE, f"an advantage is -{MAX_ADVANTAGE} to +{MAX_ADVANTAGE}"
)

# Lines of ``fightdesk odds --help``'s examples, after "fightdesk odds ".
EXAMPLES = (
    "ashes --advantage 2                       coin challenge at +2",
)


def add_parser(rulesets: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ashes = rulesets.add_parser(
        "ashes",
        help="a coin challenge at an advantage, with criticals",
        description="A From The Ashes challenge: advantage = attacking total - defending "
        "total (docs/odds.md#ashes-challenge).",
    )
    ashes.add_argument(
        "--advantage", type=_advantage, required=True, metavar="A", help="e.g. 2 or -3"
    )
    ashes.add_argument(
        "--no-automatic",
        action="store_true",
        help="flip the coins beyond +/-6 too (default: automatic success or failure)",
    )
    json_flag(ashes)


def answer(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    a = args.advantage
    got = odds.challenge_odds(a, automatic_beyond_six=not args.no_automatic)
    side = "attacker" if a >= 0 else "defender"
    if not args.no_automatic and abs(a) > odds.AUTOMATIC_BEYOND:
        how = f"beyond {'+' if a > 0 else '-'}6 the challenge is automatic"
    else:
        how = f"{5 + abs(a)} coins, the {side} wins with 3 or more"
    rows = [
        ("success", got.success),
        ("failure", got.failure),
        ("attacker's critical", got.attacker_critical),
        ("defender's critical", got.defender_critical),
    ]
    data = {
        "advantage": a,
        "success": fraction_text(got.success),
        "failure": fraction_text(got.failure),
        "attacker_critical": fraction_text(got.attacker_critical),
        "defender_critical": fraction_text(got.defender_critical),
    }
    head = f"Challenge at {a:+d}: {how}; criticals on {7 + abs(a)} coins"
    return data, [head, *table_lines(rows)]
