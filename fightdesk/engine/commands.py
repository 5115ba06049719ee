"""Commands: everything the GM (or a CLI, or a test) asks the engine to do.

A command is plain data. ``Engine.apply`` is the only path from a command to a state
change; each ruleset handles the commands it defines.
"""

# No ``from __future__ import annotations`` here: pydantic would then evaluate every field
# annotation from its string when the class is made, a third of this module's import time.

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field


class Command(BaseModel):
    """Base of all commands. ``dice`` holds faces the GM typed in for this command's rolls,
    in the order the rules roll them; rolls beyond them come from the session's source."""

    # Built on first use: a fight is shown without any command, and start-up would
    # otherwise build every command's validator before the first paint of the fight.
    model_config = ConfigDict(extra="forbid", defer_build=True)

    kind: str
    dice: list[list[int]] = Field(default_factory=list)
    # Core commands are handled by the engine itself, the rest by the encounter's ruleset.
    core: ClassVar[bool] = False


# --- core commands (any ruleset) -------------------------------------------------


class SetValue(Command):
    """GM override: set any tracked value of a fighter, e.g. ``status.health``."""

    kind: Literal["set-value"] = "set-value"
    core: ClassVar[bool] = True
    fighter_id: str
    field: str
    value: Any


class SetOption(Command):
    """The GM changes one of the fight's ruleset options (RULINGS.md: "Option" always
    means a per-fight ruleset option the GM can change)."""

    kind: Literal["set-option"] = "set-option"
    core: ClassVar[bool] = True
    option: str
    value: Any


class SetOrder(Command):
    """GM override: the order fighters are listed and, where the ruleset says, act."""

    kind: Literal["set-order"] = "set-order"
    core: ClassVar[bool] = True
    order: list[str]


class AddFighters(Command):
    """Add a fighter, or ``count`` numbered copies as one group ("Thug 1".."Thug 5")."""

    kind: Literal["add-fighters"] = "add-fighters"
    core: ClassVar[bool] = True
    fighter: dict[str, Any]
    count: int = Field(1, ge=1, le=100)


class RemoveFighter(Command):
    kind: Literal["remove-fighter"] = "remove-fighter"
    core: ClassVar[bool] = True
    fighter_id: str


class FreeRoll(Command):
    """A roll from the dice bar (``3d10``, ``1d100+20``, ``5d10>=6``)."""

    kind: Literal["free-roll"] = "free-roll"
    core: ClassVar[bool] = True
    notation: str
    who: str = ""


class Note(Command):
    """A line the GM writes into the log."""

    kind: Literal["note"] = "note"
    core: ClassVar[bool] = True
    text: str = Field(min_length=1)


class SetTable(Command):
    """Add a roll table to this fight, or replace the one with its id (engine/tables.py)."""

    kind: Literal["set-table"] = "set-table"
    core: ClassVar[bool] = True
    table: dict[str, Any]


class RemoveTable(Command):
    kind: Literal["remove-table"] = "remove-table"
    core: ClassVar[bool] = True
    table_id: str


class RollOnTable(Command):
    """Roll a table's die (typed-in faces first) and log the row it lands on."""

    kind: Literal["roll-on-table"] = "roll-on-table"
    core: ClassVar[bool] = True
    table_id: str
    who: str = ""


# --- round structure (every ruleset handles these) ----------------------------------


class StartFight(Command):
    kind: Literal["start-fight"] = "start-fight"


class StartRound(Command):
    kind: Literal["start-round"] = "start-round"


class NextStep(Command):
    """Next phase (street-fighter) or next turn (turn-order rulesets)."""

    kind: Literal["next-step"] = "next-step"


class EndRound(Command):
    kind: Literal["end-round"] = "end-round"


class EndFight(Command):
    kind: Literal["end-fight"] = "end-fight"


class Answer(Command):
    """The answer to the decision the engine is waiting for."""

    kind: Literal["answer"] = "answer"
    decision_id: str
    choice: str | None = None
    amount: int | None = None
