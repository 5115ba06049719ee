"""Odds at a glance: whole percentages, never 0% or 100% for a result that
can happen, with the exact fraction kept for the tooltip."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from fightdesk.engine.ruleset import Odds


def test_known_values() -> None:
    assert Odds("hit", Fraction(3, 4)).rounded == "75%"
    assert Odds("hit", Fraction(999, 1000)).rounded == ">99%"
    assert Odds("hit", Fraction(1, 1000)).rounded == "<1%"
    assert Odds("hit", Fraction(1, 1024)).rounded == "<1%"  # a critical at +3
    assert Odds("hit", Fraction(1, 200)).rounded == "<1%"
    assert Odds("hit", Fraction(1, 100)).rounded == "1%"
    assert Odds("hit", Fraction(99, 100)).rounded == "99%"
    assert Odds("hit", Fraction(1, 8)).rounded == "13%"  # 12.5 rounds up
    assert Odds("hit", Fraction(1)).rounded == "100%" and Odds("hit", Fraction(0)).rounded == "0%"
    assert Odds("hit", Fraction(3, 4)).exact == "3/4" and Odds("hit", Fraction(1)).exact == "1"


@given(st.fractions(min_value=0, max_value=1))
def test_a_possible_result_never_reads_certain_or_impossible(chance: Fraction) -> None:
    shown = Odds("x", chance).rounded
    if shown in ("<1%", ">99%"):
        assert 0 < chance < Fraction(1, 100) if shown == "<1%" else Fraction(99, 100) < chance < 1
        return
    number = int(shown.rstrip("%"))
    if 0 < chance < 1:
        assert 1 <= number <= 99
        assert abs(number - chance * 100) <= 1
    else:
        assert number == int(chance) * 100
