"""Base classes every ruleset's data builds on (no rules here, only shapes)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Side = Literal["pc", "ally", "enemy"]


class StateModel(BaseModel):
    """A piece of fight state: every write is validated, unknown keys are errors."""

    model_config = ConfigDict(validate_assignment=True, extra="forbid")


class Condition(StateModel):
    """A named condition on a fighter, optionally with a duration the GM can see."""

    name: str
    rounds_left: int | None = None
    note: str = ""


class Choice(StateModel):
    """One answer the GM can give to a pending decision."""

    id: str
    label: str


class Decision(StateModel):
    """What the engine is waiting for in the middle of resolving something.

    Answered by a command of kind ``answer`` naming the decision and the choice (or an
    amount between ``minimum`` and ``maximum`` for spends)."""

    id: str
    fighter_id: str | None = None
    prompt: str
    choices: list[Choice] = Field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None
    dice_needed: str = ""
