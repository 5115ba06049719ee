"""Every rule of a ruleset page names the tests that pin it (docs/testing.md): a reader
who doubts a rule finds the scenario with typed dice that fails if it were read the
other way, and a rule with none shows up here.

Which sections are rules: every section (a ``##`` or ``###`` heading) of
docs/rulesets/street-fighter.md, d100.md, roll-under.md and ashes.md that has text of
its own. Skipped, because they state no rule of the fight:

- a section with no text under its heading but sub-sections (a chapter title: its
  sub-sections are the rules);
- "The code" (where the ruleset's modules are), "Fighter sheet" (the fields the GM
  fills in; the rules that use them are in their own sections), "Speed of the code"
  (measured in benchmarks/, never asserted), "Conditions on the card" (what the card
  shows), "Autopilot" (a way to play the fight, not a rule of it; it plays by the rules
  the other sections pin), "Odds on the command line" (the command's options; the odds
  it prints are the ones the rule sections pin).

A section lists its tests as ``file.py::test_name`` (tests/test_docs_stand_alone.py
checks that each one exists).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("street-fighter", "d100", "roll-under", "ashes")
NOT_RULES = frozenset({"The code", "Fighter sheet", "Speed of the code",
                       "Conditions on the card", "Autopilot", "Odds on the command line"})

_HEADING = re.compile(r"^(#{2,3})\s+(.*?)\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TEST_REF = re.compile(r"(?:[\w.-]+/)*test_\w+\.py::test_\w+")


def sections(text: str) -> list[tuple[str, list[str]]]:
    """(heading, the lines of text under it up to the next heading) in page order; the
    page's title and the text before the first section are not a section."""
    found: list[tuple[str, list[str]]] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        match = None if fenced else _HEADING.match(line)
        if match is not None:
            found.append((match.group(2), []))
        elif found and line.strip():
            found[-1][1].append(line)
    return found


def untested_rules(text: str) -> list[str]:
    return [heading for heading, body in sections(text)
            if body and heading not in NOT_RULES
            and not any(_TEST_REF.search(line) for line in body)]


@pytest.mark.parametrize("page", PAGES)
def test_every_rule_section_names_its_tests(page: str) -> None:
    text = (ROOT / "docs" / "rulesets" / f"{page}.md").read_text(encoding="utf-8")
    assert sections(text), f"docs/rulesets/{page}.md has no sections"
    missing = untested_rules(text)
    assert not missing, (f"docs/rulesets/{page}.md: these rule sections name no test "
                         "(file.py::test_name): " + "; ".join(missing))


def test_a_section_without_a_test_is_caught_and_a_chapter_title_is_not() -> None:
    page = ("# Title\n\nIntro.\n\n## Damage\n\n### Armour\n\nA rule.\n"
            "`test_x.py::test_armour`\n\n### Dodge\n\nAnother rule.\n\n"
            "## Autopilot\n\nA way to play.\n")
    assert untested_rules(page) == ["Dodge"]
