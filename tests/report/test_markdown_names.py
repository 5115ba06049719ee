"""Names in the Markdown summary are text: rendered by a CommonMark parser (with GitHub's
tables), no name ever yields an HTML tag, a heading, a list or a broken code span, and
each shows as it is."""

from __future__ import annotations

import html
import string
from html.parser import HTMLParser

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from fightdesk.engine.base import Condition
from fightdesk.report import summarize, to_markdown
from fightdesk.report.summary import FightSummary

from .scripted import KAEDE, THUG1, Script, dice, ev, status

HOSTILE = [
    '<img src=x onerror="alert(1)">',
    "<h1>Boss</h1>",
    "<script>alert(1)</script>",
    "Kaede `<b>x</b>` Moriyama",
    "Kaede\n\n# Heading\n\n<b>bold</b>",
    "x`` <img src=y> ``",
    "`",
    "1. first",
    "- dash",
    "---",
    "> quoted",
    "    indented",
    "[link](http://example.com) ![img](x.png)",
    "*em* **strong** ~~gone~~ _u_",
    "a | b",
    "&lt;b&gt; &amp;",
    "back\\slash\\",
    "Kaede\r<i>x</i>\r\n=====",
]


def markdown() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def fight_summary(name: str) -> FightSummary:
    """One round in which ``name`` is a fighter, the place the action happens, a maneuver,
    a roll's purpose and outcome, and a condition."""
    s = Script()
    for fight in (s.session.encounter, s.session.start):
        fight.fighters[KAEDE].name = name
    s.entry("Round 1 begins", ev("round-start", "Round 1 begins"), sets=(((), "round", 1),))
    act = s.entry(f"{name} acts: {name} at Dock Thug 1",
                  ev("act", f"{name} acts: {name} at Dock Thug 1", KAEDE, maneuver=name,
                     die=9, speed=11))
    act.where = name
    roll = dice(name, name, [6, 2, 9], name, typed=True)
    hit = s.entry(
        f"{name}'s {name} hits Dock Thug 1",
        ev("resolve", f"{name}'s {name} resolves", KAEDE),
        ev("roll", roll.describe(), KAEDE, roll=roll),
        ev("damage", f"Dock Thug 1 takes 2 damage from {name}", KAEDE, target=THUG1, amount=2),
        ev("condition-on", f"{name} is {name}", KAEDE, name=name),
        sets=((status(THUG1), "health", 8),),
        appends=(((*status(KAEDE), "conditions"), Condition(name=name)),), joins=True)
    hit.where = name
    s.entry("Round 1 ends", ev("round-end", "Round 1 ends"),
            sets=((("state",), "stage", "round-over"),))
    return summarize(s.session, [1])


def walk(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    for token in tokens:
        out.append(token)
        out += walk(token.children or [])
    return out


def shape(tokens: list[Token]) -> list[tuple[str, str]]:
    """The document's structure: every block and inline element, without its text."""
    return [(t.type, t.tag) for t in walk(tokens) if t.type not in ("text", "softbreak")]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown_text(rendered: str) -> str:
    reader = _Text()
    reader.feed(rendered)
    return "".join(reader.parts)


def one_line(text: str) -> str:
    return " ".join(text.splitlines()).replace("\t", " ").strip()


PLAIN_SHAPE = shape(markdown().parse(to_markdown(fight_summary("Kaede Moriyama"))))


names = st.text(alphabet=string.ascii_letters[:6] + string.digits[:3] + string.punctuation
                + " \n\r\t", min_size=1, max_size=24).filter(lambda n: n.strip() != "")


@settings(max_examples=60, deadline=None)
@given(name=names)
@example(name=HOSTILE[0])
def test_no_name_changes_the_markdown_documents_shape(name: str) -> None:
    """Whatever the name, the document has the same headings, lists, tables, emphasis and
    code spans as with a plain name: no HTML, no heading or list of its own, no code span
    broken open, and every dice line's code span holds that roll exactly."""
    summary = fight_summary(name)
    text = to_markdown(summary)
    tokens = markdown().parse(text)
    found = walk(tokens)
    assert not [t for t in found if t.type in ("html_block", "html_inline")], text
    assert shape(tokens) == PLAIN_SHAPE, text
    rolls = [" ".join(d.describe().splitlines()) for d in summary.rounds[0].dice]
    spans = [t.content for t in found if t.type == "code_inline"]
    assert spans == rolls
    assert one_line(name) in shown_text(markdown().render(text))


def test_hostile_names_render_as_text() -> None:
    for name in HOSTILE:
        text = to_markdown(fight_summary(name))
        rendered = markdown().render(text)
        tokens = markdown().parse(text)
        assert not [t for t in walk(tokens) if t.type.startswith("html")], name
        assert shape(tokens) == PLAIN_SHAPE, name
        # Every tag the page has is one the summary writes itself, never one from the name.
        assert "<img" not in rendered and "<script" not in rendered
        assert rendered.count("<h1>") == 1 and rendered.startswith("<h1>Rooftop duel")
        assert html.escape(one_line(name), quote=False) in rendered.replace("&quot;", '"')
