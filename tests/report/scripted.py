"""A two-round street-fighter fight written out by hand, as the rules would log it.

The entries carry the shared event kinds (act, interrupt, resolve, damage, heal, points-gain,
points-spend, condition-on/off, down, round-start/end) and real recorded changes made through
a Transaction, mixed with core commands applied through the engine (free roll, note, GM
override). The expected summary figures in the tests are worked out from this script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.base import Condition
from fightdesk.engine.changes import Transaction
from fightdesk.engine.dice import Roll
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Event, LogEntry, Session
from fightdesk.engine.ruleset import get_ruleset

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"

KAEDE, BRANNOCK = "kaede", "brannock"
THUG1, THUG2, THUG3 = "dock-thug-1", "dock-thug-2", "dock-thug-3"


def ev(kind: str, text: str, fighter: str | None = None, roll: Roll | None = None,
       **data: Any) -> Event:
    return Event(kind=kind, text=text, fighter_id=fighter, roll=roll, data=data)


def dice(who: str, purpose: str, faces: list[int], outcome: str, typed: bool) -> Roll:
    return Roll(who=who, purpose=purpose, count=len(faces), sides=10, faces=faces,
                outcome=outcome, source="typed" if typed else "app")


def status(fid: str) -> tuple[str, ...]:
    return ("fighters", fid, "status")


class Script:
    """Appends hand-made log entries whose changes really apply to the live encounter."""

    def __init__(self) -> None:
        session = Session.model_validate_json(DEMO.read_text())
        session = Session.begin(session.start)
        self.engine = Engine(session)

    @property
    def session(self) -> Session:
        return self.engine.session

    def entry(self, summary: str, *events: Event, sets: tuple[tuple[Any, ...], ...] = (),
              appends: tuple[tuple[Any, ...], ...] = (), deletes: tuple[tuple[Any, ...], ...] = (),
              joins: bool = False) -> LogEntry:
        enc = self.session.encounter
        tx = Transaction(enc)
        for path, key, value in sets:
            tx.set(path, key, value)
        for path, value in appends:
            tx.append(path, value)
        for path, key in deletes:
            tx.delete(path, key)
        log = self.session.log
        seq = log[-1].seq + 1 if log else 0
        entry = LogEntry(
            seq=seq, step=log[-1].step if joins and log else seq, round=enc.round,
            where=get_ruleset(enc.ruleset).views.where(enc), command={"kind": "scripted"},
            summary=summary,
            events=list(events), changes=tx.changes,
        )
        log.append(entry)
        return entry

    def apply(self, command: c.Command) -> None:
        out = self.engine.apply(command)
        assert out.ok, out.error


def two_round_fight() -> Session:
    """Rounds 1 and 2 of the demo fight; see the module docstring."""
    s = Script()
    # --- round 1 -------------------------------------------------------------------
    s.entry(
        "Round 1 begins",
        ev("round-start", "Round 1 begins"),
        ev("points-gain", "Kaede Moriyama gains 3 EP (Intelligence)", KAEDE, pool="EP", amount=3, why="Intelligence"),
        ev("points-gain", "Brannock Vale gains 2 EP (Intelligence)", BRANNOCK, pool="EP", amount=2, why="Intelligence"),
        sets=(((), "round", 1), (("state",), "stage", "phases"), (("state",), "phase", 10),
              (status(KAEDE), "ep", 3), (status(BRANNOCK), "ep", 2)),
    )
    s.entry("Phase 9", ev("step", "Phase 9"), sets=((("state",), "phase", 9),))
    s.entry(
        "Kaede Moriyama acts: Jab at Brannock Vale",
        ev("act", "Kaede Moriyama acts: Jab at Brannock Vale", KAEDE,
           maneuver="Jab", die=9, speed=11),
    )
    s.entry(
        "Brannock Vale interrupts with Short",
        ev("interrupt", "Brannock Vale interrupts with Short (speed 12)", BRANNOCK,
           maneuver="Short", die=9, speed=12, ep=1),
        ev("points-spend", "Brannock Vale spends 1 EP on speed", BRANNOCK, pool="EP", amount=1, why="speed"),
        sets=((status(BRANNOCK), "ep", 1),), joins=True,
    )
    r1 = dice("Brannock Vale", "Short damage", [7, 3, 9, 1], "2 successes", typed=True)
    s.entry(
        "Brannock Vale's Short hits Kaede Moriyama for 2",
        ev("resolve", "Brannock Vale's Short resolves", BRANNOCK),
        ev("roll", r1.describe(), BRANNOCK, roll=r1),
        ev("damage", "Kaede Moriyama takes 2 damage", BRANNOCK, target=KAEDE, amount=2),
        sets=((status(KAEDE), "health", 8),), joins=True,
    )
    r2 = dice("Kaede Moriyama", "Jab damage", [6, 2, 4], "1 success", typed=False)
    s.entry(
        "Kaede Moriyama's Jab hits Brannock Vale for 1",
        ev("resolve", "Kaede Moriyama's Jab resolves", KAEDE),
        ev("roll", r2.describe(), KAEDE, roll=r2),
        ev("damage", "Brannock Vale takes 1 damage", KAEDE, target=BRANNOCK, amount=1),
        sets=((status(BRANNOCK), "health", 11),), joins=True,
    )
    s.apply(c.FreeRoll(notation="2d10>=6", who="Kaede Moriyama", dice=[[10, 5]]))
    s.entry("Phase 6", ev("step", "Phase 6"), sets=((("state",), "phase", 6),))
    r3 = dice("Dock Thug 1", "Strong damage", [8, 2], "1 success", typed=False)
    s.entry(
        "Dock Thug 1 acts: Strong at Kaede Moriyama, hits for 1",
        ev("act", "Dock Thug 1 acts: Strong at Kaede Moriyama", THUG1,
           maneuver="Strong", die=6, speed=6),
        ev("roll", r3.describe(), THUG1, roll=r3),
        ev("damage", "Kaede Moriyama takes 1 damage", THUG1, target=KAEDE, amount=1),
        sets=((status(KAEDE), "health", 7),),
    )
    s.entry("Phase 4", ev("step", "Phase 4"), sets=((("state",), "phase", 4),))
    r4 = dice("Kaede Moriyama", "Forward damage", [6, 7, 8, 2, 10], "4 successes", typed=True)
    s.entry(
        "Kaede Moriyama acts: Forward at Dock Thug 2, hits for 4",
        ev("act", "Kaede Moriyama acts: Forward at Dock Thug 2", KAEDE,
           maneuver="Forward", die=4, speed=4),
        ev("points-spend", "Kaede Moriyama spends 1 EP on a damage die", KAEDE, pool="EP", amount=1,
           why="damage die"),
        ev("roll", r4.describe(), KAEDE, roll=r4),
        ev("damage", "Dock Thug 2 takes 4 damage", KAEDE, target=THUG2, amount=4),
        ev("condition-on", "Dock Thug 2 is knocked down", THUG2, name="knocked down"),
        ev("down", "Dock Thug 2 is out of the fight", THUG2),
        sets=((status(KAEDE), "ep", 2), (status(THUG2), "health", 0)),
        appends=(((*status(THUG2), "conditions"), Condition(name="knocked down")),),
    )
    s.apply(c.Note(text="Dock Thug 3 runs for the stairs"))
    s.entry(
        "Round 1 ends",
        ev("round-end", "Round 1 ends"),
        ev("points-gain", "Kaede Moriyama gains 1 EP (concentration)", KAEDE, pool="EP", amount=1,
           why="concentration"),
        sets=((("state",), "stage", "round-over"), (("state",), "phase", None),
              (status(KAEDE), "ep", 3)),
    )
    # --- round 2 -------------------------------------------------------------------
    s.entry(
        "Round 2 begins",
        ev("round-start", "Round 2 begins"),
        ev("points-gain", "Kaede Moriyama gains 2 EP", KAEDE, pool="EP", amount=2, why="half Intelligence"),
        ev("points-gain", "Brannock Vale gains 1 EP", BRANNOCK, pool="EP", amount=1, why="half Intelligence"),
        sets=(((), "round", 2), (("state",), "stage", "phases"), (("state",), "phase", 10),
              (status(KAEDE), "ep", 5), (status(BRANNOCK), "ep", 2)),
    )
    s.entry("Phase 8", ev("step", "Phase 8"), sets=((("state",), "phase", 8),))
    s.entry(
        "Brannock Vale acts: Fierce at Kaede Moriyama",
        ev("act", "Brannock Vale acts: Fierce at Kaede Moriyama", BRANNOCK,
           maneuver="Fierce", die=8, speed=7),
    )
    s.entry(
        "Kaede Moriyama interrupts with Block",
        ev("interrupt", "Kaede Moriyama interrupts with Block (speed 9)", KAEDE,
           maneuver="Block", die=5, speed=9, ep=0),
        ev("condition-on", "Kaede Moriyama is blocking", KAEDE, name="blocking"),
        sets=(), appends=(((*status(KAEDE), "conditions"), Condition(name="blocking")),),
        joins=True,
    )
    r5 = dice("Brannock Vale", "Fierce damage", [3, 6], "1 success", typed=False)
    s.entry(
        "Brannock Vale's Fierce hits Kaede Moriyama for 1 through the block",
        ev("resolve", "Brannock Vale's Fierce resolves", BRANNOCK),
        ev("roll", r5.describe(), BRANNOCK, roll=r5),
        ev("damage", "Kaede Moriyama takes 1 damage", BRANNOCK, target=KAEDE, amount=1),
        ev("points-gain", "Kaede Moriyama gains 1 EP (successful block)", KAEDE, pool="EP", amount=1,
           why="block"),
        sets=((status(KAEDE), "health", 6), (status(KAEDE), "ep", 6)), joins=True,
    )
    s.entry(
        "Brannock Vale catches his breath",
        ev("heal", "Brannock Vale regains 1 health", BRANNOCK, target=BRANNOCK, amount=1),
        sets=((status(BRANNOCK), "health", 12),),
    )
    s.apply(c.SetValue(fighter_id=KAEDE, field="status.chi", value=2))
    s.entry("Phase 3", ev("step", "Phase 3"), sets=((("state",), "phase", 3),))
    r6 = dice("Dock Thug 3", "Jab damage", [1], "no successes: a miss", typed=True)
    s.entry(
        "Dock Thug 3 acts: Jab at Kaede Moriyama and misses",
        ev("act", "Dock Thug 3 acts: Jab at Kaede Moriyama", THUG3, maneuver="Jab", die=3, speed=5),
        ev("roll", r6.describe(), THUG3, roll=r6),
    )
    s.entry(
        "Round 2 ends",
        ev("round-end", "Round 2 ends"),
        ev("condition-off", "Kaede Moriyama stops blocking", KAEDE, name="blocking"),
        sets=((("state",), "stage", "round-over"), (("state",), "phase", None)),
        deletes=(((*status(KAEDE), "conditions"), 0),),
    )
    return s.session
