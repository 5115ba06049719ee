"""The random policy tests the engine: many random fights of every ruleset whose rules
are built, with undo and redo mixed in, checked after every step: undoing everything
gives back the starting fight, a rebuild from the log equals the live fight, no points
below zero, no die or action used twice, and the session saves and loads back equal.

The CI run plays a few hundred short fights; ``pytest --sim-fights N`` plays more
(docs/benchmarks.md, "Long runs of the tests")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import Ruleset, get_ruleset
from fightdesk.engine.rulesets import registered
from fightdesk.engine.simulate import fight_seed
from fightdesk.storage.sessions import session_to_json

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
# Each built ruleset's demo fight (a ruleset whose rules are built adds its own here).
RULES_PREFIX = {"street-fighter": "sf-", "roll-under": "ru-", "d100": "d100-", "ashes": "ash-"}
DEMOS = {"street-fighter": RESOURCES / "demo_fight.json",
         "roll-under": RESOURCES / "demo_roll-under.json",
         "d100": RESOURCES / "demo_d100.json",
         "ashes": RESOURCES / "demo_ashes.json"}
# A shared step each ruleset's fights must reach (ashes asks no questions: its defenses).
REACHED = {"street-fighter": "answer", "roll-under": "answer", "d100": "contribute",
           "ashes": "contribute"}
DEFAULT_FIGHTS = 150
STEPS = 30
USED = ("spent", "lost", "converted")


def _fights(config: pytest.Config) -> int:
    value = config.getoption("--sim-fights")
    return DEFAULT_FIGHTS if value is None else int(value)


def _dice(engine: Engine) -> dict[tuple[str, int, int], str]:
    enc = engine.encounter
    return {(fid, enc.round, d.id): d.state for fid, f in enc.fighters.items()
            for d in getattr(f.status, "dice", [])}


def _random_step(engine: Engine, rng: random.Random) -> tuple[str, bool]:
    """One random step: undo, redo, or a command picked uniformly from the legal ones."""
    roll = rng.random()
    if roll < 0.10 and engine.can_undo():
        return "undo", engine.undo()
    if roll < 0.16 and engine.can_redo():
        return "redo", engine.redo()
    ruleset: Ruleset = engine.ruleset
    options = ruleset.autopilot.legal_commands(engine.encounter)
    if not options:
        return "none", False
    option = options[rng.randrange(len(options))]
    command = option.command_at(rng.randrange(option.size))
    before = engine.encounter.model_dump(mode="json")
    out = engine.apply(command)
    if not out.ok:
        assert engine.encounter.model_dump(mode="json") == before, out.error
    return command.kind, out.ok


def _check(engine: Engine) -> None:
    for fighter in engine.encounter.fighters.values():
        for pool in ("ep", "zen_ep", "health", "chi", "willpower", "speed", "force"):
            value = getattr(fighter.status, pool, 0)
            assert value >= 0, f"{fighter.id}: {pool} {value}"
    used = [(m.fighter_id, m.die_id) for m in getattr(engine.encounter.state, "stack", [])]
    assert len(used) == len(set(used)), "one die on two moves"


def _full_check(engine: Engine) -> None:
    live = engine.encounter.model_dump(mode="json")
    assert engine.rebuild().model_dump(mode="json") == live
    again = Session.model_validate_json(session_to_json(engine.session))
    assert again.model_dump(mode="json") == engine.session.model_dump(mode="json")


# fightdesk's own rulesets, each with a demo fight (a plugin's fights: test_conformance.py).
BUILT = [info.id for info in registered().values()
         if info.package.startswith("fightdesk.") and get_ruleset(info.id).rules.rules_built]


@pytest.mark.parametrize("ruleset_id", BUILT)
def test_random_fights_with_undo_and_redo_keep_the_invariants(
        ruleset_id: str, pytestconfig: pytest.Config) -> None:
    assert ruleset_id in DEMOS, f"{ruleset_id}: add its demo fight to DEMOS"
    text = DEMOS[ruleset_id].read_text(encoding="utf-8")
    kinds: dict[str, int] = {}
    for number in range(_fights(pytestconfig)):
        session = Session.model_validate_json(text)
        seed = fight_seed(20261130, number)
        session.encounter.dice_seed = session.start.dice_seed = seed
        engine = Engine(session)
        start = engine.encounter.model_dump(mode="json")
        rng = random.Random(seed)
        for step in range(STEPS):
            dice_before = _dice(engine)
            kind, ok = _random_step(engine, rng)
            kinds[kind] = kinds.get(kind, 0) + int(ok)
            _check(engine)
            if ok and kind not in ("undo", "redo", "sf-cancel-interrupts"):
                after = _dice(engine)
                for key, state in dice_before.items():
                    if state in USED and key in after:
                        assert after[key] == state, f"die {key} used again by {kind}"
            if step % 6 == 5:
                _full_check(engine)
        _full_check(engine)
        while engine.undo():
            pass
        assert engine.encounter.model_dump(mode="json") == start
    # The random policy reached the rules, not only the round steps.
    assert kinds.get("undo", 0) and kinds.get("redo", 0) and kinds.get(REACHED[ruleset_id], 0)
    own = RULES_PREFIX[ruleset_id]  # the ruleset's own commands, not only the shared ones
    assert sum(n for k, n in kinds.items() if k.startswith(own)) > _fights(pytestconfig)
