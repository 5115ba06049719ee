"""Dice: one seeded source per session, and a record for every roll.

The source is counter-based: draw number *n* of a session with seed *s* is always the
same face, and the counter is part of the encounter's state. So undo takes the counter
back with everything else, a saved session replays exactly, and a test pins the dice by
typing them in or by choosing the seed.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .changes import RuleViolation

RollSource = Literal["app", "typed"]


class Roll(BaseModel):
    """One roll as the log shows it: who rolled, what for, the dice, the faces, the outcome."""

    model_config = ConfigDict(extra="forbid")

    who: str = ""
    purpose: str = ""
    count: int
    sides: int
    faces: list[int]
    outcome: str = ""
    source: RollSource = "app"

    @property
    def notation(self) -> str:
        return f"{self.count}d{self.sides}"

    def describe(self) -> str:
        faces = ", ".join(str(f) for f in self.faces) or "no dice"
        by = "typed in" if self.source == "typed" else "rolled"
        head = f"{self.who}: " if self.who else ""
        what = f" for {self.purpose}" if self.purpose else ""
        tail = f" -> {self.outcome}" if self.outcome else ""
        return f"{head}{self.notation}{what} {by} [{faces}]{tail}"


class TypedDice(BaseModel):
    """Faces the GM typed in for the next rolls of a command (players' physical dice)."""

    model_config = ConfigDict(extra="forbid")

    rolls: list[list[int]] = Field(default_factory=list)


def face(seed: int, draw: int, sides: int) -> int:
    """Face of draw number ``draw`` of the session seeded ``seed``."""
    return random.Random(seed * 1_000_003 + draw).randint(1, sides)


class DiceTray:
    """Rolls for one command: typed-in faces first, in order, then the seeded source."""

    def __init__(self, seed: int, drawn: int, typed: list[list[int]] | None = None) -> None:
        self.seed = seed
        self.drawn = drawn
        self._typed = list(typed or [])
        self.rolls: list[Roll] = []

    def roll(self, count: int, sides: int, *, who: str = "", purpose: str = "") -> Roll:
        count = max(0, count)
        if self._typed:
            faces = self._typed.pop(0)
            if len(faces) != count:
                raise RuleViolation(
                    f"{purpose or 'roll'}: typed {len(faces)} dice, expected {count}d{sides}"
                )
            bad = [f for f in faces if not 1 <= f <= sides]
            if bad:
                raise RuleViolation(
                    f"{purpose or 'roll'}: face {bad[0]} is not on a d{sides} (1..{sides})"
                )
            source: RollSource = "typed"
        else:
            faces = [face(self.seed, self.drawn + i, sides) for i in range(count)]
            self.drawn += count
            source = "app"
        record = Roll(who=who, purpose=purpose, count=count, sides=sides, faces=faces, source=source)
        self.rolls.append(record)
        return record

    @property
    def unused_typed(self) -> int:
        return len(self._typed)
