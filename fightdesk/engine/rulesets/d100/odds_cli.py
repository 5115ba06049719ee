"""The d100 part of ``fightdesk odds``: a strike against a defense or a counterstrike,
and the health a weapon takes off (docs/odds.md#d100-strike-and-defense)."""

from __future__ import annotations

import argparse
from typing import Any

from ... import odds
from ...odds_text import MAX_BONUS, Usage, bonus, fraction_text, int_in, json_flag, table_lines

_weapon_damage = int_in(0, MAX_BONUS, f"0 to {MAX_BONUS}")


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

# Lines of ``fightdesk odds --help``'s examples, after "fightdesk odds ".
EXAMPLES = (
    "d100 --strike 20 --defense 35             strike against parry/dodge",
    "d100 --strike 20 --counter 10             strike against a counterstrike",
    "d100 --strike 20 --defense 35 --damage 4 --toughness 1 --armour 25-75",
)


def add_parser(rulesets: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    d100 = rulesets.add_parser(
        "d100",
        help="a strike against a defense or a counterstrike",
        description="A d100 strike against a parry, dodge or entangle (--defense) or "
        "against a counterstrike (--counter), with all bonuses; a natural 01-10 "
        "strike fails (docs/odds.md#d100-strike-and-defense).",
    )
    d100.add_argument("--strike", type=bonus, default=0, metavar="B", help="strike bonus")
    against = d100.add_mutually_exclusive_group(required=True)
    against.add_argument("--defense", type=bonus, metavar="B", help="parry/dodge/entangle bonus")
    against.add_argument("--counter", type=bonus, metavar="B", help="counterstrike bonus")
    d100.add_argument("--damage", type=_weapon_damage, metavar="W",
                      help="the weapon's damage: adds the health the defender loses "
                      "(with --defense only)")
    d100.add_argument("--toughness", type=_weapon_damage, default=0, metavar="T",
                      help="the defender's Toughness (default 0)")
    d100.add_argument("--armour", type=_armour, metavar="LOW-HIGH",
                      help="the natural strike rolls the defender's armour stops, e.g. 25-75")
    json_flag(d100)


def answer(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    damage_asked = args.damage is not None
    if args.counter is not None and (damage_asked or args.armour or args.toughness):
        raise Usage("--damage, --toughness and --armour go with --defense, not --counter")
    if not damage_asked and (args.armour or args.toughness):
        raise Usage("--toughness and --armour need --damage W")
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
    text = [head, *table_lines(rows)]
    if damage_asked:
        lost = odds.d100_damage(args.strike, args.defense, args.damage,
                                toughness=args.toughness, armour=args.armour)
        data["damage"] = {str(k): fraction_text(p) for k, p in lost.items()}
        armour = f", armour {args.armour[0]}-{args.armour[1]}" if args.armour else ""
        text.append(f"Health lost to a weapon of damage {args.damage}, Toughness "
                    f"{args.toughness}{armour}:")
        text.extend(table_lines([(str(k), p) for k, p in lost.items()], header="damage"))
    return data, text
