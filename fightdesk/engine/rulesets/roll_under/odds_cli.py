"""The roll-under part of ``fightdesk odds``: a d20 at or under a target
(docs/rulesets/roll-under.md#attack)."""

from __future__ import annotations

import argparse
from typing import Any

from ... import odds
from ...odds_text import MAX_BONUS, Usage, fraction_text, int_in, json_flag, percent_text

_target = int_in(-MAX_BONUS, MAX_BONUS, f"a target is -{MAX_BONUS} to {MAX_BONUS}")
_score = int_in(0, 100, "a score is 0 to 100")

# Lines of ``fightdesk odds --help``'s examples, after "fightdesk odds ".
EXAMPLES = (
    "roll-under --target 13                    d20 at or under 13",
)


def add_parser(rulesets: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    under = rulesets.add_parser(
        "roll-under",
        help="a d20 at or under a target",
        description="Chance a d20 shows the target or less (no automatic 1 or 20). "
        "Give the target (--target), or the attacker's Attack and the defender's "
        "Defense (--attack, --defense): the target is Attack - (Defense - 10), or "
        "with --defense-roll the defender's Defense - (Attack - 10) "
        "(docs/rulesets/roll-under.md#attack).",
    )
    under.add_argument("--target", type=_target, metavar="T", help="the target")
    under.add_argument("--attack", type=_score, metavar="A", help="the attacker's Attack")
    under.add_argument("--defense", type=_score, metavar="D", help="the defender's Defense")
    under.add_argument("--defense-roll", action="store_true",
                       help="the defender's Defense roll (an enemy attacking a PC)")
    json_flag(under)


def answer(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    scores = (args.attack is not None, args.defense is not None)
    if args.target is not None and any(scores):
        raise Usage("give --target, or --attack and --defense, not both")
    if args.target is None and not all(scores):
        raise Usage("give --target T, or both --attack A and --defense D")
    if args.defense_roll and args.target is not None:
        raise Usage("--defense-roll goes with --attack and --defense")
    head = "d20 at or under"
    target = args.target
    if target is None:
        if args.defense_roll:
            target = args.defense - (args.attack - 10)
            head = f"Defense {args.defense} against Attack {args.attack}: d20 at or under"
        else:
            target = args.attack - (args.defense - 10)
            head = f"Attack {args.attack} against Defense {args.defense}: d20 at or under"
    chance = odds.d20_at_or_under(target)
    data = {"target": target, "chance": fraction_text(chance)}
    return data, [f"{head} {target}: {fraction_text(chance)} ({percent_text(chance)})"]
