"""HTML and Markdown from one :class:`FightSummary`.

The HTML is a page for a web browser (and its printing). It relies on no colour: tables
have ruled borders, the chart uses line styles and markers, so a black-and-white print
reads the same. The chart is an image made by the Qt layer (``fightdesk.ui.chart``) and
passed in as a :class:`ChartImage`; without one, the numbers table below it still tells
all. The PDF and paper printing lay out the same sections themselves
(``blocks.py``, ``fightdesk.ui.summary_pages``).
"""

from __future__ import annotations

import dataclasses
import html
import re
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.bidi import isolating, unchanged
from .summary import Action, FightChart, FighterState, FightSummary, RoundSummary, Tally

SPARKS = "▁▂▃▄▅▆▇█"
# One action is one line of the actions table: what it caused runs on after it, each
# thing parted from the next by this.
SEPARATOR = "; "
ACTION_WIDTHS = (8, 16, 48, 28)  # When, Who, What happened, Dice (percent of the page)


@dataclass(frozen=True)
class ChartImage:
    """Where the chart PNG is (a file name, a ``data:`` URL, or a Qt resource name) and
    the size to show it at, in CSS pixels."""

    src: str
    width: int
    height: int


# Fields that hold ids and kinds, never text to read: left as they are.
_NOT_TEXT = frozenset({"fighter_id", "id", "kind", "side", "scope", "seq"})


def with_names_isolated(summary: FightSummary) -> FightSummary:
    """The summary with every fighter's name isolated wherever a text holds it
    (engine/bidi.py): a name written right to left, or with direction controls, leaves the
    rest of its line alone in a browser, a Markdown viewer or the PDF. Fights whose names
    are all left to right come back as they are."""
    names = {s.name for s in summary.chart.series}
    names |= {state.name for rnd in summary.rounds for state in rnd.states}
    isolate = isolating(names)
    if isolate is unchanged:
        return summary
    return typing.cast("FightSummary", _isolated(summary, isolate))


def _isolated(value: object, isolate: Callable[[str], str]) -> object:
    if isinstance(value, str):
        return isolate(value)
    if isinstance(value, tuple | list):
        return type(value)(_isolated(v, isolate) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{
            f.name: _isolated(getattr(value, f.name), isolate)
            for f in dataclasses.fields(value) if f.init and f.name not in _NOT_TEXT})
    return value


def sparkline(values: Sequence[int | None], top: int) -> str:
    """``█▆▃▁``: one block per value, scaled to ``top``; a gap where the fighter was absent."""
    top = max(top, 1)
    out = []
    for v in values:
        if v is None:
            out.append(" ")
        else:
            level = round(max(0, min(v, top)) / top * (len(SPARKS) - 1))
            out.append(SPARKS[level])
    return "".join(out)


def _trail(values: Sequence[int | None]) -> str:
    return " → ".join("–" if v is None else str(v) for v in values)


def _list(items: Sequence[str]) -> str:
    return ", ".join(items)


def _resource_labels(states: Sequence[FighterState]) -> list[str]:
    labels: list[str] = []
    for s in states:
        for r in s.resources:
            if r.label not in labels:
                labels.append(r.label)
    return labels


def _rounds_text(summary: FightSummary) -> str:
    numbers = [r.number for r in summary.rounds]
    if len(numbers) == 1:
        return summary.rounds[0].title.lower()
    played = [n for n in numbers if n > 0]
    contiguous = played == list(range(played[0], played[-1] + 1)) if played else False
    if len(played) == 1:
        text = f"round {played[0]}"
    elif contiguous:
        text = f"rounds {played[0]}–{played[-1]}"
    else:
        text = "rounds " + ", ".join(str(n) for n in played)
    if 0 in numbers:
        text = "before round 1 and " + text if played else "before round 1"
    return text


def _other_lines(action: Action) -> list[str]:
    """The events of an action that are not its headline and not a roll."""
    return [
        h.text for h in action.happenings
        if h.roll is None and h.kind != "step" and not action.headline.startswith(h.text)
    ]


# --- HTML -----------------------------------------------------------------------------

CSS = """
body { font-family: 'DejaVu Sans', 'Helvetica', 'Arial', sans-serif; font-size: 9.5pt; }
h1 { font-size: 16pt; margin-top: 0px; margin-bottom: 2px; }
h2 { font-size: 13pt; margin-top: 18px; margin-bottom: 6px; page-break-after: avoid; }
h3 { font-size: 10.5pt; margin-top: 10px; margin-bottom: 4px; page-break-after: avoid; }
p { margin-top: 2px; margin-bottom: 4px; }
p.meta { font-style: italic; margin-bottom: 8px; }
table.grid { margin-top: 2px; margin-bottom: 6px; }
table.grid th, table.grid td { border-right: 1px solid #000; border-bottom: 1px solid #000;
       padding: 3px 5px; text-align: left; }
table.grid th { font-weight: bold; background: #e6e6e6; border-top: 1px solid #000; }
table.grid .first { border-left: 1px solid #000; }
td.first, th.nowrap { white-space: nowrap; }
td.num, th.num { text-align: right; }
.dice { font-family: 'DejaVu Sans Mono', 'Courier New', monospace; font-size: 8.5pt; }
.typed { font-weight: bold; }
.out { font-weight: bold; text-decoration: underline; }
ol.order { margin-top: 0px; margin-bottom: 4px; }
div.round { page-break-inside: avoid; }
"""
# What only a browser is told: the page's margin, black on white and a cell's text at
# its top. Qt's text document, which measures the health table's blocks with CSS alone,
# has these already.
BROWSER_CSS = """
@page { margin: 20mm; }
body { color: #000; background: #fff; }
table.grid th, table.grid td { vertical-align: top; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _table(head: Sequence[tuple[str, bool]], rows: Sequence[Sequence[str]],
           row_class: Sequence[str] | None = None, widths: Sequence[int] | None = None) -> str:
    """A ruled table; ``head`` is (label, numeric) pairs, cells are already HTML.
    ``widths`` (percentages) make it as wide as the page.

    Each cell rules its right and bottom edges (the first column its left too, the
    heading its top): one line between cells, as collapsed borders give, but Qt lays out
    and prints collapsed borders several times slower (a long fight's PDF)."""
    numeric = [n for _, n in head]
    full = ' width="100%"' if widths else ""
    out = [f'<table class="grid" border="0" cellspacing="0" cellpadding="4"{full}>', "<tr>"]
    for i, (h, n) in enumerate(head):
        # Classes, not style attributes: Qt draws no stylesheet borders on a cell that
        # has a style of its own. A one-word heading is never broken inside the word.
        kinds = (("num", n), ("first", i == 0), ("nowrap", " " not in h))
        classes = " ".join(name for name, on in kinds if on)
        attrs = (f' class="{classes}"' if classes else "") + (' align="right"' if n else "")
        if widths:
            attrs += f' width="{widths[i]}%"'
        out.append(f"<th{attrs}>{_e(h)}</th>")
    out.append("</tr>")
    for i, row in enumerate(rows):
        cls = f' class="{row_class[i]}"' if row_class and row_class[i] else ""
        out.append(f"<tr{cls}>")
        for col, (cell, num) in enumerate(zip(row, numeric, strict=True)):
            if num:
                first = " first" if col == 0 else ""
                out.append(f'<td class="num{first}" align="right">{cell}</td>')
            elif col == 0:  # fighter names and round steps keep to one line
                out.append(f'<td class="first">{cell}</td>')
            else:
                out.append(f"<td>{cell}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "\n".join(out)


def conditions_text(t: Tally) -> str:
    """``gained knocked down; lost blocking``"""
    parts = []
    if t.conditions_gained:
        parts.append("gained " + _list(t.conditions_gained))
    if t.conditions_lost:
        parts.append("lost " + _list(t.conditions_lost))
    return "; ".join(parts)


def _html_tally_table(tallies: Sequence[Tally], points: str, totals: bool) -> str:
    head = [("Fighter", False)]
    if totals:
        head.append(("Actions", True))
    head += [("Damage dealt", True), ("Damage taken", True), ("Healed", True),
             (f"{points} gained", True), (f"{points} spent", True)]
    if not totals:
        head.append(("Conditions", False))
    head.append(("Down", False))
    rows = []
    for t in tallies:
        row = [_e(t.fighter)]
        if totals:
            row.append(str(t.actions))
        row += [str(t.damage_dealt), str(t.damage_taken), str(t.healed),
                str(t.points_gained), str(t.points_spent)]
        if not totals:
            row.append(_e(conditions_text(t)))
        row.append('<span class="out">down</span>' if t.went_down else "")
        rows.append(row)
    return _table(head, rows)


def _html_states(states: Sequence[FighterState]) -> str:
    labels = _resource_labels(states)
    head = [("Fighter", False), ("Side", False), ("Health", True)]
    head += [(label, True) for label in labels]
    head += [("Conditions", False), ("", False)]
    rows = []
    for s in states:
        row = [_e(s.name), _e(s.side), f"{s.health}/{s.health_max}"]
        for label in labels:
            amount = s.resource(label)
            row.append(_e(amount.text) if amount else "")
        row.append(_e(_list(s.conditions)))
        row.append('<span class="out">out of the fight</span>' if s.out else "")
        rows.append(row)
    return _table(head, rows)


def _html_dice(action: Action) -> str:
    lines = []
    for d in action.dice:
        faces = f"[{_e(d.faces_text)}]"
        who = f"{_e(d.who)}: " if d.who else ""
        what = f" {_e(d.purpose)}" if d.purpose else ""
        source = '<span class="typed">typed in</span>' if d.typed else "app roll"
        tail = f" → {_e(d.outcome)}" if d.outcome else ""
        lines.append(f'<span class="dice">{who}{_e(d.notation)}{what} {faces}</span>'
                     f" {source}{tail}")
    return "<br>".join(lines)


def when_column(actions: Sequence[Action]) -> list[str]:
    """The "When" of each action row: said once for the actions of one phase or turn,
    blank below it (HTML and PDF tables alike)."""
    column: list[str] = []
    last_where: str | None = None
    for a in actions:
        column.append(a.where if a.where != last_where else "")
        last_where = a.where
    return column


def _html_actions(rnd: RoundSummary) -> str:
    rows: list[list[str]] = []
    classes: list[str] = []
    for a, when in zip(rnd.actions, when_column(rnd.actions), strict=True):
        what = f"<b>{_e(a.headline)}</b>" if a.kind in ("act", "interrupt") else _e(a.headline)
        extra = _other_lines(a)
        if extra:
            what += _e(SEPARATOR + SEPARATOR.join(extra))
        who = _e(a.actor)
        if a.kind == "interrupt":
            who += " <i>(interrupt)</i>"
        if a.continues:
            who = "↳ " + who
        rows.append([_e(when), who, what, _html_dice(a)])
        classes.append("cont" if a.continues else "")
    if not rows:
        return "<p>Nothing was logged in this round.</p>"
    return _table([("When", False), ("Who", False), ("What happened", False), ("Dice", False)],
                  rows, row_class=classes, widths=ACTION_WIDTHS)


def _html_round(rnd: RoundSummary, points: str) -> str:
    out = [f'<div class="round"><h2 class="round">{_e(rnd.title)}</h2>']
    if rnd.turns:
        items = "".join(f"<li>{_e(t.describe(points))}</li>" for t in rnd.turns)
        out.append(f'<p><b>Order of action:</b></p><ol class="order">{items}</ol>')
    else:
        out.append("<p><b>Order of action:</b> nobody acted.</p>")
    out.append("<h3>Actions and reactions</h3>")
    out.append(_html_actions(rnd))
    busy = [t for t in rnd.tallies if t.eventful]
    out.append(f"<h3>Damage, {_e(points)} and conditions</h3>")
    out.append(_html_tally_table(busy, points, totals=False) if busy
               else "<p>No damage, healing, points or conditions.</p>")
    out.append(f"<p><b>Down:</b> {_e(_list(rnd.down)) if rnd.down else 'nobody'}</p>")
    out.append(f"<h3>{_e(rnd.end_title)}</h3>")
    out.append(_html_states(rnd.states))
    out.append("</div>")
    return "\n".join(out)


def column_blocks(count: int, per_block: int | None) -> list[range]:
    """Split ``count`` round columns into blocks of at most ``per_block`` (None: one block),
    as even as can be: 42 columns at 15 a block make 14 + 14 + 14, not 15 + 15 + 12."""
    if per_block is None or per_block >= count or count == 0:
        return [range(count)]
    per_block = max(1, per_block)
    blocks = -(-count // per_block)
    size, extra = divmod(count, blocks)
    out, start = [], 0
    for i in range(blocks):
        stop = start + size + (1 if i < extra else 0)
        out.append(range(start, stop))
        start = stop
    return out


def health_table(chart: FightChart, columns: range) -> str:
    """The "Health after each round" table for the points in ``columns``, fighter column first."""
    head = [("Fighter", False)] + [(chart.labels[i], True) for i in columns]
    rows = []
    for s in chart.series:
        cells = [_e(s.name)]
        for i in columns:
            h, r = s.health[i], s.resource[i]
            if h is None:
                cells.append("–")
            else:
                cells.append(f"{h}" + (f" ({r})" if r is not None else ""))
        rows.append(cells)
    return _table(head, rows)


def _html_chart(summary: FightSummary, chart: ChartImage | None,
                round_columns: int | None) -> str:
    c = summary.chart
    out = [f"<h2>Health and {_e(c.resource_label)} across the rounds</h2>"]
    if chart is not None:
        out.append(
            f'<p><img src="{_e(chart.src)}" width="{chart.width}" height="{chart.height}" '
            f'alt="Chart of health and {_e(c.resource_label)} per fighter"></p>'
        )
    out.append(f"<p>Health after each round, with {_e(c.resource_label)} in brackets:</p>")
    # A long fight's table in blocks of rounds that fit the page, one under the other.
    for columns in column_blocks(len(c.labels), round_columns):
        out.append(health_table(c, columns))
    return "\n".join(out)


def to_html(summary: FightSummary, chart: ChartImage | None = None,
            round_columns: int | None = None) -> str:
    """A whole HTML page: the fight (totals and chart unless it is one round), then rounds.
    ``round_columns``: at most this many rounds side by side in the health table, which
    then comes in blocks, each with the fighter column (None: one table, however wide)."""
    summary = with_names_isolated(summary)
    body = [f"<h1>{_e(summary.title)}</h1>",
            f'<p class="meta">{_e(summary.ruleset)} · {_e(_rounds_text(summary))} · '
            f"fightdesk summary</p>"]
    if summary.shows_totals:
        body.append("<h2>Totals</h2>")
        body.append(_html_tally_table(summary.totals, summary.points_label, totals=True))
        body.append(_html_chart(summary, chart, round_columns))
    for rnd in summary.rounds:
        body.append(_html_round(rnd, summary.points_label))
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{_e(summary.heading)}</title>\n"
        f"<style>{CSS}{BROWSER_CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


# --- Markdown -------------------------------------------------------------------------


# Every character CommonMark or GitHub's Markdown reads as markup anywhere in a line:
# emphasis, code, links and images, raw HTML and entities, table pipes, strikethrough.
_MD_MARKUP = frozenset("\\`*_[]<>#|&~")
# What makes a block of a line's start: a bullet ("-", "+") or a numbered item ("3." "3)").
_MD_LINE_START = re.compile(r"^(?:([-+])|(\d{1,9})([.)]))")


def _m(text: object) -> str:
    """Text from the fight as Markdown that shows it exactly, on one line: every markup
    character is escaped, line breaks (a blank line too) read as spaces, spaces at
    either end go, and a list marker at its start is escaped (it may start a line)."""
    flat = " ".join(str(text).splitlines()).replace("\t", " ").strip()
    out = "".join("\\" + ch if ch in _MD_MARKUP else ch for ch in flat)
    return _MD_LINE_START.sub(
        lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), out)


def _md_code(text: str) -> str:
    """A code span that shows ``text`` exactly: fenced by one backtick more than its
    longest run of them, padded when it starts or ends with one, on one line (a line
    break, and a blank line above all, would end it)."""
    flat = " ".join(text.splitlines())
    fence = "`" * (max((len(run) for run in re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat[:1] in ("`", " ") or flat[-1:] in ("`", " ") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _md_link(target: str) -> str:
    """A link's target as it is, or in angle brackets when it has spaces or brackets (a
    file name may), which would end it."""
    if re.fullmatch(r"[\w./-]+", target):
        return target
    return "<" + "".join("\\" + ch if ch in "<>\\" else ch for ch in target) + ">"


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[bool]) -> str:
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _md_tallies(tallies: Sequence[Tally], points: str, totals: bool) -> str:
    head = ["Fighter"] + (["Actions"] if totals else [])
    head += ["Damage dealt", "Damage taken", "Healed", f"{_m(points)} gained", f"{_m(points)} spent"]
    numeric = [False] + [True] * (len(head) - 1)
    if not totals:
        head.append("Conditions")
        numeric.append(False)
    head.append("Down")
    numeric.append(False)
    rows = []
    for t in tallies:
        row = [_m(t.fighter)] + ([str(t.actions)] if totals else [])
        row += [str(t.damage_dealt), str(t.damage_taken), str(t.healed),
                str(t.points_gained), str(t.points_spent)]
        if not totals:
            row.append(_m(conditions_text(t)))
        row.append("**down**" if t.went_down else "")
        rows.append(row)
    return _md_table(head, rows, numeric)


def _md_states(states: Sequence[FighterState]) -> str:
    labels = _resource_labels(states)
    head = ["Fighter", "Side", "Health", *map(_m, labels), "Conditions", ""]
    numeric = [False, False, True] + [True] * len(labels) + [False, False]
    rows = []
    for s in states:
        row = [_m(s.name), _m(s.side), f"{s.health}/{s.health_max}"]
        row += [(_m(a.text) if (a := s.resource(label)) else "") for label in labels]
        row += [_m(_list(s.conditions)), "**out of the fight**" if s.out else ""]
        rows.append(row)
    return _md_table(head, rows, numeric)


def _md_round(rnd: RoundSummary, points: str) -> list[str]:
    out = [f"## {_m(rnd.title)}", ""]
    if rnd.turns:
        out.append("**Order of action:**")
        out.append("")
        out += [f"{i}. {_m(t.describe(points))}" for i, t in enumerate(rnd.turns, 1)]
    else:
        out.append("**Order of action:** nobody acted.")
    out += ["", "### Actions and reactions", ""]
    last_where: str | None = None
    if not rnd.actions:
        out.append("Nothing was logged in this round.")
    for a in rnd.actions:
        if a.where != last_where:
            if out[-1] != "":
                out.append("")
            if a.where:
                out += [f"**{_m(a.where[:1].upper() + a.where[1:])}**", ""]
            last_where = a.where
        who = f"{_m(a.actor)}" + (" (interrupt)" if a.kind == "interrupt" else "")
        headline = _m(a.headline)
        if a.kind in ("act", "interrupt"):
            headline = f"**{headline}**"
        bullet = "  - " if a.continues else "- "
        pad = "    " if a.continues else "  "
        # "Kaede: Kaede's Jab resolves" says the name once.
        named = who and not a.headline.startswith(a.actor)
        out.append(f"{bullet}{who + ': ' if named else ''}{headline}")
        for line in _other_lines(a):
            out.append(f"{pad}- {_m(line)}")
        for d in a.dice:
            out.append(f"{pad}- dice: {_md_code(d.describe())}")
    busy = [t for t in rnd.tallies if t.eventful]
    out += ["", f"### Damage, {_m(points)} and conditions", ""]
    out.append(_md_tallies(busy, points, totals=False) if busy
               else "No damage, healing, points or conditions.")
    out += ["", f"**Down:** {_m(_list(rnd.down)) if rnd.down else 'nobody'}", ""]
    out += [f"### {_m(rnd.end_title)}", "", _md_states(rnd.states), ""]
    return out


def to_markdown(summary: FightSummary, chart_link: str | None = None) -> str:
    """The same summary as Markdown (GitHub tables); the chart as text sparklines, plus a
    link to the PNG when one was written next to the file."""
    summary = with_names_isolated(summary)
    out = [f"# {_m(summary.title)}", "",
           f"*{_m(summary.ruleset)} · {_m(_rounds_text(summary))} · fightdesk summary*", ""]
    if summary.shows_totals:
        out += ["## Totals", "", _md_tallies(summary.totals, summary.points_label, True), ""]
        c = summary.chart
        out += [f"## Health and {_m(c.resource_label)} across the rounds", ""]
        if chart_link:
            out += [f"![Health and {_m(c.resource_label)} per fighter]({_md_link(chart_link)})", ""]
        out.append(f"Points: {' → '.join(map(_m, c.labels))}.")
        out.append("")
        rows = [
            [_m(s.name),
             f"`{sparkline(s.health, s.health_max or c.health_top)}` {_trail(s.health)}",
             f"`{sparkline(s.resource, c.resource_top)}` {_trail(s.resource)}"]
            for s in c.series
        ]
        out += [_md_table(["Fighter", "Health", _m(c.resource_label)], rows,
                          [False, False, False]), ""]
    for rnd in summary.rounds:
        out += _md_round(rnd, summary.points_label)
    return "\n".join(out).rstrip() + "\n"
