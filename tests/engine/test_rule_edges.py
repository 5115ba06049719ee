"""Each shared-core rule read the other way at its edge fails one of these tests: they kill
the rule-level mutants of tools/mutants/core.toml (docs/testing.md "Rule-level mutants").
The turn order is driven through the engine by the drill ruleset (tests/drill_ruleset.py);
the exact odds are worked out by hand."""

from __future__ import annotations

from fractions import Fraction

from fightdesk.engine import commands as c
from fightdesk.engine.odds import d100_hit_damage
from fightdesk.engine.turns import slots
from tests.drill_ruleset import drill_engine


def test_a_dragged_waiting_turn_stays_after_the_turns_already_taken() -> None:
    """The GM drags a waiting turn among the turns still to come: a turn already taken
    stays where it was, even when the drag names the first place
    (docs/ARCHITECTURE.md#turn-order)."""
    engine = drill_engine()
    assert engine.apply(c.StartRound()).ok
    assert engine.apply(c.Answer(decision_id="initiative", by="the players",
                                 values={"kaede": 5, "brannock": 15})).ok
    for _ in range(2):  # Kaede's and Brannock's turns are taken: Thug 1's goes on
        assert engine.apply(c.NextStep()).ok
    slow = engine.encounter.state.turns.sections[1]
    assert [s.fighter_id for s in slow.slots] == ["brannock", "thug-1", "thug-2"]
    assert engine.apply(c.MoveTurn(slot_id="thug-2", section="slow", index=0)).ok
    order = [s for s in slots(engine.encounter.state.turns)]
    assert [s.fighter_id for s in order[:2]] == ["kaede", "brannock"]
    assert all(s.acted for s in order[:2]) and not order[2].acted


def test_the_armour_covers_both_ends_of_its_range() -> None:
    """A natural roll inside the armour's range hits the armour, both ends included; one
    past it reaches the wearer (docs/rulesets/d100.md#armour)."""
    assert d100_hit_damage(4, 45, armour=(45, 70)) == (4, True)
    assert d100_hit_damage(4, 70, armour=(45, 70)) == (4, True)
    # 71 is past the range, on the chart's x1 row: 4 less Toughness 1.
    assert d100_hit_damage(4, 71, toughness=1, armour=(45, 70)) == (4 - 1, False)
    assert d100_hit_damage(4, 80, armour=(45, 70)) == (int(4 * Fraction(3, 2)), False)
