"""Ashes invariants under any sequence of challenges and defenses (Hypothesis): speed
never below 0, each kind of burst spending within burst, the speed spent is exactly what
the defenses and moves paid, and the odds shown equal the coin count's own."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.odds import challenge_success
from fightdesk.engine.rulesets.ashes import commands as ash
from fightdesk.engine.turns import current_fighter

from .fight import fight

PEOPLE = ("han", "ben", "vader", "trooper")
DEFENSES = ("skill:Dodge roll", "skill:Parry", "skill:Deflect", "skill:Absorb power",
            "skill:Saber parry", "dodge")

steps = st.lists(st.tuples(st.sampled_from(("challenge", "defend", "flip", "move", "next",
                                            "stance", "withdraw")),
                           st.sampled_from(PEOPLE), st.sampled_from(DEFENSES),
                           st.integers(0, 6), st.lists(st.booleans(), min_size=30,
                                                       max_size=30)),
                 max_size=25)


@settings(max_examples=40, deadline=None)
@given(steps=steps)
def test_speed_and_burst_stay_within_the_rules(steps: list[tuple]) -> None:
    engine = fight()
    assert engine.apply(c.StartRound()).ok
    skills = {"han": "Blaster", "ben": "Lightsaber", "vader": "Saber strike",
              "trooper": "Rifle"}
    for what, who, defense, amount, coins in steps:
        enc = engine.encounter
        roll = enc.state.roll
        actor = current_fighter(enc.state.turns)
        if what == "challenge" and actor and who != actor:
            engine.apply(ash.Challenge(fighter_id=actor, target_id=who, skill=skills[actor]))
        elif what == "defend" and roll is not None:
            engine.apply(c.Contribute(roll_id=roll.id, fighter_id=who, contribution=defense,
                                      amount=amount))
        elif what == "withdraw" and roll is not None and roll.contributions:
            engine.apply(c.Withdraw(roll_id=roll.id, contribution_id=roll.contributions[-1].id))
        elif what == "flip" and roll is not None:
            n = 7 + abs(roll.total)
            engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[2 if x else 1 for x in coins[:n]]]))
        elif what == "move" and actor:
            engine.apply(ash.Move(fighter_id=actor, metres=max(1, amount)))
        elif what == "stance" and actor:
            engine.apply(ash.Stance(fighter_id=actor))
        elif what == "next":
            if enc.state.stage == "turns":
                engine.apply(c.NextStep())
            else:
                engine.apply(c.StartRound())
        enc = engine.encounter
        for f in enc.fighters.values():
            s, burst = f.status, f.sheet.burst
            assert s.speed >= 0
            assert s.defense_speed <= burst and s.dodge_speed <= burst and s.move_speed <= burst
            assert f.sheet.speed - s.speed == s.defense_speed + s.dodge_speed + s.move_speed
        roll = enc.state.roll
        if roll is not None:
            view = engine.ruleset.views.roll_view(enc)
            assert view is not None
            assert view.odds[0].chance == challenge_success(roll.total)
            assert view.dice.startswith(f"{7 + abs(roll.total)} coins")
