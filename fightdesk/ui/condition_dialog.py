"""The card's "Add condition..." dialog: a name (the ruleset's conditions, or any text),
how long it lasts, for rounds when they count down, who imposed it and a note.

It holds no rules: it gets plain data (the names to offer, the fighters, whether the
ruleset has fighter turns) and a ``submit`` callback that returns why not, or None when
the condition was put on. The main window builds the ``AddCondition`` command; an
engine refusal is shown inline and the dialog stays open with the GM's input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .inline import error_label

NAME_MAX = 60
ROUNDS_MAX = 100
DURATIONS: tuple[tuple[str, str], ...] = (
    ("rounds", "A number of rounds"),
    ("until-turn-end", "Until the end of a fighter's next turn"),
    ("until-removed", "Until removed"),
)
TICKS: tuple[tuple[str, str], ...] = (
    ("round-end", "at the end of each round"),
    ("turn-start", "at the start of each of its bearer's turns"),
    ("turn-end", "at the end of each of its bearer's turns"),
)

Submit = Callable[[dict[str, Any]], "str | None"]


class ConditionDialog(QDialog):
    """Put a condition on one fighter. ``values()`` is what OK submits: ``name``,
    ``duration``, ``rounds``, ``until_fighter``, ``tick`` (None: the ruleset's own),
    ``note`` and ``imposed_by``."""

    def __init__(self, fighter_name: str, names: Sequence[str],
                 fighters: Sequence[tuple[str, str]], submit: Submit, *,
                 has_turns: bool = True, default_tick: str = "round-end",
                 bearer_id: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ConditionDialog")
        self.setWindowTitle(f"Add a condition to {fighter_name}")
        self.setMinimumWidth(420)
        self._submit = submit
        self._default_tick = default_tick

        self._build_name_and_duration(names, has_turns)
        self.until = QComboBox()
        self.until.setObjectName("conditionUntil")
        for fid, name in fighters:
            self.until.addItem(name, fid)
        if bearer_id:
            self.until.setCurrentIndex(max(0, self.until.findData(bearer_id)))

        self.tick = QComboBox()
        self.tick.setObjectName("conditionTick")
        default_words = dict(TICKS).get(default_tick, default_tick)
        self.tick.addItem(f"as the rules say ({default_words})", None)
        for key, label in TICKS:
            if has_turns and key != default_tick:
                self.tick.addItem(label, key)

        self.imposed_by = QComboBox()
        self.imposed_by.setObjectName("conditionImposedBy")
        self.imposed_by.addItem("nobody in particular", None)
        for fid, name in fighters:
            self.imposed_by.addItem(name, fid)

        self.note = QLineEdit()
        self.note.setObjectName("conditionNote")
        self.note.setMaxLength(500)
        self.note.setPlaceholderText("optional: where it came from, what it does")

        form = QFormLayout()
        form.addRow("Condition:", self.name)
        form.addRow("Lasts:", self.duration)
        form.addRow("Rounds:", self.rounds)
        form.addRow("Ends with the turn of:", self.until)
        form.addRow("Rounds count down:", self.tick)
        form.addRow("Imposed by:", self.imposed_by)
        form.addRow("Note:", self.note)
        self._form = form

        self.error = error_label()  # plain text: messages carry fighters' names

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)

        self.duration.currentIndexChanged.connect(self._duration_changed)
        self.name.editTextChanged.connect(lambda _text: self.show_error(None))
        self._duration_changed()

    def _build_name_and_duration(self, names: Sequence[str], has_turns: bool) -> None:
        """The condition's name (the ruleset's or any) and how long it lasts."""
        self.name = QComboBox()
        self.name.setObjectName("conditionName")
        self.name.setEditable(True)
        self.name.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.name.addItems(list(names))
        self.name.setCurrentIndex(-1)
        edit = self.name.lineEdit()
        if edit is not None:  # an editable combo box always has one
            edit.setAccessibleName("Condition")
            edit.setMaxLength(NAME_MAX)
            edit.setPlaceholderText("pick one or type any name")
        self.name.setToolTip(f"The condition's name: one of the ruleset's, or any text "
                             f"(1-{NAME_MAX} characters)")

        self.duration = QComboBox()
        self.duration.setObjectName("conditionDuration")
        for key, label in DURATIONS:
            if key == "until-turn-end" and not has_turns:
                continue  # no fighter turns (street-fighter's phases): nothing would end it
            self.duration.addItem(label, key)

        self.rounds = QSpinBox()
        self.rounds.setObjectName("conditionRounds")
        self.rounds.setRange(1, ROUNDS_MAX)
        self.rounds.setValue(1)
        self.rounds.setSuffix(" round(s)")

    # --- reading ----------------------------------------------------------------------
    def values(self) -> dict[str, Any]:
        duration = str(self.duration.currentData())
        return {
            "name": self.name.currentText().strip(),
            "duration": duration,
            "rounds": self.rounds.value() if duration == "rounds" else None,
            "until_fighter": self.until.currentData() if duration == "until-turn-end" else None,
            "tick": self.tick.currentData() if duration == "rounds" else None,
            "note": self.note.text().strip(),
            "imposed_by": self.imposed_by.currentData(),
        }

    def problem(self) -> str | None:
        """Why OK cannot put this on, before asking the engine."""
        values = self.values()
        name = values["name"]
        if not name:
            return "Give the condition a name: pick one from the list or type one."
        if len(name) > NAME_MAX:
            return f"The name is at most {NAME_MAX} characters."
        if values["duration"] == "until-turn-end" and not values["until_fighter"]:
            return "Choose the fighter whose turn ends it."
        return None

    # --- acting -----------------------------------------------------------------------
    def show_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))

    def accept(self) -> None:
        message = self.problem()
        if message is None:
            message = self._submit(self.values())
        if message:
            self.show_error(message)
            return
        super().accept()

    def _duration_changed(self, *_: object) -> None:
        duration = self.duration.currentData()
        self._show_row(self.rounds, duration == "rounds")
        self._show_row(self.tick, duration == "rounds" and self.tick.count() > 1)
        self._show_row(self.until, duration == "until-turn-end")
        self.show_error(None)

    def _show_row(self, field: QWidget, shown: bool) -> None:
        self._form.setRowVisible(field, shown)
