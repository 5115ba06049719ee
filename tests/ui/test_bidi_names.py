"""A name's writing direction stays inside the name: a right-to-left override left open in
a name, or a name in Hebrew, never turns the rest of a line around on the cards, the
timeline, the log or the player view."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.bidi import FSI, PDI, isolated, isolating
from fightdesk.engine.player_view import public_fight
from fightdesk.engine.views import fighter_cards, shown_timeline
from fightdesk.ui.models import LogModel
from tests.drill_ruleset import DrillEngine, drill_engine

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

RLO = "\u202e"
NAMES = {"kaede": f"Ka{RLO}ede", "brannock": "אבי", "thug-1": "Thug 1"}
OPENERS = "\u2066\u2067\u2068"
EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE, RLE, LRO, RLO


def leaks(text: str) -> list[str]:
    """What of a name's direction acts outside an isolate: an embedding or override, or
    a right-to-left letter, outside every isolate; an isolate never closed."""
    found = []
    depth = 0
    for ch in text:
        if ch in OPENERS:
            depth += 1
        elif ch == PDI:
            depth = max(0, depth - 1)
        elif depth == 0 and (ch in EMBEDDINGS or unicodedata.bidirectional(ch) in ("R", "AL")):
            found.append(f"{ch!r} outside an isolate in {text!r}")
    if depth:
        found.append(f"an isolate left open in {text!r}")
    return found


def played() -> DrillEngine:
    engine = drill_engine()
    for fid, name in NAMES.items():
        for fight in (engine.encounter, engine.session.start):
            fight.fighters[fid] = fight.fighters[fid].model_copy(update={"name": name})
    assert engine.apply(c.StartRound()).ok
    assert engine.apply(c.Answer(decision_id="initiative", values={"kaede": 1, "brannock": 1})).ok
    assert engine.apply(c.Note(text=f"{NAMES['kaede']} and {NAMES['brannock']} circle")).ok
    return engine


def test_cards_and_timeline_isolate_names() -> None:
    engine = played()
    cards, _ = fighter_cards(engine.ruleset, engine.encounter)
    titles = {fid: card.title for fid, card in cards}
    assert titles["kaede"] == f"{FSI}Ka{RLO}ede{PDI}" and titles["brannock"] == f"{FSI}אבי{PDI}"
    assert titles["thug-1"] == "Thug 1"  # left-to-right names stay exactly as they are
    timeline = shown_timeline(engine.ruleset, engine.encounter)
    texts = [timeline.caption] + [lane.title for lane in timeline.lanes]
    texts += [t for lane in timeline.lanes for chip in lane.chips for t in (chip.label, chip.tooltip)]
    assert any(RLO in t for t in texts)
    assert [leak for t in texts + list(titles.values()) for leak in leaks(t)] == []


def test_the_player_view_isolates_names() -> None:
    engine = played()
    fight = public_fight(engine.ruleset, engine.encounter)
    texts = [fight.title, fight.headline, *(card.name for card in fight.cards)]
    texts += [t for card in fight.cards for t in card.conditions]
    texts += [lane.title for lane in fight.timeline.lanes]
    texts += [chip.label for lane in fight.timeline.lanes for chip in lane.chips]
    assert RLO in fight.headline or any(RLO in t for t in texts)
    assert [leak for t in texts for leak in leaks(t)] == []


def test_the_log_isolates_names(qtbot: QtBot) -> None:
    engine = played()
    model = LogModel()
    model.set_engine(engine)
    texts = []
    for row in range(model.rowCount(QModelIndex())):
        top = model.index(row, 1, QModelIndex())
        texts.append(top.data(Qt.ItemDataRole.DisplayRole))
        for sub in range(model.rowCount(model.index(row, 0, QModelIndex()))):
            texts.append(model.index(sub, 1, model.index(row, 0, QModelIndex())).data())
    assert any(RLO in t for t in texts if t)
    assert [leak for t in texts if t for leak in leaks(t)] == []


def test_the_window_and_its_player_view_show_isolated_names(window: MainWindow,
                                                            qtbot: QtBot) -> None:
    from fightdesk.ui.cards import FighterCard
    from fightdesk.ui.player_view import PlayerCard

    engine = played()
    window.show_session(engine, None)
    window.player_view_action.trigger()
    view = window.player_view
    assert view is not None
    shown = [card.title.text() for card in window.findChildren(FighterCard)]
    shown += [card.name.text() for card in view.findChildren(PlayerCard)]
    shown.append(view.headline.text())
    assert any(RLO in t for t in shown)
    assert [leak for t in shown for leak in leaks(t)] == []


bidi_names = st.text(alphabet="ab \u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069אבعم1",
                     min_size=1, max_size=12)


@given(name=bidi_names, before=st.sampled_from(["", "Round 1 · ", "x "]),
       after=st.sampled_from(["", " strikes for 3", "'s turn"]))
def test_an_isolated_name_never_leaks(name: str, before: str, after: str) -> None:
    """Whatever controls a name holds, once isolated in a line it opens and closes its
    own isolate: nothing of it acts on the text around it, and its letters are all still
    there."""
    assert leaks(isolating([name, "Thug"])(f"{before}{name}{after}")) == []
    assert [ch for ch in isolated(name) if ch not in FSI + PDI] == [
        ch for ch in name if ch not in FSI + PDI]


def test_the_summaries_isolate_names() -> None:
    """HTML, Markdown and the PDF's blocks: every line with a name keeps its direction."""
    from fightdesk.report import summarize, to_html, to_markdown
    from fightdesk.report.blocks import summary_blocks

    summary = summarize(played().session)
    lines = to_markdown(summary).splitlines() + to_html(summary).splitlines()
    texts: list[str] = []

    def collect(value: object) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, tuple | list):
            for item in value:
                collect(item)
        elif hasattr(value, "__dataclass_fields__"):
            for name in value.__dataclass_fields__:
                collect(getattr(value, name))

    collect(summary_blocks(summary))
    assert any(RLO in t for t in lines) and any(RLO in t for t in texts)
    assert [leak for t in lines + texts for leak in leaks(t)] == []
