"""Every line of a summary reaches the page: each round, each action with what else
happened and its dice, the acting order and everyone's state are in the HTML, in the
Markdown and in the PDF's blocks, and the PDF's text holds every letter of the HTML's;
printing on paper gives the PDF's pages (compared as images)."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtPrintSupport import QPrinter

from fightdesk.engine.model import Session
from fightdesk.report import summarize, to_html, to_markdown
from fightdesk.report.blocks import blocks_text, summary_blocks
from fightdesk.report.summary import FightSummary
from fightdesk.ui.chart import png_bytes, render_chart
from fightdesk.ui.printing import prepare_printer, print_summary
from fightdesk.ui.summary_files import PDF_DPI, write_pdf

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


def html_text(summary: FightSummary) -> str:
    """The words of the HTML page's body, as a browser shows them."""
    page = to_html(summary)
    body = page[page.index("<body>"):]
    return flat(html.unescape(re.sub(r"<[^>]+>", " ", body)))


def test_the_pdf_blocks_say_what_the_html_says(whole: FightSummary) -> None:
    blocks = flat(blocks_text(summary_blocks(whole)))
    assert missing(lines_of(whole), blocks) == []
    assert Counter(blocks.replace(" ", "")) == Counter(html_text(whole).replace(" ", ""))


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_every_line_is_in_the_pdf(qapp: object, whole: FightSummary, tmp_path: Path) -> None:
    target = tmp_path / "fight.pdf"
    write_pdf(whole, target, "a4")
    text = subprocess.run(["pdftotext", str(target), "-"], capture_output=True,
                          text=True, check=True).stdout
    pages = [page for page in text.split("\f") if page.strip()]
    numbers = [str(n) for n in range(1, len(pages) + 1)]
    assert [page.split()[-1] for page in pages] == numbers  # each page's number at its foot
    # Every letter and digit of the HTML page is on the pages (counted, as a wrapped cell
    # reads across its neighbours), with the page numbers and the acting order's item
    # numbers (the HTML's list numbers are not text). The pages hold more: the chart's
    # labels and the heading rows of tables that run on over a page.
    listed = [str(n) for r in whole.rounds for n in range(1, len(r.turns) + 1)]
    expected = Counter(c for c in html_text(whole) if c.isalnum())
    expected.update(c for number in numbers + listed for c in number)
    found = Counter(c for c in flat(text) if c.isalnum())
    assert expected - found == Counter()


def page_images(pdf: Path) -> list[bytes]:
    folder = pdf.with_suffix("")
    folder.mkdir()
    subprocess.run(["pdftoppm", "-r", "50", "-gray", str(pdf), str(folder / "p")], check=True)
    return [p.read_bytes() for p in sorted(folder.iterdir())]


def printed(summary: FightSummary, target: Path, pages: tuple[int, int] | None = None,
            copies: int = 1, collate: bool = True) -> Path:
    """File > Print's painting, on a printer that prints to a file, set up for Letter."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(target))
    printer.setResolution(PDF_DPI)
    prepare_printer(printer, summary, "letter")
    if pages is not None:
        printer.setFromTo(*pages)
    printer.setCopyCount(copies)
    printer.setCollateCopies(collate)
    print_summary(summary, printer)
    del printer
    return target


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_paper_printing_gives_the_pdf_pages(qapp: object, whole: FightSummary,
                                           tmp_path: Path) -> None:
    """File > Print paints the PDF's pages through the same painter: a printer set up for
    Letter gets the pages of the Letter PDF; a page range chosen in the print dialog, those
    pages only, and as many copies as asked (a file cannot make them itself)."""
    ours = tmp_path / "ours.pdf"
    write_pdf(whole, ours, "letter")
    pdf = page_images(ours)
    assert len(pdf) >= 3
    assert page_images(printed(whole, tmp_path / "printed.pdf")) == pdf
    assert page_images(printed(whole, tmp_path / "some.pdf", (2, 3))) == pdf[1:3]
    assert page_images(printed(whole, tmp_path / "two.pdf", (2, 3), 2)) == pdf[1:3] * 2
    assert (page_images(printed(whole, tmp_path / "each.pdf", (2, 3), 2, collate=False))
            == [pdf[1], pdf[1], pdf[2], pdf[2]])
