"""Keeping the window's views in step with the fight.

The document says what changed (``replaced``: a whole new fight; ``changed``: the
engine's :class:`Notice`); the item models redraw the rows the notice touched and
:class:`ViewRefresh` the rest: the timeline, the open question, the roll panel, the
round bar (its buttons, title and the one way forward), the player view, the turn timer,
Undo and Redo, the title. A fight's *picture* (engine/views.py) is painted by the same
code before the rules load (:meth:`ViewRefresh.show_picture`).

No engine import at module level: the window paints before pydantic loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from fightdesk.engine.views import forward_of, shown_timeline, status_line

from . import operations
from .plain import message_box, plain_tip

if TYPE_CHECKING:
    from fightdesk.engine.base import Decision
    from fightdesk.engine.engine import Engine, Notice
    from fightdesk.engine.model import Encounter
    from fightdesk.engine.ruleset import RoundControls, Ruleset
    from fightdesk.engine.views import FightPicture, Forward

    from .main_window import MainWindow

NO_FIGHTERS_HINT = (
    "No fighters in this fight yet.\n\nAdd some from the campaign library (drag a fighter "
    "here, or select and choose Add to Fight), or with Fight > Quick Add Fighter "
    "(Ctrl+Shift+A).\nThen the button at the top starts the fight.")


class ViewRefresh(QObject):
    """Redraws what is not an item model when the fight changes (the window wires it)."""

    def __init__(self, window: MainWindow) -> None:
        # A child of the window: it goes with the window.
        super().__init__(window)
        self.w = window
        self.fight_was_shown = False
        # (what, fighter id) the forward action does (``show_forward_button``).
        self.forward: tuple[str, str] = ("", "")
        self.round_going = False
        self._fitted_lanes: int | None = None
        # The turn timer: which turn it runs on (chip id, turn number) and since when.
        self._timed: tuple[str, int] | None = None
        self._timed_since = 0.0
        self._timed_out: int | None = None

    # --- a new fight, a change ---------------------------------------------------------
    def engine_replaced(self) -> None:
        w = self.w
        engine = w.document.engine
        for model in (w.fighters_model, w.log_model, w.stack_model):
            model.set_engine(engine)
        # A long fight's history is read after the fight is shown: the log says so.
        w.log_view.set_loading(engine is not None and engine.pending_history is not None)
        if self.fight_was_shown:
            # The last fight's message says nothing of this one (at start-up, a word on
            # the autosave or the library stays).
            w.statusBar().clearMessage()
        self.fight_was_shown = engine is not None
        if engine is not None:
            ruleset = engine.ruleset
            w.cards.set_roles(tuple((role, ruleset.views.role_labels.get(role, role.title()))
                                    for role in ruleset.views.card_roles))
        self.show_views()
        if engine is not None:
            w.library.schedule()

    def engine_changed(self, notice: Notice) -> None:
        w = self.w
        w.fighters_model.refresh(notice)
        w.log_model.refresh(notice)
        w.stack_model.refresh(notice)
        self.show_views()

    def show_views(self, auto_open: bool = True) -> None:
        """What is not an item model: timeline, decision, round controls, status line.
        A stack that appears opens its dialog (``auto_open``)."""
        w = self.w
        engine = w.document.engine
        if engine is None:
            return
        enc = engine.encounter
        ruleset = engine.ruleset
        w.timeline.set_timeline(shown_timeline(ruleset, enc))
        self.fit_timeline_height()
        decision = engine.pending()
        stack_open = w._stack_dialog is not None and w._stack_dialog.isVisible()
        w.roll_panel.show_roll(ruleset.views.roll_view(enc))
        for show, act in w.enemy_health_actions.items():
            act.setChecked(show == enc.enemy_health)
        if w.player_view is not None and w.player_view.isVisible():
            from fightdesk.engine.player_view import public_fight

            w.player_view.show_fight(public_fight(ruleset, enc))
        self.follow_turn_timer(ruleset, enc)
        controls = ruleset.views.round_controls(enc)
        # Nobody to fight: nothing to start (whatever the ruleset would allow).
        anyone = bool(enc.order)
        self.show_round_buttons(controls.can_start_fight and anyone,
                                controls.can_start_round and anyone,
                                controls.can_next_step and anyone, controls.can_end_round,
                                controls.next_step_label)
        self.show_forward(engine, controls)
        # A round is going: started and not yet over (nothing to start right now).
        self.round_going = enc.round > 0 and not (controls.can_start_round
                                                  or controls.can_start_fight)
        w.library.follow_round(self.round_going)
        w.act_action.setEnabled(bool(enc.order) and ruleset.rules.rules_built)
        w.health_action.setEnabled(bool(enc.order))
        w.keep_fighter_action.setEnabled(bool(enc.order))
        has_stack = w.stack_model.rowCount() > 0
        w.stack_action.setEnabled(has_stack)

        state = ruleset.views.describe_state(enc)
        self.show_round_title(state, status_line(state, controls))
        w.cards.set_empty_hint("" if anyone else NO_FIGHTERS_HINT)
        self.show_stack(ruleset, decision, controls, state)
        w.placement.room_for_cards()
        # A roll waiting on the roll panel is typed there: the stack dialog never opens
        # over it by itself, whatever the ruleset's flags say (docs/ui.md).
        if (auto_open and has_stack and w._action_dialog is None and not stack_open
                and ruleset.rules.pending_roll(enc) is None
                and controls.extra.get("open-stack-dialog", True)):
            w.gm.open_stack_dialog()

    def show_round_buttons(self, start_fight: bool, start_round: bool, next_step: bool,
                           end_round: bool, next_step_label: str) -> None:
        from .main_window import set_tip

        w = self.w
        w.start_fight_action.setEnabled(start_fight)
        w.start_round_action.setEnabled(start_round)
        w.next_step_action.setEnabled(next_step)
        w.end_round_action.setEnabled(end_round)
        if w.next_step_action.text() != next_step_label:
            w.next_step_action.setText(next_step_label)
            set_tip(w.next_step_action, next_step_label)

    def show_round_title(self, state: str, status: str) -> None:
        """The round and phase or turn in large type; the small line beside the buttons
        says what the fight waits for."""
        w = self.w
        w.round_title.setText(state)
        tip = plain_tip(state)
        if w.round_title.toolTip() != tip:  # each set sends the label an event
            w.round_title.setToolTip(tip)
        w.state_label.setText(status)

    def show_picture(self, picture: FightPicture) -> None:
        """The fight as the window last showed it (engine/views.py), painted while the
        rules load at start-up (app.py); ``show_session`` then puts the live fight in its
        place. What the picture does not hold (the log, an open question, a roll) comes
        with the live fight."""
        w = self.w
        w.fighters_model.show_picture(
            picture.cards, {fid: (group, name) for fid, group, name in picture.groups})
        w.cards.set_roles(picture.card_roles)
        w.cards.set_empty_hint("" if picture.cards else NO_FIGHTERS_HINT)
        w.timeline.set_timeline(picture.timeline)
        self.fit_timeline_height()
        self.show_round_buttons(picture.can_start_fight, picture.can_start_round,
                                picture.can_next_step, picture.can_end_round,
                                picture.next_step_label)
        self.show_forward_button(picture.forward)
        w.undo_action.setEnabled(picture.can_undo)
        w.redo_action.setEnabled(picture.can_redo)
        self.show_round_title(picture.state, picture.status)
        w.setWindowTitle(f"{picture.title}[*] - fightdesk")
        w.setWindowModified(picture.unsaved)

    def show_stack(self, ruleset: Ruleset, decision: Decision | None, controls: RoundControls,
                   state: str) -> None:
        """The open question where the GM answers it (in the stack dialog while that is
        open, else in the window's panel) and the stack dialog's buttons and line."""
        w = self.w
        stack_open = w._stack_dialog is not None and w._stack_dialog.isVisible()
        w.decision_panel.show_decision(None if stack_open else decision)
        if w._stack_decision is not None:
            w._stack_decision.show_decision(decision if stack_open else None)
        if w._stack_dialog is not None:
            has_stack = w.stack_model.rowCount() > 0
            # It closes with a roll still waiting: the roll panel keeps it.
            engine = w.document.engine
            roll_waits = engine is not None and ruleset.rules.pending_roll(engine.encounter) is not None
            w._stack_dialog.set_reaction_word(ruleset.views.role_labels.get("react", "React"))
            w._stack_dialog.set_controls(
                can_resolve=controls.extra.get("resolve-next", has_stack),
                can_cancel=controls.extra.get("cancel-stack", has_stack),
                can_add=controls.extra.get("interrupt", has_stack),
                can_close=controls.extra.get("close-stack", False) or roll_waits,
                status=state,
            )

    # --- the one way forward -------------------------------------------------------------
    def show_forward(self, engine: Engine, controls: object) -> None:
        """The forward action's text and what it does, from the ruleset's round controls
        (engine/views.py ``forward_of``). Passing a turn is the separate Pass action."""
        from fightdesk.engine.ruleset import RoundControls

        assert isinstance(controls, RoundControls)
        self.show_forward_button(forward_of(
            engine.encounter, controls, pending=engine.pending() is not None,
            rolling=self.w.roll_panel.view() is not None, fallback=self.w.forward_action.text(),
            ruleset=engine.ruleset))

    def show_forward_button(self, forward: Forward) -> None:
        from .main_window import set_tip

        w = self.w
        label = forward.label
        self.forward = (forward.what, forward.fighter)
        w.forward_action.setEnabled(bool(forward.what))
        w.forward_button.setEnabled(bool(forward.what))
        if w.forward_action.text() != label:
            w.forward_action.setText(label.replace("&", "&&"))
        metrics = w.forward_button.fontMetrics()
        from PySide6.QtCore import Qt

        shown = metrics.elidedText(label, Qt.TextElideMode.ElideRight,
                                   w.forward_button.width() - 20)
        w.forward_button.setText(shown.replace("&", "&&"))
        tip = plain_tip(f"{label} (F4)")
        if w.forward_button.toolTip() != tip:
            w.forward_button.setToolTip(tip)
        w.pass_action.setEnabled(forward.can_pass)
        if w.pass_action.text() != forward.pass_text:
            w.pass_action.setText(forward.pass_text.replace("&", "&&"))
            w.pass_action.setIconText("Pass")
            set_tip(w.pass_action, f"{forward.pass_text}: the turn goes by unused")
        self.name_round_items(forward)

    def name_round_items(self, forward: Forward) -> None:
        """The Fight menu's round items say what each does now, none the same as another:
        the forward item (first) does what the fight needs next, so the round item that
        would do the same is left out, as is any that cannot be done now; Start Round and
        End Round name their round. Their shortcuts work whether listed or not."""
        w = self.w
        engine = w.document.engine
        number = engine.encounter.round if engine is not None else 0
        labels = {w.start_fight_action: "Start the &Fight",
                  w.start_round_action: f"Start &Round {number + 1}" if engine else "Start &Round",
                  w.end_round_action: f"&End Round {number}" if number else "&End Round"}
        for act, label in labels.items():
            if act.text() != label:
                act.setText(label)
                act.setIconText(label.replace("&", "").rsplit(" ", 1)[0]
                                if act is w.end_round_action else label.replace("&", ""))
        doing = {"start-fight": w.start_fight_action, "start-round": w.start_round_action,
                 "end-round": w.end_round_action, "next-step": w.next_step_action}
        said = {forward.label, forward.pass_text}
        shown = [act for act in w.round_actions
                 if act.isEnabled() and doing.get(forward.what) is not act
                 and not (act is w.next_step_action and act.text() in said)]
        menu = w.fight_menu
        listed = [act for act in menu.actions() if act in w.round_actions]
        if listed == shown:
            return
        for act in listed:
            menu.removeAction(act)
        before = w.round_items_end
        for act in shown:
            menu.insertAction(before, act)

    # --- room for the timeline -------------------------------------------------------------
    def fit_timeline_height(self) -> None:
        """The timeline as tall as its lanes (when their number changes): the cards get
        the rest. A height the GM dragged stays until the lanes change."""
        w = self.w
        shown = w.timeline.timeline()
        lanes = len(shown.lanes) if shown is not None else 0
        if lanes == self._fitted_lanes:
            return
        sizes = w.splitter.sizes()
        total = sum(sizes)
        if total <= 0:
            return
        self._fitted_lanes = lanes
        wanted = min(w.timeline.content_height(), int(total * 0.5))
        w.splitter.setSizes([wanted, total - wanted])

    def refit_timeline(self) -> None:
        """Fit the timeline again even if its lanes did not change (Reset Layout)."""
        self._fitted_lanes = None
        self.fit_timeline_height()

    # --- the turn timer ----------------------------------------------------------------------
    def follow_turn_timer(self, ruleset: Ruleset, enc: Encounter) -> None:
        """Start, restart or stop the countdown as the turns change."""
        w = self.w
        seconds = ruleset.rules.turn_timer(enc)
        timed = ruleset.rules.timed_turn(enc) if seconds > 0 else None
        if timed is None:
            self._timed = None
            w.turn_clock.stop()
            w.timeline.set_countdown(None)
            return
        if timed != self._timed:
            self._timed = timed
            self._timed_since = self.clock()
            self._timed_out = None
        if not w.turn_clock.isActive():
            w.turn_clock.start()
        self.tick_turn_timer()

    def clock(self) -> float:
        """Seconds on a steady clock (a test sets the time it wants)."""
        import time

        return time.monotonic()

    def tick_turn_timer(self) -> None:
        w = self.w
        engine = w.document.engine
        if engine is None or self._timed is None:
            w.turn_clock.stop()
            return
        seconds = engine.ruleset.rules.turn_timer(engine.encounter)
        left = seconds - (self.clock() - self._timed_since)
        chip_id, number = self._timed
        if left > 0:
            whole = int(left + 0.999)
            w.timeline.set_countdown(chip_id, f"{whole // 60}:{whole % 60:02d}", whole <= 10)
            return
        w.timeline.set_countdown(chip_id, "0:00", True)
        if self._timed_out == number:
            return
        self._timed_out = number
        outcome = operations.turn_timeout(w.document, number)
        if outcome.ok:
            w.statusBar().showMessage(outcome.text, 10000)

    # --- Undo, Redo, the title, the print menu ---------------------------------------------
    def follow_undo_stack(self, *_: object) -> None:
        """Undo and Redo can be used when the history allows; they name their step when
        the Edit menu shows them (``name_undo_steps``)."""
        w = self.w
        doc = w.document
        if doc.rebuilding:
            return  # one look once the stack is rebuilt (replaced, historyArrived)
        w.undo_action.setEnabled(doc.can_undo())
        w.redo_action.setEnabled(doc.can_redo())
        menu = getattr(w, "edit_menu", None)
        if menu is not None and menu.isVisible():
            self.name_undo_steps()

    def name_undo_steps(self) -> None:
        """Undo and Redo say what they would do, as the stack's own actions would: set as
        the Edit menu opens, the one place their text shows. The round bar shows the same
        actions as short buttons, and each change of an action's text had the bar lay
        itself out again and repaint its buttons, on every click of the fight."""
        w = self.w
        stack = w.document.undo_stack
        for act, word, text in ((w.undo_action, "&Undo", stack.undoText()),
                                (w.redo_action, "&Redo", stack.redoText())):
            named = f"{word} {text}" if text else word
            if act.text() != named:
                act.setText(named)

    def update_title(self, *_: object) -> None:
        w = self.w
        w.setWindowTitle(f"{w.document.title}[*] - fightdesk")
        w.setWindowModified(w.document.is_modified())

    def follow_printing(self) -> None:
        """Printing is there once something is logged. While a history is still being
        read its items go by what the file holds (looking would read it all now); used
        then, they read the rest first (``WindowFiles.current_session``)."""
        printing = self.w.summary_printing
        if printing is None:
            return
        engine = self.w.document.engine
        pending = engine.pending_history if engine is not None else None
        if pending is not None:
            for act in printing.actions():
                act.setEnabled(pending.has_log)
        else:
            printing.update_enabled()

    def history_arrived(self) -> None:
        """A long fight's history is in: the log view fills, Undo reaches back; or it
        could not be read, and the GM is told the fight goes on without it."""
        from PySide6.QtWidgets import QMessageBox


        w = self.w
        engine = w.document.engine
        w.log_model.set_engine(engine)
        w.log_view.set_loading(False)
        w.log_view.tree.scrollToBottom()  # the latest actions, as the log follows play
        self.follow_undo_stack()
        if w.summary_printing is not None:
            w.summary_printing.update_enabled()
        problem = w.document.history_problem
        if problem is not None:
            from PySide6.QtCore import Qt

            w.log_view.set_loading(False, "The history could not be read: this fight "
                                   "starts its log from here.")
            w.statusBar().showMessage("The fight's history could not be read: see the "
                                      "message; the fight goes on without it", 0)
            # Not modal: this may come in the middle of the GM's click, and play goes on.
            box = message_box(
                w, QMessageBox.Icon.Warning, "The fight's history cannot be read",
                f"{problem}\n\nThe fight is shown as it is now, without its history: "
                "nothing to undo, a new log. The file is not changed; saving asks for a "
                "new name.")
            box.setObjectName("HistoryProblem")
            box.setWindowModality(Qt.WindowModality.NonModal)
            box.show()
            w.history_box = box
