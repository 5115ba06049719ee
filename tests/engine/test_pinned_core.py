"""Shared-core rules a mutation run found that no core test pinned (docs/testing.md
"Mutation testing"), driven through the engine by the drill ruleset of
tests/drill_ruleset.py with typed dice."""

from __future__ import annotations

import gc
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine import derived, simulate
from fightdesk.engine.base import Choice, Decision, DecisionField
from fightdesk.engine.changes import Change, LeanTransaction, RuleViolation
from fightdesk.engine.derived import kept
from fightdesk.engine.dice import DiceTray, Roll
from fightdesk.engine.engine import Engine, StepFailed
from fightdesk.engine.legal import answers
from fightdesk.engine.listeners import Listeners
from fightdesk.engine.model import Session, new_encounter, upgrade_entry_v1
from fightdesk.engine.notation import parse
from fightdesk.engine.odds import chart_multiplier, d100_hit_damage, opposed_successes
from fightdesk.engine.pending_roll import Contribution, PendingRoll, stack_rows
from fightdesk.engine.player_view import public_fight
from fightdesk.engine.ruleset import Card, Context, Odds, QuietContext, Rules, Views
from fightdesk.engine.simulate import play_fight
from fightdesk.engine.tables import TableProblem, default_tables, table_from_data
from fightdesk.engine.turns import current_fighter, slots
from fightdesk.storage.sessions import demo_session
from tests.drill_ruleset import DrillEngine, DrillRuleset, Strike, drill_engine, drill_session
from tests.hold_offered import hold_offered as _hold_offered


def _start(engine: DrillEngine) -> None:
    assert engine.apply(c.StartRound()).ok
    out = engine.apply(c.Answer(decision_id="initiative", by="the players",
                                values={"kaede": 5, "brannock": 15}))
    assert out.ok, out.error


def test_each_waiting_roll_and_each_contribution_has_its_own_id() -> None:
    """Contributions are taken back by their id, and a roll is named by its id: ids are
    never given twice, so a stale id reaches nothing."""
    engine = drill_engine()
    _start(engine)
    assert engine.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    first_roll = roll.id
    for _ in range(2):
        assert engine.apply(c.Contribute(roll_id=first_roll, fighter_id="brannock",
                                         contribution="assist", amount=1)).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    ids = [x.id for x in roll.contributions]
    assert len(set(ids)) == 2
    assert engine.apply(c.Withdraw(roll_id=first_roll, contribution_id=ids[1])).ok
    roll = engine.encounter.state.roll
    assert roll is not None and [x.id for x in roll.contributions] == [ids[0]]
    assert engine.apply(c.MakeRoll(roll_id=first_roll, dice=[[20]])).ok
    assert engine.apply(c.NextStep()).ok
    assert engine.apply(Strike(fighter_id="brannock", target_id="thug-1")).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.id != first_roll
    stale = engine.apply(c.Contribute(roll_id=first_roll, fighter_id="kaede",
                                      contribution="assist", amount=1))
    assert stale.error == "that roll is no longer waiting (it was made or taken back)"


# --- what a mutation run of the whole core found (docs/mutation/core.md) -------------------


class CoinDrill(DrillRuleset):
    """The drill, but a strike is one coin flipped by the app, waiting for help like any
    roll, and the GM may nudge it: the pending roll kit's coin path and the GM's own
    contribution, which no built-in ruleset uses in the core's tests."""

    def _strike(self, ctx: Context, command: Strike) -> None:
        me, foe = ctx.enc.fighters[command.fighter_id], ctx.enc.fighters[command.target_id]
        self.open_roll(ctx, PendingRoll(
            id=0, label=f"{me.name} tosses at {foe.name}", roller_id=None, what="coins",
            count=1, measure="advantage", base=0,
            data={"attacker": me.id, "target": foe.id}))

    def pay(self, ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str,
            amount: int) -> Contribution:
        if fighter_id is None:
            return Contribution(id=0, kind="nudge", label="nudge", amount=amount)
        return super().pay(ctx, roll, fighter_id, kind, amount)

    def roll_odds(self, enc: Any, roll: PendingRoll) -> tuple[Odds, ...]:
        return (Odds("heads", Fraction(1, 2)),)

    def resolve(self, ctx: Context, roll: PendingRoll, result: Roll) -> None:
        result.outcome = "heads" if result.faces == [2] else "tails"
        ctx.summary = f"{roll.label}: {result.outcome}"


def test_a_waiting_coin_roll_is_shown_flipped_by_the_app_and_logged_with_its_odds() -> None:
    """A waiting roll of one coin made by the app (docs/ARCHITECTURE.md "Pending roll"):
    the roll panel says who flips what ("The app", "1 coin"); the GM's own help is logged
    as the GM's; the roll is flipped, not rolled, and its line keeps the odds shown before
    it; a second roll cannot be opened while one waits."""
    engine = DrillEngine(drill_session(), CoinDrill())
    _start(engine)
    assert engine.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    view = engine.drill.views.roll_view(engine.encounter)
    assert view is not None
    assert (view.roller, view.dice, view.total_line, view.coins) == (
        "The app", "1 coin", "advantage 0", True)
    refused = engine.apply(Strike(fighter_id="kaede", target_id="thug-2"))
    assert refused.error == "another roll is still waiting to be made"
    roll_id = view.id
    out = engine.apply(c.Contribute(roll_id=roll_id, fighter_id=None, contribution="nudge",
                                    amount=1))
    assert out.ok, out.error
    assert engine.session.log[-1].summary == "GM: nudge +1 to Kaede tosses at Thug 1"
    view = engine.drill.views.roll_view(engine.encounter)
    assert view is not None and view.contributions[0].who == "GM"
    assert engine.apply(c.MakeRoll(roll_id=roll_id)).ok
    (event,) = [e for e in engine.session.log[-1].events if e.kind == "roll"]
    assert event.roll is not None and event.roll.coins and event.roll.count == 1
    assert event.data == {"odds": [["heads", "1/2"]]}


def test_a_turn_end_condition_counts_down_when_its_fighters_turn_ends() -> None:
    """Rounds of a condition that ticks at the end of its fighter's turn
    (docs/ARCHITECTURE.md "Conditions"): ending Kaede's turn takes her one-round
    condition off; nobody else's turn end does."""
    engine = drill_engine()
    _start(engine)
    assert current_fighter(engine.encounter.state.turns) == "kaede"
    for fid in ("kaede", "brannock"):
        out = engine.apply(c.AddCondition(fighter_id=fid, name="Winded", duration="rounds",
                                          rounds=1, tick="turn-end"))
        assert out.ok, out.error
    assert engine.apply(c.NextStep()).ok
    assert [x.name for x in engine.encounter.fighters["kaede"].status.conditions] == []
    assert [x.name for x in engine.encounter.fighters["brannock"].status.conditions] == ["Winded"]


def test_a_condition_name_may_have_sixty_characters_and_keeps_only_its_own_duration() -> None:
    """The longest name allowed is kept, and a condition that lasts rounds forgets the
    fighter an until-turn-end one would name (docs/ARCHITECTURE.md "Conditions")."""
    engine = drill_engine()
    name = "A" * 60
    out = engine.apply(c.AddCondition(fighter_id="kaede", name=name, duration="rounds",
                                      rounds=2, until_fighter="brannock"))
    assert out.ok, out.error
    (kept,) = engine.encounter.fighters["kaede"].status.conditions
    assert kept.name == name and kept.until_fighter is None and kept.rounds_left == 2


def test_an_empty_field_name_cannot_be_set() -> None:
    """The GM's override names a field; an empty name, or one starting with a dot, is
    refused as such (not as a missing field)."""
    engine = drill_engine()
    for field in ("", ".hp"):
        out = engine.apply(c.SetValue(fighter_id="kaede", field=field, value=1))
        assert out.error == f"{field!r} cannot be set"


def test_a_fighter_the_sheet_refuses_is_named_with_the_field_and_the_problem() -> None:
    """Adding fighters: a bad value is refused with the fighter's name, the field's path
    and pydantic's words for the problem."""
    engine = drill_engine()
    template = engine.encounter.fighters["thug-1"].model_dump(mode="json")
    template["name"] = "Bad Thug"
    template["status"]["hp"] = "lots"
    out = engine.apply(c.AddFighters(fighter=template, count=2))
    assert out.error == ("fighter 'Bad Thug': status.roll-under.hp: Input should be a "
                         "valid integer, unable to parse string as an integer")


def test_each_worker_process_plays_the_fights_it_is_given_as_one_process_would() -> None:
    """What a worker process of the simulator runs (engine/simulate.py), run here: the
    mutation tool cannot see into the processes the two-process test starts. The fights
    it plays are those ``play_fight`` plays with the same fight, ids, policy, round cap
    and seed."""
    encounter = demo_session().encounter
    enc_json = encounter.model_dump_json()
    ids = ("kaede", "brannock", "dock-thug-1", "dock-thug-2", "dock-thug-3")
    simulate._worker_start(simulate.fight_copies(encounter), ids, "autopilot", 2, 7)
    played = simulate._worker_play(range(1, 3))
    assert played == [play_fight(enc_json, ids, i, 7, "autopilot", 2) for i in (1, 2)]
    assert all(result.rounds <= 2 for result in played)


def test_the_lean_engine_flips_coins_without_a_log_line() -> None:
    """The simulator's quiet context (engine/ruleset.py) still flips every coin asked."""
    enc = drill_session().encounter
    quiet = QuietContext(enc, LeanTransaction(enc), DiceTray(3, 0))
    flips = quiet.flip(3, who="Kaede", purpose="feint")
    assert flips.coins and flips.count == 3 and len(flips.faces) == 3
    assert quiet.events == []


def test_a_bare_ruleset_refuses_every_command_by_name_and_shows_plain_cards() -> None:
    """The base class's defaults (engine/ruleset.py): no rule for any command (named by
    the ruleset's title, or its id without one), a card with the fighter's name and side
    and no health, and no turn timer."""

    class Bare(Rules):
        id = "bare"
        title = ""

    enc = drill_session().encounter
    bare = Bare()
    with pytest.raises(RuleViolation, match=r"^bare has no rule for 'drill-strike'$"):
        bare.handle(None, Strike(fighter_id="kaede", target_id="thug-1"))  # type: ignore[arg-type]
    assert Views(bare).card(enc, "kaede") == Card(fighter_id="kaede", title="Kaede", side="pc",
                                           health=0, health_max=0)
    assert bare.turn_timer(enc) == 0


def test_a_listener_that_unsubscribes_is_told_nothing_more() -> None:
    """Unsubscribing twice, or a callback never subscribed, is no error."""
    told: list[str] = []
    listeners: Listeners[str] = Listeners()
    listeners.subscribe(told.append)
    listeners.notify("one")
    listeners.unsubscribe(told.append)
    listeners.unsubscribe(told.append)
    listeners.unsubscribe(print)
    listeners.notify("two")
    assert told == ["one"]


def test_a_new_fight_is_called_new_fight_and_has_the_rulesets_tables() -> None:
    enc = new_encounter("d100")
    assert enc.name == "New fight"
    assert enc.tables == default_tables("d100") and enc.tables


@pytest.mark.parametrize(("entry", "phases_seen", "where"), [
    ({"round": 2, "phase": 7}, True, "phase 7"),
    ({"round": 2, "phase": True}, True, "True"),
    ({"round": 2, "phase": None}, True, "end of the phases"),
    ({"round": 2}, False, ""),
    ({"round": 0}, True, ""),
    ({"round": 1, "phase": "setup"}, True, "setup"),
    ({"round": 1, "phase": 3, "where": "kept"}, True, "kept"),
])
def test_a_schema_one_log_entry_says_where_in_schema_two_words(
        entry: dict[str, Any], phases_seen: bool, where: str) -> None:
    """Reading an old session (engine/model.py): a phase number becomes "phase N"; no
    phase after the round's phases began is the end of the phases; a where already
    there is kept; the old field is gone."""
    upgraded = upgrade_entry_v1(entry, phases_seen=phases_seen)
    assert upgraded["where"] == where and "phase" not in upgraded


def test_a_schema_one_log_entrys_events_get_their_new_kinds() -> None:
    """A phase event is a step; EP gained or spent are points of the EP pool (a pool a
    spend already names is kept); any other event, or anything not an event, is left."""
    events = [{"kind": "phase", "text": "Phase 7"},
              {"kind": "ep-gain", "text": "+1 EP", "data": {"amount": 1}},
              {"kind": "ep-spend", "text": "-2", "data": {"pool": "Chi"}},
              {"kind": "ep-spend", "text": "-1"},
              {"kind": "roll", "text": "2d10"}, "not an event"]
    upgraded = upgrade_entry_v1({"round": 1, "phase": 7, "events": events})["events"]
    assert upgraded == [{"kind": "step", "text": "Phase 7"},
                        {"kind": "points-gain", "text": "+1 EP",
                         "data": {"amount": 1, "pool": "EP"}},
                        {"kind": "points-spend", "text": "-2", "data": {"pool": "Chi"}},
                        {"kind": "points-spend", "text": "-1", "data": {"pool": "EP"}},
                        {"kind": "roll", "text": "2d10"}, "not an event"]
    assert events[1] == {"kind": "ep-gain", "text": "+1 EP", "data": {"amount": 1}}


def test_counting_successes_takes_one_kind_of_dice() -> None:
    """The roll notation (engine/notation.py): a success count names one kind of dice."""
    with pytest.raises(RuleViolation) as refused:
        parse("2d10+1d6>=6")
    assert str(refused.value) == "counting successes (>=) takes one kind of dice, like 5d10>=6"


def test_a_roll_of_no_dice_or_no_coins_says_so() -> None:
    assert "[no coins]" in Roll(count=0, sides=2, faces=[], coins=True).describe()
    assert "[no dice]" in Roll(count=0, sides=6, faces=[]).describe()


def test_a_gms_note_is_logged_as_a_note() -> None:
    engine = drill_engine()
    assert engine.apply(c.Note(text="the docks are slick")).ok
    (event,) = engine.session.log[-1].events
    assert (event.kind, event.text) == ("note", "the docks are slick")


def test_a_fighter_out_of_the_fight_early_in_the_order_hides_nobody_elses_actions() -> None:
    """The legal commands (engine/legal.py) skip a fighter who is out, and go on to the
    fighters after them in the order."""
    engine = drill_engine()
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.hp", value=0)).ok
    _start(engine)
    actor = current_fighter(engine.encounter.state.turns)
    assert actor not in (None, "kaede")
    by = {o.fighter_id for o in engine.drill.autopilot.legal_commands(engine.encounter)}
    assert actor in by and "kaede" not in by


def test_a_value_the_whole_model_refuses_is_named_by_the_field_written() -> None:
    """A GM override that breaks a check across fields (d100 armour's range, checked by
    the armour as a whole, docs/rulesets/d100.md#armour) is refused naming the field the
    GM wrote, since pydantic names none."""
    session = Session.model_validate_json(
        (Path(__file__).resolve().parents[2] / "resources" / "demo_d100.json").read_text())
    engine = Engine(session)
    out = engine.apply(c.SetValue(fighter_id="rook", field="sheet.armour.0.low", value=99))
    assert out.error == "low: Value error, the armour's range 99-75 runs backwards"


def test_a_turns_end_is_logged_as_the_few_fields_it_changed() -> None:
    """The log keeps the few values a step wrote (a log entry's size): ending
    Kaede's turn is her slot's ``acted`` and the turn order's ``current`` and
    ``turn_number``, not a copy of the turn order."""
    engine = drill_engine()
    _start(engine)
    assert engine.apply(c.NextStep()).ok
    changes = [(ch.target, ch.key) for ch in engine.session.log[-1].changes]
    assert changes == [(("state", "turns", "sections", 0, "slots", 0), "acted"),
                       (("state", "turns"), "current"), (("state", "turns"), "turn_number")]


def test_one_d100_hit_does_the_charts_share_of_the_weapon_less_toughness() -> None:
    """What one hit does (docs/rulesets/d100.md#damage, #damage-chart): the weapon's
    damage times the chart's multiplier for the natural roll, rounded down (x1 where a
    chart has no row), less Toughness outside the armour, never below 0."""
    assert chart_multiplier(((1, 50, Fraction(2)),), 60) == 1
    assert d100_hit_damage(9, 80) == (13, False)
    assert d100_hit_damage(9, 80, toughness=4) == (9, False)
    assert d100_hit_damage(9, 80, toughness=20) == (0, False)
    assert d100_hit_damage(9, 80, toughness=4, armour=(70, 85)) == (13, True)
    assert d100_hit_damage(-3, 95) == (0, False)


def test_an_undo_whose_changes_do_not_fit_says_why_and_changes_nothing() -> None:
    """A log entry naming a fighter the fight does not have (a damaged file): the undo is
    refused in one line naming the entry and what is missing."""
    engine = drill_engine()
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.hp", value=3)).ok
    engine.session.log[-1].changes.append(Change(target=("fighters", "ghost", "status"),
                                                 key="hp", op="set", before=1, after=2))
    with pytest.raises(StepFailed) as refused:
        engine.undo()
    assert str(refused.value) == ("Cannot undo \u201cGM set Kaede's hp to 3\u201d (log entry 0): "
                                  "no ghost in the fight; nothing was changed")
    assert engine.encounter.fighters["kaede"].status.hp == 3


def test_a_table_without_a_name_or_id_is_named_as_a_table() -> None:
    """A roll table's problems name the table by its name, or "table" without one, and
    the missing field in the GM's words (engine/tables.py)."""
    for data, message in (({"rows": []}, "table: id: is missing"),
                          ({"name": "Hits", "die": "d6"}, "table 'Hits': id: is missing"),
                          ({"name": "  ", "die": "d6"}, "table: id: is missing")):
        with pytest.raises(TableProblem) as refused:
            table_from_data(data)
        assert str(refused.value) == message


def test_a_pool_of_fewer_than_no_dice_is_refused_by_the_odds() -> None:
    for dice, against in ((-1, 2), (2, -1)):
        with pytest.raises(ValueError, match=r"^a pool cannot have fewer than 0 dice$"):
            opposed_successes(dice, against, ones_cancel=True)


def test_the_turn_order_needs_a_round_going_to_step_on() -> None:
    """docs/ARCHITECTURE.md "Turn order": Next Step before any round is refused."""
    engine = drill_engine()
    assert engine.apply(c.NextStep()).error == "no round is going: start one first"
    assert engine.apply(c.EndRound()).error == "no round is going"


def test_street_fighter_conditions_cannot_wait_for_a_turn() -> None:
    """No fighter turns (docs/rulesets/street-fighter.md#conditions-on-the-card), so a
    condition lasts rounds counted at the end of the round, or until removed; the refusal
    names the ruleset."""
    engine = Engine(demo_session())
    out = engine.apply(c.AddCondition(fighter_id="kaede", name="Dizzy",
                                      duration="until-turn-end", until_fighter="kaede"))
    assert out.error == ("Street Fighter has no fighter turns: Dizzy can last rounds counted "
                         "at the end of each round, or until removed")


def test_the_player_view_hides_every_hidden_name_even_inside_another() -> None:
    """engine/player_view.py: the longest hidden name is replaced first, so a hidden
    fighter whose name holds another hidden one's is still "someone"."""
    engine = drill_engine()
    for fid, name in (("thug-1", "Ab Bo"), ("thug-2", "Bo")):
        assert engine.apply(c.SetValue(fighter_id=fid, field="name", value=name)).ok
        assert engine.apply(c.HideFighter(fighter_id=fid)).ok
    assert engine.apply(c.RenameFight(name="Ab Bo and Bo on the docks")).ok
    view = public_fight(engine.drill, engine.encounter)
    assert view.title == "someone and someone on the docks"


def test_a_question_for_nobody_in_particular_is_answered_by_no_fighter() -> None:
    """The legal answers (engine/legal.py) of a decision that names no fighter (one the
    GM or the table answers) are given by "", for a choice, a form or an amount."""
    for decision in (Decision(id="d", prompt="Which?", choices=[Choice(id="a", label="A")]),
                     Decision(id="d", prompt="Rolls?", fields=[
                         DecisionField(name="x", label="X", minimum=1, maximum=2)]),
                     Decision(id="d", prompt="How many?", minimum=0, maximum=2)):
        option = answers(decision)
        assert (option.form_id, option.fighter_id) == ("answer", "")


def test_the_player_view_says_who_is_to_act_when_the_round_does_not() -> None:
    """engine/player_view.py: street-fighter's "phase 6" names nobody, so the headline
    adds who is acting (the autopilot's fight, seeded)."""
    engine = Engine(demo_session())
    rng = random.Random(1)
    for _ in range(20):  # the 20th: the phases go on after Kaede's own action dice
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None and engine.apply(command).ok
    view = public_fight(engine.ruleset, engine.encounter)
    assert view.headline == "Round 1 · phase 6 · Dock Thug 3 to act"


def test_a_fight_at_its_round_cap_can_still_be_simulated_from_a_bare_encounter() -> None:
    """docs/simulate.md: the simulator takes a fight (or its live encounter) whose round
    is not past the cap; the same fight gives the same result either way."""
    session = demo_session()
    session.encounter.round = 3
    by_session = simulate.simulate(session, fights=2, seed=4, max_rounds=3, workers=1)
    by_encounter = simulate.simulate(session.encounter, fights=2, seed=4, max_rounds=3,
                                     workers=1)
    assert by_session is not None and by_encounter is not None
    assert by_session.as_json() == by_encounter.as_json()


def test_a_list_item_the_model_refuses_is_refused_with_its_place_and_the_problem() -> None:
    """A GM override of one item of a list (engine/changes.py): a value the item's model
    refuses is a refusal naming the item's place and pydantic's words, and nothing
    changes."""
    engine = drill_engine()
    assert engine.apply(c.AddCondition(fighter_id="kaede", name="Winded")).ok
    out = engine.apply(c.SetValue(fighter_id="kaede", field="status.conditions.0",
                                  value="junk"))
    assert out.error == "0: Input should be a valid dictionary or instance of Condition"
    assert [x.name for x in engine.encounter.fighters["kaede"].status.conditions] == ["Winded"]


def test_the_simulators_progress_counts_the_fights_done_in_worker_processes() -> None:
    """docs/simulate.md: with two processes the progress still counts every fight done,
    up to all of them."""
    seen: list[tuple[int, int]] = []
    result = simulate.simulate(demo_session(), fights=4, seed=2, max_rounds=1, workers=2,
                               progress=lambda done, total: seen.append((done, total)))
    assert result is not None and seen and seen[-1] == (4, 4)
    assert all(total == 4 and 0 < done <= 4 for done, total in seen)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_a_simulated_fight_counts_who_went_down() -> None:
    """docs/simulate.md: each fight's result says which fighters went down (out of the
    fight, by the ruleset's rule) and the health each has left; the losing side is all
    down. The seeded demo fight 0: Kaede falls, and a dock thug with her."""
    enc_json = demo_session().encounter.model_dump_json()
    ids = ("kaede", "brannock", "dock-thug-1", "dock-thug-2", "dock-thug-3")
    result = play_fight(enc_json, ids, 0, 7, "autopilot", 20)
    assert result.winner == "enemies"
    assert result.down == (True, False, True, False, False)
    assert result.health == (0, 12, 0, 4, 4)


def test_a_fight_thrown_away_leaves_no_kept_answers_behind() -> None:
    """engine/derived.py keeps answers per fight state; when a fight is gone (a closed
    session, a simulated copy) its answers go with it, so long runs do not grow."""
    engine = drill_engine()
    enc = engine.encounter
    assert kept(enc, "probe", lambda root: len(root.fighters)) == 4
    key = id(enc)
    assert key in derived._kept
    del engine, enc
    gc.collect()
    assert key not in derived._kept


def test_an_answer_is_worked_out_once_per_state() -> None:
    """engine/derived.py: the views ask the same question many times per click; the
    answer is worked out once until the state changes (``forget``)."""
    engine = drill_engine()
    enc = engine.encounter
    calls: list[int] = []

    def work(root: Any) -> int:
        calls.append(1)
        return len(root.fighters)

    assert kept(enc, "probe", work) == kept(enc, "probe", work) == 4
    assert len(calls) == 1
    derived.forget(enc)
    assert kept(enc, "probe", work) == 4 and len(calls) == 2


def test_typed_dice_that_do_not_fit_name_the_roll_or_call_it_a_roll() -> None:
    """Typed faces are checked (engine/dice.py): the refusal names the roll's purpose, or
    "roll" when it has none."""
    for typed, message in (([[1, 2], [3]], "roll: typed 2 dice, expected 1d20"),
                           ([[25]], "roll: face 25 is not on a d20 (1..20)")):
        with pytest.raises(RuleViolation) as refused:
            DiceTray(0, 0, typed).roll(1, 20)
        assert str(refused.value) == message
    with pytest.raises(RuleViolation, match=r"^Wisdom: typed 2 dice, expected 1d20$"):
        DiceTray(0, 0, [[1, 2], [3]]).roll(1, 20, purpose="Wisdom")


def test_faces_typed_as_one_list_are_one_roll_each_where_each_roll_is_one_die() -> None:
    """engine/dice.py: "14 6" typed with no ';' is the first one-die roll's 14, then the
    next one's 6; a face no roll takes is left over for the engine to refuse."""
    tray = DiceTray(0, 0, [[14, 6]])
    assert tray.roll(1, 20).faces == [14] and tray.unused_typed == 1
    assert tray.roll(1, 6).faces == [6] and tray.unused_typed == 0
    left = DiceTray(0, 0, [[1, 2]])
    assert left.roll(1, 20).faces == [1] and left.unused_typed == 1


def test_a_waiting_rolls_stack_rows_are_the_roll_then_each_contribution_reacting_to_it(
) -> None:
    """The interrupt stack of a waiting roll (engine/pending_roll.py ``stack_rows``, used
    by every turn-order ruleset): the roll first, with what it reacts to, then each
    contribution with the number and the spending the ruleset reads from it."""
    enc = drill_session().encounter
    first, second = list(enc.fighters)[:2]
    roll = PendingRoll(id=4, label="Strike", roller_id=first, base=3, contributions=[
        Contribution(id=1, fighter_id=second, kind="defense", label="Parry", amount=-2,
                     cost="1 use", paid={"use": 1}),
        Contribution(id=2, fighter_id=None, kind="defense", label="Cover", amount=1)])
    rows = stack_rows(enc, roll, source="2 coins", choice="defense",
                      speed=lambda x: x.amount * 10, spent=lambda x: x.paid.get("use", 0),
                      reacts_to="Kestrel's charge")
    assert [(r.id, r.fighter_id, r.fighter, r.action, r.source, r.speed, r.spent, r.cost,
             r.reacts_to) for r in rows] == [
        ("roll-4", first, enc.name_of(first), "Strike", "2 coins", 2, 0, "",
         "Kestrel's charge"),
        ("defense-1", second, enc.name_of(second), "Parry", "", -20, 1, "1 use", "Strike"),
        ("defense-2", "", enc.name_of(None), "Cover", "", 10, 0, "", "Strike"),
    ]


def test_no_hold_while_the_fighters_own_roll_waits() -> None:
    """A turn is held before it is used: not while the roll of the fighter's action waits
    on the roll panel (the next turn would begin with that roll still open)."""
    engine = drill_engine()
    _start(engine)
    assert _hold_offered(engine, "kaede") == ""
    assert engine.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    assert _hold_offered(engine, "kaede") == "a roll is waiting: make it first"
    out = engine.apply(c.HoldTurn(after="brannock"))
    assert out.error == "Kaede cannot hold the turn: a roll is waiting: make it first"
    assert current_fighter(engine.encounter.state.turns) == "kaede"
    assert engine.encounter.state.roll is not None


def test_the_last_turn_taken_ends_the_round_in_the_gms_words() -> None:
    """After the last turn the round is over: the step's summary and its log line say
    every turn is taken, a round end (what autosave and the summaries read)."""
    engine = drill_engine()
    _start(engine)
    last = [s.fighter_id for s in slots(engine.encounter.state.turns)][-1]
    assert engine.apply(c.AddCondition(fighter_id=last, name="Dazed", duration="until-turn-end",
                                       until_fighter=last)).ok
    while engine.encounter.state.stage == "turns":
        assert engine.apply(c.NextStep()).ok
    entry = engine.session.log[-1]
    name = engine.encounter.name_of(last)
    assert entry.summary == "Round 1: every turn is taken"
    assert [(e.kind, e.text) for e in entry.events] == [
        ("condition-off", f"{name} is no longer dazed"),
        ("round-end", "Round 1: every turn is taken")]


def _order_of(engine: Engine) -> list[str]:
    return [s.fighter_id for s in slots(engine.encounter.state.turns)]


def _views(engine: Engine) -> tuple[object, ...]:
    """What the window shows of the fight: timeline, cards, forms, controls, who is next."""
    enc, rules = engine.encounter, engine.ruleset
    return (rules.views.timeline(enc), [rules.views.card(enc, f) for f in enc.order],
            [rules.views.action_forms(enc, f) for f in enc.order], rules.views.round_controls(enc),
            rules.rules.next_up(enc), rules.views.where(enc))


def _fresh_views(engine: DrillEngine) -> tuple[object, ...]:
    """The same views from a fresh engine opened on the same session."""
    return _views(DrillEngine(engine.session.model_copy(deep=True)))


def test_a_removed_fighter_takes_their_turns_out_of_the_order_and_undo_brings_them_back() -> None:
    """docs/rulesets/roll-under.md#removing-a-fighter: a fighter the GM removes leaves
    the turn order (their waiting turn is no longer anyone's), and undo puts the turn
    back where it was; the views equal a fresh engine's at each step."""
    engine = drill_engine()
    _start(engine)
    assert _order_of(engine) == ["kaede", "brannock", "thug-1", "thug-2"]
    before = _views(engine)
    assert engine.apply(c.RemoveFighter(fighter_id="thug-1")).ok
    assert _order_of(engine) == ["kaede", "brannock", "thug-2"]
    assert current_fighter(engine.encounter.state.turns) == "kaede"
    assert _views(engine) == _fresh_views(engine)
    assert engine.undo()
    assert _order_of(engine) == ["kaede", "brannock", "thug-1", "thug-2"]
    assert _views(engine) == before == _fresh_views(engine)
    assert engine.redo()
    assert _order_of(engine) == ["kaede", "brannock", "thug-2"]
    assert _views(engine) == _fresh_views(engine)


def test_removing_the_fighter_whose_turn_it_is_passes_the_turn() -> None:
    """docs/rulesets/roll-under.md#removing-a-fighter: the removed fighter's turn ends
    there (what lasts until the end of it ends) and the next waiting turn begins, in the
    same step; undo gives the turn back; removing the last turn's fighter ends the round."""
    engine = drill_engine()
    assert engine.apply(c.AddCondition(fighter_id="thug-1", name="Dazed",
                                       duration="until-turn-end", until_fighter="kaede")).ok
    _start(engine)
    number = engine.encounter.state.turns.turn_number
    out = engine.apply(c.RemoveFighter(fighter_id="kaede"))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "Removed Kaede"
    assert [(e.kind, e.text) for e in out.entry.events] == [
        ("roster", "Removed Kaede"),
        ("condition-off", "Thug 1 is no longer dazed"),
        ("step", "Brannock's turn")]
    order = engine.encounter.state.turns
    assert _order_of(engine) == ["brannock", "thug-1", "thug-2"]
    assert current_fighter(order) == "brannock" and order.turn_number == number + 1
    assert _views(engine) == _fresh_views(engine)
    assert engine.undo()
    assert current_fighter(engine.encounter.state.turns) == "kaede"
    assert _order_of(engine) == ["kaede", "brannock", "thug-1", "thug-2"]
    assert _views(engine) == _fresh_views(engine)
    assert engine.redo()
    assert current_fighter(engine.encounter.state.turns) == "brannock"
    assert _views(engine) == _fresh_views(engine)
    for _ in range(2):
        assert engine.apply(c.NextStep()).ok
    assert current_fighter(engine.encounter.state.turns) == "thug-2"
    last = engine.apply(c.RemoveFighter(fighter_id="thug-2"))
    assert last.entry is not None
    assert [(e.kind, e.text) for e in last.entry.events] == [
        ("roster", "Removed Thug 2"), ("round-end", "Round 1: every turn is taken")]
    assert engine.encounter.state.stage == "round-over"


def test_a_turn_held_for_a_fighter_who_is_removed_stays_put_and_reads_held() -> None:
    """docs/rulesets/roll-under.md#removing-a-fighter: a turn held to act after a fighter
    who then leaves stays where it was, and the timeline no longer names the one gone."""
    engine = drill_engine()
    _start(engine)
    assert engine.apply(c.HoldTurn(after="thug-1")).ok
    assert engine.apply(c.RemoveFighter(fighter_id="thug-1")).ok
    assert _order_of(engine) == ["brannock", "kaede", "thug-2"]
    lane = next(lane for lane in engine.ruleset.views.timeline(engine.encounter).lanes
                if lane.id == "kaede")
    assert lane.chips[0].label == "held"
    assert "held: the fighter it waited for has left the fight" in \
        lane.chips[0].tooltip.splitlines()
    assert engine.undo()
    lane = next(lane for lane in engine.ruleset.views.timeline(engine.encounter).lanes
                if lane.id == "kaede")
    assert lane.chips[0].label == "after Thug 1"


def test_a_hold_goes_after_the_named_fighters_turn_still_to_come_not_a_passed_one() -> None:
    """docs/rulesets/roll-under.md#holding: the held turn comes right after the named
    fighter's next turn, the turn after it comes next; a turn of theirs passed over
    earlier in the round (out of the fight then, healed since) does not come back."""
    from fightdesk.engine.turns import TurnSlot

    engine = drill_engine()
    _start(engine)
    assert engine.apply(c.SetValue(fighter_id="thug-1", field="status.hp", value=0)).ok
    for _ in range(2):
        assert engine.apply(c.NextStep()).ok
    assert current_fighter(engine.encounter.state.turns) == "thug-2"
    assert engine.apply(c.SetValue(fighter_id="thug-1", field="status.hp", value=6)).ok
    engine.encounter.state.turns.sections[-1].slots.append(TurnSlot(id="thug-1#2",
                                                                    fighter_id="thug-1"))
    assert engine.apply(c.HoldTurn(after="thug-1")).ok
    order = engine.encounter.state.turns
    assert [s.id for s in slots(order)] == ["kaede", "brannock", "thug-1", "thug-1#2", "thug-2"]
    assert order.current == "thug-1#2"
    assert engine.apply(c.NextStep()).ok
    assert engine.encounter.state.turns.current == "thug-2"
    assert engine.apply(c.NextStep()).ok
    assert engine.encounter.state.stage == "round-over"


def test_a_fighter_removed_while_their_roll_waits_passes_the_turn_once_it_is_made() -> None:
    """docs/rulesets/roll-under.md#removing-a-fighter: the roll of the removed fighter's
    action is still made (nobody's turn meanwhile, so nobody holds it); then Next turn
    gives the next waiting turn."""
    engine = drill_engine()
    _start(engine)
    assert engine.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert engine.apply(c.RemoveFighter(fighter_id="kaede")).ok
    order = engine.encounter.state.turns
    assert order.current is None and _order_of(engine) == ["brannock", "thug-1", "thug-2"]
    assert engine.apply(c.HoldTurn(after="brannock")).error == "nobody's turn to hold"
    assert engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[20]])).ok
    assert engine.apply(c.NextStep()).ok
    assert current_fighter(engine.encounter.state.turns) == "brannock"


def test_a_fighter_removed_during_their_turn_cannot_hold_it() -> None:
    """A fight saved with a removed fighter's turn still going on (before removal took
    the turn out of the order): that turn only passes."""
    engine = drill_engine()
    _start(engine)
    assert current_fighter(engine.encounter.state.turns) == "kaede"
    del engine.encounter.fighters["kaede"]
    engine.encounter.order.remove("kaede")
    out = engine.apply(c.HoldTurn(after="brannock"))
    assert out.error is not None and out.error.endswith("cannot hold the turn: no longer in the fight")
    assert engine.apply(c.NextStep()).ok
    assert current_fighter(engine.encounter.state.turns) == "brannock"


def test_the_hold_offers_only_fighters_in_the_fight_whose_turn_is_to_come() -> None:
    """docs/rulesets/roll-under.md#holding: a fighter out of the fight (their turns are
    passed over) or whose turn has come is no one to act after: the form does not list
    them and a hold for them is refused."""
    engine = drill_engine()
    _start(engine)
    assert engine.apply(c.SetValue(fighter_id="thug-1", field="status.hp", value=0)).ok
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "kaede")
                if f.id == "hold-turn")
    assert form.fields[0].choices == (("brannock", "Brannock"), ("thug-2", "Thug 2"))
    out = engine.apply(c.HoldTurn(after="thug-1"))
    assert out.error == "Kaede cannot hold for Thug 1: Thug 1 is out of the fight"
    assert engine.apply(c.NextStep()).ok
    out = engine.apply(c.HoldTurn(after="kaede"))
    assert out.error == "Kaede has no turn left this round to hold for"
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "brannock")
                if f.id == "hold-turn")
    assert form.fields[0].choices == (("thug-2", "Thug 2"),)
    assert engine.apply(c.HoldTurn(after="thug-2")).ok
    assert _order_of(engine) == ["kaede", "thug-1", "thug-2", "brannock"]


def test_the_hold_form_rolls_nothing() -> None:
    """Holding a turn rolls no dice: the form says so, and the window offers none."""
    engine = drill_engine()
    _start(engine)
    form = next(f for f in engine.ruleset.views.action_forms(engine.encounter, "kaede")
                if f.id == "hold-turn")
    assert form.rolls is False


def test_no_hold_while_a_question_waits_and_only_the_turn_going_on() -> None:
    """A question waiting in the middle of a turn is answered before the turn is held; a
    hold names the turn going on, not another waiting turn, nor the holder's own later
    turn (the GM drags those)."""
    from fightdesk.engine.turns import TurnSlot

    engine = drill_engine()
    _start(engine)
    enc = engine.encounter
    assert current_fighter(enc.state.turns) == "kaede"
    enc.state.pending = Decision(id="a-question", prompt="Which way?", choices=[
        Choice(id="left", label="Left")])
    assert _hold_offered(engine, "kaede") == "answer the question first"
    enc.state.pending = None
    enc.state.turns.sections[-1].slots.append(TurnSlot(id="kaede#2", fighter_id="kaede"))
    out = engine.apply(c.HoldTurn(after="brannock", slot_id="kaede#2"))
    assert out.error == "Kaede cannot hold the turn: only the turn going on now can be held"
    out = engine.apply(c.HoldTurn(after="kaede", slot_id="brannock"))
    assert out.error == "Brannock cannot hold the turn: only on the fighter's own turn"
    assert _hold_offered(engine, "kaede") == ""
