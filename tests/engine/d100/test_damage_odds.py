"""The exact damage odds of a strike (``odds.d100_damage``) against every pair of faces,
and what one hit does (``odds.d100_hit_damage``), for any bonuses, weapon, Toughness and
armour."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from fightdesk.engine.odds import DAMAGE_CHART, chart_multiplier, d100_damage, d100_hit_damage

bonus = st.integers(-60, 120)
armour = st.one_of(st.none(), st.tuples(st.integers(1, 100), st.integers(1, 100)).map(
    lambda pair: (min(pair), max(pair))))


@settings(max_examples=25, deadline=None)
@given(strike=bonus, defense=bonus, damage=st.integers(0, 12), toughness=st.integers(0, 6),
       armour=armour)
def test_damage_odds_match_every_pair_of_faces(strike: int, defense: int, damage: int,
                                               toughness: int,
                                               armour: tuple[int, int] | None) -> None:
    counts: dict[int, int] = {}
    for natural in range(1, 101):
        for other in range(1, 101):
            lost = 0
            if natural > 10 and not other + defense > natural + strike:
                times = chart_multiplier(DAMAGE_CHART, natural)
                amount = int(damage * times)
                inside = armour is not None and armour[0] <= natural <= armour[1]
                lost = 0 if inside else max(0, amount - toughness)
            counts[lost] = counts.get(lost, 0) + 1
    want = {k: Fraction(n, 10000) for k, n in counts.items()}
    got = d100_damage(strike, defense, damage, toughness=toughness, armour=armour)
    assert got == want and sum(got.values()) == 1


@given(damage=st.integers(0, 1000), natural=st.integers(1, 100), toughness=st.integers(0, 1000))
def test_one_hit_is_never_negative_and_rounds_down(damage: int, natural: int,
                                                   toughness: int) -> None:
    amount, on_armour = d100_hit_damage(damage, natural, toughness=toughness)
    assert not on_armour and 0 <= amount <= damage * 2
    assert amount == max(0, int(damage * chart_multiplier(DAMAGE_CHART, natural)) - toughness)
