"""d100 scenarios with pinned dice (typed in): each rule of docs/rulesets/d100.md, able
to fail if the rule were wrong."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.d100 import commands as dc

from .fight import choose, fight, go_to, make, start, turn_of


def hp(engine: Engine, fid: str) -> int:
    return int(engine.encounter.fighters[fid].status.hp)


def status(engine: Engine, fid: str) -> Any:
    return engine.encounter.fighters[fid].status


def strike(engine: Engine, me: str, foe: str, weapon: int | None = 0, fierce: bool = False) -> None:
    out = engine.apply(dc.Strike(fighter_id=me, target_id=foe, weapon=weapon, fierce=fierce))
    assert out.ok, out.error


def started() -> Engine:
    engine = fight()
    start(engine)
    return engine


# --- the round and the actions --------------------------------------------------------------------


def test_the_declared_order_needs_no_roll_and_keeps_the_gms_drag() -> None:
    engine = started()
    assert engine.pending() is None and turn_of(engine) == "rook"
    assert all(f.status.actions == 1 for f in engine.encounter.fighters.values())
    assert engine.apply(c.MoveTurn(slot_id="tariq", section="round", index=0)).ok
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    order = [s.fighter_id for s in engine.encounter.state.turns.sections[0].slots]
    assert order[:3] == ["tariq", "rook", "vesna"]


def test_a_strike_uses_the_action_then_one_is_borrowed_then_none() -> None:
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 5)  # natural 05: fails, no defense roll
    assert status(engine, "rook").actions == 0 and not status(engine, "rook").owes
    assert engine.apply(dc.PickUp(fighter_id="rook")).ok  # borrows for it
    assert status(engine, "rook").owes and status(engine, "rook").dropped == []
    refused = engine.apply(dc.Strike(fighter_id="rook", target_id="bandit-1", weapon=0))
    assert refused.error == ("Rook has no action left for a strike (next round's action is "
                             "already borrowed)")
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    assert status(engine, "rook").actions == 0 and not status(engine, "rook").owes
    # No action this round, but borrowing again during it is allowed.
    strike(engine, "rook", "bandit-1")
    assert status(engine, "rook").owes


# --- the exchange ---------------------------------------------------------------------------------


def test_a_hit_outside_the_armour_takes_the_chart_multiplier_less_toughness() -> None:
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 80)  # natural 80: x1.5, outside the quarter suit's 45-70; total 95
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "bandit-1" and roll.data["strike_total"] == 95
    odds = {o.label: o.chance for o in engine.ruleset.rules.roll_odds(engine.encounter, roll)}
    assert odds["parry +5 beats 95"] == Fraction(10, 100)  # naturals 91-00
    refused = engine.apply(c.MakeRoll(roll_id=roll.id))
    assert refused.error == "choose parry, dodge or entangle (or no defense) first"
    choose(engine, "bandit-1", "parry")
    make(engine, 50)  # 55 does not beat 95
    assert hp(engine, "bandit-1") == 10 - 6  # floor(4 x 1.5) = 6, Toughness 0
    assert engine.encounter.state.roll is None


def test_a_hit_inside_the_armour_hurts_the_armour_until_it_is_gone() -> None:
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 50)  # x1, inside 45-70
    choose(engine, "bandit-1", "dodge")
    make(engine, 10)
    assert hp(engine, "bandit-1") == 10 and status(engine, "bandit-1").armour_hp == 0
    strike(engine, "rook", "bandit-1")  # borrowed
    make(engine, 50)
    choose(engine, "bandit-1", "none")
    make(engine)  # no defense: nothing is rolled
    assert hp(engine, "bandit-1") == 10 - 4  # the armour at 0 stops nothing


def test_armour_takes_no_more_than_it_has_and_the_wearer_nothing() -> None:
    engine = started()
    go_to(engine, "vesna")
    strike(engine, "vesna", "bandit-captain", weapon=0)
    make(engine, 97)  # x2, outside full plate's 5-95: 4 - Toughness 1
    choose(engine, "bandit-captain", "none")
    make(engine)
    assert hp(engine, "bandit-captain") == 20 - 3


def test_ties_go_to_the_attacker_and_half_damage_rounds_down() -> None:
    engine = started()
    go_to(engine, "vesna")
    strike(engine, "vesna", "bandit-1", weapon=0)
    make(engine, 20)  # x0.5, total 40
    choose(engine, "bandit-1", "parry")
    make(engine, 35)  # 40 ties 40: the strike hits
    assert hp(engine, "bandit-1") == 10 - 1  # floor(2 x 0.5)


def test_a_defense_that_beats_the_strike_stops_it() -> None:
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 30)  # total 45
    choose(engine, "bandit-1", "parry")
    choose(engine, "bandit-1", "dodge")  # a new choice replaces the old one
    roll = engine.encounter.state.roll
    assert roll is not None and [x.kind for x in roll.contributions] == ["dodge"]
    make(engine, 41)  # 46 beats 45
    assert hp(engine, "bandit-1") == 10 and status(engine, "bandit-1").armour_hp is None


def test_a_natural_01_to_10_drops_a_weapon_but_not_fists() -> None:
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 10)
    assert engine.encounter.state.roll is None and status(engine, "rook").dropped == [0]
    refused = engine.apply(dc.Strike(fighter_id="rook", target_id="bandit-1", weapon=0))
    assert refused.error == "Rook's Longsword is on the floor: pick it up first"
    go_to(engine, "vesna")
    strike(engine, "vesna", "bandit-1", weapon=0)
    make(engine, 1)
    assert status(engine, "vesna").dropped == []


def test_fierce_is_for_fists_unless_the_option_allows_melee_weapons() -> None:
    engine = started()
    refused = engine.apply(dc.Strike(fighter_id="rook", target_id="bandit-1", weapon=0, fierce=True))
    assert refused.error == ("Fierce strikes are for punches and kicks (the options may allow "
                             "melee weapons)")
    assert engine.apply(c.SetOption(option="fierce_with_weapons", value=True)).ok
    strike(engine, "rook", "bandit-1", fierce=True)
    roll = engine.encounter.state.roll
    assert roll is not None and roll.base == 15 - 20
    make(engine, 80)  # total 60
    choose(engine, "bandit-1", "none")
    make(engine)
    assert hp(engine, "bandit-1") == 10 - 7  # floor((4 + 1) x 1.5)
    go_to(engine, "tariq")
    refused = engine.apply(dc.Strike(fighter_id="tariq", target_id="bandit-1", weapon=0, fierce=True))
    assert refused.error == "no Fierce strike with a bullet weapon"


def test_the_damage_chart_is_the_fights_editable_table() -> None:
    engine = started()
    table = engine.encounter.tables["damage-chart"].model_dump(mode="json")
    table["rows"][2]["effect"] = "x3"  # 26-75
    assert engine.apply(c.SetTable(table=table)).ok
    strike(engine, "rook", "bandit-1")
    make(engine, 30)
    choose(engine, "bandit-1", "none")
    make(engine)
    assert hp(engine, "bandit-1") == 10 - 12 + 2  # 12 damage, 0 is the floor


# --- the counterstrike ----------------------------------------------------------------------------


def counter_case(counter: int) -> Engine:
    """Bandit 1 strikes Vesna (natural 50: total 55; 1.5 x is 82); she counterstrikes +20."""
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    choose(engine, "vesna", "counter-0")
    assert status(engine, "vesna").actions == 0
    make(engine, 50)
    make(engine, counter)
    return engine


@pytest.mark.parametrize(("counter", "vesna", "bandit"), [
    (35, 14 - 1, 10),   # 55 <= 55: only the strike (club 3 - Toughness 2)
    (61, 14 - 1, 10),   # 81: both; fists x1 at 61 hit the quarter suit (4 -> 2)
    (62, 14, 10 - 0),   # 82: only the counter, on the armour
    (80, 14, 10 - 3),   # 100: only the counter, x1.5 outside the armour
    (7, 14 - 1, 10),    # the counter's own 01-10 fails
])
def test_counterstrike_outcomes(counter: int, vesna: int, bandit: int) -> None:
    engine = counter_case(counter)
    assert hp(engine, "vesna") == vesna and hp(engine, "bandit-1") == bandit
    if counter == 61:
        assert status(engine, "bandit-1").armour_hp == 2


def test_a_counter_against_a_natural_01_to_10_hits_if_it_beats_the_strike() -> None:
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    choose(engine, "vesna", "counter-0")
    roll = engine.encounter.state.roll
    assert roll is not None
    assert engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[5], [30]])).ok  # 10 against 50
    assert engine.encounter.state.roll is None
    assert hp(engine, "bandit-1") == 10 - 2 and status(engine, "bandit-1").dropped == [0]
    assert hp(engine, "vesna") == 14


def test_a_counterstrike_taken_back_gives_the_action_back() -> None:
    engine = started()
    strike(engine, "rook", "vesna")
    choose(engine, "vesna", "counter")
    roll = engine.encounter.state.roll
    assert roll is not None and status(engine, "vesna").actions == 0
    assert engine.apply(c.Withdraw(roll_id=roll.id, contribution_id=roll.contributions[0].id)).ok
    assert status(engine, "vesna").actions == 1


def test_a_counterstrike_after_the_action_borrows_next_rounds() -> None:
    engine = started()
    go_to(engine, "vesna")
    strike(engine, "vesna", "bandit-1", weapon=0)
    make(engine, 1)
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    choose(engine, "vesna", "counter")
    assert status(engine, "vesna").owes


# --- entangle and disarm --------------------------------------------------------------------------


def entangled() -> Engine:
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    make(engine, 50)  # 55
    choose(engine, "vesna", "entangle")
    make(engine, 31)  # 56 beats 55
    conds = status(engine, "bandit-1").conditions
    assert [(x.name, x.imposed_by) for x in conds] == [("Entangled", "vesna")]
    return engine


def test_an_entangled_fighter_must_break_free_and_ties_hold() -> None:
    engine = entangled()
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "bandit-1")
    refused = engine.apply(dc.Strike(fighter_id="bandit-1", target_id="vesna", weapon=0))
    assert refused.error == "Bandit 1 is entangled by Vesna: break free first"
    assert engine.apply(dc.BreakFree(fighter_id="bandit-1", dice=[[60], [50]])).ok  # 65 = 65
    assert status(engine, "bandit-1").conditions and status(engine, "bandit-1").actions == 0
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "bandit-1")
    assert engine.apply(dc.BreakFree(fighter_id="bandit-1", dice=[[61], [50]])).ok  # 66 > 65
    assert not status(engine, "bandit-1").conditions


@pytest.mark.parametrize(("mine", "theirs", "works"), [(53, 40, True), (52, 40, False)])
def test_the_entangler_disarms_by_beating_one_and_a_half_times(mine: int, theirs: int,
                                                               works: bool) -> None:
    engine = entangled()
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "vesna")
    # 1.5 x (40 + 5) is 67: Vesna's 53 + 15 = 68 disarms, 52 + 15 = 67 does not.
    assert engine.apply(dc.Disarm(fighter_id="vesna", target_id="bandit-1",
                                  dice=[[mine], [theirs]])).ok
    assert (status(engine, "bandit-1").dropped == [0]) == works


def test_an_entangler_out_of_the_fight_lets_go() -> None:
    engine = entangled()
    assert engine.apply(c.SetValue(fighter_id="vesna", field="status.hp", value=0)).ok
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "bandit-1")
    assert not status(engine, "bandit-1").conditions


# --- obstacles ------------------------------------------------------------------------------------


def test_full_cover_adds_twenty_to_the_defense_and_partial_cover_stops_its_range() -> None:
    engine = started()
    assert engine.apply(dc.SetCover(fighter_id="bandit-1", cover="full")).ok
    strike(engine, "rook", "bandit-1")
    make(engine, 80)
    roll = engine.encounter.state.roll
    assert roll is not None and roll.base == 20
    choose(engine, "bandit-1", "parry")
    make(engine, 71)  # 71 + 5 + 20 = 96 beats 95
    assert hp(engine, "bandit-1") == 10
    assert engine.apply(dc.SetCover(fighter_id="bandit-1", cover="partial")).ok
    strike(engine, "rook", "bandit-1")
    make(engine, 35)  # inside the partial cover's 30-70
    choose(engine, "bandit-1", "none")
    make(engine)
    assert hp(engine, "bandit-1") == 10 and status(engine, "bandit-1").armour_hp is None


# --- serious wounds -------------------------------------------------------------------------------


def test_a_seriously_wounded_fighter_is_halved_and_acts_every_second_round() -> None:
    engine = started()
    go_to(engine, "bandit-captain")
    strike(engine, "bandit-captain", "tariq")
    make(engine, 97)  # axe 5 x 2 = 10 outside the jacket: Tariq 12 -> 2 (1/5 of 12 is 2)
    choose(engine, "tariq", "none")
    make(engine)
    assert hp(engine, "tariq") == 2 and status(engine, "tariq").wounded_round == 1
    acted = []
    for _ in range(2):
        assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
        acted.append(status(engine, "tariq").actions)
    assert acted == [0, 1]  # round 2 skipped, round 3 acts
    go_to(engine, "tariq")
    assert engine.encounter.round == 3
    strike(engine, "tariq", "bandit-1")
    roll = engine.encounter.state.roll
    assert roll is not None and roll.base == 10 // 2
    make(engine, 1)
    refused = engine.apply(dc.Strike(fighter_id="tariq", target_id="bandit-1", weapon=1))
    assert refused.error == ("Tariq has no action left for a strike (seriously wounded "
                             "fighters cannot borrow)")
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    assert status(engine, "tariq").actions == 0


# --- initiative -----------------------------------------------------------------------------------


def test_method_b_adds_combat_and_ties_go_to_the_higher_bonus_once_per_fight() -> None:
    engine = fight()
    assert engine.apply(c.SetOption(option="initiative", value="B")).ok
    assert engine.apply(c.SetOption(option="initiative_every_round", value=False)).ok
    assert engine.apply(c.StartFight()).ok
    pending = engine.pending()
    assert pending is not None and pending.fields[0].label == "Rook: 1d100 + Combat"
    # Rook 50 + 12 = 62, Vesna 47 + 15 = 62 (higher bonus first), Tariq 90 + 8 = 98...
    typed = {"rook": 50, "vesna": 47, "tariq": 90, "bandit-captain": 1, "bandit-1": 2,
             "bandit-2": 3}
    assert engine.apply(c.Answer(decision_id=pending.id, values=typed)).ok
    order = [s.fighter_id for s in engine.encounter.state.turns.sections[0].slots]
    assert order == ["tariq", "vesna", "rook", "bandit-captain", "bandit-2", "bandit-1"]
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    assert engine.pending() is None
    assert [s.fighter_id for s in engine.encounter.state.turns.sections[0].slots] == order


def test_method_d_goes_clockwise_by_seat_from_the_highest_roll() -> None:
    engine = fight()
    assert engine.apply(c.SetOption(option="initiative", value="D")).ok
    assert engine.apply(c.StartFight()).ok
    pending = engine.pending()
    assert pending is not None
    typed = {"rook": 10, "vesna": 20, "tariq": 30, "bandit-captain": 99, "bandit-1": 40,
             "bandit-2": 50}
    assert engine.apply(c.Answer(decision_id=pending.id, values=typed)).ok
    order = [s.fighter_id for s in engine.encounter.state.turns.sections[0].slots]
    # Seats: Rook 1, Vesna 2, Tariq 3, Captain 4, the bandits 5 (in the fight's order).
    assert order == ["bandit-captain", "bandit-1", "bandit-2", "rook", "vesna", "tariq"]
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    assert engine.pending() is not None  # every round by default


# --- one undo step ------------------------------------------------------------------------------


def test_the_whole_exchange_is_one_undo_step() -> None:
    engine = started()
    before = engine.encounter.model_dump(mode="json")
    strike(engine, "rook", "bandit-1")
    make(engine, 80)
    choose(engine, "bandit-1", "parry")
    make(engine, 50)
    assert hp(engine, "bandit-1") == 4
    assert engine.undo()
    assert engine.encounter.model_dump(mode="json") == before


# --- weapon destruction ---------------------------------------------------------------------------


def parried_with_the_club(engine: Engine, natural: int) -> None:
    """Rook's strike beats Bandit 1's parry with the Club (Club: damage 3, 3 HP)."""
    strike(engine, "rook", "bandit-1")
    make(engine, natural)
    choose(engine, "bandit-1", "parry-0")
    make(engine, 1)
    pending = engine.pending()
    assert pending is not None and [ch.id for ch in pending.choices] == ["weapon", "defender"]


def test_a_failed_parry_with_a_weapon_lets_the_attacker_strike_the_weapon() -> None:
    engine = started()
    parried_with_the_club(engine, 20)  # x0.5: 2 to the Club
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, choice="weapon")).ok
    assert status(engine, "bandit-1").weapon_hp == [1] and hp(engine, "bandit-1") == 10
    # The weaker-weapon option: a Club with 1 HP left deals 1.
    assert engine.apply(c.SetOption(option="weaker_weapons", value=True)).ok
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 30)
    choose(engine, "tariq", "none")
    make(engine)
    assert hp(engine, "tariq") == 12 - 1


def test_a_weapon_at_0_is_unusable_and_twice_its_damage_destroys_it() -> None:
    engine = started()
    parried_with_the_club(engine, 50)  # 4 to the Club: 0 HP, 4 of the 6 that destroy it
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, choice="weapon")).ok
    go_to(engine, "bandit-1")
    refused = engine.apply(dc.Strike(fighter_id="bandit-1", target_id="rook", weapon=0))
    assert refused.error == "Bandit 1's Club is broken (0 HP): unusable until repaired"
    # Repaired by the GM, then struck for 2 more: 6 in all, destroyed.
    forms = {f.id for f in engine.ruleset.views.action_forms(engine.encounter, "bandit-1")}
    assert "repair" in forms
    assert engine.apply(dc.RepairWeapon(fighter_id="bandit-1", weapon=0)).ok
    assert status(engine, "bandit-1").weapon_hp == [3]
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    parried_with_the_club(engine, 20)
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, choice="weapon")).ok
    assert status(engine, "bandit-1").weapon_harm == [6]
    assert engine.session.log[-1].summary == "Rook strikes Bandit 1's Club for 2: destroyed beyond repair"
    refused = engine.apply(dc.RepairWeapon(fighter_id="bandit-1", weapon=0))
    assert refused.error == "Bandit 1's Club is destroyed beyond repair"


def test_a_failed_parry_the_attacker_turns_on_the_defender() -> None:
    engine = started()
    parried_with_the_club(engine, 80)
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, choice="defender")).ok
    assert hp(engine, "bandit-1") == 10 - 6 and status(engine, "bandit-1").weapon_hp == []


# --- multiple weapons and projectile parry ----------------------------------------------------------


def test_a_strike_with_every_weapon_sums_their_damage_and_costs_twenty_on_defense() -> None:
    engine = started()
    go_to(engine, "tariq")
    out = engine.apply(dc.Strike(fighter_id="tariq", target_id="bandit-1", every_weapon=True))
    assert out.ok, out.error
    assert engine.ruleset.views.preview(engine.encounter, "strike", "tariq", {"target": "bandit-1"}).odds
    make(engine, 30)
    choose(engine, "bandit-1", "none")
    make(engine)
    assert hp(engine, "bandit-1") == 10 - 7  # Revolver 5 + Knife 2
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 50)
    choose(engine, "tariq", "dodge")
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == 15 - 20
    make(engine, 99)
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    assert status(engine, "tariq").defense_penalty == 0
    refused = engine.apply(dc.Strike(fighter_id="rook", target_id="bandit-1", every_weapon=True))
    assert refused.error == "Rook holds fewer than two weapons"


@pytest.mark.parametrize(("parry", "dodge_base"), [(90, -50), (40, -20)])
def test_parry_and_strike_uses_the_action_and_the_other_weapon(parry: int, dodge_base: int) -> None:
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 80)  # 85, outside the jacket
    choose(engine, "tariq", "parry+strike")
    assert status(engine, "tariq").actions == 0
    make(engine, parry)  # parry +0: 90 holds, 40 does not (club 3 x 1.5 hits)
    if parry == 40:  # the Knife parried: the attacker chooses the Knife or Tariq
        pending = engine.pending()
        assert pending is not None and [ch.id for ch in pending.choices] == ["weapon", "defender"]
        assert engine.apply(c.Answer(decision_id=pending.id, choice="defender")).ok
    assert hp(engine, "tariq") == (12 if parry == 90 else 12 - 4)
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "tariq" and roll.data["weapon"] == 0
    assert engine.ruleset.rules.contribution_options(engine.encounter, roll) == ()  # no counter
    make(engine, 40)  # Revolver: 50
    roll = engine.encounter.state.roll
    assert roll is not None and roll.base == dodge_base
    assert [o.kind for o in engine.ruleset.rules.contribution_options(engine.encounter, roll)] == \
        ["dodge", "none"]
    refused = engine.apply(c.Contribute(roll_id=roll.id, fighter_id="bandit-1",
                                        contribution="parry"))
    assert refused.error == "Bandit 1 cannot parry now"
    choose(engine, "bandit-1", "dodge")
    make(engine, 90)  # 90 + 5 + base: beats 50 only at -20
    assert hp(engine, "bandit-1") == (10 - 5 if dodge_base == -50 else 10)


def test_a_projectile_is_shot_down_but_not_a_bullet() -> None:
    engine = started()
    bow = {"name": "Shortbow", "damage": 3, "hp": 3, "kind": "projectile"}
    for fid in ("rook", "bandit-captain"):
        engine.encounter.fighters[fid].sheet.weapons.append(
            type(engine.encounter.fighters[fid].sheet.weapons[0]).model_validate(bow))
    strike(engine, "rook", "bandit-captain", weapon=1)
    make(engine, 50)  # 65
    roll = engine.encounter.state.roll
    assert roll is not None
    kinds = [o.kind for o in engine.ruleset.rules.contribution_options(engine.encounter, roll)]
    assert "shoot-down" in kinds
    choose(engine, "bandit-captain", "shoot-down")
    make(engine, 51)  # parry +15: 66 beats 65
    assert hp(engine, "bandit-captain") == 20
    assert engine.session.log[-1].summary == ("Bandit Captain shoots Rook's projectile down: "
                                              "both are destroyed")
    go_to(engine, "tariq")
    strike(engine, "tariq", "bandit-captain", weapon=0)  # the Revolver: bullets
    make(engine, 50)
    roll = engine.encounter.state.roll
    assert roll is not None
    kinds = [o.kind for o in engine.ruleset.rules.contribution_options(engine.encounter, roll)]
    assert "shoot-down" not in kinds


# --- alternative hit points ------------------------------------------------------------------------


def alternative() -> Engine:
    """Bandit 1 under the alternative rules: Build 12 (its health now), Hit Points 1,
    Recovery 1."""
    engine = fight()
    assert engine.apply(c.SetOption(option="alternative_hp", value=True)).ok
    bandit = engine.encounter.fighters["bandit-1"]
    bandit.sheet.build, bandit.sheet.hit_points_skill, bandit.sheet.recovery = 12, 1, 1
    bandit.status.hp = 12
    start(engine)
    return engine


@pytest.mark.parametrize(("attack", "critical"), [("physical", 2), ("energy", 0), ("mind", 5)])
def test_perceived_and_critical_damage_by_attack_kind(attack: str, critical: int) -> None:
    engine = alternative()
    engine.encounter.fighters["rook"].sheet.weapons[0].attack = attack
    strike(engine, "rook", "bandit-1")
    make(engine, 80)  # 6 perceived; 1/2, 1/4 or all of it critical, less Hit Points 1
    choose(engine, "bandit-1", "none")
    make(engine)
    assert status(engine, "bandit-1").critical == critical
    assert hp(engine, "bandit-1") == 12 - 6
    card = engine.ruleset.views.card(engine.encounter, "bandit-1")
    assert card.health_max == 12


def test_perceived_damage_recovers_only_down_to_the_critical_and_sleep_mends_it() -> None:
    engine = alternative()
    strike(engine, "rook", "bandit-1")
    make(engine, 80)
    choose(engine, "bandit-1", "none")
    make(engine)  # health 6, critical 2
    refused = engine.apply(dc.Recover(fighter_id="bandit-1", minutes=10))
    assert refused.error == "recovery is out of combat: end the round first"
    assert engine.apply(c.EndRound()).ok
    assert engine.apply(dc.Recover(fighter_id="bandit-1", minutes=10)).ok
    assert hp(engine, "bandit-1") == 12 - 2  # not past the critical damage
    assert engine.apply(dc.Recover(fighter_id="bandit-1", hours=1, medical=True)).ok
    assert status(engine, "bandit-1").critical == 0 and hp(engine, "bandit-1") == 12


def test_healing_factor_mends_critical_damage_by_the_minute() -> None:
    engine = alternative()
    engine.encounter.fighters["bandit-1"].sheet.healing_factor = True
    strike(engine, "rook", "bandit-1")
    make(engine, 80)
    choose(engine, "bandit-1", "none")
    make(engine)
    assert engine.apply(c.EndRound()).ok
    assert engine.apply(dc.Recover(fighter_id="bandit-1", minutes=2)).ok
    assert status(engine, "bandit-1").critical == 0 and hp(engine, "bandit-1") == 8


# --- the autopilot ------------------------------------------------------------------------------


def test_the_autopilot_counterstrikes_only_when_it_pays_and_else_picks_the_best_defense() -> None:
    import random

    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    rng = random.Random(1)
    engine.encounter.fighters["vesna"].sheet.counterstrike = -50  # a counter that hardly lands
    assert isinstance(engine.ruleset.autopilot.next_command(engine.encounter, rng), c.MakeRoll)
    engine.encounter.fighters["vesna"].sheet.counterstrike = 150  # the counter always lands
    pick = engine.ruleset.autopilot.next_command(engine.encounter, rng)
    assert isinstance(pick, c.Contribute) and pick.contribution == "counter-0"
    engine.encounter.fighters["vesna"].sheet.counterstrike = 20
    make(engine, 50)
    pick = engine.ruleset.autopilot.next_command(engine.encounter, rng)
    # Dodge and entangle are both +25: the entangle, which also holds the attacker.
    assert isinstance(pick, c.Contribute) and pick.contribution == "entangle"


def test_the_autopilot_strikes_where_it_expects_the_most_damage() -> None:
    import random

    engine = started()
    pick = engine.ruleset.autopilot.next_command(engine.encounter, random.Random(1))
    # Rook's Longsword: the Captain's plate (05-95) stops almost everything, the bandits'
    # quarter suits much less; the two bandits tie, so either.
    assert isinstance(pick, dc.Strike) and pick.target_id in ("bandit-1", "bandit-2")
    assert pick.weapon == 0 and not pick.fierce


def test_a_suit_of_armour_has_its_usual_range_and_one_suit_at_most() -> None:
    from pydantic import ValidationError

    from fightdesk.engine.rulesets.d100.model import D100Sheet

    sheet = D100Sheet.model_validate({"armour": {"name": "Mail", "suit": "half", "low": 1}})
    assert [(a.low, a.high) for a in sheet.armour] == [(25, 75)]  # an old file's one object
    assert D100Sheet.model_validate({"armour": None}).armour == []
    custom = D100Sheet.model_validate({"armour": [{"low": 30, "high": 60}]})
    assert (custom.armour[0].low, custom.armour[0].high) == (30, 60)
    with pytest.raises(ValidationError, match="at most 1 item"):
        D100Sheet.model_validate({"armour": [{"suit": "full"}, {"suit": "quarter"}]})


def test_a_loaded_fight_naming_a_weapon_the_sheet_lacks_is_refused() -> None:
    engine = started()
    assert engine.ruleset.rules.check_state(engine.encounter) == []
    engine.encounter.fighters["rook"].status.dropped = [3]
    assert engine.ruleset.rules.check_state(engine.encounter) == [
        ("fighters.rook.status.dropped", "names weapon 3, which the sheet does not have")]


def test_a_natural_01_to_10_with_every_weapon_drops_them_all() -> None:
    engine = started()
    go_to(engine, "tariq")
    assert engine.apply(dc.Strike(fighter_id="tariq", target_id="bandit-1", every_weapon=True)).ok
    make(engine, 4)
    assert status(engine, "tariq").dropped == [0, 1]
    refused = engine.apply(dc.Recover(fighter_id="tariq", minutes=5))
    assert refused.error == "recovery is part of the alternative hit point rules (Fight > Options)"


def test_make_roll_without_an_id_makes_the_waiting_one_or_says_none_waits() -> None:
    """The stack dialog's Resolve sends MakeRoll with no id: the roll waiting now; with
    none waiting it is refused in words, and a defense still to choose is refused too."""
    engine = started()
    refused = engine.apply(c.MakeRoll())
    assert refused.error == "that roll is no longer waiting (it was made or taken back)"
    strike(engine, "rook", "bandit-1")
    roll = engine.encounter.state.roll
    assert roll is not None and roll.data["kind"] == "strike"
    assert engine.apply(c.MakeRoll()).ok
    defense = engine.encounter.state.roll
    assert defense is not None and defense.data["kind"] == "defense"
    assert engine.apply(c.MakeRoll()).error == \
        "choose parry, dodge or entangle (or no defense) first"
