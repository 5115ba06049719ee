"""Helpers for the street-fighter tests: small fights with chosen sheets, and commands
that must succeed or must be refused."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.base import Decision
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, LogEntry, Session

BASE_SHEET: dict[str, Any] = {
    "strength": 2, "dexterity": 2, "stamina": 2, "charisma": 2, "manipulation": 2,
    "appearance": 2, "perception": 2, "intelligence": 2, "wits": 2, "arena": 0,
    "style_lore": 0, "insight": 0, "intimidation": 0, "subterfuge": 0, "punch": 2, "kick": 2,
    "block": 2, "grab": 2, "athletics": 2, "focus": 1, "health": 10, "chi": 3, "willpower": 5,
}


def fighter(fid: str, *, name: str | None = None, maneuvers: list[dict[str, Any]] | None = None,
            group: str | None = None, status: dict[str, Any] | None = None,
            **sheet: Any) -> dict[str, Any]:
    data = {"ruleset": "street-fighter", **BASE_SHEET, **sheet,
            "maneuvers": maneuvers or []}
    st = {"ruleset": "street-fighter", "health": data["health"], "chi": data["chi"],
          "willpower": data["willpower"], **(status or {})}
    return {"id": fid, "name": name or fid.title(), "side": "pc", "group": group,
            "sheet": data, "status": st}


def make_engine(*fighters: dict[str, Any], options: dict[str, Any] | None = None,
                groups: dict[str, str] | None = None, seed: int = 7) -> Engine:
    enc = Encounter.model_validate({
        "ruleset": "street-fighter",
        "options": {"ruleset": "street-fighter", **(options or {})},
        "fighters": {f["id"]: f for f in fighters},
        "order": [f["id"] for f in fighters],
        "groups": {g: {"id": g, "name": n} for g, n in (groups or {}).items()},
        "dice_seed": seed,
    })
    return Engine(Session.begin(enc))


def ok(engine: Engine, command: c.Command) -> LogEntry:
    out = engine.apply(command)
    assert out.ok, out.error
    assert out.entry is not None
    return out.entry


def refused(engine: Engine, command: c.Command) -> str:
    before = engine.encounter.model_dump(mode="json")
    out = engine.apply(command)
    assert not out.ok, f"expected a refusal, got: {out.text}"
    assert engine.encounter.model_dump(mode="json") == before
    return out.error or ""


def pending(engine: Engine) -> Decision:
    decision = engine.pending()
    assert decision is not None, "expected a pending decision"
    return decision


def answer(engine: Engine, *, choice: str | None = None, amount: int | None = None,
           dice: list[list[int]] | None = None, expect: str | None = None) -> LogEntry:
    """Answer the pending decision (checking its id contains ``expect``)."""
    decision = pending(engine)
    if expect is not None:
        assert expect in decision.id, f"pending is {decision.id}: {decision.prompt}"
    return ok(engine, c.Answer(decision_id=decision.id, choice=choice, amount=amount,
                               dice=dice or []))


def begin(engine: Engine, dice: list[list[int]], **opening: Any) -> None:
    """Start the fight and round 1, rolling the action dice as typed (in fighter order)."""
    ok(engine, c.StartFight())
    ok(engine, c.StartRound())
    ok(engine, c.NextStep(dice=dice))


def st(engine: Engine, fid: str) -> Any:
    return engine.encounter.fighters[fid].status


def faces(engine: Engine, fid: str, state: str = "ready") -> list[int]:
    return [d.face for d in st(engine, fid).dice if d.state == state]


def die_id(engine: Engine, fid: str, face: int, state: str = "ready") -> int:
    for d in st(engine, fid).dice:
        if d.face == face and d.state == state:
            return d.id
    raise AssertionError(f"{fid} has no {state} die {face}")


def texts(entry: LogEntry, kind: str | None = None) -> list[str]:
    return [e.text for e in entry.events if kind is None or e.kind == kind]


def same_as_rebuild(engine: Engine) -> bool:
    return engine.rebuild().model_dump(mode="json") == engine.encounter.model_dump(mode="json")


# Maneuvers the tests give a fighter of their own (a hold; a shout rolled against).
BEAR_HUG = {"name": "Bear Hug", "technique": "grab", "speed": -1, "damage": 2, "hold": True}
SHOUT = {"name": "Stunning Shout", "special": "stunning-shout", "technique": "focus",
         "speed": -1, "no_damage": True, "shout_pool": ["wits", "focus"]}
