"""Builds ``resources/demo_fight.json``: a street-fighter duel between two original
fighters and one group of dock-thug weenies, with real sheets from the catalogue.

Run ``python -m fightdesk.engine.rulesets.street_fighter.demo`` after changing the model
or the catalogue, so the bundled demo stays valid.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ...model import Encounter, Session
from .catalogue import CATALOGUE, load_catalogue
from .model import Maneuver

DEMO_PATH = Path(__file__).resolve().parents[4] / "resources" / "demo_fight.json"
BASICS = ("Jab", "Strong", "Fierce", "Short", "Forward", "Roundhouse", "Block", "Movement")


def _maneuvers(names: tuple[str, ...]) -> list[dict[str, Any]]:
    by_name: dict[str, Maneuver] = {m.name: m for m in load_catalogue(CATALOGUE)}
    return [by_name[n].model_dump(mode="json") for n in names]


def _fighter(fid: str, name: str, side: str, sheet: dict[str, Any], maneuvers: tuple[str, ...],
             *, group: str | None = None, notes: str = "") -> dict[str, Any]:
    sheet = {"ruleset": "street-fighter", **sheet, "maneuvers": _maneuvers(maneuvers)}
    return {
        "id": fid, "name": name, "side": side, "group": group, "tags": [], "notes": notes,
        "rolls_own_dice": side == "pc",
        "sheet": sheet,
        "status": {"ruleset": "street-fighter", "health": sheet["health"], "chi": sheet["chi"],
                   "willpower": sheet["willpower"]},
    }


def demo_session() -> dict[str, Any]:
    """The demo as plain JSON data, validated through the real models."""
    kaede = _fighter(
        "kaede", "Kaede Moriyama", "pc",
        {"strength": 3, "dexterity": 4, "stamina": 3, "charisma": 2, "manipulation": 2,
         "appearance": 3, "perception": 3, "intelligence": 3, "wits": 4, "arena": 2,
         "style_lore": 2, "insight": 2, "intimidation": 1, "subterfuge": 1, "punch": 3,
         "kick": 4, "block": 3, "grab": 1, "athletics": 3, "focus": 2, "health": 10, "chi": 3,
         "willpower": 6},
        (*BASICS, "Foot Sweep", "Kick Defense", "Kippup", "Flame Fist"),
        notes="Quick kicker from the harbour dojo; stands up fast.")
    brannock = _fighter(
        "brannock", "Brannock Vale", "enemy",
        {"strength": 4, "dexterity": 3, "stamina": 4, "charisma": 3, "manipulation": 2,
         "appearance": 2, "perception": 2, "intelligence": 2, "wits": 3, "arena": 1,
         "style_lore": 1, "insight": 1, "intimidation": 3, "subterfuge": 2, "punch": 4,
         "kick": 2, "block": 2, "grab": 3, "athletics": 2, "focus": 1, "health": 12, "chi": 1,
         "willpower": 5},
        (*BASICS, "Bear Hug", "Throw", "Stunning Shout", "Toughskin"),
        notes="Dock boss; grapples and roars.")
    thug_sheet = {"strength": 2, "dexterity": 2, "stamina": 2, "charisma": 2, "manipulation": 2,
                  "appearance": 2, "perception": 2, "intelligence": 1, "wits": 2, "arena": 0,
                  "style_lore": 0, "insight": 0, "intimidation": 0, "subterfuge": 0, "punch": 1,
                  "kick": 1, "block": 1, "grab": 1, "athletics": 1, "focus": 0, "health": 4,
                  "chi": 0, "willpower": 2, "weenie": True}
    thugs = [
        _fighter(f"dock-thug-{n}", f"Dock Thug {n}", "enemy", thug_sheet,
                 ("Jab", "Strong", "Short", "Block", "Movement"), group="dock-thug")
        for n in (1, 2, 3)
    ]
    fighters = {f["id"]: f for f in (kaede, brannock, *thugs)}
    encounter = Encounter.model_validate({
        "ruleset": "street-fighter",
        "name": "Rooftop duel at the harbour",
        "fighters": fighters,
        "order": list(fighters),
        "groups": {"dock-thug": {"id": "dock-thug", "name": "Dock Thug"}},
        "dice_seed": 20261129,
    })
    session = Session.begin(encounter)
    data: dict[str, Any] = session.model_dump(mode="json")
    return data


def write_demo(path: Path = DEMO_PATH) -> Path:
    path.write_text(json.dumps(demo_session(), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else DEMO_PATH
    print(f"wrote {write_demo(target)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
