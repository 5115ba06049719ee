"""Two real street-fighter rounds of the demo fight, played through Engine.apply and
summarised. The summary reads events; the checks compare it with what the engine's
state and rolls say, so a rule that changes state without telling (or the other way
round) shows up here."""

from __future__ import annotations

import pytest

from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import get_ruleset
from fightdesk.report import summarize, to_html, to_markdown
from fightdesk.report.summary import FighterState, FightSummary

from .demo_rounds import KAEDE_ROUND_ONE_DICE, played_demo_rounds


@pytest.fixture(scope="module")
def fight() -> Session:
    return played_demo_rounds()


@pytest.fixture(scope="module")
def summary(fight: Session) -> FightSummary:
    return summarize(fight, [1, 2])


def by_id(states: tuple[FighterState, ...]) -> dict[str, FighterState]:
    return {s.fighter_id: s for s in states}


def test_two_rounds_were_played(fight: Session, summary: FightSummary) -> None:
    assert fight.encounter.round == 2 and fight.encounter.state.stage == "round-over"
    assert [r.number for r in summary.rounds] == [1, 2]
    assert all(r.turns for r in summary.rounds)


def test_end_state_is_the_live_encounter(fight: Session, summary: FightSummary) -> None:
    ruleset = get_ruleset("street-fighter")
    last = by_id(summary.rounds[-1].states)
    for fid in fight.encounter.order:
        card = ruleset.views.card(fight.encounter, fid)
        state = last[fid]
        assert (state.health, state.out, state.conditions) == (card.health, card.out,
                                                               card.conditions)
        assert [(r.label, r.value) for r in state.resources] == [
            (r.label, r.value) for r in card.resources
        ]


def test_every_roll_of_the_log_is_in_the_summary(fight: Session, summary: FightSummary) -> None:
    for rnd in summary.rounds:
        logged = [e.roll for entry in fight.log if entry.round == rnd.number
                  for e in entry.events if e.roll is not None]
        assert [d.faces for d in rnd.dice] == [tuple(r.faces) for r in logged]
    first = summary.rounds[0].dice[0]
    assert (first.who, first.faces, first.typed) == (
        "Kaede Moriyama", tuple(KAEDE_ROUND_ONE_DICE), True
    )
    assert all(not d.typed for d in summary.rounds[0].dice[1:])


def test_acting_order_runs_down_the_phases(summary: FightSummary) -> None:
    for rnd in summary.rounds:
        phases: list[int] = []
        for t in rnd.turns:
            if t.kind == "act":
                assert t.where.startswith("phase ")
                phases.append(int(t.where.removeprefix("phase ")))
        assert phases == sorted(phases, reverse=True)  # phases 10 down to 1
        assert all(t.maneuver and t.speed is not None for t in rnd.turns)
    interrupts = [t for r in summary.rounds for t in r.turns if t.kind == "interrupt"]
    assert len(interrupts) == 1 and interrupts[0].fighter == "Kaede Moriyama"


def test_points_and_damage_agree_with_the_state(summary: FightSummary) -> None:
    """EP before + gained - spent = EP after; health before - taken + healed = after
    (or 0 for someone knocked out by a bigger blow)."""
    before = by_id(summary.start_states)
    for rnd in summary.rounds:
        after = by_id(rnd.states)
        tallies = {t.fighter_id: t for t in rnd.tallies}
        for fid, end in after.items():
            t = tallies.get(fid)
            gained, spent = (t.points_gained, t.points_spent) if t else (0, 0)
            taken, healed = (t.damage_taken, t.healed) if t else (0, 0)
            ep_before = before[fid].resource("EP")
            ep_after = end.resource("EP")
            assert ep_before is not None and ep_after is not None
            assert ep_before.value + gained - spent == ep_after.value, (rnd.number, fid)
            expected = before[fid].health - taken + healed
            assert end.health == max(0, expected), (rnd.number, fid)
        before = after
    down = [name for r in summary.rounds for name in r.down]
    outs = [s.name for s in summary.rounds[-1].states if s.out]
    assert sorted(down) == sorted(outs)


def test_totals_and_both_renderings(summary: FightSummary) -> None:
    dealt = sum(t.damage_dealt for t in summary.totals)
    taken = sum(t.damage_taken for t in summary.totals)
    assert dealt == taken > 0  # every blow has an attacker in a real fight
    html, md = to_html(summary), to_markdown(summary)
    for t in summary.totals:
        assert t.fighter in html and t.fighter in md
    assert "typed in" in md and "app roll" in md and "Order of action" in html


def test_questions_asked_are_left_out_answers_kept(fight: Session, summary: FightSummary) -> None:
    """The log keeps the rules' questions ("dodge for 1 EP?"); the summary says what
    happened: the answers, not the questions."""
    asked = [e.text for entry in fight.log for e in entry.events if e.kind == "ask"]
    assert asked, "the demo rounds answer decisions, so the log holds questions"
    lines = [h.text for r in summary.rounds for a in r.actions for h in a.happenings]
    assert not set(asked) & set(lines)
    said = set(lines + [a.headline for r in summary.rounds for a in r.actions])
    # Each answer is told: by its own line, or by what the choice did ("spends 1 EP on
    # a dodge" for "dodges for 1 EP").
    answers = [[entry.summary, *(e.text for e in entry.events if e.roll is None
                                 and e.kind not in ("ask", "decision"))]
               for entry in fight.log if entry.command.get("kind") == "answer"]
    assert answers and all(said & set(told) for told in answers)
