"""The log dock: every step of the fight as a readable line, its events and dice below
it, and "Revert to here" to undo back to a chosen entry."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from .models import HasRollsRole, KeyRole

MAX_OPENED = 12


class LogView(QWidget):
    """``revertRequested(seq)``: undo every step after log entry ``seq``."""

    revertRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("FightLog")
        self.setWindowTitle("Log")
        self.tree = QTreeView()
        self.tree.setObjectName("logTree")
        # One line per row keeps a 10,000-entry log fast; the full text is the tooltip.
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
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.revert_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tree, 1)
        layout.addLayout(row)

    def set_model(self, model: QAbstractItemModel) -> None:
        self.tree.setModel(model)
        header = self.tree.header()
        # A fixed "When" column: sizing it to contents would read every row on each change.
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.tree.setColumnWidth(0, self.fontMetrics().horizontalAdvance("R99 · 10") + 28)
        header.setStretchLastSection(True)
        model.rowsInserted.connect(self._follow_end)
        self.tree.selectionModel().selectionChanged.connect(self._selection_changed)

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
