"""Commands: everything the GM (or a CLI, or a test) asks the engine to do.

A command is plain data. ``Engine.apply`` is the only path from a command to a state
change; each ruleset handles the commands it defines.
"""

# No ``from __future__ import annotations`` here: pydantic would then evaluate every field
# annotation from its string when the class is made, a third of this module's import time.

from typing import Annotated, Any, ClassVar, Literal

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
    """The GM sets any tracked value of a fighter, e.g. ``status.health``: the one command
    for a value typed by hand (the card's health, the fighter editor). The fight's ruleset
    then applies what the change triggers, as after the same change made by a rule (a
    health loss counts as damage). ``override``: the value is written and nothing else
    happens, and the log says so (docs/rulesets/README.md#gm-changes)."""

    kind: Literal["set-value"] = "set-value"
    core: ClassVar[bool] = True
    fighter_id: str
    field: str
    value: Any
    override: bool = False


class SetOption(Command):
    """The GM changes one of the fight's ruleset options: per-fight settings for what a
    rule text leaves to the table (docs/rulesets/README.md#options)."""

    kind: Literal["set-option"] = "set-option"
    core: ClassVar[bool] = True
    option: str
    value: Any


class Edits(Command):
    """Several GM edits made at once (the fighter editor's or the options dialog's
    changed fields): applied in one transaction, all or none, as one undo step. Each
    edit keeps its own log entry; a refusal names the field and nothing is changed."""

    kind: Literal["edits"] = "edits"
    core: ClassVar[bool] = True
    edits: list[Annotated[SetValue | SetOption, Field(discriminator="kind")]] = Field(min_length=1)


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


class RenameFight(Command):
    """The GM names the fight ("Dockside ambush"): the title, the summary and the file's
    suggested name follow."""

    kind: Literal["rename-fight"] = "rename-fight"
    core: ClassVar[bool] = True
    name: str = Field(min_length=1, max_length=200)


class AddCondition(Command):
    """The GM puts a condition on a fighter (engine/conditions.py): for ``rounds`` rounds,
    until the end of ``until_fighter``'s next turn, or until removed. ``tick``: when its
    rounds count down (None: where the ruleset says)."""

    kind: Literal["add-condition"] = "add-condition"
    core: ClassVar[bool] = True
    fighter_id: str
    name: str = Field(min_length=1, max_length=60)
    duration: Literal["rounds", "until-turn-end", "until-removed"] = "until-removed"
    rounds: int | None = Field(None, ge=1, le=100)
    until_fighter: str | None = None
    tick: Literal["turn-start", "turn-end", "round-end"] | None = None
    note: str = Field("", max_length=500)
    imposed_by: str | None = None


class RemoveCondition(Command):
    """The GM takes a condition off a fighter: ``index`` is its place in the list."""

    kind: Literal["remove-condition"] = "remove-condition"
    core: ClassVar[bool] = True
    fighter_id: str
    index: int = Field(ge=0)
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


class HideFighter(Command):
    """Hide a fighter from the players (the player view leaves them out), or reveal them."""

    kind: Literal["hide-fighter"] = "hide-fighter"
    core: ClassVar[bool] = True
    fighter_id: str
    hidden: bool = True


class SetEnemyHealth(Command):
    """How the player view shows the enemies' health this fight."""

    kind: Literal["set-enemy-health"] = "set-enemy-health"
    core: ClassVar[bool] = True
    show: Literal["exact", "bar", "word", "hidden"]


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
    """The answer to the decision the engine is waiting for: a choice, an amount, or the
    values of the decision's fields; ``by`` says who answered (a player, the GM)."""

    kind: Literal["answer"] = "answer"
    decision_id: str
    choice: str | None = None
    amount: int | None = None
    values: dict[str, Any] = Field(default_factory=dict)
    by: str = ""


# --- turn order (the rulesets whose rounds are turns; engine/turns.py) ------------------


class MoveTurn(Command):
    """The GM drags a turn to another place in the round; the ruleset says if it may go."""

    kind: Literal["move-turn"] = "move-turn"
    slot_id: str
    section: str
    index: int = Field(ge=0)


class HoldTurn(Command):
    """Hold the current turn (or ``slot_id``) to act right after ``after``'s turn."""

    kind: Literal["hold-turn"] = "hold-turn"
    after: str
    slot_id: str | None = None


class TurnTimeout(Command):
    """The turn timer ran out on turn number ``turn_number``; the ruleset says what follows."""

    kind: Literal["turn-timeout"] = "turn-timeout"
    turn_number: int


# --- a pending roll (engine/pending_roll.py) ------------------------------------------


class Contribute(Command):
    """Add to a roll that is waiting: an assist, a defensive skill, dodge speed..."""

    kind: Literal["contribute"] = "contribute"
    roll_id: int
    fighter_id: str | None = None
    contribution: str
    amount: int = 0


class Withdraw(Command):
    """Take a contribution back from a roll that is waiting (its cost is refunded)."""

    kind: Literal["withdraw"] = "withdraw"
    roll_id: int
    contribution_id: int


class MakeRoll(Command):
    """Make the waiting roll: the faces typed in ``dice`` (a player's roll), or the app's.
    ``roll_id`` None: whichever roll is waiting (the stack dialog's Resolve)."""

    kind: Literal["make-roll"] = "make-roll"
    roll_id: int | None = None
    # The fighter whose player typed ``dice`` on their own device (a shared page): the
    # log says so. "": the GM typed them, or the app rolls.
    typed_by: str = Field("", max_length=200, repr=False)
