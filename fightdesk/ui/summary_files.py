"""Summary files (PDF, HTML, Markdown).

Qt's GUI module only, no widgets: ``fightdesk summary`` needs no more than this, and
File > Export in the window writes the same files through the same functions
(``printing.py`` holds the menu, the dialogs and printing on paper).

A PDF is the summary's pages as ``summary_pages.py`` lays them out and paints them, the
same pages paper printing gets. The HTML file is for browsers; Qt's text document only
measures how many rounds of its health table fit the page side by side.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QLocale,
    QMarginsF,
    Qt,
)
from PySide6.QtGui import (
    QGuiApplication,
    QPageLayout,
    QPageSize,
    QPdfWriter,
    QTextDocument,
    QTextTable,
)

from ..storage.files import FileProblem, atomic_write_bytes, atomic_write_text, describe_os_error

if TYPE_CHECKING:
    from ..report import FightSummary

# The summary and the chart are imported when first used, not with this module: the
# main window imports it (through printing.py) before its first paint.

Format = Literal["pdf", "html", "md"]
Paper = Literal["a4", "letter"]
FORMATS: tuple[Format, ...] = ("pdf", "html", "md")
PAPER_SIZES: dict[Paper, QPageSize.PageSizeId] = {
    "a4": QPageSize.PageSizeId.A4,
    "letter": QPageSize.PageSizeId.Letter,
}
# The PDF's resolution: a printer's high resolution, what QPrinter gives a PDF.
PDF_DPI = 1200
# The HTML page's margin (2 cm, as the PDF's), inside the page's own 2 mm margin; paper
# printing takes the same page margins, so that its pages are the PDF's.
DOCUMENT_MARGIN_CM = 2.0
PAGE_MARGINS_MM = QMarginsF(2, 2, 2, 2)


def default_paper() -> Paper:
    """Letter where the locale measures in US units, A4 everywhere else."""
    system = QLocale.system().measurementSystem()
    return "letter" if system == QLocale.MeasurementSystem.ImperialUSSystem else "a4"


def _a4_layout() -> QPageLayout:
    """A4 with the PDF's margins: the narrowest page a summary is made for."""
    return QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                       PAGE_MARGINS_MM, QPageLayout.Unit.Millimeter)


def _screen_dpi() -> tuple[int, int]:
    """The resolution a text document measures its pixels in (for the HTML page's
    health table): 96 when the application asks for it, else the primary screen's."""
    if QCoreApplication.testAttribute(Qt.ApplicationAttribute.AA_Use96Dpi):
        return 96, 96
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return 100, 100
    return round(screen.logicalDotsPerInchX()), round(screen.logicalDotsPerInchY())


def text_width_px(page: QPageLayout) -> float:
    """The width the document's text gets on ``page`` (inside both margins), in the
    pixels a text document measures in."""
    width_mm = page.paintRect(QPageLayout.Unit.Millimeter).width() - 2 * DOCUMENT_MARGIN_CM * 10
    return width_mm / 25.4 * _screen_dpi()[0]


def round_columns_that_fit(summary: FightSummary, width: float) -> int | None:
    """How many rounds the health table may put side by side so that no block of it is
    wider than ``width`` (None: the whole table fits). Measured, not guessed: the whole
    table is laid out once with the summary's own CSS and fonts to learn each column's
    width, the largest count whose blocks add up to no more than ``width`` is taken, and
    its blocks are laid out to make sure (one or two small layouts, not one per count)."""
    from ..report.render import column_blocks

    chart = summary.chart
    count = len(chart.labels)
    # A hair of room for the glyph widths at the printer's resolution.
    room = width * 0.97
    doc = _health_tables(summary, [range(count)], 1e6)  # unbounded: natural widths
    table = next(f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable))
    layout = doc.documentLayout()
    whole = layout.frameBoundingRect(table).width()
    if count == 0 or whole <= room:
        return None
    # Column 0 is the fighters'; the rounds follow. A column's width is from where its
    # text starts to where the next one's does; the last takes the same padding.
    starts, texts = [], []
    for column in range(count + 1):
        block = layout.blockBoundingRect(table.cellAt(0, column).firstCursorPosition().block())
        starts.append(block.left())
        texts.append(block.width())
    padding = starts[1] - starts[0] - texts[0]
    widths = [b - a for a, b in pairwise(starts)] + [texts[-1] + padding]
    frame = whole - sum(widths)

    def predicted(per_block: int) -> float:
        return max(frame + widths[0] + sum(widths[i + 1] for i in columns)
                   for columns in column_blocks(count, per_block))

    per_block = next((n for n in range(count - 1, 0, -1) if predicted(n) <= room), 1)
    while per_block > 1:
        blocks = _health_tables(summary, column_blocks(count, per_block), room)
        if blocks.idealWidth() <= room:
            break
        per_block -= 1
    return per_block


def _health_tables(summary: FightSummary, blocks: list[range], width: float) -> QTextDocument:
    """Only the health tables, laid out as the summary's page lays them out."""
    from ..report.render import CSS, health_table

    tables = "".join(health_table(summary.chart, columns) for columns in blocks)
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setTextWidth(width)
    doc.setHtml(f"<html><head><style>{CSS}</style></head><body>{tables}</body></html>")
    doc.documentLayout()  # laid out now, for the sizes
    return doc


def summary_html(summary: FightSummary, page: QPageLayout | None = None) -> str:
    """The summary as one self-contained HTML page (the chart inside as a data URL), its
    health table in blocks that fit ``page`` (A4 unless given)."""
    from ..report import to_html
    from .chart import chart_data_url

    if not summary.shows_totals:
        return to_html(summary)
    columns = round_columns_that_fit(summary, text_width_px(page or _a4_layout()))
    return to_html(summary, chart_data_url(summary.chart), columns)


# --- PDF ------------------------------------------------------------------------------


def pdf_bytes(summary: FightSummary, paper: Paper | None = None) -> bytes:
    """The summary's pages as a PDF, made in memory (no file to write twice)."""
    from .summary_pages import paint_summary

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_DPI)
    writer.setTitle(summary.heading)
    writer.setCreator("fightdesk")
    writer.setPageLayout(QPageLayout(
        QPageSize(PAPER_SIZES[paper or default_paper()]), QPageLayout.Orientation.Portrait,
        PAGE_MARGINS_MM, QPageLayout.Unit.Millimeter))
    paint_summary(summary, writer)
    del writer  # the PDF is complete when its writer is gone
    buffer.close()
    return bytes(data.data())


def write_pdf(summary: FightSummary, path: Path, paper: Paper | None = None) -> None:
    """A PDF of the summary's pages, written atomically. Raises FileProblem."""
    path = Path(path)
    try:
        data = pdf_bytes(summary, paper)
    except OSError as exc:
        raise FileProblem(path, f"could not save: {describe_os_error(exc)}") from exc
    if not data.startswith(b"%PDF"):
        raise FileProblem(path, "could not save: Qt wrote no PDF")
    atomic_write_bytes(path, data, keep_backup=False)


# --- HTML and Markdown ------------------------------------------------------------------


def write_html(summary: FightSummary, path: Path) -> None:
    """One self-contained HTML file: the chart travels inside it as a data URL."""
    atomic_write_text(Path(path), summary_html(summary), keep_backup=False)


def chart_path_for(path: Path) -> Path:
    return Path(path).with_name(f"{Path(path).stem}-chart.png")


def write_markdown(summary: FightSummary, path: Path) -> list[Path]:
    """Markdown with text sparklines, plus the chart PNG beside it (linked from the text)."""
    from ..report import to_markdown
    from .chart import save_chart

    path = Path(path)
    written: list[Path] = []
    link: str | None = None
    if summary.shows_totals:
        png = chart_path_for(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            link = save_chart(summary.chart, png).src
        except OSError as exc:
            raise FileProblem(png, f"could not save: {describe_os_error(exc)}") from exc
        written.append(png)
    atomic_write_text(path, to_markdown(summary, link), keep_backup=False)
    return [path, *written]


def export_summary(summary: FightSummary, path: Path, fmt: Format,
                   paper: Paper | None = None) -> list[Path]:
    """Write the summary as ``fmt``; returns the files written. Raises FileProblem."""
    path = Path(path)
    if fmt == "pdf":
        write_pdf(summary, path, paper)
        return [path]
    if fmt == "html":
        write_html(summary, path)
        return [path]
    return write_markdown(summary, path)
