"""The summary's own page layout (PDF and paper): page breaks, the heading row again at
the top of a table's next page, wrapped cells that never leave their column, headings
kept with what follows, text painted as plain text."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter

from fightdesk.report import summarize
from fightdesk.report.blocks import Heading, Paragraph, Style, Table, summary_blocks
from fightdesk.ui.summary_files import PAGE_MARGINS_MM, PDF_DPI
from fightdesk.ui.summary_pages import Layout, Page, paint_pages

from .scripted import two_round_fight


def a4_writer(buffer: QBuffer | None = None) -> QPdfWriter:
    writer = QPdfWriter(buffer or QBuffer())
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait, PAGE_MARGINS_MM,
                                     QPageLayout.Unit.Millimeter))
    return writer


@pytest.fixture(scope="module")
def a4(qapp: object) -> Layout:
    return Layout(a4_writer())


def cell(text: str, style: Style = Style.PLAIN) -> tuple[tuple[tuple[str, Style], ...], ...]:
    return (((text, style),),)


def long_table(rows: int) -> Table:
    return Table(("Fighter", "Health", "What happened"), (False, True, False),
                 tuple((cell(f"Fighter {n}"), cell(str(n)),
                        cell(f"Fighter {n} swings at the thug by the crates and misses "
                             "by a hair, then steps back into the lamplight"))
                       for n in range(rows)))


def lines_of(page: Page) -> list[str]:
    return [text for _, _, text, _ in page.texts()]


def test_a_long_table_runs_on_with_its_heading_row_and_no_row_split(qapp: object) -> None:
    layout = Layout(a4_writer())
    pages = layout.pages(layout.units([Heading(2, "Round 1"), long_table(120)]))
    assert len(pages) >= 3
    heading_row = pages[0].placed[1][1]
    assert [text for _, _, text, _ in heading_row.texts] == ["Fighter", "Health", "What happened"]
    seen = []
    for page in pages:
        texts = lines_of(page)
        if page is not pages[0]:
            assert page.placed[0][1] is heading_row  # the heading row again, at the top
            assert page.placed[0][0] == layout.top
        seen += [int(t.split()[1]) for t in texts if t.startswith("Fighter ") and
                 len(t.split()) == 2]
        # Every row stands whole on its page, inside the margins.
        for top, unit in page.placed:
            assert layout.top <= top and top + unit.height <= layout.bottom + 0.01
    assert seen == list(range(120))  # each row once, in order


def test_a_word_wider_than_its_column_is_wrapped_inside_it(qapp: object) -> None:
    word = "Krrrrraaaaaaaaaaaaaaaaaaaaagh" * 8  # no space to break at
    table = Table(("Fighter", "Shout"), (False, False),
                  ((cell("Dock Thug 1"), cell(f"{word} and then {word}")),),
                  widths=(30, 70))
    layout = Layout(a4_writer())
    pages = layout.pages(layout.units([table]))
    assert len(pages) == 1
    row = pages[0].placed[-1][1]
    xs = row.columns.xs if row.columns else []
    shout = [(x, text) for x, _, text, font in row.texts if x >= xs[1]]
    assert len(shout) > 2  # broken over several lines
    for x, text in shout:
        assert x + layout.measure.width(Style.PLAIN, text) <= xs[2] + 0.01
    assert "".join(text for _, text in shout).replace(" ", "") == f"{word}andthen{word}"


def test_a_row_taller_than_a_page_goes_on_over_the_next(qapp: object) -> None:
    lines = tuple(((f"line {n}", Style.PLAIN),) for n in range(200))
    table = Table(("When", "What happened"), (False, False), ((cell("phase 1"), lines),))
    layout = Layout(a4_writer())
    pages = layout.pages(layout.units([table]))
    assert len(pages) >= 3
    said = [t for page in pages for t in lines_of(page) if t.startswith("line ")]
    assert said == [f"line {n}" for n in range(200)]
    for page in pages:
        for top, unit in page.placed:
            assert top + unit.height <= layout.bottom + 0.01


def test_a_heading_is_never_last_on_its_page(qapp: object) -> None:
    layout = Layout(a4_writer())
    filler = [Paragraph(((f"Line {n}", Style.PLAIN),)) for n in range(300)]
    moved = 0
    for cut in range(30, 110):  # the heading lands at every place near the page's foot
        pages = layout.pages(layout.units([*filler[:cut], Heading(3, "Actions and reactions"),
                                           long_table(3)]))
        moved += pages[-1].placed[0][1].texts[0][2] == "Actions and reactions"
        for page in pages:
            last = page.placed[-1][1]
            assert last.texts[0][2] != "Actions and reactions", cut
            assert not last.fills, cut  # nor a table's heading row alone
    assert moved >= 3  # taken over to the next page with its table, where it would be alone


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_text_from_the_file_is_painted_as_it_is(qapp: object, tmp_path: Path) -> None:
    name = "<b>Thug</b> & <i>Co</i> &amp; [link](x)"
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = a4_writer(buffer)
    layout = Layout(writer)
    pages = layout.pages(layout.units([Heading(2, name), long_table(1)]))
    paint_pages(layout, pages, writer)
    del writer
    (tmp_path / "p.pdf").write_bytes(bytes(data.data()))
    text = subprocess.run(["pdftotext", str(tmp_path / "p.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert name in text


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzWM0123456789()→–", min_size=1, max_size=60)
runs = st.tuples(st.lists(words, min_size=1, max_size=8).map(" ".join),
                 st.sampled_from(list(Style)))
cells = st.lists(st.lists(runs, min_size=1, max_size=2).map(tuple), max_size=2).map(tuple)


@settings(max_examples=25, deadline=None)
@given(data=st.data(), columns=st.integers(1, 6), rows=st.integers(1, 8),
       spread=st.booleans())
def test_any_table_stays_in_its_columns_and_keeps_every_letter(
        a4: Layout, data: st.DataObject, columns: int, rows: int, spread: bool) -> None:
    """Whatever the cells hold (words longer than a column, several fonts in a line), every
    piece of text stands inside its column and on its page, and every letter is there
    (the heading row's again on each page the table runs on to)."""
    head = tuple(data.draw(st.lists(words, min_size=columns, max_size=columns)))
    numeric = tuple(data.draw(st.lists(st.booleans(), min_size=columns, max_size=columns)))
    body = tuple(tuple(data.draw(st.lists(cells, min_size=columns, max_size=columns)))
                 for _ in range(rows))
    widths = tuple([100 // columns] * columns) if spread else None
    table = Table(head, numeric, body, widths=widths)
    layout = a4
    pages = layout.pages(layout.units([table]))
    written: Counter[str] = Counter()
    for page in pages:
        for top, unit in page.placed:
            assert top + unit.height <= layout.bottom + 0.01 or unit.height > layout.bottom
            assert unit.columns is not None
            xs = unit.columns.xs
            assert xs[-1] <= layout.left + layout.text_width + 0.01
            for x, _, text, font in unit.texts:
                column = max(c for c in range(columns) if xs[c] <= x + 0.01)
                assert x + layout.measure.width(font, text) <= xs[column + 1] + 0.01, text
                written.update(text.replace(" ", ""))
    expected = Counter("".join(text for row in body for cell in row for line in cell
                               for text, _ in line).replace(" ", ""))
    for _ in pages:
        expected.update("".join(head).replace(" ", ""))
    assert written == expected


def test_line_breaks_in_the_file_read_as_spaces() -> None:
    """A newline would join two words on the page (Qt draws it as nothing), so line
    breaks and tabs in the fight's text are spaces, as in the HTML."""
    fight = summarize(two_round_fight())
    moved = dataclasses.replace(fight, title="Rooftop\nduel\tat\r\nnight")
    title = summary_blocks(moved)[0]
    assert title == Heading(1, "Rooftop duel at  night")


def test_a_long_name_wraps_in_the_health_table_rather_than_thin_its_blocks(a4: Layout) -> None:
    name = "Grand" + "a" * 150 + " Master of the Harbour Guild"
    rows = tuple(tuple(cell(name if c == 0 else "12 (3)") for c in range(41)) for _ in range(3))
    table = Table(("Fighter", *(f"R{n}" for n in range(1, 41))), (False,) + (True,) * 40, rows,
                  split_rounds=True)
    pages = a4.pages(a4.units([table]))
    blocks = [unit for page in pages for _, unit in page.placed if unit.fills]
    assert 4 <= len(blocks) <= 8  # several rounds a block, not one
    right = a4.left + a4.text_width
    for page in pages:
        for x, _, text, font in page.texts():
            assert x + a4.measure.width(font, text) <= right + 0.01
