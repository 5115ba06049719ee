"""Each rule read the other way at its edge (the tie, the threshold, the rounding, the cap,
who rolls) fails one of these tests: they kill the rule-level mutants of
tools/rule_mutants/street_fighter.toml (docs/testing.md "Rule-level mutants"). Dice are
typed in; every expected value is worked out by hand from the section of
docs/rulesets/street-fighter.md the docstring names."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.street_fighter import commands as sf

from .helpers import fighter, make_engine, ok


def _form(eng, fid: str, form_id: str):  # type: ignore[no-untyped-def]
    return next(f for f in eng.ruleset.action_forms(eng.encounter, fid) if f.id == form_id)


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
