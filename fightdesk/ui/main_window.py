"""The main window: menus, the timeline, the fighter cards, the log dock, the dice bar.

:class:`MainWindow` keeps the frame: it builds the actions, menus, tool bars and docks,
and owns the :class:`FightDocument`. The document's signals to the views and the
frame's actions to the files and the GM's actions are wired together in
:meth:`MainWindow._connect_signals`; a part built apart is wired where it is built (the
undo actions, the theme menu and the forward button with the frame, the print menu and
the library dock with the body, a dialog's signals by the GM action that opens it, a
widget's own inner signals by the widget). The widgets never import each other. The work
behind the signals lives in modules named for it:

- ``gm_actions.py``: the GM's actions (each menu item, button, card request and click,
  and the dialog it opens), which end in ``operations.py``: one function per action,
  building the command and applying it through the document.
- ``view_refresh.py``: keeping the views in step with the fight (the document's
  ``replaced`` and ``changed``), and painting a fight's picture.
- ``window_files.py``: New, Open, Open Recent, Save, Save As and their questions.
- ``library_dock.py``: the campaign library's dock.
- ``window_layout.py``: the window's geometry and docks, kept, checked and reset.

Nothing from ``fightdesk.engine`` (or pydantic) is imported at module level, so the
window paints before the engine loads. A staged start (``MainWindow(staged=True)``,
what the app does) first paints the frame alone (title, menus, a "loading" line); the
widget modules and Qt's big ``Qt`` namespace load in :meth:`MainWindow.build_body`,
right after that paint, and the print menu and library dock once the fight is shown.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QPushButton, QToolBar, QWidget

from . import settings
from .document import FightDocument
from .paint_watch import after_next_paint
from .window_layout import WindowLayout

# The classes the frame does not use (dialogs, docks, layouts) are imported where used:
# importing a PySide6 class builds its enum classes, before the first paint if done here.
if TYPE_CHECKING:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDragMoveEvent, QDropEvent, QResizeEvent
    from PySide6.QtWidgets import QDialog, QDockWidget, QInputDialog, QMessageBox

    from fightdesk.engine.engine import Engine
    from fightdesk.engine.views import FightPicture

    from .action_dialog import ActionDialog
    from .decision import DecisionPanel
    from .gm_actions import GMActions
    from .library_dock import LibraryDock
    from .library_panel import LibraryPanel
    from .player_view import PlayerView
    from .printing import SummaryPrinting
    from .stack_dialog import InterruptStackDialog
    from .view_refresh import ViewRefresh
    from .window_files import WindowFiles


class MainWindow(QMainWindow):
    """The GM's desk. ``show_session`` displays a fight; ``open_file`` loads one."""

    def __init__(self, parent: QWidget | None = None, *, staged: bool = False) -> None:
        """``staged``: build only the frame (menus and a "loading" line) so that it paints
        at once; :meth:`build_body` and :meth:`add_printing` complete it, and the library
        dock is left to the caller (:meth:`add_library_panel`)."""
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setWindowTitle("fightdesk[*]")
        # The window's size and docks are put back before the frame's first paint; the
        # rest of the work behind the frame's signals comes with the actions (the module
        # doc names each module), which a staged start builds after that paint.
        self.placement = WindowLayout(self)
        self.document = FightDocument(self)
        self.gm: GMActions
        self.views: ViewRefresh
        self.files: WindowFiles
        self.library: LibraryDock
        # The campaign library dock is built after the first fight is on screen (it loads
        # the library files): by this window, or by a staged start once it is ready.
        self.library_after_first_fight = not staged
        self.library_panel: LibraryPanel | None = None
        self.library_dock: QDockWidget | None = None
        self.library_in_rounds_action: QAction | None = None  # (with the library dock)
        self.summary_printing: SummaryPrinting | None = None
        # Set by the autosave wiring: closing then loses nothing, and the question says so.
        self.kept_by_autosave = False
        # The message of a history that could not be read (not modal: play goes on).
        self.history_box: QMessageBox | None = None
        self.body_built = False
        self._actions_built = False
        # A staged frame shows the menu bar's titles; the actions and the menus' items come
        # with the body (build_body), which follows the first paint by a few milliseconds.
        self._build_menu_titles()
        if not staged:
            self._build_actions_and_menus()
        self.placement.restore_geometry()
        if staged:
            self.loading_label = QLabel("Opening the fight\N{HORIZONTAL ELLIPSIS}")
            self.loading_label.setObjectName("loadingLabel")
            self.loading_label.setMargin(24)
            self.setCentralWidget(self.loading_label)
        else:
            self.build_body()
            self.add_printing()

    # --- building ----------------------------------------------------------------------
    def build_body(self) -> None:
        """The widgets, tool bars and docks, wired, in the layout the GM left (once)."""
        if self.body_built:
            return
        self.body_built = True
        self._build_actions_and_menus()
        for act, keys, tip in self._shortcuts:
            if keys:
                act.setShortcuts(keys)
            set_tip(act, tip)
        self.files.fill_recent_menu()
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
        self.state_label.setAccessibleName("What the fight waits for")
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
        # The timeline keeps the height of its lanes (fit_timeline_height); a taller or
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
        self._end_round_box: QMessageBox | None = None
        self.player_view: PlayerView | None = None
        # The turn timer's tick (view_refresh.py counts down the current turn).
        self.turn_clock = QTimer(self)
        self.turn_clock.setInterval(250)
        # Fighters dragged from the library dock are dropped anywhere on the window.
        self.setAcceptDrops(True)

    def _build_workers(self) -> None:
        """The objects behind the frame's signals, each in its own module."""
        from .gm_actions import GMActions
        from .library_dock import LibraryDock
        from .view_refresh import ViewRefresh
        from .window_files import WindowFiles

        self.gm = GMActions(self)
        self.views = ViewRefresh(self)
        self.files = WindowFiles(self)
        self.library = LibraryDock(self)

    def _undo_stack_moved(self, *_: object) -> None:
        """(A slot of the window's own: Qt cuts it off as the window goes, before the
        document's stack sends its last signals.)"""
        self.views.follow_undo_stack()

    def _action(self, text: str,
                shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                tip: str = "") -> QAction:
        """An action whose shortcut and tip are set with the body (``_shortcuts``)."""
        act = QAction(text, self)
        keys = [QKeySequence(shortcut)] if shortcut is not None else []
        self._shortcuts.append((act, keys, tip or text.replace("&", "").rstrip(".")))
        return act

    def _build_actions(self) -> None:
        # Shortcuts, and the tips that name them, are set with the body (build_body): the
        # first shortcut makes PySide6 set up Qt's whole ``Qt`` namespace, 11 ms that the
        # first paint of the frame need not wait for.
        self._shortcuts: list[tuple[QAction, list[QKeySequence], str]] = []
        action = self._action
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
            signal.connect(self._undo_stack_moved)
        self.views.follow_undo_stack()
        # The menu says what will be undone; the toolbar button stays short.
        self.undo_action.setIconText("Undo")
        self.redo_action.setIconText("Redo")
        self._build_fight_actions()

    def _build_fight_actions(self) -> None:
        action = self._action
        # The one way forward: what the fight needs next (start, roll, act, next phase);
        # its text follows the fight (show_forward), the tool bar's button stays put.
        self.forward_action = action("No Fight Open", "F4", "Do what the fight needs next")
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
        self.reset_layout_action = action("&Reset Layout", None,
                                          "Put the window's docks and bars back as they were at first")
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

    def _build_menu_titles(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.edit_menu = bar.addMenu("&Edit")
        self.fight_menu = bar.addMenu("F&ight")
        self.view_menu = bar.addMenu("&View")

    def _build_actions_and_menus(self) -> None:
        if not self._actions_built:
            self._actions_built = True
            self._build_workers()
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

        self.edit_menu.aboutToShow.connect(self.views.name_undo_steps)
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addAction(self.redo_action)

        self.fight_menu.addAction(self.forward_action)
        self.fight_menu.addAction(self.pass_action)
        self.fight_menu.addSeparator()
        for act in self.round_actions:
            # Listed in the menu only while they do something of their own (view_refresh
            # name_round_items); their shortcuts are the window's all the time.
            self.addAction(act)
        self.round_items_end = self.fight_menu.addSeparator()
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
        # Before a fight is open it says so (the fight's own next step replaces it).
        self.forward_button = QPushButton("No fight open")
        self.forward_button.setObjectName("forwardButton")
        self.forward_button.setDefault(True)
        self.forward_button.setEnabled(False)
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
        # The library dock's items go before this separator (library_dock.py).
        self.reset_layout_separator = self.view_menu.addSeparator()
        self.view_menu.addAction(self.reset_layout_action)
        self._build_theme_menu()
        self.resizeDocks([self.log_dock], [330], Qt.Orientation.Horizontal)

    def _build_theme_menu(self) -> None:
        """View > Theme: System, Light or Dark, applied to every window at once and
        remembered."""
        from PySide6.QtGui import QActionGroup

        from .palettes import THEMES, apply_theme

        menu = self.view_menu.addMenu("&Theme")
        group = QActionGroup(self)
        saved = str(settings.app_settings().value("view/theme", "system"))
        if saved not in {key for key, _ in THEMES}:
            saved = "system"
        self.theme_actions: dict[str, QAction] = {}
        for key, label in THEMES:
            act = QAction(label, self)
            act.setCheckable(True)
            act.setChecked(key == saved)
            act.setStatusTip(f"Show fightdesk in the {label.replace('&', '').lower()} colours")
            act.triggered.connect(lambda _=False, k=key: self.set_theme(k))
            group.addAction(act)
            menu.addAction(act)
            self.theme_actions[key] = act
        if saved != "system":
            apply_theme(saved)

    def set_theme(self, theme: str) -> None:
        from .palettes import apply_theme

        apply_theme(theme)
        self.theme_actions[theme].setChecked(True)
        store = settings.app_settings()
        store.setValue("view/theme", theme)
        store.sync()

    def add_printing(self) -> SummaryPrinting:
        """File > Print / Print Preview / Export Summary (once; Qt's print support loads here)."""
        if self.summary_printing is not None:
            return self.summary_printing
        from .printing import SummaryPrinting

        # Greyed out until follow_printing looks (that would read a pending history now).
        printing = SummaryPrinting(self, lambda: None)
        printing.session = self.files.current_session
        self.summary_printing = printing
        self.file_menu.insertActions(self._quit_separator, printing.actions())
        self.document.replaced.connect(self.views.follow_printing)
        self.document.changed.connect(printing.update_enabled)
        self.views.follow_printing()
        return printing

    def _connect_signals(self) -> None:
        """Every signal between the document, the widgets and the window, in one place:
        the document's to the views (view_refresh.py), the actions' and widgets' to the
        files (window_files.py) and the GM's actions (gm_actions.py)."""
        doc, views, files, gm = self.document, self.views, self.files, self.gm
        doc.replaced.connect(views.engine_replaced)
        doc.changed.connect(views.engine_changed)
        doc.pathChanged.connect(views.update_title)
        doc.undo_stack.cleanChanged.connect(views.update_title)
        doc.refused.connect(gm.show_refusal)
        doc.historyArrived.connect(views.history_arrived)
        doc.replaced.connect(views.follow_undo_stack)
        self.turn_clock.timeout.connect(views.tick_turn_timer)

        self.new_action.triggered.connect(files.new_fight)
        self.open_action.triggered.connect(files.ask_open)
        self.save_action.triggered.connect(files.save)
        self.save_as_action.triggered.connect(files.save_as)
        self.quit_action.triggered.connect(self.close)
        self.reset_layout_action.triggered.connect(self.placement.reset)

        self.forward_action.triggered.connect(gm.go_forward)
        for act, kind in ((self.pass_action, "next-step"), (self.start_fight_action, "start-fight"),
                          (self.start_round_action, "start-round"),
                          (self.next_step_action, "next-step"), (self.end_round_action, "end-round")):
            act.triggered.connect(partial(gm.round_command, kind))
        self.act_action.triggered.connect(gm.act_with_current)
        self.health_action.triggered.connect(gm.health_of_selected)
        self.quick_add_action.triggered.connect(gm.quick_add)
        self.rename_action.triggered.connect(gm.rename_fight)
        self.keep_fighter_action.triggered.connect(gm.keep_in_campaign)
        self.stack_action.triggered.connect(gm.open_stack_dialog)
        self.dice_action.triggered.connect(gm.focus_dice)
        self.options_action.triggered.connect(gm.edit_options)
        self.tables_action.triggered.connect(gm.edit_tables)
        self.simulate_action.triggered.connect(gm.simulate)

        self.player_view_action.toggled.connect(gm.toggle_player_view)
        self.blank_player_action.toggled.connect(gm.blank_player_view)
        for show, act in self.enemy_health_actions.items():
            act.triggered.connect(lambda _=False, s=show: gm.set_enemy_health(s))
        self.timeline.chipClicked.connect(gm.chip_clicked)
        self.timeline.laneMoved.connect(gm.move_turn)
        self.cards.requested.connect(gm.card_request)
        self.cards.conditionRemoveRequested.connect(gm.remove_condition)
        self.decision_panel.answered.connect(partial(gm.answer, self.decision_panel))
        self.decision_panel.answeredValues.connect(partial(gm.answer_values, self.decision_panel))
        self.roll_panel.contributeRequested.connect(gm.contribute)
        self.roll_panel.withdrawRequested.connect(gm.withdraw)
        self.roll_panel.rollRequested.connect(gm.make_roll)
        self.roll_panel.pickRequested.connect(gm.pick_and_roll)
        from .share_dialog import ShareController  # Fight > Share With Players...

        self.share = ShareController(self, doc, self.roll_panel)
        self.fight_menu.addAction(self.share.action)
        self.statusBar().addPermanentWidget(self.share.status)
        self.log_view.revertRequested.connect(gm.revert_to)
        self.dice_bar.rollRequested.connect(gm.free_roll)

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
        from . import save_questions

        save_questions.opened(self, path)
        if path is not None:
            self.files.remember(path)
        if engine.pending_history is not None:
            # The fight first; its history a slice at a time once the fight is painted.

            after_next_paint(self, self.document.load_history_in_background)

    def show_picture(self, picture: FightPicture) -> None:
        """The fight as the window last showed it, painted while the rules load
        (view_refresh.py ``show_picture``); ``show_session`` puts the live fight there."""
        self.build_body()
        self.views.show_picture(picture)

    # --- what the app and the tests call (the work is in the modules named above) ---------
    def open_file(self, path: Path) -> bool:
        return self.files.open_file(path)

    def new_fight(self) -> None:
        self.files.new_fight()

    def save(self) -> bool:
        return self.files.save()

    def save_as(self) -> bool:
        return self.files.save_as()

    def open_action_dialog(self, fighter_id: str, *, role: str = "",
                           chip_id: str = "") -> ActionDialog | None:
        return self.gm.open_action_dialog(fighter_id, role=role, chip_id=chip_id)

    def quick_add(self) -> QDialog | None:
        return self.gm.quick_add()

    def rename_fight(self) -> QInputDialog | None:
        return self.gm.rename_fight()

    def keep_in_campaign(self) -> None:
        self.gm.keep_in_campaign()

    def add_library_panel(self, library: object | None = None) -> LibraryPanel:
        """Build the campaign library dock (once): library_dock.py."""
        return self.library.build(library)

    def restore_docks(self) -> None:
        """Put the docks back where the GM left them (call after every dock is added)."""
        self.placement.restore_docks()

    def save_layout(self) -> None:
        self.placement.save()

    def give_way_to_timeline(self) -> None:
        self.placement.give_way_to_timeline()

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

    # --- Qt's events ----------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.placement.window_resized()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.library.accepts(event):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        if self.library.accepts(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        self.library.drop(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        files = getattr(self, "files", None)  # (none before the actions are built)
        if files is not None and not files.may_discard(closing=True):
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


def set_tip(action: QAction, tip: str) -> None:
    """Tooltip and status tip that name the shortcut, so the GM learns it (names in them
    are text: the tooltip shown as is, the status bar draws plain text)."""
    from .plain import plain_tip

    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    text = f"{tip} ({keys})" if keys else tip
    action.setToolTip(plain_tip(text))
    action.setStatusTip(text)
