"""d100 rules pinned at their edge, one test (or more) per section of
docs/rulesets/d100.md that had none: each fails if the rule were read the other way.
Dice are typed in; expected values are worked out by hand from the section named. The
fight is the bundled demo (tests/engine/d100/fight.py)."""

from __future__ import annotations

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.turns import slots

from .fight import choose, go_to, make, turn_of
from .test_rules import entangled, hp, started, status, strike


def test_an_entangler_put_out_by_a_gm_override_lets_go_at_the_next_turn() -> None:
    """An entanglement ends when the entangler is out of the fight
    (docs/rulesets/d100.md#entangle), even when the GM's override put them out and so
    nothing else happened at the time: the entangled fighter's next turn finds them out."""
    engine = entangled()
    out = engine.apply(c.SetValue(fighter_id="vesna", field="status.hp", value=0,
                                  override=True))
    assert out.ok, out.error
    # The override writes the value and nothing else: the hold is still there.
    assert [x.name for x in status(engine, "bandit-1").conditions] == ["Entangled"]
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "bandit-1")
    assert not status(engine, "bandit-1").conditions


@pytest.mark.parametrize(("natural", "damage"), [
    (11, 2), (25, 2), (26, 4), (75, 4), (76, 6), (90, 6), (91, 8), (100, 8)])
def test_each_row_of_the_damage_chart_starts_and_ends_where_the_chart_says(
        natural: int, damage: int) -> None:
    """Rook's Longsword 4 on Bandit 1 (Toughness 0, 10 hp, quarter suit 45-70), no
    defense: 11-25 half, 26-75 x1, 76-90 x1.5, 91-00 double, rounded down
    (docs/rulesets/d100.md#damage-chart); 00 is read as 100, the top row
    (docs/rulesets/d100.md#rolls); 11 is no longer a failed strike
    (docs/rulesets/d100.md#natural-01-10)."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, natural)
    assert engine.encounter.state.roll is not None  # the defense waits: not a fumble
    assert status(engine, "rook").dropped == []
    choose(engine, "bandit-1", "none")
    make(engine)
    assert hp(engine, "bandit-1") == 10 - damage


def test_toughness_never_turns_a_small_hit_into_healing() -> None:
    """Damage less Toughness, never below 0 (docs/rulesets/d100.md#damage): Bandit 1's
    Club 3 at natural 20 is floor(3 x 0.5) = 1, less Vesna's Toughness 2, so 0."""
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    make(engine, 20)
    choose(engine, "vesna", "none")
    make(engine)
    assert hp(engine, "vesna") == 14


@pytest.mark.parametrize(("parry", "captain_hp"), [(97, 20 - 5), (98, 20)])
def test_shooting_a_projectile_down_must_beat_the_strike_a_tie_hits(
        parry: int, captain_hp: int) -> None:
    """Rook's Shortbow (+15, damage 3) at natural 97: total 112, double damage outside the
    Captain's full plate (5-95), less Toughness 1 = 5. The Captain's shot (parry +15)
    must beat 112: 97 + 15 ties and the arrow hits, 98 + 15 shoots it down
    (docs/rulesets/d100.md#projectile-parry)."""
    engine = started()
    bow = {"name": "Shortbow", "damage": 3, "hp": 3, "kind": "projectile"}
    for fid in ("rook", "bandit-captain"):
        sheet = engine.encounter.fighters[fid].sheet
        sheet.weapons.append(type(sheet.weapons[0]).model_validate(bow))
    strike(engine, "rook", "bandit-captain", weapon=1)
    make(engine, 97)
    choose(engine, "bandit-captain", "shoot-down")
    make(engine, parry)
    assert hp(engine, "bandit-captain") == captain_hp


def test_removing_the_fighter_whose_turn_goes_on_passes_the_turn_and_undo_restores_it() -> None:
    """A removed fighter takes their turns out of the round; their turn going on passes
    to the next waiting one (docs/rulesets/d100.md#removing-a-fighter)."""
    engine = started()
    assert turn_of(engine) == "rook"
    assert engine.apply(c.RemoveFighter(fighter_id="rook")).ok
    assert turn_of(engine) == "vesna"
    assert "rook" not in [s.fighter_id for s in slots(engine.encounter.state.turns)]
    assert engine.undo()
    assert turn_of(engine) == "rook"
