"""Base classes every ruleset's data builds on (no rules here, only shapes)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Side = Literal["pc", "ally", "enemy"]
# How long a condition lasts, and the moment its rounds count down (engine/conditions.py).
ConditionDuration = Literal["rounds", "until-turn-end", "until-removed"]
ConditionTick = Literal["turn-start", "turn-end", "round-end"]


class StateModel(BaseModel):
    """A piece of fight state: every write is validated, unknown keys are errors."""

    model_config = ConfigDict(validate_assignment=True, extra="forbid")


class Condition(StateModel):
    """A named condition on a fighter, optionally with a duration the GM can see.

    The fields after ``note`` came later; their defaults read a file written before them
    as it was meant: a condition with rounds left counts them down, one without lasts
    until removed. ``engine/conditions.py`` adds, counts down and removes them, and checks
    that a duration has what it needs (here a check across fields would run on a GM's
    override of one field too, and pydantic leaves that field changed when it fails)."""

    name: str
    rounds_left: int | None = None
    note: str = ""
    duration: ConditionDuration = "until-removed"
    # For "until-turn-end": the fighter whose next turn's end ends it, and whether that
    # turn has begun (a turn already going when it was imposed is not its "next" turn).
    until_fighter: str | None = None
    turn_begun: bool = False
    # When "rounds" count down: the start or end of the bearer's turn, or the round's end.
    tick: ConditionTick = "round-end"
    imposed_by: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _rounds_from_older_files(cls, data: object) -> object:
        left = data.get("rounds_left") if isinstance(data, dict) else None
        if isinstance(data, dict) and "duration" not in data and isinstance(left, int) and left >= 1:
            return {**data, "duration": "rounds"}
        return data


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
