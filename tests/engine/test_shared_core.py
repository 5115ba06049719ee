"""The shared core: one registry, a fight's own data per ruleset, the turn order, the
pending roll, typed dice per roll and coins, driven through the engine by the drill
ruleset of tests/drill_ruleset.py (pinned dice: typed in, or a fixed seed)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import ValidationError

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Session, new_encounter
from fightdesk.engine.ruleset import RULESETS, Ruleset, get_ruleset
from fightdesk.engine.rulesets import BUILT_IN_POINTS, known_ids, registered
from fightdesk.engine.turn_ruleset import TurnAutopilot, TurnOrderRules, TurnViews
from fightdesk.engine.turns import current_fighter, slots
from fightdesk.storage.files import FileProblem
from fightdesk.storage.library import new_fighter
from fightdesk.storage.sessions import load_session, save_session
from tests.drill_ruleset import DrillEngine, Feint, Strike, drill_engine

# --- one registry, a fight's own data -------------------------------------------------------


def test_the_registry_finds_every_ruleset_through_its_entry_points() -> None:
    import tomllib
    from importlib.metadata import entry_points

    declared = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    built_in = declared["project"]["entry-points"]["fightdesk.rulesets"]
    assert tuple(built_in.items()) == BUILT_IN_POINTS
    installed = {p.name: p.value for p in entry_points(group="fightdesk.rulesets")}
    assert installed.items() >= built_in.items()  # the install is up to date
    assert set(known_ids()) == set(installed)
    for info in registered().values():
        assert get_ruleset(info.id).title == info.title and info.blurb


@pytest.mark.parametrize("ruleset", known_ids())
def test_a_new_fight_has_its_rulesets_own_parts(ruleset: str, tmp_path: Path) -> None:
    enc = new_encounter(ruleset, "Test")
    assert enc.ruleset == enc.options.ruleset == enc.state.ruleset == ruleset
    fighter = new_fighter(ruleset, "Kaede", "kaede")
    assert fighter.sheet.ruleset == fighter.status.ruleset == ruleset
    path = tmp_path / "f.json"
    save_session(Session.begin(enc), path)
    assert load_session(path).encounter == enc


def test_parts_of_another_ruleset_are_refused_naming_the_field(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="round state is for street-fighter"):
        Encounter.model_validate({"ruleset": "d100", "state": {"ruleset": "street-fighter"}})
    data = json.loads(Session.begin(new_encounter("d100")).model_dump_json())
    data["encounter"]["options"] = {"ruleset": "ashes"}
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FileProblem) as caught:
        load_session(path)
    assert caught.value.field == "encounter.options.ruleset"
    assert "for ashes, but the fight is d100" in str(caught.value)


def test_a_fighter_of_another_ruleset_is_refused(tmp_path: Path) -> None:
    data = json.loads(Session.begin(new_encounter("ashes")).model_dump_json())
    kaede = json.loads(new_fighter("roll-under", "Kaede", "kaede").model_dump_json())
    data["encounter"]["fighters"]["kaede"] = kaede
    data["encounter"]["order"] = ["kaede"]
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FileProblem) as caught:
        load_session(path)
    assert caught.value.field == "encounter.fighters.kaede.sheet.ruleset"


@pytest.mark.parametrize("ruleset", ["d100", "ashes"])
def test_a_ruleset_not_built_takes_fighters_but_does_not_start(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every ruleset is built now; the flag still guards a ruleset added before its rules:
    # its data models and the shared turn-order base, nothing of its own yet.
    class NotBuilt(TurnOrderRules):
        id = ruleset
        title = get_ruleset(ruleset).title
        rules_built = False

    rules = NotBuilt()
    views = TurnViews(rules)
    monkeypatch.setitem(RULESETS, ruleset, Ruleset(rules, views, TurnAutopilot(rules, views)))
    engine = Engine(Session.begin(new_encounter(ruleset)))
    fighter = new_fighter(ruleset, "Kaede").model_dump(mode="json")
    assert engine.apply(c.AddFighters(fighter=fighter, count=3)).ok
    assert engine.apply(c.SetValue(fighter_id="kaede-1", field="status.hp", value=3)).ok
    title = get_ruleset(ruleset).title
    out = engine.apply(c.StartRound())
    assert not out.ok and out.error == f"{title}: rules not built yet"
    controls = engine.ruleset.views.round_controls(engine.encounter)
    assert controls.status == f"{title}: rules not built yet"
    assert not (controls.can_start_round or controls.can_start_fight or controls.can_next_step)
    forms = engine.ruleset.views.action_forms(engine.encounter, "kaede-1")
    assert all(not f.enabled and f.reason == f"{title}: rules not built yet" for f in forms)
    card = engine.ruleset.views.card(engine.encounter, "kaede-1")
    assert (card.health, card.health_field) == (3, "status.hp")


def test_street_fighter_says_where_in_the_round_in_its_own_words() -> None:
    from fightdesk.storage.sessions import demo_session

    engine = Engine(demo_session())
    assert engine.apply(c.StartFight()).ok
    assert engine.session.log[-1].where == ""
    ruleset = engine.ruleset
    assert ruleset.views.stack_columns[2:5] == ("Die", "Speed", "EP spent")
    assert ruleset.views.role_labels["react"] == "Interrupt"


# --- turn order ---------------------------------------------------------------------------


def start(engine: DrillEngine, kaede: int | None = 5, brannock: int | None = 15) -> None:
    assert engine.apply(c.StartRound()).ok
    pending = engine.pending()
    assert pending is not None and [f.name for f in pending.fields] == ["kaede", "brannock"]
    out = engine.apply(c.Answer(decision_id="initiative", by="the players",
                                values={"kaede": kaede, "brannock": brannock}))
    assert out.ok, out.error


def test_initiative_rows_typed_or_rolled_split_the_round_in_two_sections() -> None:
    engine = drill_engine()
    start(engine, kaede=5, brannock=15)  # Kaede 5 <= Wisdom 13; Brannock 15 > 8
    order = engine.encounter.state.turns
    assert [(s.id, [x.fighter_id for x in s.slots]) for s in order.sections] == [
        ("quick", ["kaede"]), ("slow", ["brannock", "thug-1", "thug-2"])]
    assert current_fighter(order) == "kaede"
    # The answer rolled the initiative: it is filed under the initiative step.
    assert engine.session.log[-1].where == "initiative"
    rolls = [e.roll for e in engine.session.log[-1].events if e.roll]
    assert [(r.who, r.source, r.faces) for r in rolls] == [
        ("Kaede", "typed", [5]), ("Brannock", "typed", [15])]


def test_a_blank_initiative_row_is_rolled_by_the_app() -> None:
    engine = drill_engine(seed=3)
    start(engine, kaede=None, brannock=2)
    rolls = [e.roll for e in engine.session.log[-1].events if e.roll]
    assert [(r.who, r.source) for r in rolls] == [("Kaede", "app"), ("Brannock", "typed")]
    kaede_roll = rolls[0].faces[0]
    quick = [x.fighter_id for x in engine.encounter.state.turns.sections[0].slots]
    assert ("kaede" in quick) == (kaede_roll <= 13)


def test_turns_go_in_order_and_the_round_ends_after_the_last() -> None:
    engine = drill_engine()
    start(engine)
    seen = []
    for _ in range(4):
        seen.append(current_fighter(engine.encounter.state.turns))
        assert engine.apply(c.NextStep()).ok
    assert seen == ["kaede", "brannock", "thug-1", "thug-2"]
    assert engine.encounter.state.stage == "round-over"
    assert all(s.acted for s in slots(engine.encounter.state.turns))
    assert not engine.apply(c.NextStep()).ok


def test_a_turn_moves_inside_its_section_and_is_refused_across() -> None:
    engine = drill_engine()
    start(engine)
    out = engine.apply(c.MoveTurn(slot_id="thug-2", section="slow", index=0))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "GM moved Thug 2's turn (Slow, place 1)"
    assert [x.fighter_id for x in engine.encounter.state.turns.sections[1].slots] == [
        "thug-2", "brannock", "thug-1"]
    refused = engine.apply(c.MoveTurn(slot_id="thug-1", section="quick", index=0))
    assert not refused.ok
    assert refused.error == "Thug 1 cannot go there: a turn moves only inside its own section"
    assert engine.undo()
    assert [x.fighter_id for x in engine.encounter.state.turns.sections[1].slots] == [
        "brannock", "thug-1", "thug-2"]


def test_a_turn_that_was_taken_cannot_move() -> None:
    engine = drill_engine()
    start(engine)
    assert engine.apply(c.NextStep()).ok  # Kaede has acted
    out = engine.apply(c.MoveTurn(slot_id="kaede", section="quick", index=0))
    assert not out.ok and "already acted" in (out.error or "")


def test_a_held_turn_acts_right_after_the_named_fighter() -> None:
    engine = drill_engine()
    start(engine)
    assert engine.apply(c.NextStep()).ok  # Brannock's turn now
    out = engine.apply(c.HoldTurn(after="thug-1"))
    assert out.ok and out.entry is not None
    assert out.entry.summary == "Brannock holds to act right after Thug 1"
    assert current_fighter(engine.encounter.state.turns) == "thug-1"
    assert engine.apply(c.NextStep()).ok
    assert current_fighter(engine.encounter.state.turns) == "brannock"
    held = next(s for s in slots(engine.encounter.state.turns) if s.fighter_id == "brannock")
    assert held.after == "thug-1"
    assert engine.apply(c.NextStep()).ok
    assert current_fighter(engine.encounter.state.turns) == "thug-2"


def test_holding_for_someone_who_has_acted_is_refused() -> None:
    engine = drill_engine()
    start(engine)
    assert engine.apply(c.NextStep()).ok
    out = engine.apply(c.HoldTurn(after="kaede"))
    assert not out.ok and out.error == "Kaede has no turn left this round to hold for"


def test_the_turn_timer_passes_the_turn_and_a_late_timeout_is_refused() -> None:
    engine = drill_engine()
    engine.drill_rules.timer_seconds = 30
    start(engine)
    timed = engine.ruleset.rules.timed_turn(engine.encounter)
    assert timed is not None and timed[0] == "kaede"
    out = engine.apply(c.TurnTimeout(turn_number=timed[1]))
    assert out.ok and current_fighter(engine.encounter.state.turns) == "brannock"
    assert any(e.text == "Time is up: Kaede's turn passes" for e in out.entry.events)  # type: ignore[union-attr]
    late = engine.apply(c.TurnTimeout(turn_number=timed[1]))
    assert not late.ok and late.error == "that turn is already over"


def test_a_fighter_added_mid_round_gets_a_turn_at_the_end() -> None:
    engine = drill_engine()
    start(engine)
    rook = new_fighter("roll-under", "Rook").model_dump(mode="json")
    assert engine.apply(c.AddFighters(fighter=rook)).ok
    last = engine.encounter.state.turns.sections[-1].slots[-1]
    assert last.fighter_id == "rook"


# --- the pending roll ---------------------------------------------------------------------


def strike(engine: DrillEngine) -> int:
    start(engine)
    out = engine.apply(Strike(fighter_id="kaede", target_id="thug-1"))
    assert out.ok, out.error
    roll = engine.encounter.state.roll
    assert roll is not None
    return roll.id


def odds(engine: DrillEngine) -> Fraction:
    view = engine.ruleset.views.roll_view(engine.encounter)
    assert view is not None
    return view.odds[0].chance


def test_contributions_change_the_target_and_the_odds_and_cost_their_points() -> None:
    engine = drill_engine()
    roll_id = strike(engine)
    assert engine.encounter.state.roll.base == 13  # 14 - (11 - 10)
    assert odds(engine) == Fraction(13, 20)
    assert engine.apply(c.Contribute(roll_id=roll_id, fighter_id="brannock",
                                     contribution="assist", amount=2)).ok
    assert odds(engine) == Fraction(15, 20)
    assert engine.encounter.fighters["brannock"].status.assists == 1
    assert engine.apply(c.Contribute(roll_id=roll_id, fighter_id="thug-1",
                                     contribution="brace")).ok
    assert engine.encounter.state.roll.total == 13 and odds(engine) == Fraction(13, 20)
    view = engine.ruleset.views.roll_view(engine.encounter)
    assert view is not None
    assert [(r.who, r.label, r.amount) for r in view.contributions] == [
        ("Brannock", "assist", 2), ("Thug 1", "brace", -2)]
    assert view.total_line == "target 13 (13 + 0 from help)"
    # taken back: the target goes down again and the assists come back
    first = view.contributions[0].id
    assert engine.apply(c.Withdraw(roll_id=roll_id, contribution_id=first)).ok
    assert odds(engine) == Fraction(11, 20)
    assert engine.encounter.fighters["brannock"].status.assists == 3


def test_a_contribution_the_rules_forbid_changes_nothing() -> None:
    engine = drill_engine()
    roll_id = strike(engine)
    before = engine.encounter.model_copy(deep=True)
    for command, why in (
        (c.Contribute(roll_id=roll_id, fighter_id="kaede", contribution="assist", amount=1),
         "no self-assists: an ally assists"),
        (c.Contribute(roll_id=roll_id, fighter_id="brannock", contribution="assist", amount=4),
         "Brannock has 3 assist(s) left"),
        (c.Contribute(roll_id=roll_id, fighter_id="brannock", contribution="brace"),
         "only the target braces"),
        (c.Contribute(roll_id=roll_id + 1, fighter_id="brannock", contribution="assist", amount=1),
         "that roll is no longer waiting (it was made or taken back)"),
    ):
        out = engine.apply(command)
        assert (out.ok, out.error) == (False, why)
    assert engine.encounter == before


def test_the_player_types_the_strike_and_the_app_rolls_the_damage() -> None:
    engine = drill_engine(seed=11)
    roll_id = strike(engine)
    out = engine.apply(c.MakeRoll(roll_id=roll_id, dice=[[9]]))
    assert out.ok and out.entry is not None
    rolls = [e.roll for e in out.entry.events if e.roll]
    assert [(r.purpose, r.source) for r in rolls] == [
        ("Kaede strikes Thug 1", "typed"), ("damage", "app")]
    damage = rolls[1].faces[0]
    assert engine.encounter.fighters["thug-1"].status.hp == max(0, 6 - damage)
    assert engine.encounter.state.roll is None


def test_the_app_rolls_the_strike_and_the_gm_types_the_damage() -> None:
    engine = drill_engine(seed=11)
    roll_id = strike(engine)
    seed_face = None
    # A dry run tells the app's strike face without changing anything.
    check = engine.check(c.MakeRoll(roll_id=roll_id, dice=[[], [4]]))
    assert check.ok and check.entry is not None
    seed_face = next(e.roll for e in check.entry.events if e.roll).faces[0]
    out = engine.apply(c.MakeRoll(roll_id=roll_id, dice=[[], [4]]))
    assert out.ok and out.entry is not None
    rolls = [e.roll for e in out.entry.events if e.roll]
    assert rolls[0].source == "app" and rolls[0].faces[0] == seed_face
    if seed_face <= 13:
        assert (rolls[1].source, rolls[1].faces) == ("typed", [4])
        assert engine.encounter.fighters["thug-1"].status.hp == 2


def test_a_miss_does_no_damage_and_a_natural_one_dazes() -> None:
    engine = drill_engine()
    roll_id = strike(engine)
    out = engine.apply(c.MakeRoll(roll_id=roll_id, dice=[[20]]))
    assert out.ok and engine.encounter.fighters["thug-1"].status.hp == 6
    assert out.entry is not None and out.entry.summary == "Kaede strikes Thug 1: miss"
    engine = drill_engine()
    roll_id = strike(engine)
    assert engine.apply(c.MakeRoll(roll_id=roll_id, dice=[[1], [3]])).ok
    thug = engine.encounter.fighters["thug-1"].status
    assert thug.hp == 3 and [x.name for x in thug.conditions] == ["Dazed"]


def test_the_whole_exchange_is_one_undo_step() -> None:
    engine = drill_engine()
    start(engine)
    before = engine.encounter.model_copy(deep=True)
    roll_id = engine.encounter.state.next_roll_id
    assert engine.apply(Strike(fighter_id="kaede", target_id="thug-1")).ok
    assert engine.apply(c.Contribute(roll_id=roll_id, fighter_id="brannock",
                                     contribution="assist", amount=1)).ok
    assert engine.apply(c.MakeRoll(roll_id=roll_id, dice=[[3], [5]])).ok
    steps = {e.step for e in engine.session.log[-3:]}
    assert len(steps) == 1
    assert engine.undo()
    assert engine.encounter == before
    assert engine.redo()
    assert engine.encounter.fighters["thug-1"].status.hp == 1


def test_a_waiting_roll_blocks_the_next_turn() -> None:
    engine = drill_engine()
    strike(engine)
    out = engine.apply(c.NextStep())
    assert not out.ok and out.error == "a roll is waiting: make it or take it back first"


# --- coins -------------------------------------------------------------------------------


def test_coins_typed_as_heads_and_tails_show_flip_by_flip() -> None:
    engine = drill_engine()
    start(engine)
    out = engine.apply(Feint(fighter_id="kaede", target_id="thug-2", dice=[[2, 2]]))
    assert out.ok and out.entry is not None
    roll = next(e.roll for e in out.entry.events if e.roll)
    # The log describes a roll afresh, with the outcome set after it.
    assert roll.describe() == "Kaede: 2 coins for feint typed in [H H] -> 2 heads"
    assert engine.encounter.fighters["thug-2"].status.hp == 5
    assert engine.undo()
    out = engine.apply(Feint(fighter_id="kaede", target_id="thug-2", dice=[[2, 1]]))
    assert out.ok and engine.encounter.fighters["thug-2"].status.hp == 6
    bad = engine.apply(Feint(fighter_id="kaede", target_id="thug-2", dice=[[3, 1]]))
    assert not bad.ok and bad.error == "feint: type each coin as H or T"


def test_app_flipped_coins_read_heads_and_tails() -> None:
    engine = drill_engine(seed=5)
    start(engine)
    out = engine.apply(Feint(fighter_id="kaede", target_id="thug-2"))
    assert out.ok and out.entry is not None
    roll = next(e for e in out.entry.events if e.roll)
    assert roll.roll is not None and roll.roll.coins
    letters = roll.text.split("[")[1].split("]")[0].split()
    assert len(letters) == 2 and set(letters) <= {"H", "T"}
    assert "flipped" in roll.text


def test_a_typed_d100_00_is_100() -> None:
    from fightdesk.engine.dice import DiceTray

    tray = DiceTray(1, 0, [[100], [], [7]])
    first, second, third = tray.roll(1, 100), tray.roll(1, 100), tray.roll(1, 10)
    assert (first.faces, first.source, first.shown_faces) == ([100], "typed", ["00"])
    assert second.source == "app" and third.faces == [7]
    assert tray.unused_typed == 0


def test_an_out_of_order_fighter_may_be_moved_across_sections() -> None:
    from fightdesk.engine.model import Session as _Session
    from tests.drill_ruleset import DrillEngine as _Drill
    from tests.drill_ruleset import drill_session

    session: _Session = drill_session()
    session.encounter.fighters["thug-2"].sheet.acts_out_of_order = True
    session.start = session.encounter.model_copy(deep=True)
    engine = _Drill(session)
    start(engine)
    assert engine.apply(c.MoveTurn(slot_id="thug-2", section="quick", index=0)).ok
    assert [s.fighter_id for s in engine.encounter.state.turns.sections[0].slots] == [
        "thug-2", "kaede"]
    assert not engine.apply(c.MoveTurn(slot_id="thug-1", section="quick", index=0)).ok


def test_an_extra_turn_is_another_slot_of_the_same_fighter() -> None:
    from fightdesk.engine.changes import Transaction
    from fightdesk.engine.dice import DiceTray
    from fightdesk.engine.ruleset import Context
    from fightdesk.engine.turns import add_turn

    engine = drill_engine()
    start(engine)
    enc = engine.encounter
    ctx = Context(enc, Transaction(enc), DiceTray(0, 0))
    extra = add_turn(ctx, ("state", "turns"), "thug-1", "slow")
    assert (extra.id, extra.extra) == ("thug-1#2", True)
    assert [s.id for s in slots(enc.state.turns)][-1] == "thug-1#2"
    tl = engine.ruleset.views.timeline(enc)
    assert tl.lanes[-1].title == "Thug 1 (extra turn)"
    ctx.tx.rollback()
    assert "thug-1#2" not in [s.id for s in slots(enc.state.turns)]


def test_the_stack_columns_and_the_words_are_the_rulesets() -> None:
    from fightdesk.engine.ruleset import Views

    engine = drill_engine()
    assert engine.ruleset.views.stack_columns == Views.stack_columns
    assert engine.ruleset.views.role_labels["react"] == "Brace"
    forms = {f.id: f.role for f in engine.ruleset.views.action_forms(engine.encounter, "kaede")}
    assert forms == {"act": "act", "feint": "act", "hold-turn": "act", "react": "react"}
