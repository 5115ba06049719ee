"""Dice notation for the dice bar: ``3d10``, ``1d100+20``, ``5d10>=6``, ``2d6+1d4-1``.

Our own small parser: ``>=T`` counts successes (the Storyteller way) instead of summing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .changes import RuleViolation

_TERM = re.compile(r"([+-]?)(\d*)d(\d+)|([+-]?)(\d+)")
# Terms are joined by + or -: "2d6 3" is not 2d63. One sign between terms also keeps the
# match linear (a run of digits cannot be split into terms in exponentially many ways).
_ONE = r"(?:\d*\s*d\s*\d+|\d+)"
_WHOLE = re.compile(
    rf"^\s*([+-]?\s*{_ONE}(?:\s*[+-]\s*{_ONE})*)\s*(?:>=\s*(\d+))?\s*$", re.IGNORECASE
)

MAX_DICE = 200
MAX_SIDES = 1000


@dataclass(frozen=True)
class DiceTerm:
    sign: int
    count: int
    sides: int  # 0 for a constant


@dataclass(frozen=True)
class DiceExpression:
    terms: tuple[DiceTerm, ...]
    target: int | None = None

    @property
    def counts_successes(self) -> bool:
        return self.target is not None


def parse(text: str) -> DiceExpression:
    """Parse dice notation; a bad expression raises RuleViolation naming the problem."""
    match = _WHOLE.match(text.lower())
    if not match:
        raise RuleViolation(
            f"{text.strip() or '(empty)'!r} is not dice notation: try 3d10, 1d100+20 or 5d10>=6"
        )
    body = re.sub(r"\s+", "", match.group(1))
    target = int(match.group(2)) if match.group(2) else None
    terms: list[DiceTerm] = []
    for term in _TERM.finditer(body):
        if term.group(3):
            sign = -1 if term.group(1) == "-" else 1
            count = int(term.group(2) or 1)
            sides = int(term.group(3))
            if not 1 <= count <= MAX_DICE:
                raise RuleViolation(f"{count} dice: roll between 1 and {MAX_DICE} dice at once")
            if not 2 <= sides <= MAX_SIDES:
                raise RuleViolation(f"d{sides}: dice have 2 to {MAX_SIDES} sides")
            terms.append(DiceTerm(sign, count, sides))
        else:
            sign = -1 if term.group(4) == "-" else 1
            terms.append(DiceTerm(sign, int(term.group(5)), 0))
    if not any(t.sides for t in terms):
        raise RuleViolation(f"{text.strip()!r} has no dice in it")
    if target is not None and (len(terms) != 1 or terms[0].sign < 0):
        raise RuleViolation("counting successes (>=) takes one kind of dice, like 5d10>=6")
    return DiceExpression(tuple(terms), target)
