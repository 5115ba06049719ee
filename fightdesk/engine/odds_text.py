"""What a ruleset's part of ``fightdesk odds`` uses (its ``odds_cli`` module): argument
types whose bad values are one clear line, and odds as text (exact fraction and percent).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from fractions import Fraction

MAX_BONUS = 1000


class Usage(Exception):
    """Arguments that parse but do not fit together: one line, exit 2."""


def whole_number(low: int, high: int, complaint: str) -> Callable[[str], int]:
    """An argument type for a whole number from ``low`` to ``high``; out of range, the
    error is ``complaint`` with ``{value}`` filled in."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(complaint.format(value=value))
        return value

    return parse


def int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    return whole_number(low, high, f"{{value}} is out of range: {what}")


bonus = int_in(-MAX_BONUS, MAX_BONUS, f"a bonus is -{MAX_BONUS} to +{MAX_BONUS}")


def json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON with exact fractions")


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


def table_lines(rows: Sequence[tuple[str, Fraction]], header: str = "") -> list[str]:
    """Aligned lines: label, exact fraction, percentage; with a header line if given."""
    width = max(len(label) for label, _ in [(header, 0), *rows])
    frac_width = max(len("chance"), *(len(fraction_text(p)) for _, p in rows))
    lines = [f"{header:<{width}}  {'chance':>{frac_width}}  {'%':>6}"] if header else []
    lines.extend(
        f"{label:<{width}}  {fraction_text(p):>{frac_width}}  {percent_text(p):>6}"
        for label, p in rows
    )
    return lines


