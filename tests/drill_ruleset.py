"""A small ruleset that exists only in the tests: "drill", built on the shared turn-order
base, to drive the shared kits through the engine and the real window.

It plays on a roll-under fight's data (hit points, Attack, Defense, Wisdom, assists):

- Round start asks one question with a field per PC: the player's Wisdom roll (d20), typed
  or left blank for the app to roll. PCs who roll at or under Wisdom act in the "Quick"
  section, everyone else in "Slow": two sections, reordered inside, never across.
- "Strike" (role act) on your turn opens a pending roll: d20 at or under Attack -
  (target's Defense - 10). Allies add assists (+1 each, paid from their assists), the
  target may brace once (role react: -2, one of its own assists). The roll is made typed
  or by the app, then a hit does 1d6 damage (a second roll, typed or not). A natural 1
  that hits leaves the target Dazed for 2 rounds.
- "Feint" (role act) flips two coins at a target: two heads cost it 1 HP.
- A turn may be held for a later fighter; the optional turn timer passes the turn.
"""

from __future__ import annotations

from fightdesk_drill.autopilot import DrillAutopilot
from fightdesk_drill.rules import DAZED, DrillRuleset, Feint, Strike
from fightdesk_drill.views import DrillViews

from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.engine.ruleset import Ruleset
from fightdesk.storage.library import new_fighter

__all__ = ["DAZED", "DrillEngine", "DrillRuleset", "DrillViews", "Feint", "Strike",
           "drill_engine", "drill_session"]


class DrillEngine(Engine):
    """An engine whose roll-under fight is played by the drill rules."""

    def __init__(self, session: Session, ruleset: DrillRuleset | None = None) -> None:
        super().__init__(session)
        rules = self.drill_rules = ruleset or DrillRuleset()
        views = DrillViews(rules)
        self.drill = Ruleset(rules, views, DrillAutopilot(rules, views))

    @property
    def ruleset(self) -> Ruleset:
        return self.drill


def drill_session(seed: int = 7) -> Session:
    """Kaede and Brannock (PCs) against two dock thugs, on roll-under sheets."""
    enc = new_encounter("roll-under", "Drill on the docks")
    enc.dice_seed = seed
    specs = [("kaede", "Kaede", "pc", dict(attack=14, defense=12, wisdom=13, assists=2, max_hp=10)),
             ("brannock", "Brannock", "pc", dict(attack=12, defense=13, wisdom=8, assists=3, max_hp=12)),
             ("thug-1", "Thug 1", "enemy", dict(attack=11, defense=11, wisdom=9, assists=1, max_hp=6)),
             ("thug-2", "Thug 2", "enemy", dict(attack=11, defense=11, wisdom=9, assists=0, max_hp=6))]
    for fid, name, side, sheet in specs:
        fighter = new_fighter("roll-under", name, fid)
        fighter = fighter.model_copy(update={
            "side": side, "sheet": fighter.sheet.model_copy(update=sheet),
            "status": fighter.status.model_copy(update={"hp": sheet["max_hp"],
                                                        "assists": sheet["assists"]})})
        enc.fighters[fid] = fighter
        enc.order.append(fid)
    return Session.begin(enc)


def drill_engine(seed: int = 7) -> DrillEngine:
    return DrillEngine(drill_session(seed))

