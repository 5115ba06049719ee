"""The summary as data: read from a known log, figures worked out by hand from scripted.py."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightdesk.engine import commands as c
from fightdesk.engine.changes import Change
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Event, LogEntry, Session
from fightdesk.report import SummaryProblem, available_rounds, current_round, summarize
from fightdesk.report.summary import FighterState, FightSummary, Tally

from .scripted import BRANNOCK, KAEDE, THUG1, THUG2, THUG3, Script, two_round_fight


@pytest.fixture(scope="module")
def fight() -> Session:
    return two_round_fight()


@pytest.fixture(scope="module")
def whole(fight: Session) -> FightSummary:
    return summarize(fight)


def tally(tallies: tuple[Tally, ...], fid: str) -> Tally:
    return next(t for t in tallies if t.fighter_id == fid)


def test_the_script_is_a_consistent_log(fight: Session) -> None:
    assert Engine(fight).rebuild() == fight.encounter
    assert available_rounds(fight) == (1, 2)
    assert current_round(fight) == 2


def test_order_of_actors_per_round(whole: FightSummary) -> None:
    r1, r2 = whole.rounds
    assert [(t.fighter, t.kind, t.maneuver, t.where) for t in r1.turns] == [
        ("Kaede Moriyama", "act", "Jab", "phase 9"),
        ("Brannock Vale", "interrupt", "Short", "phase 9"),
        ("Dock Thug 1", "act", "Strong", "phase 6"),
        ("Kaede Moriyama", "act", "Forward", "phase 4"),
    ]
    assert (r1.turns[1].speed, r1.turns[1].points, r1.turns[1].die) == (12, 1, "9")
    assert r1.turns[1].describe("EP") == (
        "Brannock Vale (interrupts, Short, phase 9, die 9, speed 12, 1 EP)"
    )
    assert [(t.fighter, t.kind, t.maneuver) for t in r2.turns] == [
        ("Brannock Vale", "act", "Fierce"),
        ("Kaede Moriyama", "interrupt", "Block"),
        ("Dock Thug 3", "act", "Jab"),
    ]


def test_every_roll_with_faces_and_source(whole: FightSummary) -> None:
    r1, r2 = whole.rounds
    assert [(d.faces, d.typed) for d in r1.dice] == [
        ((7, 3, 9, 1), True),      # Brannock's Short, typed in
        ((6, 2, 4), False),        # Kaede's Jab, app roll
        ((10, 5), True),           # the dice bar, typed in
        ((8, 2), False),           # Dock Thug 1's Strong
        ((6, 7, 8, 2, 10), True),  # Kaede's Forward
    ]
    assert r1.dice[2].outcome == "1 success"
    assert r1.dice[0].describe() == (
        "Brannock Vale: 4d10 for Short damage [7, 3, 9, 1] typed in -> 2 successes"
    )
    assert [(d.faces, d.typed) for d in r2.dice] == [((3, 6), False), ((1,), True)]


def test_actions_keep_log_order_phases_and_exchanges(whole: FightSummary) -> None:
    r1 = whole.rounds[0]
    # The bare "Phase 9/6/4" entries become headings, not actions.
    assert [a.where for a in r1.actions] == [
        *[f"phase {p}" for p in (10, 9, 9, 6, 4, 4)], "end of the phases"]
    assert [a.kind for a in r1.actions][:3] == ["round", "act", "other"]
    # The interrupt and both resolutions are one undo step with the act they answer: one
    # row, the act's, with what each of them did after it.
    exchange = r1.actions[1]
    assert (exchange.actor, exchange.continues) == ("Kaede Moriyama", False)
    said = [h.text for h in exchange.happenings]
    assert said[0] == "Brannock Vale interrupts with Short (speed 12)"
    assert "Brannock Vale's Short hits Kaede Moriyama for 2" in said
    assert "Kaede Moriyama's Jab hits Brannock Vale for 1" in said
    assert not any(a.continues for a in r1.actions)
    assert r1.actions[0].actor == ""  # round start belongs to nobody
    note = r1.actions[-2]
    assert (note.kind, note.headline) == ("note", "Dock Thug 3 runs for the stairs")


def test_damage_points_conditions_and_down_per_round(whole: FightSummary) -> None:
    r1, r2 = whole.rounds
    k1 = tally(r1.tallies, KAEDE)
    assert (k1.actions, k1.damage_dealt, k1.damage_taken, k1.points_gained, k1.points_spent) == (
        2, 5, 3, 4, 1
    )
    b1 = tally(r1.tallies, BRANNOCK)
    assert (b1.damage_dealt, b1.damage_taken, b1.points_gained, b1.points_spent) == (2, 1, 2, 1)
    t2 = tally(r1.tallies, THUG2)
    assert (t2.damage_taken, t2.conditions_gained, t2.went_down) == (4, ["knocked down"], True)
    assert r1.down == ("Dock Thug 2",)
    k2 = tally(r2.tallies, KAEDE)
    assert (k2.damage_taken, k2.points_gained, k2.conditions_gained, k2.conditions_lost) == (
        1, 3, ["blocking"], ["blocking"]
    )
    assert tally(r2.tallies, BRANNOCK).healed == 1
    assert r2.down == ()


def test_fight_totals(whole: FightSummary) -> None:
    got = {t.fighter_id: (t.actions, t.damage_dealt, t.damage_taken, t.healed,
                          t.points_gained, t.points_spent) for t in whole.totals}
    assert got == {
        KAEDE: (3, 5, 4, 0, 7, 1),
        BRANNOCK: (2, 3, 1, 1, 3, 1),
        THUG1: (1, 1, 0, 0, 0, 0),
        THUG2: (0, 0, 4, 0, 0, 0),
        THUG3: (1, 0, 0, 0, 0, 0),
    }
    # Damage dealt and taken balance: every blow has a giver in this fight.
    assert sum(t.damage_dealt for t in whole.totals) == sum(t.damage_taken for t in whole.totals)
    assert whole.points_label == "EP"


def test_state_of_every_fighter_at_the_end_of_each_round(whole: FightSummary) -> None:
    def row(states: Sequence[FighterState], fid: str) -> tuple[int, int, int, tuple[str, ...], bool]:
        s = next(s for s in states if s.fighter_id == fid)
        ep = s.resource("EP")
        assert ep is not None
        return (s.health, s.health_max, ep.value, s.conditions, s.out)

    r1, r2 = whole.rounds
    assert [s.name for s in r1.states] == [
        "Kaede Moriyama", "Brannock Vale", "Dock Thug 1", "Dock Thug 2", "Dock Thug 3"
    ]
    assert row(r1.states, KAEDE) == (7, 10, 3, (), False)
    assert row(r1.states, BRANNOCK) == (11, 12, 1, (), False)
    assert row(r1.states, THUG2) == (0, 4, 0, ("knocked down",), True)
    assert row(r2.states, KAEDE) == (6, 10, 6, (), False)
    assert row(r2.states, BRANNOCK) == (12, 12, 2, (), False)
    chi = next(s for s in r2.states if s.fighter_id == KAEDE).resource("Chi")
    assert chi is not None and chi.text == "2/3"  # the GM's override in round 2


def test_chart_series(whole: FightSummary) -> None:
    chart = whole.chart
    assert chart.labels == ("start", "R1", "R2")
    assert chart.resource_label == "EP"
    series = {s.fighter_id: s for s in chart.series}
    assert series[KAEDE].health == (10, 7, 6)
    assert series[KAEDE].resource == (0, 3, 6)
    assert series[BRANNOCK].health == (12, 11, 12)
    assert series[THUG2].health == (4, 0, 0)
    assert chart.health_top == 12 and chart.resource_top == 6


def test_one_round_and_chosen_rounds(fight: Session) -> None:
    one = summarize(fight, [2])
    assert one.scope == "round" and not one.shows_totals
    assert [r.number for r in one.rounds] == [2]
    assert one.heading == "Rooftop duel at the harbour: Round 2"
    # The chart of a stretch starts where it starts: before round 2.
    assert {s.fighter_id: s.health for s in one.chart.series}[KAEDE] == (7, 6)
    chosen = summarize(fight, [2, 1])
    assert chosen.scope == "rounds" and [r.number for r in chosen.rounds] == [1, 2]


@pytest.mark.parametrize("rounds", [[3], [0], [-1], []])
def test_a_round_the_log_does_not_have_is_refused(fight: Session, rounds: list[int]) -> None:
    with pytest.raises(SummaryProblem, match=re.escape("not in this session (it has rounds 1..2)")):
        summarize(fight, rounds)


def test_empty_log_is_refused() -> None:
    session = Script().session
    with pytest.raises(SummaryProblem, match="log is empty"):
        summarize(session)


def test_a_log_that_does_not_replay_is_refused() -> None:
    s = Script()
    s.apply(c.Note(text="first"))
    broken = LogEntry(seq=1, step=1, command={"kind": "x"}, summary="bad edit",
                      changes=[Change(target=("fighters", "nobody", "status"), key="health",
                                      before=1, after=2)])
    s.session.log.append(broken)
    with pytest.raises(SummaryProblem, match=re.escape("log entry 1 ('bad edit') does not replay")):
        summarize(s.session)


def test_before_round_one_is_round_zero_and_newcomers_join_the_chart() -> None:
    s = Script()
    template = s.session.encounter.fighters[THUG1].model_dump(mode="json")
    template.update(name="Harbour Guard", group=None)
    s.apply(c.AddFighters(fighter=template))  # round 0: before round 1
    s.entry("Round 1 begins", Event(kind="round-start", text="Round 1 begins"),
            sets=(((), "round", 1),))
    s.entry("Kaede hits the guard",
            Event(kind="damage", text="Harbour Guard takes 3", fighter_id=KAEDE,
                  data={"target": "Harbour Guard", "amount": 3}),  # a name, not an id
            sets=((("fighters", "harbour-guard", "status"), "health", 1),))
    summary = summarize(s.session)
    assert [r.title for r in summary.rounds] == ["Before round 1", "Round 1"]
    guard = next(x for x in summary.chart.series if x.name == "Harbour Guard")
    assert guard.health == (None, 4, 1)  # absent at the start, added before round 1
    t = {x.fighter: (x.damage_dealt, x.damage_taken) for x in summary.totals}
    assert t["Harbour Guard"] == (0, 3) and t["Kaede Moriyama"] == (3, 0)


@given(st.lists(st.tuples(st.sampled_from([KAEDE, BRANNOCK, THUG1]),
                          st.sampled_from([KAEDE, BRANNOCK, THUG1]),
                          st.integers(0, 4), st.booleans()), max_size=12))
def test_totals_are_the_sum_of_the_rounds(blows: list[tuple[str, str, int, bool]]) -> None:
    """Whatever the blows, fight totals equal the per-round sums, and dealt == taken."""
    s = Script()
    s.entry("Round 1", Event(kind="round-start", text="Round 1"), sets=(((), "round", 1),))
    for i, (giver, target, amount, new_round) in enumerate(blows):
        if new_round:
            s.entry("next", Event(kind="round-start", text="next"),
                    sets=(((), "round", s.session.encounter.round + 1),))
        s.entry(f"blow {i}",
                Event(kind="act", text="acts", fighter_id=giver, data={"maneuver": "Jab"}),
                Event(kind="damage", text="hit", fighter_id=giver,
                      data={"target": target, "amount": amount}))
    summary = summarize(s.session)
    for total in summary.totals:
        per_round = [t for r in summary.rounds for t in r.tallies if t.fighter_id == total.fighter_id]
        assert total.damage_taken == sum(t.damage_taken for t in per_round)
        assert total.actions == sum(t.actions for t in per_round)
    expected_dealt = sum(a for g, t, a, _ in blows if g != t)
    assert sum(t.damage_dealt for t in summary.totals) == expected_dealt
    assert sum(t.damage_taken for t in summary.totals) == sum(a for *_, a, _ in blows)
    assert sum(len(r.turns) for r in summary.rounds) == len(blows)
