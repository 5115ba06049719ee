"""The GM's actions as the window offers them: the slot behind each menu item, button,
card request and timeline click, and the dialog that gathers what an action needs.

Each ends in one function of ui/operations.py, which builds the command and applies it
through the document; the outcome's line goes to the status bar, or to the dialog or
panel that asked when it was refused. The window wires the signals to these
(``MainWindow._connect_signals``); nothing here wires itself to the window.

No engine import at module level: the window paints before pydantic loads.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from . import operations, settings
from .decision import DecisionPanel
from .form_fields import field_spec, label_for

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog, QInputDialog, QMessageBox

    from fightdesk.engine.engine import Outcome
    from fightdesk.engine.model import Encounter

    from .action_dialog import ActionDialog
    from .decision import DecisionPanel
    from .document import FightDocument
    from .main_window import MainWindow


class GMActions(QObject):
    """The window's slots for the GM's actions (``window.gm``)."""

    def __init__(self, window: MainWindow) -> None:
        # A child of the window: it goes with the window.
        super().__init__(window)
        self.w = window

    @property
    def document(self) -> FightDocument:
        return self.w.document

    # --- what comes back ---------------------------------------------------------------
    def show_outcome(self, outcome: Outcome, timeout: int = 8000) -> bool:
        """An applied step's line in the status bar (a refusal the document already said)."""
        if outcome.ok:
            self.w.statusBar().showMessage(outcome.text, timeout)
        return outcome.ok

    def show_refusal(self, message: str) -> None:
        self.w.statusBar().showMessage(message, 10000)

    # --- the round ------------------------------------------------------------------------
    def round_command(self, kind: str) -> None:
        if kind == "end-round":
            loses = operations.end_round_loses(self.document)
            if loses:
                self.ask_end_round(loses)
                return
        if self.document.engine is not None:
            self.show_outcome(operations.round_step(self.document, kind))

    def ask_end_round(self, loses: str) -> QMessageBox:
        """End Round would throw something away (dice of phases still to come): say what,
        and end it only if the GM says so. "Keep playing" is the default."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QMessageBox

        w = self.w
        box = QMessageBox(QMessageBox.Icon.Question, "End the round?", "", parent=w)
        box.setObjectName("EndRoundQuestion")
        box.setTextFormat(Qt.TextFormat.PlainText)
        head, _, rest = loses.partition("\n")
        box.setText(head)
        box.setInformativeText(rest)
        end = box.addButton("End Round", QMessageBox.ButtonRole.DestructiveRole)
        end.setObjectName("endRoundButton")
        keep = box.addButton("Keep playing", QMessageBox.ButtonRole.RejectRole)
        keep.setObjectName("keepPlayingButton")
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def done(*_: object) -> None:
            w._end_round_box = None
            if box.clickedButton() is end:
                self.show_outcome(operations.round_step(self.document, "end-round"))

        box.finished.connect(done)
        w._end_round_box = box
        box.open()
        return box

    def go_forward(self) -> None:
        what, fighter = self.w.views.forward
        if what == "act":
            self.open_action_dialog(fighter, role="act")
        elif what:
            self.round_command(what)

    def move_turn(self, slot_id: str, section: str, index: int) -> None:
        """A lane dragged on the timeline: the ruleset says whether it may go there."""
        if self.document.engine is None:
            return
        outcome = operations.move_turn(self.document, slot_id, section, index)
        if not outcome.ok:  # the document's refusal line says why, prefixed here
            self.w.statusBar().showMessage(f"Not moved: {outcome.error}", 10000)

    def revert_to(self, seq: int) -> None:
        if self.document.engine is not None:
            steps = operations.revert_to(self.document, seq)
            if steps:  # 0: refused (the document said why) or nothing to undo
                self.w.statusBar().showMessage(
                    f"Undid {steps} step(s); Redo brings them back", 8000)

    # --- dice, questions and the roll that waits ----------------------------------------
    def free_roll(self, notation: str) -> None:
        if self.document.engine is None:
            return
        outcome = operations.free_roll(self.document, notation)
        bar = self.w.dice_bar
        if not outcome.ok or outcome.entry is None:
            bar.show_result(False, outcome.text)
            return
        from fightdesk.engine.notation import parse

        rolls = [e.roll for e in outcome.entry.events if e.roll is not None]
        target = parse(notation).target
        bar.show_result(True, outcome.text, [(r.sides, list(r.faces)) for r in rolls], target)

    def focus_dice(self) -> None:
        w = self.w
        w.dice_toolbar.show()
        w.dice_bar.edit.setFocus()
        w.dice_bar.edit.selectAll()

    def answer(self, panel: DecisionPanel, decision_id: str, choice: str, amount: int,
               dice: list[list[int]]) -> None:
        """The question answered in ``panel`` (the window's, or the stack dialog's)."""
        if self.document.engine is None:
            return
        outcome = operations.answer(self.document, decision_id, choice, amount, dice)
        if not outcome.ok:
            panel.show_refusal(outcome.error or "")
        else:
            self.w.statusBar().showMessage(outcome.headline, 8000)

    def answer_values(self, panel: DecisionPanel, decision_id: str, values: dict,
                      by: str) -> None:
        """A decision with fields answered at once (a player's typed roll per row)."""
        if self.document.engine is None:
            return
        outcome = operations.answer_values(self.document, decision_id, values, by)
        if not outcome.ok:
            panel.show_refusal(outcome.error or "")
        else:
            self.w.statusBar().showMessage(outcome.headline, 8000)

    def contribute(self, roll_id: int, fighter_id: str, kind: str, amount: int) -> None:
        if self.document.engine is not None:
            self._roll_outcome(operations.contribute(self.document, roll_id, fighter_id,
                                                     kind, amount))

    def withdraw(self, roll_id: int, contribution_id: int) -> None:
        if self.document.engine is not None:
            self._roll_outcome(operations.withdraw(self.document, roll_id, contribution_id))

    def make_roll(self, roll_id: int, dice: list) -> None:
        if self.document.engine is not None:
            self._roll_outcome(operations.make_roll(self.document, roll_id, dice))

    def pick_and_roll(self, roll_id: int, fighter_id: str, kind: str, dice: list) -> None:
        """One of a roll's alternatives (a d100 defense), then the roll: one click."""
        if self.document.engine is None:
            return
        outcome = operations.contribute(self.document, roll_id, fighter_id, kind, 0)
        if outcome.ok:
            outcome = operations.make_roll(self.document, roll_id, dice)
        self._roll_outcome(outcome)

    def _roll_outcome(self, outcome: Outcome) -> None:
        """The roll panel says a refusal; what a roll or a help did goes to the status bar
        (the roll's result, not the line of the action that opened it)."""
        self.w.roll_panel.show_refusal(None if outcome.ok else outcome.error)
        if outcome.ok:
            self.w.statusBar().showMessage(outcome.headline, 8000)

    # --- the player view ------------------------------------------------------------------
    def toggle_player_view(self, on: bool) -> None:
        """View > Player View: the players' window, on the other screen when there is one."""
        from PySide6.QtCore import QByteArray


        w = self.w
        if on:
            if w.player_view is None:
                from .player_view import PlayerView

                w.player_view = PlayerView()
            geometry = settings.app_settings().value("player_view/geometry")
            w.player_view.place(w, geometry if isinstance(geometry, QByteArray) else None)
            w.blank_player_action.setEnabled(True)
            w.views.show_views()
        elif w.player_view is not None:
            settings.app_settings().setValue("player_view/geometry", w.player_view.saveGeometry())
            w.player_view.hide()
            w.blank_player_action.setEnabled(False)

    def blank_player_view(self, blank: bool) -> None:
        if self.w.player_view is not None:
            self.w.player_view.set_blank(blank)

    def set_enemy_health(self, show: str) -> None:
        outcome = operations.set_enemy_health(self.document, show)
        if outcome is not None:
            self.show_outcome(outcome)
        self.w.views.show_views()

    # --- the cards and the timeline ---------------------------------------------------------
    def card_request(self, what: str, fighter_id: str) -> None:
        if what in ("act", "react", "assist", "gm"):
            self.open_action_dialog(fighter_id, role=what)
        elif what == "health":
            self.ask_health(fighter_id)
        elif what == "hide":
            outcome = operations.toggle_hidden(self.document, fighter_id)
            if outcome is not None:
                self.show_outcome(outcome)
        elif what == "edit":
            self.edit_fighter(fighter_id)
        elif what == "add-condition":
            self.add_condition(fighter_id)
        elif what == "remove" and self.document.engine is not None:
            if self.show_outcome(operations.remove_fighter(self.document, fighter_id)):
                self.w.statusBar().showMessage(
                    f"{self.document.undo_stack.undoText()} (Ctrl+Z brings them back)", 8000)

    def chip_clicked(self, fighter_id: str, chip_id: str) -> None:
        self.open_action_dialog(fighter_id, chip_id=chip_id)

    def act_with_current(self) -> None:
        """F2: the fighter whose card says they are acting, else the first one, on their
        main act form as the card's Act button opens it (a fighter with no action left
        was shown a GM form and its refusal instead of why they cannot act)."""
        engine = self.document.engine
        if engine is None or not engine.encounter.order:
            return
        model = self.w.fighters_model
        for row in range(model.rowCount()):
            card = model.item(row)
            if card.acting and not card.out:
                self.open_action_dialog(card.fighter_id, role="act")
                return
        self.open_action_dialog(engine.encounter.order[0], role="act")

    def open_action_dialog(self, fighter_id: str, *, role: str = "",
                           chip_id: str = "") -> ActionDialog | None:
        """Open the action dialog for a fighter: the form that uses ``chip_id`` (a mark on
        the timeline) or the first form of ``role`` (act, react...), else the first the
        fighter can use."""
        from PySide6.QtCore import Qt

        from fightdesk.engine.targets import with_default_targets

        from .action_dialog import ActionDialog

        w = self.w
        engine = self.document.engine
        if engine is None or fighter_id not in engine.encounter.fighters:
            return None
        ruleset = engine.ruleset
        forms = with_default_targets(ruleset, engine.encounter, fighter_id,
                                     ruleset.views.action_forms(engine.encounter, fighter_id))
        name = engine.encounter.fighters[fighter_id].name
        if not ruleset.rules.rules_built:
            w.statusBar().showMessage(ruleset.rules.not_built_line, 8000)
            return None
        if not forms:
            w.statusBar().showMessage(f"{name} has nothing to do right now", 8000)
            return None
        acts = [f for f in forms if f.role == "act"]
        if role == "act" and not chip_id and acts and not any(f.enabled for f in acts):
            # No action left: say why rather than open a form that cannot be used.
            main = next((f for f in acts if f.id == "act"), acts[0])
            why = main.reason or "no action left now"
            w.statusBar().showMessage(f"{name} cannot act: {why}", 10000)
            return None
        form_id, preset = pick_form(forms, role, chip_id)
        document = self.document
        stack = w._stack_dialog
        parent = stack if stack is not None and stack.isVisible() else w
        dialog = ActionDialog(
            name, forms,
            lambda form, values: operations.preview_action(document, form, fighter_id, values),
            lambda form, values, dice: operations.act(document, form, fighter_id, values, dice),
            form_id=form_id, preset=preset,
            own_dice=engine.encounter.fighters[fighter_id].rolls_own_dice, parent=parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(self.action_finished)
        w._action_dialog = dialog
        dialog.open()
        return dialog

    def action_finished(self, *_: object) -> None:
        w = self.w
        dialog = w._action_dialog
        w._action_dialog = None
        if dialog is not None and dialog.done_sentence:
            w.statusBar().showMessage(dialog.done_sentence, 10000)
        w.views.show_views()

    # --- the interrupt stack -----------------------------------------------------------------
    def open_stack_dialog(self) -> None:
        from .stack_dialog import InterruptStackDialog

        w = self.w
        if w._stack_dialog is None:
            dialog = InterruptStackDialog(w.stack_model, w.fighters_model, w)
            panel = DecisionPanel()
            w._stack_decision = panel
            dialog.set_decision_widget(panel)
            panel.answered.connect(partial(self.answer, panel))
            # A question with a row per fighter (initiative typed in) asked while the
            # dialog is open is answered there too.
            panel.answeredValues.connect(partial(self.answer_values, panel))
            dialog.addRequested.connect(lambda fid: self.open_action_dialog(fid, role="react"))
            dialog.resolveNextRequested.connect(lambda: self.stack_command("resolve-next"))
            dialog.resolveAllRequested.connect(lambda: self.stack_command("resolve-all"))
            dialog.cancelRequested.connect(lambda: self.stack_command("cancel-stack"))
            dialog.finished.connect(self.stack_closed)
            w._stack_dialog = dialog
        if not w._stack_dialog.isVisible():
            w._stack_dialog.reset_cancelled()
            # "Interrupt with:" starts on the fighter being attacked.
            engine = self.document.engine
            under = engine.ruleset.views.attack_under_way(engine.encounter) if engine else None
            if under is not None and under[1]:
                w._stack_dialog.select_fighter(under[1])
            w._stack_dialog.open()
        # Only what the open dialog changes: the question moves into it and its buttons
        # follow the fight (the rest of the window is as show_views left it).
        engine = self.document.engine
        if engine is not None:
            enc, ruleset = engine.encounter, engine.ruleset
            w.views.show_stack(ruleset, engine.pending(), ruleset.views.round_controls(enc),
                               ruleset.views.describe_state(enc))

    def stack_command(self, form_id: str) -> None:
        """Resolve next / all, cancel: commands the ruleset builds from these form ids."""
        dialog = self.w._stack_dialog
        if self.document.engine is None or dialog is None:
            return
        outcome = operations.stack_command(self.document, form_id)
        dialog.show_refusal(None if outcome.ok else outcome.error)
        if outcome.ok:
            self.w.statusBar().showMessage(outcome.headline, 8000)
            if form_id == "cancel-stack":
                dialog.mark_cancelled()

    def stack_closed(self, *_: object) -> None:
        # Closed on purpose (empty or cancelled): Ctrl+K brings it back while moves wait.
        self.w.views.show_views(auto_open=False)

    # --- GM overrides ------------------------------------------------------------------------
    def ask_health(self, fighter_id: str) -> QDialog | None:
        """Damage / heal: the GM types a change (-3, +2) or the new health; it becomes a
        ``SetValue`` of the health, through the rules unless the GM ticks the override."""
        from PySide6.QtCore import Qt

        engine = self.document.engine
        if engine is None or fighter_id not in engine.encounter.fighters:
            return None
        from .health_dialog import HealthDialog

        card = engine.ruleset.views.card(engine.encounter, fighter_id)
        field = card.health_field
        dialog = HealthDialog(card.title, card.health, card.health_max, self.w)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(value: int) -> None:
            if value != card.health:
                self.show_outcome(operations.set_health(self.document, fighter_id, field, value,
                                                        override=dialog.override()))

        dialog.chosen.connect(chosen)
        dialog.open()
        return dialog

    def health_of_selected(self) -> None:
        fighter_id = self.w.selected_fighter()
        if fighter_id is not None:
            self.ask_health(fighter_id)

    def add_condition(self, fighter_id: str) -> QDialog | None:
        """The card's "Add condition...": the dialog gathers it, an ``AddCondition`` puts
        it on (an engine refusal is shown in the dialog, which stays open)."""
        from PySide6.QtCore import Qt

        from .condition_dialog import ConditionDialog

        engine = self.document.engine
        if engine is None or fighter_id not in engine.encounter.fighters:
            return None
        enc = engine.encounter
        ruleset = engine.ruleset
        fighters = [(fid, enc.fighters[fid].name) for fid in enc.order if fid in enc.fighters]

        def submit(values: dict) -> str | None:
            outcome = operations.add_condition(self.document, fighter_id, values)
            if not outcome.ok:
                return outcome.error or "not allowed"
            self.w.statusBar().showMessage(outcome.text, 8000)
            return None

        dialog = ConditionDialog(enc.fighters[fighter_id].name, ruleset.rules.condition_names,
                                 fighters, submit, has_turns=ruleset.rules.condition_turns,
                                 default_tick=ruleset.rules.condition_tick, bearer_id=fighter_id,
                                 parent=self.w)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def remove_condition(self, fighter_id: str, index: int) -> None:
        self.show_outcome(operations.remove_condition(self.document, fighter_id, index))

    def edit_fighter(self, fighter_id: str) -> QDialog | None:
        """The card's Edit: the changed fields land as one step, all or none."""
        from PySide6.QtCore import Qt

        from .fighter_editor import FighterEditor

        engine = self.document.engine
        if engine is None or fighter_id not in engine.encounter.fighters:
            return None
        editor = FighterEditor(engine.encounter.fighters[fighter_id], self.w)
        editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        editor.changesChosen.connect(lambda changes: self.apply_edits(fighter_id, changes))
        editor.open()
        return editor

    def apply_edits(self, fighter_id: str, changes: list[tuple[str, object]]) -> None:
        if changes:
            self.show_outcome(operations.edit_fighter(self.document, fighter_id, changes))

    def edit_options(self) -> QDialog | None:
        """Fight > Ruleset Options: the changed options land as one step, all or none."""
        from PySide6.QtCore import Qt

        from .options_dialog import OptionsDialog

        engine = self.document.engine
        if engine is None:
            return None
        dialog = OptionsDialog(engine.encounter.options, engine.ruleset.title, self.w)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.optionsChosen.connect(self.apply_options)
        dialog.open()
        return dialog

    def apply_options(self, changes: list[tuple[str, object]]) -> None:
        if changes:
            self.show_outcome(operations.set_options(self.document, changes))

    def edit_tables(self) -> QDialog | None:
        """Fight > Roll Tables: the fight's tables (and the built-in ones it lacks), with
        the open campaign's copies; every change goes through the document."""
        from PySide6.QtCore import Qt

        from fightdesk.engine.tables import TableProblem, missing_builtin_tables

        from .table_editor import RollTablesDialog

        w = self.w
        engine = self.document.engine
        if engine is None:
            return None
        try:
            builtin = missing_builtin_tables(engine.encounter)
        except TableProblem as exc:  # a broken installation: say so, still edit the fight's
            self.show_refusal(str(exc))
            builtin = {}
        campaign = w.library_panel.campaign if w.library_panel is not None else None
        document = self.document
        dialog = RollTablesDialog(lambda: engine.encounter.tables,
                                  partial(operations.apply, document),
                                  builtin=builtin, campaign=campaign, parent=w)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        document.changed.connect(dialog.refresh)
        dialog.open()
        return dialog

    def simulate(self) -> QDialog | None:
        """Fight > Simulate: one dialog, which plays copies of the fight as it stands when
        Run is pressed (so it can be run again mid-fight); the fight is never changed."""
        from .simulate_dialog import SimulateDialog

        dialog = self.w.findChild(SimulateDialog)
        if dialog is None:
            def current() -> Encounter | None:
                engine = self.document.engine
                return engine.encounter if engine is not None else None

            dialog = SimulateDialog(current, self.w)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    # --- fighters for this fight only, and the fight's name --------------------------------
    def quick_add(self) -> QDialog | None:
        """Fight > Quick Add Fighter: a name, a side and a health; the ruleset's defaults
        for the rest. Nothing is written to the campaign (Save Fighter to Campaign does)."""
        from PySide6.QtCore import Qt

        from fightdesk.storage.library import LibraryError, new_fighter

        from .quick_add import QuickAddDialog

        engine = self.document.engine
        if engine is None:
            return None
        try:
            blank = new_fighter(engine.encounter.ruleset, "New fighter")
        except LibraryError as exc:
            self.show_refusal(str(exc))
            return None
        key = operations.health_key(self.document)
        most = type(blank.sheet).model_fields[key].metadata if key in type(blank.sheet).model_fields else []
        limit = next((int(m.le) for m in most if getattr(m, "le", None) is not None), 999)
        dialog = QuickAddDialog(int(getattr(blank.sheet, key, 10) or 10), limit, self.w,
                                fields=quick_fields(engine.ruleset.rules.quick_fields, blank.sheet))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(name: str, side: str, health: int, count: int, values: dict) -> None:
            problem = self.quick_add_fighter(name, side, health, count, values)
            if problem:
                dialog.show_refusal(problem)
            else:
                dialog.accept()

        dialog.chosen.connect(chosen)
        dialog.open()
        return dialog

    def quick_add_fighter(self, name: str, side: str, health: int, count: int = 1,
                          values: dict | None = None) -> str:
        """Add the fighter; "" when added, else why not (in the GM's words)."""
        outcome = operations.quick_add(self.document, name, side, health, count, values)
        if isinstance(outcome, str):
            return outcome
        if not outcome.ok:
            return outcome.error or "not added"
        self.w.statusBar().showMessage(
            f"{outcome.text} (this fight only; Fight > Save Fighter to Campaign keeps them)", 12000)
        return ""

    def rename_fight(self) -> QInputDialog | None:
        """Fight > Rename Fight: a name of the GM's for this fight (undoable like any step)."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QInputDialog

        w = self.w
        engine = self.document.engine
        if engine is None:
            return None
        dialog = QInputDialog(w)
        dialog.setObjectName("RenameFightDialog")
        dialog.setWindowTitle("Rename the fight")
        dialog.setLabelText("Name of this fight:")
        dialog.setTextValue(engine.encounter.name)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(text: str) -> None:
            outcome = operations.rename_fight(self.document, text)
            if isinstance(outcome, str):
                w.statusBar().showMessage(outcome, 8000)
            elif outcome is not None:
                self.show_outcome(outcome)
                w.views.update_title()

        dialog.textValueSelected.connect(chosen)
        dialog.open()
        return dialog

    def keep_in_campaign(self) -> None:
        """Save the selected fighter (rested, unlinked from this fight) to the open
        campaign, e.g. after a quick add. (The campaign's file, not the fight.)"""
        from fightdesk.storage.library import LibraryError, rested_status

        w = self.w
        engine = self.document.engine
        fighter_id = w.selected_fighter()
        panel = w.library_panel
        if engine is None or fighter_id is None:
            return
        campaign = panel.campaign if panel is not None else None
        if campaign is None:
            w.statusBar().showMessage("Open a campaign in the library first", 8000)
            return
        fighter = engine.encounter.fighters[fighter_id]
        kept = fighter.model_copy(update={"id": "new", "group": None, "source_id": None,
                                          "status": rested_status(fighter.sheet)}, deep=True)
        try:
            saved = campaign.add(kept)
        except LibraryError as exc:
            self.show_refusal(str(exc))
            return
        w.statusBar().showMessage(f"{saved.name} saved to the campaign {campaign.name}", 8000)


def quick_fields(paths: tuple[str, ...], sheet: Any) -> tuple[tuple[str, str, Any, Any], ...]:
    """Quick Add's inputs for a ruleset's quick fields: (path, label, field spec, the
    blank sheet's value); "list.field" reads the list's row model ("Weapon class")."""
    out = []
    fields = type(sheet).model_fields
    for path in paths:
        table, _, column = path.partition(".")
        if table not in fields:
            continue
        if not column:
            spec = field_spec(path, fields[path])
            out.append((path, spec.label, spec, getattr(sheet, path)))
            continue
        row_model = field_spec(table, fields[table]).item_model
        if row_model is None or column not in row_model.model_fields:
            continue
        spec = field_spec(column, row_model.model_fields[column])
        rows = getattr(sheet, table)
        value = getattr(rows[0], column) if rows else None
        if value is None and column == "name":
            value = ""
        item = label_for(table).rstrip("s")
        label = spec.label if spec.label.lower().startswith(item.lower()) \
            else f"{item} {spec.label.lower()}"
        out.append((path, label, spec, value))
    return tuple(out)


def pick_form(forms: tuple, role: str, chip_id: str) -> tuple[str | None, dict[str, Any]]:
    """The form to open first, and preset values: a chip preselects the choice field
    that offers it (the ruleset keys its choices by chip id); a role opens its main form
    (the one named after it, else its first) even when that form cannot be used now, so
    the dialog says why rather than opening on something else."""
    usable = [f for f in forms if f.enabled] or list(forms)
    if chip_id:
        for form in usable:
            for fld in form.fields:
                if fld.kind == "choice" and any(key == chip_id for key, _ in fld.choices):
                    return form.id, {fld.name: chip_id}
    if role:
        of_role = [f for f in forms if f.role == role]
        main = next((f for f in of_role if f.id == role), None)
        chosen = main if main is not None else next(
            (f for f in of_role if f.enabled), of_role[0] if of_role else None)
        if chosen is not None:
            return chosen.id, {}
    return (usable[0].id if usable else None), {}
