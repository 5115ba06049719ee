"""The ashes commands: plain data the rules in ``rules.py`` apply."""

# No ``from __future__ import annotations``: pydantic reads these annotations at class time.

from typing import Literal

from pydantic import Field

from ...commands import Command

Resist = Literal["body", "mind", "none"]


class Challenge(Command):
    """Use an offensive skill on a target: a challenge (docs/rulesets/ashes.md#challenges).
    ``skill`` None: without the skill, at the unskilled penalty."""

    kind: Literal["ash-challenge"] = "ash-challenge"
    fighter_id: str
    target_id: str
    skill: str | None = None
    resisted_by: Resist | None = None
    # Levels pumped above the skill's rating (docs/rulesets/ashes.md#pumping).
    pump: int = Field(0, ge=0, le=20)
    # Add the auxiliary skills of this skill (each at its own cost).
    auxiliaries: bool = False


class DcChallenge(Command):
    """A challenge against a fixed difficulty built from parts (docs/rulesets/ashes.md#dc-challenges)."""

    kind: Literal["ash-dc"] = "ash-dc"
    fighter_id: str
    skill: str | None = None
    parts: list[tuple[str, int]] = Field(default_factory=list)
    pump: int = Field(0, ge=0, le=20)
    auxiliaries: bool = False
    # The one whose resist body is a part of the difficulty (the text's example: 1 + 1 +
    # Solo's resist body 3); the skill's damage, if any, is theirs.
    target_id: str | None = None


class Stance(Command):
    """The defensive stance: no offensive action, the next 3 defenses this round free."""

    kind: Literal["ash-stance"] = "ash-stance"
    fighter_id: str


class Move(Command):
    """Move ``metres``: the free metre, then 1 speed a metre up to burst; ``second``
    gives up the offensive action for a second move with its own free metre."""

    kind: Literal["ash-move"] = "ash-move"
    fighter_id: str
    metres: int = Field(1, ge=1, le=100)
    second: bool = False


class FreeAction(Command):
    """A free action (talking, drawing a weapon...): logged, costs nothing."""

    kind: Literal["ash-free"] = "ash-free"
    fighter_id: str
    what: str = Field("", max_length=200)


class StartCooperative(Command):
    """Start a cooperative action; it resolves when the last participant completes it."""

    kind: Literal["ash-coop-start"] = "ash-coop-start"
    fighter_id: str
    target_id: str
    skill: str | None = None


class JoinCooperative(Command):
    """Take part in the cooperative action under way; ``complete``: the last one, the
    challenge is made now."""

    kind: Literal["ash-coop-join"] = "ash-coop-join"
    fighter_id: str
    skill: str | None = None
    complete: bool = False


class SetInitiator(Command):
    """The GM marks a fighter who starts the fight (acts in the surprise round)."""

    kind: Literal["ash-initiator"] = "ash-initiator"
    fighter_id: str
    initiator: bool = True


class FlipWaiting(Command):
    """Flip the waiting challenge's coins (the stack dialog's Resolve): the app's flip,
    or the coins typed in ``dice``."""

    kind: Literal["ash-flip"] = "ash-flip"


class Damage(Command):
    """The GM deals damage (any kind, subdual too): it counts for the half-HP rule."""

    kind: Literal["ash-damage"] = "ash-damage"
    fighter_id: str
    amount: int = Field(1, ge=1, le=10000)
    subdual: bool = False


class Recover(Command):
    """Rest between fights (docs/rulesets/ashes.md#recovery): ``quarters`` of an hour, or
    ``days`` (everything back, 1 HP a day)."""

    kind: Literal["ash-recover"] = "ash-recover"
    fighter_id: str
    quarters: int = Field(0, ge=0, le=96)
    days: int = Field(0, ge=0, le=365)
