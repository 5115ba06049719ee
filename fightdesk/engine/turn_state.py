"""The round state every turn-order ruleset shares: where the fight is, the turn order,
the roll waiting for contributions, and the question the engine waits for.

A ruleset's own round state subclasses :class:`TurnRoundState` and sets its ``ruleset``
tag; fields it needs besides these are its own.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Decision, StateModel
from .pending_roll import PendingRoll
from .turns import TurnOrder

TurnStage = Literal["setup", "initiative", "turns", "round-over", "fight-over"]


class TurnRoundState(StateModel):
    """Round state of a turn-order ruleset."""

    stage: TurnStage = "setup"
    turns: TurnOrder = Field(default_factory=TurnOrder)
    roll: PendingRoll | None = None
    next_roll_id: int = 1
    pending: Decision | None = None


class TurnTimerOption(StateModel):
    """The optional per-turn timer, off by default (0 seconds)."""

    turn_timer_seconds: int = Field(
        0, ge=0, le=3600,
        description="Seconds each turn may last before the timer runs out (0: no timer)")
