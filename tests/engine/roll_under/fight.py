"""A roll-under fight for the scenario tests: the text's Miguel (Attack 15) and Ana against
a Rent-A-Cop (Defense 12, Attack 12), an unusual Enforcer, and two mooks."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.storage.library import new_fighter

PEOPLE: list[tuple[str, str, str, dict[str, Any]]] = [
    ("miguel", "Miguel", "pc", dict(level=7, attack=15, defense=14, strength=13, dexterity=12,
                                     wisdom=12, max_hp=12, assists=3,
                                     weapons=[{"name": "Katana", "weapon_class": "medium-two-handed"}])),
    ("ana", "Ana", "pc", dict(level=6, attack=12, defense=13, strength=10, dexterity=14,
                              wisdom=14, max_hp=10, assists=2,
                              weapons=[{"name": "Pistol", "weapon_class": "light"}])),
    ("cop", "Rent-A-Cop", "enemy", dict(attack=12, defense=12, strength=11, dexterity=10,
                                        wisdom=9, max_hp=8, assists=1,
                                        weapons=[{"name": "Light pistol", "weapon_class": "light"}])),
    ("enforcer", "Enforcer", "enemy", dict(attack=14, defense=13, strength=15, dexterity=11,
                                           wisdom=10, max_hp=16, acts_out_of_order=True,
                                           turns_per_round=2, wisdom_penalty=2,
                                           weapons=[{"name": "Chainsaw", "weapon_class": "heavy"}])),
    ("mook", "Mook", "enemy", dict(attack=10, defense=10, max_hp=4)),
]


def fight(seed: int = 5, *, without: tuple[str, ...] = ()) -> Engine:
    enc = new_encounter("roll-under", "Parking garage")
    enc.dice_seed = seed
    engine = Engine(Session.begin(enc))
    for fid, name, side, sheet in PEOPLE:
        if fid in without:
            continue
        fighter = new_fighter("roll-under", name, fid).model_dump(mode="json")
        fighter["side"] = side
        fighter["sheet"].update(sheet)
        fighter["status"].update(hp=sheet["max_hp"], assists=sheet.get("assists", 0))
        count = 2 if fid == "mook" else 1
        out = engine.apply(c.AddFighters(fighter=fighter, count=count))
        assert out.ok, out.error
    return engine


def start(engine: Engine, **wisdom: int | None) -> None:
    """Start the fight and answer the initiative with the typed (or None: app) rolls."""
    from fightdesk.engine.ruleset import Ruleset

    ruleset: Ruleset = engine.ruleset
    enc = engine.encounter
    out = begin(engine) if enc.state.stage == "setup" else engine.apply(c.StartRound())
    assert out.ok, out.error
    pending = engine.pending()
    assert pending is not None and ruleset is engine.ruleset
    out = engine.apply(c.Answer(decision_id=pending.id, values=dict(wisdom), by="the players"))
    assert out.ok, out.error


def begin(engine: Engine) -> Any:
    """Start the fight and answer who attacks by surprise with the fighters' marks (the
    ambushers a test set before): the start as it was before the question."""
    out = engine.apply(c.StartFight())
    pending = engine.pending()
    if not out.ok or pending is None or pending.id != "surprise":
        return out
    return engine.apply(c.Answer(decision_id="surprise", values={}, by="the GM"))
