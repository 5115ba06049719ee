"""The texts describe the product as it is, and name only what exists.

A comment, docstring or page that explains the code by a ticket number, a work session or
the day something was measured means nothing to a reader of the repository: git history
keeps that story. So no tracked file names an issue, pull request or session number, a
review round, or a date (the current figures' section of docs/benchmarks.md may say when
its one run was made; an AppStream release keeps its release date).

And a docs page (README.md, docs/**/*.md) may name only files, modules, classes,
functions and tests that exist: a path such as ``fightdesk/storage/sessions.py`` or
``storage/history.py``, a dotted name such as ``fightdesk.engine.derived.forget``, a
backticked ``Engine.apply`` or ``sessions.save_session``, a backticked snake_case name
such as ``picture_problem`` (some Python file must use it), a test such as
``tests/test_cli.py::test_x``. Names are looked up in the code's syntax trees, not by
importing it. And a code file may name only docs pages that exist.

The forbidden words are put together from pieces, so this file does not trip on itself.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tests.test_docs_stand_alone import ROOT, shown, text_of, tracked_files

_ISSUE = "iss" + "ue"
_SESSION = "ses" + "sion"
_WHEN = "yester" + "day|this " + "morning|last " + "night|earlier " + "today"
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|"
           "November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec")

STORY: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"\b(?:{_ISSUE}|{_SESSION}|pr|pull request|ticket|bug)s?\s*#?\d+\b",
                re.IGNORECASE),
     "names an issue, pull request or session number"),
    (re.compile(r"(?<![\w&])\(#\d+\)"), "names an issue or pull request number"),
    (re.compile(rf"\b(?:last|previous|earlier|that) {_SESSION}\b|\b{_SESSION} of work\b",
                re.IGNORECASE),
     "tells the story of a work session"),
    (re.compile(r"\breview round\s*\d+\b|\bround \d+ of (?:the )?review\b", re.IGNORECASE),
     "names a review round"),
    (re.compile(r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b"), "names a date"),
    (re.compile(rf"\b\d{{1,2}} (?:{_MONTHS})\.? (?:19|20)\d\d\b|"
                rf"\b(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?,? (?:19|20)\d\d\b"),
     "names a date"),
    (re.compile(rf"\b(?:{_WHEN})\b", re.IGNORECASE),
     "tells when something was done"),
)

# Words one of which a text must hold before a pattern runs over it (None: always run):
# a plain substring test is many times faster than a regular expression over megabytes.
_KEYS: tuple[tuple[str, ...] | None, ...] = (
    (_ISSUE, _SESSION, "pr", "pull request", "ticket", "bug"), ("(#",), (_SESSION,),
    ("review",), None, None, tuple(w.split()[-1] for w in _WHEN.split("|")))

# The section of docs/benchmarks.md that holds the one current table, and may date it.
BENCHMARKS = "docs/benchmarks.md"
FIGURES_HEADING = "## Current figures"
# An AppStream release entry carries its release date by design.
_RELEASE_DATE = re.compile(r"<release\b[^>]*\bdate=\"")


def _dated_span(text: str, heading: str | None) -> tuple[int, int]:
    """Where the section under the heading starts and ends in the text (empty: none)."""
    if heading is None:
        return (0, 0)
    start = text.find("\n" + heading + "\n") if not text.startswith(heading + "\n") else 0
    if start < 0:
        return (0, 0)
    end = text.find("\n## ", start + len(heading) + 1)
    return (start, len(text) if end < 0 else end)


def story_lines(text: str, dated_section: str | None = None) -> list[tuple[int, str, str]]:
    """(line number, the text found, the problem) for each reference to how the code got
    here. ``dated_section``: the heading of a section where a date may stand."""
    found = []
    low, high = _dated_span(text, dated_section)
    folded = text.lower()
    for (pattern, problem), keys in zip(STORY, _KEYS, strict=True):
        if keys is not None and not any(k in folded for k in keys):
            continue
        for match in pattern.finditer(text):
            start, words = match.start(), match.group(0)
            line_start = text.rfind("\n", 0, start) + 1
            line_end = text.find("\n", start)
            line = text[line_start:None if line_end < 0 else line_end]
            if "\n" in words or (problem == "names a date"
                                 and (low <= start < high or _RELEASE_DATE.search(line))):
                continue
            found.append((text.count("\n", 0, start) + 1, words, problem))
    return sorted(found)


def written_files() -> list[Path]:
    """The tracked files people write: not data (JSON fights, campaigns) or the golden
    transcripts the tests generate, several megabytes that hold no prose."""
    return [p for p in tracked_files() if p.suffix != ".json"
            and "golden" not in p.relative_to(ROOT).parts]


def test_no_tracked_file_tells_the_story_of_its_making() -> None:
    problems = []
    for path in written_files():
        text = text_of(path)
        if text is None:
            continue
        name = shown(path)
        dated = FIGURES_HEADING if name == BENCHMARKS else None
        for number, found, problem in story_lines(text, dated):
            problems.append(f"{name}:{number}: {found!r} {problem}")
    assert not problems, "\n".join(problems)


# --- what the code defines, from its syntax trees ------------------------------------------


@dataclass
class ClassInfo:
    members: set[str] = field(default_factory=set)
    bases: set[str] = field(default_factory=set)


@dataclass
class Parsed:
    """What one module defines: its top-level names, its classes, each class's members."""
    names: set[str]
    top_classes: set[str]
    classes: dict[str, ClassInfo]


@dataclass
class CodeIndex:
    """What the code defines. Files are found by name and by a quick scan for ``class``
    lines; a module is parsed only when a page names something in it (parsing them all
    costs seconds)."""
    module_paths: dict[str, list[Path]] = field(default_factory=dict)  # dotted name -> file
    class_paths: dict[str, set[Path]] = field(default_factory=dict)  # class -> its files
    functions: set[str] = field(default_factory=set)  # every def's and class's name
    files: set[str] = field(default_factory=set)  # tracked paths, and their folders
    tails: set[str] = field(default_factory=set)  # every "b/c.py" of a tracked "a/b/c.py"
    by_name: dict[str, list[Path]] = field(default_factory=dict)  # file name -> its files
    words: set[str] = field(default_factory=set)  # every snake_case word in the code
    _parsed: dict[Path, Parsed] = field(default_factory=dict)
    _class_infos: dict[str, ClassInfo] = field(default_factory=dict)

    def parsed(self, path: Path) -> Parsed:
        if path not in self._parsed:
            source = text_of(path) or ""
            try:
                body = ast.parse(source).body
            except SyntaxError:
                body = []
            lines = source.splitlines()
            classes: dict[str, ClassInfo] = {}
            for node in _classes(body):
                info = classes.setdefault(node.name, ClassInfo())
                info.members.update(_defined(node.body))
                info.bases.update(_base_name(b) for b in node.bases)
                text = "\n".join(lines[node.lineno - 1:node.end_lineno])
                info.members.update(_SELF_ATTR.findall(text))  # self.x = ... in its methods
            self._parsed[path] = Parsed(_defined(body), {n.name for n in body
                                                         if isinstance(n, ast.ClassDef)},
                                        classes)
        return self._parsed[path]

    def has_module(self, module: str) -> bool:
        return module in self.module_paths

    def names(self, module: str) -> set[str]:
        return {n for path in self.module_paths[module] for n in self.parsed(path).names}

    def classes_in(self, module: str) -> set[str]:
        return {c for path in self.module_paths[module] for c in self.parsed(path).top_classes}

    def has_class(self, name: str) -> bool:
        return name in self.class_paths

    def class_info(self, name: str) -> ClassInfo:
        if name not in self._class_infos:
            info = ClassInfo()
            for path in sorted(self.class_paths[name]):
                found = self.parsed(path).classes.get(name)
                if found is not None:
                    info.members |= found.members
                    info.bases |= found.bases
            self._class_infos[name] = info
        return self._class_infos[name]


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [n for elt in node.elts for n in _targets(elt)]
    return []


def _defined(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(n for t in node.targets for n in _targets(t))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            names.update(_targets(node.target))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            for part in ("body", "orelse", "finalbody"):
                names.update(_defined(getattr(node, part, []) or []))
            for handler in getattr(node, "handlers", []):
                names.update(_defined(handler.body))
    return names


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Subscript):
        return _base_name(node.value)
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def index_code(root: Path, files: tuple[Path, ...]) -> CodeIndex:
    index = CodeIndex()
    for path in files:
        rel = path.relative_to(root)
        index.files.add(rel.as_posix())
        index.files.update(p.as_posix() for p in rel.parents if p != Path("."))
        index.tails.update("/".join(rel.parts[i:]) for i in range(1, len(rel.parts)))
        index.by_name.setdefault(rel.name, []).append(path)
        if path.suffix != ".py":
            continue
        source = text_of(path) or ""
        index.functions.update(_DEF.findall(source))
        index.words.update(_SNAKE.findall(source))
        if rel.parts[0] not in ("fightdesk", "benchmarks", "tools", "resources"):
            continue  # tests' and docs' scripts: their functions are enough
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[0] == "resources":  # installed as fightdesk.resources (setup.py)
            parts.insert(0, "fightdesk")
        index.module_paths.setdefault(".".join(parts), []).append(path)
        for name in _CLASS.findall(source):
            index.class_paths.setdefault(name, set()).add(path)
    return index


_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)", re.MULTILINE)
_SNAKE = re.compile(r"[a-z][a-z0-9]*_[a-z0-9_]+")
_CLASS = re.compile(r"^[ \t]*class[ \t]+(\w+)", re.MULTILINE)
_SELF_ATTR = re.compile(r"\bself\.(\w+)\s*(?::[^=\n]+)?=[^=]")


def _classes(body: list[ast.stmt]) -> list[ast.ClassDef]:
    """The classes in a module's or a class's or function's body, nested ones too (the
    statements only: no walk through every expression)."""
    found: list[ast.ClassDef] = []
    for node in body:
        if isinstance(node, ast.ClassDef):
            found.append(node)
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.If,
                             ast.Try, ast.With)):
            found += _classes(node.body)
    return found


@cache
def code_index() -> CodeIndex:
    return index_code(ROOT, tracked_files())


def class_has(index: CodeIndex, name: str, member: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether the class (or a base it inherits from) has the member. A base outside the
    project (pydantic's, Qt's, a dataclass's) may define anything, so it is taken on trust."""
    info = index.class_info(name)
    if member in info.members:
        return True
    for base in info.bases - seen - {name}:
        if not index.has_class(base):
            if base not in ("", "object", "Protocol", "Enum", "StrEnum", "IntEnum",
                            "NamedTuple", "Generic", "Exception", "ValueError"):
                return True
        elif class_has(index, base, member, seen | {name}):
            return True
    return False


def dotted_missing(index: CodeIndex, dotted: str) -> str | None:
    """Why ``fightdesk.a.b.name.member`` names nothing, or None when it names something."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        if index.has_module(module):
            break
    else:
        return f"no module {dotted}"
    rest = parts[cut:]
    if not rest or (len(rest) == 1 and rest[0] in _EXTENSIONS):  # a file: fightdesk.log
        return None
    if rest[0] not in index.names(module):
        return f"{module} has no {rest[0]}"
    if len(rest) > 1 and index.has_class(rest[0]) and not class_has(index, rest[0], rest[1]):
        return f"{module}.{rest[0]} has no {rest[1]}"
    return None


def short_missing(index: CodeIndex, owner: str, member: str) -> str | None:
    """Why a backticked ``Owner.member`` or ``module.name`` names nothing; None when it
    names something or the owner is not the project's (a Qt class, a variable)."""
    if index.has_class(owner):
        return None if class_has(index, owner, member) else f"{owner} has no {member}"
    modules = [m for m in index.module_paths if m.startswith("fightdesk.")
               and m.rsplit(".", 1)[-1] == owner]
    if modules and not any(member in index.names(m) or index.has_module(f"{m}.{member}")
                           or any(class_has(index, c, member) for c in index.classes_in(m))
                           for m in modules):
        return f"module {owner} has no {member}"
    return None


def path_missing(index: CodeIndex, path: str, after: str = "") -> bool:
    """A path from the repository root, from fightdesk/, or the tail of a tracked path.
    ``after``: the character that ended it; a pattern (``tests/test_*.py``,
    ``docs/rulesets/<id>.md``) or a name with a space need only begin a tracked path."""
    path = path.rstrip("/")
    if after in ("*", "<", "{"):
        return not any(f.startswith(path) for f in index.files)
    if after == " " and any(f.startswith(path + " ") for f in index.files):
        return False
    if path in index.files or f"fightdesk/{path}" in index.files or path in index.tails:
        return False
    return not any(f.endswith("/" + path) for f in index.files)  # a folder's tail


_EXTENSIONS = {"py", "md", "json", "toml", "txt", "png", "html", "pdf", "svg", "log", "ico",
               "icns", "desktop", "xml", "cfg"}
# Names the project defines outside its modules: the entry-point group rulesets join.
_NON_MODULES = {"fightdesk.rulesets"}
_ROOTS = "fightdesk|tests|benchmarks|tools|docs|packaging|resources|requirements|\\.ci"
_ROOTED_PATH = re.compile(rf"(?<![\w./-])((?:{_ROOTS})/[\w./-]*\w)")
_PY_FILE = re.compile(r"(?<![\w./-])((?:[\w-]+/)*\w+\.py)\b")
_DOTTED = re.compile(r"(?<![\w./-])(fightdesk(?:\.\w+)+)")
_SHORT = re.compile(r"`([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\(\))?`")
_CALLED = re.compile(r"`([a-z_][a-z0-9_]*)\(\)`")
# A backticked name in snake_case (`picture_problem`, `step_open()`): some Python file
# of the project must use it, as a function, a field, an option or a key.
_NAMED = re.compile(r"`([a-z][a-z0-9]*_[a-z0-9_]+)(?:\(\))?`")
_PLACEHOLDERS = {"file.py"}  # "`file.py::test_name`", the form of a test's name


def missing_names(page: Path, text: str, index: CodeIndex) -> list[str]:
    """Each name on the page that the code does not define, as "page:line: problem"."""
    problems = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        where = f"{shown(page)}:{number}"
        seen_paths = set()
        for match in _ROOTED_PATH.finditer(line):
            path = match.group(1).rstrip(".")
            seen_paths.add(path)
            if path_missing(index, path, line[match.end():match.end() + 1]):
                problems.append(f"{where}: no file or folder {path}")
        for match in _PY_FILE.finditer(line):
            path = match.group(1)
            if path not in seen_paths and not any(p.endswith(path) for p in seen_paths) \
                    and path not in _PLACEHOLDERS and path_missing(index, path):
                problems.append(f"{where}: no file {path}")
        for match in _DOTTED.finditer(line):
            dotted = match.group(1)
            if dotted in _NON_MODULES or "/" in line[match.end():match.end() + 1]:
                continue
            why = dotted_missing(index, dotted)
            if why:
                problems.append(f"{where}: {why}")
        if fenced:
            continue
        for match in _SHORT.finditer(line):
            owner, member = match.groups()
            if member in _EXTENSIONS:
                continue
            why = short_missing(index, owner, member)
            if why:
                problems.append(f"{where}: {why}")
        for match in _CALLED.finditer(line):
            if match.group(1) not in index.functions and match.group(1) not in dir(__builtins__):
                problems.append(f"{where}: no function {match.group(1)}()")
        for match in _NAMED.finditer(line):
            if match.group(1) not in index.words and match.group(1) not in index.functions:
                problems.append(f"{where}: the code has no {match.group(1)}")
    return problems


_TEST_REF = re.compile(r"((?:[\w.-]+/)*test_\w+\.py)::(test_\w+)")


_TEST_DEF = re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+(test_\w+)\(", re.MULTILINE)


@cache
def _tests_in(path: Path) -> frozenset[str]:
    return frozenset(_TEST_DEF.findall(text_of(path) or ""))


def missing_tests_named(page: Path, text: str, index: CodeIndex) -> list[str]:
    """Each ``file.py::test_name`` on the page must be a test in that file: a path from
    the repository root, or a file of that name under tests/ (as on the ruleset pages)."""
    problems = []
    for match in _TEST_REF.finditer(text):
        file, test = match.groups()
        exact = ROOT / file
        candidates = [exact] if exact.is_file() else \
            [c for c in index.by_name.get(Path(file).name, []) if "tests" in c.parts]
        if not any(test in _tests_in(c) for c in candidates):
            number = text.count("\n", 0, match.start()) + 1
            problems.append(f"{shown(page)}:{number}: no test {test} in {file}")
    return problems


def doc_pages() -> list[Path]:
    return [p for p in tracked_files() if p.suffix == ".md"
            and (p.parent == ROOT or p.relative_to(ROOT).parts[0] == "docs")]


def test_docs_pages_name_only_what_exists() -> None:
    pages = doc_pages()
    assert any(p.name == "ARCHITECTURE.md" for p in pages), "no docs pages found"
    index = code_index()
    problems = [p for page in pages for p in missing_names(page, text_of(page) or "", index)]
    problems += [p for page in pages for p in missing_tests_named(page, text_of(page) or "",
                                                                     index)]
    assert not problems, "\n".join(problems)


# A page of the docs (under docs/) or a capitalised one (README.md); a test's scratch
# files (fight.md, x.md) are not pages, nor one a test names as missing ("no-such").
_MD_FILE = re.compile(r"(?<![\w./{}-])((?:docs/[\w/.-]+|[A-Z][A-Z_]+)\.md)\b")


def missing_pages(path: Path, text: str, index: CodeIndex) -> list[str]:
    """Each Markdown page a code file names (``docs/ui.md``, ``README.md``) that the
    repository does not have. A path put together in an f-string is not a name."""
    return [f"{shown(path)}:{text.count(chr(10), 0, m.start()) + 1}: no page {m.group(1)}"
            for m in _MD_FILE.finditer(text)
            if "no-such" not in m.group(1) and "no_such" not in m.group(1)
            and path_missing(index, m.group(1))]


def test_code_names_only_pages_that_exist() -> None:
    index = code_index()
    code = [p for p in written_files() if p.suffix == ".py"]
    assert code
    problems = [p for path in code for p in missing_pages(path, text_of(path) or "", index)]
    assert not problems, "\n".join(problems)


# --- the checks themselves catch what they should ------------------------------------------


def test_story_words_are_caught_and_ordinary_words_are_not() -> None:
    caught = [
        f"the views {_SESSION} ({_ISSUE} 16's goal)",
        f"see {_ISSUE} #12",
        f"Soak {_SESSION} 6",
        f"fixed in the last {_SESSION}",
        "the cache (#" + "41) helps",
        "round 2 of the " + "review",
        "Measured on 2026" + "-11-30 on the shared machine",
        "measured 30 November " + "2026",
        "measured Nov 30, " + "2026",
        "slower than this " + "morning",
    ]
    for line in caught:
        assert story_lines(line), line
    fine = [
        f"round 7 is not in this {_SESSION} (it has rounds 1..2)",
        f"{_SESSION}s.MIGRATIONS, 2",
        f"a {_SESSION} with 200 fighters",
        "color: #000; background: #e6e6e6",
        "fighter #3 \"Lantern\"",
        "schema version 2",
        '<release version="0.1.0" date="2026-11-29">',
    ]
    for line in fine:
        assert not story_lines(line), line
    day = "2026" + "-12-02"
    table = f"## Goals\nx\n{FIGURES_HEADING}\nrun on {day}\n## How to run\n{day}\n"
    assert [n for n, _, _ in story_lines(table, FIGURES_HEADING)] == [6]


def test_missing_names_are_caught_and_real_ones_are_not() -> None:
    index = code_index()
    page = ROOT / "docs" / "ARCHITECTURE.md"
    real = ("`fightdesk/storage/sessions.py`, `storage/history.py`, "
            "fightdesk.engine.derived.forget, `Engine.apply`, `sessions.save_session`, "
            "`fightdesk.storage`, `QLayout.takeAt`, `session.log`, `save_session()`, "
            "`Session.model_validate_json`, docs/rulesets/, `tests/test_cli.py`, "
            "`picture_problem`, `ones_cancel_on_other_rolls`")
    assert missing_names(page, real, index) == []
    wrong = ["`fightdesk/storage/no_such.py`", "`state.py` `no_such" + "_helper`", "`storage/no_such.py`",
             "fightdesk.engine.no_such", "fightdesk.engine.derived.no_such",
             "`Engine.no_such`", "`sessions.no_such`", "`no_such_function()`",
             "docs/no_such" + ".md"]
    for line in wrong:
        assert missing_names(page, line, index), line
    assert not missing_tests_named(page, "`test_damage.py::test_zero_health_is_out_of_the_fight`",
                                   index)
    assert missing_tests_named(page, "`test_damage.py::test_no_such_rule`", index)
    assert missing_tests_named(page, "`tests/test_cli.py::test_zero_health_is_out_of_the_fight`",
                               index)
    code = ROOT / "tests" / "test_layers.py"
    assert missing_pages(code, '"""The layers of ' + 'STYLE' + '.md: engine"""', index)
    assert not missing_pages(code, "(docs/ui.md, README.md, docs/rulesets/ashes.md)", index)
    assert not missing_pages(code, 'f"/work/{folder}/' + 'STYLE' + '.md"', index)
