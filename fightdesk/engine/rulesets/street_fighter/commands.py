"""The street-fighter commands (plain data; the rules are in the other modules).

The generic round commands (StartFight, StartRound, NextStep, EndRound, EndFight,
Answer) come from ``fightdesk.engine.commands``; these are the fighter's own actions.
"""

# No ``from __future__ import annotations`` here: pydantic would then evaluate every field
# annotation from its string when the class is made, a third of this module's import time.

from typing import Any, Literal

from pydantic import Field

from ...commands import Command
from .model import Action, ConcentrationKind, Maneuver


class Act(Command):
    """Spend a die to act: on the fighter's turn with the die showing the phase, or with
    the held die. Opens the interrupt stack with this move at the bottom."""

    kind: Literal["sf-act"] = "sf-act"
    fighter_id: str
    action: Action = "maneuver"
    maneuver: str = ""
    target_id: str | None = None
    die_id: int | None = None
    ep_speed: int = Field(0, ge=0, le=20)
    # EP damage dice decided up front; None: asked after soak, when the move resolves.
    ep_damage: int | None = Field(None, ge=0, le=20)
    concentration: ConcentrationKind | None = None
    tn: int | None = Field(None, ge=2, le=10)


class Interrupt(Act):
    """Spend any unspent die to interrupt a pending move (by default the latest)."""

    kind: Literal["sf-interrupt"] = "sf-interrupt"  # type: ignore[assignment]
    interrupts: int | None = None


class ResolveNext(Command):
    """Resolve the next move of the stack (or all of them, stopping at decisions)."""

    kind: Literal["sf-resolve"] = "sf-resolve"
    all: bool = False


class CancelInterrupts(Command):
    """Before anything resolved: take back the declared interrupts, their dice and EP."""

    kind: Literal["sf-cancel-interrupts"] = "sf-cancel-interrupts"


class HoldDie(Command):
    kind: Literal["sf-hold"] = "sf-hold"
    fighter_id: str


class ConvertDie(Command):
    """Turn an unspent die showing at most Perception into 1 EP (any time)."""

    kind: Literal["sf-convert"] = "sf-convert"
    fighter_id: str
    die_id: int | None = None


class PassDie(Command):
    """The fighter whose turn it is does not use the die showing the phase."""

    kind: Literal["sf-pass"] = "sf-pass"
    fighter_id: str


class WillpowerForEp(Command):
    kind: Literal["sf-willpower-ep"] = "sf-willpower-ep"
    fighter_id: str


class BuyDice(Command):
    kind: Literal["sf-buy-dice"] = "sf-buy-dice"
    fighter_id: str
    count: int = Field(1, ge=1, le=10)


class RollActionDice(Command):
    """Roll (or type in) one fighter's action dice before the others."""

    kind: Literal["sf-roll-dice"] = "sf-roll-dice"
    fighter_id: str


class Concentrate(Command):
    """At fight start: rolled at once. During a round: spends a die, rolled at round end."""

    kind: Literal["sf-concentrate"] = "sf-concentrate"
    fighter_id: str
    concentration: ConcentrationKind
    tn: int | None = Field(None, ge=2, le=10)
    die_id: int | None = None


class Intimidate(Command):
    kind: Literal["sf-intimidate"] = "sf-intimidate"
    fighter_id: str
    target_id: str
    die_id: int | None = None


class Deceive(Command):
    kind: Literal["sf-deceive"] = "sf-deceive"
    fighter_id: str
    target_id: str
    die_id: int | None = None


class StartRecovery(Command):
    kind: Literal["sf-recover"] = "sf-recover"
    fighter_id: str
    pool: Literal["chi", "willpower"]


class StopRecovery(Command):
    """End recovery now and roll at once with the TN for the time spent."""

    kind: Literal["sf-stop-recovery"] = "sf-stop-recovery"
    fighter_id: str


class ActivateEffect(Command):
    """Switch on Flame Fist or Toughskin (any time; lasts Focus attacks)."""

    kind: Literal["sf-activate"] = "sf-activate"
    fighter_id: str
    maneuver: str


class DropEffect(Command):
    """Drop a lasting effect, a block, or release a sustained hold ("hold")."""

    kind: Literal["sf-drop-effect"] = "sf-drop-effect"
    fighter_id: str
    name: str


class SetManeuver(Command):
    """GM: give a fighter a maneuver, or change one. The new maneuver is ``maneuver``, or
    the catalogue entry named ``catalogue``, or the fighter's maneuver ``replaces``; then
    ``update`` changes single fields (speed, damage, flags...)."""

    kind: Literal["sf-set-maneuver"] = "sf-set-maneuver"
    fighter_id: str
    maneuver: Maneuver | None = None
    catalogue: str | None = None
    replaces: str | None = None
    update: dict[str, Any] = Field(default_factory=dict)


class RemoveManeuver(Command):
    kind: Literal["sf-remove-maneuver"] = "sf-remove-maneuver"
    fighter_id: str
    name: str
