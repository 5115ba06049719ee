"""The GM's health overrides count in the summary, and the scope reads as English."""

from __future__ import annotations

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.report import summarize, to_markdown

from .scripted import DEMO, KAEDE


def _fresh() -> Engine:
    session = Session.model_validate_json(DEMO.read_text())
    return Engine(Session.begin(session.start))


def _health(engine: Engine, fid: str) -> int:
    return int(engine.ruleset.views.card(engine.encounter, fid).health)


def test_a_health_override_counts_as_damage_taken_and_healed() -> None:
    engine = _fresh()
    assert engine.apply(c.StartFight()).ok
    assert engine.apply(c.StartRound()).ok
    before = _health(engine, KAEDE)
    assert before == 10
    assert engine.apply(c.SetValue(fighter_id=KAEDE, field="status.health", value=5)).ok
    assert engine.apply(c.SetValue(fighter_id=KAEDE, field="status.health", value=7)).ok
    summary = summarize(engine.session)
    kaede = next(t for t in summary.totals if t.fighter_id == KAEDE)
    assert kaede.damage_taken == 5
    assert kaede.healed == 2
    # An override of another value (chi) is no damage.
    assert engine.apply(c.SetValue(fighter_id=KAEDE, field="status.chi", value=0)).ok
    again = next(t for t in summarize(engine.session).totals if t.fighter_id == KAEDE)
    assert (again.damage_taken, again.healed) == (5, 2)


def test_the_scope_of_round_0_and_one_round_reads_round_1() -> None:
    engine = _fresh()
    assert engine.apply(c.StartFight()).ok
    assert engine.apply(c.StartRound()).ok
    assert engine.apply(c.Note(text="opening blows")).ok
    text = to_markdown(summarize(engine.session))
    assert "before round 1 and round 1 ·" in text
    assert "rounds 1" not in text
