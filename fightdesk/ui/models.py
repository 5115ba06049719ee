"""Qt item models over the engine's collections: fighters, the log, the interrupt stack.

Each model only adapts: it asks the ruleset for its plain-data views (``card()``,
``stack()``) or reads the session's log, and tells the views what changed through Qt's
own row signals. No rule lives here. The object behind a row is under ``ItemRole``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication

from fightdesk.engine.log_lines import action_line, action_lines
from fightdesk.engine.views import fighter_cards, names_isolated

from .plain import plain_tip

if TYPE_CHECKING:
    from fightdesk.engine.engine import Engine, Notice
    from fightdesk.engine.model import Event, LogEntry

Index = QModelIndex | QPersistentModelIndex

ItemRole = Qt.ItemDataRole.UserRole + 1  # the view object behind the row (Card, StackRow, LogEntry)
KeyRole = Qt.ItemDataRole.UserRole + 2  # the row's id (fighter id, stack row id, log seq)
GroupRole = Qt.ItemDataRole.UserRole + 3  # the fighter's group id ("" when alone)
GroupNameRole = Qt.ItemDataRole.UserRole + 4
HasRollsRole = Qt.ItemDataRole.UserRole + 5  # a log entry with dice in it
StepRole = Qt.ItemDataRole.UserRole + 6  # the log entries of a log row's action (one undo step)
EntryRole = Qt.ItemDataRole.UserRole + 7  # the log entry a log row's line belongs to


def _sync_rows(model: QAbstractItemModel, old: list[Hashable], new: list[Hashable],
               replace: Any, columns: int, parent: QModelIndex | None = None) -> None:
    """Tell the views how ``old`` keys became ``new`` keys with one removal and one
    insertion (between the common head and tail); ``replace`` swaps in the new rows at
    the right moment. Rows kept on both sides are reported by the caller."""
    parent = parent or QModelIndex()
    head = 0
    while head < len(old) and head < len(new) and old[head] == new[head]:
        head += 1
    tail = 0
    while (tail < len(old) - head and tail < len(new) - head
           and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]):
        tail += 1
    removed = len(old) - head - tail
    added = len(new) - head - tail
    if removed and added and (head or tail):
        model.beginRemoveRows(parent, head, head + removed - 1)
        replace(partial=(head, removed, 0))
        model.endRemoveRows()
        model.beginInsertRows(parent, head, head + added - 1)
        replace(partial=None)
        model.endInsertRows()
    elif removed and added:
        model.beginResetModel()
        replace(partial=None)
        model.endResetModel()
    elif removed:
        model.beginRemoveRows(parent, head, head + removed - 1)
        replace(partial=None)
        model.endRemoveRows()
    elif added:
        model.beginInsertRows(parent, head, head + added - 1)
        replace(partial=None)
        model.endInsertRows()
    else:
        replace(partial=None)


def _header(headers: tuple[str, ...], section: int, orientation: Qt.Orientation,
            role: int) -> str | None:
    """The column titles every model here shows (horizontal, display role only)."""
    if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(headers)):
        return headers[section]
    return None


class _ViewRowsModel(QAbstractTableModel):
    """Rows of frozen view objects keyed by id; a refresh compares old and new rows and
    emits the smallest set of Qt row signals."""

    headers: tuple[str, ...] = ("",)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._keys: list[Hashable] = []
        self._rows: list[Any] = []
        self.engine: Engine | None = None

    def _fetch(self) -> list[tuple[Hashable, Any]]:
        """The rows as (key, view object) pairs; each model says which (none here, as
        ``_cell`` shows nothing here)."""
        return []

    def set_engine(self, engine: Engine | None) -> None:
        self.beginResetModel()
        self.engine = engine
        fetched = self._fetch() if engine is not None else []
        self._keys = [k for k, _ in fetched]
        self._rows = [v for _, v in fetched]
        self.endResetModel()

    def refresh(self, notice: Notice | None = None) -> None:
        if self.engine is None:
            return
        fetched = self._fetch()
        new_keys = [k for k, _ in fetched]
        new_rows = [v for _, v in fetched]
        if new_keys == self._keys:
            # The common case (a step that adds or removes nobody): the same rows, so
            # only the changed ones are reported, in runs.
            old_rows, self._rows = self._rows, new_rows
            self._emit_changed([row for row, (old, new) in enumerate(zip(old_rows, new_rows, strict=True))
                                if old is not new and old != new])
            return
        old_by_key = dict(zip(self._keys, self._rows, strict=True))

        def replace(partial: tuple[int, int, int] | None) -> None:
            if partial is not None:  # first half of a remove-then-insert
                head, removed, _ = partial
                del self._keys[head:head + removed]
                del self._rows[head:head + removed]
            else:
                self._keys = new_keys
                self._rows = new_rows

        _sync_rows(self, list(self._keys), new_keys, replace, self.columnCount())
        # Rows present before and after whose content changed.
        self._emit_changed([row for row, (key, value) in enumerate(zip(new_keys, new_rows, strict=True))
                            if key in old_by_key and old_by_key[key] != value])

    def _emit_changed(self, rows: list[int]) -> None:
        """One ``dataChanged`` per run of consecutive changed rows."""
        last = self.columnCount() - 1
        start = 0
        while start < len(rows):
            end = start
            while end + 1 < len(rows) and rows[end + 1] == rows[end] + 1:
                end += 1
            self.dataChanged.emit(self.index(rows[start], 0), self.index(rows[end], last))
            start = end + 1

    def item(self, row: int) -> Any:
        return self._rows[row]

    def row_of(self, key: Hashable) -> int:
        try:
            return self._keys.index(key)
        except ValueError:
            return -1

    # --- Qt ------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return _header(self.headers, section, orientation, role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return _NO_FLAGS
        return _EVENT_FLAGS  # combined once: the view asks for every cell it paints

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        value = self._rows[index.row()]
        if role == ItemRole:
            return value
        if role == KeyRole:
            return self._keys[index.row()]
        return self._cell(value, index.column(), role)

    def _cell(self, value: Any, column: int, role: int) -> Any:
        return None


class FightersModel(_ViewRowsModel):
    """One row per fighter in the fight's order; the row holds the ruleset's ``Card``."""

    headers = ("Fighter", "Side", "Health")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._groups: dict[str, tuple[str, str]] = {}

    def _fetch(self) -> list[tuple[Hashable, Any]]:
        assert self.engine is not None
        cards, self._groups = fighter_cards(self.engine.ruleset, self.engine.encounter)
        return list[tuple[Hashable, Any]](cards)

    def show_picture(self, cards: tuple[Any, ...], groups: dict[str, tuple[str, str]]) -> None:
        """The cards of a fight's picture (engine.views.FightPicture), shown while the
        rules load (rows without an engine); the next ``set_engine`` replaces them."""
        self.beginResetModel()
        self.engine = None
        self._groups = groups
        self._keys = [card.fighter_id for card in cards]
        self._rows = list(cards)
        self.endResetModel()

    def set_engine(self, engine: Engine | None) -> None:
        if engine is not None and self.engine is None and self._rows:
            # The live fight after its picture: the cards that look the same stay as they
            # are (most or all of them), the rest change as on a click.
            self.engine = engine
            pictured = self._groups
            self.refresh()
            if self._groups == pictured:
                return
        super().set_engine(engine)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in (GroupRole, GroupNameRole) and index.isValid() and 0 <= index.row() < len(self._keys):
            group = self._groups.get(str(self._keys[index.row()]))
            if group is None:
                return ""
            return group[0] if role == GroupRole else group[1]
        return super().data(index, role)

    def _cell(self, card: Any, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return card.title
            if column == 1:
                return card.side
            return f"{card.health}/{card.health_max}"
        if role == Qt.ItemDataRole.ToolTipRole and column == 0:
            return plain_tip(", ".join(c.text for c in card.conditions)) or None
        if role == Qt.ItemDataRole.ForegroundRole and card.out:
            return QApplication.palette().brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        return None


class StackModel(_ViewRowsModel):
    """The reaction stack in the order it will resolve; the column titles are the
    ruleset's (an interrupt stack of maneuvers and dice, or defenses and assists)."""

    headers: tuple[str, ...] = ("Fighter", "Action", "Uses", "Speed", "Spent", "Cost", "Reacts to")

    def set_engine(self, engine: Engine | None) -> None:
        # The ruleset's columns, then which move each one reacts to ("Interrupts" in a
        # ruleset whose reaction is an interrupt).
        if engine is not None:
            word = engine.ruleset.views.role_labels.get("react", "React")
            last = "Interrupts" if word == "Interrupt" else "Reacts to"
            titles = (*engine.ruleset.views.stack_columns, last)
        else:
            titles = type(self).headers
        if titles != self.headers:
            self.headers = titles
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(titles) - 1)
        super().set_engine(engine)

    def _fetch(self) -> list[tuple[Hashable, Any]]:
        assert self.engine is not None
        return [(row.id, row) for row in self.engine.ruleset.views.stack(self.engine.encounter)]

    def multiData(self, index: Index, roleDataSpan: Any) -> None:
        """The table's delegate asks for seven roles per cell at once: one call into
        Python per cell instead of seven (the stack is painted on every change of it)."""
        row = index.row()
        value = self._rows[row] if index.isValid() and 0 <= row < len(self._rows) else None
        column = index.column()
        for role_data in roleDataSpan:
            role = role_data.role()
            if value is None:
                answer = None
            elif role == ItemRole:
                answer = value
            elif role == KeyRole:
                answer = self._keys[row]
            else:
                answer = self._cell(value, column, role)
            if answer is None:
                role_data.clearData()
            else:
                role_data.setData(answer)

    def _cell(self, row: Any, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            values = (row.fighter, row.action, row.source,
                      "" if row.speed is None else str(row.speed), str(row.spent), row.cost,
                      row.reacts_to or "\N{EM DASH}")
            return values[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            # The action and the cost can be cut short in the table: whole here.
            whole = {1: row.action, 5: row.cost, 6: row.reacts_to}.get(column, "")
            reacts = f"Reacts to {row.reacts_to}" if row.reacts_to and column == 1 else ""
            return plain_tip("\n".join(text for text in (whole, reacts, row.note) if text)) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (2, 3, 4):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.FontRole and _done(row):
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and _done(row):
            return QPalette().brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        return None


def _done(row: Any) -> bool:
    """A move already resolved (or lost) that the stack still lists: struck out, grey."""
    note = str(getattr(row, "note", ""))
    return note == "resolved" or note.startswith("lost:")


class LogModel(QAbstractItemModel):
    """The session's log as a tree: one top row per action (one undo step: the command
    and the questions answered within it), its later commands and its events folded
    under it. Undone steps leave the model.

    Only the last ``SHOWN_ACTIONS`` actions are rows (``show_earlier`` brings older ones
    back): Qt's tree asks the model about every top row on each change, so a row per
    entry of a 10,000-entry log would make every click slower. A new entry, an undo or a
    redo touches only the rows at the end (and the one row that drops off the top)."""

    headers = ("When", "What happened")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.engine: Engine | None = None
        self._entries: list[LogEntry] = []  # the log as the rows show it
        self._starts: list[int] = []  # where each action starts in ``_entries``
        self._lines: dict[int, list[LogLine]] = {}  # an action's folded lines, once asked
        self._heads: dict[int, str] = {}  # an action's own line, once asked
        self._first = 0  # the action in row 0
        self._size = SHOWN_ACTIONS  # the most actions the rows hold

    def set_engine(self, engine: Engine | None) -> None:
        """Show ``engine``'s log; none yet while its history is still being read (call
        again once it is in: reading it here would read it all now)."""
        self.beginResetModel()
        self.engine = engine
        pending = engine is None or engine.pending_history is not None
        self._entries = [] if pending else list(engine.session.log)  # type: ignore[union-attr]
        self._starts = []
        step = None
        for n, entry in enumerate(self._entries):
            if entry.step != step:
                self._starts.append(n)
                step = entry.step
        self._lines = {}
        self._heads = {}
        self._size = SHOWN_ACTIONS
        self._first = max(0, len(self._starts) - self._size)
        self.endResetModel()

    @property
    def earlier(self) -> int:
        """How many older actions are not rows (``show_earlier`` brings them back)."""
        return self._first

    def show_earlier(self, count: int = 0) -> int:
        """Make ``count`` older actions rows again (every one when 0); how many came."""
        count = min(count or self._first, self._first)
        if count > 0:
            self.beginInsertRows(QModelIndex(), 0, count - 1)
            self._first -= count
            self.endInsertRows()
        self._size = max(SHOWN_ACTIONS, len(self._starts) - self._first)
        return count

    def refresh(self, notice: Notice | None = None) -> None:
        """Follow the log: entries taken off its end and entries added, found by identity
        from the end (an undo or a new entry costs the same at entry 10,000 as at 10)."""
        if self.engine is None or self.engine.pending_history is not None:
            return
        log = self.engine.session.log
        old = self._entries
        keep = min(len(old), len(log))
        while keep and log[keep - 1] is not old[keep - 1]:
            keep -= 1
        if keep == len(old) == len(log):
            return
        if keep < len(old):
            self._cut(keep)
        if keep < len(log):
            self._extend(log[keep:])
        self._fit()

    # --- keeping the rows in step -----------------------------------------------------------
    def _end(self, action: int) -> int:
        starts = self._starts
        return starts[action + 1] if action + 1 < len(starts) else len(self._entries)

    def _action(self, action: int) -> list[LogEntry]:
        return self._entries[self._starts[action]:self._end(action)]

    def _folded(self, action: int) -> list[LogLine]:
        lines = self._lines.get(action)
        if lines is None:
            lines = self._lines[action] = folded_lines(self._action(action))
        return lines

    def _head(self, action: int) -> str:
        """The action's own line (``engine.log_lines.action_line``), kept until its
        entries change: every paint asks for it."""
        head = self._heads.get(action)
        if head is None:
            head = self._heads[action] = action_line(self._action(action))
        return head

    def _cut(self, keep: int) -> None:
        """Take every entry from ``keep`` on out of the rows."""
        starts, root = self._starts, QModelIndex()
        action = bisect_left(starts, keep)  # the first action that goes whole
        partial = action - 1 if action > 0 and self._end(action - 1) > keep else None
        if action < len(starts):
            shown = max(action, self._first)  # the first of them that is a row
            rows = shown < len(starts)
            if rows:
                self.beginRemoveRows(root, shown - self._first, len(starts) - 1 - self._first)
            del self._entries[starts[action]:]
            del starts[action:]
            for gone in [a for a in self._lines if a >= action]:
                del self._lines[gone]
            for gone in [a for a in self._heads if a >= action]:
                del self._heads[gone]
            self._first = min(self._first, len(starts))
            if rows:
                self.endRemoveRows()
        if partial is None:
            del self._entries[keep:]
            return
        old = self._lines.get(partial)
        del self._entries[keep:]
        self._refold(partial, old)

    def _extend(self, new: list[LogEntry]) -> None:
        """Add entries at the end: those of the last action's step fold under it, the
        rest become new rows."""
        taken = 0
        if self._entries and new[0].step == self._entries[-1].step:
            while taken < len(new) and new[taken].step == new[0].step:
                taken += 1
            last = len(self._starts) - 1
            old = self._lines.get(last)
            self._entries.extend(new[:taken])
            self._refold(last, old)
        if taken == len(new):
            return
        rest = new[taken:]
        starts = [len(self._entries) + n for n, entry in enumerate(rest)
                  if n == 0 or entry.step != rest[n - 1].step]
        # The oldest rows drop off the top first: the tree then lays out and repaints
        # once for the click, when the view follows the new end (a removal after the
        # insert would have it lay out and repaint whole a second time).
        self._drop_oldest(len(self._starts) - self._first + len(starts) - self._size)
        rows = len(self._starts) - self._first
        self.beginInsertRows(QModelIndex(), rows, rows + len(starts) - 1)
        self._entries.extend(rest)
        self._starts.extend(starts)
        self.endInsertRows()

    def _refold(self, action: int, old: list[LogLine] | None) -> None:
        """An action whose entries changed: its folded lines grow or shrink at the end (a
        step only gains or loses entries at its end), and its own row may read anew."""
        self._heads.pop(action, None)
        if action < self._first or old is None:  # no view has asked for these lines
            self._lines.pop(action, None)
            if action < self._first:
                return
        row = action - self._first
        if old is not None:  # the view has seen these lines: tell it how they changed
            # (the old lines stay until the change is announced: rowCount() reads them)
            new = folded_lines(self._action(action))
            parent = self.index(row, 0)
            if len(new) > len(old):
                self.beginInsertRows(parent, len(old), len(new) - 1)
                self._lines[action] = new
                self.endInsertRows()
            elif len(new) < len(old):
                self.beginRemoveRows(parent, len(new), len(old) - 1)
                self._lines[action] = new
                self.endRemoveRows()
            else:
                self._lines[action] = new
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.headers) - 1))

    def _fit(self) -> None:
        """Keep ``_size`` actions as rows: the oldest drop off the top as new ones come,
        and come back after an undo."""
        rows = len(self._starts) - self._first
        root = QModelIndex()
        if rows > self._size:
            self._drop_oldest(rows - self._size)
        elif rows < self._size and self._first:
            back = min(self._size - rows, self._first)
            self.beginInsertRows(root, 0, back - 1)
            self._first -= back
            self.endInsertRows()

    def _drop_oldest(self, count: int) -> None:
        """Take the ``count`` oldest rows off the top (``show_earlier`` brings them back)."""
        count = min(count, len(self._starts) - self._first)
        if count <= 0:
            return
        self.beginRemoveRows(QModelIndex(), 0, count - 1)
        self._first += count
        for action in [a for a in self._lines if a < self._first]:
            del self._lines[action]
        for action in [a for a in self._heads if a < self._first]:
            del self._heads[action]
        self.endRemoveRows()

    # --- Qt ------------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        # The bounds checked here rather than by hasIndex(), which would call back into
        # rowCount() and columnCount(): the view asks for indexes on every paint.
        if row < 0 or not 0 <= column < len(self.headers):
            return QModelIndex()
        if not parent.isValid():
            if row >= len(self._starts) - self._first:
                return QModelIndex()
            return self.createIndex(row, column, 0)
        if parent.internalId() != 0 or parent.column() != 0:
            return QModelIndex()
        action = self._first + parent.row()
        if not 0 <= action < len(self._starts) or row >= len(self._folded(action)):
            return QModelIndex()
        # A folded line remembers its action (plus one, so 0 means "top row").
        return self.createIndex(row, column, action + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        row = index.internalId() - 1 - self._first
        return self.createIndex(row, 0, 0) if row >= 0 else QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._starts) - self._first
        action = self._first + parent.row()
        if parent.internalId() == 0 and parent.column() == 0 and action < len(self._starts):
            return len(self._folded(action))
        return 0

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        # The tree asks this of every row on each relayout: one call, not rowCount+columnCount.
        return self.rowCount(parent) > 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return _header(self.headers, section, orientation, role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return _NO_FLAGS
        return _EVENT_FLAGS if index.internalId() else _ENTRY_FLAGS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _LOG_ROLES:  # the view asks for fonts, colours... per cell: none here
            return None
        return self._value(index, role)

    def multiData(self, index: Index, roleDataSpan: Any) -> None:
        """The delegate asks for seven roles per cell at once: one call into Python per
        cell instead of seven (the log is repainted on every step)."""
        for role_data in roleDataSpan:
            role = role_data.role()
            if role in _LOG_ROLES:
                role_data.setData(self._value(index, role))
            else:
                role_data.clearData()

    def _value(self, index: Index, role: int) -> Any:
        if not index.isValid():
            return None
        top = index.internalId() == 0
        action = self._first + index.row() if top else index.internalId() - 1
        if not 0 <= action < len(self._starts):
            return None
        if role == KeyRole:  # Revert to here keeps the whole action
            return self._entries[self._end(action) - 1].seq
        entries = self._action(action)
        if role == StepRole:
            return tuple(entries)
        if top:
            head = entries[0]
            if role == Qt.ItemDataRole.DisplayRole:
                return _when(head) if index.column() == 0 else self._names(self._head(action))
            if role == Qt.ItemDataRole.ToolTipRole:  # whole, with when
                return plain_tip(f"{self._names(self._head(action))}\n({_when(head)})")
            if role in (ItemRole, EntryRole):
                return head
            if role == HasRollsRole:
                return any(e.roll is not None for entry in entries for e in entry.events)
            return None
        lines = self._folded(action)
        if not 0 <= index.row() < len(lines):
            return None
        entry, event = lines[index.row()]
        if role == ItemRole:
            return event if event is not None else entry
        if role == EntryRole:
            return entry
        if role in _TEXT_ROLES:
            if index.column() == 0:
                return ""
            text = self._names(event_text(event) if event is not None else entry.summary)
            return plain_tip(text) if role == Qt.ItemDataRole.ToolTipRole else text
        return None

    def _names(self, text: str) -> str:
        """A log line with the fighters' names isolated (engine/bidi.py): a name written
        right to left, or with direction controls, leaves the rest of its line alone."""
        if text.isascii() or self.engine is None:
            return text

        return names_isolated(self.engine.encounter)(text)


#: How many of the latest actions the log's rows hold (older ones on request).
SHOWN_ACTIONS = 100

#: A folded line under an action: a later command of its step (event None), or an event.
LogLine = tuple["LogEntry", "Event | None"]

_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_ENTRY_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_EVENT_FLAGS = _ENTRY_FLAGS | Qt.ItemFlag.ItemNeverHasChildren
_TEXT_ROLES = frozenset({int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole)})
_LOG_ROLES = _TEXT_ROLES | {int(ItemRole), int(KeyRole), int(HasRollsRole), int(StepRole),
                            int(EntryRole)}


def folded_lines(entries: list[LogEntry]) -> list[LogLine]:
    """What an action folds under its line: its events and later commands, each thing
    said once (``engine.log_lines.action_lines``); the details pane has every one."""
    return action_lines(entries)


def _when(entry: LogEntry) -> str:
    if entry.round == 0:
        return "Start" if starts_the_fight(entry) else "Setup"
    where = f" · {entry.where}" if entry.where else ""
    return f"R{entry.round}{where}"


def starts_the_fight(entry: LogEntry) -> bool:
    """Start Fight's own entry, filed before round 1 (a ruleset that asks a question
    first, who attacks by surprise or who concentrates): the log names it the fight's
    start, not one more setup edit."""
    return entry.command.get("kind") == "start-fight"


def event_text(event: Event) -> str:
    """An event's line; a roll is described afresh so its outcome (set after the roll
    was logged) is included with the faces."""
    if event.roll is not None:
        return event.roll.describe()
    return event.text
