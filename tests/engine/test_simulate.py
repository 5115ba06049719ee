"""The encounter simulator: the same seed gives the same result on any number of
processes, the fight given is never changed, the autopilot plays like a plain table,
and the figures (Wilson's interval, median, 90th percentile) are right."""

from __future__ import annotations

import hashlib
import multiprocessing
import random
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.base import Choice, Decision
from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.engine.ruleset import get_ruleset
from fightdesk.engine.simulate import (
    FightResult,
    Policy,
    Simulation,
    SimulationError,
    batches,
    fight_copies,
    fight_seed,
    play_fight,
    quick_start,
    simulate,
    wilson,
)

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_fight.json"


def _demo() -> Session:
    return Session.model_validate_json(DEMO.read_text())


def _autopilot_steps(engine: Engine, steps: int) -> None:
    rng = random.Random(0)
    for _ in range(steps):
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None
        out = engine.apply(command)
        assert out.ok, out.error


def test_the_same_seed_gives_the_same_result_on_one_process_or_two() -> None:
    one = simulate(_demo(), fights=12, seed=7, workers=1)
    two = simulate(_demo(), fights=12, seed=7, workers=2)
    assert one is not None and two is not None
    assert one.as_json() == two.as_json()
    assert one.wins["party"] + one.wins["enemies"] + one.draws == 12
    other = simulate(_demo(), fights=12, seed=8, workers=1)
    assert other is not None and other.as_json() != one.as_json()


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="no fork on this system")
def test_workers_started_by_fork_play_the_same_fights() -> None:
    """The command line's quick start (fork) and the window's (spawn) give one result."""
    one = simulate(_demo(), fights=10, seed=5, workers=1)
    forked = simulate(_demo(), fights=10, seed=5, workers=2, start="fork")
    assert one is not None and forked is not None
    assert forked.as_json() == one.as_json()


def test_quick_start_forks_only_a_process_without_other_threads() -> None:
    waiting = threading.Event()
    other = threading.Thread(target=waiting.wait)
    other.start()
    try:
        assert quick_start() == "spawn"
    finally:
        waiting.set()
        other.join()
    expected = "fork" if sys.platform.startswith("linux") else "spawn"
    assert quick_start() == expected


@pytest.mark.parametrize(("fights", "workers"), [(1, 2), (7, 2), (12, 2), (1000, 2), (999, 4)])
def test_batches_hold_every_fight_once_and_shrink_towards_the_end(fights: int,
                                                                   workers: int) -> None:
    cut = batches(fights, workers)
    assert [i for batch in cut for i in batch] == list(range(fights))
    sizes = [len(batch) for batch in cut]
    assert all(1 <= size <= 20 for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] == 1


def test_a_fight_copied_by_pickle_plays_as_one_read_from_json() -> None:
    demo = _demo()
    ids = tuple(demo.encounter.order)
    copies = fight_copies(demo.encounter)
    enc_json = demo.encounter.model_dump_json()
    for i in range(3):
        assert play_fight(copies, ids, i, 4, "autopilot", 20) == \
            play_fight(enc_json, ids, i, 4, "autopilot", 20)


def test_each_fight_has_its_own_dice() -> None:
    assert len({fight_seed(7, i) for i in range(1000)}) == 1000
    assert fight_seed(7, 3) == fight_seed(7, 3) != fight_seed(8, 3)
    enc_json = _demo().encounter.model_dump_json()
    ids = ("kaede", "brannock", "dock-thug-1", "dock-thug-2", "dock-thug-3")
    a = play_fight(enc_json, ids, 0, 7, "autopilot", 20)
    assert a == play_fight(enc_json, ids, 0, 7, "autopilot", 20)
    results = {play_fight(enc_json, ids, i, 7, "autopilot", 20) [1:] for i in range(6)}
    assert len(results) > 1  # different dice, different fights


def test_the_lean_engine_plays_exactly_the_fight_the_full_one_plays() -> None:
    enc_json = _demo().encounter.model_dump_json()
    ids = ("kaede", "brannock", "dock-thug-1", "dock-thug-2", "dock-thug-3")
    policies: tuple[Policy, ...] = ("autopilot", "random")
    for policy in policies:
        for i in range(3):
            lean = play_fight(enc_json, ids, i, 11, policy, 3)
            full = play_fight(enc_json, ids, i, 11, policy, 3,
                              make_engine=Engine)
            assert lean == full


def test_a_refused_command_on_the_lean_engine_changes_nothing() -> None:
    from fightdesk.engine.simulate import _random_command

    engine = Engine.lean(_demo())
    ruleset = engine.ruleset
    rng = random.Random(4)
    refused = 0
    for _ in range(400):
        command = _random_command(ruleset.autopilot.legal_commands(engine.encounter), rng)
        if command is None:
            continue
        before = engine.encounter.model_dump(mode="json")
        out = engine.apply(command)
        assert out.entry is None and not engine.session.log
        if not out.ok:
            refused += 1
            assert engine.encounter.model_dump(mode="json") == before, out.error
    assert refused > 10


def test_lean_transaction_rolls_back_every_kind_of_write() -> None:
    from fightdesk.engine.changes import LeanTransaction
    from fightdesk.engine.model import Group

    enc = _demo().encounter
    before = enc.model_dump(mode="json")
    tx = LeanTransaction(enc)
    tx.set(("fighters", "kaede", "status"), "health", 3)
    tx.set(("fighters", "kaede", "status"), "health", 3)  # no change: nothing to undo
    tx.set((), "round", 4)
    tx.put(("groups",), "extra", Group(id="extra", name="Extra"))
    tx.put(("groups",), "extra", Group(id="extra", name="Other"))  # an existing key
    tx.delete(("fighters",), "dock-thug-3")
    tx.append(("order",), "someone")
    tx.set_item(("order",), 0, "first")
    assert enc.fighters["kaede"].status.health == 3 and "dock-thug-3" not in enc.fighters
    with pytest.raises(RuleViolation):
        tx.set(("fighters", "kaede", "status"), "health", "lots")
    tx.rollback()
    assert enc.model_dump(mode="json") == before


def test_a_simulation_changes_neither_the_fight_its_log_nor_its_autosave(tmp_path: Path) -> None:
    from fightdesk.storage.autosave import Autosave

    engine = Engine(_demo())
    autosave = Autosave(tmp_path / "autosave")
    autosave.attach(engine)
    _autopilot_steps(engine, 12)  # mid-fight, with a log and journal lines
    assert engine.session.log and engine.encounter.round >= 1

    def files() -> dict[str, str]:
        return {str(p.relative_to(tmp_path)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(tmp_path.rglob("*")) if p.is_file()}

    before_session = engine.session.model_dump_json()
    before_files = files()
    heard: list[object] = []
    engine.subscribe(heard.append)
    result = simulate(engine.session, fights=6, seed=1, workers=1)
    assert result is not None and result.fights == 6
    assert engine.session.model_dump_json() == before_session
    assert files() == before_files
    assert heard == []


def test_mid_fight_odds_start_from_the_current_state() -> None:
    engine = Engine(_demo())
    _autopilot_steps(engine, 25)
    rounds = engine.encounter.round
    result = simulate(engine.session, fights=5, seed=3, workers=1)
    assert result is not None
    assert min(result.rounds) >= rounds


def test_wilson_interval_known_values() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    low, high = wilson(473, 500)
    assert 0.92 < low < 473 / 500 < high < 0.97


def test_rounds_median_and_ninetieth_percentile() -> None:
    sim = Simulation(fights=10, policy="autopilot", seed=0, max_rounds=20, fighter_ids=())
    for i, rounds in enumerate([1, 2, 2, 3, 3, 3, 4, 5, 9, 20]):
        sim.add(FightResult(i, "party" if i % 2 else None, rounds, (), ()))
    assert sim.median_rounds == 3
    # "over by": the fights that ended (2, 3, 3, 5, 20), not the draws
    assert sim.p90_rounds == 20 and sim.ended_rounds == [2, 3, 3, 5, 20]
    assert "90% of the 5 fights that ended were over by round 20" in sim.text()
    assert sim.wins == {"party": 5, "enemies": 0} and sim.draws == 5
    sim.rounds = [1, 2]
    assert sim.median_rounds == 1.5


def test_fights_that_cannot_be_simulated_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from fightdesk.engine.ruleset import get_ruleset

    # A ruleset whose rules are not built yet (d100, as it was before its rules).
    monkeypatch.setattr(type(get_ruleset("d100").rules), "rules_built", False)
    d100 = Session.begin(new_encounter("d100", "Test"))
    with pytest.raises(SimulationError, match="rules not built yet"):
        simulate(d100, fights=1)
    lonely = _demo()
    for fid in ("brannock", "dock-thug-1", "dock-thug-2", "dock-thug-3"):
        lonely.encounter.fighters[fid].status.health = 0
    with pytest.raises(SimulationError, match="no enemies left standing"):
        simulate(lonely, fights=1)
    ended = Engine(_demo())
    _autopilot_steps(ended, 3)
    assert ended.apply(c.EndFight()).ok
    with pytest.raises(SimulationError, match="nothing more to play"):
        simulate(ended.session, fights=1)
    with pytest.raises(SimulationError, match="--policy"):
        simulate(_demo(), fights=1, policy="clever")  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="--fights"):
        simulate(_demo(), fights=0)


def test_a_policy_without_an_accepted_command_stops_the_fight_as_a_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    autopilot = type(get_ruleset("street-fighter").autopilot)
    # A table that only ever says "answer" to a question nobody asked: always refused.
    monkeypatch.setattr(autopilot, "next_command",
                        lambda self, enc, rng: c.Answer(decision_id="none", choice="x"))
    result = simulate(_demo(), fights=3, seed=2, workers=1)
    assert result is not None
    assert result.draws == result.stuck == 3
    assert "3 stopped early" in result.text()


def test_a_round_cap_makes_a_draw() -> None:
    result = simulate(_demo(), fights=4, seed=2, max_rounds=1, workers=1)
    assert result is not None
    assert max(result.rounds) <= 1
    assert result.draws == 4 - result.wins["party"] - result.wins["enemies"]


# --- the autopilot ---------------------------------------------------------------------------


def _to_phases(engine: Engine) -> None:
    engine.apply(c.NextStep())  # the fight starts
    engine.apply(c.NextStep())  # round 1
    engine.apply(c.NextStep())  # dice rolled: the phases
    asked = engine.pending()
    if asked is not None:  # Kaede rolls her own action dice: the GM lets the app roll them
        assert engine.apply(c.Answer(decision_id=asked.id, choice="roll")).ok


def test_autopilot_attacks_the_foe_most_likely_to_be_hurt() -> None:
    engine = Engine(_demo())
    _to_phases(engine)
    enc = engine.encounter
    ruleset = engine.ruleset
    rng = random.Random(0)
    from fightdesk.engine.rulesets.street_fighter.round import current_actor

    # Play until Kaede (the one PC) is to act on her own turn, then read her choice.
    for _ in range(200):
        if enc.state.stage == "phases" and not enc.state.stack and \
                enc.state.pending is None and current_actor(enc) == "kaede":
            break
        step = ruleset.autopilot.next_command(enc, rng)
        assert step is not None and engine.apply(step).ok
    command: Any = ruleset.autopilot.next_command(enc, rng)
    assert command is not None and command.kind == "sf-act"
    # The thugs (Stamina 2, weenies who cannot remove dice or dodge) are easier to hurt
    # than Brannock (Stamina 4); Roundhouse is Kaede's hardest hitter (+4 damage).
    assert command.target_id.startswith("dock-thug")
    assert command.maneuver == "Roundhouse"


def test_autopilot_answers_like_a_plain_player() -> None:
    from fightdesk.engine.rulesets.street_fighter.autopilot import answer

    enc = _demo().encounter
    kaede = enc.fighters["kaede"]
    kaede.status.ep = 5
    dodge = Decision(id="m3-dodge-1", fighter_id="kaede", prompt="dodge?",
                     choices=[Choice(id="dodge", label="Dodge"), Choice(id="accept", label="Take")])
    from fightdesk.engine.rulesets.street_fighter.model import DamageRoll

    enc.state.damage = DamageRoll(move_id=3, stage="dodge", pool=4, damage=1)
    assert answer(enc, dodge).choice == "accept"  # one level: keep the EP
    enc.state.damage = DamageRoll(move_id=3, stage="dodge", pool=4, damage=2)
    assert answer(enc, dodge).choice == "dodge"
    kaede.status.health = 1
    enc.state.damage = DamageRoll(move_id=3, stage="dodge", pool=4, damage=1)
    assert answer(enc, dodge).choice == "dodge"  # it would take her out
    attack = Decision(id="m3-attack-ep", fighter_id="kaede", prompt="EP dice?",
                      minimum=0, maximum=5)
    assert answer(enc, attack).amount == 2  # keeps two EP for dodges
    kaede.status.ep = 3
    assert answer(enc, attack).amount == 1
    defend = Decision(id="m3-defend-ep", fighter_id="kaede", prompt="remove?", minimum=0,
                      maximum=3)
    assert answer(enc, defend).amount == 0
    going = Decision(id="die-kaede-1-2", fighter_id="kaede", prompt="die?",
                     choices=[Choice(id="hold", label="Hold"), Choice(id="convert", label="EP"),
                              Choice(id="lose", label="Lose")])
    assert answer(enc, going).choice == "convert"


def test_autopilot_plays_the_demo_to_an_end_with_every_command_accepted() -> None:
    for seed in range(4):
        session = _demo()
        session.encounter.dice_seed = seed
        engine = Engine(session)
        ruleset = engine.ruleset
        rng = random.Random(seed)
        for _ in range(2000):
            enc = engine.encounter
            camps = {f.side for f in enc.fighters.values() if not ruleset.rules.is_out(f)}
            if len(camps) < 2:
                break
            command = ruleset.autopilot.next_command(enc, rng)
            assert command is not None
            out = engine.apply(command)
            assert out.ok, (command, out.error)
        else:
            pytest.fail("the fight did not end")


# --- the legal commands ---------------------------------------------------------------------


def test_legal_commands_list_answers_only_while_a_question_waits() -> None:
    engine = Engine(_demo())
    ruleset = engine.ruleset
    options = ruleset.autopilot.legal_commands(engine.encounter)
    assert [o.form_id for o in options][:1] == ["start-fight"] or \
        "next-step" in [o.form_id for o in options]
    assert all(o.form_id != "end-fight" for o in options)
    _to_phases(engine)
    rng = random.Random(5)
    for _ in range(300):
        decision = engine.pending()
        options = ruleset.autopilot.legal_commands(engine.encounter)
        if decision is not None:
            assert [o.form_id for o in options] == ["answer"]
            if decision.choices:
                assert options[0].size == len(decision.choices)
            else:
                assert options[0].size == (decision.maximum or 0) - (decision.minimum or 0) + 1
        for option in options:
            command = option.command_at(option.size - 1)  # the last of every space builds
            assert command.kind
        step = ruleset.autopilot.next_command(engine.encounter, rng)
        assert step is not None and engine.apply(step).ok


def test_number_fields_are_enumerated_within_their_bounds() -> None:
    engine = Engine(_demo())
    _to_phases(engine)
    enc = engine.encounter
    ruleset = get_ruleset(enc.ruleset)
    act = next(o for o in ruleset.autopilot.legal_commands(enc) if o.form_id in ("act", "interrupt"))
    spaces = dict(act.spaces)
    assert spaces["ep_speed"] == tuple(range(0, max(0, spaces["ep_speed"][-1]) + 1))
    product = 1
    for _, values in act.spaces:
        product *= max(1, len(values))
    assert act.size == product > 1
    # Every combination is reached once: the picks of the first and the last differ.
    assert act.values_at(0) != act.values_at(act.size - 1)
    assert act.values_at(act.size) == act.values_at(0)
