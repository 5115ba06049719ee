"""The interrupt stack dialog: the pending moves in the order they will resolve.

It shows the stack model, lets the GM add an interrupt on top (the action dialog opens
for the chosen fighter), resolve the next move or all of them, or cancel the whole
stack. It closes only when the stack is empty or cancelled, and closes itself once the
moves it showed are all gone (resolved or cancelled), so it never stays over the cards
with nothing to do; opened on an empty stack, it says so and stays until closed. What
the buttons do is the main window's business: the dialog only asks, by signal.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from .inline import error_label
from .models import KeyRole
from .plain import plain_label, plain_tip


class InterruptStackDialog(QDialog):
    """Resolve the stack: ``addRequested(fighter_id)``, ``resolveNextRequested()``,
    ``resolveAllRequested()``, ``cancelRequested()``."""

    addRequested = Signal(str)
    resolveNextRequested = Signal()
    resolveAllRequested = Signal()
    cancelRequested = Signal()

    def __init__(self, stack_model: QAbstractItemModel, fighters_model: QAbstractItemModel,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InterruptStackDialog")
        self.setWindowTitle("Interrupt stack")
        self._model = stack_model
        self._cancelled = False
        self._can_close = False
        # Moves were on the stack while the dialog was open: once they are all gone, it
        # closes itself (opened on an empty stack it stays, saying so).
        self._had_moves = False

        intro = QLabel("The moves resolve from the top row down (fastest first).")
        intro.setWordWrap(True)
        self._build_table(stack_model)
        self.fighter_box = QComboBox()
        self.fighter_box.setObjectName("interrupter")
        self.fighter_box.setModel(fighters_model)
        self.fighter_box.setModelColumn(0)
        self.add_button = QPushButton("Add &interrupt...")
        self.add_button.setObjectName("addInterrupt")
        self.add_button.setShortcut(QKeySequence("Ctrl+I"))
        self.add_button.setToolTip("Declare an interrupt on top of the stack (Ctrl+I)")
        add_row = QHBoxLayout()
        who = QLabel("Interrupt &with:")
        who.setBuddy(self.fighter_box)
        add_row.addWidget(who)
        add_row.addWidget(self.fighter_box, 1)
        add_row.addWidget(self.add_button)

        self.decision_area = QVBoxLayout()
        self.error = error_label()
        self.status = plain_label()
        self.status.setWordWrap(True)
        self.nothing = plain_label("Nothing on the stack: every move is resolved.")
        self.nothing.setObjectName("nothingOnStack")

        buttons = self._build_buttons()

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.nothing)
        layout.addLayout(add_row)
        layout.addLayout(self.decision_area)
        layout.addWidget(self.error)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.resize(960, 380)

        self.add_button.clicked.connect(self._ask_add)
        self.resolve_next.clicked.connect(self.resolveNextRequested)
        self.resolve_all.clicked.connect(self.resolveAllRequested)
        self.cancel_button.clicked.connect(self._ask_cancel)
        self.close_button.clicked.connect(self.accept)
        for signal in (stack_model.rowsInserted, stack_model.rowsRemoved, stack_model.modelReset,
                       stack_model.dataChanged):
            signal.connect(self._update_buttons)
            signal.connect(self._fit_fighter_column)
        for signal in (stack_model.rowsInserted, stack_model.rowsRemoved, stack_model.modelReset):
            signal.connect(self._follow_moves)
        self._fit_fighter_column()
        self._update_buttons()

    def _build_table(self, stack_model: QAbstractItemModel) -> None:
        """The stack, one move a row."""
        self.table = QTableView()
        self.table.setObjectName("stackTable")
        self.table.setAccessibleName("Interrupt stack")
        # Tab leaves the table for the buttons (the arrows move between its rows).
        self.table.setTabKeyNavigation(False)
        self.table.setModel(stack_model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        # One line a move: every column but the cost fits its contents, the cost takes
        # the rest and is cut short with "…" if it must (its tooltip has it whole).
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # The cost takes what is left (cut short with its tooltip whole), so the last
        # column, which move each one interrupts, is always in view.
        header.setStretchLastSection(False)
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)

    def _build_buttons(self) -> QHBoxLayout:
        """Cancel, Resolve next and all (each on both Enter keys), Close."""
        self.resolve_next = QPushButton("Resolve &next")
        self.resolve_next.setObjectName("resolveNext")
        self.resolve_next.setToolTip("Resolve the top move (Ctrl+Enter)")
        self.resolve_all = QPushButton("Resolve &all")
        self.resolve_all.setObjectName("resolveAll")
        self.resolve_all.setToolTip("Resolve every move, stopping at decisions (Ctrl+Shift+Enter)")
        # Each key on both Enter keys: a button's own shortcut takes one key sequence, and
        # the keypad's Ctrl+Shift+Enter then fell to the dialog's default button (Resolve
        # next). The actions click at once (a button's shortcut clicks 100 ms later).
        self.resolve_next_keys = self._keys(self.resolve_next, "Ctrl+Return", "Ctrl+Enter")
        self.resolve_all_keys = self._keys(self.resolve_all, "Ctrl+Shift+Return",
                                           "Ctrl+Shift+Enter")
        self.cancel_button = QPushButton("&Cancel stack")
        self.cancel_button.setObjectName("cancelStack")
        self.cancel_button.setToolTip("Take back the declared interrupts: dice and EP return")
        self.close_button = QPushButton("C&lose")
        self.close_button.setObjectName("closeStack")
        buttons = QHBoxLayout()
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        buttons.addWidget(self.resolve_next)
        buttons.addWidget(self.resolve_all)
        buttons.addWidget(self.close_button)
        return buttons

    def _keys(self, button: QPushButton, *keys: str) -> QAction:
        """The dialog's action that clicks ``button`` (nothing while it is disabled)."""
        action = QAction(button.text().replace("&", ""), self)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.triggered.connect(button.click)
        self.addAction(action)
        return action

    def _fit_fighter_column(self, *_: object) -> None:
        """The Fighter column as wide as the longest name (with room either side), so no
        name is cut or touches the next column."""
        model = self.table.model()
        if model is None:
            return
        metrics = self.table.fontMetrics()
        names = [str(model.index(r, 0).data() or "") for r in range(model.rowCount())]
        title = str(model.headerData(0, Qt.Orientation.Horizontal) or "")
        header = self.table.horizontalHeader()
        widest = max([metrics.horizontalAdvance(n) for n in names]
                     + [header.fontMetrics().horizontalAdvance(title)])
        before = [header.sectionSize(n) for n in range(header.count())]
        # The table hears of resized columns by the header's signal and repaints them on
        # a timer, after its first paint: a second paint of the table and its header on
        # every click that changes the stack. The columns are fitted here with the header
        # quiet, and the table told once, before anything is painted.
        blocker = QSignalBlocker(header)
        if header.sectionResizeMode(0) != QHeaderView.ResizeMode.Fixed:
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        # Only when it changes: every change of the stack asks (a setting, even to the
        # same mode, has the header size every column to its contents again).
        if header.sectionSize(0) != widest + 24:
            header.resizeSection(0, widest + 24)
        # The other columns fit their contents now, not on a timer after the table has
        # been painted (the table would then be painted whole a second time).
        header.resizeSections()
        blocker.unblock()
        if [header.sectionSize(n) for n in range(header.count())] != before:
            # Laid out now (not also on the view's own timer after the first paint): its
            # scroll range follows the columns and it is painted once, whole.
            self.table.doItemsLayout()

    # --- what the main window tells it -------------------------------------------------------
    def set_decision_widget(self, widget: QWidget) -> None:
        """Embed the decision panel, so decisions inside the stack are answered here."""
        self.decision_area.addWidget(widget)

    def set_controls(self, can_resolve: bool, can_cancel: bool, can_add: bool = True,
                     status: str = "", can_close: bool = False) -> None:
        """``can_close``: the dialog may close with rows left (a waiting roll stays on the
        roll panel); else only an empty or cancelled stack closes."""
        self._can_resolve, self._can_cancel, self._can_add = can_resolve, can_cancel, can_add
        self._can_close = can_close
        self.status.setText(status)
        self._update_buttons()

    def set_reaction_word(self, word: str) -> None:
        """The ruleset's word for a reaction ("interrupt", "defense"): the Add button says it."""
        text = f"Add &{word.lower()}..."
        if self.add_button.text() != text:
            self.add_button.setText(text)
            self.add_button.setToolTip(
                plain_tip(f"Declare a new {word.lower()} on top of the stack (Ctrl+I)"))
            self.add_button.setShortcut(QKeySequence("Ctrl+I"))

    def show_refusal(self, text: str | None) -> None:
        self.error.setText(text or "")
        self.error.setVisible(bool(text))

    def select_fighter(self, fighter_id: str) -> None:
        model = self.fighter_box.model()
        for row in range(model.rowCount()):
            if model.index(row, 0).data(KeyRole) == fighter_id:
                self.fighter_box.setCurrentIndex(row)
                return

    def mark_cancelled(self) -> None:
        self._cancelled = True
        self._update_buttons()

    def reset_cancelled(self) -> None:
        self._cancelled = False
        self.show_refusal(None)
        self._update_buttons()

    def is_empty(self) -> bool:
        return self._model.rowCount() == 0

    # --- inside ------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        self._had_moves = not self.is_empty()
        super().showEvent(event)

    def _follow_moves(self, *_: object) -> None:
        """The stack changed: once the moves shown are all gone, close (after the change
        is through, so the window hears of it as of a Close)."""
        if not self.is_empty():
            self._had_moves = True
        elif self._had_moves and self.isVisible():
            QTimer.singleShot(0, self, self._close_when_done)

    def _close_when_done(self) -> None:
        if self.isVisible() and self.is_empty() and self._had_moves:
            self.accept()

    def _update_buttons(self, *_: object) -> None:
        empty = self.is_empty()
        can_resolve = getattr(self, "_can_resolve", not empty)
        can_cancel = getattr(self, "_can_cancel", not empty)
        can_add = getattr(self, "_can_add", True)
        self.resolve_next.setEnabled(can_resolve and not empty)
        self.resolve_all.setEnabled(can_resolve and not empty)
        self.cancel_button.setEnabled(can_cancel and not empty)
        self.add_button.setEnabled(can_add and not empty)
        self.fighter_box.setEnabled(can_add and not empty)
        self.close_button.setEnabled(self._closable())
        self.nothing.setVisible(empty)
        if empty:
            self.close_button.setDefault(True)
            self.close_button.setFocus()
        else:
            self.resolve_next.setDefault(True)

    def _ask_add(self) -> None:
        index = self.fighter_box.model().index(self.fighter_box.currentIndex(), 0)
        fighter_id = index.data(KeyRole)
        if fighter_id:
            self.addRequested.emit(str(fighter_id))

    def _ask_cancel(self) -> None:
        self.cancelRequested.emit()

    def _closable(self) -> bool:
        return self.is_empty() or self._cancelled or self._can_close

    def reject(self) -> None:
        """Escape closes an empty or cancelled stack (or one allowed to close); else it
        cancels the stack where cancelling is allowed, as Cancel stack does."""
        if self._closable():
            super().reject()
        elif self.cancel_button.isEnabled():
            self._ask_cancel()
        else:
            self.show_refusal("Resolve or cancel the stack before closing it.")

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closable():
            event.accept()
        else:
            self.show_refusal("Resolve or cancel the stack before closing it.")
            event.ignore()


__all__ = ["InterruptStackDialog"]
