"""``fightdesk odds``: the exact chance of a roll before it is made, for the GM's terminal.

``fightdesk/cli.py`` calls :func:`add_parser` to register the sub-command and :func:`run`
to answer it. Bad arguments print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from .cli import whole_number
from .engine import odds

RULESETS = ("street-fighter", "d100", "roll-under", "ashes")
MAX_DICE = 200
MAX_BONUS = 1000
MAX_ADVANTAGE = 50

EXAMPLES = """\
examples:
  fightdesk odds street-fighter --dice 5 --tn 6            successes of 5 d10 at TN 6
  fightdesk odds street-fighter --dice 4 --tn 7 --ones-cancel --json
  fightdesk odds street-fighter --dice 3 --dodges 2        damage left after 2 EP dodges
  fightdesk odds d100 --strike 20 --defense 35             strike against parry/dodge
  fightdesk odds d100 --strike 20 --counter 10             strike against a counterstrike
  fightdesk odds d100 --strike 20 --defense 35 --damage 4 --toughness 1 --armour 25-75
  fightdesk odds roll-under --target 13                    d20 at or under 13
  fightdesk odds ashes --advantage 2                       coin challenge at +2

--json prints reduced fractions as strings ("3/4", "1", "0").
Each ruleset has its own --help, e.g. fightdesk odds ashes --help.
"""


# --- argument types: each bad value becomes one clear line -----------------------------------


def _int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    return whole_number(low, high, f"{{value}} is out of range: {what}")


_dice = _int_in(0, MAX_DICE, f"a pool has 0 to {MAX_DICE} dice")
_tn = _int_in(2, 10, "a target number is 2 to 10")
_dodges = _int_in(0, 50, "0 to 50 dodges")
_bonus = _int_in(-MAX_BONUS, MAX_BONUS, f"a bonus is -{MAX_BONUS} to +{MAX_BONUS}")
_target = _int_in(-MAX_BONUS, MAX_BONUS, f"a target is -{MAX_BONUS} to {MAX_BONUS}")
_score = _int_in(0, 100, "a score is 0 to 100")
_weapon_damage = _int_in(0, MAX_BONUS, f"0 to {MAX_BONUS}")


def _armour(text: str) -> tuple[int, int]:
    """``LOW-HIGH``: natural d100 rolls 1..100, low at most high."""
    low_text, dash, high_text = text.partition("-")
    try:
        low, high = int(low_text), int(high_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range like 25-75") from None
    if not dash or not 1 <= low <= high <= 100:
        raise argparse.ArgumentTypeError(f"{text!r} is not a range of natural rolls 1-100, "
                                         "low first")
    return low, high
_advantage = _int_in(
    -MAX_ADVANTAGE, MAX_ADVANTAGE, f"an advantage is -{MAX_ADVANTAGE} to +{MAX_ADVANTAGE}"
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``odds`` with one sub-command per ruleset."""
    parser = subparsers.add_parser(
        "odds",
        help="exact odds of a roll before it is made",
        description="Exact odds (fractions, not simulation) of a roll, for any ruleset.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rulesets = parser.add_subparsers(
        dest="ruleset", metavar="RULESET", required=True, title="rulesets"
    )

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
    _json_flag(sf)

    d100 = rulesets.add_parser(
        "d100",
        help="a strike against a defense or a counterstrike",
        description="A d100 strike against a parry, dodge or entangle (--defense) or "
        "against a counterstrike (--counter), with all bonuses; a natural 01-10 "
        "strike fails (docs/odds.md#d100-strike-and-defense).",
    )
    d100.add_argument("--strike", type=_bonus, default=0, metavar="B", help="strike bonus")
    against = d100.add_mutually_exclusive_group(required=True)
    against.add_argument("--defense", type=_bonus, metavar="B", help="parry/dodge/entangle bonus")
    against.add_argument("--counter", type=_bonus, metavar="B", help="counterstrike bonus")
    d100.add_argument("--damage", type=_weapon_damage, metavar="W",
                      help="the weapon's damage: adds the health the defender loses "
                      "(with --defense only)")
    d100.add_argument("--toughness", type=_weapon_damage, default=0, metavar="T",
                      help="the defender's Toughness (default 0)")
    d100.add_argument("--armour", type=_armour, metavar="LOW-HIGH",
                      help="the natural strike rolls the defender's armour stops, e.g. 25-75")
    _json_flag(d100)

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
    _json_flag(under)

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
    _json_flag(ashes)


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON with exact fractions")


# --- answering ---------------------------------------------------------------------------------


def fraction_text(p: Fraction) -> str:
    """A reduced fraction; certainties are "1" and "0"."""
    return str(Fraction(p))


def percent_text(p: Fraction) -> str:
    """A percentage for the GM that never rounds a possible result to 0% or 100%."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def _lines(rows: Sequence[tuple[str, Fraction]], header: str = "") -> list[str]:
    """Aligned lines: label, exact fraction, percentage; with a header line if given."""
    width = max(len(label) for label, _ in [(header, 0), *rows])
    frac_width = max(len("chance"), *(len(fraction_text(p)) for _, p in rows))
    lines = [f"{header:<{width}}  {'chance':>{frac_width}}  {'%':>6}"] if header else []
    lines.extend(
        f"{label:<{width}}  {fraction_text(p):>{frac_width}}  {percent_text(p):>6}"
        for label, p in rows
    )
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the odds the arguments ask for; 0 on success."""
    handlers: dict[str, Callable[[argparse.Namespace], tuple[dict[str, Any], list[str]]]] = {
        "street-fighter": _street_fighter,
        "d100": _d100,
        "roll-under": _roll_under,
        "ashes": _ashes,
    }
    handler = handlers.get(getattr(args, "ruleset", None) or "")
    if handler is None:  # only reachable when called without the parser
        known = ", ".join(RULESETS)
        print(f"fightdesk odds: unknown ruleset {args.ruleset!r} (known: {known})", file=sys.stderr)
        return 2
    try:
        data, text = handler(args)
    except _Usage as usage:
        print(f"fightdesk odds {args.ruleset}: {usage}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(data))
    else:
        print("\n".join(text))
    return 0


def _street_fighter(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
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
    text = [head, *_lines(rows, header=noun)]
    text.append(f"{least}: {fraction_text(at_least_one)} ({percent_text(at_least_one)})")
    return data, text


def _d100(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    damage_asked = args.damage is not None
    if args.counter is not None and (damage_asked or args.armour or args.toughness):
        raise _Usage("--damage, --toughness and --armour go with --defense, not --counter")
    if not damage_asked and (args.armour or args.toughness):
        raise _Usage("--toughness and --armour need --damage W")
    if args.counter is not None:
        got = odds.d100_counterstrike(args.strike, args.counter)
        rows = [
            ("only the attack hits", got.only_attack),
            ("both hit", got.both),
            ("only the counter hits", got.only_counter),
            ("neither hits", got.neither),
        ]
        data: dict[str, Any] = {
            "only_attack": fraction_text(got.only_attack),
            "both": fraction_text(got.both),
            "only_counter": fraction_text(got.only_counter),
            "neither": fraction_text(got.neither),
        }
        head = f"d100 strike {args.strike:+d} against a counterstrike {args.counter:+d}"
    else:
        strike = odds.d100_strike_odds(args.strike, args.defense)
        rows = [
            ("the strike hits", strike.hit),
            ("the defense beats it", strike.defended),
            ("natural 01-10, fails", strike.fumbled),
        ]
        data = {
            "hit": fraction_text(strike.hit),
            "defended": fraction_text(strike.defended),
            "fumbled": fraction_text(strike.fumbled),
        }
        head = f"d100 strike {args.strike:+d} against a defense {args.defense:+d}"
    text = [head, *_lines(rows)]
    if damage_asked:
        lost = odds.d100_damage(args.strike, args.defense, args.damage,
                                toughness=args.toughness, armour=args.armour)
        data["damage"] = {str(k): fraction_text(p) for k, p in lost.items()}
        armour = f", armour {args.armour[0]}-{args.armour[1]}" if args.armour else ""
        text.append(f"Health lost to a weapon of damage {args.damage}, Toughness "
                    f"{args.toughness}{armour}:")
        text.extend(_lines([(str(k), p) for k, p in lost.items()], header="damage"))
    return data, text


def _roll_under(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    scores = (args.attack is not None, args.defense is not None)
    if args.target is not None and any(scores):
        raise _Usage("give --target, or --attack and --defense, not both")
    if args.target is None and not all(scores):
        raise _Usage("give --target T, or both --attack A and --defense D")
    if args.defense_roll and args.target is not None:
        raise _Usage("--defense-roll goes with --attack and --defense")
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


class _Usage(Exception):
    """Arguments that parse but do not fit together: one line, exit 2."""


def _ashes(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
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
    return data, [head, *_lines(rows)]
