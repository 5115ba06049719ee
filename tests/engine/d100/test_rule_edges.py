"""Each rule read the other way at its edge (the tie, the threshold, the rounding, who may
act) fails one of these tests: they kill the rule-level mutants of tools/mutants/d100.toml
(docs/testing.md "Rule-level mutants"). Dice are typed in; every expected value is worked
out by hand from the section of docs/rulesets/d100.md the docstring names. The fight is
the bundled demo (tests/engine/d100/fight.py)."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.d100 import commands as dc

from .fight import choose, fight, go_to, make, roll_id, start
from .test_rules import alternative, entangled, hp, started, status, strike


def outcomes(engine: Engine) -> list[str]:
    """The last step's roll outcomes, in order."""
    return [e.roll.outcome for e in engine.session.log[-1].events if e.roll is not None]


def fumble_and_counter(engine: Engine, striker: str, countering: str, weapon: str,
                       strike_face: int, counter_face: int) -> None:
    go_to(engine, striker)
    strike(engine, striker, countering)
    choose(engine, countering, weapon)
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine),
                                   dice=[[strike_face], [counter_face]])).ok


def test_a_counter_equal_to_a_fumbled_strikes_total_misses() -> None:
    """Against a natural 01-10 strike the counter hits only if its total beats the
    strike's: a tie misses (docs/rulesets/d100.md#counterstrike)."""
    # Vesna strikes Bandit 1 (+20): natural 6, total 26, a fumble. Bandit 1 counters with
    # the Club (+0): natural 26, total 26. Hitting would be Club 3 x1 - Toughness 2 = 1.
    engine = started()
    fumble_and_counter(engine, "vesna", "bandit-1", "counter-0", 6, 26)
    assert outcomes(engine)[-1] == "26: the counter misses"
    assert hp(engine, "vesna") == 14


def test_a_counters_own_natural_ten_on_a_fumbled_strike_fails_and_drops_the_weapon() -> None:
    """A counter whose own natural roll is 01-10 fails, and an armed counter-striker drops
    the weapon, also against a fumbled strike (docs/rulesets/d100.md#counterstrike)."""
    # Bandit 1 (+5) strikes Rook: natural 5, total 10. Rook counters with the Longsword
    # (+10): natural 10, total 20, above 10, but a natural 10.
    engine = started()
    fumble_and_counter(engine, "bandit-1", "rook", "counter-0", 5, 10)
    assert outcomes(engine)[-1] == "20: the counter misses"
    assert status(engine, "rook").dropped == [0]


def test_a_counters_natural_ten_fails_even_when_its_total_beats_the_strike() -> None:
    """After a strike that did not fail, a counter of natural 10 still fails: only the
    strike hits, and the armed counter-striker drops the weapon
    (docs/rulesets/d100.md#counterstrike)."""
    # Bandit 1 (+5) strikes Rook: natural 11, total 16; Rook's counter: natural 10 + 10 = 20.
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "rook")
    choose(engine, "rook", "counter-0")
    make(engine, 11)
    make(engine, 10)
    assert outcomes(engine)[-1] == "natural 10: the counter fails"
    assert status(engine, "rook").dropped == [0]


def _hurt_vesna(engine: Engine, by: str, face: int = 50) -> None:
    """Bandit ``by`` hits Vesna undefended: the Club, 3 x1 at natural 50, less Toughness."""
    go_to(engine, by)
    strike(engine, by, "vesna")
    make(engine, face)
    choose(engine, "vesna", "none")
    make(engine)


def test_a_fifth_of_the_health_rounds_down_so_three_of_fourteen_is_not_serious() -> None:
    """Seriously wounded at 1/5 of the maximum or less, rounded down: Vesna (14) is at 2,
    not at 3 (docs/rulesets/d100.md#serious-wounds)."""
    engine = fight()
    engine.encounter.fighters["vesna"].status.hp = 4
    start(engine)
    _hurt_vesna(engine, "bandit-1")  # 3 - Toughness 2 = 1: 4 -> 3
    assert hp(engine, "vesna") == 3 and status(engine, "vesna").wounded_round is None
    _hurt_vesna(engine, "bandit-2")  # 3 -> 2
    assert hp(engine, "vesna") == 2 and status(engine, "vesna").wounded_round == 1


def test_a_fighter_of_four_hp_is_seriously_wounded_at_one() -> None:
    """1/5 of the maximum is at least 1: with 4 HP (1/5 rounds to 0) a fighter at 1 is
    seriously wounded (docs/rulesets/d100.md#serious-wounds)."""
    engine = fight()
    vesna = engine.encounter.fighters["vesna"]
    vesna.sheet.max_hp, vesna.status.hp = 4, 2
    start(engine)
    _hurt_vesna(engine, "bandit-1")
    assert hp(engine, "vesna") == 1 and status(engine, "vesna").wounded_round == 1


def test_a_seriously_wounded_fighters_toughness_is_halved_too() -> None:
    """Every value the rules read is halved while seriously wounded, Toughness included:
    Vesna's 2 becomes 1 (docs/rulesets/d100.md#serious-wounds)."""
    engine = fight()
    engine.encounter.fighters["vesna"].status.hp = 3
    start(engine)
    _hurt_vesna(engine, "bandit-1")  # 3 - 2 = 1: 3 -> 2, seriously wounded
    assert status(engine, "vesna").wounded_round == 1
    _hurt_vesna(engine, "bandit-2")  # 3 - 1 = 2: 2 -> 0
    assert hp(engine, "vesna") == 0


def test_under_method_d_fighters_without_a_seat_come_last_highest_roll_first() -> None:
    """Method D: the seated go clockwise from the highest roller; the fighters without a
    seat come after them, highest roll first (docs/rulesets/d100.md#initiative)."""
    engine = fight()
    for fid in ("rook", "vesna"):
        engine.encounter.fighters[fid].sheet.seat = 0
    assert engine.apply(c.SetOption(option="initiative", value="D")).ok
    assert engine.apply(c.StartFight()).ok
    pending = engine.pending()
    assert pending is not None
    typed = {"rook": 10, "vesna": 20, "tariq": 30, "bandit-captain": 99, "bandit-1": 40,
             "bandit-2": 50}
    assert engine.apply(c.Answer(decision_id=pending.id, values=typed)).ok
    order = [s.fighter_id for s in engine.encounter.state.turns.sections[0].slots]
    assert order == ["bandit-captain", "bandit-1", "bandit-2", "tariq", "vesna", "rook"]


def test_the_fierce_option_allows_melee_weapons_but_never_projectiles() -> None:
    """With fierce_with_weapons, melee weapons may strike Fierce; projectile and bullet
    weapons never (docs/rulesets/d100.md#fierce-strikes)."""
    engine = fight()
    engine.encounter.fighters["tariq"].sheet.weapons[0].kind = "projectile"
    assert engine.apply(c.SetOption(option="fierce_with_weapons", value=True)).ok
    start(engine)
    go_to(engine, "tariq")
    refused = engine.apply(dc.Strike(fighter_id="tariq", target_id="bandit-1", weapon=0,
                                     fierce=True))
    assert refused.error == "no Fierce strike with a projectile weapon"
    strike(engine, "tariq", "bandit-1", weapon=1, fierce=True)


def test_partial_cover_stops_a_hit_on_the_first_roll_of_its_range() -> None:
    """Partial cover stops the natural rolls of its range, both ends included: 30 of
    30-70 (docs/rulesets/d100.md#obstacles)."""
    engine = started()
    assert engine.apply(dc.SetCover(fighter_id="vesna", cover="partial")).ok
    _hurt_vesna(engine, "bandit-1", face=30)
    assert hp(engine, "vesna") == 14
    _hurt_vesna(engine, "bandit-2", face=71)  # past the range: 3 x1 - 2 = 1
    assert hp(engine, "vesna") == 13


def test_an_entangled_fighter_cannot_counterstrike() -> None:
    """While entangled a fighter cannot strike or counterstrike; a counter declared
    anyway is refused (docs/rulesets/d100.md#counterstrike)."""
    engine = entangled()
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "rook")
    strike(engine, "rook", "bandit-1")
    refused = engine.apply(c.Contribute(roll_id=roll_id(engine), fighter_id="bandit-1",
                                        contribution="counter-0"))
    assert refused.error == "Bandit 1 is entangled: no counterstrike"
    assert status(engine, "bandit-1").actions == 1


def test_the_critical_share_rounds_down() -> None:
    """The critical share of a hit is rounded down: half of 5 physical is 2, less Hit
    Points 1 (docs/rulesets/d100.md#alternative-hit-points)."""
    engine = alternative()
    engine.encounter.fighters["rook"].sheet.weapons[0].damage = 5
    strike(engine, "rook", "bandit-1")
    make(engine, 30)  # x1 outside the quarter suit: 5 perceived
    choose(engine, "bandit-1", "none")
    make(engine)
    assert status(engine, "bandit-1").critical == 1
    assert hp(engine, "bandit-1") == 12 - 5
