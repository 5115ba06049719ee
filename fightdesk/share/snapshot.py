"""What the shared page may know, as JSON, built from the player view's data only.

The GM's thread builds a :class:`Snapshot` after every change (``snapshot``); the server
thread only reads it. Nothing here reads a fighter's sheet, the log, notes or a decision:
the fight is :func:`public_fight`, the waiting roll :func:`public_roll`, and the fighters
the players may claim are the visible ones among those the GM allowed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fightdesk.engine.player_view import (
    PublicCard,
    PublicFight,
    PublicRoll,
    party_dice,
    public_fight,
    public_roll,
)

if TYPE_CHECKING:
    from fightdesk.engine.model import Encounter
    from fightdesk.engine.ruleset import Ruleset


@dataclass(frozen=True)
class Snapshot:
    """One state of the fight as the shared pages show it.

    ``fight_json``: the public fight, encoded once for every page; ``claimable``: (id,
    name) of the fighters a player may claim; ``own``: each claimable fighter's own card
    as JSON; ``roll``: the waiting roll when a claimable fighter makes it."""

    fight_json: str
    claimable: tuple[tuple[str, str], ...] = ()
    own: dict[str, str] = field(default_factory=dict)
    roll: PublicRoll | None = None
    roll_json: str = "null"

    def may_claim(self, fighter_id: str) -> bool:
        return any(fid == fighter_id for fid, _ in self.claimable)

    def name_of(self, fighter_id: str) -> str:
        return next((name for fid, name in self.claimable if fid == fighter_id), "")


EMPTY = Snapshot(fight_json=json.dumps({"title": "", "headline": "No fight is shared yet",
                                        "columns": [], "current_column": None, "caption": "",
                                        "lanes": [], "cards": []}))


def snapshot(ruleset: Ruleset, enc: Encounter, allowed: Iterable[str]) -> Snapshot:
    """The fight as the pages show it; ``allowed``: the fighters the GM lets players claim
    (a hidden one is left out all the same)."""
    fight = public_fight(ruleset, enc)
    return snapshot_of(fight, public_roll(ruleset, enc), party_dice(ruleset, enc), allowed)


def snapshot_of(fight: PublicFight, roll: PublicRoll | None,
                dice: dict[str, tuple[str, ...]], allowed: Iterable[str]) -> Snapshot:
    """The snapshot of the player view's data (the only input, so nothing else can leak):
    a claimable fighter's own card adds its dice."""
    wanted = set(allowed)
    cards = {card.fighter_id: card for card in fight.cards}
    claimable = tuple((fid, card.name) for fid, card in cards.items() if fid in wanted)
    own = {fid: _dump(card_json(cards[fid], dice.get(fid, ()))) for fid, _ in claimable}
    if roll is not None and roll.fighter_id not in own:
        roll = None
    return Snapshot(fight_json=_dump(fight_json(fight)), claimable=claimable, own=own,
                    roll=roll, roll_json=_dump(roll_json(roll)) if roll else "null")


def fight_json(fight: PublicFight) -> dict[str, Any]:
    tl = fight.timeline
    return {
        "title": fight.title,
        "headline": fight.headline,
        "columns": list(tl.columns),
        "current_column": tl.current_column,
        "caption": tl.caption,
        "lanes": [{"title": lane.title, "out": lane.out,
                   "chips": [{"column": chip.column, "label": chip.label, "state": str(chip.state)}
                             for chip in lane.chips]}
                  for lane in tl.lanes],
        "cards": [card_json(card) for card in fight.cards],
    }


def card_json(card: PublicCard, dice: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"id": card.fighter_id, "name": card.name, "side": card.side,
            "health_text": card.health_text, "health_share": card.health_share,
            "conditions": list(card.conditions), "out": card.out, "acting": card.acting,
            "resources": list(card.resources), "dice": list(dice)}


def roll_json(roll: PublicRoll) -> dict[str, Any]:
    return {"id": roll.roll_id, "fighter": roll.fighter_id, "title": roll.title,
            "dice": roll.dice, "count": roll.number, "sides": roll.sides, "coins": roll.coins,
            "target": roll.target, "blocked": roll.blocked,
            "odds": [{"label": o.label, "exact": o.exact, "percent": o.percent}
                     for o in roll.odds]}


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
