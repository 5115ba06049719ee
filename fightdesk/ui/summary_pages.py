"""The summary's pages, laid out and painted by fightdesk: the PDF and paper printing.

Qt's text document spent four fifths of a long fight's PDF on its tables (every cell
laid out twice, its format copied dozens of times; benchmarks/storage.py). Here
the summary's blocks (``fightdesk.report.blocks``) are laid out once with the device's
own font metrics: each cell's lines wrapped to its column (a word wider than its column
is broken where it must, never cut), rows never split across pages unless a row is
tall (a fifth of a page: one long action) and would leave the page's foot empty, a
table's heading row repeated at the top of each page it runs on, a heading kept with what follows it, the page number at the foot of each page. Then
the pages are painted with ``QPainter`` on any paged device: a ``QPdfWriter`` for the
PDF, a ``QPrinter`` for paper and the print preview, so paper and PDF show the same
pages. Text is drawn as plain text, never read as markup.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QPagedPaintDevice,
    QPainter,
    QPen,
)

from ..report.blocks import (
    Block,
    Chart,
    Heading,
    NumberedList,
    Paragraph,
    Style,
    Table,
    summary_blocks,
)
from ..report.render import column_blocks
from ..report.summary import FightChart, FightSummary
from .page_text import HEADING_FONTS, Measure, Runs, TextLine

# The page: a 2 cm margin inside the device's page rectangle, the page number at the
# foot, in the bottom margin.
MARGIN_CM = 2.0
HEADING_FILL = QColor(0xE6, 0xE6, 0xE6)

# Space above and below, in CSS pixels (a 96th of an inch), as the HTML's CSS has it.
_HEADING_SPACE = {1: (0, 2), 2: (18, 6), 3: (10, 4)}
_PARAGRAPH_SPACE = (2, 4)
_META_SPACE = (2, 8)
_LIST_SPACE = (0, 4)
_TABLE_SPACE = (2, 6)
_LIST_INDENT = 40
_CELL_PAD_X, _CELL_PAD_Y = 5, 3
# A table row taller than this share of the page may run on over a page's foot; a
# shorter one moves whole to the next page.
TALL_ROW = 0.2
# A column that keeps its text on one line (fighter names) takes at most this share of
# the page before it wraps too.
_NOWRAP_SHARE = 0.4


# --- what a page holds --------------------------------------------------------------------


@dataclass(slots=True)
class Page:
    """What one page shows: the units placed on it (each with its top), and the rules of
    its tables, in the device's units from the page's top left corner."""

    placed: list[tuple[float, _Unit]] = field(default_factory=list)
    rules: list[QLineF] = field(default_factory=list)

    def texts(self) -> list[tuple[float, float, str, int]]:
        """Every piece of text on the page: where its baseline starts, the text, its font."""
        return [(x, top + y, text, font) for top, unit in self.placed
                for x, y, text, font in unit.texts]


@dataclass(slots=True)
class _Columns:
    """A table's columns on the page: where each starts, and where the last ends."""

    xs: list[float]


@dataclass(slots=True)
class _Unit:
    """Something placed on a page whole: a heading, a line, a table row, the chart.

    ``texts`` and ``fills`` are relative to the unit's top; a table row keeps its laid
    out cells (``cells``) so that a row taller than a page can be split between lines."""

    height: float
    space_above: float
    space_below: float
    keep_with_next: bool = False
    texts: list[tuple[float, float, str, int]] = field(default_factory=list)
    fills: list[tuple[float, float, float]] = field(default_factory=list)  # x, width, height
    chart: FightChart | None = None
    chart_size: tuple[int, int] = (0, 0)  # in CSS pixels
    chart_scale: float = 1.0  # device units a CSS pixel
    columns: _Columns | None = None
    header: _Unit | None = None  # the heading row to repeat above this row on a new page
    cells: list[list[TextLine]] | None = None
    aligns_right: Sequence[bool] = ()
    pad_y: float = 0.0


class Layout:
    """The summary laid out on ``device``'s pages."""

    def __init__(self, device: QPagedPaintDevice) -> None:
        self.measure = Measure(device)
        dpi = device.logicalDpiY()
        self.px = dpi / 96.0
        self.pt = dpi / 72.0
        self.margin = MARGIN_CM / 2.54 * dpi
        self.page_width = device.width()
        self.page_height = device.height()
        self.left = self.margin
        self.text_width = self.page_width - 2 * self.margin
        self.top = self.margin
        self.bottom = self.page_height - self.margin

    # Blocks into units ----------------------------------------------------------------------

    def units(self, blocks: Sequence[Block]) -> list[_Unit]:
        out: list[_Unit] = []
        for block in blocks:
            if isinstance(block, Heading):
                out += self._lines(((block.text, Style.PLAIN),), _HEADING_SPACE[block.level],
                                   font=HEADING_FONTS[block.level], keep=True)
            elif isinstance(block, Paragraph):
                out += self._lines(block.runs, _META_SPACE if block.meta else _PARAGRAPH_SPACE)
            elif isinstance(block, NumberedList):
                out += self._list(block)
            elif isinstance(block, Table):
                for table in self._fitting(block):
                    out += self._table(table)
            elif isinstance(block, Chart):
                out.append(self._chart(block))
        return out

    def _lines(self, runs: Runs, space: tuple[int, int], font: int | None = None,
               keep: bool = False, indent: float = 0.0) -> list[_Unit]:
        if font is not None:
            runs = tuple((text, font) for text, _ in runs)
        lines = self.measure.wrap(runs, self.text_width - indent) or [
            TextLine(self.measure.height[Style.PLAIN], self.measure.ascent[Style.PLAIN], 0, [])]
        units = []
        for i, line in enumerate(lines):
            units.append(_Unit(
                line.height, space[0] * self.px if i == 0 else 0.0,
                space[1] * self.px if i == len(lines) - 1 else 0.0, keep_with_next=keep,
                texts=[(self.left + indent + x, line.ascent, text, f) for x, text, f in line.pieces]))
        return units

    def _list(self, block: NumberedList) -> list[_Unit]:
        indent = _LIST_INDENT * self.px
        units = []
        for n, item in enumerate(block.items, 1):
            first = n == 1
            last = n == len(block.items)
            lines = self._lines(((item, Style.PLAIN),),
                                (_LIST_SPACE[0] if first else 0, _LIST_SPACE[1] if last else 0),
                                indent=indent)
            number = f"{n}."
            gap = self.measure.width(Style.PLAIN, " ")
            x = self.left + indent - gap - self.measure.width(Style.PLAIN, number)
            lines[0].texts.insert(0, (x, lines[0].texts[0][1] if lines[0].texts else 0.0,
                                      number, Style.PLAIN))
            units += lines
        return units

    def _chart(self, block: Chart) -> _Unit:
        from .chart import CHART_WIDTH, chart_height

        size = (CHART_WIDTH, chart_height(block.chart))
        # At its size in the HTML, or smaller where the page is (many fighters' legend).
        scale = min(self.px, self.text_width / size[0], (self.bottom - self.top) / size[1])
        return _Unit(size[1] * scale, _PARAGRAPH_SPACE[0] * self.px,
                     _PARAGRAPH_SPACE[1] * self.px, chart=block.chart, chart_size=size,
                     chart_scale=scale)

    # Tables -----------------------------------------------------------------------------------

    def _natural_widths(self, table: Table) -> list[float]:
        """Each column's width with no line wrapped, its padding included."""
        natural = self.measure.natural
        pad = 2 * _CELL_PAD_X * self.px
        widths = [self.measure.width(Style.BOLD, head) + pad for head in table.head]
        for row in table.rows:
            for c, cell in enumerate(row):
                for line in cell:
                    w = natural(line) + pad
                    if w > widths[c]:
                        widths[c] = w
        return widths

    def _fitting(self, table: Table) -> list[Table]:
        """The health table in blocks of rounds, each as wide as the page allows, as even as
        can be; any other table as it is."""
        if not table.split_rounds or len(table.head) < 3:
            return [table]
        widths = self._natural_widths(table)
        count = len(widths) - 1
        if sum(widths) <= self.text_width:
            return [table]

        # A long name wraps in its column rather than leave room for one round a block.
        first = min(widths[0], self.text_width * _NOWRAP_SHARE)

        def fits(per_block: int) -> bool:
            return all(first + sum(widths[i + 1] for i in columns) <= self.text_width
                       for columns in column_blocks(count, per_block))

        per_block = next((n for n in range(count - 1, 0, -1) if fits(n)), 1)
        out = []
        for columns in column_blocks(count, per_block):
            keep = [0, *(i + 1 for i in columns)]
            out.append(Table(tuple(table.head[i] for i in keep),
                             tuple(table.numeric[i] for i in keep),
                             tuple(tuple(row[i] for i in keep) for row in table.rows)))
        return out

    def _column_widths(self, table: Table) -> list[float]:
        """The columns' widths, padding included: as written if the table fits the page,
        else each column's narrowest (its longest word; a one-line column its text) and
        the rest shared by how much more each would take. Given percentages span the page."""
        room = self.text_width
        pad = 2 * _CELL_PAD_X * self.px
        columns = len(table.head)
        nowrap_cap = room * _NOWRAP_SHARE
        if table.widths is not None:
            widths = [room * p / 100 for p in table.widths]
            first = min(max((self.measure.natural(line) for row in table.rows
                             for line in row[0]), default=0.0) + pad, nowrap_cap)
            first = max(first, self.measure.width(Style.BOLD, table.head[0]) + pad)
            if first > widths[0]:
                rest = sum(widths[1:])
                scale = (room - first) / rest
                widths = [first] + [w * scale for w in widths[1:]]
            return self._whole_headings(table, widths, pad)
        natural = self._natural_widths(table)
        if sum(natural) <= room:
            return natural
        share = room / columns
        least = []
        for c in range(columns):
            if c == 0:  # fighter names on one line, unless they would take the page
                least.append(min(natural[0], max(nowrap_cap, share)))
                continue
            head = table.head[c]
            word = max((self.measure.longest_word(line) for row in table.rows
                        for line in row[c]), default=0.0)
            # A one-word heading on one line, as far as the column's share allows.
            head_w = (self.measure.width(Style.BOLD, head) if " " not in head
                      else self.measure.longest_word(((head, Style.BOLD),)))
            least.append(min(max(word, head_w) + pad, share))
        spare = room - sum(least)
        if spare <= 0:
            return [w * room / sum(least) for w in least]
        more = [n - m for n, m in zip(natural, least, strict=True)]
        total = sum(more) or 1.0
        return [m + spare * d / total for m, d in zip(least, more, strict=True)]

    def _whole_headings(self, table: Table, widths: list[float], pad: float) -> list[float]:
        """Widen a column too narrow for its heading's longest word (a heading never
        breaks inside a word: "Armou r"), taking the room from the columns that have
        more than their own heading needs, in proportion to what they can spare."""
        need = [self.measure.longest_word(((head, Style.BOLD),)) + pad for head in table.head]
        short = sum(max(0.0, n - w) for n, w in zip(need, widths, strict=True))
        spare = [max(0.0, w - n) for n, w in zip(need, widths, strict=True)]
        if short <= 0 or sum(spare) < short:
            return widths  # nothing to do, or a page too narrow for every heading
        take = short / sum(spare)
        return [max(n, w) if w < n else w - s * take
                for n, w, s in zip(need, widths, spare, strict=True)]

    def _table(self, table: Table) -> list[_Unit]:
        widths = self._column_widths(table)
        xs = [self.left]
        for w in widths:
            xs.append(xs[-1] + w)
        columns = _Columns(xs)
        pad_x, pad_y = _CELL_PAD_X * self.px, _CELL_PAD_Y * self.px
        inner = [w - 2 * pad_x for w in widths]
        wrap = self.measure.wrap
        right = table.numeric
        header = self._row(columns, [wrap(((h, Style.BOLD),), inner[c]) if h else []
                                     for c, h in enumerate(table.head)], right, pad_y)
        header.fills.append((xs[0], xs[-1] - xs[0], header.height))
        header.keep_with_next = True
        header.space_above = _TABLE_SPACE[0] * self.px
        units = [header]
        for row in table.rows:
            cells = [[line for hard in cell for line in wrap(hard, inner[c])]
                     for c, cell in enumerate(row)]
            unit = self._row(columns, cells, right, pad_y)
            unit.header = header
            units.append(unit)
        units[-1].space_below = _TABLE_SPACE[1] * self.px
        return units

    def _row(self, columns: _Columns, cells: list[list[TextLine]], right: Sequence[bool],
             pad_y: float) -> _Unit:
        pad_x = _CELL_PAD_X * self.px
        xs = columns.xs
        texts: list[tuple[float, float, str, int]] = []
        tallest = self.measure.height[Style.PLAIN]
        for c, lines in enumerate(cells):
            y = pad_y
            left = xs[c] + pad_x
            room = xs[c + 1] - xs[c] - 2 * pad_x
            for line in lines:
                x = left + (room - line.width if right[c] else 0.0)
                for dx, text, font in line.pieces:
                    texts.append((x + dx, y + line.ascent, text, font))
                y += line.height
            tallest = max(tallest, y - pad_y)
        return _Unit(tallest + 2 * pad_y, 0.0, 0.0, texts=texts, columns=columns, cells=cells,
                     aligns_right=right, pad_y=pad_y)

    def _split_row(self, unit: _Unit, room: float) -> tuple[_Unit, _Unit] | None:
        """A row taller than a page: the lines that fit in ``room``, and the rest."""
        assert unit.cells is not None and unit.columns is not None
        first: list[list[TextLine]] = []
        rest: list[list[TextLine]] = []
        for lines in unit.cells:
            used, k = 2 * unit.pad_y, 0
            while k < len(lines) and used + lines[k].height <= room:
                used += lines[k].height
                k += 1
            first.append(lines[:k])
            rest.append(lines[k:])
        if not any(first) or not any(rest):
            return None
        head = self._row(unit.columns, first, unit.aligns_right, unit.pad_y)
        tail = self._row(unit.columns, rest, unit.aligns_right, unit.pad_y)
        head.space_above, tail.space_below = unit.space_above, unit.space_below
        head.header = tail.header = unit.header
        return head, tail

    # Units onto pages ---------------------------------------------------------------------------

    def pages(self, units: Sequence[_Unit]) -> list[Page]:
        return _Paginator(self).run(units)


def _tall(unit: _Unit, full: float) -> bool:
    """A table row taller than ``TALL_ROW`` of a page (``full``): it may be split."""
    return unit.cells is not None and unit.height > full * TALL_ROW


class _Paginator:
    """Places units one under the other, page after page."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.pages: list[Page] = [Page()]
        self.y = layout.top  # where the next unit may start
        self.below = 0.0  # the space the last unit wants below it
        self.band: tuple[_Columns, float, float] | None = None  # table rules to draw

    def gap(self, unit: _Unit) -> float:
        return 0.0 if self.y == self.layout.top else max(self.below, unit.space_above)

    def run(self, units: Sequence[_Unit]) -> list[Page]:
        layout = self.layout
        full = layout.bottom - layout.top
        units = list(units)  # a row split between pages is replaced by what is left of it
        i = 0
        while i < len(units):
            unit = units[i]
            need = self.gap(unit) + unit.height
            # A heading (or a table's heading row) stays with what follows it.
            j = i
            while units[j].keep_with_next and j + 1 < len(units):
                j += 1
                # (of a tall row, the part that would stand on this page with it)
                kept = units[j].height if not _tall(units[j], full) else full * TALL_ROW
                need += max(units[j - 1].space_below, units[j].space_above) + kept
            if j > i and need > full:
                need = self.gap(unit) + unit.height
            # A tall row (one long action) starts where there is room and runs on over
            # the page's foot, rather than leaving the rest of the page empty.
            if self.y + need > layout.bottom and self.y > layout.top and not _tall(unit, full):
                self.new_page(unit)
            if self.y + self.gap(unit) + unit.height > layout.bottom and unit.cells is not None:
                parts = layout._split_row(unit, layout.bottom - self.y - self.gap(unit))
                if parts is None and self.y > layout.top:
                    self.new_page(unit)
                    parts = layout._split_row(unit, layout.bottom - self.y)
                if parts is not None:
                    self.place(parts[0])
                    units[i] = parts[1]
                    self.new_page(parts[1])
                    continue
            self.place(unit)
            i += 1
        self.close_band()
        return self.pages

    def new_page(self, unit: _Unit) -> None:
        self.close_band()
        self.pages.append(Page())
        self.y = self.layout.top
        self.below = 0.0
        if unit.header is not None:
            self.place(unit.header)

    def place(self, unit: _Unit) -> None:
        page = self.pages[-1]
        top = self.y + self.gap(unit)
        page.placed.append((top, unit))
        bottom = top + unit.height
        if unit.columns is not None:
            xs = unit.columns.xs
            if self.band is not None and self.band[0] is unit.columns and self.band[2] == top:
                self.band = (unit.columns, self.band[1], bottom)
            else:
                self.close_band()
                self.band = (unit.columns, top, bottom)
                page.rules.append(QLineF(xs[0], top, xs[-1], top))
            page.rules.append(QLineF(xs[0], bottom, xs[-1], bottom))
        else:
            self.close_band()
        self.y = bottom
        self.below = unit.space_below

    def close_band(self) -> None:
        if self.band is None:
            return
        columns, top, bottom = self.band
        self.pages[-1].rules += [QLineF(x, top, x, bottom) for x in columns.xs]
        self.band = None


# --- painting ------------------------------------------------------------------------------


def lay_out(summary: FightSummary, device: QPagedPaintDevice) -> tuple[Layout, list[Page]]:
    """The summary's pages on ``device`` (its page size and resolution), not yet painted."""
    layout = Layout(device)
    return layout, layout.pages(layout.units(summary_blocks(summary)))


def paint_pages(layout: Layout, pages: Sequence[Page], device: QPagedPaintDevice,
                chosen: Sequence[int] | None = None) -> int:
    """Paint ``pages`` on ``device``, each with its number at its foot: all of them, or
    those whose indices ``chosen`` lists, in its order; returns how many were painted."""
    if chosen is None:
        chosen = range(len(pages))
    painter = QPainter(device)
    if not painter.isActive():
        raise OSError("the page could not be opened for painting")
    fonts = layout.measure.fonts
    number_font = Style.PLAIN
    number_y = layout.bottom + layout.measure.ascent[number_font] + 5 * layout.pt
    right = layout.page_width - layout.margin
    text_pen = QPen(Qt.GlobalColor.black)
    rule_pen = QPen(Qt.GlobalColor.black, layout.px)
    rule_pen.setCapStyle(Qt.PenCapStyle.SquareCap)
    try:
        for n, index in enumerate(chosen):
            if n and not device.newPage():
                raise OSError("a new page could not be started")
            current = -1
            painter.setPen(text_pen)
            for top, unit in pages[index].placed:
                for x, w, h in unit.fills:
                    painter.fillRect(QRectF(x, top, w, h), HEADING_FILL)
                if unit.chart is not None:
                    _paint_chart(painter, unit.chart, unit.chart_size, layout.left, top,
                                 unit.chart_scale)
                    current = -1
                for x, y, text, font in unit.texts:
                    if font != current:
                        painter.setFont(fonts[font])
                        current = font
                    painter.drawText(QPointF(x, top + y), text)
            painter.setFont(fonts[number_font])
            number = str(index + 1)
            painter.drawText(QPointF(right - layout.measure.width(number_font, number),
                                     number_y), number)
            painter.setPen(rule_pen)
            painter.drawLines(pages[index].rules)
    finally:
        painter.end()
    return len(chosen)


def _paint_chart(painter: QPainter, chart: FightChart, size: tuple[int, int], left: float,
                 top: float, scale: float) -> None:
    """The chart drawn on the page itself (lines and text, sharp at any size)."""
    from .chart import paint_chart

    painter.save()
    painter.translate(left, top)
    painter.scale(scale, scale)
    paint_chart(painter, chart, *size)
    painter.restore()


def paint_summary(summary: FightSummary, device: QPagedPaintDevice,
                  choose: Callable[[int], Sequence[int]] | None = None) -> int:
    """Lay the summary out on ``device``'s pages and paint them: all, or the indices
    ``choose`` picks given the number of pages (a printer's range, copies and order);
    returns the number of pages painted."""
    # The layout makes tens of thousands of small objects, none of them garbage; the
    # cyclic collector would walk them all again and again (as a long fight's load would).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        layout, pages = lay_out(summary, device)
    finally:
        if was_enabled:
            gc.enable()
    return paint_pages(layout, pages, device, None if choose is None else choose(len(pages)))
