"""The main window: menus, the timeline, the fighter cards, the log dock, the dice bar.

It builds the widgets, owns the :class:`FightDocument`, and wires every signal in one
place (:meth:`MainWindow._connect_signals`); the widgets never import each other.
Nothing from ``fightdesk.engine`` (or pydantic) is imported at module level, so the
window paints before the engine loads. A staged start (``MainWindow(staged=True)``,
what the app does) first paints the frame alone (title, menus, a "loading" line); the
widget modules and Qt's big ``Qt`` namespace load in :meth:`MainWindow.build_body`,
right after that paint, and the print menu and library dock once the fight is shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QPushButton, QToolBar, QWidget

from . import settings
from .document import FightDocument
from .plain import message_box, plain_tip, warn

# The classes the frame does not use (dialogs, docks, layouts) are imported where used:
# importing a PySide6 class builds its enum classes, before the first paint if done here.
if TYPE_CHECKING:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QResizeEvent
    from PySide6.QtWidgets import QDialog, QDockWidget, QInputDialog, QMessageBox

    from fightdesk.engine.base import Decision
    from fightdesk.engine.commands import Command
    from fightdesk.engine.engine import Engine, Notice
    from fightdesk.engine.model import Encounter, Session
    from fightdesk.engine.ruleset import Preview, RoundControls, Ruleset
    from fightdesk.engine.views import FightPicture, Forward
    from fightdesk.storage.trust import HistoryProblem

    from .action_dialog import ActionDialog
    from .decision import DecisionPanel
    from .library_panel import LibraryPanel
    from .player_view import PlayerView
    from .printing import SummaryPrinting
    from .stack_dialog import InterruptStackDialog

FILE_FILTER = "fightdesk sessions (*.json);;All files (*)"


NO_FIGHTERS_HINT = (
    "No fighters in this fight yet.\n\nAdd some from the campaign library (drag a fighter "
    "here, or select and choose Add to Fight), or with Fight > Quick Add Fighter "
    "(Ctrl+Shift+A).\nThen the button at the top starts the fight.")


class MainWindow(QMainWindow):
    """The GM's desk. ``show_session`` displays a fight; ``open_file`` loads one."""

    def __init__(self, parent: QWidget | None = None, *, staged: bool = False) -> None:
        """``staged``: build only the frame (menus and a "loading" line) so that it paints
        at once; :meth:`build_body` and :meth:`add_printing` complete it, and the library
        dock is left to the caller (:meth:`add_library_panel`)."""
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setWindowTitle("fightdesk[*]")
        self.document = FightDocument(self)
        # The campaign library dock is built after the first fight is on screen (it loads
        # the library files): by this window, or by a staged start once it is ready.
        self.library_after_first_fight = not staged
        self.library_panel: LibraryPanel | None = None
        self.library_dock: QDockWidget | None = None
        self._library_scheduled = False
        self.summary_printing: SummaryPrinting | None = None
        # Set by the autosave wiring: closing then loses nothing, and the question says so.
        self.kept_by_autosave = False
        # The message of a history that could not be read (not modal: play goes on).
        self.history_box: QMessageBox | None = None
        self._body_built = False
        self._actions_built = False
        # A staged frame shows the menu bar's titles; the actions and the menus' items come
        # with the body (build_body), which follows the first paint by a few milliseconds.
        self._build_menu_titles()
        if not staged:
            self._build_actions_and_menus()
        self._restore_geometry()
        if staged:
            self.loading_label = QLabel("Opening the fight\N{HORIZONTAL ELLIPSIS}")
            self.loading_label.setObjectName("loadingLabel")
            self.loading_label.setMargin(24)
            self.setCentralWidget(self.loading_label)
        else:
            self.build_body()
            self.add_printing()

    def _follow_undo_stack(self, *_: object) -> None:
        """Undo and Redo can be used when the history allows; they name their step when
        the Edit menu shows them (``_name_undo_steps``)."""
        doc = self.document
        if doc.rebuilding:
            return  # one look once the stack is rebuilt (replaced, historyArrived)
        self.undo_action.setEnabled(doc.can_undo())
        self.redo_action.setEnabled(doc.can_redo())
        menu = getattr(self, "edit_menu", None)
        if menu is not None and menu.isVisible():
            self._name_undo_steps()

    def _name_undo_steps(self) -> None:
        """Undo and Redo say what they would do, as the stack's own actions would: set as
        the Edit menu opens, the one place their text shows. The round bar shows the same
        actions as short buttons, and each change of an action's text had the bar lay
        itself out again and repaint its buttons, on every click of the fight."""
        stack = self.document.undo_stack
        for act, word, text in ((self.undo_action, "&Undo", stack.undoText()),
                                (self.redo_action, "&Redo", stack.redoText())):
            named = f"{word} {text}" if text else word
            if act.text() != named:
                act.setText(named)

    # --- building ----------------------------------------------------------------------
    def build_body(self) -> None:
        """The widgets, tool bars and docks, wired, in the layout the GM left (once)."""
        if self._body_built:
            return
        self._body_built = True
        self._build_actions_and_menus()
        for act, keys, tip in self._shortcuts:
            if keys:
                act.setShortcuts(keys)
            _set_tip(act, tip)
        self._fill_recent_menu()
        self._build_widgets()
        self._build_bars()
        self._connect_signals()
        self.restore_docks()

    def _build_widgets(self) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QSplitter, QVBoxLayout

        from .cards import CardsView
        from .decision import DecisionPanel
        from .dice_bar import DiceBar
        from .log_view import LogView
        from .models import FightersModel, LogModel, StackModel
        from .roll_panel import RollPanel
        from .status_label import StatusLabel
        from .timeline import TimelineView

        self.fighters_model = FightersModel(self)
        self.log_model = LogModel(self)
        self.stack_model = StackModel(self)

        self.timeline = TimelineView()
        self.cards = CardsView()
        self.cards.set_model(self.fighters_model)
        self.decision_panel = DecisionPanel()
        self.roll_panel = RollPanel()
        self.state_label = StatusLabel("No fight open")
        self.state_label.setObjectName("stateLabel")
        font = self.state_label.font()
        font.setBold(True)
        self.state_label.setFont(font)

        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.setSpacing(4)
        lower_layout.addWidget(self.decision_panel)
        lower_layout.addWidget(self.roll_panel)
        lower_layout.addWidget(self.cards, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.timeline)
        self.splitter.addWidget(lower)
        # The timeline keeps the height of its lanes (_fit_timeline_height); a taller or
        # shorter window changes the cards' share.
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)

        self.log_view = LogView()
        self.log_view.set_model(self.log_model)
        self.dice_bar = DiceBar()
        self._action_dialog: ActionDialog | None = None
        self._stack_dialog: InterruptStackDialog | None = None
        self._stack_decision: DecisionPanel | None = None
        self.player_view: PlayerView | None = None
        self._fight_was_shown = False
        # The turn timer: which turn it runs on (chip id, turn number) and since when.
        self.turn_clock = QTimer(self)
        self.turn_clock.setInterval(250)
        self.turn_clock.timeout.connect(self._tick_turn_timer)
        self._timed: tuple[str, int] | None = None
        self._timed_since = 0.0
        self._timed_out: int | None = None
        # Fighters dragged from the library dock are dropped anywhere on the window.
        self.setAcceptDrops(True)

    def _build_actions(self) -> None:
        # Shortcuts, and the tips that name them, are set with the body (build_body): the
        # first shortcut makes PySide6 set up Qt's whole ``Qt`` namespace, 11 ms that the
        # first paint of the frame need not wait for.
        self._shortcuts: list[tuple[QAction, list[QKeySequence], str]] = []

        def action(text: str, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                   tip: str = "") -> QAction:
            act = QAction(text, self)
            keys = [QKeySequence(shortcut)] if shortcut is not None else []
            self._shortcuts.append((act, keys, tip or text.replace("&", "").rstrip(".")))
            return act

        self.new_action = action("&New Fight...", QKeySequence.StandardKey.New, "Start a new fight")
        self.open_action = action("&Open...", QKeySequence.StandardKey.Open, "Open a saved fight")
        self.save_action = action("&Save", QKeySequence.StandardKey.Save, "Save the fight")
        self.save_as_action = action("Save &As...", "Ctrl+Shift+S", "Save the fight under a new name")
        self.quit_action = action("&Quit", QKeySequence.StandardKey.Quit, "Quit fightdesk")
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        # Undo/redo follow the engine's history through the document's QUndoStack; they
        # work while a long fight's history is still being read (the document reads the
        # rest first), so they are the document's, not the stack's own actions.
        self.undo_action = action("&Undo", "Ctrl+Z", "Undo the last step")
        self.redo_action = action("&Redo", None, "Redo the step you undid")
        self._shortcuts[-1] = (self.redo_action, [QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")],
                               "Redo the step you undid")
        self.undo_action.triggered.connect(self.document.undo)
        self.redo_action.triggered.connect(self.document.redo)
        stack = self.document.undo_stack
        for signal in (stack.canUndoChanged, stack.canRedoChanged, stack.undoTextChanged,
                       stack.redoTextChanged):
            signal.connect(self._follow_undo_stack)
        self._follow_undo_stack()
        # The menu says what will be undone; the toolbar button stays short.
        self.undo_action.setIconText("Undo")
        self.redo_action.setIconText("Redo")

        # The one way forward: what the fight needs next (start, roll, act, next phase);
        # its text follows the fight (_show_forward), the tool bar's button stays put.
        self.forward_action = action("&Go On", "F4", "Do what the fight needs next")
        self.pass_action = action("&Pass", "Shift+F4",
                                  "Pass: the fighter whose turn it is lets it go")
        self.pass_action.setIconText("Pass")
        self.start_fight_action = action("Start &Fight", "Shift+F5", "Start the fight (before round 1)")
        self.start_round_action = action("Start &Round", "F5", "Start the next round")
        self.next_step_action = action("&Next Phase", "F6", "Go on to the next phase or turn")
        self.end_round_action = action("&End Round", "F8", "End the round (end-of-round steps)")
        self.act_action = action("&Act...", "F2", "Act with the fighter whose turn it is")
        self.health_action = action("Damage / &Heal...", "Ctrl+H",
                                    "Damage or heal the selected fighter (-3, +2)")
        self.quick_add_action = action("&Quick Add Fighter...", "Ctrl+Shift+A",
                                       "Put a fighter into this fight only: name, side, health")
        self.rename_action = action("Re&name Fight...", "Ctrl+Shift+N", "Give this fight a name")
        self.keep_fighter_action = action("Save Fighter to &Campaign",
                                          tip="Keep the selected fighter in the campaign library")
        self.stack_action = action("Interrupt &Stack...", "Ctrl+K", "Show the interrupt stack")
        self.dice_action = action("Free &Dice Roll", "Ctrl+D", "Type a free roll in the dice bar")
        self.options_action = action("Ruleset &Options...", "Ctrl+Shift+O",
                                     "Change this fight's ruleset options")
        self.tables_action = action("Roll &Tables...", "Ctrl+T",
                                    "Edit and roll this fight's roll tables")
        self.player_view_action = action("&Player View", "Ctrl+Shift+V",
                                         "Show the players' window (for a second screen)")
        self.player_view_action.setCheckable(True)
        self.blank_player_action = action("&Blank Player View", "Ctrl+Shift+B",
                                          "Blank the players' window, or bring it back")
        self.blank_player_action.setCheckable(True)
        self.blank_player_action.setEnabled(False)
        self.enemy_health_actions: dict[str, QAction] = {}
        for show, text in (("exact", "&Exact numbers"), ("bar", "A &bar, no numbers"),
                           ("word", "A &word (hurt, bloodied...)"), ("hidden", "&Hidden")):
            act = QAction(text, self)
            act.setCheckable(True)
            act.setStatusTip("How the player view shows the enemies' health in this fight")
            self.enemy_health_actions[show] = act
        self.simulate_action = action("Si&mulate...", "Ctrl+Shift+M",
                                      "Play this fight many times from here: who wins, how often")
        self.round_actions = (self.start_fight_action, self.start_round_action,
                              self.next_step_action, self.end_round_action)
        for act in (*self.round_actions, self.forward_action, self.pass_action, self.act_action,
                    self.stack_action):
            act.setEnabled(False)
        self._forward: tuple[str, str] = ("", "")  # (what, fighter id) the forward action does
        self._round_going = False
        self._end_round_box: QMessageBox | None = None

    def _build_menu_titles(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.edit_menu = bar.addMenu("&Edit")
        self.fight_menu = bar.addMenu("F&ight")
        self.view_menu = bar.addMenu("&View")

    def _build_actions_and_menus(self) -> None:
        if not self._actions_built:
            self._actions_built = True
            self._build_actions()
            self._build_menus()

    def _build_menus(self) -> None:
        self.file_menu.addAction(self.new_action)
        self.file_menu.addAction(self.open_action)
        self.recent_menu = QMenu("Open &Recent", self)
        self.file_menu.addMenu(self.recent_menu)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.save_action)
        self.file_menu.addAction(self.save_as_action)
        # Print and export items go between this separator and Quit (add_printing).
        self.file_export_separator = self.file_menu.addSeparator()
        self._quit_separator = self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)

        self.edit_menu.aboutToShow.connect(self._name_undo_steps)
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addAction(self.redo_action)

        self.fight_menu.addAction(self.forward_action)
        self.fight_menu.addAction(self.pass_action)
        self.fight_menu.addSeparator()
        for act in self.round_actions:
            self.fight_menu.addAction(act)
        self.fight_menu.addSeparator()
        self.fight_menu.addAction(self.act_action)
        self.fight_menu.addAction(self.health_action)
        self.fight_menu.addAction(self.quick_add_action)
        self.fight_menu.addAction(self.keep_fighter_action)
        self.fight_menu.addAction(self.stack_action)
        self.fight_menu.addAction(self.dice_action)
        self.fight_menu.addSeparator()
        self.fight_menu.addAction(self.rename_action)
        self.fight_menu.addAction(self.options_action)
        self.fight_menu.addAction(self.tables_action)
        self.fight_menu.addSeparator()
        self.fight_menu.addAction(self.simulate_action)

        health_menu = self.fight_menu.addMenu("&Enemy Health for the Players")
        for act in self.enemy_health_actions.values():
            health_menu.addAction(act)
        self.view_menu.addAction(self.player_view_action)
        self.view_menu.addAction(self.blank_player_action)
        self.view_menu.addSeparator()
        # Filled with the body: the files' tips would build Qt's whole ``Qt`` namespace
        # before the frame's first paint (plain_tip).
        self.recent_menu.setEnabled(False)

    def _build_bars(self) -> None:
        from PySide6.QtCore import Qt

        from .tool_buttons import keep_bar_lean

        self.round_bar = QToolBar("Round")
        self.round_bar.setObjectName("RoundBar")
        self.round_bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        # The one forward button first, at a fixed width, so nothing moves as its text
        # changes; then Pass and End Round, Undo and Redo; then, where the GM looks, the
        # round and phase or turn in large type and what the fight waits for.
        self.forward_button = QPushButton("Start the fight")
        self.forward_button.setObjectName("forwardButton")
        self.forward_button.setDefault(True)
        self.forward_button.setFixedWidth(self.forward_button.fontMetrics().averageCharWidth() * 26 + 24)
        self.forward_button.clicked.connect(self.forward_action.trigger)
        self.round_bar.addWidget(self.forward_button)
        self.round_bar.addAction(self.pass_action)
        self.round_bar.addAction(self.end_round_action)
        self.round_bar.addSeparator()
        self.round_bar.addAction(self.undo_action)
        self.round_bar.addAction(self.redo_action)
        self.round_bar.addSeparator()
        self.round_title = QLabel("")
        self.round_title.setObjectName("roundTitle")
        self.round_title.setTextFormat(Qt.TextFormat.PlainText)
        big = self.round_title.font()
        big.setBold(True)
        big.setPointSizeF(big.pointSizeF() * 1.5)
        self.round_title.setFont(big)
        self.round_title.setContentsMargins(6, 0, 10, 0)
        self.round_bar.addWidget(self.round_title)
        self.round_bar.addWidget(self.state_label)
        keep_bar_lean(self.round_bar)  # its Undo and Redo change with every step
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.round_bar)
        self.dice_toolbar = QToolBar("Dice")
        self.dice_toolbar.setObjectName("DiceBar")
        self.dice_toolbar.addWidget(self.dice_bar)
        self.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self.dice_toolbar)
        self.log_dock = self.add_dock(self.log_view, Qt.DockWidgetArea.RightDockWidgetArea, "Log")
        self.log_dock.toggleViewAction().setShortcut(QKeySequence("Ctrl+L"))
        self.view_menu.addAction(self.round_bar.toggleViewAction())
        self.view_menu.addAction(self.dice_toolbar.toggleViewAction())
        self.resizeDocks([self.log_dock], [330], Qt.Orientation.Horizontal)

    def add_printing(self) -> SummaryPrinting:
        """File > Print / Print Preview / Export Summary (once; Qt's print support loads here)."""
        if self.summary_printing is not None:
            return self.summary_printing
        from .printing import SummaryPrinting

        # Greyed out until _follow_printing looks (that would read a pending history now).
        printing = SummaryPrinting(self, lambda: None)
        printing.session = self._current_session
        self.summary_printing = printing
        self.file_menu.insertActions(self._quit_separator, printing.actions())
        self.document.replaced.connect(self._follow_printing)
        self.document.changed.connect(printing.update_enabled)
        self._follow_printing()
        return printing

    def _follow_printing(self) -> None:
        """Printing is there once something is logged. While a history is still being
        read its items go by what the file holds (looking would read it all now); used
        then, they read the rest first (``_current_session``)."""
        printing = self.summary_printing
        if printing is None:
            return
        engine = self.document.engine
        pending = engine.pending_history if engine is not None else None
        if pending is not None:
            for act in printing.actions():
                act.setEnabled(pending.has_log)
        else:
            printing.update_enabled()

    def _connect_signals(self) -> None:
        """Every signal between the document, the widgets and the window, in one place."""
        doc = self.document
        doc.replaced.connect(self._engine_replaced)
        doc.changed.connect(self._engine_changed)
        doc.pathChanged.connect(self._update_title)
        doc.undo_stack.cleanChanged.connect(self._update_title)
        doc.refused.connect(self._show_refusal)
        doc.historyArrived.connect(self._history_arrived)
        doc.replaced.connect(self._follow_undo_stack)

        self.new_action.triggered.connect(self.new_fight)
        self.open_action.triggered.connect(self._ask_open)
        self.save_action.triggered.connect(self.save)
        self.save_as_action.triggered.connect(self.save_as)
        self.quit_action.triggered.connect(self.close)

        self.forward_action.triggered.connect(self._go_forward)
        self.pass_action.triggered.connect(lambda: self._round_command("next-step"))
        self.start_fight_action.triggered.connect(lambda: self._round_command("start-fight"))
        self.start_round_action.triggered.connect(lambda: self._round_command("start-round"))
        self.next_step_action.triggered.connect(lambda: self._round_command("next-step"))
        self.end_round_action.triggered.connect(lambda: self._round_command("end-round"))
        self.act_action.triggered.connect(self._act_with_current)
        self.health_action.triggered.connect(self._health_of_selected)
        self.quick_add_action.triggered.connect(self.quick_add)
        self.rename_action.triggered.connect(self.rename_fight)
        self.keep_fighter_action.triggered.connect(self.keep_in_campaign)
        self.stack_action.triggered.connect(self._open_stack_dialog)
        self.dice_action.triggered.connect(self._focus_dice)
        self.options_action.triggered.connect(self._edit_options)
        self.tables_action.triggered.connect(self._edit_tables)
        self.simulate_action.triggered.connect(self._simulate)

        self.player_view_action.toggled.connect(self._toggle_player_view)
        self.blank_player_action.toggled.connect(self._blank_player_view)
        for show, act in self.enemy_health_actions.items():
            act.triggered.connect(lambda _=False, s=show: self._set_enemy_health(s))
        self.timeline.chipClicked.connect(self._chip_clicked)
        self.timeline.laneMoved.connect(self._move_turn)
        self.cards.requested.connect(self._card_request)
        self.cards.conditionRemoveRequested.connect(self._remove_condition)
        self.decision_panel.answered.connect(self._answer)
        self.decision_panel.answeredValues.connect(self._answer_values)
        self.roll_panel.contributeRequested.connect(self._contribute)
        self.roll_panel.withdrawRequested.connect(self._withdraw)
        self.roll_panel.rollRequested.connect(self._make_roll)
        from .share_dialog import ShareController  # Fight > Share With Players...

        self.share = ShareController(self, doc, self.roll_panel)
        self.fight_menu.addAction(self.share.action)
        self.statusBar().addPermanentWidget(self.share.status)
        self.log_view.revertRequested.connect(self._revert_to)
        self.dice_bar.rollRequested.connect(self._free_roll)

    # --- docks (the library panel and others add theirs here) ----------------------------
    def add_dock(self, widget: QWidget, area: Qt.DockWidgetArea, title: str = "") -> QDockWidget:
        """Put ``widget`` in a dock with a View-menu toggle; its layout is remembered."""
        from PySide6.QtWidgets import QDockWidget

        dock = QDockWidget(title or widget.windowTitle(), self)
        dock.setObjectName(f"{widget.objectName() or type(widget).__name__}Dock")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.view_menu.addAction(dock.toggleViewAction())
        return dock

    # --- the session -------------------------------------------------------------------------
    def show_session(self, engine: Engine, path: Path | None) -> None:
        """Display ``engine``'s fight; ``path`` is its file (None for a fight never saved)."""
        self.build_body()
        self.document.set_engine(engine, path)
        if path is not None:
            self._remember(path)
        if engine.pending_history is not None:
            # The fight first; its history a slice at a time once the fight is painted.
            from .paint_watch import after_next_paint

            after_next_paint(self, self.document.load_history_in_background)

    def open_file(self, path: Path) -> bool:
        """Load and show a session file; a bad file gets a dialog and changes nothing.
        A long fight shows at once and its history follows (storage/history.py)."""
        from fightdesk.engine.engine import Engine
        from fightdesk.storage.files import FileProblem
        from fightdesk.storage.history import open_live_first
        from fightdesk.storage.trust import HistoryProblem

        path = Path(path)
        try:
            session, history = open_live_first(path)
        except HistoryProblem as problem:
            return self._open_without_history(problem)
        except FileProblem as problem:
            warn(self, "Cannot open this file", _problem_text(problem))
            return False
        self.show_session(Engine(session, history=history), path)
        return True

    def _history_arrived(self) -> None:
        """A long fight's history is in: the log view fills, Undo reaches back; or it
        could not be read, and the GM is told the fight goes on without it."""
        from PySide6.QtWidgets import QMessageBox

        engine = self.document.engine
        self.log_model.set_engine(engine)
        self.log_view.set_loading(False)
        self.log_view.tree.scrollToBottom()  # the latest actions, as the log follows play
        self._follow_undo_stack()
        if self.summary_printing is not None:
            self.summary_printing.update_enabled()
        problem = self.document.history_problem
        if problem is not None:
            from PySide6.QtCore import Qt

            self.log_view.set_loading(False, "The history could not be read: this fight "
                                      "starts its log from here.")
            self.statusBar().showMessage("The fight's history could not be read: see the "
                                         "message; the fight goes on without it", 0)
            # Not modal: this may come in the middle of the GM's click, and play goes on.
            box = message_box(
                self, QMessageBox.Icon.Warning, "The fight's history cannot be read",
                f"{problem}\n\nThe fight is shown as it is now, without its history: "
                "nothing to undo, a new log. The file is not changed; saving asks for a "
                "new name.")
            box.setObjectName("HistoryProblem")
            box.setWindowModality(Qt.WindowModality.NonModal)
            box.show()
            self.history_box = box

    def _open_without_history(self, problem: HistoryProblem) -> bool:
        """The file's log does not lead to its fight: offer the fight as it is now, with
        nothing to undo. It opens as a new, unsaved fight, so the file stays as it is."""
        from PySide6.QtWidgets import QMessageBox

        from fightdesk.engine.engine import Engine

        box = message_box(
            self, QMessageBox.Icon.Warning, "Cannot open this file", _problem_text(problem),
            "The fight itself is sound. Open it as it is now, without its history (no "
            "undo, a new log)? The file is not changed; saving asks for a new name.",
            QMessageBox.StandardButton.Cancel)
        box.setObjectName("OpenWithoutHistory")
        opened = box.addButton("Open without its history", QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is not opened:
            return False
        self.show_session(Engine(problem.without_history()), None)
        self.document.undo_stack.resetClean()  # unsaved: the GM's file holds the old one
        return True

    def save(self) -> bool:
        if self.document.engine is None:
            return False
        # A history still being read is read now; one that cannot be read leaves the
        # fight without a file, so Save asks for a new name (the old file stays).
        self.document.complete_history()
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog

        if self.document.engine is None:
            return False
        start = str(self.document.path or Path.home() / f"{self.document.engine.encounter.name}.json")
        name, _ = QFileDialog.getSaveFileName(self, "Save Fight As", start, FILE_FILTER)
        if not name:
            return False
        return self._save_to(Path(name))

    def _save_to(self, path: Path) -> bool:
        from fightdesk.storage.files import FileProblem
        from fightdesk.storage.sessions import save_session

        assert self.document.engine is not None
        self.document.complete_history()
        try:
            save_session(self.document.engine.session, path)
        except FileProblem as problem:
            warn(self, "Cannot save", _problem_text(problem))
            return False
        self.document.set_path(path)
        self.document.mark_saved()
        self._remember(path)
        return True

    def new_fight(self) -> None:
        """Start an empty fight under a ruleset the GM chooses."""
        from fightdesk.engine.engine import Engine
        from fightdesk.engine.model import Session, new_encounter

        from .ruleset_choice import ask_ruleset

        if not self._may_discard():
            return
        engine = self.document.engine
        ruleset_id = ask_ruleset(self, "New Fight", "Which rules does this fight use?",
                                 engine.encounter.ruleset if engine is not None else None)
        if ruleset_id is None:
            return
        self.show_session(Engine(Session.begin(new_encounter(ruleset_id))), None)

    # --- slots ------------------------------------------------------------------------------
    def _ask_open(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        if not self._may_discard():
            return
        start = str(self.document.path.parent if self.document.path else Path.home())
        name, _ = QFileDialog.getOpenFileName(self, "Open Fight", start, FILE_FILTER)
        if name:
            self.open_file(Path(name))

    def _open_recent(self, path: Path) -> None:
        if self._may_discard():
            self.open_file(path)

    def _current_session(self) -> Session | None:
        """The fight on screen, for File > Print and Export Summary (with its whole
        history: one still being read is read now)."""
        engine = self.document.engine
        return engine.session if engine is not None else None

    # --- keeping the views in step with the engine -----------------------------------------
    def _engine_replaced(self) -> None:
        engine = self.document.engine
        for model in (self.fighters_model, self.log_model, self.stack_model):
            model.set_engine(engine)
        # A long fight's history is read after the fight is shown: the log says so.
        self.log_view.set_loading(engine is not None and engine.pending_history is not None)
        if self._fight_was_shown:
            # The last fight's message says nothing of this one (at start-up, a word on
            # the autosave or the library stays).
            self.statusBar().clearMessage()
        self._fight_was_shown = engine is not None
        if engine is not None:
            ruleset = engine.ruleset
            self.cards.set_roles(tuple((role, ruleset.role_labels.get(role, role.title()))
                                       for role in ruleset.card_roles))
        self._show_views()
        if (engine is not None and self.library_after_first_fight and self.library_panel is None
                and not self._library_scheduled):
            self._library_scheduled = True
            QTimer.singleShot(0, self, self.add_library_panel)

    # --- the campaign library -------------------------------------------------------------------
    def add_library_panel(self, library: object | None = None) -> LibraryPanel:
        """Build the campaign library dock (once); ``library`` is a storage ``Library``
        (the GM's data folder by default)."""
        from PySide6.QtCore import QByteArray
        from PySide6.QtWidgets import QDockWidget

        if self.library_panel is not None:
            return self.library_panel
        from PySide6.QtCore import Qt

        from .library_panel import LibraryPanel

        panel = LibraryPanel(library, self)  # type: ignore[arg-type]
        self.library_panel = panel
        dock = QDockWidget("Campaign library", self)
        dock.setObjectName("LibraryPanelDock")
        dock.setWidget(panel)
        # Put it back where the GM left it: Qt restores a dock made after restoreState()
        # instead of adding it (adding first would leave it hidden).
        state = getattr(self, "_saved_state", None)
        saved = isinstance(state, QByteArray) and not state.isEmpty()
        if not (saved and self.restoreDockWidget(dock)):
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
            self.resizeDocks([dock], [380], Qt.Orientation.Horizontal)
        toggle = dock.toggleViewAction()
        toggle.setShortcut(QKeySequence("Ctrl+Shift+L"))
        _set_tip(toggle, "Show or hide the campaign library")
        self.view_menu.addAction(toggle)
        self.library_dock = dock
        # During a round the library gives its room to the timeline and the cards, and
        # comes back between rounds; the GM may turn that off (remembered).
        self.library_in_rounds_action = QAction("Hide Library During &Rounds", self)
        self.library_in_rounds_action.setCheckable(True)
        self.library_in_rounds_action.setChecked(
            bool(settings.app_settings().value("view/hide_library_in_rounds", True, type=bool)))
        self.library_in_rounds_action.toggled.connect(self._library_in_rounds_changed)
        self.view_menu.addAction(self.library_in_rounds_action)
        self._library_auto_hidden = False
        self._show_views(auto_open=False)
        panel.addToEncounter.connect(self._add_from_library)
        panel.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        panel.set_encounter_source(
            lambda: self.document.engine.encounter if self.document.engine else None)
        return panel

    def _library_in_rounds_changed(self, hide: bool) -> None:
        store = settings.app_settings()
        store.setValue("view/hide_library_in_rounds", hide)
        store.sync()
        self._follow_round_with_library(self._round_going)

    def _follow_round_with_library(self, going: bool) -> None:
        """Hide the library dock while a round is going (if the GM wants that), and
        bring it back after the round if it was this that hid it."""
        dock = self.library_dock
        if dock is None or dock.isFloating():
            return
        hide = self.library_in_rounds_action.isChecked()
        if going and hide and dock.isVisible():
            dock.hide()
            self._library_auto_hidden = True
        elif (not going or not hide) and self._library_auto_hidden:
            self._library_auto_hidden = False
            dock.show()

    def _add_from_library(self, command: Command) -> None:
        """Fighters from the library join the fight through the engine, like any action."""
        if self.document.engine is None:
            self.statusBar().showMessage("Open or start a fight first", 8000)
            return
        self._apply(command)

    def _library_drag(self, event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> bool:
        from fightdesk.storage.library import FIGHTER_MIME

        if not event.mimeData().hasFormat(FIGHTER_MIME) or self.document.engine is None:
            return False
        dock = self.library_dock
        # Dropping back onto the library itself adds nothing.
        if dock is not None and dock.isVisible():
            where = dock.mapFrom(self, event.position().toPoint())
            if dock.rect().contains(where):
                return False
        return True

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._library_drag(event):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if self._library_drag(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        from fightdesk.storage.library import FIGHTER_MIME, LibraryError, commands_from_drag

        if not self._library_drag(event):
            event.ignore()
            return
        try:
            commands = commands_from_drag(bytes(event.mimeData().data(FIGHTER_MIME).data()))
        except LibraryError as exc:
            self._show_refusal(str(exc))
            event.ignore()
            return
        event.acceptProposedAction()
        for command in commands:
            if not self._apply(command):
                break

    def _engine_changed(self, notice: Notice) -> None:
        self.fighters_model.refresh(notice)
        self.log_model.refresh(notice)
        self.stack_model.refresh(notice)
        self._show_views()

    def _show_views(self, auto_open: bool = True) -> None:
        """What is not an item model: timeline, decision, round controls, status line.
        A stack that appears opens its dialog (``auto_open``)."""
        engine = self.document.engine
        if engine is None:
            return
        enc = engine.encounter
        ruleset = engine.ruleset
        self.timeline.set_timeline(ruleset.timeline(enc))
        self._fit_timeline_height()
        decision = engine.pending()
        stack_open = self._stack_dialog is not None and self._stack_dialog.isVisible()
        self.roll_panel.show_roll(ruleset.roll_view(enc))
        for show, act in self.enemy_health_actions.items():
            act.setChecked(show == enc.enemy_health)
        if self.player_view is not None and self.player_view.isVisible():
            from fightdesk.engine.player_view import public_fight

            self.player_view.show_fight(public_fight(ruleset, enc))
        self._follow_turn_timer(ruleset, enc)
        controls = ruleset.round_controls(enc)
        # Nobody to fight: nothing to start (whatever the ruleset would allow).
        anyone = bool(enc.order)
        self._show_round_buttons(controls.can_start_fight and anyone,
                                 controls.can_start_round and anyone,
                                 controls.can_next_step and anyone, controls.can_end_round,
                                 controls.next_step_label)
        self._show_forward(engine, controls)
        # A round is going: started and not yet over (nothing to start right now).
        self._round_going = enc.round > 0 and not (controls.can_start_round
                                                   or controls.can_start_fight)
        if self.library_dock is not None:
            self._follow_round_with_library(self._round_going)
        self.act_action.setEnabled(bool(enc.order) and ruleset.rules_built)
        self.health_action.setEnabled(bool(enc.order))
        self.keep_fighter_action.setEnabled(bool(enc.order))
        has_stack = self.stack_model.rowCount() > 0
        self.stack_action.setEnabled(has_stack)
        from fightdesk.engine.views import status_line

        state = ruleset.describe_state(enc)
        self._show_round_title(state, status_line(state, controls))
        self.cards.set_empty_hint("" if anyone else NO_FIGHTERS_HINT)
        self._show_stack(ruleset, decision, controls, state)
        if (auto_open and has_stack and self._action_dialog is None and not stack_open
                and controls.extra.get("open-stack-dialog", True)):
            self._open_stack_dialog()

    def _show_round_buttons(self, start_fight: bool, start_round: bool, next_step: bool,
                            end_round: bool, next_step_label: str) -> None:
        self.start_fight_action.setEnabled(start_fight)
        self.start_round_action.setEnabled(start_round)
        self.next_step_action.setEnabled(next_step)
        self.end_round_action.setEnabled(end_round)
        if self.next_step_action.text() != next_step_label:
            self.next_step_action.setText(next_step_label)
            _set_tip(self.next_step_action, next_step_label)

    def _show_round_title(self, state: str, status: str) -> None:
        """The round and phase or turn in large type; the small line beside the buttons
        says what the fight waits for."""
        self.round_title.setText(state)
        if self.round_title.toolTip() != state:  # each set sends the label an event
            self.round_title.setToolTip(state)
        self.state_label.setText(status)

    def show_picture(self, picture: FightPicture) -> None:
        """The fight as the window last showed it (engine/views.py), painted while the
        rules load at start-up (app.py); ``show_session`` then puts the live fight in its
        place. What the picture does not hold (the log, an open question, a roll) comes
        with the live fight."""
        self.build_body()
        self.fighters_model.show_picture(
            picture.cards, {fid: (group, name) for fid, group, name in picture.groups})
        self.cards.set_roles(picture.card_roles)
        self.cards.set_empty_hint("" if picture.cards else NO_FIGHTERS_HINT)
        self.timeline.set_timeline(picture.timeline)
        self._fit_timeline_height()
        self._show_round_buttons(picture.can_start_fight, picture.can_start_round,
                                 picture.can_next_step, picture.can_end_round,
                                 picture.next_step_label)
        self._show_forward_button(picture.forward)
        self.undo_action.setEnabled(picture.can_undo)
        self.redo_action.setEnabled(picture.can_redo)
        self._show_round_title(picture.state, picture.status)
        self.setWindowTitle(f"{picture.title}[*] - fightdesk")
        self.setWindowModified(picture.unsaved)

    def _show_stack(self, ruleset: Ruleset, decision: Decision | None, controls: RoundControls,
                    state: str) -> None:
        """The open question where the GM answers it (in the stack dialog while that is
        open, else in the window's panel) and the stack dialog's buttons and line."""
        stack_open = self._stack_dialog is not None and self._stack_dialog.isVisible()
        self.decision_panel.show_decision(None if stack_open else decision)
        if self._stack_decision is not None:
            self._stack_decision.show_decision(decision if stack_open else None)
        if self._stack_dialog is not None:
            has_stack = self.stack_model.rowCount() > 0
            self._stack_dialog.set_reaction_word(ruleset.role_labels.get("react", "React"))
            self._stack_dialog.set_controls(
                can_resolve=controls.extra.get("resolve-next", has_stack),
                can_cancel=controls.extra.get("cancel-stack", has_stack),
                can_add=controls.extra.get("interrupt", has_stack),
                can_close=controls.extra.get("close-stack", False),
                status=state,
            )

    # --- the GM's actions ----------------------------------------------------------------------
    def _apply(self, command: Command) -> bool:
        outcome = self.document.apply(command)
        if outcome.ok:
            self.statusBar().showMessage(outcome.text, 8000)
        return outcome.ok

    def _round_command(self, kind: str) -> None:
        from fightdesk.engine import commands as c

        engine = self.document.engine
        if kind == "end-round" and engine is not None:
            loses = engine.ruleset.round_controls(engine.encounter).end_round_loses
            if loses:
                self._ask_end_round(loses)
                return
        made = {"start-fight": c.StartFight, "start-round": c.StartRound,
                "next-step": c.NextStep, "end-round": c.EndRound}[kind]
        self._apply(made())

    def _ask_end_round(self, loses: str) -> QMessageBox:
        """End Round would throw something away (dice of phases still to come): say what,
        and end it only if the GM says so. "Keep playing" is the default."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Question, "End the round?", "", parent=self)
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
            self._end_round_box = None
            if box.clickedButton() is end:
                from fightdesk.engine.commands import EndRound

                self._apply(EndRound())

        box.finished.connect(done)
        self._end_round_box = box
        box.open()
        return box

    # --- the one way forward ---------------------------------------------------------------
    def _show_forward(self, engine: Engine, controls: object) -> None:
        """The forward action's text and what it does, from the ruleset's round controls
        (engine/views.py ``forward_of``). Passing a turn is the separate Pass action."""
        from fightdesk.engine.ruleset import RoundControls
        from fightdesk.engine.views import forward_of

        assert isinstance(controls, RoundControls)
        self._show_forward_button(forward_of(
            engine.encounter, controls, pending=engine.pending() is not None,
            rolling=self.roll_panel.view() is not None, fallback=self.forward_action.text()))

    def _show_forward_button(self, forward: Forward) -> None:
        label = forward.label
        self._forward = (forward.what, forward.fighter)
        self.forward_action.setEnabled(bool(forward.what))
        self.forward_button.setEnabled(bool(forward.what))
        if self.forward_action.text() != label:
            self.forward_action.setText(label.replace("&", "&&"))
        metrics = self.forward_button.fontMetrics()
        from PySide6.QtCore import Qt

        shown = metrics.elidedText(label, Qt.TextElideMode.ElideRight,
                                   self.forward_button.width() - 20)
        self.forward_button.setText(shown.replace("&", "&&"))
        if self.forward_button.toolTip() != f"{label} (F4)":
            self.forward_button.setToolTip(f"{label} (F4)")
        self.pass_action.setEnabled(forward.can_pass)
        if self.pass_action.text() != forward.pass_text:
            self.pass_action.setText(forward.pass_text.replace("&", "&&"))
            self.pass_action.setIconText("Pass")
            _set_tip(self.pass_action, f"{forward.pass_text}: the turn goes by unused")

    def _go_forward(self) -> None:
        what, fighter = self._forward
        if what == "act":
            self.open_action_dialog(fighter, role="act")
        elif what:
            self._round_command(what)

    def _free_roll(self, notation: str) -> None:
        from fightdesk.engine.commands import FreeRoll

        outcome = self.document.engine.apply(FreeRoll(notation=notation)) if self.document.engine else None
        if outcome is None:
            return
        if not outcome.ok or outcome.entry is None:
            self.dice_bar.show_result(False, outcome.text)
            return
        from fightdesk.engine.notation import parse

        rolls = [e.roll for e in outcome.entry.events if e.roll is not None]
        target = parse(notation).target
        self.dice_bar.show_result(True, outcome.text,
                                  [(r.sides, list(r.faces)) for r in rolls], target)

    def _focus_dice(self) -> None:
        self.dice_toolbar.show()
        self.dice_bar.edit.setFocus()
        self.dice_bar.edit.selectAll()

    def _answer(self, decision_id: str, choice: str, amount: int, dice: list[list[int]]) -> None:
        from fightdesk.engine.commands import Answer

        from .decision import DecisionPanel

        if self.document.engine is None:
            return
        command = Answer(decision_id=decision_id, choice=choice or None,
                         amount=None if amount < 0 else amount, dice=dice)
        outcome = self.document.engine.apply(command)
        sender = self.sender()
        panel = sender if isinstance(sender, DecisionPanel) else self.decision_panel
        if not outcome.ok:
            panel.show_refusal(outcome.error or "")
        else:
            self.statusBar().showMessage(outcome.text, 8000)

    def _answer_values(self, decision_id: str, values: dict, by: str) -> None:
        """A decision with fields answered at once (a player's typed roll per row)."""
        from fightdesk.engine.commands import Answer

        from .decision import DecisionPanel

        if self.document.engine is None:
            return
        outcome = self.document.apply(
            Answer(decision_id=decision_id, values=values, by=by))
        sender = self.sender()
        panel = sender if isinstance(sender, DecisionPanel) else self.decision_panel
        if not outcome.ok:
            panel.show_refusal(outcome.error or "")

    # --- the turn order and the waiting roll ---------------------------------------------------
    def _move_turn(self, slot_id: str, section: str, index: int) -> None:
        """A lane dragged on the timeline: the ruleset says whether it may go there."""
        from fightdesk.engine.commands import MoveTurn

        if self.document.engine is None:
            return
        outcome = self.document.apply(
            MoveTurn(slot_id=slot_id, section=section, index=index))
        if not outcome.ok:  # the document's refusal line says why, prefixed here
            self.statusBar().showMessage(f"Not moved: {outcome.error}", 10000)

    def _contribute(self, roll_id: int, fighter_id: str, kind: str, amount: int) -> None:
        from fightdesk.engine.commands import Contribute

        self._roll_command(Contribute(roll_id=roll_id, fighter_id=fighter_id or None,
                                      contribution=kind, amount=amount))

    def _withdraw(self, roll_id: int, contribution_id: int) -> None:
        from fightdesk.engine.commands import Withdraw

        self._roll_command(Withdraw(roll_id=roll_id, contribution_id=contribution_id))

    def _make_roll(self, roll_id: int, dice: list) -> None:
        from fightdesk.engine.commands import MakeRoll

        self._roll_command(MakeRoll(roll_id=roll_id, dice=dice))

    def _roll_command(self, command: Command) -> None:
        if self.document.engine is None:
            return
        outcome = self.document.apply(command)
        self.roll_panel.show_refusal(None if outcome.ok else outcome.error)

    def _follow_turn_timer(self, ruleset: Ruleset, enc: Encounter) -> None:
        """Start, restart or stop the countdown as the turns change."""
        seconds = ruleset.turn_timer(enc)
        timed = ruleset.timed_turn(enc) if seconds > 0 else None
        if timed is None:
            self._timed = None
            self.turn_clock.stop()
            self.timeline.set_countdown(None)
            return
        if timed != self._timed:
            self._timed = timed
            self._timed_since = self.clock()
            self._timed_out = None
        if not self.turn_clock.isActive():
            self.turn_clock.start()
        self._tick_turn_timer()

    def clock(self) -> float:
        """Seconds on a steady clock (a test sets the time it wants)."""
        import time

        return time.monotonic()

    def _tick_turn_timer(self) -> None:
        engine = self.document.engine
        if engine is None or self._timed is None:
            self.turn_clock.stop()
            return
        seconds = engine.ruleset.turn_timer(engine.encounter)
        left = seconds - (self.clock() - self._timed_since)
        chip_id, number = self._timed
        if left > 0:
            whole = int(left + 0.999)
            self.timeline.set_countdown(chip_id, f"{whole // 60}:{whole % 60:02d}", whole <= 10)
            return
        self.timeline.set_countdown(chip_id, "0:00", True)
        if self._timed_out == number:
            return
        self._timed_out = number
        from fightdesk.engine.commands import TurnTimeout

        outcome = self.document.apply(TurnTimeout(turn_number=number))
        if outcome.ok:
            self.statusBar().showMessage(outcome.text, 10000)

    # --- the player view ---------------------------------------------------------------------------
    def _toggle_player_view(self, on: bool) -> None:
        """View > Player View: the players' window, on the other screen when there is one."""
        from PySide6.QtCore import QByteArray

        if on:
            if self.player_view is None:
                from .player_view import PlayerView

                self.player_view = PlayerView()
            geometry = settings.app_settings().value("player_view/geometry")
            self.player_view.place(self, geometry if isinstance(geometry, QByteArray) else None)
            self.blank_player_action.setEnabled(True)
            self._show_views()
        elif self.player_view is not None:
            settings.app_settings().setValue("player_view/geometry", self.player_view.saveGeometry())
            self.player_view.hide()
            self.blank_player_action.setEnabled(False)

    def _blank_player_view(self, blank: bool) -> None:
        if self.player_view is not None:
            self.player_view.set_blank(blank)

    def _set_enemy_health(self, show: str) -> None:
        from fightdesk.engine.commands import SetEnemyHealth

        engine = self.document.engine
        if engine is not None and engine.encounter.enemy_health != show:
            self._apply(SetEnemyHealth(show=show))
        self._show_views()

    def _revert_to(self, seq: int) -> None:
        if self.document.engine is not None:
            steps = self.document.revert_to(seq)
            if steps:  # 0: refused (the document said why) or nothing to undo
                self.statusBar().showMessage(f"Undid {steps} step(s); Redo brings them back", 8000)

    def _card_request(self, what: str, fighter_id: str) -> None:
        if what in ("act", "react", "assist", "gm"):
            self.open_action_dialog(fighter_id, role=what)
        elif what == "health":
            self._ask_health(fighter_id)
        elif what == "hide":
            from fightdesk.engine.commands import HideFighter

            engine = self.document.engine
            if engine is not None and fighter_id in engine.encounter.fighters:
                hidden = engine.encounter.fighters[fighter_id].hidden
                self._apply(HideFighter(fighter_id=fighter_id, hidden=not hidden))
        elif what == "edit":
            self._edit_fighter(fighter_id)
        elif what == "add-condition":
            self._add_condition(fighter_id)
        elif what == "remove":
            from fightdesk.engine.commands import RemoveFighter

            if self._apply(RemoveFighter(fighter_id=fighter_id)):
                self.statusBar().showMessage(
                    f"{self.document.undo_stack.undoText()} (Ctrl+Z brings them back)", 8000)

    def _chip_clicked(self, fighter_id: str, chip_id: str) -> None:
        self.open_action_dialog(fighter_id, chip_id=chip_id)

    def _act_with_current(self) -> None:
        """F2: the fighter whose card says they are acting, else the first one, on their
        main act form as the card's Act button opens it (a fighter with no action left
        was shown a GM form and its refusal instead of why they cannot act)."""
        engine = self.document.engine
        if engine is None or not engine.encounter.order:
            return
        model = self.fighters_model
        for row in range(model.rowCount()):
            card = model.item(row)
            if card.acting and not card.out:
                self.open_action_dialog(card.fighter_id, role="act")
                return
        self.open_action_dialog(engine.encounter.order[0], role="act")

    def open_action_dialog(self, fighter_id: str, *, role: str = "", chip_id: str = "") -> ActionDialog | None:
        """Open the action dialog for a fighter: the form that uses ``chip_id`` (a mark on
        the timeline) or the first form of ``role`` (act, react...), else the first the
        fighter can use."""
        from PySide6.QtCore import Qt

        from fightdesk.engine.changes import RuleViolation
        from fightdesk.engine.ruleset import Preview

        from .action_dialog import ActionDialog

        engine = self.document.engine
        if engine is None or fighter_id not in engine.encounter.fighters:
            return None
        ruleset = engine.ruleset
        forms = ruleset.action_forms(engine.encounter, fighter_id)
        name = engine.encounter.fighters[fighter_id].name
        if not ruleset.rules_built:
            self.statusBar().showMessage(ruleset.not_built_line, 8000)
            return None
        if not forms:
            self.statusBar().showMessage(f"{name} has nothing to do right now", 8000)
            return None
        form_id, preset = _pick_form(forms, role, chip_id)

        def preview(form: str, values: dict) -> Preview:
            shown = ruleset.preview(engine.encounter, form, fighter_id, values)
            if shown.error is not None:
                return shown
            try:
                command = ruleset.build_command(form, fighter_id, values)
            except RuleViolation as exc:
                return Preview(shown.lines, shown.odds, str(exc))
            check = self.document.check(command)
            return shown if check.ok else Preview(shown.lines, shown.odds, check.error)

        def submit(form: str, values: dict, dice: list[list[int]]) -> tuple[bool, str]:
            try:
                command = ruleset.build_command(form, fighter_id, values)
            except RuleViolation as exc:
                return False, str(exc)
            command.dice = dice
            outcome = engine.apply(command)
            return outcome.ok, outcome.text

        parent = self._stack_dialog if self._stack_dialog is not None and self._stack_dialog.isVisible() else self
        dialog = ActionDialog(name, forms, preview, submit, form_id=form_id, preset=preset, parent=parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(self._action_finished)
        self._action_dialog = dialog
        dialog.open()
        return dialog

    def _action_finished(self, *_: object) -> None:
        dialog = self._action_dialog
        self._action_dialog = None
        if dialog is not None and dialog.done_sentence:
            self.statusBar().showMessage(dialog.done_sentence, 10000)
        self._show_views()

    # --- the interrupt stack --------------------------------------------------------------------
    def _open_stack_dialog(self) -> None:
        from .decision import DecisionPanel
        from .stack_dialog import InterruptStackDialog

        if self._stack_dialog is None:
            dialog = InterruptStackDialog(self.stack_model, self.fighters_model, self)
            self._stack_decision = DecisionPanel()
            dialog.set_decision_widget(self._stack_decision)
            self._stack_decision.answered.connect(self._answer)
            # A question with a row per fighter (initiative typed in) asked while the
            # dialog is open is answered there too.
            self._stack_decision.answeredValues.connect(self._answer_values)
            dialog.addRequested.connect(lambda fid: self.open_action_dialog(fid, role="react"))
            dialog.resolveNextRequested.connect(lambda: self._stack_command("resolve-next"))
            dialog.resolveAllRequested.connect(lambda: self._stack_command("resolve-all"))
            dialog.cancelRequested.connect(lambda: self._stack_command("cancel-stack"))
            dialog.finished.connect(self._stack_closed)
            self._stack_dialog = dialog
        if not self._stack_dialog.isVisible():
            self._stack_dialog.reset_cancelled()
            self._stack_dialog.open()
        # Only what the open dialog changes: the question moves into it and its buttons
        # follow the fight (the rest of the window is as _show_views left it).
        engine = self.document.engine
        if engine is not None:
            enc, ruleset = engine.encounter, engine.ruleset
            self._show_stack(ruleset, engine.pending(), ruleset.round_controls(enc),
                             ruleset.describe_state(enc))

    def _stack_command(self, form_id: str) -> None:
        """Resolve next / all, cancel: commands the ruleset builds from these form ids."""
        from fightdesk.engine.changes import RuleViolation

        engine = self.document.engine
        dialog = self._stack_dialog
        if engine is None or dialog is None:
            return
        try:
            command = engine.ruleset.build_command(form_id, "", {})
        except RuleViolation as exc:
            dialog.show_refusal(str(exc))
            return
        outcome = engine.apply(command)
        dialog.show_refusal(None if outcome.ok else outcome.error)
        if outcome.ok:
            self.statusBar().showMessage(outcome.text, 8000)
            if form_id == "cancel-stack":
                dialog.mark_cancelled()

    def _stack_closed(self, *_: object) -> None:
        # Closed on purpose (empty or cancelled): Ctrl+K brings it back while moves wait.
        self._show_views(auto_open=False)

    # --- GM overrides -------------------------------------------------------------------------
    def _ask_health(self, fighter_id: str) -> QDialog | None:
        """Damage / heal: the GM types a change (-3, +2) or the new health; it becomes a
        ``SetValue`` override of the health."""
        from PySide6.QtCore import Qt

        engine = self.document.engine
        if engine is None or fighter_id not in engine.encounter.fighters:
            return None
        from .health_dialog import HealthDialog

        card = engine.ruleset.card(engine.encounter, fighter_id)
        field = card.health_field
        dialog = HealthDialog(card.title, card.health, card.health_max, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(value: int) -> None:
            from fightdesk.engine.commands import SetValue

            if value != card.health:
                self._apply(SetValue(fighter_id=fighter_id, field=field, value=value))

        dialog.chosen.connect(chosen)
        dialog.open()
        return dialog

    def selected_fighter(self) -> str | None:
        """The fighter the keyboard means: the card with the focus (its checked member),
        else whoever's turn it is, else the first fighter."""
        from .cards import FighterCard

        widget: QWidget | None = self.focusWidget()
        while widget is not None and not isinstance(widget, FighterCard):
            widget = widget.parentWidget()
        if isinstance(widget, FighterCard):
            return widget.selected_fighter()
        engine = self.document.engine
        if engine is None or not engine.encounter.order:
            return None
        for row in range(self.fighters_model.rowCount()):
            card = self.fighters_model.item(row)
            if card.acting and not card.out:
                return card.fighter_id
        return engine.encounter.order[0]

    # --- fighters for this fight only -------------------------------------------------------
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
            self._show_refusal(str(exc))
            return None
        key = self._health_key(engine.ruleset)
        most = type(blank.sheet).model_fields[key].metadata if key in type(blank.sheet).model_fields else []
        limit = next((int(m.le) for m in most if getattr(m, "le", None) is not None), 999)
        dialog = QuickAddDialog(int(getattr(blank.sheet, key, 10) or 10), limit, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(name: str, side: str, health: int, count: int) -> None:
            problem = self._quick_add(name, side, health, count)
            if problem:
                dialog.show_refusal(problem)
            else:
                dialog.accept()

        dialog.chosen.connect(chosen)
        dialog.open()
        return dialog

    @staticmethod
    def _health_key(ruleset: Ruleset) -> str:
        """The sheet field that holds a fighter's full health in this ruleset."""
        return str(getattr(ruleset, "health_max_field", "health"))

    def _quick_add(self, name: str, side: str, health: int, count: int = 1) -> str:
        """Add the fighter; "" when added, else why not (in the GM's words)."""
        from pydantic import ValidationError

        from fightdesk.engine.commands import AddFighters
        from fightdesk.storage.library import new_fighter, rested_status

        engine = self.document.engine
        if engine is None:
            return "Open or start a fight first"
        blank = new_fighter(engine.encounter.ruleset, name)
        key = self._health_key(engine.ruleset)
        try:
            sheet = type(blank.sheet).model_validate({**blank.sheet.model_dump(), key: health})
            fighter = blank.model_copy(update={"side": side, "sheet": sheet,
                                               "status": rested_status(sheet)})
        except ValidationError as exc:
            return f"Health {health}: {exc.errors()[0]['msg']}"
        outcome = self.document.apply(AddFighters(fighter=fighter.model_dump(mode="json"),
                                                  count=count))
        if not outcome.ok:
            return outcome.error or "not added"
        self.statusBar().showMessage(
            f"{outcome.text} (this fight only; Fight > Save Fighter to Campaign keeps them)", 12000)
        return ""

    def rename_fight(self) -> QInputDialog | None:
        """Fight > Rename Fight: a name of the GM's for this fight (undoable like any step)."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QInputDialog

        engine = self.document.engine
        if engine is None:
            return None
        dialog = QInputDialog(self)
        dialog.setObjectName("RenameFightDialog")
        dialog.setWindowTitle("Rename the fight")
        dialog.setLabelText("Name of this fight:")
        dialog.setTextValue(engine.encounter.name)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(text: str) -> None:
            from fightdesk.engine.commands import RenameFight

            name = " ".join(text.split())
            if not name:
                self.statusBar().showMessage("Not renamed: a fight needs a name", 8000)
            elif name != engine.encounter.name:
                self._apply(RenameFight(name=name[:200]))
                self._update_title()

        dialog.textValueSelected.connect(chosen)
        dialog.open()
        return dialog

    def keep_in_campaign(self) -> None:
        """Save the selected fighter (rested, unlinked from this fight) to the open
        campaign, e.g. after a quick add."""
        from fightdesk.storage.library import LibraryError, rested_status

        engine = self.document.engine
        fighter_id = self.selected_fighter()
        panel = self.library_panel
        if engine is None or fighter_id is None:
            return
        campaign = panel.campaign if panel is not None else None
        if campaign is None:
            self.statusBar().showMessage("Open a campaign in the library first", 8000)
            return
        fighter = engine.encounter.fighters[fighter_id]
        kept = fighter.model_copy(update={"id": "new", "group": None, "source_id": None,
                                          "status": rested_status(fighter.sheet)}, deep=True)
        try:
            saved = campaign.add(kept)
        except LibraryError as exc:
            self._show_refusal(str(exc))
            return
        self.statusBar().showMessage(f"{saved.name} saved to the campaign {campaign.name}", 8000)

    def _health_of_selected(self) -> None:
        fighter_id = self.selected_fighter()
        if fighter_id is not None:
            self._ask_health(fighter_id)

    def _add_condition(self, fighter_id: str) -> QDialog | None:
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
            from pydantic import ValidationError

            from fightdesk.engine.commands import AddCondition

            try:
                command = AddCondition(fighter_id=fighter_id, **values)
            except ValidationError as exc:
                err = exc.errors()[0]
                return f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
            outcome = self.document.apply(command)
            if not outcome.ok:
                return outcome.error or "not allowed"
            self.statusBar().showMessage(outcome.text, 8000)
            return None

        dialog = ConditionDialog(enc.fighters[fighter_id].name, ruleset.condition_names,
                                 fighters, submit, has_turns=ruleset.condition_turns,
                                 default_tick=ruleset.condition_tick, bearer_id=fighter_id,
                                 parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _remove_condition(self, fighter_id: str, index: int) -> None:
        from fightdesk.engine.commands import RemoveCondition

        self._apply(RemoveCondition(fighter_id=fighter_id, index=index))

    def _edit_fighter(self, fighter_id: str) -> QDialog | None:
        from PySide6.QtCore import Qt

        from .fighter_editor import FighterEditor

        engine = self.document.engine
        if engine is None or fighter_id not in engine.encounter.fighters:
            return None
        editor = FighterEditor(engine.encounter.fighters[fighter_id], self)
        editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        editor.changesChosen.connect(lambda changes: self._apply_edits(fighter_id, changes))
        editor.open()
        return editor

    def _edit_options(self) -> QDialog | None:
        from PySide6.QtCore import Qt

        from .options_dialog import OptionsDialog

        engine = self.document.engine
        if engine is None:
            return None
        dialog = OptionsDialog(engine.encounter.options, engine.ruleset.title, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.optionsChosen.connect(self._apply_options)
        dialog.open()
        return dialog

    def _edit_tables(self) -> QDialog | None:
        """Fight > Roll Tables: the fight's tables (and the built-in ones it lacks), with
        the open campaign's copies; every change goes through the document."""
        from PySide6.QtCore import Qt

        from fightdesk.engine.tables import TableProblem, missing_builtin_tables

        from .table_editor import RollTablesDialog

        engine = self.document.engine
        if engine is None:
            return None
        try:
            builtin = missing_builtin_tables(engine.encounter)
        except TableProblem as exc:  # a broken installation: say so, still edit the fight's
            self._show_refusal(str(exc))
            builtin = {}
        campaign = self.library_panel.campaign if self.library_panel is not None else None
        dialog = RollTablesDialog(lambda: engine.encounter.tables, self.document.apply,
                                  builtin=builtin, campaign=campaign, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.document.changed.connect(dialog.refresh)
        dialog.open()
        return dialog

    def _simulate(self) -> QDialog | None:
        """Fight > Simulate: one dialog, which plays copies of the fight as it stands when
        Run is pressed (so it can be run again mid-fight); the fight is never changed."""
        from .simulate_dialog import SimulateDialog

        dialog = self.findChild(SimulateDialog)
        if dialog is None:
            def current() -> Encounter | None:
                engine = self.document.engine
                return engine.encounter if engine is not None else None

            dialog = SimulateDialog(current, self)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def _apply_options(self, changes: list[tuple[str, object]]) -> None:
        from fightdesk.engine.commands import SetOption

        for option, value in changes:
            if not self._apply(SetOption(option=option, value=value)):
                break

    def _apply_edits(self, fighter_id: str, changes: list[tuple[str, object]]) -> None:
        from fightdesk.engine.commands import SetValue

        for field, value in changes:
            if not self._apply(SetValue(fighter_id=fighter_id, field=field, value=value)):
                break

    def _show_refusal(self, message: str) -> None:
        self.statusBar().showMessage(message, 10000)

    def _update_title(self, *_: object) -> None:
        self.setWindowTitle(f"{self.document.title}[*] - fightdesk")
        self.setWindowModified(self.document.is_modified())

    def _remember(self, path: Path) -> None:
        settings.remember_file(path)
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        for path in files:
            act = self.recent_menu.addAction(path.name)
            act.setToolTip(plain_tip(str(path)))
            act.setData(str(path))
            act.triggered.connect(lambda _=False, p=path: self._open_recent(p))
        self.recent_menu.setEnabled(bool(files))

    def _may_discard(self, *, closing: bool = False) -> bool:
        """Ask before leaving a fight with unsaved changes; True when it is fine to go on.

        When the window closes and autosave keeps the fight, nothing is thrown away: the
        question says so, and its "no" button is "Close without saving", not "Discard"."""
        from PySide6.QtWidgets import QMessageBox

        if not self.document.is_modified():
            return True
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        box = message_box(self, QMessageBox.Icon.Question, "Unsaved changes",
                          f"Save the changes to {self.document.title}?", buttons=buttons)
        if closing and self.kept_by_autosave:
            box.setInformativeText(
                "Autosave keeps the fight as it is now: it reopens like this the next time "
                "fightdesk starts, whether or not you save it to a file.")
            discard = box.button(QMessageBox.StandardButton.Discard)
            if discard is not None:
                discard.setText("Close without saving")
        box.exec()
        answer = box.standardButton(box.clickedButton())
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # --- layout memory ------------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        """Size and place the window as the GM left it; the docks follow in build_body."""
        store = settings.app_settings()
        geometry = store.value("window/geometry")
        restored = False
        if geometry is not None:  # (a first start has none: nothing more to import)
            from PySide6.QtCore import QByteArray

            if isinstance(geometry, QByteArray) and not geometry.isEmpty():
                self.restoreGeometry(geometry)
                restored = True
        if not restored:
            self.resize(1280, 800)
        self._saved_state = store.value("window/state")

    def restore_docks(self) -> None:
        """Put the docks back where the GM left them (call after every dock is added)."""
        from PySide6.QtCore import QByteArray

        state = getattr(self, "_saved_state", None)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)

    def save_layout(self) -> None:
        store = settings.app_settings()
        store.setValue("window/geometry", self.saveGeometry())
        if self._body_built:  # a frame closed before its docks exist keeps the old layout
            store.setValue("window/state", self.saveState())
        store.sync()

    # --- room for the timeline -----------------------------------------------------------
    def _fit_timeline_height(self) -> None:
        """The timeline as tall as its lanes (when their number changes): the cards get
        the rest. A height the GM dragged stays until the lanes change."""
        shown = self.timeline.timeline()
        lanes = len(shown.lanes) if shown is not None else 0
        if lanes == getattr(self, "_fitted_lanes", None):
            return
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if total <= 0:
            return
        self._fitted_lanes = lanes
        wanted = min(self.timeline.content_height(), int(total * 0.5))
        self.splitter.setSizes([wanted, total - wanted])

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._body_built:
            QTimer.singleShot(0, self, self.give_way_to_timeline)

    def give_way_to_timeline(self) -> None:
        """On a small screen the side docks narrow (down to what they need) so that the
        whole timeline shows without scrolling sideways; the log dock keeps its place,
        the library dock gives way first."""
        from PySide6.QtCore import Qt

        need = self.timeline.comfortable_width()
        have = self.centralWidget().width() if self.centralWidget() is not None else 0
        if have >= need:
            return
        short = need - have
        docks = [d for d in (self.library_dock, getattr(self, "log_dock", None))
                 if d is not None and d.isVisible() and not d.isFloating()]
        sizes: list[int] = []
        for dock in docks:
            least = max(dock.minimumSizeHint().width(), 200)
            give = max(0, min(short, dock.width() - least))
            short -= give
            sizes.append(dock.width() - give)
        if docks:
            self.resizeDocks(docks, sizes, Qt.Orientation.Horizontal)
        if short > 0 and self.library_dock is not None and self.library_dock.isVisible() \
                and not self.library_dock.isFloating():
            # Still not enough: the library tabs in with the log (a click brings it up).
            log_dock = getattr(self, "log_dock", None)
            if log_dock is not None and log_dock.isVisible() and not log_dock.isFloating():
                self.tabifyDockWidget(log_dock, self.library_dock)
                log_dock.raise_()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._may_discard(closing=True):
            event.ignore()
            return
        self.save_layout()
        if getattr(self, "share", None) is not None:  # closing the window ends the share
            self.share.stop()
        player_view = getattr(self, "player_view", None)  # (none before the body is built)
        if player_view is not None:
            self.player_view_action.setChecked(False)  # remembers where it was
            player_view.close()
        event.accept()


def _set_tip(action: QAction, tip: str) -> None:
    """Tooltip and status tip that name the shortcut, so the GM learns it."""
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    text = f"{tip} ({keys})" if keys else tip
    action.setToolTip(text)
    action.setStatusTip(text)


def _problem_text(problem: Exception) -> str:
    return str(problem)


def _pick_form(forms: tuple, role: str, chip_id: str) -> tuple[str | None, dict[str, object]]:
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
