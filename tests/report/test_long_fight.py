"""A long fight's summary on paper: every round readable, nothing cut off at the page edge.

The fight is the demo played on by the ruleset's autopilot (seeded) for 40 rounds: the
health table then has some 40 round columns, far more than a page is wide."""

from __future__ import annotations

import itertools
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QBuffer
from PySide6.QtGui import QFont, QFontMetricsF, QPageLayout, QPageSize, QPdfWriter

from fightdesk.engine.engine import Engine
from fightdesk.report import summarize, to_html
from fightdesk.report.render import column_blocks
from fightdesk.report.summary import FightSummary
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.chart import label_rects, round_labels
from fightdesk.ui.summary_files import (
    PAGE_MARGINS_MM,
    PAPER_SIZES,
    PDF_DPI,
    Paper,
    round_columns_that_fit,
    text_width_px,
    write_pdf,
)
from fightdesk.ui.summary_pages import lay_out

from .scripted import two_round_fight

ROUNDS = 40


@pytest.fixture(scope="module")
def long_fight() -> FightSummary:
    engine = Engine(demo_session())
    rng = random.Random(1)
    while engine.encounter.round <= ROUNDS:
        command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
        assert command is not None
        assert engine.apply(command).ok
    return summarize(engine.session)


@pytest.mark.parametrize(("count", "per_block"), [(42, 10), (41, 13), (7, 7), (7, 20), (5, 1)])
def test_blocks_cover_every_column_once_and_evenly(count: int, per_block: int) -> None:
    blocks = column_blocks(count, per_block)
    assert [i for block in blocks for i in block] == list(range(count))
    sizes = [len(block) for block in blocks]
    assert max(sizes) <= per_block and max(sizes) - min(sizes) <= 1
    assert len(blocks) == -(-count // per_block)


def test_no_table_is_wider_than_the_page(qapp: object, long_fight: FightSummary) -> None:
    """The 40 rounds' health table comes in blocks that fit the page's text width, and
    no rule or text of any table stands outside it."""
    for paper in ("a4", "letter"):
        writer = QPdfWriter(QBuffer())
        writer.setResolution(PDF_DPI)
        writer.setPageLayout(QPageLayout(QPageSize(PAPER_SIZES[paper]),
                                         QPageLayout.Orientation.Portrait, PAGE_MARGINS_MM,
                                         QPageLayout.Unit.Millimeter))
        layout, pages = lay_out(long_fight, writer)
        right = layout.left + layout.text_width
        headings = [unit for page in pages for _, unit in page.placed
                    if unit.fills and unit.texts[0][2] == "Fighter"
                    and unit.texts[-1][2].startswith(("R", "start", "pre"))]
        assert len({id(unit) for unit in headings}) > 1, "the 40 rounds come in several blocks"
        for page in pages:
            for rule in page.rules:
                assert layout.left - 1 <= min(rule.x1(), rule.x2())
                assert max(rule.x1(), rule.x2()) <= right + 1, (paper, rule)
            for x, _, text, font in page.texts():
                assert x + layout.measure.width(font, text) <= right + 1, (paper, text)


def pdf_text(path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_round_is_on_the_page(qapp: object, long_fight: FightSummary, tmp_path: Path,
                                    paper: Paper) -> None:
    target = tmp_path / "long.pdf"
    write_pdf(long_fight, target, paper)
    text = pdf_text(target)
    health = text[text.index("Health after each round"):text.index("Before round 1")]
    for n in range(1, ROUNDS + 1):
        assert re.search(rf"\bR{n}\b", health), f"R{n} is cut off the page"


def test_chart_labels_do_not_overlap(qapp: object, long_fight: FightSummary) -> None:
    for panel in label_rects(long_fight.chart):
        texts = [label for _, label in panel]
        assert texts[0] == "start" and "R10" in texts and "R40" in texts
        assert len(texts) < len(long_fight.chart.labels)  # thinned
        for (a, _), (b, _) in itertools.pairwise(panel):
            assert a.right() < b.left()


def test_short_fight_keeps_every_label_and_one_table(qapp: object) -> None:
    whole = summarize(two_round_fight())
    for panel in label_rects(whole.chart):
        assert [label for _, label in panel] == list(whole.chart.labels)
    # Its rounds fit side by side: one table, the page as it always was.
    a4 = QPageLayout(QPageSize(PAPER_SIZES["a4"]), QPageLayout.Orientation.Portrait,
                     PAGE_MARGINS_MM, QPageLayout.Unit.Millimeter)
    assert round_columns_that_fit(whole, text_width_px(a4)) is None
    assert to_html(whole, None, len(whole.chart.labels)) == to_html(whole, None)
    assert to_html(whole, None, 1) != to_html(whole, None)  # a split does change the page


@settings(max_examples=40, deadline=None)
@given(rounds=st.lists(st.integers(1, 200), min_size=1, max_size=80, unique=True),
       spacing=st.floats(0.5, 60))
def test_round_labels_never_overlap(qapp: object, rounds: list[int], spacing: float) -> None:
    """Any rounds (chosen rounds need not follow one another), any room between points."""
    labels = ["start", *(f"R{n}" for n in sorted(rounds))]
    metrics = QFontMetricsF(QFont("DejaVu Sans", 8))
    kept = round_labels(labels, [10 + i * spacing for i in range(len(labels))], 0, metrics)
    assert kept[0][1] == "start"
    for (a, _), (b, _) in itertools.pairwise(kept):
        assert a.right() < b.left()
