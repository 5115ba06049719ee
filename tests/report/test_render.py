"""HTML and Markdown rendered from the same summary data."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from fightdesk.engine.model import Event
from fightdesk.report import ChartImage, sparkline, summarize, to_html, to_markdown
from fightdesk.report.summary import FightSummary

from .scripted import KAEDE, Script, two_round_fight


@pytest.fixture(scope="module")
def whole() -> FightSummary:
    return summarize(two_round_fight())


class _Cells(HTMLParser):
    """Collects table rows as lists of cell texts, and img sources."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.images: list[dict[str, str | None]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "img":
            self.images.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_rows(text: str) -> _Cells:
    parser = _Cells()
    parser.feed(text)
    return parser


def md_rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|") and "---" not in line]


def test_html_and_markdown_carry_the_same_tables(whole: FightSummary) -> None:
    html_cells = html_rows(to_html(whole)).rows
    md_cells = md_rows(to_markdown(whole))
    totals_html = next(r for r in html_cells if r[:1] == ["Kaede Moriyama"] and len(r) == 8)
    totals_md = next(r for r in md_cells if r[:1] == ["Kaede Moriyama"] and len(r) == 8)
    assert totals_html == totals_md == ["Kaede Moriyama", "3", "5", "4", "0", "7", "1", ""]
    # The end-of-round state rows: Health, EP, Chi, Willpower in both.
    ends_html = [r for r in html_cells if r[:2] == ["Kaede Moriyama", "pc"]]
    ends_md = [r for r in md_rows(to_markdown(whole)) if r[:2] == ["Kaede Moriyama", "pc"]]
    assert [r[2:6] for r in ends_html] == [r[2:6] for r in ends_md] == [
        ["7/10", "3", "3/3", "6/6"], ["6/10", "6", "2/3", "6/6"]
    ]
    thug2 = [r for r in html_cells if r[:1] == ["Dock Thug 2"] and "enemy" in r]
    assert thug2[0][-2:] == ["knocked down", "out of the fight"]


def test_every_roll_is_printed_with_faces_and_source(whole: FightSummary) -> None:
    html = to_html(whole)
    md = to_markdown(whole)
    for roll in (d for r in whole.rounds for d in r.dice):
        assert f"[{roll.faces_text}]" in html
        assert roll.describe() in md
    text = re.sub(r"<[^>]+>", "", html)
    assert text.count("typed in") == 4 and text.count("app roll") == 3
    assert "Order of action" in html and "Order of action" in md
    assert "1. Kaede Moriyama (Jab, phase 9, die 9, speed 11)" in md
    assert "<li>Brannock Vale (interrupts, Short, phase 9, die 9, speed 12, 1 EP)</li>" in html


def test_chart_image_and_numbers(whole: FightSummary) -> None:
    chart = ChartImage("chart.png", 620, 270)
    parsed = html_rows(to_html(whole, chart))
    assert parsed.images == [{"src": "chart.png", "width": "620", "height": "270",
                              "alt": "Chart of health and EP per fighter"}]
    numbers = next(r for r in parsed.rows if r[:1] == ["Kaede Moriyama"] and len(r) == 4)
    assert numbers == ["Kaede Moriyama", "10 (0)", "7 (3)", "6 (6)"]
    assert html_rows(to_html(whole)).images == []  # no image: the numbers still tell it
    md = to_markdown(whole, "fight-chart.png")
    assert "![Health and EP per fighter](fight-chart.png)" in md
    assert "| Kaede Moriyama | `█▆▅` 10 → 7 → 6 | `▁▅█` 0 → 3 → 6 |" in md


def test_one_round_has_no_totals_or_chart() -> None:
    one = summarize(two_round_fight(), [1])
    html, md = to_html(one), to_markdown(one)
    assert "Totals" not in html and "## Totals" not in md
    assert "<h2 class=\"round\">Round 1</h2>" in html and "## Round 1" in md
    assert "Round 2" not in md and "**Down:** Dock Thug 2" in md


def test_names_are_escaped() -> None:
    s = Script()
    s.session.encounter.fighters[KAEDE].name = "Kaede <b>|*x*|"
    s.session.start.fighters[KAEDE].name = "Kaede <b>|*x*|"
    s.entry("Round 1", Event(kind="round-start", text="Round 1"), sets=(((), "round", 1),))
    s.entry("hit", Event(kind="act", text="acts", fighter_id=KAEDE, data={"maneuver": "A|B"}))
    summary = summarize(s.session)
    html = to_html(summary)
    assert "Kaede &lt;b&gt;|*x*|" in html and "<b>|" not in html
    md = to_markdown(summary)
    assert "Kaede \\<b\\>\\|\\*x\\*\\|" in md
    # Escaped pipes keep every row of a table as wide as its header.
    pipes = 0
    checked = 0
    for line in md.splitlines():
        if not line.startswith("|"):
            pipes = 0
            continue
        count = len(re.findall(r"(?<!\\)\|", line))
        if pipes == 0:
            pipes = count
        assert count == pipes, line
        checked += line.startswith("| Kaede")
    assert checked == 3  # totals, chart and end-of-round rows


@pytest.mark.parametrize(("values", "top", "expected"), [
    ([10, 7, 6], 10, "█▆▅"),
    ([0, 5, 10], 10, "▁▅█"),
    ([4, None, 0], 4, "█ ▁"),
    ([3, 30], 6, "▅█"),   # 3/6 of 7 steps = 3.5, rounds to 4; above the top is the top
    ([0, 0], 0, "▁▁"),
])
def test_sparkline(values: list[int | None], top: int, expected: str) -> None:
    assert sparkline(values, top) == expected
