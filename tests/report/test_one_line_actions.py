"""The printed summary gives one action one line: a step's entries (a move, its
interrupts, the answers to its questions) are one row, each thing said once, with every
fact and every roll still there; two rounds of street-fighter fit in a few pages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from fightdesk.engine.model import LogEntry, Session
from fightdesk.report import summarize
from fightdesk.report.blocks import Paragraph, Style, Table
from fightdesk.report.summary import FightSummary
from fightdesk.storage.sessions import load_session
from fightdesk.ui.summary_files import write_pdf
from fightdesk.ui.summary_pages import Layout

from .test_summary_pages import a4_writer, cell

STREET_FIGHTER = Path(__file__).resolve().parents[1] / "storage" / "data" / "street_fighter_v1.json"


@pytest.fixture(scope="module")
def fight() -> Session:
    """Three rounds of street-fighter played in the window (a GM's holds, interrupts,
    dodges, overrides and dice-bar rolls)."""
    return load_session(STREET_FIGHTER)


@pytest.fixture(scope="module")
def two_rounds(fight: Session) -> FightSummary:
    return summarize(fight, [1, 2])


def says_more(fuller: str, line: str) -> bool:
    """``fuller`` is ``line`` with more after it: "X resolves (speed 10)", "X resolves"."""
    return len(fuller) > len(line) and fuller.startswith(line) and fuller[len(line)] in " (:,;"


def row_lines(summary: FightSummary) -> list[list[str]]:
    """Each action row's lines: its own, then what followed (rolls left out)."""
    return [[a.headline, *(h.text for h in a.happenings if h.roll is None and h.kind != "step")]
            for r in summary.rounds for a in r.actions]


def test_a_step_is_one_row(fight: Session, two_rounds: FightSummary) -> None:
    steps: dict[int, list[LogEntry]] = {}
    for entry in fight.log:
        if entry.round in (1, 2):
            steps.setdefault(entry.step, []).append(entry)
    # A bare "Phase 9" is a heading, not a row; every other step is one row, its first
    # entry's.
    def bare(step: list[LogEntry]) -> bool:
        kinds = [ev.kind for ev in step[0].events if ev.kind != "ask"]
        return len(step) == 1 and bool(kinds) and all(k == "step" for k in kinds)

    shown = [step[0].seq for step in steps.values() if not bare(step)]
    rows = [a for r in two_rounds.rounds for a in r.actions]
    assert [a.seq for a in rows] == shown
    assert not any(a.continues for a in rows)


def test_no_row_says_a_thing_twice(two_rounds: FightSummary) -> None:
    for lines in row_lines(two_rounds):
        for line in lines:
            assert not any(says_more(other, line) for other in lines), (line, lines)
        assert not [line for line in lines if " chooses: " in line], lines
        resolved = [line for line in lines if " resolves" in line]
        moves = [line.split(" resolves")[0] for line in resolved]
        assert len(moves) == len(set(moves)), lines


def test_every_fact_and_roll_is_kept(fight: Session, two_rounds: FightSummary) -> None:
    """What the log says happened is on the rows: each line, or a fuller line saying it;
    the questions asked and an answer's restated decision are the only lines left out,
    and an answer is told by what it did."""
    said = [line for lines in row_lines(two_rounds) for line in lines]
    rolls = [d.describe() for r in two_rounds.rounds for d in r.dice]
    for entry in fight.log:
        if entry.round not in (1, 2):
            continue
        for event in entry.events:
            if event.roll is not None:
                continue
            if event.kind in ("ask", "decision", "step"):
                continue
            text = event.text
            assert text in said or any(says_more(line, text) for line in said) or \
                any(f"({text.split(' spends ')[-1].split(' on ')[0]})" in line for line in said), text
    logged = [e.roll for entry in fight.log if entry.round in (1, 2)
              for e in entry.events if e.roll is not None]
    assert len(rolls) == len(logged)


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="needs pdfinfo (poppler-utils)")
def test_two_rounds_of_street_fighter_take_a_few_pages(qapp: object, two_rounds: FightSummary,
                                                      tmp_path: Path) -> None:
    """On Letter these two rounds took 11 pages, one row and one line per log entry; one
    row per action, what followed run on after it, they take 7."""
    pdf = tmp_path / "two-rounds.pdf"
    write_pdf(two_rounds, pdf, "letter")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    pages = int(next(line.split()[-1] for line in info.stdout.splitlines()
                     if line.startswith("Pages:")))
    assert pages <= 8


def test_a_tall_row_starts_where_there_is_room(qapp: object) -> None:
    """A long action (a quarter of a page) after half a page of text starts on that page
    and runs on over the next, rather than leaving half a page empty."""
    layout = Layout(a4_writer())
    filler = [Paragraph(((f"Line {n}", Style.PLAIN),)) for n in range(25)]
    lines = tuple(((f"what happened {n}", Style.PLAIN),) for n in range(40))
    table = Table(("When", "What happened"), (False, False), ((cell("phase 1"), lines),))
    pages = layout.pages(layout.units([*filler, table]))
    first = [text for _, _, text, _ in pages[0].texts()]
    assert "Line 24" in first and "what happened 0" in first
    said = [text for page in pages for _, _, text, _ in page.texts()
            if text.startswith("what happened")]
    assert said == [f"what happened {n}" for n in range(40)]
    for page in pages:
        for top, unit in page.placed:
            assert top + unit.height <= layout.bottom + 0.01
