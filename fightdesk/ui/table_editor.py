"""Fight > Roll Tables: the fight's roll tables, edited as a grid and rolled on.

The dialog holds no rules: it reads the fight's tables through a function it is given,
changes them only by handing commands (``SetTable``, ``RemoveTable``, ``RollOnTable``)
to an ``apply`` function (the window's ``FightDocument.apply``), and checks an edit with
the engine's own table rules before anything can be applied. With a campaign open it
saves a table to the campaign, or takes the campaign's version of it. Every text from a
file (names, results, effects) is shown as plain text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fightdesk.engine.commands import RemoveTable, RollOnTable, SetTable
from fightdesk.engine.tables import (
    RollTable,
    TableRow,
    describe_error,
    is_d100,
    read_total,
    show_total,
)

from .inline import error_label, parse_typed_dice

if TYPE_CHECKING:
    from fightdesk.engine.commands import Command
    from fightdesk.engine.engine import Outcome
    from fightdesk.storage.library import Campaign

TablesFn = Callable[[], Mapping[str, RollTable]]
ApplyFn = Callable[["Command"], "Outcome"]

COLUMNS = ("Low", "High", "Result", "Effect")
_TABLE_ID = Qt.ItemDataRole.UserRole


def _plain_label(text: str = "", *, wrap: bool = True) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    return label


def plain_tip(text: str) -> str:
    """A tooltip that shows ``text`` as written: Qt guesses rich text from a tooltip's
    tags, so file text goes in escaped inside a paragraph it cannot mistake."""
    from html import escape

    return f"<p style='white-space:pre-wrap'>{escape(text)}</p>"


def _quiet(label: QLabel) -> QLabel:
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


class RollTablesDialog(QDialog):
    """The list of this fight's tables; the chosen one's name, die and rows to edit;
    Apply, Roll, New, Remove, and the campaign's copy."""

    def __init__(self, tables: TablesFn, apply: ApplyFn, *,
                 builtin: Mapping[str, RollTable] | None = None,
                 campaign: Campaign | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("RollTablesDialog")
        self.setWindowTitle("Roll tables of this fight")
        self._tables = tables
        self._apply = apply
        self._builtin = dict(builtin or {})
        self.campaign = campaign
        self._shown: str | None = None  # id of the table in the editor
        self._baseline: dict[str, Any] | None = None  # that table as it was loaded
        self._filling = False
        self._build()
        self._connect()
        self.refresh()
        self.resize(920, 560)

    # --- building ---------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)

        self.builtin_bar = QFrame()
        self.builtin_bar.setObjectName("builtinBar")
        self.builtin_bar.setFrameShape(QFrame.Shape.StyledPanel)
        bar = QHBoxLayout(self.builtin_bar)
        self.builtin_label = _plain_label()
        self.add_builtin_button = QPushButton("Add the built-in tables")
        self.add_builtin_button.setObjectName("addBuiltin")
        bar.addWidget(self.builtin_label, 1)
        bar.addWidget(self.add_builtin_button)
        layout.addWidget(self.builtin_bar)

        body = QHBoxLayout()
        body.addLayout(self._build_list(), 1)
        body.addLayout(self._build_editor(), 3)
        layout.addLayout(body, 1)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        layout.addWidget(self.buttons)

    def _build_list(self) -> QVBoxLayout:
        """The fight's tables, with New and Remove."""
        left = QVBoxLayout()
        left.addWidget(QLabel("This fight's tables:"))
        self.table_list = QListWidget()
        self.table_list.setObjectName("tableList")
        self.table_list.setAccessibleName("This fight's tables")
        self.table_list.setMinimumWidth(200)
        left.addWidget(self.table_list, 1)
        self.new_button = QPushButton("&New table")
        self.new_button.setObjectName("newTable")
        self.new_menu = QMenu(self.new_button)
        self.remove_button = QPushButton("Remove table")
        self.remove_button.setObjectName("removeTable")
        self.remove_button.setToolTip("Take this table out of the fight (Ctrl+Z brings it back)")
        list_buttons = QHBoxLayout()
        list_buttons.addWidget(self.new_button)
        list_buttons.addWidget(self.remove_button)
        left.addLayout(list_buttons)
        return left

    def _build_editor(self) -> QVBoxLayout:
        """The chosen table: name, die, rows, Apply; then the campaign's copy and Roll."""
        right = QVBoxLayout()
        form = QFormLayout()
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("tableName")
        self.die_edit = QLineEdit()
        self.die_edit.setObjectName("tableDie")
        self.die_edit.setPlaceholderText("1d100, 1d20, 2d6")
        self.die_edit.setToolTip("The dice rolled on this table, added up (1d100, 1d20, 2d6, 1d6+2)")
        self.id_label = _quiet(_plain_label(wrap=False))
        self.id_label.setObjectName("tableId")
        form.addRow("&Name:", self.name_edit)
        form.addRow("&Die:", self.die_edit)
        form.addRow("Id:", self.id_label)
        right.addLayout(form)

        self.grid = QTableWidget(0, len(COLUMNS))
        self.grid.setObjectName("tableRows")
        self.grid.setAccessibleName("The table's rows")
        self.grid.setHorizontalHeaderLabels(list(COLUMNS))
        self.grid.verticalHeader().setVisible(True)
        self.grid.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.grid.setWordWrap(False)
        header = self.grid.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        self.grid.setToolTip("Each row gives the result for the totals Low..High; on a d100, "
                             "00 is 100. Effect is optional data a ruleset reads (x0.5)")
        right.addWidget(self.grid, 1)

        row_buttons = QHBoxLayout()
        self.add_row_button = QPushButton("Add row")
        self.add_row_button.setObjectName("addRow")
        self.remove_row_button = QPushButton("Remove row")
        self.remove_row_button.setObjectName("removeRow")
        row_buttons.addWidget(self.add_row_button)
        row_buttons.addWidget(self.remove_row_button)
        row_buttons.addStretch(1)
        self.revert_button = QPushButton("Revert")
        self.revert_button.setObjectName("revert")
        self.revert_button.setToolTip("Forget the edits not applied yet")
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setObjectName("apply")
        self.apply_button.setToolTip("Change the fight's table (logged; Ctrl+Z takes it back)")
        row_buttons.addWidget(self.revert_button)
        row_buttons.addWidget(self.apply_button)
        right.addLayout(row_buttons)

        self.problem_label = error_label()
        self.problem_label.setTextFormat(Qt.TextFormat.PlainText)
        self.problem_label.setObjectName("tableProblem")
        right.addWidget(self.problem_label)
        self.state_label = _quiet(_plain_label())
        self.state_label.setObjectName("tableState")
        right.addWidget(self.state_label)
        self._build_campaign_and_roll(right)
        return right

    def _build_campaign_and_roll(self, right: QVBoxLayout) -> None:
        campaign_row = QHBoxLayout()
        self.campaign_label = _quiet(_plain_label())
        self.campaign_label.setObjectName("campaignState")
        self.save_campaign_button = QPushButton("Save to campaign")
        self.save_campaign_button.setObjectName("saveToCampaign")
        self.use_campaign_button = QPushButton("Use the campaign's version")
        self.use_campaign_button.setObjectName("useCampaign")
        campaign_row.addWidget(self.campaign_label, 1)
        campaign_row.addWidget(self.save_campaign_button)
        campaign_row.addWidget(self.use_campaign_button)
        right.addLayout(campaign_row)

        roll_row = QHBoxLayout()
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setObjectName("roll")
        self.dice_edit = QLineEdit()
        self.dice_edit.setObjectName("typedDice")
        self.dice_edit.setAccessibleName("Typed-in dice")
        self.dice_edit.setPlaceholderText("typed-in dice (optional), e.g. 4 or 3 5")
        self.dice_edit.setToolTip("The players' physical dice: leave empty and the app rolls")
        roll_row.addWidget(self.roll_button)
        roll_row.addWidget(self.dice_edit, 1)
        right.addLayout(roll_row)
        self.result_label = _plain_label()
        self.result_label.setObjectName("rollResult")
        big = QFont(self.result_label.font())
        big.setBold(True)
        big.setPointSizeF(big.pointSizeF() * 1.1)
        self.result_label.setFont(big)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        right.addWidget(self.result_label)
        self.roll_error = error_label()
        self.roll_error.setTextFormat(Qt.TextFormat.PlainText)
        self.roll_error.setObjectName("rollError")
        right.addWidget(self.roll_error)

    def _connect(self) -> None:
        self.table_list.currentItemChanged.connect(self._picked)
        self.name_edit.textEdited.connect(self._edited)
        self.die_edit.textEdited.connect(self._edited)
        self.grid.itemChanged.connect(self._edited)
        self.add_row_button.clicked.connect(self.add_row)
        self.remove_row_button.clicked.connect(self.remove_row)
        self.apply_button.clicked.connect(self.apply_edits)
        self.revert_button.clicked.connect(self.revert)
        self.roll_button.clicked.connect(self.roll)
        self.dice_edit.returnPressed.connect(self.roll)
        self.new_button.clicked.connect(self._new_clicked)
        self.remove_button.clicked.connect(self.remove_table)
        self.add_builtin_button.clicked.connect(self.add_builtin)
        self.save_campaign_button.clicked.connect(self.save_to_campaign)
        self.use_campaign_button.clicked.connect(self.use_campaign_version)
        self.buttons.rejected.connect(self.reject)

    # --- reading the fight ------------------------------------------------------------
    def fight_tables(self) -> Mapping[str, RollTable]:
        return self._tables()

    def shown_table(self) -> RollTable | None:
        """The fight's table shown in the editor (as applied, not as edited)."""
        return self.fight_tables().get(self._shown) if self._shown else None

    def refresh(self) -> None:
        """Follow the fight: the list, the built-in offer, and the editor if it holds no
        unapplied edits."""
        tables = self.fight_tables()
        keep = self._shown if self._shown in tables else None
        if keep is None and tables:
            keep = min(tables.values(), key=lambda t: (t.name.casefold(), t.id)).id
        self._filling = True
        try:
            self.table_list.clear()
            # By name: the fight keeps them by id, and undo may put one back at the end.
            for table in sorted(tables.values(), key=lambda t: (t.name.casefold(), t.id)):
                item = QListWidgetItem(table.name)
                item.setData(_TABLE_ID, table.id)
                item.setToolTip(plain_tip(f"{table.name} ({table.die}, {len(table.rows)} rows)"))
                self.table_list.addItem(item)
                if table.id == keep:
                    self.table_list.setCurrentItem(item)
        finally:
            self._filling = False
        if not self.is_dirty() or self._shown not in tables:
            self._show(keep)  # the fight's table as it is now (undo may have changed it)
        missing = [t for tid, t in self._builtin.items() if tid not in tables]
        self.builtin_bar.setVisible(bool(missing))
        if missing:
            names = ", ".join(t.name for t in missing)
            self.builtin_label.setText(
                f"This fight lacks its ruleset's built-in tables: {names}.")
        self._fill_new_menu()
        self._update_state()

    def _fill_new_menu(self) -> None:
        self.new_menu.clear()
        offer = self._campaign_only()
        if offer:
            self.new_menu.addAction("Blank table", self.new_table)
            for table in offer:
                # "&" in a menu text marks the shortcut letter; "&&" is an ampersand.
                self.new_menu.addAction(f"From the campaign: {table.name.replace('&', '&&')}",
                                        lambda t=table: self._add_table(t))
            self.new_button.setToolTip("A blank table, or one of the campaign's tables")
        else:
            self.new_button.setToolTip("Add a blank table to this fight")

    def _campaign_only(self) -> list[RollTable]:
        if self.campaign is None:
            return []
        tables = self.fight_tables()
        return [t for t in self.campaign.tables if t.id not in tables]

    # --- the editor -----------------------------------------------------------------------
    def _show(self, table_id: str | None) -> None:
        table = self.fight_tables().get(table_id) if table_id else None
        self._shown = table.id if table else None
        self._baseline = table.model_dump(mode="json") if table else None
        self._filling = True
        try:
            self.name_edit.setText(table.name if table else "")
            self.die_edit.setText(table.die if table else "")
            self.id_label.setText(table.id if table else "")
            self.grid.setRowCount(0)
            if table is not None:
                for row in table.rows:
                    self._append_row(show_total(table.die, row.low),
                                     show_total(table.die, row.high), row.text, row.effect)
            for i in range(self.table_list.count()):  # the list follows the editor
                item = self.table_list.item(i)
                if item.data(_TABLE_ID) == self._shown:
                    self.table_list.setCurrentItem(item)
        finally:
            self._filling = False
        self.result_label.clear()
        self.roll_error.setVisible(False)
        self._update_state()

    def _append_row(self, low: str, high: str, text: str, effect: str) -> None:
        r = self.grid.rowCount()
        self.grid.insertRow(r)
        for col, value in enumerate((low, high, text, effect)):
            item = QTableWidgetItem(value)
            if col < 2:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            elif value:
                item.setToolTip(plain_tip(value))  # a long result is cut off in the grid
            self.grid.setItem(r, col, item)

    def _cell(self, row: int, col: int) -> str:
        item = self.grid.item(row, col)
        return item.text() if item is not None else ""

    def edited_data(self) -> dict[str, Any]:
        """The table as the editor holds it; ValueError names a cell that is no number."""
        die = self.die_edit.text().strip()
        rows: list[dict[str, Any]] = []
        for r in range(self.grid.rowCount()):
            numbers: list[int] = []
            for col, what in ((0, "low"), (1, "high")):
                try:
                    numbers.append(read_total(die, self._cell(r, col)))
                except ValueError as exc:
                    raise ValueError(f"row {r + 1}, {what}: {exc}") from None
            rows.append({"low": numbers[0], "high": numbers[1],
                         "text": self._cell(r, 2).strip(), "effect": self._cell(r, 3).strip()})
        return {"id": self._shown or "", "name": self.name_edit.text().strip(), "die": die,
                "rows": rows}

    def edited_table(self) -> tuple[RollTable | None, str]:
        """The edited table if it keeps the rules of tables, else None and why not."""
        if self._shown is None:
            return None, ""
        try:
            return RollTable.model_validate(self.edited_data()), ""
        except ValidationError as exc:
            return None, describe_error(exc)
        except ValueError as exc:
            return None, str(exc)

    def is_dirty(self) -> bool:
        """True when the editor holds edits of the table as it was loaded."""
        if self._shown is None or self._baseline is None:
            return False
        try:
            return self.edited_data() != self._baseline
        except ValueError:
            return True

    def _edited(self, *_: object) -> None:
        if not self._filling:
            self._update_state()

    def _update_state(self) -> None:
        shown = self.shown_table()
        has = shown is not None
        dirty = self.is_dirty()
        edited, problem = self.edited_table() if dirty else (shown, "")
        self.problem_label.setText(problem)
        self.problem_label.setVisible(bool(problem))
        for widget in (self.name_edit, self.die_edit, self.grid, self.add_row_button,
                       self.remove_row_button, self.remove_button):
            widget.setEnabled(has)
        self.apply_button.setEnabled(dirty and edited is not None)
        self.revert_button.setEnabled(dirty)
        self.roll_button.setEnabled(has and not dirty)
        self.dice_edit.setEnabled(has and not dirty)
        if not has:
            self.state_label.setText("This fight has no roll tables yet: New table adds one.")
        elif dirty:
            self.state_label.setText("Edited: the fight keeps its table until Apply "
                                     "(Roll waits for Apply or Revert).")
        else:
            self.state_label.setText("As the fight has it. Each Apply is one step of the "
                                     "log, undone with Ctrl+Z.")
        self._update_campaign(shown, dirty)

    def _update_campaign(self, shown: RollTable | None, dirty: bool) -> None:
        campaign = self.campaign
        if campaign is None:
            self.campaign_label.setText("No campaign open: open one in the campaign library "
                                        "to keep tables with it.")
            self.save_campaign_button.setEnabled(False)
            self.use_campaign_button.setEnabled(False)
            return
        theirs = campaign.table(shown.id) if shown is not None else None
        same = theirs is not None and theirs == shown
        if shown is None:
            text = f"Campaign {campaign.name}."
        elif theirs is None:
            text = f"Campaign {campaign.name} has no copy of this table."
        elif same:
            text = f"Campaign {campaign.name} has this table, the same."
        else:
            text = f"Campaign {campaign.name} has another version of this table."
        self.campaign_label.setText(text)
        self.save_campaign_button.setEnabled(shown is not None and not dirty and not same)
        self.save_campaign_button.setToolTip(
            "Apply or revert the edits first" if dirty else
            plain_tip(f"Keep this table with campaign {campaign.name} for its next fights"))
        self.use_campaign_button.setEnabled(theirs is not None and not same and not dirty)
        self.use_campaign_button.setToolTip(
            "Apply or revert the edits first" if dirty else
            "Replace the fight's table with the campaign's (logged; Ctrl+Z takes it back)")

    # --- the GM's edits ---------------------------------------------------------------------
    def add_row(self) -> None:
        """A row after the selected one (or at the end), starting after the row before."""
        die = self.die_edit.text()
        at = self.grid.currentRow() + 1 if self.grid.currentRow() >= 0 else self.grid.rowCount()
        start = ""
        if at > 0:
            try:
                start = show_total(die, read_total(die, self._cell(at - 1, 1)) + 1)
            except ValueError:
                start = ""
        self._filling = True
        try:
            self.grid.insertRow(at)
            for col, value in enumerate((start, start, "", "")):
                item = QTableWidgetItem(value)
                if col < 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.grid.setItem(at, col, item)
        finally:
            self._filling = False
        self.grid.setCurrentCell(at, 2)
        self._update_state()

    def remove_row(self) -> None:
        rows = sorted({i.row() for i in self.grid.selectedIndexes()}, reverse=True)
        if not rows and self.grid.currentRow() >= 0:
            rows = [self.grid.currentRow()]
        for r in rows:
            self.grid.removeRow(r)
        self._update_state()

    def revert(self) -> None:
        self._show(self._shown)

    def apply_edits(self) -> bool:
        """One ``SetTable`` with the edited table; refused or invalid edits change nothing."""
        table, problem = self.edited_table()
        if table is None:
            self.problem_label.setText(problem or "nothing to apply")
            self.problem_label.setVisible(True)
            return False
        return self._run(SetTable(table=table.model_dump(mode="json")), show=table.id)

    def _run(self, command: Command, *, show: str | None = None) -> bool:
        outcome = self._apply(command)
        if not outcome.ok:
            self.problem_label.setText(outcome.error or "refused")
            self.problem_label.setVisible(True)
            return False
        if show is not None:
            self._shown = show
        self._show(self._shown if self._shown in self.fight_tables() else None)
        self.refresh()
        return True

    def _may_leave_edits(self) -> bool:
        """Ask before unapplied edits would be dropped; True when it is fine to go on."""
        if not self.is_dirty():
            return True
        box = QMessageBox(QMessageBox.Icon.Question, "Unapplied edits",
                          "This table has edits that are not applied to the fight.",
                          QMessageBox.StandardButton.Apply | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setInformativeText("Apply them, or discard them?")
        box.exec()
        answer = box.standardButton(box.clickedButton())
        if answer == QMessageBox.StandardButton.Apply:
            return self.apply_edits()
        return answer == QMessageBox.StandardButton.Discard

    def _picked(self, current: QListWidgetItem | None, previous: QListWidgetItem | None) -> None:
        if self._filling or current is None:
            return
        table_id = str(current.data(_TABLE_ID))
        if table_id == self._shown:
            return
        if not self._may_leave_edits():
            if previous is not None:
                self._filling = True
                try:
                    self.table_list.setCurrentItem(previous)
                finally:
                    self._filling = False
            return
        self._show(table_id)

    def _new_clicked(self) -> None:
        if self._campaign_only():
            self.new_menu.popup(self.new_button.mapToGlobal(self.new_button.rect().bottomLeft()))
        else:
            self.new_table()

    def new_table(self) -> bool:
        """A blank 1d6 table with one row, added to the fight at once (then edited)."""
        taken = set(self.fight_tables())
        if self.campaign is not None:  # a later "Save to campaign" must not meet another's id
            taken.update(t.id for t in self.campaign.tables)
        n = 1
        while f"table-{n}" in taken:
            n += 1
        names = {t.name for t in self.fight_tables().values()}
        name = "New table" if "New table" not in names else f"New table {n}"
        table = RollTable(id=f"table-{n}", name=name, die="1d6",
                          rows=[TableRow(low=1, high=6, text="Write the result here")])
        return self._add_table(table)

    def _add_table(self, table: RollTable) -> bool:
        if not self._may_leave_edits():
            return False
        return self._run(SetTable(table=table.model_dump(mode="json")), show=table.id)

    def remove_table(self) -> bool:
        table = self.shown_table()
        if table is None or not self._may_leave_edits():
            return False
        return self._run(RemoveTable(table_id=table.id))

    def add_builtin(self) -> bool:
        """Each built-in table the fight lacks, as one ``SetTable`` each."""
        missing = [t for tid, t in self._builtin.items() if tid not in self.fight_tables()]
        for table in missing:
            if not self._run(SetTable(table=table.model_dump(mode="json")), show=table.id):
                return False
        return bool(missing)

    def roll(self) -> bool:
        """``RollOnTable`` on the applied table, with the typed-in faces if any."""
        table = self.shown_table()
        if table is None or self.is_dirty():
            return False
        try:
            dice = parse_typed_dice(self.dice_edit.text())
        except ValueError as exc:
            self._roll_refused(str(exc))
            return False
        if is_d100(table.die):  # a percentile die shows 100 as 00
            dice = [[100 if face == 0 else face for face in faces] for faces in dice]
        outcome = self._apply(RollOnTable(table_id=table.id, dice=dice))
        if not outcome.ok or outcome.entry is None:
            self._roll_refused(outcome.error or "refused")
            return False
        event = outcome.entry.events[-1]
        total = show_total(table.die, int(event.data.get("total", 0)))
        effect = str(event.data.get("effect") or "")
        text = f"Rolled {total}: {event.data.get('row', '')}"
        self.result_label.setText(f"{text} [{effect}]" if effect else text)
        self.roll_error.setVisible(False)
        self.dice_edit.clear()
        return True

    def _roll_refused(self, message: str) -> None:
        self.result_label.clear()
        self.roll_error.setText(message)
        self.roll_error.setVisible(True)

    # --- the campaign ---------------------------------------------------------------------
    def save_to_campaign(self) -> bool:
        """Keep the fight's table with the open campaign (asks before replacing the
        campaign's own version; the file before is kept as .bak)."""
        campaign, table = self.campaign, self.shown_table()
        if campaign is None or table is None or self.is_dirty():
            return False
        theirs = campaign.table(table.id)
        if theirs is not None and theirs != table and not self.confirm(
                "Replace the campaign's table?",
                f"Campaign {campaign.name} has its own version of {theirs.name}. "
                "Replace it with this fight's? (The file before is kept as .bak.)"):
            return False
        campaign.save_table(table)
        problem = campaign.save_problem
        if problem is not None:
            self.problem_label.setText(f"Kept in the campaign but not saved to disk: {problem}")
            self.problem_label.setVisible(True)
        self._update_state()
        return problem is None

    def confirm(self, title: str, text: str) -> bool:
        """Yes or no, with names from files shown as plain text."""
        box = QMessageBox(QMessageBox.Icon.Question, title, text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        return box.exec() == QMessageBox.StandardButton.Yes

    def use_campaign_version(self) -> bool:
        campaign, table = self.campaign, self.shown_table()
        if campaign is None or table is None or self.is_dirty():
            return False
        theirs = campaign.table(table.id)
        if theirs is None or theirs == table:
            return False
        return self._run(SetTable(table=theirs.model_dump(mode="json")), show=theirs.id)

    def reject(self) -> None:
        if self._may_leave_edits():
            super().reject()
