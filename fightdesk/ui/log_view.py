"""The log dock: one line per action, its decisions, events and dice folded under it,
the selected action in full underneath, and "Revert to here" to undo back to a chosen
action."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QFontMetrics,
    QKeySequence,
    QPainter,
    QPalette,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTextBrowser,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from .models import EntryRole, HasRollsRole, ItemRole, KeyRole, StepRole, starts_the_fight

MAX_OPENED = 12
# Below this width the "When" column goes (the round and phase stay in each line's
# tooltip and in the details pane), so what happened gets the whole narrow dock.
NARROW = 400
LINES = 2  # every log line has room for this many lines of text
ELLIPSIS = "\u2026"


def two_lines(metrics: QFontMetrics, text: str, width: int, lines: int = LINES) -> str:
    """``text`` as it fits in ``lines`` wrapped lines of ``width``: whole when it fits,
    else cut after the last whole word that leaves room for an ellipsis (a word longer
    than a line is the only thing cut inside)."""
    if width <= 0 or metrics.horizontalAdvance(text) <= width:
        return text
    room = QRect(0, 0, width, 1 << 20)
    flags = int(Qt.TextFlag.TextWordWrap)
    most = lines * metrics.lineSpacing()

    def fits(candidate: str) -> bool:
        bounds = metrics.boundingRect(room, flags, candidate)
        return bounds.height() <= most and bounds.width() <= width

    if fits(text):
        return text
    words = text.split(" ")
    low, high = 0, len(words) - 1  # the most words (low) known to fit with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if fits(" ".join(words[:middle]) + ELLIPSIS):
            low = middle
        else:
            high = middle - 1
    if low == 0:  # one word wider than every line: cut inside it, the tooltip has it
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width * lines)
    return " ".join(words[:low]).rstrip(",;:") + ELLIPSIS


class TwoLineDelegate(QStyledItemDelegate):
    """Draws a log line's text wrapped on up to two lines, cut only between words with
    an ellipsis (the tooltip and the details pane have it whole). Every row is two lines
    tall, so the tree keeps uniform row heights (fast at 10,000 entries)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fitted: dict[tuple[str, int, int], str] = {}

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        metrics = option.fontMetrics
        return QSize(hint.width(), max(hint.height(), LINES * metrics.lineSpacing() + 6))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is None:
            super().paint(painter, option, index)
            return
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        if not text:
            return
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        rect = rect.adjusted(3, 0, -3, 0)
        metrics = opt.fontMetrics
        key = (text, rect.width(), metrics.lineSpacing())
        shown = self._fitted.get(key)
        if shown is None:
            if len(self._fitted) > 2000:  # the lines on screen, over a few widths
                self._fitted.clear()
            shown = self._fitted[key] = two_lines(metrics, text, rect.width())
        # The state as a plain int: combining Qt's flag enums in Python makes new enum
        # objects, several per line, on every repaint of the log.
        state = int(opt.state.value)
        group = _NORMAL if state & _ENABLED else _DISABLED
        role = _HIGHLIGHTED_TEXT if state & _SELECTED else _TEXT
        painter.save()
        painter.setPen(opt.palette.color(group, role))
        painter.setFont(opt.font)
        painter.drawText(rect, _TEXT_FLAGS, shown)
        painter.restore()


_SELECTED = int(QStyle.StateFlag.State_Selected.value)
_ENABLED = int(QStyle.StateFlag.State_Enabled.value)
_NORMAL, _DISABLED = QPalette.ColorGroup.Normal, QPalette.ColorGroup.Disabled
_TEXT, _HIGHLIGHTED_TEXT = QPalette.ColorRole.Text, QPalette.ColorRole.HighlightedText
_TEXT_FLAGS = int(Qt.AlignmentFlag.AlignLeft.value | Qt.AlignmentFlag.AlignVCenter.value
                  | Qt.TextFlag.TextWordWrap.value)


class LogView(QWidget):
    """``revertRequested(seq)``: undo every step after log entry ``seq``."""

    revertRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("FightLog")
        self.setAccessibleName("Fight log")
        self.setWindowTitle("Log")
        self.tree = QTreeView()
        self.tree.setObjectName("logTree")
        self.tree.setAccessibleName("What happened")
        # Rows of one height keep a long log fast: two lines of text each, the whole text
        # in the tooltip and in the details pane below.
        self.tree.setUniformRowHeights(True)
        self.tree.setItemDelegate(TwoLineDelegate(self.tree))
        self.tree.setWordWrap(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.earlier_button = QPushButton()
        self.earlier_button.setObjectName("logEarlier")
        self.earlier_button.setToolTip("The log shows the latest actions; older ones come back here")
        self.earlier_button.setFlat(True)
        self.earlier_button.clicked.connect(self._show_earlier)
        # Says the log is still coming (a long fight's history is read after the fight
        # is shown), or that it could not be read.
        self.loading_label = QLabel()
        self.loading_label.setObjectName("logLoading")
        self.loading_label.setTextFormat(Qt.TextFormat.PlainText)
        self.loading_label.setWordWrap(True)
        self.loading_label.setMargin(6)
        self.loading_label.hide()
        self._opened: QPersistentModelIndex | None = None  # the action opened to show its dice
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
        top = QWidget()
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.loading_label)
        self._earlier_row = _Holder(self.earlier_button)
        self._earlier_row.hide()
        column.addWidget(self._earlier_row)
        column.addWidget(self.tree, 1)
        self.splitter.addWidget(top)
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
        self._shown: tuple[Any, ...] = ()  # the entries in the details pane

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
        model.modelReset.connect(self._count_earlier)
        # A fight opened again starts at its newest entry, as the log follows play.
        model.modelReset.connect(self._show_newest)
        model.rowsRemoved.connect(self._count_earlier)
        self._count_earlier()
        self.tree.selectionModel().selectionChanged.connect(self._selection_changed)

    def set_loading(self, loading: bool, note: str = "") -> None:
        """Say plainly that the earlier actions are still being read (``loading``), or
        ``note`` (a history that could not be read); neither hides the log itself."""
        text = ("Loading the fight's history\N{HORIZONTAL ELLIPSIS} The earlier actions "
                "appear here in a moment; you can play on meanwhile." if loading else note)
        self.loading_label.setText(text)
        self.loading_label.setVisible(bool(text))

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

    def selected_step(self) -> tuple[Any, ...]:
        """The log entries of the selected action (a folded line selects its action)."""
        selection = self.tree.selectionModel()
        indexes = selection.selectedIndexes() if selection is not None else []
        return tuple(indexes[0].data(StepRole) or ()) if indexes else ()

    def selected_seq(self) -> int | None:
        indexes = self.tree.selectionModel().selectedIndexes() if self.tree.selectionModel() else []
        if not indexes:
            return None
        seq = indexes[0].data(KeyRole)
        return int(seq) if seq is not None else None

    def _show_newest(self) -> None:
        """Show the end of the log now and once the rows are laid out (a reset lays
        them out on the next pass)."""
        self.tree.scrollToBottom()
        QTimer.singleShot(0, self, self.tree.scrollToBottom)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._show_newest()

    def _follow_end(self, parent: QModelIndex, first: int, last: int) -> None:
        """New lines at the end: open the newest action with dice (folding the one opened
        before), and show the end. Cheap at any log length: no walk over every row."""
        model = self.tree.model()
        if not parent.isValid():
            if last < model.rowCount() - 1:  # older actions brought back at the top
                self._count_earlier()
                return
            index = model.index(last, 0)
            # Its dice's faces in view (not the round start of a 200-fighter fight: that
            # one stays one click away); the action opened before folds.
            if model.data(index, HasRollsRole) and model.rowCount(index) <= MAX_OPENED:
                self._open(index)
            else:
                self._open(None)
            self._count_earlier()
        elif parent.row() == model.rowCount() - 1 and not parent.parent().isValid():
            if model.data(parent, HasRollsRole) and model.rowCount(parent) <= MAX_OPENED:
                self._open(parent)
        self.tree.scrollToBottom()

    def _open(self, index: QModelIndex | None) -> None:
        """Open ``index`` (the newest action with dice), folding the one opened before."""
        opened = self._opened
        if opened is not None and opened.isValid() and opened != index:
            self.tree.collapse(opened.sibling(opened.row(), 0))
        self._opened = None
        if index is not None:
            self.tree.expand(index)
            self._opened = QPersistentModelIndex(index)

    def _count_earlier(self, *_: object) -> None:
        model = self.tree.model()
        earlier = int(getattr(model, "earlier", 0)) if model is not None else 0
        if earlier:
            self.earlier_button.setText(f"Show {earlier:,} earlier action{'s' if earlier != 1 else ''}")
        if self._earlier_row.isHidden() == bool(earlier):
            self._earlier_row.setVisible(bool(earlier))

    def _show_earlier(self) -> None:
        model = self.tree.model()
        show = getattr(model, "show_earlier", None)
        if show is not None:
            show()
        self._count_earlier()

    def _selection_changed(self, *_: object) -> None:
        seq = self.selected_seq()
        model = self.tree.model()
        last = model.index(model.rowCount() - 1, 0).data(KeyRole) if model.rowCount() else None
        self.revert_button.setEnabled(seq is not None and seq != last)
        selection = self.tree.selectionModel()
        indexes = selection.selectedIndexes() if selection is not None else []
        line = indexes[0].data(EntryRole) if indexes else None
        self._show_details(self.selected_step(), line)

    def _show_details(self, step: tuple[Any, ...], line: Any = None) -> None:
        """The selected action in full, scrolled to the entry of the selected line. Only
        on a selection change, never per new log entry: the tree stays fast."""
        shown = self._shown
        # Nothing selected before and after (a new line at the end, an undo): the empty
        # pane is not set anew, which would repaint it on every click.
        if not (len(step) == len(shown)
                and all(a is b for a, b in zip(step, shown, strict=True))):
            self._shown = step
            self.details.setHtml("".join(entry_html(entry) for entry in step))
        if line is not None and step and line is not step[0]:
            self.details.scrollToAnchor(f"entry-{line.seq}")
        else:
            self.details.verticalScrollBar().setValue(0)

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


class _Holder(QWidget):
    """Holds one widget at the whole of its own size. The "Show N earlier actions"
    button's text changes with nearly every step of a long fight: in the log's column
    layout each change had every layout above it run again (the log, its dock, the main
    window), for a change of no size. Held here, the change stops at the holder (it has
    no layout to ask); its height is the button's, which one line of text keeps."""

    def __init__(self, held: QWidget) -> None:
        super().__init__()
        self._held = held
        held.setParent(self)
        self.setSizePolicy(held.sizePolicy())
        # Filled with the window's colour, as what is under it: the flat button's repaint
        # stops here instead of painting the dock and the main window under it again.
        self.setBackgroundRole(QPalette.ColorRole.Window)
        self.setAutoFillBackground(True)

    def sizeHint(self) -> QSize:
        return self._held.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self._held.minimumSizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._held.setGeometry(self.rect())


def entry_html(entry: Any) -> str:
    """A log entry in full: when, the summary, then every event; a roll spelled out with
    who rolled, the dice, whether the app rolled them or the GM typed them in, the faces
    and the outcome."""
    from html import escape  # here, not at the top: html loads a 2,000-entry table

    when = (f"Round {entry.round}" if entry.round
            else "Start of the fight" if starts_the_fight(entry) else "Setup")
    if entry.where and entry.round:
        when += f", {entry.where}"
    parts = [f"<p><a name='entry-{entry.seq}'></a><b>{escape(entry.summary)}</b><br>"
             f"<i>{escape(when)} · log entry "
             f"{entry.seq}</i></p>"]
    lines: list[str] = []
    # A player's dice typed on their own device (a shared page): the note names whose.
    player = next((e.text.removeprefix("Dice typed by ") for e in entry.events
                   if e.roll is None and e.text.startswith("Dice typed by ")), "")
    for event in entry.events:
        roll = event.roll
        if roll is None:
            lines.append(f"<li>{escape(event.text)}</li>")
            continue
        faces = ", ".join(str(f) for f in roll.faces) or "no dice"
        typed = f"typed in by {player}" if player else "typed in by the GM"
        source = typed if roll.source == "typed" else "rolled by the app"
        what = f"{roll.notation} for {roll.purpose}" if roll.purpose else roll.notation
        bits = [f"<b>{escape(roll.who or 'Roll')}</b>: {escape(what)}, {escape(source)}",
                f"faces: {escape(faces)}"]
        if roll.outcome:
            bits.append(f"outcome: {escape(roll.outcome)}")
        bits += [f"chance of {escape(label)}: {escape(text)}" for label, text in logged_odds(event)]
        lines.append("<li>" + "<br>".join(bits) + "</li>")
    if lines:
        parts.append("<ul>" + "".join(lines) + "</ul>")
    else:
        parts.append("<p><i>No events.</i></p>")
    return "".join(parts)


def logged_odds(event: Any) -> list[tuple[str, str]]:
    """The exact chances logged with a roll, each as (what, "3/4 (75%)"); nothing for a
    roll logged without them (an older file, a free roll)."""
    from fractions import Fraction

    from fightdesk.engine.ruleset import Odds

    found: list[tuple[str, str]] = []
    odds = event.data.get("odds") if isinstance(event.data, dict) else None
    for pair in odds if isinstance(odds, list) else ():
        try:
            label, exact = pair
            chance = Odds(str(label), Fraction(str(exact)))
        except (TypeError, ValueError, ZeroDivisionError):
            continue  # a damaged line says nothing rather than something wrong
        found.append((chance.label, f"{chance.exact} ({chance.rounded})"))
    return found
