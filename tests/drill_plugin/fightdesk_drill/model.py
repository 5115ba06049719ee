"""The drill's data: sheet, status, options and round state (tests/drill_ruleset.py
describes the rules that read them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from fightdesk.engine.base import Condition, StateModel
from fightdesk.engine.turn_state import TurnRoundState


class DrillSheet(StateModel):
    ruleset: Literal["drill"] = "drill"
    attack: int = Field(10, ge=0, le=30)
    defense: int = Field(10, ge=0, le=30)
    wisdom: int = Field(10, ge=0, le=30)
    max_hp: int = Field(10, ge=1, le=100)
    assists: int = Field(1, ge=0, le=30)
    acts_out_of_order: bool = False


class DrillStatus(StateModel):
    ruleset: Literal["drill"] = "drill"
    hp: int = Field(10, ge=0)
    assists: int = Field(0, ge=0)
    conditions: list[Condition] = Field(default_factory=list)


class DrillOptions(StateModel):
    ruleset: Literal["drill"] = "drill"


class DrillRound(TurnRoundState):
    ruleset: Literal["drill"] = "drill"


SHEET = DrillSheet
STATUS = DrillStatus
OPTIONS = DrillOptions
ROUND = DrillRound
