"""The log dock: every step of the fight as a readable line, its events and dice below
it, the selected entry in full underneath, and "Revert to here" to undo back to a chosen
entry."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from .models import HasRollsRole, ItemRole, KeyRole

MAX_OPENED = 12
# Below this width the "When" column goes (the round and phase stay in each line's
# tooltip and in the details pane), so what happened gets the whole narrow dock.
NARROW = 400


class LogView(QWidget):
    """``revertRequested(seq)``: undo every step after log entry ``seq``."""

    revertRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("FightLog")
        self.setWindowTitle("Log")
        self.tree = QTreeView()
        self.tree.setObjectName("logTree")
        # One line per row keeps a 10,000-entry log fast; the full text is in the details
        # pane below (and the tooltip).
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.revert_button = QPushButton("&Revert to here")
        self.revert_button.setObjectName("revertHere")
        self.revert_button.setToolTip(
            "Undo every step after the selected entry (Ctrl+Shift+R); Redo brings them back")
        self.revert_button.setShortcut(QKeySequence("Ctrl+Shift+R"))
        self.revert_button.setEnabled(False)
        self.revert_button.clicked.connect(self._revert)
        # The selected entry in full, wrapped: a long line is never cut off for good.
        self.details = QTextBrowser()
        self.details.setObjectName("logDetails")
        self.details.setOpenLinks(False)
        self.details.setPlaceholderText("Select a log line to read it in full")
        self.details.setAccessibleName("Selected log entry")
        self.details.document().setIndentWidth(self.fontMetrics().horizontalAdvance("MM"))
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("logSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.tree)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([480, 180])
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.revert_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(row)
        self._shown: Any = None  # the entry in the details pane

    def set_model(self, model: QAbstractItemModel) -> None:
        self.tree.setModel(model)
        header = self.tree.header()
        # A fixed "When" column: sizing it to contents would read every row on each change.
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        # Room for "R12 · phase 10" beside the tree's fold arrow (the tooltip has any longer).
        self.tree.setColumnWidth(0, self.fontMetrics().horizontalAdvance("R12 · phase 10")
                                 + self.tree.indentation() + 12)
        header.setStretchLastSection(True)
        model.rowsInserted.connect(self._follow_end)
        # Undo removes rows and File > Open resets: the pane must not show a gone entry.
        model.rowsRemoved.connect(self._selection_changed)
        model.modelReset.connect(self._selection_changed)
        self.tree.selectionModel().selectionChanged.connect(self._selection_changed)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        narrow = self.width() < NARROW
        header = self.tree.header()
        if self.tree.model() is not None and header.isSectionHidden(0) != narrow:
            header.setSectionHidden(0, narrow)
            # The fold arrows go with the text when the first column is hidden.
            self.tree.setTreePosition(1 if narrow else 0)

    def selected_entry(self) -> Any:
        """The selected ``LogEntry`` (an event row selects its entry), or None."""
        selection = self.tree.selectionModel()
        indexes = selection.selectedIndexes() if selection is not None else []
        if not indexes:
            return None
        index = indexes[0]
        if index.parent().isValid():
            index = index.parent()
        return index.siblingAtColumn(0).data(ItemRole)

    def selected_seq(self) -> int | None:
        indexes = self.tree.selectionModel().selectedIndexes() if self.tree.selectionModel() else []
        if not indexes:
            return None
        seq = indexes[0].data(KeyRole)
        return int(seq) if seq is not None else None

    def _follow_end(self, parent: QModelIndex, first: int, last: int) -> None:
        if not parent.isValid():
            model = self.tree.model()
            for row in range(first, last + 1):
                # Open the entries with dice, so every roll's faces are in view (not the
                # round start of a 200-fighter fight: that one stays one click away).
                index = model.index(row, 0)
                if model.data(index, HasRollsRole) and model.rowCount(index) <= MAX_OPENED:
                    self.tree.expand(model.index(row, 0))
            self.tree.scrollTo(model.index(last, 1))

    def _selection_changed(self, *_: object) -> None:
        seq = self.selected_seq()
        model = self.tree.model()
        last = model.index(model.rowCount() - 1, 0).data(KeyRole) if model.rowCount() else None
        self.revert_button.setEnabled(seq is not None and seq != last)
        self._show_details(self.selected_entry())

    def _show_details(self, entry: Any) -> None:
        # Only on a selection change, never per new log entry: the tree stays fast.
        if entry is self._shown and entry is not None:
            return
        self._shown = entry
        self.details.setHtml(entry_html(entry) if entry is not None else "")

    def _revert(self) -> None:
        seq = self.selected_seq()
        if seq is not None:
            self.revertRequested.emit(seq)

    def _menu(self, pos: QPoint) -> None:
        if self.selected_seq() is None:
            return
        menu = QMenu(self)
        act = menu.addAction("Revert to here")
        act.triggered.connect(self._revert)
        menu.exec(self.tree.viewport().mapToGlobal(pos))


def entry_html(entry: Any) -> str:
    """A log entry in full: when, the summary, then every event; a roll spelled out with
    who rolled, the dice, whether the app rolled them or the GM typed them in, the faces
    and the outcome."""
    from html import escape  # here, not at the top: html loads a 2,000-entry table

    when = f"Round {entry.round}" if entry.round else "Setup"
    if entry.where and entry.round:
        when += f", {entry.where}"
    parts = [f"<p><b>{escape(entry.summary)}</b><br><i>{escape(when)} · log entry "
             f"{entry.seq}</i></p>"]
    lines: list[str] = []
    for event in entry.events:
        roll = event.roll
        if roll is None:
            lines.append(f"<li>{escape(event.text)}</li>")
            continue
        faces = ", ".join(str(f) for f in roll.faces) or "no dice"
        source = "typed in by the GM" if roll.source == "typed" else "rolled by the app"
        what = f"{roll.notation} for {roll.purpose}" if roll.purpose else roll.notation
        bits = [f"<b>{escape(roll.who or 'Roll')}</b>: {escape(what)}, {source}",
                f"faces: {escape(faces)}"]
        if roll.outcome:
            bits.append(f"outcome: {escape(roll.outcome)}")
        lines.append("<li>" + "<br>".join(bits) + "</li>")
    if lines:
        parts.append("<ul>" + "".join(lines) + "</ul>")
    else:
        parts.append("<p><i>No events.</i></p>")
    return "".join(parts)
