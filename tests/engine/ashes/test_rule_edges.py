"""Each rule read the other way at its edge (the tie, the threshold, the rounding, the cap)
fails one of these tests: they kill the rule-level mutants of tools/mutants/ashes.toml
(docs/testing.md "Rule-level mutants"). Coins are typed in; every expected value is
worked out by hand from the section of docs/rulesets/ashes.md the docstring names."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.ashes import commands as ash
from fightdesk.engine.turns import current_fighter

from .fight import fight, flip, flip_all


def ok(engine: Engine, command: c.Command) -> Any:
    out = engine.apply(command)
    assert out.ok, out.error
    return out


def status(engine: Engine, fid: str) -> Any:
    return engine.encounter.fighters[fid].status


def texts(out: Any) -> list[str]:
    return [e.text for e in out.entry.events]


def roll_id(engine: Engine) -> int:
    roll = engine.encounter.state.roll
    assert roll is not None
    return roll.id


def test_at_exactly_plus_six_the_coins_still_decide() -> None:
    """The automatic outcome is beyond +6, not at it: at +6 eleven tails out of eleven
    challenge coins leave the defender standing (docs/rulesets/ashes.md#challenges)."""
    # Han's Blaster 7 against the Trooper's resist body 1: +6, 11 + 2 coins.
    engine = fight(han={"skills": [{"name": "Blaster", "rating": 7, "damage": 6}]})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    assert engine.encounter.state.roll is not None and engine.encounter.state.roll.total == 6
    out = flip_all(engine, "T")
    assert "Trooper holds" in out.entry.summary and "automatic" not in out.entry.summary
    assert status(engine, "trooper").hp == 10


def test_one_coin_the_advantaged_sides_way_is_no_critical_for_the_other_side() -> None:
    """The other side's critical needs every coin against the advantaged side: at +0,
    one head among seven coins is a plain failure (docs/rulesets/ashes.md#criticals)."""
    engine = fight(trooper={"resist_body": 5})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    out = flip(engine, "HTTTT TT")
    assert "Trooper holds" in out.entry.summary
    assert "critical" not in out.entry.summary
    assert not any("Critical" in t for t in texts(out))


def test_half_the_hp_rounds_up_so_five_of_eleven_keeps_the_action() -> None:
    """Half of max HP rounded up: 11 HP loses the offensive action at 6 damage in a round,
    not at 5 (docs/rulesets/ashes.md#hit-points)."""
    # Han's Blaster shoots twice, 5 damage a hit, on the Trooper (11 HP): 5, then 10.
    engine = fight(han={"skills": [{"name": "Blaster", "rating": 5, "damage": 5, "attacks": 2}]},
                   trooper={"max_hp": 11})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    flip_all(engine, "H")
    assert status(engine, "trooper").hp == 6 and status(engine, "trooper").offense is None
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    flip_all(engine, "H")
    assert status(engine, "trooper").offense.startswith("lost")


def test_exactly_zero_hp_is_unconscious_not_dead() -> None:
    """At 0 HP the fighter is unconscious and bleeding out; only below 0 dead
    (docs/rulesets/ashes.md#hit-points)."""
    engine = fight(trooper={"max_hp": 6})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="trooper", skill="Blaster"))
    out = flip_all(engine, "H")
    assert status(engine, "trooper").hp == 0
    lines = texts(out)
    assert "Trooper is unconscious, bleeding out within 5 minutes" in lines
    assert "Trooper is dead" not in lines


def test_a_defense_that_brings_the_speed_spent_exactly_to_burst_is_still_offered() -> None:
    """Burst caps the speed spent on defense costs: reaching it exactly is allowed, so the
    roll panel still offers the third use at burst 3 (0 + 1 + 2 = 3)
    (docs/rulesets/ashes.md#defensive-skills)."""
    engine = fight(vader={"burst": 3})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    rid = roll_id(engine)
    for kind in ("skill:Absorb power", "skill:Saber parry"):
        ok(engine, c.Contribute(roll_id=rid, fighter_id="vader", contribution=kind))
    roll = engine.encounter.state.roll
    assert roll is not None
    offered = engine.ruleset.rules.contribution_options(engine.encounter, roll)
    assert [o.kind for o in offered] == ["dodge"]
    ok(engine, c.Contribute(roll_id=rid, fighter_id="vader", contribution="dodge", amount=3))
    assert status(engine, "vader").defense_speed == 3 and status(engine, "vader").speed == 8 - 1 - 2 - 3


def test_a_dodge_may_spend_exactly_the_burst() -> None:
    """Dodging spends speed up to burst a round, burst itself included
    (docs/rulesets/ashes.md#dodge)."""
    engine = fight(vader={"burst": 3})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    ok(engine, c.Contribute(roll_id=roll_id(engine), fighter_id="vader", contribution="dodge",
                            amount=3))
    assert status(engine, "vader").dodge_speed == 3


def test_equal_initiative_keeps_the_fights_order() -> None:
    """Ties in initiative keep the fight's order, which the GM drags: Han before Ben at
    initiative 4 each (docs/rulesets/ashes.md#initiative)."""
    engine = fight(ben={"initiative": 4})
    ok(engine, c.StartRound())
    assert current_fighter(engine.encounter.state.turns) == "han"
    ok(engine, c.NextStep())
    assert current_fighter(engine.encounter.state.turns) == "ben"
