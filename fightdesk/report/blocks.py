"""The summary as a list of blocks for a page painter: headings, paragraphs of styled
runs, numbered lists, ruled tables and the chart, in the order and words of the HTML.

The PDF and paper printing lay these out and paint them page by page themselves
(``fightdesk.ui.summary_pages``) rather than through Qt's text document, whose tables
cost four fifths of a long fight's PDF. No Qt here: text is plain, never
markup, and a run's style says how it looks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from .render import (
    ACTION_WIDTHS,
    SEPARATOR,
    _list,
    _other_lines,
    _resource_labels,
    _rounds_text,
    conditions_text,
    when_column,
    with_names_isolated,
)
from .summary import Action, FightChart, FighterState, FightSummary, RoundSummary, Tally


class Style(IntEnum):
    """How a run of text looks (the HTML's CSS classes, as fonts)."""

    PLAIN = 0
    BOLD = 1
    ITALIC = 2
    DICE = 3  # monospaced, a little smaller
    OUT = 4  # bold and underlined: "down", "out of the fight"


Run = tuple[str, Style]
Line = tuple[Run, ...]  # one line as written; a long one wraps on the page
Cell = tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Heading:
    level: int  # 1: the title, 2: a section or round, 3: a part of a round
    text: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    runs: Line
    meta: bool = False  # the line under the title, set off a little more


@dataclass(frozen=True, slots=True)
class NumberedList:
    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """A ruled table, its heading row first. ``widths``: percentages of the page's text
    width (the table then spans it); ``split_rounds``: too wide for the page, the columns
    after the first come in blocks that fit, each block a table of its own."""

    head: tuple[str, ...]
    numeric: tuple[bool, ...]
    rows: tuple[tuple[Cell, ...], ...]
    widths: tuple[int, ...] | None = None
    split_rounds: bool = False


@dataclass(frozen=True, slots=True)
class Chart:
    chart: FightChart


Block = Heading | Paragraph | NumberedList | Table | Chart


# Line breaks and tabs in text from the file (a GM's note) read as spaces, as in the HTML:
# the page painter draws a line's text as it is, where a newline would join two words.
_SPACES = str.maketrans({c: " " for c in "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"})


def _p(text: str) -> str:
    return text.translate(_SPACES)


def _text(text: str) -> Cell:
    return (((_p(text), Style.PLAIN),),) if text else ()


def _tally_table(tallies: Sequence[Tally], points: str, totals: bool) -> Table:
    head = ["Fighter"] + (["Actions"] if totals else [])
    head += ["Damage dealt", "Damage taken", "Healed", f"{_p(points)} gained",
             f"{_p(points)} spent"]
    if not totals:
        head.append("Conditions")
    head.append("Down")
    numeric = [False] + [True] * (len(head) - (2 if totals else 3)) + [False] * (1 if totals else 2)
    rows = []
    for t in tallies:
        row = [_text(t.fighter)]
        if totals:
            row.append(_text(str(t.actions)))
        row += [_text(str(n)) for n in (t.damage_dealt, t.damage_taken, t.healed,
                                        t.points_gained, t.points_spent)]
        if not totals:
            row.append(_text(conditions_text(t)))
        row.append(((("down", Style.OUT),),) if t.went_down else ())
        rows.append(tuple(row))
    return Table(tuple(head), tuple(numeric), tuple(rows))


def _states_table(states: Sequence[FighterState]) -> Table:
    labels = _resource_labels(states)
    head = ("Fighter", "Side", "Health", *map(_p, labels), "Conditions", "")
    numeric = (False, False, True, *([True] * len(labels)), False, False)
    rows = []
    for s in states:
        row = [_text(s.name), _text(s.side), _text(f"{s.health}/{s.health_max}")]
        for label in labels:
            amount = s.resource(label)
            row.append(_text(amount.text) if amount else ())
        row.append(_text(_list(s.conditions)))
        row.append(((("out of the fight", Style.OUT),),) if s.out else ())
        rows.append(tuple(row))
    return Table(head, numeric, tuple(rows))


def _dice(action: Action) -> Cell:
    lines = []
    for d in action.dice:
        who = f"{d.who}: " if d.who else ""
        what = f" {d.purpose}" if d.purpose else ""
        source = ((" ", Style.PLAIN), ("typed in", Style.BOLD)) if d.typed \
            else ((" app roll", Style.PLAIN),)
        tail = ((_p(f" → {d.outcome}"), Style.PLAIN),) if d.outcome else ()
        lines.append(((_p(f"{who}{d.notation}{what} [{d.faces_text}]"), Style.DICE),
                      *source, *tail))
    return tuple(lines)


def _actions_table(rnd: RoundSummary) -> Table:
    rows = []
    for a, when in zip(rnd.actions, when_column(rnd.actions), strict=True):
        bold = Style.BOLD if a.kind in ("act", "interrupt") else Style.PLAIN
        others = _other_lines(a)
        tail = ((_p(SEPARATOR + SEPARATOR.join(others)), Style.PLAIN),) if others else ()
        what: list[Line] = [((_p(a.headline), bold), *tail)]
        who: list[Run] = [(("↳ " if a.continues else "") + _p(a.actor), Style.PLAIN)]
        if a.kind == "interrupt":
            who += [(" ", Style.PLAIN), ("(interrupt)", Style.ITALIC)]
        rows.append((_text(when), (tuple(who),), tuple(what), _dice(a)))
    return Table(("When", "Who", "What happened", "Dice"), (False,) * 4, tuple(rows),
                 widths=ACTION_WIDTHS)


def _round(rnd: RoundSummary, points: str) -> list[Block]:
    out: list[Block] = [Heading(2, _p(rnd.title))]
    if rnd.turns:
        out.append(Paragraph((("Order of action:", Style.BOLD),)))
        out.append(NumberedList(tuple(_p(t.describe(points)) for t in rnd.turns)))
    else:
        out.append(Paragraph((("Order of action:", Style.BOLD), (" nobody acted.", Style.PLAIN))))
    out.append(Heading(3, "Actions and reactions"))
    out.append(_actions_table(rnd) if rnd.actions
               else Paragraph((("Nothing was logged in this round.", Style.PLAIN),)))
    busy = [t for t in rnd.tallies if t.eventful]
    out.append(Heading(3, _p(f"Damage, {points} and conditions")))
    out.append(_tally_table(busy, points, totals=False) if busy
               else Paragraph((("No damage, healing, points or conditions.", Style.PLAIN),)))
    down = _list(rnd.down) if rnd.down else "nobody"
    out.append(Paragraph((("Down:", Style.BOLD), (_p(f" {down}"), Style.PLAIN))))
    out.append(Heading(3, _p(rnd.end_title)))
    out.append(_states_table(rnd.states))
    return out


def _health_table(chart: FightChart) -> Table:
    """Every round side by side; the page splits it into blocks of rounds that fit."""
    rows = []
    for s in chart.series:
        cells = [_text(s.name)]
        for h, r in zip(s.health, s.resource, strict=True):
            cells.append(_text("–" if h is None else f"{h}" + (f" ({r})" if r is not None else "")))
        rows.append(tuple(cells))
    return Table(("Fighter", *map(_p, chart.labels)), (False,) + (True,) * len(chart.labels),
                 tuple(rows), split_rounds=True)


def summary_blocks(summary: FightSummary) -> list[Block]:
    """The summary as blocks: the fight (totals and chart unless it is one round), then
    each round; the same sections and words as ``to_html``."""
    summary = with_names_isolated(summary)
    out: list[Block] = [
        Heading(1, _p(summary.title)),
        Paragraph(((_p(f"{summary.ruleset} · {_rounds_text(summary)} · fightdesk summary"),
                    Style.ITALIC),), meta=True),
    ]
    if summary.shows_totals:
        c = summary.chart
        out.append(Heading(2, "Totals"))
        out.append(_tally_table(summary.totals, summary.points_label, totals=True))
        out.append(Heading(2, _p(f"Health and {c.resource_label} across the rounds")))
        out.append(Chart(c))
        out.append(Paragraph(((_p(f"Health after each round, with {c.resource_label} "
                                  "in brackets:"), Style.PLAIN),)))
        out.append(_health_table(c))
    for rnd in summary.rounds:
        out += _round(rnd, summary.points_label)
    return out


def blocks_text(blocks: Sequence[Block]) -> str:
    """Every word the blocks hold, one line each (what the pages must carry)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(block.text)
        elif isinstance(block, Paragraph):
            out.append("".join(text for text, _ in block.runs))
        elif isinstance(block, NumberedList):
            out += block.items
        elif isinstance(block, Table):
            out.append(" ".join(block.head))
            for row in block.rows:
                out += ["".join(text for text, _ in line) for cell in row for line in cell]
    return "\n".join(out)
