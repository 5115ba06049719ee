"""d100 readings pinned by scenario (docs/rulesets/d100.md#weapon-destruction,
#multiple-weapons, #obstacles): a weapon's hit points default to its damage, a weapon
destroyed beyond repair cannot parry, a failed parry in a parry-and-strike puts the
parrying weapon at risk, and full cover's +20 is on every defense roll, counterstrike
included."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.d100 import commands as dc
from fightdesk.engine.rulesets.d100.model import D100Weapon

from .fight import choose, go_to, make
from .test_rules import hp, started, status, strike


def test_a_weapon_given_without_hit_points_has_its_damage_as_hit_points() -> None:
    """"A weapons hit points is normally equal to the amount of damage it deals.\""""
    assert D100Weapon.model_validate({"name": "Spear", "damage": 4}).hp == 4
    assert D100Weapon.model_validate({"name": "Spear", "damage": 4, "hp": None}).hp == 4
    assert D100Weapon.model_validate({"name": "Spear", "damage": 4, "hp": 9}).hp == 9
    assert D100Weapon.model_validate({"name": "New 1"}).hp == 1  # the editor's blank row
    engine = started()
    fighter = engine.encounter.fighters["rook"].model_dump(mode="json")
    fighter["name"] = "Pikeman"
    fighter["sheet"]["weapons"] = [{"name": "Pike", "damage": 6}]
    assert engine.apply(c.AddFighters(fighter=fighter)).ok
    assert engine.encounter.fighters["pikeman"].sheet.weapons[0].hp == 6


def test_a_weapon_destroyed_beyond_repair_cannot_parry() -> None:
    """Dealt twice its damage in all, a Club of 10 HP still has 4 left but is destroyed."""
    engine = started()
    assert engine.apply(c.SetValue(fighter_id="bandit-1", field="sheet.weapons.0.hp",
                                   value=10)).ok
    assert engine.apply(c.SetValue(fighter_id="bandit-1", field="status.weapon_hp",
                                   value=[4])).ok
    assert engine.apply(c.SetValue(fighter_id="bandit-1", field="status.weapon_harm",
                                   value=[6])).ok
    strike(engine, "rook", "bandit-1")
    make(engine, 80)
    roll = engine.encounter.state.roll
    assert roll is not None
    kinds = [o.kind for o in engine.ruleset.rules.contribution_options(engine.encounter, roll)]
    assert "parry-0" not in kinds and "parry" in kinds
    refused = engine.apply(c.Contribute(roll_id=roll.id, fighter_id="bandit-1",
                                        contribution="parry-0"))
    assert refused.error == "Bandit 1 cannot parry-0 now"


def test_a_failed_parry_in_a_parry_and_strike_puts_the_parrying_weapon_at_risk() -> None:
    """Tariq parries with the Knife and strikes back with the Revolver; the parry fails:
    the attacker chooses the Knife or Tariq, then Tariq's strike comes (-20 to dodge)."""
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 80)  # 85
    choose(engine, "tariq", "parry+strike")
    make(engine, 40)  # parry +0: 40 does not beat 85
    pending = engine.pending()
    assert pending is not None and [ch.id for ch in pending.choices] == ["weapon", "defender"]
    assert "Knife" in pending.choices[0].label
    assert engine.apply(c.Answer(decision_id=pending.id, choice="weapon")).ok
    assert hp(engine, "tariq") == 12
    assert status(engine, "tariq").weapon_harm == [0, 4]  # club 3 x 1.5: beyond repair
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "tariq" and roll.data["weapon"] == 0
    make(engine, 40)
    assert engine.encounter.state.roll.base == -20


def test_full_cover_adds_twenty_to_a_counterstrike_too() -> None:
    """"Defense Roll - A dodge, parry, entangle, or counterstrike roll": Vesna behind full
    cover counters at 20 + 20. Bandit 1's strike: 55; her counter 35 + 40 = 75: both hit
    (without the cover, 55 would have let only the strike hit)."""
    engine = started()
    assert engine.apply(dc.SetCover(fighter_id="vesna", cover="full")).ok
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    choose(engine, "vesna", "counter-0")
    odds = engine.ruleset.rules.roll_odds(engine.encounter, engine.encounter.state.roll)
    from fightdesk.engine.odds import d100_counterstrike

    strike_bonus = engine.encounter.state.roll.total
    assert odds[0].chance == d100_counterstrike(strike_bonus, 40).only_attack
    make(engine, 50)
    roll = engine.encounter.state.roll
    assert roll is not None and roll.base == 40
    make(engine, 35)
    assert "both hit" in engine.session.log[-1].summary or any(
        "both hit" in e.text for e in engine.session.log[-1].events)


def test_health_typed_by_the_gm_seriously_wounds_at_once() -> None:
    """Tariq (12 HP) set to 2 is seriously wounded there and then: marked, his values
    halved in the defense he rolls now, not from the next round on."""
    engine = started()
    out = engine.apply(c.SetValue(fighter_id="tariq", field="status.hp", value=2))
    assert out.ok and status(engine, "tariq").wounded_round == 1
    card = engine.ruleset.views.card(engine.encounter, "tariq")
    assert any(r.label == "Seriously wounded" for r in card.resources)
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 50)
    choose(engine, "tariq", "dodge")
    assert engine.encounter.state.roll.total == 15 // 2
    make(engine, 1)
    assert engine.apply(c.SetValue(fighter_id="tariq", field="status.hp", value=12)).ok
    assert status(engine, "tariq").wounded_round is None


def test_a_borrowed_action_is_gained_and_spent_in_the_summary() -> None:
    """Vesna strikes (her action), then counterstrikes on next round's: the round's
    summary counts 2 actions, 1 action gained (borrowed) and 2 spent."""
    from fightdesk.report.summary import summarize

    engine = started()
    go_to(engine, "vesna")
    strike(engine, "vesna", "bandit-1", weapon=0)
    make(engine, 1)
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    choose(engine, "vesna", "counter")
    assert status(engine, "vesna").owes
    make(engine, 50)
    make(engine, 20)
    tally = next(t for t in summarize(engine.session, [1]).rounds[0].tallies
                 if t.fighter_id == "vesna")
    assert (tally.actions, tally.points_gained, tally.points_spent) == (2, 1, 2)
