"""Property tests over random legal action sequences on the demo fight: EP never negative,
no die spent twice, refused commands change nothing, the log rebuild equals the live
state, and undoing everything returns the start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session

DEMO = Path(__file__).resolve().parents[3] / "resources" / "demo_fight.json"
USED = ("spent", "lost", "converted")


def _candidates(eng: Engine, data: st.DataObject) -> list[c.Command]:
    enc = eng.encounter
    rs = eng.ruleset
    decision = eng.pending()
    if decision is not None:
        if decision.choices:
            return [c.Answer(decision_id=decision.id, choice=ch.id) for ch in decision.choices]
        low, high = decision.minimum or 0, decision.maximum or 0
        return [c.Answer(decision_id=decision.id, amount=n) for n in {low, high, (low + high) // 2}]
    out: list[c.Command] = []
    controls = rs.views.round_controls(enc)
    if controls.can_next_step:
        out.append(c.NextStep())
    if controls.can_end_round:
        out.append(c.EndRound())
    if controls.extra.get("resolve-next"):
        out += [rs.views.build_command("resolve-next", "", {})] * 3
    if controls.extra.get("cancel-stack"):
        out.append(rs.views.build_command("cancel-stack", "", {}))
    for fid in enc.order:
        for form in rs.views.action_forms(enc, fid):
            if not form.enabled or form.id in ("edit-maneuver", "learn-maneuver"):
                continue
            values: dict[str, Any] = {}
            for field in form.fields:
                if field.kind == "choice" and field.choices:
                    values[field.name] = data.draw(
                        st.sampled_from([k for k, _ in field.choices]))
                elif field.kind == "number":
                    values[field.name] = data.draw(
                        st.integers(field.minimum, max(field.minimum, field.maximum)))
                elif field.kind == "flag":
                    values[field.name] = data.draw(st.booleans())
                else:
                    values[field.name] = field.default
            out.append(rs.views.build_command(form.id, fid, values))
    return out


def _dice_states(eng: Engine) -> dict[tuple[str, int, int], str]:
    enc = eng.encounter
    return {(fid, enc.round, d.id): d.state for fid, f in enc.fighters.items()
            for d in f.status.dice}


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_random_fights_keep_the_invariants(data: st.DataObject, seed: int) -> None:
    session = Session.model_validate_json(DEMO.read_text())
    session.encounter.dice_seed = seed
    session.start.dice_seed = seed
    eng = Engine(session)
    start = eng.encounter.model_dump(mode="json")
    for _ in range(data.draw(st.integers(20, 70))):
        options = _candidates(eng, data)
        if not options:
            break
        command = data.draw(st.sampled_from(options))
        before_dice = _dice_states(eng)
        before = eng.encounter.model_dump(mode="json")
        out = eng.apply(command)
        if not out.ok:
            assert eng.encounter.model_dump(mode="json") == before, out.error
            continue
        for fighter in eng.encounter.fighters.values():
            assert fighter.status.ep >= 0 and fighter.status.zen_ep >= 0
            assert fighter.status.health >= 0
        after_dice = _dice_states(eng)
        if command.kind != "sf-cancel-interrupts":
            for key, state in before_dice.items():
                if state in USED and key in after_dice:
                    assert after_dice[key] == state, f"die {key} used again by {command.kind}"
        used = [(m.fighter_id, m.die_id) for m in eng.encounter.state.stack]
        assert len(used) == len(set(used)), "one die on two moves"
    assert eng.rebuild().model_dump(mode="json") == eng.encounter.model_dump(mode="json")
    while eng.undo():
        pass
    assert eng.encounter.model_dump(mode="json") == start
