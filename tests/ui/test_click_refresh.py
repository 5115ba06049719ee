"""A click redraws only what changed, and what it redraws is right: the card of a
fighter that changed shows the new values, the other cards keep their widgets and are
not drawn again, every card reads as a freshly made one would, and the timeline's
partial repaints leave nothing stale on the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtWidgets import QApplication, QRadioButton
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.ruleset import Chip, Lane, Timeline
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.cards import CardsView, FighterCard
from fightdesk.ui.models import FightersModel
from fightdesk.ui.timeline import TimelineView

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


def _redrawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of the cards drawn anew from now on, in order."""
    drawn: list[str] = []
    show_cards = FighterCard.show_cards

    def spy(card: FighterCard, *args: Any, **kwargs: Any) -> None:
        drawn.append(card.key)
        show_cards(card, *args, **kwargs)

    monkeypatch.setattr(FighterCard, "show_cards", spy)
    return drawn


def _reads(card: FighterCard) -> tuple[object, ...]:
    """Everything a card shows the GM, as text."""
    lines = tuple(radio.text() for radio in card.findChildren(QRadioButton))  # group members
    return (card.title.text(), card.side.text(), card.health.format(), card.health.isVisibleTo(card),
            card.resources.text(), card.conditions.text(), card.dice.text(), card.is_acting(),
            lines)


def _as_fresh(window: MainWindow, qtbot: QtBot) -> None:
    """Every card of the window reads as the card of a view made now from the engine."""
    fresh_model = FightersModel()
    fresh_model.set_engine(window.document.engine)
    fresh = CardsView()
    qtbot.addWidget(fresh)
    fresh.set_model(fresh_model)
    shown = {card.key: _reads(card) for card in window.cards.cards()}
    made = {card.key: _reads(card) for card in fresh.cards()}
    assert shown == made


@pytest.fixture
def demo(window: MainWindow) -> Engine:
    engine = Engine(demo_session())
    window.show_session(engine, None)
    return engine


def test_a_changed_fighters_card_shows_the_new_values_and_no_other_card_is_redrawn(
        window: MainWindow, demo: Engine, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    widgets = {card.key: card for card in window.cards.cards()}
    assert set(widgets) == {"kaede", "brannock", "dock-thug"}
    others = {key: _reads(card) for key, card in widgets.items() if key != "kaede"}
    drawn = _redrawn(monkeypatch)

    assert window.document.apply(c.SetValue(fighter_id="kaede", field="status.health", value=4)).ok
    kaede = window.cards.card("kaede")
    assert kaede is widgets["kaede"]  # the same widget, drawn again
    assert kaede.health.format() == "Health 4/10"
    assert drawn == ["kaede"]
    assert {card.key: card for card in window.cards.cards()} == widgets
    assert {key: _reads(card) for key, card in widgets.items() if key != "kaede"} == others

    # A member of the group: the group's card redraws that member's line.
    group_key = "dock-thug"
    drawn.clear()
    assert window.document.apply(
        c.SetValue(fighter_id="dock-thug-2", field="status.health", value=1)).ok
    assert drawn == [group_key]
    lines = _reads(widgets[group_key])[-1]
    assert isinstance(lines, tuple) and any("Dock Thug 2" in line and "1/4" in line for line in lines)

    # Undo through the window: the card shows the old value again, in the same widget.
    drawn.clear()
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert kaede.health.format() == "Health 10/10"
    assert sorted(drawn) == sorted(["kaede", group_key])
    assert {card.key: card for card in window.cards.cards()} == widgets
    _as_fresh(window, qtbot)


def test_every_card_reads_as_a_fresh_one_through_a_round(
        window: MainWindow, demo: Engine, qtbot: QtBot) -> None:
    """Whose turn it is, the dice and the stack change cards of fighters the command did
    not touch (the one whose turn it now is lights up): none is left stale."""
    doc = window.document
    for command in (c.StartFight(), c.StartRound(), c.NextStep()):
        assert doc.apply(command).ok
        _as_fresh(window, qtbot)
    for _ in range(12):
        decision = demo.pending()
        if decision is not None:
            ids = [choice.id for choice in decision.choices]
            answer = c.Answer(decision_id=decision.id, choice="lose" if "lose" in ids else ids[0]) \
                if ids else c.Answer(decision_id=decision.id, amount=decision.minimum or 0)
            assert doc.apply(answer).ok
        elif demo.ruleset.views.round_controls(demo.encounter).can_next_step:
            window.next_step_action.trigger()
        else:
            break
        _as_fresh(window, qtbot)
        if demo.encounter.state.stage == "phases":
            acting = [card.key for card in window.cards.cards() if card.is_acting()]
            actor = demo.ruleset.views.round_controls(demo.encounter).actor
            assert acting == ([actor] if actor in {card.key for card in window.cards.cards()}
                              else acting)
    window.undo_action.trigger()
    _as_fresh(window, qtbot)
    window.redo_action.trigger()
    _as_fresh(window, qtbot)


def _timeline(caption: str = "Round 1", current: int = 2, label: str = "8",
              state: str = "ready", tip: str = "") -> Timeline:
    lanes = [Lane(id=f"f{n}", title=f"Fighter {n}", fighter_ids=(f"f{n}",),
                  chips=(Chip(f"f{n}:1", f"f{n}", n % 10, str(10 - n % 10), "ready"),))
             for n in range(12)]
    lanes[3] = Lane(id="f3", title="Fighter 3", fighter_ids=("f3",),
                    chips=(Chip("f3:1", "f3", 4, label, state, tooltip=tip),  # type: ignore[arg-type]
                           Chip("f3:2", "f3", 6, "4", "spent")))
    return Timeline(columns=tuple(str(p) for p in range(10, 0, -1)), current_column=current,
                    caption=caption, lanes=tuple(lanes))


def _screen_and_render(view: TimelineView, qapp: QApplication) -> tuple[Any, Any]:
    """What the screen holds after the view's own (partial) repaints, and a full render."""
    for _ in range(3):
        qapp.processEvents()
    screen = qapp.primaryScreen().grabWindow(view.winId()).toImage()
    return screen, view.grab().toImage().convertToFormat(screen.format())


def test_timeline_partial_repaints_leave_nothing_stale(qtbot: QtBot, qapp: QApplication) -> None:
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(700, 300)
    view.set_timeline(_timeline())
    view.show()
    qtbot.waitExposed(view)
    first, _ = _screen_and_render(view, qapp)
    for changed in (_timeline(label="H8", state="held"),  # one lane's chip
                    _timeline(label="H8", state="held", tip="now clickable"),  # not drawn
                    _timeline(label="H8", state="held", caption="Round 1 · phase 8"),
                    _timeline(label="8", state="spent", current=3),  # the current column
                    _timeline()):
        view.set_timeline(changed)
        screen, full = _screen_and_render(view, qapp)
        assert screen == full
    assert screen == first  # back where it started, pixel for pixel
