"""The Qt side of summaries: chart PNG, text document, PDF pages, preview, File actions."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPdfWriter
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewWidget
from PySide6.QtWidgets import QDialog, QWidget
from pytestqt.qtbot import QtBot

from fightdesk.engine.model import Session
from fightdesk.report import summarize
from fightdesk.report.blocks import Chart
from fightdesk.report.summary import FightChart, FightSummary, Series
from fightdesk.ui.chart import CHART_HEIGHT, CHART_WIDTH, SCALE, render_chart, save_chart
from fightdesk.ui.printing import SummaryPrinting, SummaryScopeDialog
from fightdesk.ui.summary_files import (
    PAGE_MARGINS_MM,
    Paper,
    export_summary,
    summary_html,
    write_pdf,
)
from fightdesk.ui.summary_pages import Layout, lay_out

from .scripted import Script, two_round_fight

A4_POINTS = (595, 842)
LETTER_POINTS = (612, 792)


@pytest.fixture(scope="module")
def fight() -> Session:
    return two_round_fight()


@pytest.fixture
def whole(fight: Session) -> FightSummary:
    return summarize(fight)


def pdf_pages(path: Path) -> list[tuple[int, int]]:
    """The MediaBox (width, height in points, rounded down) of every page of a Qt PDF."""
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    return [(int(float(w)), int(float(h))) for w, h in boxes]


def pdf_text(path: Path) -> str | None:
    if shutil.which("pdftotext") is None:
        return None
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                         text=True, check=True)
    return out.stdout


def test_chart_png_has_the_right_size_and_no_colour(qapp: object, whole: FightSummary,
                                                    tmp_path: Path) -> None:
    image = save_chart(whole.chart, tmp_path / "c.png")
    assert (image.src, image.width, image.height) == ("c.png", CHART_WIDTH, CHART_HEIGHT)
    png = QImage(str(tmp_path / "c.png"))
    assert (png.width(), png.height()) == (CHART_WIDTH * SCALE, CHART_HEIGHT * SCALE)
    dark = 0
    for x in range(0, png.width(), 7):
        for y in range(0, png.height(), 7):
            colour = png.pixelColor(x, y)
            assert colour.red() == colour.green() == colour.blue(), (x, y)  # greys only
            dark += colour.value() < 128
    assert dark > 500  # lines, markers and text, not a blank page


def test_many_fighters_make_the_legend_taller(qapp: object) -> None:
    series = tuple(Series(f"f{i}", f"Fighter {i}", "enemy", (4, 3), 4, (0, 1)) for i in range(13))
    chart = FightChart(("start", "R1"), "EP", series)
    image = render_chart(chart, scale=1)
    # 4 names a row: 13 names need 4 rows, 2 more than the base height holds.
    assert (image.width(), image.height()) == (CHART_WIDTH, CHART_HEIGHT + 2 * 16)


def test_health_below_zero_is_drawn_on_the_chart_s_floor(qapp: object) -> None:
    """A fighter far below zero (ashes) stays inside the plot, on its zero line, instead
    of running down into the round labels."""
    def chart(last: int) -> FightChart:
        series = (Series("a", "Ash Raider", "enemy", (9, 4, last), 9, (1, 1, 0)),
                  Series("b", "Kestrel", "pc", (12, 12, 10), 12, (2, 1, 1)))
        return FightChart(("start", "R1", "R2"), "Fate", series)

    assert render_chart(chart(-433), scale=1) == render_chart(chart(0), scale=1)
    assert render_chart(chart(-433), scale=1) != render_chart(chart(3), scale=1)


def test_the_pages_draw_the_chart_for_more_than_one_round(qapp: object,
                                                          whole: FightSummary) -> None:
    """The fight's pages carry the chart (drawn as lines and text, at its size in the
    HTML); one round's have none."""
    writer = QPdfWriter(QBuffer())
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait, PAGE_MARGINS_MM,
                                     QPageLayout.Unit.Millimeter))
    layout, pages = lay_out(whole, writer)
    charts = [unit for page in pages for _, unit in page.placed if unit.chart is not None]
    assert len(charts) == 1 and charts[0].chart == whole.chart
    assert charts[0].chart_size == (CHART_WIDTH, CHART_HEIGHT)
    assert charts[0].height == CHART_HEIGHT * layout.px
    _, pages = lay_out(summarize(two_round_fight(), [1]), writer)
    assert not [unit for page in pages for _, unit in page.placed if unit.chart is not None]


def test_a_chart_taller_than_the_page_is_drawn_smaller(qapp: object) -> None:
    """200 fighters' legend makes the chart taller than a page: it is scaled to fit."""
    series = tuple(Series(f"f{i}", f"Fighter {i}", "enemy", (4, 3), 4, (0, 1))
                   for i in range(200))
    layout = Layout(QPdfWriter(QBuffer()))
    unit = layout.units([Chart(FightChart(("start", "R1"), "EP", series))])[0]
    assert unit.chart_size[1] * layout.px > layout.bottom - layout.top
    assert unit.height == pytest.approx(layout.bottom - layout.top)
    assert unit.chart_size[0] * unit.chart_scale <= layout.text_width


def test_only_the_html_file_carries_what_a_browser_needs(whole: FightSummary) -> None:
    page = summary_html(whole)
    style = page[page.index("<style>"):page.index("</style>")]
    assert "vertical-align: top" in style and "color: #000" in style
    assert "background: #fff" in style and "@page { margin: 20mm; }" in style


@pytest.mark.parametrize(("paper", "points"), [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_pdf_pages_follow_the_paper(qapp: object, whole: FightSummary, tmp_path: Path,
                                    paper: Paper, points: tuple[int, int]) -> None:
    target = tmp_path / f"{paper}.pdf"
    write_pdf(whole, target, paper)
    pages = pdf_pages(target)
    assert len(pages) >= 2 and set(pages) == {points}
    text = pdf_text(target)
    if text is not None:
        assert "Kaede Moriyama" in text and "typed in" in text and "At the end of round 2" in text
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def test_export_formats(qapp: object, whole: FightSummary, tmp_path: Path) -> None:
    assert export_summary(whole, tmp_path / "f.html", "html") == [tmp_path / "f.html"]
    html = (tmp_path / "f.html").read_text()
    assert 'src="data:image/png;base64,' in html  # one self-contained file
    written = export_summary(whole, tmp_path / "out" / "f.md", "md")
    assert written == [tmp_path / "out" / "f.md", tmp_path / "out" / "f-chart.png"]
    assert "![Health and EP per fighter](f-chart.png)" in written[0].read_text()
    assert QImage(str(written[1])).width() == CHART_WIDTH * SCALE


def test_preview_lays_out_the_pages(qtbot: QtBot, whole: FightSummary) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    printing = SummaryPrinting(parent, lambda: None)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    dialog = printing.preview_dialog(whole, printer)
    widget = dialog.findChild(QPrintPreviewWidget)
    assert widget is not None
    widget.updatePreview()
    assert widget.pageCount() >= 2
    dialog.deleteLater()


def test_scope_dialog_choices(qtbot: QtBot) -> None:
    dialog = SummaryScopeDialog([0, 1, 2, 3], 2, title="Print", show_paper=True, paper="letter")
    qtbot.addWidget(dialog)
    assert dialog.current_button.isChecked() and dialog.chosen_rounds() == [2]
    assert dialog.current_button.text() == "&Current round (Round 2)"
    assert dialog.paper() == "letter"
    dialog.fight_button.setChecked(True)
    assert dialog.chosen_rounds() is None
    dialog.set_checked_rounds([1, 3])  # ticking rounds selects "chosen rounds"
    assert dialog.chosen_button.isChecked() and dialog.chosen_rounds() == [1, 3]
    dialog.set_checked_rounds([])
    dialog._accept_if_valid()
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert "Tick at least one round" in dialog.problem.text()


class Answering(SummaryPrinting):
    """The File actions with the dialogs answered by the test."""

    def __init__(self, parent: QWidget, session: Session | None, tmp_path: Path,
                 rounds: list[int] | None) -> None:
        self.tmp_path = tmp_path
        self.rounds = rounds
        self.told: list[str] = []
        self.saved_as: list[str] = []
        super().__init__(parent, lambda: session)

    def run_dialog(self, dialog: QDialog) -> bool:
        if isinstance(dialog, SummaryScopeDialog):
            if self.rounds is None:
                dialog.fight_button.setChecked(True)
            else:
                dialog.set_checked_rounds(self.rounds)
        elif isinstance(dialog, QPrintDialog):  # "print" to a PDF file instead of paper
            dialog.printer().setOutputFormat(QPrinter.OutputFormat.PdfFormat)
            dialog.printer().setOutputFileName(str(self.tmp_path / "printed.pdf"))
        return True

    def ask_save_path(self, caption: str, suggested: str, filter_text: str) -> str:
        self.saved_as.append(suggested)
        return str(self.tmp_path / Path(suggested).stem)  # no suffix: it is added

    def tell(self, title: str, text: str) -> None:
        self.told.append(text)


def test_file_actions_print_and_export(qtbot: QtBot, fight: Session, tmp_path: Path) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    actions = Answering(parent, fight, tmp_path, [2])
    assert all(a.isEnabled() for a in actions.actions())
    assert actions.print_action.shortcut().toString() == "Ctrl+P"
    actions.print_action.trigger()
    assert pdf_pages(tmp_path / "printed.pdf")
    text = pdf_text(tmp_path / "printed.pdf")
    if text is not None:
        assert "Round 2" in text and "Round 1" not in text
    actions.export_actions["md"].trigger()
    assert actions.saved_as == ["rooftop-duel-at-the-harbour-round-2.md"]
    assert (tmp_path / "rooftop-duel-at-the-harbour-round-2.md").is_file()
    whole = Answering(parent, fight, tmp_path, None)
    written = whole.export("pdf")
    assert written == [tmp_path / "rooftop-duel-at-the-harbour-summary.pdf"]
    assert actions.told == whole.told == []


def test_actions_wait_for_something_to_summarise(qtbot: QtBot, tmp_path: Path) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    empty = Answering(parent, Script().session, tmp_path, None)
    assert not any(a.isEnabled() for a in empty.actions())
    assert empty.export("html") == []
    assert empty.told == ["Nothing has happened in this fight yet, so there is no summary."]


def test_export_failure_is_told_not_raised(qtbot: QtBot, fight: Session, tmp_path: Path) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    blocker = tmp_path / "file"
    blocker.write_text("x")

    class IntoAFile(Answering):
        def ask_save_path(self, caption: str, suggested: str, filter_text: str) -> str:
            return str(blocker / "summary.html")  # a "folder" that is a file

    actions = IntoAFile(parent, fight, tmp_path, None)
    assert actions.export("html") == []
    assert len(actions.told) == 1 and "summary.html: could not save" in actions.told[0]
