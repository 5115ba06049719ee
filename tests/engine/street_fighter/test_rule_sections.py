"""street-fighter rules pinned at their edge where the tests a section of
docs/rulesets/street-fighter.md named did not reach it: each fails if the rule were read
the other way. Dice are typed in (tests/engine/street_fighter/helpers.py)."""

from __future__ import annotations

import pytest

from fightdesk.engine.rulesets.street_fighter import commands as sf

from .helpers import begin, fighter, make_engine, ok, st


@pytest.mark.parametrize(("faces", "lost"), [
    ([6, 5, 5, 5, 5], 1),   # only the 6 reaches TN 6
    ([10, 6, 5, 4, 3], 2),  # 6 and 10 do, 5 and below do not
])
def test_a_damage_roll_counts_sixes_and_up_and_nothing_below(faces: list[int],
                                                              lost: int) -> None:
    """The damage pool is rolled at TN 6, one health level a success
    (docs/rulesets/street-fighter.md#damage-roll). Ken's Fierce on Ryu: Strength 2 +
    Punch 2 + 3 - Stamina 2 = 5 dice; Ryu has 10 health."""
    eng = make_engine(fighter("ken", wits=1, intelligence=0, dexterity=1),
                      fighter("ryu", wits=3, intelligence=0, dexterity=1))
    begin(eng, [[6], [5]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu"))
    ok(eng, sf.ResolveNext(dice=[faces]))
    assert st(eng, "ryu").health == 10 - lost
