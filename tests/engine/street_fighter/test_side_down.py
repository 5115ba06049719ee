"""Street-fighter's status line once a side is down (docs/rulesets/README.md#the-end-of-a-fight):
said from the fight's start until the GM's End Fight, never before the fight."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session


def test_every_enemy_down_is_said_between_the_start_and_the_end_of_the_fight() -> None:
    engine = Engine(demo_session())
    enc = engine.encounter
    for fid, fighter in list(enc.fighters.items()):
        if fighter.side == "enemy":
            assert engine.apply(c.SetValue(fighter_id=fid, field="status.health", value=0)).ok

    def status() -> str:
        return engine.ruleset.views.round_controls(enc).status

    assert enc.state.stage == "setup" and status() == ""
    assert engine.apply(c.StartFight()).ok
    assert status() == "Every enemy is down"
    assert engine.apply(c.EndFight()).ok
    assert enc.state.stage == "fight-over" and status() == ""


def test_one_side_down_replaces_whose_die_it_is_in_the_phases() -> None:
    """In the phases the status named whose die it is ("Dock Thug 1 to act", already in the
    title), so a side down was never said in most of a fight; a question still comes first."""
    engine = Engine(demo_session())
    enc = engine.encounter
    assert engine.apply(c.StartFight()).ok
    while engine.ruleset.views.round_controls(enc).actor is None:
        asked = engine.pending()
        if asked is not None:  # Kaede's own action dice: the GM lets the app roll them
            assert engine.apply(c.Answer(decision_id=asked.id, choice="roll")).ok
        else:
            assert engine.apply(c.NextStep()).ok
    controls = engine.ruleset.views.round_controls(enc)
    assert enc.state.stage == "phases" and controls.status == "Dock Thug 1 to act"
    assert engine.apply(c.SetValue(fighter_id="kaede", field="status.health", value=0)).ok
    controls = engine.ruleset.views.round_controls(enc)
    assert controls.actor == "dock-thug-1" and controls.status == "The whole party is down"
    # Dock Thug 1 lets the 10 go: the question is the status until it is answered.
    assert engine.apply(c.NextStep()).ok
    pending = engine.pending()
    assert pending is not None
    assert engine.ruleset.views.round_controls(enc).status == pending.prompt
