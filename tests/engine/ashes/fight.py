"""An ashes fight for the scenario tests: the text's Han Solo and Darth Vader, with a
Jedi ally who parries and a stormtrooper; coins typed in, so each test pins them."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.storage.library import new_fighter

PEOPLE: list[tuple[str, str, str, dict[str, Any]]] = [
    ("han", "Han", "pc", dict(
        max_hp=20, initiative=4, speed=6, burst=3, resist_body=3, resist_mind=1,
        skills=[{"name": "Blaster", "rating": 5, "damage": 6, "attacks": 2},
                {"name": "Dodge roll", "kind": "defensive", "rating": 1},
                {"name": "Bowcaster", "rating": 7, "damage": 10, "rounds": 2}])),
    ("ben", "Ben", "pc", dict(
        max_hp=18, initiative=3, speed=6, burst=4, resist_body=2, resist_mind=4, force=20,
        skills=[{"name": "Mind trick", "rating": 5, "resisted_by": "mind", "cost": 2},
                {"name": "Lightsaber", "rating": 4, "damage": 5},
                {"name": "Parry", "kind": "defensive", "rating": 2, "counter_challenge": True},
                {"name": "Deflect", "kind": "defensive", "rating": 1}])),
    ("vader", "Vader", "enemy", dict(
        max_hp=40, initiative=2, speed=8, burst=4, resist_body=4, resist_mind=5, force=30,
        skills=[{"name": "Basic TK", "rating": 3, "cost": 3, "pumpable": True},
                {"name": "Personal TK", "rating": 3, "cost": 3, "auxiliary_to": "Basic TK"},
                {"name": "Saber strike", "rating": 6, "damage": 8},
                {"name": "Absorb power", "kind": "defensive", "rating": 2},
                {"name": "Saber parry", "kind": "defensive", "rating": 3,
                 "counter_challenge": True}])),
    ("trooper", "Trooper", "enemy", dict(
        max_hp=10, initiative=1, speed=4, burst=2, resist_body=1,
        skills=[{"name": "Rifle", "rating": 2, "damage": 4}])),
]


def fight(*, without: tuple[str, ...] = (), seed: int = 3, **changes: dict[str, Any]) -> Engine:
    enc = new_encounter("ashes", "Cloud City")
    enc.dice_seed = seed
    engine = Engine(Session.begin(enc))
    for fid, name, side, sheet in PEOPLE:
        if fid in without:
            continue
        fighter = new_fighter("ashes", name, fid).model_dump(mode="json")
        fighter["side"] = side
        fighter["sheet"].update({**sheet, **changes.get(fid, {})})
        fighter["status"].update(hp=fighter["sheet"]["max_hp"], speed=fighter["sheet"]["speed"],
                                 force=fighter["sheet"].get("force", 0),
                                 physical=dict(fighter["sheet"]["physical"]))
        out = engine.apply(c.AddFighters(fighter=fighter))
        assert out.ok, out.error
    return engine


def coins(text: str) -> list[int]:
    """'HHT T' -> the faces of those coins (heads 2, tails 1), spaces ignored."""
    return [2 if ch == "H" else 1 for ch in text.upper() if ch in "HT"]


def flip(engine: Engine, text: str) -> Any:
    """Make the waiting challenge with these coins; return the outcome."""
    roll = engine.encounter.state.roll
    assert roll is not None
    out = engine.apply(c.MakeRoll(roll_id=roll.id, dice=[coins(text)]))
    assert out.ok, out.error
    return out


def flip_all(engine: Engine, face: str) -> Any:
    """Make the waiting challenge with every coin on ``face`` ("H" or "T")."""
    roll = engine.encounter.state.roll
    assert roll is not None
    return flip(engine, face * (7 + abs(roll.total)))


def go_to(engine: Engine, fid: str) -> None:
    from fightdesk.engine.turns import current_fighter

    for _ in range(12):
        if current_fighter(engine.encounter.state.turns) == fid:
            return
        assert engine.apply(c.NextStep()).ok
    raise AssertionError(f"{fid} never got a turn")
