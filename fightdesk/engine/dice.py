"""Dice: one seeded source per session, and a record for every roll.

The source is counter-based: draw number *n* of a session with seed *s* is always the
same face, and the counter is part of the encounter's state. So undo takes the counter
back with everything else, a saved session replays exactly, and a test pins the dice by
typing them in or by choosing the seed.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import ConfigDict
from pydantic.dataclasses import dataclass

from .changes import RuleViolation

RollSource = Literal["app", "typed"]


@dataclass(slots=True, kw_only=True, config=ConfigDict(extra="forbid"))
class Roll:
    """One roll as the log shows it: who rolled, what for, the dice, the faces, the outcome.

    A slotted dataclass, not a model, like the log entry that holds it: a model's
    per-object dict and set of given fields were a kilobyte a roll."""

    who: str = ""
    purpose: str = ""
    count: int
    sides: int
    faces: list[int]
    outcome: str = ""
    source: RollSource = "app"
    # Coins are two-sided dice whose faces read tails (1) and heads (2).
    coins: bool = False

    @property
    def notation(self) -> str:
        if self.coins:
            return f"{self.count} coin{'s' if self.count != 1 else ''}"
        return f"{self.count}d{self.sides}"

    @property
    def shown_faces(self) -> list[str]:
        """The faces as the table reads them: H and T for coins, 00 for a d100's 100."""
        if self.coins:
            return [COIN_FACES[f] for f in self.faces]
        if self.sides == 100:
            return ["00" if f == 100 else f"{f:02d}" for f in self.faces]
        return [str(f) for f in self.faces]

    def describe(self) -> str:
        sep = " " if self.coins else ", "
        faces = sep.join(self.shown_faces) or ("no coins" if self.coins else "no dice")
        verb = "flipped" if self.coins else "rolled"
        by = "typed in" if self.source == "typed" else verb
        head = f"{self.who}: " if self.who else ""
        what = f" for {self.purpose}" if self.purpose else ""
        tail = f" -> {self.outcome}" if self.outcome else ""
        return f"{head}{self.notation}{what} {by} [{faces}]{tail}"


# A coin's faces: 1 is tails, 2 is heads (so "heads" counts like a high face).
COIN_FACES = {1: "T", 2: "H"}


def face(seed: int, draw: int, sides: int) -> int:
    """Face of draw number ``draw`` of the session seeded ``seed``."""
    return random.Random(seed * 1_000_003 + draw).randint(1, sides)


class DiceTray:
    """Rolls for one command: typed-in faces first, in order, then the seeded source."""

    def __init__(self, seed: int, drawn: int, typed: list[list[int]] | None = None) -> None:
        self.seed = seed
        self.drawn = drawn
        self._typed = list(typed or [])
        # Faces typed as one list, with no ';' (a single typed roll): where each roll takes
        # one die they are one roll each. With ';' the GM split the rolls themselves.
        self._one_list = len(self._typed) == 1
        self.rolls: list[Roll] = []

    def roll(self, count: int, sides: int, *, who: str = "", purpose: str = "",
             coins: bool = False, typed: list[int] | None = None) -> Roll:
        """Roll ``count`` dice (or flip coins); an empty typed entry means the app rolls
        this one, so the GM can type one player's roll and let the app roll the others.
        ``typed``: faces given for this very roll (a player's roll typed in a question's
        row), checked like the command's typed faces; None takes the next of those."""
        count = max(0, count)
        if typed is None:
            typed = self._typed.pop(0) if self._typed else []
            if self._one_list and count == 1 and len(typed) > 1 and not coins:
                # One die a roll: faces typed with spaces are one roll each ("14 6" is the
                # attack's 14 then the damage's 6, as "14; 6" is); the rest wait their turn.
                typed, rest = typed[:1], typed[1:]
                self._typed.insert(0, rest)
        if typed:
            faces = typed
            if len(faces) != count:
                raise RuleViolation(
                    f"{purpose or 'roll'}: typed {len(faces)} dice, expected {count}d{sides}"
                )
            bad = [f for f in faces if not 1 <= f <= sides]
            if bad and coins:
                raise RuleViolation(f"{purpose or 'flip'}: type each coin as H or T")
            if bad:
                raise RuleViolation(
                    f"{purpose or 'roll'}: face {bad[0]} is not on a d{sides} (1..{sides})"
                )
            source: RollSource = "typed"
        else:
            faces = [face(self.seed, self.drawn + i, sides) for i in range(count)]
            self.drawn += count
            source = "app"
        record = Roll(who=who, purpose=purpose, count=count, sides=sides, faces=faces,
                      source=source, coins=coins)
        self.rolls.append(record)
        return record

    def flip(self, count: int, *, who: str = "", purpose: str = "") -> Roll:
        """Flip ``count`` coins (typed in as H and T, or flipped by the app)."""
        return self.roll(count, 2, who=who, purpose=purpose, coins=True)

    @property
    def typed_waiting(self) -> bool:
        """Whether the GM typed something (faces, or "-" for the app) for the next roll."""
        return bool(self._typed)

    @property
    def unused_typed(self) -> int:
        return sum(1 for typed in self._typed if typed)
