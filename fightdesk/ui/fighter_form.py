"""The fighter edit form, generated from the ruleset's sheet model.

Every field of the sheet becomes a widget chosen by its type (a whole number is a spin
box with the field's bounds, a flag a check box, a fixed set of words a combo box, text
a line edit, a list of maneuvers a small table), so a new ruleset needs no form code.
The form validates through the same pydantic models and library checks that guard the
campaign file, and shows each message next to its field.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.model import Fighter as FighterModel
from fightdesk.engine.rulesets import registered
from fightdesk.storage import library

from .form_fields import (
    CappedSpinBox,
    FieldEditor,
    FieldSpec,
    field_spec,
    label_for,
    model_specs,
    split_words,
    warning_color,
)
from .plain import plain_label
from .screen_fit import fit_to_screen

if TYPE_CHECKING:
    from pydantic import BaseModel

    from fightdesk.engine.model import Fighter

Index = QModelIndex | QPersistentModelIndex


def _sections(ruleset: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Layout hints only (which sheet fields sit together), from the ruleset's
    registration; any field not named there still gets a widget, in an "Other" section."""
    found = registered().get(ruleset)
    return found.sections if found is not None else ()


# --- a list of models as a table (the maneuvers) -------------------------------------------


SpecRole = Qt.ItemDataRole.UserRole + 10


class _CellDelegate(QStyledItemDelegate):
    """Spin boxes with the field's bounds and combo boxes for fixed words."""

    def __init__(self, table: ModelTable) -> None:
        super().__init__(table)
        self.table = table

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        spec = self.table.specs[index.column()]
        self.table.note_capped("")  # a new edit: what capping the last one did is old news
        if spec.kind == "int":
            # A number typed past the column's bounds is capped, and the table says so.
            spin = CappedSpinBox(parent)
            spin.setRange(spec.minimum, spec.maximum)
            row = index.row()
            spin.capped.connect(lambda typed, s=spin: self.table.note_capped(
                f"{self.table.row_title(row)}: {s.cap_text(typed, spec.label)}"))
            return spin
        if spec.kind == "choice":
            combo = QComboBox(parent)
            if spec.optional:
                combo.addItem("(none)", None)
            for value in spec.choices:
                combo.addItem(spec.choice_label(value), value)
            return combo
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(editor.findData(index.data(SpecRole)), 0))
            return
        super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), SpecRole)
            model.setData(index, editor.currentText(), Qt.ItemDataRole.DisplayRole)
            return
        super().setModelData(editor, model, index)


class ModelTable(QWidget):
    """Rows of one pydantic model (a fighter's maneuvers): add, remove, reorder, edit in
    place; optionally add rows from a catalogue."""

    changed = Signal()

    def __init__(self, spec: FieldSpec, catalogue: Callable[[], list[BaseModel]] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        assert spec.item_model is not None
        self.spec = spec
        self.item_model = spec.item_model
        self.specs = [s for s in model_specs(spec.item_model) if s.kind != "other"]
        self._rows_extra: list[dict[str, Any]] = []
        # Per row: for a blank row the GM added, the columns set so far (the others
        # follow them as the model derives them: a d100 weapon's hit points its damage);
        # None for a row from the file or the catalogue.
        self._fresh: list[set[str] | None] = []
        self._catalogue = catalogue
        self._loading = False
        self._note = ""  # what capping a typed number did, until the next edit
        self._problem = ""  # what the model refuses in a row

        self.table = QTableWidget(0, len(self.specs))
        self.table.setObjectName(f"table_{spec.name}")
        self.table.setAccessibleName(spec.label)
        self.table.setHorizontalHeaderLabels([s.label for s in self.specs])
        self.table.setItemDelegate(_CellDelegate(self))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.itemChanged.connect(self._item_changed)
        self.table.setMinimumHeight(self.table.verticalHeader().defaultSectionSize() * 9)

        self.add_button = QPushButton("Add")
        self.add_button.setToolTip(f"Add a blank {label_for(spec.name).rstrip('s').lower()}")
        self.remove_button = QPushButton("Remove")
        self.up_button = QPushButton("Up")
        self.down_button = QPushButton("Down")
        # A sheet has several tables: each button says which one it works on.
        for button, words in ((self.add_button, "Add to"), (self.remove_button, "Remove from"),
                              (self.up_button, "Move up in"), (self.down_button, "Move down in")):
            button.setAccessibleName(f"{words} {spec.label}")
        self.catalogue_combo = QComboBox()
        self.catalogue_combo.setObjectName("catalogue")
        self.catalogue_combo.setToolTip("Add a maneuver from the catalogue, with its usual values")
        self.add_button.clicked.connect(lambda: self.add_row(self.item_model.model_validate(
            {"name": self._fresh_name()}), fresh={"name"}))
        self.remove_button.clicked.connect(self.remove_selected)
        self.up_button.clicked.connect(lambda: self.move_selected(-1))
        self.down_button.clicked.connect(lambda: self.move_selected(1))
        self.catalogue_combo.activated.connect(self._add_from_catalogue)

        self.message = plain_label()
        self.message.setWordWrap(True)
        self.message.setVisible(False)

        buttons = QHBoxLayout()
        for b in (self.add_button, self.remove_button, self.up_button, self.down_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.catalogue_combo)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        self._fill_catalogue()

    def _fill_catalogue(self) -> None:
        self.catalogue_combo.clear()
        items = self._catalogue() if self._catalogue else []
        self.catalogue_combo.setVisible(bool(items))
        self.catalogue_combo.addItem("Add from catalogue...", None)
        for entry in items:
            self.catalogue_combo.addItem(str(getattr(entry, "name", "?")), entry)

    def _add_from_catalogue(self, i: int) -> None:
        entry = self.catalogue_combo.itemData(i)
        self.catalogue_combo.setCurrentIndex(0)
        if entry is not None:
            self.add_row(entry)

    def _fresh_name(self) -> str:
        names = {str(r.get("name", "")) for r in self.rows()}
        n = 1
        while f"New {n}" in names:
            n += 1
        return f"New {n}"

    # --- rows <-> cells --------------------------------------------------------------
    def set_rows(self, rows: list[BaseModel]) -> None:
        self._loading = True
        try:
            self.table.setRowCount(0)
            self._rows_extra = []
            self._fresh = []
            for row in rows:
                self._append(row.model_dump(mode="json"))
        finally:
            self._loading = False

    def add_row(self, row: BaseModel, fresh: set[str] | None = None) -> None:
        self._loading = True
        try:
            self._append(row.model_dump(mode="json"))
            self._fresh[-1] = None if fresh is None else set(fresh)
        finally:
            self._loading = False
        self.table.selectRow(self.table.rowCount() - 1)
        self.changed.emit()

    def _append(self, data: dict[str, Any]) -> None:
        r = self.table.rowCount()
        self.table.insertRow(r)
        shown = {s.name for s in self.specs}
        self._rows_extra.append({k: v for k, v in data.items() if k not in shown})
        self._fresh.append(None)
        for c, spec in enumerate(self.specs):
            self.table.setItem(r, c, self._cell(spec, data.get(spec.name)))

    def _cell(self, spec: FieldSpec, value: Any) -> QTableWidgetItem:
        item = QTableWidgetItem()
        if spec.kind == "bool":
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                          | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
        elif spec.kind == "int":
            item.setData(Qt.ItemDataRole.EditRole, int(value or 0))
        elif spec.kind == "choice":
            item.setData(SpecRole, value)
            item.setText("(none)" if value is None else spec.choice_label(str(value)))
        elif spec.kind == "multi":
            item.setText(", ".join(value or []))
        else:
            item.setText(str(value or ""))
        return item

    def rows(self) -> list[dict[str, Any]]:
        """The rows as plain data, ready for the model to validate."""
        result: list[dict[str, Any]] = []
        for r in range(self.table.rowCount()):
            data = dict(self._rows_extra[r])
            for c, spec in enumerate(self.specs):
                item = self.table.item(r, c)
                if item is None:
                    continue
                if spec.kind == "bool":
                    data[spec.name] = item.checkState() == Qt.CheckState.Checked
                elif spec.kind == "int":
                    data[spec.name] = int(item.data(Qt.ItemDataRole.EditRole) or 0)
                elif spec.kind == "choice":
                    data[spec.name] = item.data(SpecRole)
                elif spec.kind == "multi":
                    data[spec.name] = split_words(item.text())
                else:
                    data[spec.name] = item.text().strip()
            result.append(data)
        return result

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if self._loading:
            return
        row = item.row()
        fresh = self._fresh[row] if 0 <= row < len(self._fresh) else None
        if fresh is not None:
            fresh.add(self.specs[item.column()].name)
        self._follow(row, fresh, self.specs[item.column()].name)
        self.changed.emit()

    def _follow(self, row: int, given: set[str] | None, edited: str) -> None:
        """Show each column of the row as the model will save it: a column the model
        derives from others (an armour's range from its suit) follows them; a blank row
        the GM added takes only the columns set so far (the others follow them, as the
        model derives them: a d100 weapon's hit points its damage). Nothing changes while
        the row is not valid yet."""
        from pydantic import ValidationError

        data = self.rows()[row]
        shown = {s.name for s in self.specs}
        source = data if given is None else {
            k: v for k, v in data.items() if k in given or k not in shown}
        try:
            derived = self.item_model.model_validate(source)
        except ValidationError:
            return
        values = derived.model_dump(mode="json")
        self._loading = True
        try:
            for column, spec in enumerate(self.specs):
                if values.get(spec.name) == data.get(spec.name):
                    continue
                self.table.setItem(row, column, self._cell(spec, values.get(spec.name)))
                if spec.name == edited:
                    self.note_capped(
                        f"{self.row_title(row)}: {spec.label.lower()} {data.get(spec.name)} "
                        f"became {values.get(spec.name)} (the row's other values set it)")
        finally:
            self._loading = False

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for r in rows:
            self.table.removeRow(r)
            del self._rows_extra[r]
            del self._fresh[r]
        if rows:
            self.changed.emit()

    def move_selected(self, delta: int) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        if len(rows) != 1:
            return
        r, to = rows[0], rows[0] + delta
        if not 0 <= to < self.table.rowCount():
            return
        data = self.rows()
        data[r], data[to] = data[to], data[r]
        fresh = list(self._fresh)
        fresh[r], fresh[to] = fresh[to], fresh[r]
        self._loading = True
        try:
            self.table.setRowCount(0)
            self._rows_extra = []
            self._fresh = []
            for row in data:
                self._append(row)
            self._fresh = fresh
        finally:
            self._loading = False
        self.table.selectRow(to)
        self.changed.emit()

    def column_of(self, name: str) -> int:
        return next(i for i, s in enumerate(self.specs) if s.name == name)

    def row_title(self, row: int) -> str:
        """A row as the messages name it: "Weapon 2 (Club)"."""
        name = self.rows()[row].get("name") if 0 <= row < self.table.rowCount() else None
        return f"{label_for(self.spec.name).rstrip('s')} {row + 1} ({name or '(no name)'})"

    def note_capped(self, text: str) -> None:
        """Keep (or, with "", forget) what capping a typed number did; it shows while the
        table has no problem to show."""
        if text != self._note:
            self._note = text
            self._show_message()

    def set_message(self, text: str, row: int | None = None, column: str | None = None) -> None:
        """Show a problem under the table (with none, what capping a number did)."""
        self._problem = text
        self._show_message()
        if text and row is not None and column is not None and row < self.table.rowCount():
            item = self.table.item(row, self.column_of(column))
            if item is not None:
                self.table.scrollToItem(item)

    def _show_message(self) -> None:
        text = self._problem or self._note
        self.message.setText(text)
        self.message.setVisible(bool(text))
        palette = self.message.palette()
        palette.setColor(QPalette.ColorRole.WindowText, warning_color(self))
        self.message.setPalette(palette)


def _catalogue_for(ruleset: str) -> Callable[[], list[BaseModel]] | None:
    """The ruleset's editable catalogue of maneuvers, if its registration names one."""
    found = registered().get(ruleset)
    if found is None or not found.catalogue:
        return None
    where, _, name = found.catalogue.partition(":")

    def load() -> list[BaseModel]:
        import importlib


        try:
            return list(getattr(importlib.import_module(where), name)())
        except RuleViolation:
            return []  # a broken catalogue only hides the shortcut; the table still works

    return load


# --- the form ------------------------------------------------------------------------------


class FighterForm(QWidget):
    """Edit one fighter of any ruleset; ``fighter()`` returns it validated, or None with
    the messages shown next to the fields at fault."""

    validityChanged = Signal(bool)

    def __init__(self, fighter: Fighter, parent: QWidget | None = None) -> None:
        super().__init__(parent)

        self._library = library
        self._fighter_model = FighterModel
        self._original = fighter.model_dump(mode="json")
        self.ruleset = fighter.ruleset
        self.setAccessibleName(f"{fighter.name}'s sheet")
        self.editors: dict[str, FieldEditor] = {}
        self.tables: dict[str, ModelTable] = {}
        self._valid = True
        self._loading = False
        # Now value -> the sheet field of its full rating. A new fighter's Now values
        # follow their sheet's full rating until the GM sets one of them.
        self._pairs = library.rested_pairs(fighter.ruleset)
        self._following = set(self._pairs) if fighter.id == "new" else set()

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setAccessibleName("The sheet's fields")
        scroll.setWidgetResizable(True)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        self.body = QVBoxLayout(body)

        self._build_identity()
        self._build_sheet(type(fighter.sheet))
        self._build_lasting(type(fighter.status))
        self.summary = plain_label()
        self.summary.setWordWrap(True)
        self.summary.setObjectName("formSummary")
        outer.addWidget(self.summary)
        self.load(fighter)

    # --- building ------------------------------------------------------------------------
    def _add_editor(self, path: str, spec: FieldSpec, grid: QGridLayout, row: int,
                    col: int, span: int = 1) -> FieldEditor:
        editor = FieldEditor(spec)
        editor.changed.connect(self._edited)
        editor.changed.connect(partial(self._field_changed, path))
        grid.addWidget(editor, row, col, 1, span)
        self.editors[path] = editor
        return editor

    def _build_identity(self) -> None:
        box = QGroupBox("Fighter")
        grid = QGridLayout(box)
        fields = FighterModel.model_fields
        self._add_editor("name", field_spec("name", fields["name"]), grid, 0, 0, 2)
        self._add_editor("side", field_spec("side", fields["side"]), grid, 1, 0)
        self._add_editor("rolls_own_dice", field_spec("rolls_own_dice", fields["rolls_own_dice"]),
                         grid, 1, 1)
        tags = FieldSpec("tags", "multi")
        self._add_editor("tags", tags, grid, 2, 0, 2)
        self.editors["tags"].input.setToolTip("Words to filter by, comma separated: pc, boss, mook")
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("field_notes")
        self.notes.setPlaceholderText("Notes for the GM")
        self.notes.setFixedHeight(self.fontMetrics().lineSpacing() * 4)
        self.notes.textChanged.connect(self._edited)
        grid.addWidget(QLabel("Notes"), 3, 0, 1, 2)
        grid.addWidget(self.notes, 4, 0, 1, 2)
        self.body.addWidget(box)

    def _build_sheet(self, sheet_model: type[BaseModel]) -> None:
        specs = {s.name: s for s in model_specs(sheet_model)}
        placed: set[str] = set()
        sections = list(_sections(self.ruleset))
        rest = tuple(n for n, s in specs.items() if s.kind not in ("table", "other")
                     and n not in {f for _, names in sections for f in names})
        if rest:
            sections.append(("Other", rest))
        for title, names in sections:
            box = QGroupBox(title)
            grid = QGridLayout(box)
            columns = 3
            for i, name in enumerate(n for n in names if n in specs):
                self._add_editor(f"sheet.{name}", specs[name], grid, i // columns, i % columns)
                placed.add(name)
            self.body.addWidget(box)
        for name, spec in specs.items():
            if spec.kind != "table":
                continue
            box = QGroupBox(spec.label)
            layout = QVBoxLayout(box)
            table = ModelTable(spec, _catalogue_for(self.ruleset))
            table.changed.connect(self._edited)
            layout.addWidget(table)
            self.tables[f"sheet.{name}"] = table
            self.body.addWidget(box)

    def _build_lasting(self, status_model: type[BaseModel]) -> None:
        names = self._library.lasting_fields(self.ruleset)
        if not names:
            return
        box = QGroupBox("Now (carried from fight to fight)")
        grid = QGridLayout(box)
        for i, name in enumerate(names):
            spec = field_spec(name, status_model.model_fields[name])
            editor = self._add_editor(f"status.{name}", spec, grid, 0, i)
            # Not the sheet's field of the same name: a screen reader says which.
            editor.input.setAccessibleName(f"{spec.label} now")
        self.rested_button = QPushButton("Fully rested")
        self.rested_button.setToolTip("Set each of these to the sheet's full rating")
        self.rested_button.clicked.connect(self.rest)
        grid.addWidget(self.rested_button, 1, 0)
        self.body.addWidget(box)
        self.body.addStretch(1)

    # --- values ---------------------------------------------------------------------------
    def load(self, fighter: Fighter) -> None:
        self._loading = True
        try:
            self._original = fighter.model_dump(mode="json")
            data = self._original
            for path, editor in self.editors.items():
                section, _, key = path.rpartition(".")
                editor.set_value(data[section][key] if section else data[key])
            for path, table in self.tables.items():
                table.set_rows(list(getattr(fighter.sheet, path.split(".", 1)[1])))
            self.notes.setPlainText(fighter.notes)
        finally:
            self._loading = False
        self.validate()

    def data(self) -> dict[str, Any]:
        """The fighter as plain data: the original, overlaid with every input."""
        data = {**self._original, "sheet": dict(self._original["sheet"]),
                "status": dict(self._original["status"])}
        for path, editor in self.editors.items():
            section, _, key = path.rpartition(".")
            (data[section] if section else data)[key] = editor.value()
        for path, table in self.tables.items():
            data["sheet"][path.split(".", 1)[1]] = table.rows()
        data["notes"] = self.notes.toPlainText()
        return data

    def rest(self) -> None:
        """Every Now value at its sheet's full rating (the ruleset's pairs)."""
        for now_name, sheet_name in self._pairs.items():
            self._set_now(now_name, sheet_name)

    def _set_now(self, now_name: str, sheet_name: str) -> None:
        sheet = self.editors.get(f"sheet.{sheet_name}")
        now = self.editors.get(f"status.{now_name}")
        if sheet is None or now is None:
            return
        self._syncing = True
        try:
            now.set_value(sheet.value())
        finally:
            self._syncing = False

    def _field_changed(self, path: str) -> None:
        """A Now value the GM sets stops following its sheet; a sheet rating changed
        carries the Now values still following it."""
        if self._loading or getattr(self, "_syncing", False):
            return
        section, _, name = path.partition(".")
        if section == "status":
            self._following.discard(name)
        elif section == "sheet":
            for now_name, sheet_name in self._pairs.items():
                if sheet_name == name and now_name in self._following:
                    self._set_now(now_name, sheet_name)

    # --- validation -------------------------------------------------------------------------
    def errors(self) -> dict[str, str]:
        """Field path -> message for every problem the library would refuse."""
        from pydantic import ValidationError

        data = self.data()
        try:
            fighter = self._fighter_model.model_validate(data)
        except ValidationError as exc:
            found: dict[str, str] = {}
            for err in exc.errors():
                path = self._library.field_path(err["loc"])
                found.setdefault(path, self._library.error_text(err))
            # The other checks still apply: run them with the broken fields as they were.
            if all(_put_back(data, self._original, err["loc"]) for err in exc.errors()):
                with contextlib.suppress(ValidationError):
                    patched = self._fighter_model.model_validate(data)
                    for path, message in self._library.fighter_problems(patched):
                        found.setdefault(path, message)
            return found
        return dict(self._library.fighter_problems(fighter))

    def validate(self) -> bool:
        found = self.errors()
        for path, editor in self.editors.items():
            editor.set_message(found.get(path, ""))
        for path, table in self.tables.items():
            mine = [(p, m) for p, m in found.items() if p.startswith(path + ".")]
            if mine:
                p, m = mine[0]
                row, _, column = p[len(path) + 1:].partition(".")
                table.set_message(f"{table.row_title(int(row))}, {label_for(column).lower()}: {m}",
                                  int(row), column)
            else:
                table.set_message("")
        shown = set(self.editors) | {p for p in found for t in self.tables if p.startswith(t)}
        elsewhere = [f"{p}: {m}" for p, m in found.items() if p not in shown]
        count = len(found)
        self.summary.setText(
            "" if not count else
            f"{count} problem{'s' if count != 1 else ''} to fix before saving"
            + (": " + "; ".join(elsewhere) if elsewhere else ""))
        palette = self.summary.palette()
        palette.setColor(QPalette.ColorRole.WindowText, warning_color(self))
        self.summary.setPalette(palette)
        valid = not found
        if valid != self._valid:
            self._valid = valid
            self.validityChanged.emit(valid)
        return valid

    def is_valid(self) -> bool:
        return self._valid

    def fighter(self) -> Fighter | None:
        if not self.validate():
            return None
        return self._fighter_model.model_validate(self.data())

    def _edited(self) -> None:
        if not self._loading:
            self.validate()


def _put_back(data: Any, original: Any, loc: tuple[int | str, ...]) -> bool:
    """Set the value at ``loc`` in ``data`` back to the one in ``original``; False when
    the original has no such place (a row the GM just added)."""
    *head, last = loc
    node, old = data, original
    try:
        for key in head:
            node, old = node[key], old[key]
        node[last] = old[last]
    except (KeyError, IndexError, TypeError):
        return False
    return True


class FighterDialog(QDialog):
    """The form in a dialog: OK only while the fighter is valid."""

    def __init__(self, fighter: Fighter, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = FighterForm(fighter, self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.form.validityChanged.connect(self._valid_changed)
        self._valid_changed(self.form.is_valid())
        layout = QVBoxLayout(self)
        layout.addWidget(self.form)
        layout.addWidget(self.buttons)
        # The form scrolls; the dialog fits the screen, OK and Cancel always in reach.
        fit_to_screen(self, 760, 720)

    def _valid_changed(self, valid: bool) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(valid)
        ok.setToolTip("" if valid else "Fix the fields marked in red first")

    def accept(self) -> None:
        if self.form.fighter() is not None:
            super().accept()

    def result_fighter(self) -> Fighter | None:
        return self.form.fighter()
