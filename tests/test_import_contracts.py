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
  closes a circle is one of :data:`LOCAL_CIRCLES`, each with the reason it stays.
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
        "the simulator's legal moves read the ruleset's views; the base class offers them",
    ("fightdesk.ui.library_dock", "fightdesk.ui.main_window"):
        "the dock asks the window for its size at the first show (start-up builds it late)",
    ("fightdesk.ui.view_refresh", "fightdesk.ui.main_window"):
        "tooltips set through the window's one helper",
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
    local = {(i.importer, i.imported) for i in ALL if not i.at_load}
    assert set(LOCAL_CIRCLES) <= local, "a listed import is gone: take it off the list"
