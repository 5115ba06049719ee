"""The campaign library panel: the GM's recurring fighters, one campaign at a time.

A face over :mod:`fightdesk.storage.library`: :class:`LibraryModel` adapts the open
campaign to Qt (row signals from the campaign's before/after notices), a
:class:`LibraryFilter` proxy does search and filters, and :class:`LibraryPanel` holds the
campaign picker, the list and the buttons. It never touches the fight: "Add to fight"
emits ``addToEncounter`` with an engine ``AddFighters`` command, and the main window
applies it. Library undo/redo is the campaign's own history, not the fight's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from fightdesk.engine.rulesets import health_of, registered
from fightdesk.storage import library as storage
from fightdesk.storage.library import FIGHTER_MIME, describe_value, drag_payload

from .fighter_form import FighterDialog
from .form_fields import label_for, warning_color
from .plain import confirm, plain_label, plain_tip
from .tool_buttons import keep_button_lean

if TYPE_CHECKING:
    from fightdesk.engine.model import Encounter, Fighter
    from fightdesk.storage.library import (
        Campaign,
        CampaignNotice,
        FighterQuery,
        Library,
        WriteBackPlan,
    )

Index = QModelIndex | QPersistentModelIndex

FighterRole = Qt.ItemDataRole.UserRole + 1  # the library Fighter behind the row
IdRole = Qt.ItemDataRole.UserRole + 2  # its library id
SortRole = Qt.ItemDataRole.UserRole + 3

JSON_FILTER = "fightdesk fighters (*.json);;All files (*)"
SIDE_NAMES = {"pc": "PC", "ally": "Ally", "enemy": "Enemy"}


# --- the model ------------------------------------------------------------------------------


class LibraryModel(QAbstractTableModel):
    """The open campaign's fighters as rows; drags carry the fighters as JSON."""

    COLUMNS = ("Name", "Side", "Health", "Tags", "Ruleset")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.campaign: Campaign | None = None
        #: How many copies a drag adds (the panel keeps this in step with its spin box).
        self.drag_count = 1

    def set_campaign(self, campaign: Campaign | None) -> None:
        self.beginResetModel()
        if self.campaign is not None:
            self.campaign.unsubscribe(self._on_notice)
        self.campaign = campaign
        if campaign is not None:
            campaign.subscribe(self._on_notice)
        self.endResetModel()

    def _fighters(self) -> tuple[Fighter, ...]:
        return self.campaign.fighters if self.campaign is not None else ()

    def _on_notice(self, notice: CampaignNotice) -> None:
        change = notice.change
        if notice.stage == "closed":
            self.set_campaign(None)
            return
        if change is None:
            return
        root = QModelIndex()
        if notice.stage == "before":
            if change.kind == "insert":
                self.beginInsertRows(root, change.index, change.index)
            elif change.kind == "remove":
                self.beginRemoveRows(root, change.index, change.index)
        elif notice.stage == "after":
            if change.kind == "insert":
                self.endInsertRows()
            elif change.kind == "remove":
                self.endRemoveRows()
            else:
                self.dataChanged.emit(self.index(change.index, 0),
                                      self.index(change.index, len(self.COLUMNS) - 1))

    # --- Qt's model interface --------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._fighters())

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self.COLUMNS)):
            return self.COLUMNS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                | Qt.ItemFlag.ItemIsDragEnabled)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        fighters = self._fighters()
        if not index.isValid() or not 0 <= index.row() < len(fighters):
            return None
        f = fighters[index.row()]
        col = index.column()
        if role == FighterRole:
            return f
        if role == IdRole:
            return f.id
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(f, col)
        if role == SortRole:
            if col == 2:
                return int(_health(f)[0] or 0)
            return self._text(f, col).casefold()
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [f.name, f"Tags: {', '.join(f.tags)}" if f.tags else "", f.notes]
            return plain_tip("\n".join(line for line in lines if line))
        return None

    @staticmethod
    def _text(f: Fighter, col: int) -> str:
        if col == 0:
            return f.name
        if col == 1:
            return SIDE_NAMES.get(f.side, f.side)
        if col == 2:
            now, full = _health(f)
            return "" if now is None else f"{now}/{full}" if full is not None else str(now)
        if col == 3:
            return ", ".join(f.tags)
        return f.ruleset

    def fighter_at(self, row: int) -> Fighter:
        return self._fighters()[row]

    def row_of(self, fighter_id: str) -> int:
        for i, f in enumerate(self._fighters()):
            if f.id == fighter_id:
                return i
        return -1

    # --- dragging fighters onto the fight -----------------------------------------------------
    def mimeTypes(self) -> list[str]:
        return [FIGHTER_MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:  # type: ignore[override]

        rows = sorted({i.row() for i in indexes if i.isValid()})
        fighters = [self.fighter_at(r) for r in rows]
        mime = QMimeData()
        mime.setData(FIGHTER_MIME, drag_payload(fighters, self.drag_count))
        copies = f"{self.drag_count} x " if self.drag_count > 1 else ""
        mime.setText("\n".join(f"{copies}{f.name}" for f in fighters))
        return mime

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction


class LibraryFilter(QSortFilterProxyModel):
    """Search and filters (name, ruleset, side, tag) over the library model."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._query: FighterQuery | None = None
        self.setSortRole(SortRole)

    @property
    def query(self) -> FighterQuery | None:
        return self._query

    def set_query(self, query: FighterQuery) -> None:
        if query == self._query:
            return
        if hasattr(self, "beginFilterChange"):  # Qt 6.10 and later
            self.beginFilterChange()
            self._query = query
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._query = query
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if self._query is None:
            return True
        fighter = self.sourceModel().index(source_row, 0, source_parent).data(FighterRole)
        return fighter is not None and self._query.matches(fighter)


# --- the write-back diff -------------------------------------------------------------------


class WriteBackDialog(QDialog):
    """What "write back" will change, fighter by fighter and field by field."""

    def __init__(self, plan: WriteBackPlan, campaign_name: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Write back to the campaign")
        intro = plain_label(f"These lasting changes from the fight will be written to "
                       f"<b>{campaign_name}</b> (one library undo step):")
        intro.setWordWrap(True)
        self.table = QTableWidget(len(plan.rows), 4)
        self.table.setObjectName("writeBackTable")
        self.table.setHorizontalHeaderLabels(["Fighter", "Field", "Before", "After"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for r, row in enumerate(plan.rows):
            section, _, key = row.field.partition(".")
            where = label_for(key) + (" (now)" if section == "status" else " (sheet)")
            for c, text in enumerate((row.fighter_name, where, describe_value(row.old),
                                      describe_value(row.new))):
                self.table.setItem(r, c, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table)
        if plan.skipped:
            skipped = plain_label("Not written back:\n" + "\n".join(f"- {s}" for s in plan.skipped))
            skipped.setObjectName("skipped")
            skipped.setWordWrap(True)
            layout.addWidget(skipped)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.write_button = buttons.addButton("Write back",
                                              QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(620, 360)


# --- the panel -----------------------------------------------------------------------------


class LibraryPanel(QWidget):
    """Campaign picker, search and filters, the fighter list, and its buttons."""

    #: An engine ``AddFighters`` command for the main window to apply to the fight.
    addToEncounter = Signal(object)
    #: One line for the status bar (what was done, or why not).
    message = Signal(str)

    def __init__(self, library: Library | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)

        self._storage = storage
        self.setObjectName("LibraryPanel")
        self.setAccessibleName("Campaign library")
        self.setWindowTitle("Campaign library")
        # Why the library is off (its folder cannot be used), shown in the banner.
        self.off_reason: str | None = None
        if library is None:
            try:
                library = storage.Library()
            except OSError as exc:  # paths.FolderProblem: unwritable or refused
                self.off_reason = str(exc)
                library = storage.Library(folder=Path(os.devnull) / "campaigns")
        self.library = library
        self._encounter_source: Callable[[], Encounter | None] = lambda: None
        self.model = LibraryModel(self)
        self.proxy = LibraryFilter(self)
        self.proxy.setSourceModel(self.model)
        self._build()
        self._connect()
        self._start()

    # --- building -------------------------------------------------------------------------
    def _build(self) -> None:
        self._build_pickers()
        self._build_list()
        self._build_list_actions()
        self._lay_out()

    def _build_pickers(self) -> None:
        """The campaign picker, the failed-save banner, the search and the filters."""
        self.campaign_combo = QComboBox()
        self.campaign_combo.setObjectName("campaignPicker")
        self.campaign_combo.setToolTip("The open campaign (one at a time)")
        self.campaign_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.campaign_combo.setMinimumContentsLength(12)
        self.campaign_button = QPushButton("Campaign")
        self.campaign_button.setToolTip("New, rename or delete a campaign")
        menu = QMenu(self.campaign_button)
        self.new_campaign_action = menu.addAction("New campaign...")
        self.rename_campaign_action = menu.addAction("Rename campaign...")
        self.delete_campaign_action = menu.addAction("Delete campaign...")
        self.campaign_button.setMenu(menu)

        self.banner = plain_label()
        self.banner.setObjectName("libraryBanner")
        self.banner.setWordWrap(True)
        self.banner.setVisible(False)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retry_button = QPushButton("Save again")
        self.retry_button.setVisible(False)
        self.retry_button.setToolTip("Try to save the campaign file again")

        self.search = QLineEdit()
        self.search.setObjectName("librarySearch")
        self.search.setAccessibleName("Search the library by name")
        self.search.setPlaceholderText("Search by name")
        self.search.setClearButtonEnabled(True)
        self.ruleset_filter = QComboBox()
        self.side_filter = QComboBox()
        self.tag_filter = QComboBox()

        self.ruleset_filter.addItem("All rulesets", None)
        for info in registered().values():
            self.ruleset_filter.addItem(info.title, info.id)
        self.side_filter.addItem("All sides", None)
        for side, label in SIDE_NAMES.items():
            self.side_filter.addItem(label, side)
        self.tag_filter.addItem("All tags", None)
        for combo, tip in ((self.ruleset_filter, "Show one ruleset's fighters"),
                           (self.side_filter, "Show one side"),
                           (self.tag_filter, "Show fighters with this tag")):
            combo.setToolTip(tip)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)

    def _build_list(self) -> None:
        self.view = QTreeView()
        self.view.setObjectName("libraryList")
        self.view.setAccessibleName("Library fighters")
        self.view.setModel(self.proxy)
        self.view.setRootIsDecorated(False)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setDragEnabled(True)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.view.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        # Names are what the GM reads: they get their full width; the tags take what is
        # left and are cut short with "…" (the tooltip lists them all), so the list never
        # scrolls sideways unless the names themselves are wider than the dock.
        header = self.view.header()
        header.setStretchLastSection(False)
        for col in range(len(LibraryModel.COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(LibraryModel.COLUMNS.index("Tags"), QHeaderView.ResizeMode.Stretch)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)

    def _build_list_actions(self) -> None:
        def action(text: str, tip: str, shortcut: str = "") -> QAction:
            act = QAction(text, self)
            if shortcut:
                act.setShortcut(QKeySequence(shortcut))
                act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                tip = f"{tip} ({QKeySequence(shortcut).toString(QKeySequence.SequenceFormat.NativeText)})"
            act.setToolTip(tip)
            act.setStatusTip(tip)
            return act

        self.new_action = action("New", "Create a fighter in this campaign")
        # No F2 here: it is the window's "Act" key; double-click a row to edit it.
        self.edit_action = action("Edit", "Edit the selected fighter (or double-click it)")
        self.duplicate_action = action("Duplicate", "Copy the selected fighter(s)")
        self.delete_action = action("Delete", "Delete the selected fighter(s) (undoable)",
                                    "Del")
        self.import_action = action("Import...", "Add fighters from a JSON file (all or none)")
        self.export_action = action("Export...",
                                    "Save the selected fighters (or all) to a JSON file")
        self.undo_action = action("Undo", "Undo the last library edit")
        self.redo_action = action("Redo", "Redo the library edit you undid")
        self.add_action = action("Add to fight", "Add the selected fighter(s) to the fight; "
                                 "several copies become one numbered group", "Ctrl+Return")
        self._add_tip = self.add_action.toolTip()
        self.write_back_action = action("Write back...", "Copy the fight's lasting changes "
                                        "(health, chi, willpower...) to the library")
        for act in (self.add_action, self.edit_action, self.duplicate_action,
                    self.delete_action, self.export_action):
            self.view.addAction(act)

    def _lay_out(self) -> None:
        def button(act: QAction) -> QToolButton:
            b = QToolButton()
            b.setDefaultAction(act)
            keep_button_lean(b)  # Undo and Redo change with every library edit
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setAutoRaise(False)
            return b

        self.count_spin = QSpinBox()
        self.count_spin.setObjectName("copies")
        self.count_spin.setAccessibleName("Copies to add")
        self.count_spin.setRange(1, 100)
        self.count_spin.setPrefix("x ")
        self.count_spin.setToolTip("How many copies to add (also for dragging)")

        top = QHBoxLayout()
        top.addWidget(self.campaign_combo, 1)
        top.addWidget(self.campaign_button)
        banner_row = QHBoxLayout()
        banner_row.addWidget(self.banner, 1)
        banner_row.addWidget(self.retry_button)
        filters = QHBoxLayout()
        filters.addWidget(self.ruleset_filter)
        filters.addWidget(self.side_filter)
        filters.addWidget(self.tag_filter)
        filters.addStretch(1)
        edits = QHBoxLayout()
        for act in (self.new_action, self.edit_action, self.duplicate_action,
                    self.delete_action):
            edits.addWidget(button(act))
        edits.addStretch(1)
        files = QHBoxLayout()
        for act in (self.import_action, self.export_action):
            files.addWidget(button(act))
        files.addStretch(1)
        for act in (self.undo_action, self.redo_action):
            files.addWidget(button(act))
        fight = QHBoxLayout()
        fight.addWidget(self.count_spin)
        self.add_button = button(self.add_action)
        fight.addWidget(self.add_button)
        fight.addStretch(1)
        fight.addWidget(button(self.write_back_action))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addLayout(banner_row)
        layout.addWidget(self.search)
        layout.addLayout(filters)
        layout.addWidget(self.view, 1)
        layout.addLayout(edits)
        layout.addLayout(files)
        layout.addLayout(fight)
        # Why "Add to fight" is off for the selection (a fighter of another ruleset).
        self.add_reason = plain_label(wrap=True)
        self.add_reason.setObjectName("addReason")
        self.add_reason.hide()
        layout.addWidget(self.add_reason)

    def _connect(self) -> None:
        self.campaign_combo.activated.connect(self._campaign_picked)
        self.new_campaign_action.triggered.connect(self.new_campaign)
        self.rename_campaign_action.triggered.connect(self.rename_campaign)
        self.delete_campaign_action.triggered.connect(self.delete_campaign)
        self.retry_button.clicked.connect(self.save_again)
        self.search.textChanged.connect(self._filter_changed)
        for combo in (self.ruleset_filter, self.side_filter, self.tag_filter):
            combo.currentIndexChanged.connect(self._filter_changed)
        self.view.doubleClicked.connect(lambda _i: self.edit_selected())
        self.view.selectionModel().selectionChanged.connect(self._update_actions)
        self.count_spin.valueChanged.connect(self._count_changed)
        self.new_action.triggered.connect(self.new_fighter)
        self.edit_action.triggered.connect(self.edit_selected)
        self.duplicate_action.triggered.connect(self.duplicate_selected)
        self.delete_action.triggered.connect(self.delete_selected)
        self.import_action.triggered.connect(self.import_fighters)
        self.export_action.triggered.connect(self.export_fighters)
        self.undo_action.triggered.connect(self.undo)
        self.redo_action.triggered.connect(self.redo)
        self.add_action.triggered.connect(self.add_selected_to_fight)
        self.write_back_action.triggered.connect(self.write_back)

    def _start(self) -> None:
        """First run: copy the sample campaign in; then open the campaign used last."""
        if self.off_reason is not None:
            self.show_problem(f"The campaign library is off: {self.off_reason}. Fights "
                              "work as usual; fighters cannot be kept here until the "
                              "folder can be used.")
            for widget in (self.campaign_combo, self.campaign_button, self.search):
                widget.setEnabled(False)
            self._fill_campaigns()
            self._update_actions()
            return
        try:
            self.library.first_run()
        except self._storage.FileProblem as problem:
            self.show_problem(str(problem))
        name = self.library.last_open()
        if name is not None:
            self.open_campaign(name)
        self._fill_campaigns()
        self._update_actions()

    # --- wiring from the main window ---------------------------------------------------------
    def set_encounter_source(self, source: Callable[[], Encounter | None]) -> None:
        """Where "Write back" finds the fight (the main window passes its engine's)."""
        self._encounter_source = source

    # --- reading ----------------------------------------------------------------------------
    @property
    def campaign(self) -> Campaign | None:
        return self.library.current

    def selected_fighters(self) -> list[Fighter]:
        rows = self.view.selectionModel().selectedRows(0)
        found = [self.proxy.mapToSource(i).data(FighterRole) for i in rows]
        return [f for f in found if f is not None]

    def select_fighter(self, fighter_id: str) -> None:
        row = self.model.row_of(fighter_id)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.view.scrollTo(index)

    # --- campaigns --------------------------------------------------------------------------
    def _fill_campaigns(self) -> None:
        combo = self.campaign_combo
        combo.blockSignals(True)
        try:
            combo.clear()
            for name in self.library.campaigns():
                combo.addItem(name, name)
            current = self.campaign.name if self.campaign is not None else None
            combo.setCurrentIndex(combo.findData(current) if current else -1)
            if current is None:
                combo.setPlaceholderText("No campaign open")
        finally:
            combo.blockSignals(False)
        has = self.campaign is not None
        self.rename_campaign_action.setEnabled(has)
        self.delete_campaign_action.setEnabled(has)

    def _campaign_picked(self, i: int) -> None:
        name = self.campaign_combo.itemData(i)
        if name and (self.campaign is None or name != self.campaign.name):
            self.open_campaign(name)

    def open_campaign(self, name: str) -> bool:
        storage = self._storage
        try:
            campaign = self.library.open(name)
        except storage.UnsavedEdits as exc:
            if not self._confirm("Unsaved library edits",
                                 f"{exc}.\n\nOpen {name!r} anyway and lose those edits?"):
                self._fill_campaigns()
                return False
            try:
                campaign = self.library.open(name, discard_unsaved=True)
            except (storage.LibraryError, storage.FileProblem) as problem:
                return self._open_failed(problem)
        except (storage.LibraryError, storage.FileProblem) as problem:
            return self._open_failed(problem)
        self.model.set_campaign(campaign)
        campaign.subscribe(self._on_notice)
        self.show_problem("")
        self._fill_campaigns()
        self._fill_tags()
        self._update_actions()
        self._show_ruleset_column()
        return True

    def _open_failed(self, problem: Exception) -> bool:
        self.show_problem(f"Cannot open this campaign: {problem}. The file was not changed.")
        self._fill_campaigns()
        return False

    def new_campaign(self) -> None:
        name = self._ask_text("New campaign", "Name of the new campaign:", "")
        if not name:
            return
        try:
            created = self.library.create(name)
        except (self._storage.LibraryError, self._storage.FileProblem) as exc:
            self.show_problem(str(exc))
            return
        self.open_campaign(created)

    def rename_campaign(self) -> None:
        if self.campaign is None:
            return
        name = self._ask_text("Rename campaign", "New name:", self.campaign.name)
        if not name or name == self.campaign.name:
            return
        try:
            self.library.rename(self.campaign.name, name)
        except (self._storage.LibraryError, self._storage.FileProblem) as exc:
            self.show_problem(str(exc))
            return
        self._fill_campaigns()

    def delete_campaign(self) -> None:
        campaign = self.campaign
        if campaign is None:
            return
        if not self._confirm("Delete campaign",
                             f"Delete the campaign {campaign.name!r} and its {len(campaign)} "
                             "fighter(s)? The file is moved to the library's .deleted folder."):
            return
        try:
            where = self.library.delete(campaign.name)
        except (self._storage.LibraryError, self._storage.FileProblem) as exc:
            self.show_problem(str(exc))
            return
        self.model.set_campaign(None)
        self.message.emit(f"Campaign {campaign.name!r} moved to {where}")
        remaining = self.library.campaigns()
        if remaining:
            self.open_campaign(remaining[0])
        self._fill_campaigns()
        self._update_actions()

    # --- fighters ---------------------------------------------------------------------------
    def new_fighter(self) -> None:
        campaign = self.campaign
        if campaign is None:
            self.show_problem("Open or create a campaign first (Campaign menu).")
            return
        ruleset = self._new_ruleset()
        if ruleset is None:
            return
        blank = self._storage.new_fighter(ruleset, "New fighter")
        edited = self._edit_dialog(blank, "New fighter")
        if edited is not None:
            self._run(lambda: self.select_fighter(campaign.add(edited).id))

    def _new_ruleset(self) -> str | None:
        """Ask which ruleset the new fighter is for (the open fight's first, else the
        filter's)."""
        from .ruleset_choice import ask_ruleset

        chosen = self._fight_ruleset() or self.ruleset_filter.currentData()
        return ask_ruleset(self, "New Fighter", "Which rules is this fighter for?",
                           str(chosen) if chosen else None)

    def edit_selected(self) -> None:
        campaign = self.campaign
        chosen = self.selected_fighters()
        if campaign is None or len(chosen) != 1:
            return
        original = chosen[0]
        edited = self._edit_dialog(original, f"Edit {original.name}")
        if edited is not None:
            self._run(lambda: campaign.edit(original.id, edited))

    def duplicate_selected(self) -> None:
        campaign = self.campaign
        if campaign is None:
            return
        for f in self.selected_fighters():
            self._run(partial(self._duplicate_one, campaign, f.id))

    def _duplicate_one(self, campaign: Campaign, fighter_id: str) -> None:
        self.select_fighter(campaign.duplicate(fighter_id).id)

    def delete_selected(self) -> None:
        campaign = self.campaign
        chosen = self.selected_fighters()
        if campaign is None or not chosen:
            return
        self._run(lambda: campaign.delete([f.id for f in chosen]))
        self.message.emit(f"{campaign.undo_text()} (Undo in the library panel brings "
                          "it back)")

    def import_fighters(self) -> None:
        campaign = self.campaign
        if campaign is None:
            self.show_problem("Open or create a campaign first (Campaign menu).")
            return
        path = self._ask_open_file()
        if path is None:
            return
        try:
            added = campaign.import_file(path)
        except self._storage.FileProblem as problem:
            self.show_problem(f"Nothing was imported: {problem}")
            return
        self.show_problem("")
        self.message.emit(f"Imported {len(added)} fighter(s) from {path.name}")
        if added:
            self.select_fighter(added[0].id)

    def export_fighters(self) -> None:
        campaign = self.campaign
        if campaign is None:
            return
        chosen = self.selected_fighters()
        default = chosen[0].name if len(chosen) == 1 else campaign.name
        path = self._ask_save_file(f"{default}.json")
        if path is None:
            return
        ids = [f.id for f in chosen] if chosen else None
        try:
            count = campaign.export(path, ids)
        except self._storage.FileProblem as problem:
            self.show_problem(str(problem))
            return
        self.message.emit(f"Exported {count} fighter(s) to {path}")

    def undo(self) -> None:
        if self.campaign is not None:
            self.campaign.undo()

    def redo(self) -> None:
        if self.campaign is not None:
            self.campaign.redo()

    def save_again(self) -> None:
        if self.campaign is None:
            return
        try:
            self.campaign.save()
        except self._storage.FileProblem as problem:
            self._show_save_problem(problem)
            return
        self.show_problem("")
        self.message.emit(f"Campaign {self.campaign.name!r} saved")

    def _run(self, edit: Callable[[], object]) -> None:
        """Run one library edit; a refused edit becomes a message, never a traceback."""
        try:
            edit()
        except self._storage.LibraryError as exc:
            self.show_problem(str(exc))

    # --- the fight --------------------------------------------------------------------------
    def add_selected_to_fight(self) -> None:
        chosen = self.selected_fighters()
        if not chosen:
            self.message.emit("Select the fighter(s) to add first")
            return
        refusal = self._add_refusal(chosen)
        if refusal:
            self.message.emit(refusal)
            return
        count = self.count_spin.value()
        for f in chosen:
            if f.side == "pc" and f.id in self._fighting_ids() and not self._confirm(
                    "Add again?", f"{f.name} is already in this fight. Add another copy?"):
                continue
            self.addToEncounter.emit(self._storage.add_command(f, count))

    def _fight_ruleset(self) -> str | None:
        encounter = self._encounter_source()
        return encounter.ruleset if encounter is not None else None

    def _fighting_ids(self) -> set[str]:
        """The library ids of the fighters already in the open fight."""
        encounter = self._encounter_source()
        if encounter is None:
            return set()
        return {f.source_id for f in encounter.fighters.values() if f.source_id}

    def _add_refusal(self, chosen: list[Fighter]) -> str:
        """Why the selection cannot join the open fight ("" when it can): a fight holds
        fighters of its own ruleset only."""
        found = registered()
        ruleset = self._fight_ruleset()
        if ruleset is None:
            return ""
        for f in chosen:
            if f.ruleset != ruleset:
                theirs = found[f.ruleset].title if f.ruleset in found else f.ruleset
                ours = found[ruleset].title if ruleset in found else ruleset
                return (f"{f.name} is a {theirs} fighter; this fight uses {ours}. "
                        "Only fighters of the fight's ruleset can join it.")
        return ""

    def follow_fight(self) -> None:
        """A fight was opened or started: the list shows its ruleset's fighters (the
        filter stays the GM's to change), and Add to fight says whether it can add."""
        ruleset = self._fight_ruleset()
        if ruleset is not None:
            index = self.ruleset_filter.findData(ruleset)
            if index >= 0:
                self.ruleset_filter.setCurrentIndex(index)
        self._update_actions()

    def write_back(self) -> None:
        campaign = self.campaign
        encounter = self._encounter_source()
        if campaign is None or encounter is None:
            self.message.emit("Nothing to write back: open a campaign and a fight first")
            return
        plan = self._storage.plan_write_back(campaign, encounter)
        if not plan.rows:
            why = ("; ".join(plan.skipped)) if plan.skipped else (
                "no fighter from this campaign has a lasting change")
            self.message.emit(f"Nothing to write back: {why}")
            return
        if self._confirm_write_back(plan):
            self._run(lambda: campaign.write_back(plan))
            self.message.emit(f"{campaign.undo_text()} to {campaign.name!r}")

    # --- listening --------------------------------------------------------------------------
    def _on_notice(self, notice: CampaignNotice) -> None:
        if notice.stage == "history":
            self._fill_tags()
            self._update_actions()
            self._show_ruleset_column()
        elif notice.stage == "saved":
            if notice.problem is not None:
                self._show_save_problem(notice.problem)
            elif self.retry_button.isVisible():
                self.show_problem("")

    def _show_save_problem(self, problem: Exception) -> None:
        self.show_problem(f"Not saved: {problem}. Your edits are kept here and fightdesk "
                          "saves again with the next edit; the last good file is untouched.",
                          retry=True)

    def show_problem(self, text: str, *, retry: bool = False) -> None:
        """The banner at the top of the panel: the last problem, in one message."""
        self.banner.setText(text)
        self.banner.setVisible(bool(text))
        self.retry_button.setVisible(bool(text) and retry)
        palette = self.banner.palette()
        palette.setColor(QPalette.ColorRole.WindowText, warning_color(self))
        self.banner.setPalette(palette)
        if text:
            self.message.emit(text)

    def _fill_tags(self) -> None:
        combo = self.tag_filter
        current = combo.currentData()
        tags = self.campaign.tags() if self.campaign is not None else []
        combo.blockSignals(True)
        try:
            combo.clear()
            combo.addItem("All tags", None)
            for tag in tags:
                combo.addItem(tag, tag)
            combo.setCurrentIndex(max(combo.findData(current), 0) if current else 0)
        finally:
            combo.blockSignals(False)
        self._filter_changed()

    def _filter_changed(self, *_: object) -> None:
        self.proxy.set_query(self._storage.FighterQuery(
            text=self.search.text(),
            ruleset=self.ruleset_filter.currentData(),
            side=self.side_filter.currentData(),
            tag=self.tag_filter.currentData(),
        ))

    def _show_ruleset_column(self) -> None:
        """The ruleset column only earns its width when the campaign mixes rulesets."""
        mixed = self.campaign is not None and len(self.campaign.rulesets()) > 1
        self.view.setColumnHidden(len(LibraryModel.COLUMNS) - 1, not mixed)

    def _count_changed(self, value: int) -> None:
        self.model.drag_count = value
        self.add_action.setText("Add to fight" if value == 1 else f"Add {value} to fight")

    def _update_actions(self, *_: object) -> None:
        campaign = self.campaign
        chosen = len(self.view.selectionModel().selectedRows(0)) if campaign else 0
        self.new_action.setEnabled(campaign is not None)
        self.import_action.setEnabled(campaign is not None)
        self.export_action.setEnabled(campaign is not None and len(campaign) > 0)
        self.edit_action.setEnabled(chosen == 1)
        for act in (self.duplicate_action, self.delete_action, self.add_action):
            act.setEnabled(chosen > 0)
        refusal = self._add_refusal(self.selected_fighters()) if chosen else ""
        if refusal:
            self.add_action.setEnabled(False)
        # A disabled button shows no tooltip on every desktop: the reason is also the
        # status tip and the button's accessible description.
        add_tip = plain_tip(refusal) if refusal else self._add_tip
        self.add_action.setToolTip(add_tip)
        self.add_action.setStatusTip(refusal or self._add_tip)
        self.add_button.setAccessibleDescription(refusal or self._add_tip)
        self.add_reason.setText(refusal)
        self.add_reason.setVisible(bool(refusal))
        self.write_back_action.setEnabled(campaign is not None)
        can_undo = campaign is not None and campaign.can_undo()
        can_redo = campaign is not None and campaign.can_redo()
        self.undo_action.setEnabled(can_undo)
        self.redo_action.setEnabled(can_redo)
        # The step's name quotes a fighter's: plain text.
        self.undo_action.setToolTip(plain_tip(f"Undo library edit: {campaign.undo_text()}")
                                    if can_undo and campaign else "Nothing to undo in the library")
        self.redo_action.setToolTip(plain_tip(f"Redo library edit: {campaign.redo_text()}")
                                    if can_redo and campaign else "Nothing to redo in the library")

    # --- questions to the GM (tests replace these) ---------------------------------------------
    def _edit_dialog(self, fighter: Fighter, title: str) -> Fighter | None:
        dialog = FighterDialog(fighter, title, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.result_fighter()

    def _confirm_write_back(self, plan: WriteBackPlan) -> bool:
        assert self.campaign is not None
        dialog = WriteBackDialog(plan, self.campaign.name, self)
        return dialog.exec() == QDialog.DialogCode.Accepted

    def _ask_text(self, title: str, label: str, default: str) -> str | None:
        text, ok = QInputDialog.getText(self, title, label, QLineEdit.EchoMode.Normal, default)
        return text.strip() if ok and text.strip() else None

    def _ask_open_file(self) -> Path | None:
        name, _ = QFileDialog.getOpenFileName(self, "Import fighters", str(Path.home()),
                                              JSON_FILTER)
        return Path(name) if name else None

    def _ask_save_file(self, suggested: str) -> Path | None:
        name, _ = QFileDialog.getSaveFileName(self, "Export fighters",
                                              str(Path.home() / suggested), JSON_FILTER)
        return Path(name) if name else None

    def _confirm(self, title: str, text: str) -> bool:
        return confirm(self, title, text)


def _health(fighter: Fighter) -> tuple[int | None, int | None]:
    """(now, full) by the fighter's ruleset's own fields (its registration's ``health``)."""
    return health_of(fighter)
