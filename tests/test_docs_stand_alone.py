"""The repository stands alone: someone who clones it gets every rule and ruling the code
follows in its own docs (docs/rulesets/README.md).

So no tracked file may name the rulings file or a path of the specification folder kept
outside the repository, or a rule text's file name; every pointer into the docs with an
anchor (``docs/rulesets/street-fighter.md#held-die``, or a Markdown link
``[...](../odds.md#readings)``) must land on a heading that exists; and every test a
ruleset page names (``test_damage.py::test_...``) must exist.

The forbidden names are put together from pieces, so this file does not trip on itself.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What a clone does not have, and so no tracked file may name.
_RULINGS = "RUL" + "INGS"
_SPEC_FOLDER = "sha" + "red"
_TEXTS_FOLDER = "se" + "eds"
FORBIDDEN: tuple[tuple[re.Pattern[str], str], ...] = (
    # The rulings file, with or without its extension ("the rulings" in lower case is fine).
    (re.compile(rf"\b{_RULINGS}\b"), "names the rulings file kept outside the repository"),
    # A path into the specification folder: "../x/...", "/work/x/...", "`x/...`". Not
    # preceded by a letter, digit, "_", "." or "-", so a folder whose name merely ends in
    # the word (lib_x/, foo.x/) is not caught.
    (re.compile(rf"(?<![\w.-]){_SPEC_FOLDER}/"),
     "names a path in the specification folder outside the repository"),
    (re.compile(rf"(?<![\w.-]){_TEXTS_FOLDER}/"),
     "names the rule texts' folder outside the repository"),
    # A rule text's file name, e.g. 000_ followed by 16 hex digits and .txt.
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b"), "names a rule text's file"),
)

SKIPPED_DIRS = {".git", ".venv", ".mypy_cache", ".ruff_cache", ".pytest_cache",
                ".hypothesis", "__pycache__", "build", "dist", ".mutation"}


@cache
def tracked_files() -> tuple[Path, ...]:
    """The files git tracks; outside a git checkout (an unpacked source archive), every
    file but caches, builds and virtual environments."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        out = b""
    names = [n for n in out.decode("utf-8").split("\0") if n]
    if names:
        return tuple(ROOT / n for n in names)
    found = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIPPED_DIRS or p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file():
            found.append(path)
    return tuple(found)


@cache
def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary file (images, fonts) or one that is gone."""
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def forbidden_names(text: str) -> list[tuple[int, str, str]]:
    """(line number, the text found, the problem) for each forbidden name in the text."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for pattern, problem in FORBIDDEN:
            for match in pattern.finditer(line):
                found.append((number, match.group(0), problem))
    return found


# --- GitHub-style heading anchors ---------------------------------------------------------

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: links reduced to their text, lower case, every
    character but letters, digits, "_", "-" and spaces dropped, spaces made hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    result: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match is None:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


# A repository-relative pointer with an anchor, anywhere: docs/<path>.md#<anchor>.
_DOC_POINTER = re.compile(r"(?<![\w./-])(docs/[\w./-]+?\.md)#([\w-]+)")
# A Markdown link with an anchor: [text](path.md#anchor) or [text](#anchor).
_MD_LINK = re.compile(r"\]\(([^)\s#]*)#([^)\s]+)\)")


def pointers(path: Path, text: str) -> list[tuple[int, Path, str]]:
    """(line number, the page pointed to, the anchor) for each anchored pointer."""
    found: list[tuple[int, Path, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _DOC_POINTER.finditer(line):
            found.append((number, ROOT / match.group(1), match.group(2)))
        if path.suffix != ".md":
            continue
        for match in _MD_LINK.finditer(line):
            target = match.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            page = (path.parent / target).resolve() if target else path
            found.append((number, page, match.group(2)))
    return found


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def broken_pointers(files: tuple[Path, ...]) -> list[str]:
    problems = []
    for path in files:
        text = text_of(path)
        if text is None:
            continue
        for number, page, anchor in pointers(path, text):
            where = f"{shown(path)}:{number}"
            page_text = text_of(page) if page.suffix == ".md" else None
            if page_text is None:
                problems.append(f"{where}: points to {shown(page)}#{anchor}, "
                                "but that page does not exist")
            elif anchor not in anchors(page_text):
                problems.append(f"{where}: {shown(page)} has no heading "
                                f"with the anchor #{anchor}")
    return problems


# --- the tests a ruleset page names -------------------------------------------------------

_TEST_REF = re.compile(r"((?:[\w.-]+/)*test_\w+\.py)::(test_\w+)")


def missing_tests(page: Path, text: str) -> list[str]:
    """Each ``file.py::test_name`` on the page must be a test in that file: a path from
    the repository root, or a file name found under tests/."""
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _TEST_REF.finditer(line):
            file, test = match.groups()
            exact = ROOT / file
            candidates = [exact] if exact.is_file() else \
                sorted((ROOT / "tests").rglob(Path(file).name))
            defines = re.compile(rf"^\s*(?:async\s+)?def\s+{test}\(", re.MULTILINE)
            if not any(defines.search(text_of(c) or "") for c in candidates):
                problems.append(f"{shown(page)}:{number}: no test {test} in {file}")
    return problems


# --- the checks ---------------------------------------------------------------------------


def test_no_tracked_file_points_outside_the_repository() -> None:
    files = tracked_files()
    assert any(p.name == "street-fighter.md" for p in files), "the file list is empty"
    problems = []
    for path in files:
        text = text_of(path)
        if text is None:
            continue
        for number, found, problem in forbidden_names(text):
            problems.append(f"{path.relative_to(ROOT)}:{number}: {found!r} {problem}")
    assert not problems, "\n".join(problems)


def test_every_anchored_pointer_lands_on_a_heading() -> None:
    problems = broken_pointers(tracked_files())
    assert not problems, "\n".join(problems)


def test_every_test_a_ruleset_page_names_exists() -> None:
    pages = sorted((ROOT / "docs" / "rulesets").glob("*.md"))
    assert pages
    problems = [p for page in pages for p in missing_tests(page, text_of(page) or "")]
    assert not problems, "\n".join(problems)


def test_ruleset_page_headings_are_unique() -> None:
    """A repeated heading gets a "-1" anchor, which a pointer would hardly mean to name."""
    for page in sorted((ROOT / "docs" / "rulesets").glob("*.md")):
        names = [slug(m.group(2)) for line in (text_of(page) or "").splitlines()
                 if (m := _HEADING.match(line))]
        repeated = sorted({n for n in names if names.count(n) > 1})
        assert not repeated, f"{shown(page)}: headings repeated: {repeated}"


def test_every_ruleset_has_its_page_listed_in_the_index() -> None:
    from fightdesk.engine.rulesets import registered

    index = text_of(ROOT / "docs" / "rulesets" / "README.md") or ""
    # fightdesk's own rulesets (an installed plugin documents itself).
    for ruleset_id in [i.id for i in registered().values() if i.package.startswith("fightdesk.")]:
        assert (ROOT / "docs" / "rulesets" / f"{ruleset_id}.md").is_file(), ruleset_id
        assert f"({ruleset_id}.md)" in index, f"docs/rulesets/README.md does not link {ruleset_id}"


# --- the checks themselves catch what they should -----------------------------------------


SF_PAGE = "docs/rulesets/" + "street-fighter.md"


def test_forbidden_names_are_caught_and_ordinary_words_are_not() -> None:
    text_name = "001_" + "0123456789abcdef" + ".txt"
    caught = [
        f"see {_RULINGS}.md, street-fighter",
        f'# {_RULINGS} "Damage": 1s do not cancel',
        f"read ../{_SPEC_FOLDER}/PRODUCT.md first",
        f"`{_SPEC_FOLDER}/{_TEXTS_FOLDER}/{text_name}`",
        f"/work/{_SPEC_FOLDER}/STYLE.md",
        f"the rule texts in `{_TEXTS_FOLDER}/`",
        f"seed {text_name}",
    ]
    for line in caught:
        assert forbidden_names(line), line
    fine = [
        "the rulings that settle the loose passages",
        f"two {_SPEC_FOLDER} UI modules; a {_SPEC_FOLDER} kit",
        f"fightdesk/ui_{_SPEC_FOLDER}/widgets.py and lib.{_SPEC_FOLDER}/x",
        f"The {_TEXTS_FOLDER} are fixed; random {_TEXTS_FOLDER} for the dice",
        f"{SF_PAGE}#held-die",
    ]
    for line in fine:
        assert not forbidden_names(line), line


def test_slugs_follow_github() -> None:
    assert slug("Held die") == "held-die"
    assert slug("The `street-fighter` ruleset") == "the-street-fighter-ruleset"
    assert slug("Punch and Kick Defense") == "punch-and-kick-defense"
    assert slug("The flow of a fight, command by command") == \
        "the-flow-of-a-fight-command-by-command"
    assert slug("Setup → fight start") == "setup--fight-start"
    assert slug("See [odds](../odds.md) here") == "see-odds-here"
    text = "# Top\n## Blocks\n```\n## Not a heading\n```\n### Blocks\n"
    assert anchors(text) == {"top", "blocks", "blocks-1"}


def test_a_pointer_to_a_missing_heading_or_page_is_reported(tmp_path: Path) -> None:
    good = tmp_path / "good.md"
    good.write_text(f"x {SF_PAGE}#held-die, [a](#local), [b](https://x.org/a#b)\n\n"
                    "## Local\n", encoding="utf-8")
    bad = tmp_path / "bad.py"
    bad.write_text(f"# {SF_PAGE}#no-such-rule\n"
                   "# docs/rulesets/no-such-ruleset" + ".md#held-die\n", encoding="utf-8")
    problems = broken_pointers((good, bad))
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"{bad}:1: {SF_PAGE} has no heading with the anchor")
    assert problems[1].startswith(f"{bad}:2: points to docs/rulesets/no-such-ruleset.md")


def test_a_missing_test_name_is_reported() -> None:
    page = ROOT / SF_PAGE
    assert not missing_tests(page, "`test_damage.py::test_zero_health_is_out_of_the_fight`")
    assert missing_tests(page, "`test_damage.py::test_no_such_rule`")
    assert missing_tests(page, "`tests/test_cli.py::test_zero_health_is_out_of_the_fight`")
