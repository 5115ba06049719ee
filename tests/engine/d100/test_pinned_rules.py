"""d100 scenarios with pinned dice for rules the mutation run found unpinned
(docs/testing.md "Mutation testing", docs/mutation/d100.md): each names its rule and the
section of docs/rulesets/d100.md."""

from __future__ import annotations

import random

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.d100 import commands as dc
from tests.hold_offered import hold_offered

from .fight import choose, go_to, make
from .test_rules import alternative, entangled, hp, parried_with_the_club, started, status, strike


def rolls(engine: Engine) -> list[tuple[str, str, str]]:
    """The last step's rolls as (who, purpose, outcome)."""
    return [(e.roll.who, e.roll.purpose, e.roll.outcome)
            for e in engine.session.log[-1].events if e.roll is not None]


def test_breaking_free_logs_both_rolls_with_the_damage_skill() -> None:
    """docs/rulesets/d100.md#entangle: both roll 1d100 + Damage skill; the log says whose
    roll is which (the holder resists the break)."""
    engine = entangled()
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "bandit-1")
    assert engine.apply(dc.BreakFree(fighter_id="bandit-1", dice=[[60], [50]])).ok
    assert rolls(engine) == [
        ("Bandit 1", "breaking free (+ Damage skill)", "65"),
        ("Vesna", "resisting Bandit 1's breaking free (+ Damage skill)", "65"),
    ]
    assert engine.session.log[-1].summary == "Bandit 1 stays entangled by Vesna (65 to 65)"


def events(engine: Engine) -> list[tuple[str, str]]:
    """The last step's log lines as (kind, text)."""
    return [(e.kind, e.text) for e in engine.session.log[-1].events]


# --- weapon destruction ---------------------------------------------------------------------------


def test_the_autopilot_answers_the_weapon_question_in_its_own_name() -> None:
    """docs/rulesets/d100.md#autopilot: after a failed parry with a weapon it strikes the
    defender when the hit would reach them; the answer is logged as the autopilot's."""
    engine = started()
    parried_with_the_club(engine, 80)  # x1.5 outside the quarter suit: 6 to Bandit 1
    pending = engine.pending()
    assert pending is not None and pending.asks == "Rook's player"
    command = engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0))
    assert command == c.Answer(decision_id=pending.id, choice="defender", by="autopilot")


def test_the_gm_answers_the_weapon_question_for_an_enemy_attacker() -> None:
    """docs/rulesets/d100.md#weapon-destruction: the attacker chooses; for an enemy that
    is the GM."""
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "rook")
    make(engine, 80)
    choose(engine, "rook", "parry-0")
    make(engine, 1)
    pending = engine.pending()
    assert pending is not None and pending.asks == "the GM"
    assert pending.prompt == "Bandit 1's strike beat Rook's parry: strike the Longsword or Rook?"


def test_a_weapon_struck_to_0_is_logged_as_broken_until_repaired() -> None:
    """docs/rulesets/d100.md#weapon-destruction: at 0 hit points a weapon is unusable
    until the GM repairs it."""
    engine = started()
    parried_with_the_club(engine, 50)  # 4 to the Club's 3 HP
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, choice="weapon")).ok
    assert engine.session.log[-1].summary == ("Rook strikes Bandit 1's Club for 4: broken: "
                                              "unusable until repaired")
    card = engine.ruleset.views.card(engine.encounter, "bandit-1")
    club = [r for r in card.resources if r.label == "Club"]
    assert [(r.value, r.maximum) for r in club] == [(0, 3)]


# --- defenses -------------------------------------------------------------------------------------


def test_no_defense_is_shown_as_such_on_the_roll() -> None:
    """docs/rulesets/d100.md#the-exchange: no defense: nothing is rolled and the strike
    hits."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 30)
    choose(engine, "bandit-1", "none")
    roll = engine.encounter.state.roll
    assert roll is not None and [x.label for x in roll.contributions] == ["no defense"]
    make(engine)
    assert ("resolve", "Bandit 1 does not defend: Rook's strike hits") in events(engine)


def test_a_parry_and_strike_replaced_by_a_dodge_gives_the_action_back() -> None:
    """docs/rulesets/d100.md#multiple-weapons: parry and strike uses the action;
    docs/rulesets/d100.md#the-exchange: choosing again replaces the choice."""
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 80)
    choose(engine, "tariq", "parry+strike")
    assert ("interrupt", "Tariq will strike back with the other weapon") in events(engine)
    assert status(engine, "tariq").actions == 0
    choose(engine, "tariq", "dodge")
    assert status(engine, "tariq").actions == 1 and not status(engine, "tariq").owes


def test_parry_and_strike_after_the_action_borrows_and_says_so() -> None:
    """docs/rulesets/d100.md#actions: with no action left, a fighter borrows next
    round's, and the log says when it did."""
    engine = started()
    go_to(engine, "tariq")
    strike(engine, "tariq", "bandit-1", weapon=1)
    make(engine, 30)
    choose(engine, "bandit-1", "none")
    make(engine)
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 80)
    choose(engine, "tariq", "parry+strike")
    assert ("note", "Tariq borrows next round's action for a strike with the other weapon") \
        in events(engine)
    assert status(engine, "tariq").owes


def test_no_strike_back_from_a_defender_the_hit_put_out() -> None:
    """docs/rulesets/d100.md#multiple-weapons and #damage: a fighter at 0 hit points is
    out of the fight, so the other weapon's strike does not come."""
    engine = started()
    assert engine.apply(c.SetValue(fighter_id="tariq", field="status.hp", value=3)).ok
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "tariq")
    make(engine, 80)  # 85: club 3 x 1.5 = 4 outside the jacket
    choose(engine, "tariq", "parry+strike")
    make(engine, 40)  # 40 does not beat 85: the Knife parried, the attacker chooses
    pending = engine.pending()
    assert pending is not None
    assert engine.apply(c.Answer(decision_id=pending.id, choice="defender")).ok
    assert hp(engine, "tariq") == 0
    assert engine.encounter.state.roll is None


def test_a_shot_down_projectile_is_logged_as_a_note() -> None:
    """docs/rulesets/d100.md#projectile-parry: both projectiles are destroyed."""
    engine = started()
    bow = {"name": "Shortbow", "damage": 3, "hp": 3, "kind": "projectile"}
    for fid in ("rook", "bandit-captain"):
        sheet = engine.encounter.fighters[fid].sheet
        sheet.weapons.append(type(sheet.weapons[0]).model_validate(bow))
    strike(engine, "rook", "bandit-captain", weapon=1)
    make(engine, 50)
    choose(engine, "bandit-captain", "shoot-down")
    make(engine, 51)
    assert ("note", "bandit-captain",
            "Bandit Captain shoots Rook's projectile down: both are destroyed") in \
        [(e.kind, e.fighter_id, e.text) for e in engine.session.log[-1].events]


# --- the counterstrike ----------------------------------------------------------------------------


def test_only_the_one_struck_may_counterstrike() -> None:
    """docs/rulesets/d100.md#counterstrike: the defender declares it."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    roll = engine.encounter.state.roll
    assert roll is not None
    out = engine.apply(c.Contribute(roll_id=roll.id, fighter_id="bandit-2",
                                    contribution="counter"))
    assert out.error == "only the one struck may counterstrike"


def test_an_armed_counter_rolling_01_to_10_on_a_failed_strike_drops_the_weapon() -> None:
    """docs/rulesets/d100.md#counterstrike: against a natural 01-10 the counter is rolled
    at once (1d100); a counter whose own natural roll is 01-10 fails and an armed
    counter-striker drops the weapon."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    choose(engine, "bandit-1", "counter-0")
    roll = engine.encounter.state.roll
    assert roll is not None
    assert engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[5], [3]])).ok
    assert status(engine, "bandit-1").dropped == [0] and status(engine, "rook").dropped == [0]
    counter = [e.roll for e in engine.session.log[-1].events
               if e.roll is not None and e.roll.purpose == "Counterstrike against Rook"]
    assert [(r.count, r.sides, r.faces) for r in counter] == [(1, 100, [3])]
    assert ("resolve", "Bandit 1's counterstrike fails (natural 03): the weapon is dropped") \
        in events(engine)


# --- multiple weapons -----------------------------------------------------------------------------


def test_a_strike_with_every_weapon_has_the_first_weapons_attack_kind() -> None:
    """docs/rulesets/d100.md#alternative-hit-points: the critical share goes by the
    attack kind; a strike with every weapon takes the first weapon's."""
    engine = alternative()
    tariq = engine.encounter.fighters["tariq"].sheet
    tariq.weapons[0].attack, tariq.weapons[1].attack = "mind", "physical"
    go_to(engine, "tariq")
    out = engine.apply(dc.Strike(fighter_id="tariq", target_id="bandit-1", every_weapon=True))
    assert out.ok, out.error
    make(engine, 30)  # x1: 5 + 2 = 7
    choose(engine, "bandit-1", "none")
    make(engine)
    assert status(engine, "bandit-1").critical == 7 - 1  # mind: all of it, less Hit Points 1


def test_a_strike_with_every_weapon_counts_each_damaged_weapon_at_its_hit_points() -> None:
    """docs/rulesets/d100.md#weapon-destruction: with weaker_weapons a damaged weapon
    deals no more than its hit points now, in a strike with every weapon too."""
    engine = started()
    assert engine.apply(c.SetOption(option="weaker_weapons", value=True)).ok
    engine.encounter.fighters["tariq"].status.weapon_hp = [2, 2]
    go_to(engine, "tariq")
    out = engine.apply(dc.Strike(fighter_id="tariq", target_id="bandit-1", every_weapon=True))
    assert out.ok, out.error
    make(engine, 30)
    choose(engine, "bandit-1", "none")
    make(engine)
    assert hp(engine, "bandit-1") == 10 - (2 + 2)  # the Revolver at 2 HP, the Knife 2


# --- the autopilot --------------------------------------------------------------------------------


def test_the_autopilot_weighs_a_counterstrike_on_the_fights_own_damage_chart() -> None:
    """docs/rulesets/d100.md#autopilot: it counterstrikes when that pays against its best
    defense, reckoned on the fight's damage chart (docs/rulesets/d100.md#damage-chart):
    on a chart where every hit does triple, Bandit 1 counters Rook's Longsword (on the
    shipped chart it parries)."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    roll = engine.encounter.state.roll
    assert roll is not None
    shipped = engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0))
    assert shipped == c.MakeRoll(roll_id=roll.id)
    table = engine.encounter.tables["damage-chart"].model_dump(mode="json")
    for row in table["rows"][1:]:
        row["effect"] = "x3"
    assert engine.apply(c.SetTable(table=table)).ok
    deadly = engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0))
    assert deadly == c.Contribute(roll_id=roll.id, fighter_id="bandit-1",
                                  contribution="counter-0", amount=0)


def test_the_autopilot_ends_a_turn_with_no_foe_left_standing() -> None:
    """docs/rulesets/d100.md#autopilot: it strikes a foe, else ends its turn."""
    engine = started()
    for fid in ("bandit-captain", "bandit-1", "bandit-2"):
        assert engine.apply(c.SetValue(fighter_id=fid, field="status.hp", value=0)).ok
    assert engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0)) == c.NextStep()


def test_a_strike_whose_attacker_left_the_fight_does_nothing() -> None:
    """docs/rulesets/d100.md#the-exchange: the strike's damage needs its attacker; one
    the GM removed while the defense waits deals none."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 30)
    assert engine.apply(c.RemoveFighter(fighter_id="rook")).ok
    choose(engine, "bandit-1", "none")
    make(engine)
    assert hp(engine, "bandit-1") == 10 and engine.encounter.state.roll is None


# --- the forms, cards and previews ----------------------------------------------------------------


def test_the_gm_forms_build_recovery_and_cover() -> None:
    """docs/rulesets/d100.md#alternative-hit-points (recovery) and #obstacles (cover):
    the card's GM forms become these commands."""
    rules = started().ruleset
    assert rules.views.build_command("recover", "rook", {"minutes": 5, "hours": 2, "medical": True}) \
        == dc.Recover(fighter_id="rook", minutes=5, hours=2, medical=True)
    assert rules.views.build_command("cover", "rook", {"cover": "full"}) == \
        dc.SetCover(fighter_id="rook", cover="full")


def test_the_card_says_when_next_rounds_action_is_borrowed() -> None:
    """docs/rulesets/d100.md#actions: the card shows "Borrowed" while next round's action
    is spent."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 5)
    assert engine.apply(dc.PickUp(fighter_id="rook")).ok
    card = engine.ruleset.views.card(engine.encounter, "rook")
    assert [(r.label, r.value) for r in card.resources if r.label in ("Action", "Borrowed")] \
        == [("Action", 0), ("Borrowed", 1)]


def test_the_strike_preview_counts_full_cover_on_every_defense() -> None:
    """docs/rulesets/d100.md#obstacles: full cover gives +20 to the defense roll."""
    engine = started()
    assert engine.apply(dc.SetCover(fighter_id="bandit-1", cover="full")).ok
    shown = engine.ruleset.views.preview(engine.encounter, "strike", "rook",
                                   {"target": "bandit-1", "weapon": "0"})
    assert "Bandit 1 is behind full cover: striking around it gives +20 to the defense" \
        in shown.lines
    assert [o.label for o in shown.odds][:3] == ["hits against a parry +25",
                                                 "hits against a dodge +25",
                                                 "hits against an entangle +20"]


def test_the_disarm_and_recovery_previews() -> None:
    """docs/rulesets/d100.md#entangle (the disarm's odds) and #alternative-hit-points
    (recovery's rates)."""
    engine = entangled()
    shown = engine.ruleset.views.preview(engine.encounter, "disarm", "vesna", {"target": "bandit-1"})
    assert shown.lines == ("Vesna 1d100 +15 must beat 1.5 x Bandit 1's 1d100 +5",)
    recover = engine.ruleset.views.preview(engine.encounter, "recover", "rook", {})
    assert recover.lines == (f"Rook recovers {engine.encounter.fighters['rook'].sheet.recovery} "
                             "a minute (perceived) and an hour of sleep (critical)",)


def test_armour_damage_is_logged_against_the_wearer() -> None:
    """docs/rulesets/d100.md#armour: the armour takes the hit; the round summary reads
    whose armour from the log line."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 50)
    choose(engine, "bandit-1", "none")
    make(engine)
    line = [e for e in engine.session.log[-1].events if e.kind == "damage"]
    assert [(e.text, e.data) for e in line] == [
        ("Bandit 1's armour takes 4 damage (0 left)",
         {"target": "bandit-1", "amount": 0, "source": "rook"})]


def test_the_roll_panel_names_each_defense_the_strike_must_beat() -> None:
    """docs/rulesets/d100.md#the-exchange: the panel shows the chance the strike hits
    against each defense, and of a natural 01-10."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    roll = engine.encounter.state.roll
    assert roll is not None
    assert [o.label for o in engine.ruleset.rules.roll_odds(engine.encounter, roll)] == [
        "natural 01-10, fails", "hits against a parry", "hits against a dodge",
        "hits against an entangle"]


# --- a second, larger sample ----------------------------------------------------------------------


def test_a_hit_inside_partial_cover_is_logged_as_no_damage() -> None:
    """docs/rulesets/d100.md#obstacles: a hit whose natural roll is inside the partial
    cover's range does nothing."""
    engine = started()
    assert engine.apply(dc.SetCover(fighter_id="bandit-1", cover="partial")).ok
    strike(engine, "rook", "bandit-1")
    make(engine, 35)
    choose(engine, "bandit-1", "none")
    make(engine)
    assert ("resolve", "Rook hits Bandit 1's cover (natural 35): no damage") in events(engine)


def test_an_unknown_defense_is_refused_by_name() -> None:
    """docs/rulesets/d100.md#the-exchange: parry, dodge, entangle or no defense."""
    engine = started()
    strike(engine, "rook", "bandit-1")
    make(engine, 30)
    roll = engine.encounter.state.roll
    assert roll is not None
    out = engine.apply(c.Contribute(roll_id=roll.id, fighter_id="bandit-1",
                                    contribution="block"))
    assert out.error == "no defense 'block': parry, dodge, entangle or none"


def test_the_strike_line_and_the_counter_roll_say_what_they_are() -> None:
    """docs/rulesets/d100.md#the-exchange (the strike, logged as a strike) and
    #counterstrike (the counter rolls 1d100 + counterstrike bonus against the strike)."""
    engine = started()
    go_to(engine, "bandit-1")
    strike(engine, "bandit-1", "vesna")
    act = [e for e in engine.session.log[-1].events if e.kind == "act"]
    assert [e.data for e in act] == [{"maneuver": "strike"}]
    choose(engine, "vesna", "counter-0")
    make(engine, 50)
    view = engine.ruleset.views.roll_view(engine.encounter)
    assert view is not None and view.total_line == "counterstrike +20 against a strike total of 55"


def test_a_disarm_with_no_action_left_is_refused() -> None:
    """docs/rulesets/d100.md#actions and #entangle: a disarm is the entangler's action;
    with next round's already borrowed there is none to use."""
    engine = entangled()
    assert engine.apply(c.EndRound()).ok and engine.apply(c.StartRound()).ok
    go_to(engine, "vesna")
    vesna = status(engine, "vesna")
    vesna.actions, vesna.owes = 0, True
    out = engine.apply(dc.Disarm(fighter_id="vesna", target_id="bandit-1"))
    assert out.error == ("Vesna has no action left for a disarm (next round's action is "
                         "already borrowed)")


def test_holding_the_turn_previews_as_in_every_ruleset() -> None:
    """docs/rulesets/d100.md#initiative: the turn order is the shared one, holding
    included."""
    engine = started()
    shown = engine.ruleset.views.preview(engine.encounter, "hold-turn", "rook", {"after": "vesna"})
    assert shown is not None and shown.lines == ("Rook waits and acts right after Vesna's turn",)


def test_a_destroyed_weapon_shows_on_the_card() -> None:
    """docs/rulesets/d100.md#weapon-destruction: dealt twice its damage in all, a weapon is
    destroyed beyond repair; the card lists it."""
    engine = started()
    bandit = status(engine, "bandit-1")
    bandit.weapon_hp, bandit.weapon_harm = [0], [6]
    card = engine.ruleset.views.card(engine.encounter, "bandit-1")
    assert [(r.value, r.maximum, r.tooltip) for r in card.resources if r.label == "Club"] == \
        [(0, 3, "Destroyed beyond repair")]


def test_the_autopilot_weighs_a_counter_against_the_fierce_strikes_extra_damage() -> None:
    """docs/rulesets/d100.md#autopilot and #fierce-strikes: a Fierce strike does +1
    damage, so the hit a counter lets through costs more: at the same strike bonus (-5),
    Bandit 1 counters a plain punch but not a Fierce one."""
    engine = started()
    engine.encounter.fighters["rook"].sheet.strike = 15 - 20
    strike(engine, "rook", "bandit-1", weapon=None)
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == -5
    assert engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0)) == c.Contribute(
        roll_id=roll.id, fighter_id="bandit-1", contribution="counter-0", amount=0)
    engine = started()
    strike(engine, "rook", "bandit-1", weapon=None, fierce=True)
    roll = engine.encounter.state.roll
    assert roll is not None and roll.total == -5
    assert engine.ruleset.autopilot.next_command(engine.encounter, random.Random(0)) == c.MakeRoll(
        roll_id=roll.id)


def test_a_turn_is_held_only_while_this_rounds_action_is_unused() -> None:
    """Holding keeps the round's action for later: not while the strike's roll waits,
    not after the strike, not after a counterstrike used the action before the turn
    (docs/rulesets/d100.md#holding)."""
    engine = started()
    assert hold_offered(engine, "rook") == ""
    strike(engine, "rook", "bandit-2")
    assert hold_offered(engine, "rook") == "a roll is waiting: make it first"
    assert engine.apply(c.HoldTurn(after="vesna")).error == \
        "Rook cannot hold the turn: a roll is waiting: make it first"
    choose(engine, "bandit-2", "counter")
    make(engine, 50)
    make(engine, 7)  # the counter's own 01-10 fails
    assert engine.encounter.state.roll is None and status(engine, "bandit-2").actions == 0
    assert hold_offered(engine, "rook") == "no action left this round to hold"
    assert engine.apply(c.HoldTurn(after="vesna")).error == \
        "Rook cannot hold the turn: no action left this round to hold"
    go_to(engine, "bandit-2")
    assert hold_offered(engine, "bandit-2") == "no action left this round to hold"


def test_no_hold_while_a_question_of_the_turn_waits() -> None:
    """The attacker's choice after a failed parry with a weapon is part of the turn: no
    hold until it is answered (docs/rulesets/d100.md#holding)."""
    engine = started()
    parried_with_the_club(engine, 20)
    assert hold_offered(engine, "rook") == "answer the question first"
    assert engine.apply(c.HoldTurn(after="vesna")).error == \
        "Rook cannot hold the turn: answer the question first"


def test_the_title_names_the_round_whose_initiative_is_asked() -> None:
    """Each round's initiative is asked before the round begins: the title says the round
    the question is for, not "Before the fight" or the round just over
    (docs/rulesets/d100.md#initiative)."""
    from fightdesk.storage.sessions import load_session

    from .fight import DEMO

    engine = Engine(load_session(DEMO))  # method B: the table rolls each round
    assert engine.apply(c.StartFight()).ok
    pending = engine.pending()
    assert pending is not None and pending.prompt.startswith("Round 1 initiative")
    assert engine.ruleset.views.describe_state(engine.encounter) == "Round 1 · initiative"
    assert engine.apply(c.Answer(decision_id=pending.id, values={}, by="the table")).ok
    assert engine.encounter.round == 1
    while engine.encounter.state.stage == "turns":
        assert engine.apply(c.NextStep()).ok
    assert engine.apply(c.StartRound()).ok
    pending = engine.pending()
    assert pending is not None and pending.prompt.startswith("Round 2 initiative")
    assert engine.ruleset.views.describe_state(engine.encounter) == "Round 2 · initiative"
