"""The answers kept per state (engine/derived.py) are never stale: through random command
sequences with undo and redo mixed in, on the full engine and the simulator's lean one,
each kept answer equals the same answer worked out afresh after every step, refused
commands (rolled back) included."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fightdesk.engine import turns
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Session
from fightdesk.engine.rulesets.street_fighter.round import current_actor, find_current_actor

RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def _demo(name: str) -> Session:
    return Session.model_validate_json((RESOURCES / name).read_text(encoding="utf-8"))


def _step(engine: Engine, rng: random.Random) -> None:
    """Undo, redo, a random legal command (often refused), or the autopilot's command."""
    roll = rng.random()
    if roll < 0.12 and engine.logging and engine.can_undo():
        engine.undo()
        return
    if roll < 0.18 and engine.logging and engine.can_redo():
        engine.redo()
        return
    enc = engine.encounter
    ruleset = engine.ruleset
    if roll < 0.5:
        options = ruleset.autopilot.legal_commands(enc)
        if options:
            option = options[rng.randrange(len(options))]
            engine.apply(option.command_at(rng.randrange(option.size)))
            return
    command = ruleset.autopilot.next_command(enc, rng)
    if command is not None:
        engine.apply(command)


def _group_sizes(enc: Encounter) -> dict[str, int]:
    return {g: sum(1 for f in enc.fighters.values() if f.group == g)
            for g in {f.group for f in enc.fighters.values() if f.group}}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), lean=st.booleans())
# Every foe out, and Intimidate and Deceive were still offered with no one to name: building
# their command raised (they are greyed out now, "nobody else is in the fight").
@example(seed=150576, lean=True)
def test_street_fighter_current_actor_is_never_stale(seed: int, lean: bool) -> None:
    session = _demo("demo_fight.json")
    engine = Engine.lean(session) if lean else Engine(session)
    rng = random.Random(seed)
    for _ in range(60):
        current_actor(engine.encounter)  # keep an answer, so a stale one would show
        _step(engine, rng)
        assert current_actor(engine.encounter) == find_current_actor(engine.encounter)
        engine.ruleset.views.cards(engine.encounter)  # the views read the kept answer too
        assert current_actor(engine.encounter) == find_current_actor(engine.encounter)


@pytest.mark.parametrize("demo", ["demo_roll-under.json", "demo_d100.json", "demo_ashes.json"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), lean=st.booleans())
def test_turn_cards_read_the_live_turn_and_groups(demo: str, seed: int, lean: bool) -> None:
    session = _demo(demo)
    engine = Engine.lean(session) if lean else Engine(session)
    rng = random.Random(seed)
    for _ in range(60):
        engine.ruleset.views.cards(engine.encounter)
        _step(engine, rng)
        enc = engine.encounter
        acting = turns.current_fighter(enc.state.turns) if enc.state.stage == "turns" else None
        sizes = _group_sizes(enc)
        for fid, card in engine.ruleset.views.cards(enc):
            assert card.acting == (fid == acting)
            group = enc.fighters[fid].group
            assert card.group_size == (sizes[group] if group else 1)


def test_a_kept_answer_goes_with_its_encounter() -> None:
    """A copy of a fight keeps nothing of the original's answers, and a write to either
    drops only its own."""
    from fightdesk.engine.derived import kept

    session = _demo("demo_fight.json")
    engine = Engine(session)
    calls: list[int] = []

    def work(enc: Encounter) -> int:
        calls.append(1)
        return enc.round

    assert kept(engine.encounter, "test:round", work) == 0
    assert kept(engine.encounter, "test:round", work) == 0
    assert len(calls) == 1
    copy = engine.encounter.model_copy(deep=True)
    assert kept(copy, "test:round", work) == 0
    assert len(calls) == 2
    from fightdesk.engine import commands as c

    assert engine.apply(c.StartRound()).ok
    assert kept(engine.encounter, "test:round", work) == 1
    assert kept(copy, "test:round", work) == 0
    assert len(calls) == 3
