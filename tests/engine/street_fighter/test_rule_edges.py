"""Each rule read the other way at its edge (the tie, the threshold, the rounding, the cap,
who rolls) fails one of these tests: they kill the rule-level mutants of
tools/rule_mutants/street_fighter.toml (docs/testing.md "Rule-level mutants"). Dice are
typed in; every expected value is worked out by hand from the section of
docs/rulesets/street-fighter.md the docstring names."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.ruleset import ActionForm
from fightdesk.engine.rulesets.street_fighter import commands as sf
from fightdesk.engine.rulesets.street_fighter.state import tn_for

from .helpers import begin, fighter, make_engine, ok, pending, st


def _form(eng: Engine, fid: str, form_id: str) -> ActionForm:
    return next(f for f in eng.ruleset.views.action_forms(eng.encounter, fid) if f.id == form_id)


def test_with_nobody_else_in_the_fight_intimidate_and_deceive_are_greyed_out() -> None:
    """Intimidation and deception roll against a target: with every other fighter out,
    they are not offered as forms no command can be built from
    (docs/rulesets/street-fighter.md#intimidation-and-deception)."""
    eng = make_engine(fighter("ryu", dexterity=1), fighter("ken", status={"health": 0}))
    ok(eng, c.StartFight())
    for form_id in ("intimidate", "deceive"):
        form = _form(eng, "ryu", form_id)
        assert not form.enabled and form.reason == "nobody else is in the fight"
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[5]]))
    for form_id in ("intimidate", "deceive"):
        form = _form(eng, "ryu", form_id)
        assert not form.enabled and form.reason == "nobody else is in the fight"
    # The Act form is still there: a block or a movement needs no target.
    assert _form(eng, "ryu", "act").enabled
    ok(eng, sf.Act(fighter_id="ryu", maneuver="Block"))


def test_ep_gained_while_the_defender_is_asked_raise_the_cap_up_to_the_dice_in_the_pool() -> None:
    """The defender removes at most the dice in the pool, the attacker's EP dice included;
    EP gained while the question waits (Willpower, a conversion) raise the most they may
    remove, up to that (docs/rulesets/street-fighter.md#decisions,
    docs/rulesets/street-fighter.md#removing-damage-dice)."""
    # Ken's Fierce on Ryu: 5 dice, and 2 EP dice declared with the move: 7 in the pool.
    # Ryu has 6 EP (Intelligence 6): at most 6; Willpower makes 7; a converted die makes
    # 8 EP, but the pool holds 7 dice.
    eng = make_engine(fighter("ken", wits=1, intelligence=2, dexterity=1),
                      fighter("ryu", wits=3, intelligence=6, dexterity=2, perception=2))
    begin(eng, [[6], [5, 2]])
    ok(eng, sf.Act(fighter_id="ken", maneuver="Fierce", target_id="ryu", ep_damage=2))
    ok(eng, sf.ResolveNext())
    decision = pending(eng)
    assert "defend-ep" in decision.id and decision.maximum == 6
    ok(eng, sf.WillpowerForEp(fighter_id="ryu"))
    assert pending(eng).maximum == 7
    ok(eng, sf.ConvertDie(fighter_id="ryu"))
    assert st(eng, "ryu").ep == 8 and pending(eng).maximum == 7


def test_concentrating_and_recovering_at_once_is_plus_two_not_four() -> None:
    """A fighter concentrating this round and recovering rolls at +2, not +4
    (docs/rulesets/street-fighter.md#target-numbers)."""
    eng = make_engine(fighter("ryu", wits=1, dexterity=1, intelligence=0,
                              status={"chi": 1}),
                      fighter("ken", wits=3, dexterity=1, intelligence=0))
    ok(eng, c.StartFight())
    ok(eng, sf.StartRecovery(fighter_id="ryu", pool="chi"))
    ok(eng, c.StartRound())
    ok(eng, c.NextStep(dice=[[6], [3]]))
    ok(eng, sf.Concentrate(fighter_id="ryu", concentration="find-weakness"))
    ok(eng, sf.ResolveNext())
    assert st(eng, "ryu").concentration is not None and st(eng, "ryu").recovery is not None
    assert tn_for(eng.encounter, "ryu", 6) == 8


def test_a_recovery_declared_at_the_rounds_start_counts_that_round() -> None:
    """A round counts when the recovery covered it from its start: declared at the
    round's start, before the dice, the round's end asks to roll or keep recovering;
    declared in the phases, that round does not count
    (docs/rulesets/street-fighter.md#recovery)."""
    eng = make_engine(fighter("ryu", dexterity=1, intelligence=0, status={"chi": 1}),
                      fighter("ken", dexterity=1, intelligence=0, status={"chi": 1}))
    ok(eng, c.StartFight())
    ok(eng, c.StartRound())
    ok(eng, sf.StartRecovery(fighter_id="ryu", pool="chi"))
    ok(eng, c.NextStep(dice=[[6], [3]]))
    ok(eng, sf.StartRecovery(fighter_id="ken", pool="chi"))
    assert st(eng, "ryu").recovery.whole_round and not st(eng, "ken").recovery.whole_round
    ok(eng, c.EndRound())
    asked = []
    while (decision := eng.pending()) is not None:
        asked.append(decision.id)
        ok(eng, c.Answer(decision_id=decision.id,
                         choice="continue" if decision.id.startswith("recover-") else "lose"))
    assert [d for d in asked if d.startswith("recover-")] == ["recover-ryu-1"]
    assert st(eng, "ryu").recovery.full_rounds == 1 and st(eng, "ken").recovery.full_rounds == 0
