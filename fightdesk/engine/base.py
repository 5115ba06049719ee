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
    """One answer the GM can give to a pending decision, with its exact chance of
    success when it leads to a roll (a fraction such as ``"3/4"``)."""

    id: str
    label: str
    chance: str | None = None


class DecisionField(StateModel):
    """One value a decision asks for, alongside the others (a player's typed roll, a
    number of points): ``optional`` fields may be left blank (the app rolls)."""

    name: str
    label: str
    kind: Literal["number", "choice", "text"] = "number"
    minimum: int = 0
    maximum: int = 0
    default: int | str | None = None
    optional: bool = False
    choices: list[Choice] = Field(default_factory=list)


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
    fields: list[DecisionField] = Field(default_factory=list)
    # Who is expected to answer ("Kaede's player", "the GM"), for the panel and the log.
    asks: str = ""
