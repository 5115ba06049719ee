"""The board at the table, through the widgets: cards that never lie over each other,
room for the cards beside an open roll panel, the timeline (each fighter once, out
fighters' dice gone, taken turns struck out), conditions that clear, menu items that
say what they do now."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import load_session

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
DEMOS = {"street-fighter": "demo_fight.json", "d100": "demo_d100.json",
         "roll-under": "demo_roll-under.json", "ashes": "demo_ashes.json"}


def demo(window: MainWindow, ruleset: str, size: tuple[int, int] = (1093, 614)) -> Engine:
    window.resize(*size)
    engine = Engine(load_session(RESOURCES / DEMOS[ruleset]))
    window.show_session(engine, None)
    QTest.qWait(10)  # the window settles, as it does before the GM's first click
    return engine


def autopilot_step(window: MainWindow, engine: Engine, rng: random.Random) -> None:
    """One step of the ruleset's own autopilot, applied as the window applies the GM's."""
    command = engine.ruleset.autopilot(engine.encounter, rng)
    assert command is not None
    assert window.document.apply(command).ok


def overlapping_cards(window: MainWindow) -> list[tuple[str, str]]:
    cards = [card for card in window.cards.cards() if card.isVisible()]
    return [(a.key, b.key) for n, a in enumerate(cards) for b in cards[n + 1:]
            if a.geometry().intersects(b.geometry())]


@pytest.mark.parametrize("ruleset", list(DEMOS))
def test_cards_never_lie_over_each_other_as_the_rounds_go(window: MainWindow, qtbot: QtBot,
                                                          ruleset: str) -> None:
    """A card that grows a line (a turn's action and move, a condition) is taller at once:
    the card below moves down with it, before the window paints again."""
    engine = demo(window, ruleset)
    rng = random.Random(3)
    steps = 0
    while engine.encounter.round < 3 and steps < 90:
        autopilot_step(window, engine, rng)
        steps += 1
        # Checked at once, as a paint right after the click would find the cards...
        assert not overlapping_cards(window), (steps, overlapping_cards(window))
        qtbot.wait(1)  # ...then the window settles, as it does between two clicks.
    assert engine.encounter.round >= 2


@pytest.mark.parametrize("size", [(1093, 614), (1280, 800)])
@pytest.mark.parametrize("ruleset", ["d100", "roll-under", "ashes"])
def test_an_open_roll_panel_leaves_room_for_the_card_of_whoever_acts(
        window: MainWindow, qtbot: QtBot, ruleset: str, size: tuple[int, int]) -> None:
    """While a roll waits on the panel above the cards, the card of the fighter whose
    turn it is shows whole: the timeline gives way, the cards scroll to that card."""
    engine = demo(window, ruleset, size)
    rng = random.Random(5)
    rolls_seen = 0
    for _ in range(120):
        if engine.encounter.round > 2:
            break
        autopilot_step(window, engine, rng)
        QTest.qWait(50)
        if not window.roll_panel.isVisible():
            continue
        rolls_seen += 1
        acting = [card for card in window.cards.cards() if card.is_acting()]
        for card in acting:
            shown = card.visibleRegion().boundingRect()
            assert shown.height() == card.height(), (card.key, shown, card.height(),
                                                     window.cards.viewport().height())
    assert rolls_seen
