"""Ashes readings pinned by scenario: the burst cap on one use of a skill, a dodge with
1 or 2 speed, and a GM's typed health change counting for the half-HP rule
(docs/rulesets/ashes.md#pumping, #dodge, #hit-points)."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.ashes import commands as ash

from .fight import fight, flip, go_to
from .test_rules import defend, ok, status


def test_burst_caps_one_use_of_a_skill_pumped_or_not() -> None:
    """"capped at your burst level": a 3-point skill cannot be used at burst 2."""
    engine = fight(vader={"burst": 2})
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    out = engine.apply(ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK"))
    assert out.error == "Basic TK costs 3, more than Vader's burst 2"
    assert status(engine, "vader").force == 30
    out = engine.apply(ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK",
                                     pump=1))
    assert out.error == "pumping Basic TK to 4 costs 6, more than Vader's burst 2"


def test_each_auxiliary_skill_is_capped_by_burst_on_its_own_not_the_sum() -> None:
    """The text's Vader spends 4 + 5 on two stacked skills: each use against burst."""
    engine = fight(vader={"burst": 5, "skills": [
        {"name": "Basic TK", "rating": 4, "cost": 4},
        {"name": "Personal TK", "rating": 5, "cost": 5, "auxiliary_to": "Basic TK"}]})
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    ok(engine, ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK",
                             auxiliaries=True))
    assert engine.encounter.state.roll.data["attack"] == 9
    assert status(engine, "vader").force == 30 - 9
    flip(engine, "T" * (7 + abs(engine.encounter.state.roll.total)))
    ok(engine, c.EndRound())
    ok(engine, c.StartRound())
    go_to(engine, "vader")
    ok(engine, c.SetValue(fighter_id="vader", field="sheet.burst", value=4))
    out = engine.apply(ash.Challenge(fighter_id="vader", target_id="han", skill="Basic TK",
                                     auxiliaries=True))
    assert out.error == "Personal TK costs 5, more than Vader's burst 4"


def test_a_dodge_with_one_or_two_speed_is_allowed_and_gives_nothing() -> None:
    """"+1 to your defense for every three speed thus spent. Rounded down.\""""
    engine = fight(vader={"burst": 7, "speed": 10})
    ok(engine, c.StartRound())
    ok(engine, ash.Challenge(fighter_id="han", target_id="vader", skill="Blaster"))
    before = engine.encounter.state.roll.total
    view = engine.ruleset.views.roll_view(engine.encounter)
    assert view is not None
    dodge = next(o for o in view.options if o.kind == "dodge")
    assert (dodge.minimum, dodge.default) == (1, 3)
    assert defend(engine, "vader", "dodge", 2) is None
    assert engine.encounter.state.roll.total == before  # +0
    vader = status(engine, "vader")
    assert (vader.speed, vader.dodge_speed, vader.defenses) == (8, 2, 1)


def test_health_typed_by_the_gm_counts_for_the_half_hp_rule() -> None:
    """"Damage of any kind": 5 typed off a 10-HP fighter's card costs the offensive action,
    as the same 5 through GM: damage does; an override says so and costs nothing."""
    engine = fight(han={"max_hp": 10})
    ok(engine, c.StartRound())
    ok(engine, c.SetValue(fighter_id="han", field="status.hp", value=5))
    assert status(engine, "han").offense == "lost: reeling from half HP lost this round"
    assert status(engine, "han").damage_this_round == 5
    card = engine.ruleset.views.card(engine.encounter, "han")
    assert any(r.label == "Offense" and r.value == 0 for r in card.resources)
    other = fight(han={"max_hp": 10})
    ok(other, c.StartRound())
    out = other.apply(c.SetValue(fighter_id="han", field="status.hp", value=5, override=True))
    assert out.entry is not None and out.entry.events[0].text.endswith("the rules were not applied")
    assert status(other, "han").offense is None
