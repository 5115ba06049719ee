"""The import contracts of docs/ARCHITECTURE.md, read from the source (every import
statement of every module in fightdesk/, those inside functions too; those under
``if TYPE_CHECKING:`` are types only and left out):

- layers: ``ui`` above ``storage``, ``report`` and ``share`` (each on its own), all
  above ``engine``; the command
  line and the app on top; ``paths`` and ``resources_path`` beside them all;
- the ruleset packages are independent of each other;
- the core and the window never import a ruleset package (the registry finds them
  through their entry points);
- no circle of imports made when a module loads; an import inside a function that
  closes a circle is one of :data:`LOCAL_CIRCLES`, each with the reason it stays;
- every other import inside a function is one of :data:`LOCAL_IMPORTS`, each with a reason
  of its own; a listed import no longer made fails too;
- street-fighter's rule modules import in one direction (:data:`STREET_FIGHTER_ORDER`).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "fightdesk"
RULESETS = "fightdesk.engine.rulesets"

# Imports inside functions that close a circle, as (importer, imported): each stays
# because the two call each other and the call runs only after both loaded.
LOCAL_CIRCLES: dict[tuple[str, str], str] = {
    ("fightdesk.engine.ruleset", "fightdesk.engine.legal"):
        "the simulator's legal moves read the ruleset's views; the Autopilot part's "
        "default offers them",
    ("fightdesk.ui.library_dock", "fightdesk.ui.main_window"):
        "the dock asks the window for its size at the first show (start-up builds it late)",
    ("fightdesk.ui.view_refresh", "fightdesk.ui.main_window"):
        "tooltips set through the window's one helper",
}


# Every other import inside a function in fightdesk/, each with why it is not made when
# its module loads: the start-up step ("first-paint", "shown", "loaded", "ready",
# "settled"; app.Probe) at which a start on the demo loads the imported module, or
# that it loads only for one sub-command or one call. One not listed here (nor in
# LOCAL_CIRCLES) fails test_every_import_inside_a_function_has_its_reason; one listed
# that is no longer made fails it too.
LOCAL_IMPORTS: dict[tuple[str, str], str] = {
    ('fightdesk.app', 'fightdesk'):
        'fightdesk loads only when the window starts ("first-paint"), not when the command line imports the app',
    ('fightdesk.app', 'fightdesk.engine.engine'):
        'engine.engine loads at start-up\'s "loaded" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.engine.lazy'):
        'engine.lazy loads at start-up\'s "loaded" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.paths'):
        'paths loads only when the window starts ("first-paint"), not when the command line imports the app',
    ('fightdesk.app', 'fightdesk.resources_path'):
        'resources_path loads at start-up\'s "shown" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.storage.files'):
        'storage.files loads at start-up\'s "shown" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.storage.picture'):
        'storage.picture loads at start-up\'s "shown" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.storage.sessions'):
        'storage.sessions loads at start-up\'s "loaded" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.ui.error_report'):
        'ui.error_report loads only when the window starts ("first-paint"), not when the command line imports the app',
    ('fightdesk.app', 'fightdesk.ui.main_window'):
        'ui.main_window loads only when the window starts ("first-paint"), not when the command line imports the app',
    ('fightdesk.app', 'fightdesk.ui.paint_watch'):
        'ui.paint_watch loads only when the window starts ("first-paint"), not when the command line imports the app',
    ('fightdesk.app', 'fightdesk.ui.plain'):
        'ui.plain loads at start-up\'s "shown" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.ui.recovery'):
        'ui.recovery loads at start-up\'s "loaded" step, after app (at "first-paint")',
    ('fightdesk.app', 'fightdesk.ui.settings'):
        'ui.settings loads only when the window starts ("first-paint"), not when the command line imports the app',
    ('fightdesk.cli', 'fightdesk.app'):
        "app loads only for the window's start and `fightdesk FILE`, not for the other sub-commands or --version",
    ('fightdesk.cli', 'fightdesk.storage.files'):
        "storage.files loads only for the window's start and `fightdesk FILE`, not for the other sub-commands or --version",
    ('fightdesk.cli', 'fightdesk.storage.sessions'):
        "storage.sessions loads only for the window's start and `fightdesk FILE`, not for the other sub-commands or --version",
    ('fightdesk.cli_new', 'fightdesk.engine.model'):
        'engine.model loads only for `fightdesk new`, not for the other sub-commands or --version',
    ('fightdesk.cli_new', 'fightdesk.engine.rulesets'):
        'engine.rulesets loads only for `fightdesk new`, not for the other sub-commands or --version',
    ('fightdesk.cli_new', 'fightdesk.storage.files'):
        'storage.files loads only for `fightdesk new`, not for the other sub-commands or --version',
    ('fightdesk.cli_new', 'fightdesk.storage.sessions'):
        'storage.sessions loads only for `fightdesk new`, not for the other sub-commands or --version',
    ('fightdesk.cli_odds', 'fightdesk.engine.rulesets'):
        'engine.rulesets loads only for `fightdesk odds`, not for the other sub-commands or --version',
    ('fightdesk.cli_simulate', 'fightdesk.engine.simulate'):
        'engine.simulate loads only for `fightdesk simulate`, not for the other sub-commands or --version',
    ('fightdesk.cli_simulate', 'fightdesk.storage.files'):
        'storage.files loads only for `fightdesk simulate`, not for the other sub-commands or --version',
    ('fightdesk.cli_simulate', 'fightdesk.storage.sessions'):
        'storage.sessions loads only for `fightdesk simulate`, not for the other sub-commands or --version',
    ('fightdesk.cli_summary', 'fightdesk.report'):
        'report loads only for `fightdesk summary`, not for the other sub-commands or --version',
    ('fightdesk.cli_summary', 'fightdesk.storage.files'):
        'storage.files loads only for `fightdesk summary`, not for the other sub-commands or --version',
    ('fightdesk.cli_summary', 'fightdesk.storage.sessions'):
        'storage.sessions loads only for `fightdesk summary`, not for the other sub-commands or --version',
    ('fightdesk.cli_summary', 'fightdesk.ui.summary_files'):
        'ui.summary_files loads only for `fightdesk summary`, not for the other sub-commands or --version',
    ('fightdesk.engine.engine', 'fightdesk.engine.conditions'):
        'engine.conditions is not loaded by a start on the demo: only when this call in engine.engine runs',
    ('fightdesk.engine.engine', 'fightdesk.engine.notation'):
        'engine.notation is not loaded by a start on the demo: only when this call in engine.engine runs',
    ('fightdesk.engine.engine', 'fightdesk.engine.tables'):
        'engine.tables loads in the same start-up step ("loaded") as engine.engine; at the call, importing engine.engine alone does not load it',
    ('fightdesk.engine.model', 'fightdesk.engine.tables'):
        'engine.tables loads in the same start-up step ("loaded") as engine.model; at the call, importing engine.model alone does not load it',
    ('fightdesk.engine.ruleset', 'fightdesk.engine.model'):
        'engine.model loads in the same start-up step ("loaded") as engine.ruleset; at the call, importing engine.ruleset alone does not load it',
    ('fightdesk.engine.ruleset', 'fightdesk.engine.rulesets'):
        'engine.rulesets loads in the same start-up step ("loaded") as engine.ruleset; at the call, importing engine.ruleset alone does not load it',
    ('fightdesk.engine.rulesets.roll_under.rules', 'fightdesk.engine.tables'):
        'engine.tables loads in the same start-up step ("loaded") as engine.rulesets.roll_under.rules; at the call, importing engine.rulesets.roll_under.rules alone does not load it',
    ('fightdesk.engine.rulesets.street_fighter', 'fightdesk.engine.rulesets.street_fighter.rules'):
        'engine.rulesets.street_fighter.rules loads in the same start-up step ("loaded") as engine.rulesets.street_fighter; at the call, importing engine.rulesets.street_fighter alone does not load it',
    ('fightdesk.engine.rulesets.street_fighter.demo', 'fightdesk.engine.model'):
        'engine.model loads in the same start-up step ("loaded") as engine.rulesets.street_fighter.demo; at the call, importing engine.rulesets.street_fighter.demo alone does not load it',
    ('fightdesk.engine.rulesets.street_fighter.round', 'fightdesk.engine.conditions'):
        'engine.conditions is not loaded by a start on the demo: only when this call in engine.rulesets.street_fighter.round runs',
    ('fightdesk.engine.rulesets.street_fighter.views.cards', 'fightdesk.engine.conditions'):
        'engine.conditions is not loaded by a start on the demo: only when this call in engine.rulesets.street_fighter.views.cards runs',
    ('fightdesk.engine.rulesets.street_fighter.views.preview', 'fightdesk.engine.odds'):
        'engine.odds loads in the same start-up step ("loaded") as engine.rulesets.street_fighter.views.preview; at the call, importing engine.rulesets.street_fighter.views.preview alone does not load it',
    ('fightdesk.engine.rulesets.street_fighter.views.preview', 'fightdesk.engine.rulesets.street_fighter.damage'):
        'engine.rulesets.street_fighter.damage loads in the same start-up step ("loaded") as engine.rulesets.street_fighter.views.preview; at the call, importing engine.rulesets.street_fighter.views.preview alone does not load it',
    ('fightdesk.engine.simulate', 'fightdesk.engine.engine'):
        'engine.engine loads in the same start-up step ("loaded") as engine.simulate; at the call, importing engine.simulate alone does not load it',
    ('fightdesk.engine.tables', 'fightdesk.engine.commands'):
        'engine.commands loads at start-up\'s "settled" step, after engine.tables (at "loaded")',
    ('fightdesk.engine.tables', 'fightdesk.engine.notation'):
        'engine.notation is not loaded by a start on the demo: only when this call in engine.tables runs',
    ('fightdesk.engine.turn_ruleset', 'fightdesk.engine.commands'):
        'engine.commands loads in the same start-up step ("settled") as engine.turn_ruleset; at the call, importing engine.turn_ruleset alone does not load it',
    ('fightdesk.storage.autosave', 'fightdesk.engine.views'):
        'engine.views loads in the same start-up step ("shown") as storage.autosave; at the call, importing storage.autosave alone does not load it',
    ('fightdesk.storage.autosave', 'fightdesk.paths'):
        'paths loads in the same start-up step ("first-paint") as storage.autosave; at the call, importing storage.autosave alone does not load it',
    ('fightdesk.storage.autosave', 'fightdesk.storage.picture'):
        'storage.picture loads in the same start-up step ("shown") as storage.autosave; at the call, importing storage.autosave alone does not load it',
    ('fightdesk.storage.autosave', 'fightdesk.storage.sessions'):
        'storage.sessions loads in the same start-up step ("loaded") as storage.autosave; at the call, importing storage.autosave alone does not load it',
    ('fightdesk.storage.history', 'fightdesk.engine.model'):
        'engine.model loads in the same start-up step ("loaded") as storage.history; at the call, importing storage.history alone does not load it',
    ('fightdesk.storage.history', 'fightdesk.storage.sessions'):
        'storage.sessions loads in the same start-up step ("loaded") as storage.history; at the call, importing storage.history alone does not load it',
    ('fightdesk.storage.history', 'fightdesk.storage.trust'):
        'storage.trust loads in the same start-up step ("loaded") as storage.history; at the call, importing storage.history alone does not load it',
    ('fightdesk.storage.journal', 'fightdesk.engine.model'):
        'engine.model loads in the same start-up step ("loaded") as storage.journal; at the call, importing storage.journal alone does not load it',
    ('fightdesk.storage.library', 'fightdesk.engine.changes'):
        'engine.changes loads in the same start-up step ("loaded") as storage.library; at the call, importing storage.library alone does not load it',
    ('fightdesk.storage.library', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads in the same start-up step ("loaded") as storage.library; at the call, importing storage.library alone does not load it',
    ('fightdesk.storage.library', 'fightdesk.paths'):
        'paths loads in the same start-up step ("first-paint") as storage.library; at the call, importing storage.library alone does not load it',
    ('fightdesk.storage.library', 'fightdesk.resources_path'):
        'resources_path loads in the same start-up step ("shown") as storage.library; at the call, importing storage.library alone does not load it',
    ('fightdesk.storage.picture', 'fightdesk.engine.engine'):
        'engine.engine loads at start-up\'s "loaded" step, after storage.picture (at "shown")',
    ('fightdesk.storage.picture', 'fightdesk.engine.views'):
        'engine.views loads in the same start-up step ("shown") as storage.picture; at the call, importing storage.picture alone does not load it',
    ('fightdesk.storage.picture', 'fightdesk.resources_path'):
        'resources_path loads in the same start-up step ("shown") as storage.picture; at the call, importing storage.picture alone does not load it',
    ('fightdesk.storage.picture', 'fightdesk.storage.sessions'):
        'storage.sessions loads at start-up\'s "loaded" step, after storage.picture (at "shown")',
    ('fightdesk.storage.sessions', 'fightdesk.engine.model'):
        'engine.model loads in the same start-up step ("loaded") as storage.sessions; at the call, importing storage.sessions alone does not load it',
    ('fightdesk.storage.sessions', 'fightdesk.engine.rulesets'):
        'engine.rulesets loads in the same start-up step ("loaded") as storage.sessions; at the call, importing storage.sessions alone does not load it',
    ('fightdesk.storage.sessions', 'fightdesk.resources_path'):
        'resources_path loads in the same start-up step ("shown") as storage.sessions; at the call, importing storage.sessions alone does not load it',
    ('fightdesk.storage.trust', 'fightdesk.engine.changes'):
        'engine.changes loads in the same start-up step ("loaded") as storage.trust; at the call, importing storage.trust alone does not load it',
    ('fightdesk.storage.trust', 'fightdesk.engine.model'):
        'engine.model loads in the same start-up step ("loaded") as storage.trust; at the call, importing storage.trust alone does not load it',
    ('fightdesk.storage.trust', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads in the same start-up step ("loaded") as storage.trust; at the call, importing storage.trust alone does not load it',
    ('fightdesk.ui.decision', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads at start-up\'s "loaded" step, after ui.decision (at "shown")',
    ('fightdesk.ui.document', 'fightdesk.engine.engine'):
        'engine.engine loads at start-up\'s "loaded" step, after ui.document (at "first-paint")',
    ('fightdesk.ui.document', 'fightdesk.engine.views'):
        'engine.views loads at start-up\'s "shown" step, after ui.document (at "first-paint")',
    ('fightdesk.ui.error_report', 'fightdesk.paths'):
        'paths loads in the same start-up step ("first-paint") as ui.error_report; at the call, importing ui.error_report alone does not load it',
    ('fightdesk.ui.fighter_form', 'fightdesk.engine.changes'):
        'engine.changes loads in the same start-up step ("loaded") as ui.fighter_form; at the call, importing ui.fighter_form alone does not load it',
    ('fightdesk.ui.fighter_form', 'fightdesk.engine.model'):
        'engine.model loads in the same start-up step ("loaded") as ui.fighter_form; at the call, importing ui.fighter_form alone does not load it',
    ('fightdesk.ui.fighter_form', 'fightdesk.engine.rulesets'):
        'engine.rulesets loads in the same start-up step ("loaded") as ui.fighter_form; at the call, importing ui.fighter_form alone does not load it',
    ('fightdesk.ui.fighter_form', 'fightdesk.storage.library'):
        'storage.library loads in the same start-up step ("settled") as ui.fighter_form; at the call, importing ui.fighter_form alone does not load it',
    ('fightdesk.ui.gm_actions', 'fightdesk.engine.notation'):
        'engine.notation is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.engine.tables'):
        'engine.tables loads at start-up\'s "loaded" step, after ui.gm_actions (at "shown")',
    ('fightdesk.ui.gm_actions', 'fightdesk.engine.targets'):
        'engine.targets is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.storage.library'):
        'storage.library loads at start-up\'s "settled" step, after ui.gm_actions (at "shown")',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.action_dialog'):
        'ui.action_dialog is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.condition_dialog'):
        'ui.condition_dialog is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.decision'):
        'ui.decision loads in the same start-up step ("shown") as ui.gm_actions; at the call, importing ui.gm_actions alone does not load it',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.fighter_editor'):
        'ui.fighter_editor is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.form_fields'):
        'ui.form_fields loads in the same start-up step ("shown") as ui.gm_actions; at the call, importing ui.gm_actions alone does not load it',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.health_dialog'):
        'ui.health_dialog is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.options_dialog'):
        'ui.options_dialog is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.player_view'):
        'ui.player_view is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.quick_add'):
        'ui.quick_add is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.settings'):
        'ui.settings loads in the same start-up step ("first-paint") as ui.gm_actions; at the call, importing ui.gm_actions alone does not load it',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.simulate_dialog'):
        'ui.simulate_dialog is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.stack_dialog'):
        'ui.stack_dialog is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.gm_actions', 'fightdesk.ui.table_editor'):
        'ui.table_editor is not loaded by a start on the demo: only when this call in ui.gm_actions runs',
    ('fightdesk.ui.library_dock', 'fightdesk.storage.library'):
        'storage.library loads at start-up\'s "settled" step, after ui.library_dock (at "shown")',
    ('fightdesk.ui.library_dock', 'fightdesk.ui.library_panel'):
        'ui.library_panel loads at start-up\'s "settled" step, after ui.library_dock (at "shown")',
    ('fightdesk.ui.library_panel', 'fightdesk.engine.rulesets'):
        'engine.rulesets loads in the same start-up step ("loaded") as ui.library_panel; at the call, importing ui.library_panel alone does not load it',
    ('fightdesk.ui.library_panel', 'fightdesk.storage.library'):
        'storage.library loads in the same start-up step ("settled") as ui.library_panel; at the call, importing ui.library_panel alone does not load it',
    ('fightdesk.ui.library_panel', 'fightdesk.ui.ruleset_choice'):
        'ui.ruleset_choice is not loaded by a start on the demo: only when this call in ui.library_panel runs',
    ('fightdesk.ui.log_view', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads at start-up\'s "loaded" step, after ui.log_view (at "shown")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.cards'):
        'ui.cards loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.decision'):
        'ui.decision loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.dice_bar'):
        'ui.dice_bar loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.gm_actions'):
        'ui.gm_actions loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.library_dock'):
        'ui.library_dock loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.log_view'):
        'ui.log_view loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.models'):
        'ui.models loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.paint_watch'):
        'ui.paint_watch loads in the same start-up step ("first-paint") as ui.main_window; at the call, importing ui.main_window alone does not load it',
    ('fightdesk.ui.main_window', 'fightdesk.ui.palettes'):
        'ui.palettes loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.plain'):
        'ui.plain loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.printing'):
        'ui.printing loads at start-up\'s "settled" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.roll_panel'):
        'ui.roll_panel loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.save_questions'):
        'ui.save_questions loads at start-up\'s "loaded" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.settings'):
        'ui.settings loads in the same start-up step ("first-paint") as ui.main_window; at the call, importing ui.main_window alone does not load it',
    ('fightdesk.ui.main_window', 'fightdesk.ui.share_dialog'):
        'ui.share_dialog loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.status_label'):
        'ui.status_label loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.timeline'):
        'ui.timeline loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.tool_buttons'):
        'ui.tool_buttons loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.view_refresh'):
        'ui.view_refresh loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.main_window', 'fightdesk.ui.window_files'):
        'ui.window_files loads at start-up\'s "shown" step, after ui.main_window (at "first-paint")',
    ('fightdesk.ui.models', 'fightdesk.engine.views'):
        'engine.views loads in the same start-up step ("shown") as ui.models; at the call, importing ui.models alone does not load it',
    ('fightdesk.ui.operations', 'fightdesk.engine.changes'):
        'engine.changes loads at start-up\'s "loaded" step, after ui.operations (at "shown")',
    ('fightdesk.ui.operations', 'fightdesk.engine.commands'):
        'engine.commands loads at start-up\'s "settled" step, after ui.operations (at "shown")',
    ('fightdesk.ui.operations', 'fightdesk.engine.engine'):
        'engine.engine loads at start-up\'s "loaded" step, after ui.operations (at "shown")',
    ('fightdesk.ui.operations', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads at start-up\'s "loaded" step, after ui.operations (at "shown")',
    ('fightdesk.ui.operations', 'fightdesk.storage.library'):
        'storage.library loads at start-up\'s "settled" step, after ui.operations (at "shown")',
    ('fightdesk.ui.printing', 'fightdesk.report'):
        'report is not loaded by a start on the demo: only when this call in ui.printing runs',
    ('fightdesk.ui.printing', 'fightdesk.ui.summary_pages'):
        'ui.summary_pages is not loaded by a start on the demo: only when this call in ui.printing runs',
    ('fightdesk.ui.recovery', 'fightdesk.engine.engine'):
        'engine.engine loads in the same start-up step ("loaded") as ui.recovery; at the call, importing ui.recovery alone does not load it',
    ('fightdesk.ui.recovery', 'fightdesk.storage.autosave'):
        'storage.autosave loads in the same start-up step ("loaded") as ui.recovery; at the call, importing ui.recovery alone does not load it',
    ('fightdesk.ui.recovery', 'fightdesk.storage.files'):
        'storage.files loads in the same start-up step ("shown") as ui.recovery; at the call, importing ui.recovery alone does not load it',
    ('fightdesk.ui.recovery', 'fightdesk.ui.settings'):
        'ui.settings loads in the same start-up step ("first-paint") as ui.recovery; at the call, importing ui.recovery alone does not load it',
    ('fightdesk.ui.roll_panel', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads at start-up\'s "loaded" step, after ui.roll_panel (at "shown")',
    ('fightdesk.ui.ruleset_choice', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads in the same start-up step ("loaded") as ui.ruleset_choice; at the call, importing ui.ruleset_choice alone does not load it',
    ('fightdesk.ui.ruleset_choice', 'fightdesk.engine.rulesets'):
        'engine.rulesets loads in the same start-up step ("loaded") as ui.ruleset_choice; at the call, importing ui.ruleset_choice alone does not load it',
    ('fightdesk.ui.save_questions', 'fightdesk.storage.files'):
        'storage.files loads in the same start-up step ("shown") as ui.save_questions; at the call, importing ui.save_questions alone does not load it',
    ('fightdesk.ui.save_questions', 'fightdesk.ui.recovery'):
        'ui.recovery loads in the same start-up step ("loaded") as ui.save_questions; at the call, importing ui.save_questions alone does not load it',
    ('fightdesk.ui.settings', 'fightdesk.storage.files'):
        'storage.files loads at start-up\'s "shown" step, after ui.settings (at "first-paint")',
    ('fightdesk.ui.share_dialog', 'fightdesk.engine.commands'):
        'engine.commands loads at start-up\'s "settled" step, after ui.share_dialog (at "shown")',
    ('fightdesk.ui.share_dialog', 'fightdesk.share.network'):
        'share.network is not loaded by a start on the demo: only when this call in ui.share_dialog runs',
    ('fightdesk.ui.share_dialog', 'fightdesk.share.server'):
        'share.server is not loaded by a start on the demo: only when this call in ui.share_dialog runs',
    ('fightdesk.ui.share_dialog', 'fightdesk.share.snapshot'):
        'share.snapshot is not loaded by a start on the demo: only when this call in ui.share_dialog runs',
    ('fightdesk.ui.summary_files', 'fightdesk.report'):
        'report is not loaded by a start on the demo: only when this call in ui.summary_files runs',
    ('fightdesk.ui.summary_files', 'fightdesk.report.render'):
        'report.render is not loaded by a start on the demo: only when this call in ui.summary_files runs',
    ('fightdesk.ui.summary_files', 'fightdesk.ui.chart'):
        'ui.chart is not loaded by a start on the demo: only when this call in ui.summary_files runs',
    ('fightdesk.ui.summary_files', 'fightdesk.ui.summary_pages'):
        'ui.summary_pages is not loaded by a start on the demo: only when this call in ui.summary_files runs',
    ('fightdesk.ui.summary_pages', 'fightdesk.ui.chart'):
        'ui.chart is not loaded by a start on the demo: only when this call in ui.summary_pages runs',
    ('fightdesk.ui.table_editor', 'fightdesk.engine.commands'):
        'engine.commands loads in the same start-up step ("settled") as ui.table_editor; at the call, importing ui.table_editor alone does not load it',
    ('fightdesk.ui.view_refresh', 'fightdesk.engine.player_view'):
        'engine.player_view is not loaded by a start on the demo: only when this call in ui.view_refresh runs',
    ('fightdesk.ui.view_refresh', 'fightdesk.engine.ruleset'):
        'engine.ruleset loads at start-up\'s "loaded" step, after ui.view_refresh (at "shown")',
    ('fightdesk.ui.view_refresh', 'fightdesk.engine.views'):
        'engine.views loads in the same start-up step ("shown") as ui.view_refresh; at the call, importing ui.view_refresh alone does not load it',
    ('fightdesk.ui.view_refresh', 'fightdesk.ui.operations'):
        'ui.operations loads in the same start-up step ("shown") as ui.view_refresh; at the call, importing ui.view_refresh alone does not load it',
    ('fightdesk.ui.view_refresh', 'fightdesk.ui.plain'):
        'ui.plain loads in the same start-up step ("shown") as ui.view_refresh; at the call, importing ui.view_refresh alone does not load it',
    ('fightdesk.ui.window_files', 'fightdesk.engine.engine'):
        'engine.engine loads at start-up\'s "loaded" step, after ui.window_files (at "shown")',
    ('fightdesk.ui.window_files', 'fightdesk.engine.model'):
        'engine.model loads at start-up\'s "loaded" step, after ui.window_files (at "shown")',
    ('fightdesk.ui.window_files', 'fightdesk.storage.files'):
        'storage.files loads in the same start-up step ("shown") as ui.window_files; at the call, importing ui.window_files alone does not load it',
    ('fightdesk.ui.window_files', 'fightdesk.storage.history'):
        'storage.history loads at start-up\'s "loaded" step, after ui.window_files (at "shown")',
    ('fightdesk.ui.window_files', 'fightdesk.storage.sessions'):
        'storage.sessions loads at start-up\'s "loaded" step, after ui.window_files (at "shown")',
    ('fightdesk.ui.window_files', 'fightdesk.storage.trust'):
        'storage.trust loads at start-up\'s "loaded" step, after ui.window_files (at "shown")',
    ('fightdesk.ui.window_files', 'fightdesk.ui.ruleset_choice'):
        'ui.ruleset_choice is not loaded by a start on the demo: only when this call in ui.window_files runs',
    ('fightdesk.ui.window_files', 'fightdesk.ui.save_questions'):
        'ui.save_questions loads at start-up\'s "loaded" step, after ui.window_files (at "shown")',
}


class Import(NamedTuple):
    importer: str
    imported: str
    line: int
    at_load: bool  # False: inside a function


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _owner(name: str) -> str:
    """The module an imported name lives in (``a.b.func`` -> ``a.b``)."""
    while name not in MODULES and "." in name:
        name = name.rpartition(".")[0]
    return name


def imports_of(name: str) -> list[Import]:
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, at_load: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other, at_load)
                continue
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, False)
                continue
            targets: list[str] = []
            line = 0
            if isinstance(child, ast.Import):
                targets, line = [alias.name for alias in child.names], child.lineno
            elif isinstance(child, ast.ImportFrom):
                line = child.lineno
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    parts = parts[:len(parts) - (child.level - 1)]
                    base = ".".join(parts + ([child.module] if child.module else []))
                targets = [f"{base}.{alias.name}" for alias in child.names]
            else:
                visit(child, at_load)
            for target in targets:
                if target.split(".")[0] == "fightdesk":
                    found.append(Import(name, _owner(target), line, at_load))

    visit(ast.parse(path.read_text(encoding="utf-8")), True)
    return found


ALL = [i for name in sorted(MODULES) for i in imports_of(name)]


def _layer(name: str) -> int | None:
    """0 engine, 1 storage, report and share, 2 ui, 3 the command line and the app; None for the
    helpers every layer may use."""
    if name in ("fightdesk", "fightdesk.paths", "fightdesk.resources_path"):
        return None
    for prefix, rank in (("fightdesk.engine", 0), ("fightdesk.storage", 1),
                         ("fightdesk.report", 1), ("fightdesk.share", 1), ("fightdesk.ui", 2)):
        if name == prefix or name.startswith(prefix + "."):
            return rank
    return 3


def _ruleset_package(name: str) -> str | None:
    parts = name.split(".")
    return parts[3] if name.startswith(RULESETS + ".") and len(parts) > 3 else None


def test_the_reader_sees_imports_at_load_and_inside_functions() -> None:
    seen = {(i.importer, i.imported, i.at_load) for i in ALL}
    assert ("fightdesk.engine.model", "fightdesk.engine.rulesets", True) in seen
    assert ("fightdesk.engine.ruleset", "fightdesk.engine.legal", False) in seen


def test_each_layer_imports_only_the_layers_below_it() -> None:
    wrong = []
    for i in ALL:
        low, high = _layer(i.importer), _layer(i.imported)
        if low is None or high is None:
            continue
        same_middle = low == high == 1 and i.importer.split(".")[1] != i.imported.split(".")[1]
        if high > low or same_middle:
            wrong.append(f"{i.importer}:{i.line} imports {i.imported}")
    assert not wrong, "\n".join(wrong)


def test_the_ruleset_packages_are_independent_of_each_other() -> None:
    wrong = [f"{i.importer}:{i.line} imports {i.imported}" for i in ALL
             if _ruleset_package(i.imported) is not None
             and _ruleset_package(i.importer) not in (None, _ruleset_package(i.imported))]
    assert not wrong, "\n".join(wrong)


def test_the_core_and_the_window_never_import_a_ruleset_package() -> None:
    wrong = [f"{i.importer}:{i.line} imports {i.imported}" for i in ALL
             if _ruleset_package(i.imported) is not None
             and _ruleset_package(i.importer) is None]
    assert not wrong, "\n".join(wrong)


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(MODULES):
        if node not in index:
            visit(node)
    return found


def _edges(with_local: bool) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for i in ALL:
        if i.importer == i.imported or (not i.at_load and not with_local):
            continue
        if not i.at_load and (i.importer, i.imported) in LOCAL_CIRCLES:
            continue
        edges.setdefault(i.importer, set()).add(i.imported)
    return edges


def test_no_circle_of_imports_at_load() -> None:
    assert _circles(_edges(with_local=False)) == []


def test_an_import_inside_a_function_closes_no_circle_but_the_listed_ones() -> None:
    assert _circles(_edges(with_local=True)) == []


def test_every_import_inside_a_function_has_its_reason() -> None:
    local = {(i.importer, i.imported) for i in ALL
             if not i.at_load and i.importer != i.imported}
    unlisted = sorted(local - set(LOCAL_IMPORTS) - set(LOCAL_CIRCLES))
    assert not unlisted, ("imports inside functions with no reason in LOCAL_IMPORTS: "
                          + ", ".join(f"{a} -> {b}" for a, b in unlisted))
    local = {(i.importer, i.imported) for i in ALL if not i.at_load}
    gone = sorted((set(LOCAL_CIRCLES) | set(LOCAL_IMPORTS)) - local)
    assert not gone, ("listed imports no longer made inside a function, take them off the "
                      "list: " + ", ".join(f"{a} -> {b}" for a, b in gone))


def test_each_import_inside_a_function_has_a_reason_of_its_own() -> None:
    reasons = list(LOCAL_IMPORTS.values()) + list(LOCAL_CIRCLES.values())
    shared = sorted({r for r in reasons if reasons.count(r) > 1})
    assert not shared, "reasons given to more than one import: " + "; ".join(shared)


# Street-fighter's rule modules, lowest first: a module imports only those before it; a
# lower one reaches a higher one's steps through state.LaterSteps, never an import.
STREET_FIGHTER_ORDER = ("state", "round", "stack", "specials", "damage", "resolve", "rules")


def test_street_fighter_s_rule_modules_import_in_one_direction() -> None:
    prefix = f"{RULESETS}.street_fighter."
    rank = {prefix + name: n for n, name in enumerate(STREET_FIGHTER_ORDER)}
    wrong = [f"{i.importer}:{i.line} imports {i.imported}" for i in ALL
             if i.importer in rank and i.imported in rank
             and rank[i.imported] >= rank[i.importer] and i.importer != i.imported]
    assert not wrong, "\n".join(wrong)
