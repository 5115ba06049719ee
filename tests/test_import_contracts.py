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
- every other import inside a function is one of :data:`LOCAL_IMPORTS`, with its reason.
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


# Why an import is made inside a function rather than when its module loads, by the
# layer it is in.
_WINDOW = ("the window's start-up: a module, dialog or Qt class imported where it is first "
           "used, so the first paint loads only what it shows (docs/startup.md)")
_COMMAND_LINE = "the command line loads only the modules of the sub-command it runs"
_RULES = ("a ruleset's rules load at their first use, not when a fight is shown, and the "
          "rule modules that call each other import at the call")
_ENGINE = ("the engine's start-up: imported by the first command or check that needs it, "
           "not when the window shows a fight (docs/startup.md)")
_FILES = ("the engine's models and checks load when a file is read or written, not at "
          "start-up (docs/startup.md)")

# Every other import inside a function in fightdesk/, with its reason: one not listed
# here (nor in LOCAL_CIRCLES) fails test_every_import_inside_a_function_has_its_reason.
_LOCAL_BY_REASON: dict[str, tuple[tuple[str, str], ...]] = {
    _WINDOW: (
        ("fightdesk.app", "fightdesk"),
        ("fightdesk.app", "fightdesk.engine.engine"),
        ("fightdesk.app", "fightdesk.engine.lazy"),
        ("fightdesk.app", "fightdesk.paths"),
        ("fightdesk.app", "fightdesk.resources_path"),
        ("fightdesk.app", "fightdesk.storage.files"),
        ("fightdesk.app", "fightdesk.storage.picture"),
        ("fightdesk.app", "fightdesk.storage.sessions"),
        ("fightdesk.app", "fightdesk.ui.error_report"),
        ("fightdesk.app", "fightdesk.ui.main_window"),
        ("fightdesk.app", "fightdesk.ui.paint_watch"),
        ("fightdesk.app", "fightdesk.ui.plain"),
        ("fightdesk.app", "fightdesk.ui.recovery"),
        ("fightdesk.app", "fightdesk.ui.settings"),
        ("fightdesk.ui.decision", "fightdesk.engine.ruleset"),
        ("fightdesk.ui.roll_panel", "fightdesk.engine.ruleset"),
        ("fightdesk.ui.document", "fightdesk.engine.engine"),
        ("fightdesk.ui.document", "fightdesk.engine.views"),
        ("fightdesk.ui.error_report", "fightdesk.paths"),
        ("fightdesk.ui.fighter_form", "fightdesk.engine.changes"),
        ("fightdesk.ui.fighter_form", "fightdesk.engine.model"),
        ("fightdesk.ui.fighter_form", "fightdesk.engine.rulesets"),
        ("fightdesk.ui.fighter_form", "fightdesk.storage.library"),
        ("fightdesk.ui.gm_actions", "fightdesk.engine.notation"),
        ("fightdesk.ui.gm_actions", "fightdesk.engine.tables"),
        ("fightdesk.ui.gm_actions", "fightdesk.engine.targets"),
        ("fightdesk.ui.gm_actions", "fightdesk.storage.library"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.action_dialog"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.condition_dialog"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.decision"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.fighter_editor"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.form_fields"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.health_dialog"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.options_dialog"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.player_view"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.quick_add"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.settings"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.simulate_dialog"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.stack_dialog"),
        ("fightdesk.ui.gm_actions", "fightdesk.ui.table_editor"),
        ("fightdesk.ui.library_dock", "fightdesk.storage.library"),
        ("fightdesk.ui.library_dock", "fightdesk.ui.library_panel"),
        ("fightdesk.ui.library_panel", "fightdesk.engine.rulesets"),
        ("fightdesk.ui.library_panel", "fightdesk.storage.library"),
        ("fightdesk.ui.library_panel", "fightdesk.ui.ruleset_choice"),
        ("fightdesk.ui.log_view", "fightdesk.engine.ruleset"),
        ("fightdesk.ui.main_window", "fightdesk.ui.cards"),
        ("fightdesk.ui.main_window", "fightdesk.ui.decision"),
        ("fightdesk.ui.main_window", "fightdesk.ui.dice_bar"),
        ("fightdesk.ui.main_window", "fightdesk.ui.gm_actions"),
        ("fightdesk.ui.main_window", "fightdesk.ui.library_dock"),
        ("fightdesk.ui.main_window", "fightdesk.ui.log_view"),
        ("fightdesk.ui.main_window", "fightdesk.ui.models"),
        ("fightdesk.ui.main_window", "fightdesk.ui.paint_watch"),
        ("fightdesk.ui.main_window", "fightdesk.ui.palettes"),
        ("fightdesk.ui.main_window", "fightdesk.ui.plain"),
        ("fightdesk.ui.main_window", "fightdesk.ui.printing"),
        ("fightdesk.ui.main_window", "fightdesk.ui.roll_panel"),
        ("fightdesk.ui.main_window", "fightdesk.ui.save_questions"),
        ("fightdesk.ui.main_window", "fightdesk.ui.settings"),
        ("fightdesk.ui.main_window", "fightdesk.ui.share_dialog"),
        ("fightdesk.ui.main_window", "fightdesk.ui.status_label"),
        ("fightdesk.ui.main_window", "fightdesk.ui.timeline"),
        ("fightdesk.ui.main_window", "fightdesk.ui.tool_buttons"),
        ("fightdesk.ui.main_window", "fightdesk.ui.view_refresh"),
        ("fightdesk.ui.main_window", "fightdesk.ui.window_files"),
        ("fightdesk.ui.models", "fightdesk.engine.views"),
        ("fightdesk.ui.operations", "fightdesk.engine.changes"),
        ("fightdesk.ui.operations", "fightdesk.engine.commands"),
        ("fightdesk.ui.operations", "fightdesk.engine.engine"),
        ("fightdesk.ui.operations", "fightdesk.engine.ruleset"),
        ("fightdesk.ui.operations", "fightdesk.storage.library"),
        ("fightdesk.ui.printing", "fightdesk.report"),
        ("fightdesk.ui.printing", "fightdesk.ui.summary_pages"),
        ("fightdesk.ui.recovery", "fightdesk.engine.engine"),
        ("fightdesk.ui.recovery", "fightdesk.storage.autosave"),
        ("fightdesk.ui.recovery", "fightdesk.storage.files"),
        ("fightdesk.ui.recovery", "fightdesk.ui.settings"),
        ("fightdesk.ui.ruleset_choice", "fightdesk.engine.ruleset"),
        ("fightdesk.ui.ruleset_choice", "fightdesk.engine.rulesets"),
        ("fightdesk.ui.save_questions", "fightdesk.storage.files"),
        ("fightdesk.ui.save_questions", "fightdesk.ui.recovery"),
        ("fightdesk.ui.settings", "fightdesk.storage.files"),
        ("fightdesk.ui.share_dialog", "fightdesk.engine.commands"),
        ("fightdesk.ui.share_dialog", "fightdesk.share.network"),
        ("fightdesk.ui.share_dialog", "fightdesk.share.server"),
        ("fightdesk.ui.share_dialog", "fightdesk.share.snapshot"),
        ("fightdesk.ui.summary_files", "fightdesk.report"),
        ("fightdesk.ui.summary_files", "fightdesk.report.render"),
        ("fightdesk.ui.summary_files", "fightdesk.ui.chart"),
        ("fightdesk.ui.summary_files", "fightdesk.ui.summary_pages"),
        ("fightdesk.ui.summary_pages", "fightdesk.ui.chart"),
        ("fightdesk.ui.table_editor", "fightdesk.engine.commands"),
        ("fightdesk.ui.view_refresh", "fightdesk.engine.player_view"),
        ("fightdesk.ui.view_refresh", "fightdesk.engine.ruleset"),
        ("fightdesk.ui.view_refresh", "fightdesk.engine.views"),
        ("fightdesk.ui.view_refresh", "fightdesk.ui.operations"),
        ("fightdesk.ui.view_refresh", "fightdesk.ui.plain"),
        ("fightdesk.ui.window_files", "fightdesk.engine.engine"),
        ("fightdesk.ui.window_files", "fightdesk.engine.model"),
        ("fightdesk.ui.window_files", "fightdesk.storage.files"),
        ("fightdesk.ui.window_files", "fightdesk.storage.history"),
        ("fightdesk.ui.window_files", "fightdesk.storage.sessions"),
        ("fightdesk.ui.window_files", "fightdesk.storage.trust"),
        ("fightdesk.ui.window_files", "fightdesk.ui.ruleset_choice"),
        ("fightdesk.ui.window_files", "fightdesk.ui.save_questions"),
    ),
    _COMMAND_LINE: (
        ("fightdesk.cli", "fightdesk.app"),
        ("fightdesk.cli", "fightdesk.storage.files"),
        ("fightdesk.cli", "fightdesk.storage.sessions"),
        ("fightdesk.cli_new", "fightdesk.engine.model"),
        ("fightdesk.cli_new", "fightdesk.engine.rulesets"),
        ("fightdesk.cli_new", "fightdesk.storage.files"),
        ("fightdesk.cli_new", "fightdesk.storage.sessions"),
        ("fightdesk.cli_odds", "fightdesk.engine.rulesets"),
        ("fightdesk.cli_simulate", "fightdesk.engine.simulate"),
        ("fightdesk.cli_simulate", "fightdesk.storage.files"),
        ("fightdesk.cli_simulate", "fightdesk.storage.sessions"),
        ("fightdesk.cli_summary", "fightdesk.report"),
        ("fightdesk.cli_summary", "fightdesk.storage.files"),
        ("fightdesk.cli_summary", "fightdesk.storage.sessions"),
        ("fightdesk.cli_summary", "fightdesk.ui.summary_files"),
    ),
    _RULES: (
        ("fightdesk.engine.rulesets.d100.damage", "fightdesk.engine.conditions"),
        ("fightdesk.engine.rulesets.d100.defense", "fightdesk.engine.base"),
        ("fightdesk.engine.rulesets.d100.defense", "fightdesk.engine.conditions"),
        ("fightdesk.engine.rulesets.d100.rules", "fightdesk.engine.conditions"),
        ("fightdesk.engine.rulesets.roll_under.rules", "fightdesk.engine.conditions"),
        ("fightdesk.engine.rulesets.roll_under.rules", "fightdesk.engine.pending_roll"),
        ("fightdesk.engine.rulesets.roll_under.rules", "fightdesk.engine.tables"),
        ("fightdesk.engine.rulesets.street_fighter", "fightdesk.engine.rulesets.street_fighter.rules"),
        ("fightdesk.engine.rulesets.street_fighter.damage", "fightdesk.engine.odds"),
        ("fightdesk.engine.rulesets.street_fighter.damage", "fightdesk.engine.ruleset"),
        ("fightdesk.engine.rulesets.street_fighter.damage", "fightdesk.engine.rulesets.street_fighter.round"),
        ("fightdesk.engine.rulesets.street_fighter.damage", "fightdesk.engine.rulesets.street_fighter.stack"),
        ("fightdesk.engine.rulesets.street_fighter.damage", "fightdesk.engine.rulesets.street_fighter.state"),
        ("fightdesk.engine.rulesets.street_fighter.demo", "fightdesk.engine.model"),
        ("fightdesk.engine.rulesets.street_fighter.round", "fightdesk.engine.conditions"),
        ("fightdesk.engine.rulesets.street_fighter.round", "fightdesk.engine.rulesets.street_fighter.state"),
        ("fightdesk.engine.rulesets.street_fighter.rules", "fightdesk.engine.rulesets.street_fighter.catalogue"),
        ("fightdesk.engine.rulesets.street_fighter.rules", "fightdesk.engine.rulesets.street_fighter.checks"),
        ("fightdesk.engine.rulesets.street_fighter.rules", "fightdesk.engine.rulesets.street_fighter.damage"),
        ("fightdesk.engine.rulesets.street_fighter.rules", "fightdesk.engine.rulesets.street_fighter.state"),
        ("fightdesk.engine.rulesets.street_fighter.specials", "fightdesk.engine.rulesets.street_fighter.stack"),
        ("fightdesk.engine.rulesets.street_fighter.specials", "fightdesk.engine.rulesets.street_fighter.state"),
        ("fightdesk.engine.rulesets.street_fighter.stack", "fightdesk.engine.rulesets.street_fighter.round"),
        ("fightdesk.engine.rulesets.street_fighter.stack", "fightdesk.engine.rulesets.street_fighter.state"),
        ("fightdesk.engine.rulesets.street_fighter.views.cards", "fightdesk.engine.conditions"),
        ("fightdesk.engine.rulesets.street_fighter.views.preview", "fightdesk.engine.odds"),
        ("fightdesk.engine.rulesets.street_fighter.views.preview", "fightdesk.engine.rulesets.street_fighter.damage"),
    ),
    _ENGINE: (
        ("fightdesk.engine.engine", "fightdesk.engine.conditions"),
        ("fightdesk.engine.engine", "fightdesk.engine.notation"),
        ("fightdesk.engine.engine", "fightdesk.engine.tables"),
        ("fightdesk.engine.model", "fightdesk.engine.tables"),
        ("fightdesk.engine.pending_roll", "fightdesk.engine.ruleset"),
        ("fightdesk.engine.ruleset", "fightdesk.engine.model"),
        ("fightdesk.engine.ruleset", "fightdesk.engine.rulesets"),
        ("fightdesk.engine.simulate", "fightdesk.engine.engine"),
        ("fightdesk.engine.tables", "fightdesk.engine.commands"),
        ("fightdesk.engine.tables", "fightdesk.engine.notation"),
        ("fightdesk.engine.tables", "fightdesk.resources_path"),
        ("fightdesk.engine.turn_ruleset", "fightdesk.engine.commands"),
        ("fightdesk.engine.turns", "fightdesk.engine.changes"),
        ("fightdesk.engine.turns", "fightdesk.engine.ruleset"),
    ),
    _FILES: (
        ("fightdesk.storage.autosave", "fightdesk.engine.views"),
        ("fightdesk.storage.autosave", "fightdesk.paths"),
        ("fightdesk.storage.autosave", "fightdesk.storage.picture"),
        ("fightdesk.storage.autosave", "fightdesk.storage.sessions"),
        ("fightdesk.storage.history", "fightdesk.engine.model"),
        ("fightdesk.storage.history", "fightdesk.storage.sessions"),
        ("fightdesk.storage.history", "fightdesk.storage.trust"),
        ("fightdesk.storage.journal", "fightdesk.engine.model"),
        ("fightdesk.storage.library", "fightdesk.engine.changes"),
        ("fightdesk.storage.library", "fightdesk.engine.ruleset"),
        ("fightdesk.storage.library", "fightdesk.paths"),
        ("fightdesk.storage.library", "fightdesk.resources_path"),
        ("fightdesk.storage.picture", "fightdesk.engine.engine"),
        ("fightdesk.storage.picture", "fightdesk.engine.views"),
        ("fightdesk.storage.picture", "fightdesk.resources_path"),
        ("fightdesk.storage.picture", "fightdesk.storage.sessions"),
        ("fightdesk.storage.sessions", "fightdesk.engine.model"),
        ("fightdesk.storage.sessions", "fightdesk.engine.rulesets"),
        ("fightdesk.storage.sessions", "fightdesk.resources_path"),
        ("fightdesk.storage.trust", "fightdesk.engine.changes"),
        ("fightdesk.storage.trust", "fightdesk.engine.model"),
        ("fightdesk.storage.trust", "fightdesk.engine.ruleset"),
    ),
}
LOCAL_IMPORTS: dict[tuple[str, str], str] = {
    pair: reason for reason, pairs in _LOCAL_BY_REASON.items() for pair in pairs}


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
    assert set(LOCAL_CIRCLES) <= local, "a listed import is gone: take it off the list"
