"""Street-fighter: the GM's own changes go through the rules
(docs/rulesets/street-fighter.md#gm-changes): health typed off is a blow (stun above
Stamina, out at 0), "Knocked down" and "Stunned" are the rules' own states, and the states
a maneuver sets are not offered as plain conditions."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.rulesets.street_fighter.state import unspent
from fightdesk.storage.sessions import demo_session


def in_the_phases() -> Engine:
    engine = Engine(demo_session())
    assert engine.apply(c.StartFight()).ok
    while engine.ruleset.views.round_controls(engine.encounter).actor is None:
        asked = engine.pending()
        if asked is not None:  # Kaede's own action dice: the GM lets the app roll them
            assert engine.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
        else:
            assert engine.apply(c.NextStep()).ok
    assert engine.encounter.state.stage == "phases"
    return engine


def dice_left(engine: Engine, fid: str) -> list[int]:
    return sorted(d.face for d in unspent(engine.encounter.fighters[fid].status))


def test_the_gm_knocking_a_fighter_down_costs_the_stand_up_die() -> None:
    """A fighter marked Knocked down stands as after a knockdown: the highest die spent."""
    engine = in_the_phases()
    before = dice_left(engine, "brannock")
    out = engine.apply(c.AddCondition(fighter_id="brannock", name="Knocked down"))
    assert out.ok and out.entry is not None, out.error
    assert dice_left(engine, "brannock") == before[:-1]
    texts = [e.text for e in out.entry.events]
    assert "Brannock Vale is knocked down" in texts
    assert any(t.startswith("Brannock Vale stands up spending the die") for t in texts)
    assert engine.encounter.fighters["brannock"].status.conditions == []


def test_the_gm_stunning_a_fighter_costs_a_die_and_one_ep() -> None:
    engine = in_the_phases()
    ep = engine.encounter.fighters["brannock"].status.ep
    before = dice_left(engine, "brannock")
    assert engine.apply(c.AddCondition(fighter_id="brannock", name="Stunned")).ok
    assert dice_left(engine, "brannock") == before[:-1]
    assert engine.encounter.fighters["brannock"].status.ep == max(0, ep - 1)


def test_a_state_only_a_maneuver_sets_is_not_a_plain_condition() -> None:
    engine = in_the_phases()
    assert engine.ruleset.rules.condition_names == ("Knocked down", "Stunned")
    out = engine.apply(c.AddCondition(fighter_id="kaede", name="Blocking"))
    assert out.error == ("Blocking is set by a Block maneuver (Act on the card), not as a "
                         "condition (name the GM's own condition otherwise)")


def test_health_typed_off_above_stamina_stuns_and_to_zero_puts_out() -> None:
    """Health the GM takes off is a blow: more than Brannock's Stamina at once stuns him,
    an override writes the value and nothing else, and Kaede typed to 0 is out."""
    engine = in_the_phases()
    brannock = engine.encounter.fighters["brannock"]
    stamina, health = brannock.sheet.stamina, brannock.status.health
    before = dice_left(engine, "brannock")
    out = engine.apply(c.SetValue(fighter_id="brannock", field="status.health",
                                  value=health - stamina - 1))
    assert out.ok and out.entry is not None
    assert any(e.text.startswith("Brannock Vale is stunned") for e in out.entry.events)
    assert dice_left(engine, "brannock") == before[:-1]
    out = engine.apply(c.SetValue(fighter_id="brannock", field="status.health", value=0,
                                  override=True))
    assert out.entry is not None and [e.kind for e in out.entry.events] == ["override"]
    assert out.entry.events[0].text.endswith("the rules were not applied")
    assert dice_left(engine, "brannock")  # the override took nothing else
    out = engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=0))
    assert out.entry is not None and "down" in [e.kind for e in out.entry.events]
    assert dice_left(engine, "kaede") == []
