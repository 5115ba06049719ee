"""Every line of a summary reaches the page: each round, each action with what else
happened and its dice, the acting order and everyone's state are in the HTML, in the
Markdown and in the PDF's document, and the PDF's text holds every word of that
document; the PDF's pages are the pages Qt's own printing of the same document gives
(compared as images)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage, QPageLayout, QPageSize, QPdfWriter

from fightdesk.engine.model import Session
from fightdesk.report import summarize, to_html, to_markdown
from fightdesk.report.summary import FightSummary
from fightdesk.ui.chart import png_bytes, render_chart
from fightdesk.ui.summary_files import (
    PAGE_MARGINS_MM,
    PAPER_SIZES,
    PDF_DPI,
    summary_document,
    write_pdf,
)

from .demo_rounds import played_demo_rounds


@pytest.fixture(scope="module")
def fight() -> Session:
    return played_demo_rounds()


@pytest.fixture(scope="module")
def whole(fight: Session) -> FightSummary:
    return summarize(fight)


def flat(text: str) -> str:
    """One space between words, ligatures (``ﬁ``) as letters."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def lines_of(summary: FightSummary, markdown: bool = False) -> list[str]:
    """What the GM must find on the page, in the summary's own words (a roll as the
    HTML and the PDF show it, or as Markdown's one line)."""
    points = summary.points_label
    out: list[str] = [t.fighter for t in summary.totals]
    for rnd in summary.rounds:
        out += [rnd.title, rnd.end_title]
        out += [t.describe(points) for t in rnd.turns]
        for action in rnd.actions:
            out.append(action.headline)
            out += [h.text for h in action.happenings
                    if h.roll is None and h.kind != "step" and not action.headline.startswith(h.text)]
            for d in action.dice:
                who = f"{d.who}: " if d.who else ""
                purpose = f" {d.purpose}" if d.purpose else ""
                out.append(d.describe() if markdown
                           else f"{who}{d.notation}{purpose} [{d.faces_text}] {d.source}")
        for s in rnd.states:
            out += [s.name, f"{s.health}/{s.health_max}"]
    return [flat(line) for line in out if line]


def missing(lines: list[str], text: str) -> list[str]:
    return [line for line in lines if line not in text]


def test_the_pinned_rounds_have_lines_of_every_kind(whole: FightSummary) -> None:
    actions = [a for r in whole.rounds for a in r.actions]
    assert [r.number for r in whole.rounds] == [0, 1, 2] and len(actions) > 20
    assert any(a.dice for a in actions) and any(a.kind == "act" for a in actions)
    assert any(not a.headline.startswith(h.text) for a in actions for h in a.happenings)
    assert len(lines_of(whole)) > 100


def test_chart_png_keeps_every_pixel(qapp: object, whole: FightSummary) -> None:
    """The chart is written as a grey PNG when it is all greys: the same pixels."""
    painted = render_chart(whole.chart)
    assert painted.allGray()
    data = png_bytes(painted)
    read = QImage.fromData(data)
    assert read.format() == QImage.Format.Format_Grayscale8
    assert read.convertToFormat(painted.format()) == painted
    coloured = painted.copy()
    coloured.setPixelColor(3, 3, QColor("red"))
    assert QImage.fromData(png_bytes(coloured)).convertToFormat(painted.format()) == coloured


def test_every_line_is_in_the_html_and_the_markdown(whole: FightSummary) -> None:
    lines = lines_of(whole)
    page = flat(html.unescape(re.sub(r"<[^>]+>", " ", to_html(whole))))
    assert missing(lines, page) == []
    markdown = flat(re.sub(r"\\(.)", r"\1", to_markdown(whole)).replace("`", ""))
    assert missing(lines_of(whole, markdown=True), markdown) == []


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_every_line_is_in_the_pdf(qapp: object, whole: FightSummary, tmp_path: Path) -> None:
    document = summary_document(whole).toPlainText()
    assert missing(lines_of(whole), flat(document)) == []
    target = tmp_path / "fight.pdf"
    write_pdf(whole, target, "a4")
    text = subprocess.run(["pdftotext", str(target), "-"], capture_output=True,
                          text=True, check=True).stdout
    pages = [page for page in text.split("\f") if page.strip()]
    numbers = [str(n) for n in range(1, len(pages) + 1)]
    assert [page.split()[-1] for page in pages] == numbers  # each page's number at its foot
    # Every letter and digit of the document is on the pages (counted, as a cell cut by a
    # page break reads on across the page's foot), with the page numbers and the
    # acting order's item numbers the document keeps as list formats, not text.
    listed = [str(n) for r in whole.rounds for n in range(1, len(r.turns) + 1)]
    expected = Counter(c for c in flat(document) if c.isalnum())
    expected.update(c for number in numbers + listed for c in number)
    assert Counter(c for c in flat(text) if c.isalnum()) == expected


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_pdf_pages_are_those_of_qt_printing(qapp: object, whole: FightSummary,
                                            tmp_path: Path) -> None:
    """The PDF is laid out once and painted page by page; the pages are the ones Qt's
    ``QTextDocument.print_`` gives the same document (which copies and lays it out again)."""
    ours = tmp_path / "ours.pdf"
    write_pdf(whole, ours, "letter")
    qts = tmp_path / "qt.pdf"
    writer = QPdfWriter(str(qts))
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(QPageLayout(QPageSize(PAPER_SIZES["letter"]),
                                     QPageLayout.Orientation.Portrait,
                                     PAGE_MARGINS_MM, QPageLayout.Unit.Millimeter))
    summary_document(whole).print_(writer)
    del writer
    images: list[list[bytes]] = []
    for pdf in (ours, qts):
        folder = tmp_path / pdf.stem
        folder.mkdir()
        subprocess.run(["pdftoppm", "-r", "72", "-gray", str(pdf), str(folder / "p")], check=True)
        images.append([p.read_bytes() for p in sorted(folder.iterdir())])
    assert len(images[0]) >= 3
    assert images[0] == images[1]
