"""Printing and exporting round and fight summaries (File > Print, Print Preview, Export).

The summary itself is built by ``fightdesk.report`` (no Qt); ``summary_pages`` lays out
and paints its pages (the PDF's and the printer's), ``summary_files`` writes the
exported files (PDF, HTML, Markdown); this module holds the menu's actions, the dialog
that picks the rounds, and printing on paper. The page size comes from the printer (the
system print dialog), or from the A4 / Letter choice when exporting a PDF. The main
window owns the menu: it adds ``SummaryPrinting.actions()`` to File and calls
``update_enabled()`` after each change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QPageLayout, QPageSize
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..storage.files import FileProblem
from .plain import plain_label, warn
from .summary_files import (
    PAGE_MARGINS_MM,
    PAPER_SIZES,
    Format,
    Paper,
    default_paper,
    export_summary,
)

if TYPE_CHECKING:
    from ..engine.model import Session
    from ..report import FightSummary

# The summary and the engine are imported when first used, not with this module: the main
# window imports it before its first paint.


# --- printing on paper -------------------------------------------------------------------


def prepare_printer(printer: QPrinter, summary: FightSummary, paper: Paper | None = None) -> None:
    """Name the job and set the margins; ``paper`` overrides the printer's page size.
    The job's name is the file name Export suggests (a print to file offers it): no
    colon or other character a desktop system refuses in a file name."""
    printer.setDocName(suggested_name(summary, "pdf").removesuffix(".pdf"))
    printer.setCreator("fightdesk")
    if paper is not None:
        printer.setPageSize(QPageSize(PAPER_SIZES[paper]))
    printer.setPageOrientation(QPageLayout.Orientation.Portrait)
    # The PDF's page margins: the summary's pages then stand on paper as in the PDF.
    printer.setPageMargins(PAGE_MARGINS_MM, QPageLayout.Unit.Millimeter)


def printed_pages(printer: QPrinter, count: int) -> list[int]:
    """Which of ``count`` pages to paint, in what order, as the print dialog asked: its page
    range, last page first, and the copies a printer that cannot make them needs painted
    (collated: the whole range again; else each page again)."""
    first = max(printer.fromPage(), 1)
    last = min(printer.toPage() or count, count)
    pages = list(range(first - 1, last))
    if printer.pageOrder() == QPrinter.PageOrder.LastPageFirst:
        pages.reverse()
    copies = 1 if printer.supportsMultipleCopies() else max(printer.copyCount(), 1)
    if printer.collateCopies():
        return pages * copies
    return [page for page in pages for _ in range(copies)]


def print_summary(summary: FightSummary, printer: QPrinter) -> None:
    """Lay the summary out on the printer's pages (page size from the printer) and paint
    them: the pages of the PDF, through the same painter."""
    from .summary_pages import paint_summary

    paint_summary(summary, printer, lambda count: printed_pages(printer, count))


def suggested_name(summary: FightSummary, fmt: Format) -> str:
    """``rooftop-duel-at-the-harbour-round-2.pdf``"""
    base = summary.title
    if summary.scope == "round":
        base += f" {summary.rounds[0].title}"
    elif summary.scope == "rounds":
        base += " rounds " + " ".join(str(r.number) for r in summary.rounds)
    else:
        base += " summary"
    slug = re.sub(r"[^a-z0-9]+", "-", base.lower()).strip("-") or "summary"
    return f"{slug}.{fmt}"


# --- the dialog that picks what to print ------------------------------------------------


class SummaryScopeDialog(QDialog):
    """Which rounds to print or export: this round, chosen rounds, or the whole fight."""

    def __init__(self, rounds: Sequence[int], current: int | None, *, title: str,
                 show_paper: bool = False, paper: Paper | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self._rounds = list(rounds)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Summarise:"))
        self.group = QButtonGroup(self)
        label = "Before round 1" if current == 0 else f"Round {current}"
        self.current_button = QRadioButton(f"&Current round ({label})" if current is not None
                                           else "&Current round")
        self.current_button.setEnabled(current is not None)
        self.chosen_button = QRadioButton("C&hosen rounds:")
        self.fight_button = QRadioButton("&Whole fight (all rounds, totals and chart)")
        for i, button in enumerate((self.current_button, self.chosen_button, self.fight_button)):
            self.group.addButton(button, i)
            layout.addWidget(button)
            if button is self.chosen_button:
                self.round_list = QListWidget()
                self.round_list.setAccessibleName("Rounds to summarise")
                self.round_list.setMaximumHeight(140)
                for n in self._rounds:
                    item = QListWidgetItem("Before round 1" if n == 0 else f"Round {n}")
                    item.setCheckState(
                        Qt.CheckState.Checked if n == current else Qt.CheckState.Unchecked
                    )
                    self.round_list.addItem(item)
                layout.addWidget(self.round_list)
        self._current = current
        (self.current_button if current is not None else self.fight_button).setChecked(True)
        self.round_list.itemChanged.connect(lambda _item: self.chosen_button.setChecked(True))
        self.paper_box: QComboBox | None = None
        if show_paper:
            form = QFormLayout()
            self.paper_box = QComboBox()
            self.paper_box.addItem("A4 (210 × 297 mm)", "a4")
            self.paper_box.addItem("Letter (8.5 × 11 in)", "letter")
            self.paper_box.setCurrentIndex(0 if (paper or default_paper()) == "a4" else 1)
            form.addRow("&Paper:", self.paper_box)
            layout.addLayout(form)
        self.problem = plain_label()
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._accept_if_valid)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def set_checked_rounds(self, numbers: Sequence[int]) -> None:
        for i, n in enumerate(self._rounds):
            item = self.round_list.item(i)
            item.setCheckState(Qt.CheckState.Checked if n in numbers else Qt.CheckState.Unchecked)

    def chosen_rounds(self) -> list[int] | None:
        """The rounds to summarise; None means the whole fight."""
        if self.fight_button.isChecked():
            return None
        if self.current_button.isChecked() and self._current is not None:
            return [self._current]
        return [n for i, n in enumerate(self._rounds)
                if self.round_list.item(i).checkState() == Qt.CheckState.Checked]

    def paper(self) -> Paper | None:
        if self.paper_box is None:
            return None
        value = self.paper_box.currentData()
        return "letter" if value == "letter" else "a4"

    def _accept_if_valid(self) -> None:
        if self.chosen_rounds() == []:
            self.problem.setText("Tick at least one round, or choose the whole fight.")
            self.problem.show()
            return
        self.accept()


# --- the File menu's actions --------------------------------------------------------------


class SummaryPrinting(QObject):
    """File > Print / Print Preview / Export Summary: the actions and what they do.

    ``session`` returns the session on screen. The dialogs go through ``run_dialog``,
    ``ask_save_path`` and ``tell`` so that tests can answer them."""

    def __init__(self, parent: QWidget, session: Callable[[], Session | None]) -> None:
        super().__init__(parent)
        self.window = parent
        self.session = session
        self.print_action = QAction("&Print Summary…", self)
        self.print_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Print))
        self.preview_action = QAction("Print Pre&view…", self)
        self.preview_action.setShortcut(QKeySequence("Ctrl+Shift+P"))
        self.export_actions: dict[Format, QAction] = {
            "pdf": QAction("Export Summary as P&DF…", self),
            "html": QAction("Export Summary as &HTML…", self),
            "md": QAction("Export Summary as &Markdown…", self),
        }
        self.export_actions["pdf"].setShortcut(QKeySequence("Ctrl+Shift+E"))
        for action in self.actions():
            tip = action.text().replace("&", "").rstrip("…")
            if not action.shortcut().isEmpty():
                tip += f" ({action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})"
            action.setToolTip(tip)
            action.setStatusTip("Round or fight summary: who acted, every roll, damage, points")
        self.print_action.triggered.connect(self.print_summary)
        self.preview_action.triggered.connect(self.preview)
        for fmt, action in self.export_actions.items():
            action.triggered.connect(lambda _checked=False, f=fmt: self.export(f))
        self.last_folder: Path | None = None
        self.update_enabled()

    def actions(self) -> list[QAction]:
        return [self.print_action, self.preview_action, *self.export_actions.values()]

    def update_enabled(self, *_: object) -> None:
        """Greyed out until something has been logged (call after every engine notice)."""
        session = self.session()
        enabled = bool(session is not None and session.log)
        for action in self.actions():
            action.setEnabled(enabled)

    # Seams for tests ----------------------------------------------------------------------
    def run_dialog(self, dialog: QDialog) -> bool:
        return dialog.exec() == QDialog.DialogCode.Accepted

    def ask_save_path(self, caption: str, suggested: str, filter_text: str) -> str:
        folder = self.last_folder or Path.home()
        path, _ = QFileDialog.getSaveFileName(
            self.window, caption, str(folder / suggested), filter_text
        )
        return path

    def tell(self, title: str, text: str) -> None:
        warn(self.window, title, text)

    # What the actions do -------------------------------------------------------------------
    def choose(self, title: str, show_paper: bool = False) -> tuple[FightSummary, Paper | None] | None:
        """Ask which rounds, then build the summary; None if cancelled or impossible."""
        from ..report import SummaryProblem, available_rounds, current_round, summarize

        session = self.session()
        if session is None or not session.log:
            self.tell(title, "Nothing has happened in this fight yet, so there is no summary.")
            return None
        dialog = SummaryScopeDialog(available_rounds(session), current_round(session),
                                    title=title, show_paper=show_paper, parent=self.window)
        try:
            if not self.run_dialog(dialog):
                return None
            try:
                summary = summarize(session, dialog.chosen_rounds())
            except SummaryProblem as exc:
                self.tell(title, f"Cannot summarise this fight: {exc}")
                return None
            return summary, dialog.paper()
        finally:
            dialog.deleteLater()

    def print_summary(self) -> bool:
        chosen = self.choose("Print Summary")
        if chosen is None:
            return False
        summary, _ = chosen
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        prepare_printer(printer, summary)
        dialog = QPrintDialog(printer, self.window)
        dialog.setWindowTitle("Print Summary")
        try:
            if not self.run_dialog(dialog):
                return False
            print_summary(summary, printer)
            return True
        finally:
            dialog.deleteLater()

    def preview(self) -> bool:
        chosen = self.choose("Print Preview")
        if chosen is None:
            return False
        summary, _ = chosen
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        prepare_printer(printer, summary)
        dialog = self.preview_dialog(summary, printer)
        try:
            self.run_dialog(dialog)
            return True
        finally:
            dialog.deleteLater()

    def preview_dialog(self, summary: FightSummary, printer: QPrinter) -> QPrintPreviewDialog:
        """A preview whose pages (and page size) follow the printer it shows."""
        dialog = QPrintPreviewDialog(printer, self.window)
        dialog.setWindowTitle(f"Print Preview: {summary.heading}")
        dialog.paintRequested.connect(lambda shown: print_summary(summary, shown))
        return dialog

    def export(self, fmt: Format) -> list[Path]:
        name = {"pdf": "PDF", "html": "HTML", "md": "Markdown"}[fmt]
        chosen = self.choose(f"Export Summary as {name}", show_paper=fmt == "pdf")
        if chosen is None:
            return []
        summary, paper = chosen
        filters = {"pdf": "PDF (*.pdf)", "html": "Web page (*.html *.htm)",
                   "md": "Markdown (*.md)"}
        raw = self.ask_save_path(f"Export Summary as {name}", suggested_name(summary, fmt),
                                 filters[fmt])
        if not raw:
            return []
        path = Path(raw)
        if not path.suffix:
            path = path.with_suffix(f".{fmt}")
        try:
            written = export_summary(summary, path, fmt, paper)
        except FileProblem as exc:
            self.tell(f"Export Summary as {name}", str(exc))
            return []
        self.last_folder = path.parent
        return written
