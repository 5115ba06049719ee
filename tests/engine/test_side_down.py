"""What the round controls tell the window in every ruleset: when one side is down
(docs/rulesets/README.md#the-end-of-a-fight: no ruleset ends the fight by itself, the
status line says which side is down) and whose action the forward button offers."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.turn_ruleset import TurnOrderRules
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session

DEMOS = Path(__file__).resolve().parents[2] / "resources"
# Each demo, and the override that puts a fighter out under its rules.
KNOCK_OUT = {"demo_fight.json": ("status.health", 0), "demo_d100.json": ("status.hp", 0),
             "demo_ashes.json": ("status.hp", 0), "demo_roll-under.json": ("status.lethal", 1)}


def status(engine: Engine) -> str:
    return engine.ruleset.views.round_controls(engine.encounter).status


@pytest.mark.parametrize("demo", sorted(KNOCK_OUT))
def test_the_status_line_says_which_side_is_down_and_the_fight_goes_on(demo: str) -> None:
    engine = Engine(load_session(DEMOS / demo))
    enc = engine.encounter
    field, value = KNOCK_OUT[demo]

    def knock_out(side: str) -> None:
        for fid, fighter in list(enc.fighters.items()):
            if (fighter.side == "enemy") == (side == "enemy"):
                assert engine.apply(c.SetValue(fighter_id=fid, field=field, value=value)).ok

    knock_out("enemy")
    assert "down" not in status(engine)  # before the fight: nothing said
    assert engine.apply(c.StartFight()).ok
    rng = Random(0)
    while engine.pending() is not None:  # the first round's questions (initiative...)
        command = engine.ruleset.autopilot.next_command(enc, rng)
        assert command is not None and engine.apply(command).ok
    assert status(engine) == "Every enemy is down"
    controls = engine.ruleset.views.round_controls(enc)
    assert controls.can_next_step or controls.can_start_round  # the fight goes on
    knock_out("party")
    assert status(engine) == "Everyone is down"
    for _ in range(sum(f.side != "enemy" for f in enc.fighters.values())):
        engine.undo()
    assert status(engine) == "Every enemy is down"
    engine.undo()  # one enemy stands again
    assert "down" not in status(engine)


def test_the_whole_party_down() -> None:
    engine = Engine(load_session(DEMOS / "demo_d100.json"))
    enc = engine.encounter
    assert engine.apply(c.StartFight()).ok
    question = engine.pending()  # the initiative
    assert question is not None
    assert engine.apply(c.Answer(decision_id=question.id, values={})).ok
    for fid, fighter in list(enc.fighters.items()):
        if fighter.side != "enemy":
            assert engine.apply(c.SetValue(fighter_id=fid, field="status.hp", value=0)).ok
    assert status(engine) == "The whole party is down"


@pytest.mark.parametrize("demo", ["demo_d100.json", "demo_roll-under.json", "demo_ashes.json"])
def test_the_forward_button_offers_the_turn_holders_action_until_it_is_used(demo: str) -> None:
    """RoundControls.actor names the turn holder while their turn's own action is unused
    (the window's forward button reads "Act: ..."; it passed every turn in these three
    rulesets), Pass says who lets the turn go; once the action is used, the forward
    button offers the next turn."""
    engine = Engine(load_session(DEMOS / demo))
    enc, ruleset, rng = engine.encounter, engine.ruleset, Random(2)
    assert isinstance(ruleset.rules, TurnOrderRules)
    seen_actor = seen_after = False
    for _ in range(400):
        controls = ruleset.views.round_controls(enc)
        current = current_fighter(enc.state.turns) if enc.state.stage == "turns" else None
        free = enc.state.roll is None and engine.pending() is None
        if controls.actor is not None:
            seen_actor = True
            assert controls.actor == current and free
            assert controls.next_step_label == f"{enc.name_of(current)} lets the turn go"
            assert ruleset.rules.has_turn_action(enc.fighters[current])
        elif current is not None and free:
            assert controls.next_step_label == "Next turn"
            fighter = enc.fighters[current]
            assert ruleset.rules.is_out(fighter) or not ruleset.rules.has_turn_action(fighter)
            seen_after = True
        command = ruleset.autopilot.next_command(enc, rng)
        assert command is not None
        assert engine.apply(command).ok
        if seen_actor and seen_after:
            return
    raise AssertionError("the autopilot never acted and moved on")


def test_a_fight_of_one_side_never_says_a_side_is_down() -> None:
    """Only the party (a drill, a duel among PCs): nobody is "the enemy", so nothing is
    said, even with all but one down or everyone down."""
    engine = Engine(load_session(DEMOS / "demo_d100.json"))
    enc = engine.encounter
    for fid, fighter in list(enc.fighters.items()):
        if fighter.side == "enemy":
            assert engine.apply(c.RemoveFighter(fighter_id=fid)).ok
    assert engine.apply(c.StartFight()).ok
    party = list(enc.fighters)
    assert len(party) >= 2
    for fid in party:
        assert engine.apply(c.SetValue(fighter_id=fid, field="status.hp", value=0)).ok
        assert engine.ruleset.rules.side_down(enc) == ""


@pytest.mark.parametrize("demo", sorted(KNOCK_OUT))
def test_a_target_field_starts_on_the_first_foe_still_in_the_fight(demo: str) -> None:
    """Ruleset.target_field (docs/rulesets/README.md#the-end-of-a-fight): every foe
    offered, a fallen one marked "(out)", the first one standing first; nobody standing,
    the first; nobody at all, no default."""
    engine = Engine(load_session(DEMOS / demo))
    enc = engine.encounter
    field, value = KNOCK_OUT[demo]
    foes = tuple((fid, enc.fighters[fid].name) for fid in enc.order
                 if enc.fighters[fid].side == "enemy")
    first, second = foes[0][0], foes[1][0]
    assert engine.apply(c.SetValue(fighter_id=first, field=field, value=value)).ok
    target = engine.ruleset.views.target_field(enc, foes)
    assert target.choices[0] == (first, f"{foes[0][1]} (out)")
    assert target.choices[1:] == foes[1:] and target.default == second
    for fid, _ in foes[1:]:
        assert engine.apply(c.SetValue(fighter_id=fid, field=field, value=value)).ok
    assert engine.ruleset.views.target_field(enc, foes).default == first
    empty = engine.ruleset.views.target_field(enc, ())
    assert empty.choices == () and empty.default is None
