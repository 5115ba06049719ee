"""Roll-under readings pinned by scenario (docs/rulesets/roll-under.md#surprise,
#assists, #initiative, #hit-points): who acts in the surprise step (a whole side picked at
once or fighter by fighter), assists by level, the "assists after the roll" option, the
Wisdom roll's exact chance, and HP never above 20."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.roll_under import commands as ru
from fightdesk.engine.rulesets.roll_under.model import RollUnderSheet
from fightdesk.engine.rulesets.roll_under.rules import AMBUSH_FIELD
from fightdesk.storage.library import new_fighter

from .fight import begin, fight, start
from .test_rules import roll_id


def test_an_unsurprisable_fighter_on_the_ambushers_side_does_not_act_in_the_surprise() -> None:
    """"Unless the targets being ambushed have an ability to not be surprised": the
    Enforcer, on the Rent-A-Cop's own side, is no target; Ana, a target, acts."""
    engine = fight()
    engine.encounter.fighters["enforcer"].sheet.immune_to_surprise = True
    engine.encounter.fighters["ana"].sheet.immune_to_surprise = True
    assert engine.apply(ru.SetAmbusher(fighter_id="rent-a-cop")).ok
    assert begin(engine).ok
    order = engine.encounter.state.turns
    assert [[s.fighter_id for s in sec.slots] for sec in order.sections] == [
        ["rent-a-cop", "ana"]]


ROSTER = ("miguel", "ana", "rent-a-cop", "enforcer", "mook-1", "mook-2")


@settings(max_examples=40, deadline=None)
@given(side=st.sampled_from(["nobody", "party", "enemies", "picked"]),
       marks=st.fixed_dictionaries({fid: st.booleans() for fid in ROSTER}),
       rows=st.fixed_dictionaries({fid: st.sampled_from(["yes", "no"]) for fid in ROSTER}))
def test_the_ambushers_are_the_side_picked_or_the_rows_as_picked(
        side: str, marks: dict[str, bool], rows: dict[str, str]) -> None:
    """Whatever the fighters were marked and the rows say: a side picked makes exactly
    that side the ambushers, "Nobody" none, and only "As picked below" reads the rows; the
    surprise step is there exactly when someone ambushes."""
    engine = fight()
    enc = engine.encounter
    for fid, marked in marks.items():
        enc.fighters[fid].status.ambusher = marked
    assert engine.apply(c.StartFight()).ok
    pending = engine.pending()
    assert pending is not None and pending.fields[0].name == AMBUSH_FIELD
    assert pending.fields[0].default == ("picked" if any(marks.values()) else "nobody")
    out = engine.apply(c.Answer(decision_id=pending.id, values={AMBUSH_FIELD: side, **rows}))
    assert out.ok, out.error
    expected = {"nobody": set(), "party": {"miguel", "ana"},
                "enemies": {"rent-a-cop", "enforcer", "mook-1", "mook-2"},
                "picked": {fid for fid, row in rows.items() if row == "yes"}}[side]
    assert {fid for fid in ROSTER if enc.fighters[fid].status.ambusher} == expected
    assert bool(enc.state.surprise) == bool(expected)


def test_a_side_the_question_does_not_offer_is_refused_by_name() -> None:
    """An answer naming no offered side is refused with what the question offers; the
    question still waits and nothing is marked."""
    engine = fight()
    assert engine.apply(c.StartFight()).ok
    out = engine.apply(c.Answer(decision_id="surprise", values={AMBUSH_FIELD: "everyone"}))
    assert not out.ok and out.error is not None
    assert "who attacks by surprise" in out.error and "'everyone'" in out.error
    assert "'party'" in out.error
    pending = engine.pending()
    assert pending is not None and pending.id == "surprise"
    assert not any(f.status.ambusher for f in engine.encounter.fighters.values())


def test_assists_follow_the_level_from_level_five() -> None:
    """Level - 4 from level 5 (5: 1, 6: 2, 10: 6) when the sheet gives none."""
    assert [RollUnderSheet.model_validate({"level": n}).assists for n in (1, 4, 5, 6, 10)] == \
        [0, 0, 1, 2, 6]
    assert RollUnderSheet.model_validate({"level": 10, "assists": 1}).assists == 1


def test_a_fresh_level_six_fighter_can_spend_two_assists() -> None:
    """Made level 6 in the editor (a GM change of the level): 2 assists, both spendable;
    a count the GM set stays when the level changes again."""
    engine = fight(without=("miguel",))
    kit = new_fighter("roll-under", "Kit", "kit").model_dump(mode="json")
    kit["side"] = "pc"
    assert engine.apply(c.AddFighters(fighter=kit)).ok
    assert engine.apply(c.SetValue(fighter_id="kit", field="sheet.level", value=6)).ok
    fighter = engine.encounter.fighters["kit"]
    assert (fighter.sheet.assists, fighter.status.assists) == (2, 2)
    start(engine, ana=20, kit=20)
    for _ in range(6):  # to the Rent-A-Cop's turn: he attacks Ana, Kit helps her
        if engine.ruleset.views.where(engine.encounter).endswith("Rent-A-Cop's turn"):
            break
        assert engine.apply(c.NextStep()).ok
    assert engine.apply(ru.Attack(fighter_id="rent-a-cop", target_id="ana", weapon=0)).ok
    out = engine.apply(c.Contribute(roll_id=roll_id(engine), fighter_id="kit",
                                    contribution="assist", amount=2))
    assert out.ok, out.error
    assert engine.encounter.fighters["kit"].status.assists == 0
    assert engine.apply(c.SetValue(fighter_id="kit", field="sheet.assists", value=5)).ok
    assert engine.apply(c.SetValue(fighter_id="kit", field="sheet.level", value=8)).ok
    assert engine.encounter.fighters["kit"].sheet.assists == 5


def test_assists_after_the_roll_is_an_option_off_by_default() -> None:
    """With it on, Miguel's roll of 14 against 13 waits; Ana's assist makes it 14 or less
    and then the 14 counts as a hit."""
    engine = fight()
    assert engine.encounter.options.assists_after_roll is False
    assert engine.apply(c.SetOption(option="assists_after_roll", value=True)).ok
    start(engine, miguel=1, ana=1)
    assert engine.apply(ru.Attack(fighter_id="miguel", target_id="rent-a-cop", weapon=0)).ok
    assert engine.apply(c.MakeRoll(roll_id=roll_id(engine), dice=[[14]])).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.data["face"] == 14
    odds = engine.ruleset.rules.roll_odds(engine.encounter, roll)
    assert odds[0].chance == 0  # 14 against 13 or less: a miss as it stands
    assert engine.apply(c.Contribute(roll_id=roll.id, fighter_id="ana",
                                     contribution="assist", amount=1)).ok
    assert engine.ruleset.rules.roll_odds(engine.encounter, engine.encounter.state.roll)[0].chance == 1
    assert engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[7]])).ok  # the damage die
    assert engine.encounter.state.roll is None
    assert engine.encounter.fighters["rent-a-cop"].status.hp == 8 - 7


def test_the_wisdom_roll_shows_its_exact_chance_on_every_row_and_logs_it() -> None:
    engine = fight()
    assert begin(engine).ok
    pending = engine.pending()
    assert pending is not None
    # Miguel Wisdom 12, Ana 14, less the Enforcer's penalty 2.
    assert [f.label for f in pending.fields] == [
        "Miguel: Wisdom, 10 or less (1/2, 50.0% to act before the enemies)",
        "Ana: Wisdom, 12 or less (3/5, 60.0% to act before the enemies)"]
    assert engine.apply(c.Answer(decision_id=pending.id, values={"miguel": 4, "ana": None})).ok
    rolls = [e for e in engine.session.log[-1].events if e.kind == "roll"]
    assert [e.data["odds"] for e in rolls] == [[["acts before the enemies", "1/2"]],
                                               [["acts before the enemies", "3/5"]]]


def test_hit_points_never_stand_above_twenty() -> None:
    """"They max out at 20": a maximum above 20 is refused with a message, and HP set
    above the maximum are capped with a line in the log."""
    engine = fight()
    out = engine.apply(c.SetValue(fighter_id="miguel", field="sheet.max_hp", value=25))
    assert out.error == "Miguel's max HP is at most 20 (hit points max out at 20)"
    out = engine.apply(c.SetValue(fighter_id="miguel", field="status.hp", value=25))
    assert out.ok and engine.encounter.fighters["miguel"].status.hp == 12
    assert out.entry is not None
    assert [e.text for e in out.entry.events][-1] == "Miguel's HP capped at the maximum, 12"
    out = engine.apply(c.SetValue(fighter_id="miguel", field="sheet.max_hp", value=20))
    assert out.ok
    out = engine.apply(c.SetValue(fighter_id="miguel", field="status.hp", value=25,
                                  override=True))
    assert engine.encounter.fighters["miguel"].status.hp == 20
    assert out.entry is not None and "capped" in out.entry.events[-1].text
