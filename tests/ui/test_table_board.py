"""The board at the table, through the widgets: cards that never lie over each other,
room for the cards beside an open roll panel, the timeline (each fighter once, out
fighters' dice gone, taken turns struck out), conditions that clear, menu items that
say what they do now."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton
from pytestqt.exceptions import TimeoutError as WaitedTooLong
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import load_session
from tests.start_step import answer_surprise_on_panel

if TYPE_CHECKING:
    from fightdesk.engine.ruleset import Chip
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
    command = engine.ruleset.autopilot.next_command(engine.encounter, rng)
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
            # The layout settles within a few event-loop turns; on a busy machine that
            # can take longer than the 50 ms above, so wait for it (up to 3 s).
            def whole(card: Any = card) -> bool:
                return bool(card.visibleRegion().boundingRect().height() == card.height())

            with contextlib.suppress(WaitedTooLong):
                qtbot.waitUntil(whole, timeout=3000)
            shown = card.visibleRegion().boundingRect()
            assert shown.height() == card.height(), (card.key, shown, card.height(),
                                                     window.cards.viewport().height())
    assert rolls_seen


def chips_of(window: MainWindow, fighter_id: str) -> list[Chip]:
    shown = window.timeline.timeline()
    assert shown is not None
    return [chip for lane in shown.lanes if fighter_id in lane.fighter_ids
            for chip in lane.chips if chip.fighter_id == fighter_id]


def test_the_timeline_shows_each_fighter_once_after_the_surprise_step(
        window: MainWindow, qtbot: QtBot) -> None:
    """Roll-under's ambusher acts in the surprise step and again in round 1's order: one
    lane, its surprise turn (struck out) in the Surprise column, its next in Enemies."""
    from PySide6.QtCore import Qt

    engine = demo(window, "roll-under")
    enc = engine.encounter
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == ["rooftop-sniper"]
    qtbot.mouseClick(window.forward_button, Qt.MouseButton.LeftButton)  # Start the fight
    answer_surprise_on_panel(window)  # as the demo marks: the sniper
    assert enc.state.surprise
    window.pass_action.trigger()  # the sniper's surprise turn goes by
    decision = window.decision_panel
    assert decision.isVisible()
    qtbot.mouseClick(decision.fields_ok, Qt.MouseButton.LeftButton)  # the app rolls Wisdom
    shown = window.timeline.timeline()
    assert shown is not None and shown.columns[0] == "Surprise"
    titles = [lane.title for lane in shown.lanes]
    assert titles.count("Rooftop Sniper") == 1, titles
    assert len(titles) == len(set(titles)), titles
    sniper = chips_of(window, "rooftop-sniper")
    assert sorted((shown.columns[c.column], c.state) for c in sniper) == [
        ("Enemies", "waiting"), ("Surprise", "done")]
    assert all(not window.timeline.chip_rect(c.id).isEmpty() for c in sniper)


OUT = {"street-fighter": ("status.health", 0), "d100": ("status.hp", 0),
       "roll-under": ("status.lethal", 2), "ashes": ("status.hp", -1)}


@pytest.mark.parametrize("ruleset", list(DEMOS))
def test_an_out_fighters_old_dice_leave_the_timeline(window: MainWindow, qtbot: QtBot,
                                                      ruleset: str) -> None:
    from fightdesk.engine import commands as c

    engine = demo(window, ruleset, (1280, 800))
    rng = random.Random(5)
    enc = engine.encounter
    for _ in range(300):
        if enc.round == 2 and enc.state.stage in ("turns", "phases"):
            break
        autopilot_step(window, engine, rng)
        enc = engine.encounter
    for _ in range(4):  # a few turns or actions of round 2
        autopilot_step(window, engine, rng)
    enc = engine.encounter
    controls = engine.ruleset.views.round_controls(enc)
    victim = next(fid for fid in enc.order if chips_of(window, fid)
                  and fid != controls.actor and not enc.fighters[fid].group
                  and not engine.ruleset.rules.is_out(enc.fighters[fid]))
    old = [chip.id for chip in chips_of(window, victim)]
    field, value = OUT[ruleset]
    assert window.document.apply(c.SetValue(fighter_id=victim, field=field, value=value)).ok
    assert engine.ruleset.rules.is_out(engine.encounter.fighters[victim])
    assert chips_of(window, victim) == []
    assert all(window.timeline.chip_rect(chip_id).isEmpty() for chip_id in old)
    shown = window.timeline.timeline()
    assert shown is not None and any(lane.out for lane in shown.lanes
                                     if victim in lane.fighter_ids)


@pytest.mark.parametrize("ruleset", ["d100", "roll-under", "ashes"])
def test_the_turn_under_way_is_struck_out_after_end_round(window: MainWindow,
                                                           qtbot: QtBot, ruleset: str) -> None:
    engine = demo(window, ruleset, (1280, 800))
    rng = random.Random(5)
    enc = engine.encounter
    for _ in range(300):
        if (enc.round and enc.state.stage == "turns"
                and not getattr(enc.state, "surprise", False)
                and enc.state.turns.current is not None and enc.state.roll is None
                and enc.state.pending is None):
            break
        autopilot_step(window, engine, rng)
        enc = engine.encounter
    current = enc.state.turns.current
    shown = window.timeline.timeline()
    assert shown is not None
    chip = next(chip for lane in shown.lanes for chip in lane.chips if chip.id == current)
    assert chip.state == "acting"
    window.end_round_action.trigger()
    assert engine.encounter.state.stage == "round-over"
    shown = window.timeline.timeline()
    assert shown is not None
    chip = next(chip for lane in shown.lanes for chip in lane.chips if chip.id == current)
    assert chip.state == "done"


def menu_texts(window: MainWindow) -> list[str]:
    """The Fight menu's items as the GM reads them (submenus by their title)."""
    return [act.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
            for act in window.fight_menu.actions()
            if not act.isSeparator() and act.isVisible()]


def test_no_fight_open_offers_no_fight_to_start(window: MainWindow) -> None:
    texts = menu_texts(window)
    assert texts[0] == "No Fight Open" and not window.forward_action.isEnabled()
    assert not [t for t in texts if t.lower().startswith(("start", "end round", "next"))]


@pytest.mark.parametrize("ruleset", list(DEMOS))
def test_menu_items_say_what_they_do_now_and_never_the_same(window: MainWindow,
                                                            ruleset: str) -> None:
    """In every state of a fight (setup, a round going, a round over) no two items of
    the Fight menu read the same, and each round item names its round."""
    engine = demo(window, ruleset, (1280, 800))
    rng = random.Random(5)
    seen: set[str] = set()
    ended = False
    for _ in range(150):
        enc = engine.encounter
        texts = menu_texts(window)
        assert len({t.lower() for t in texts}) == len(texts), (enc.state.stage, texts)
        seen.add(enc.state.stage)
        for act in window.round_actions:
            if act in window.fight_menu.actions():
                assert act.isEnabled(), act.text()
        if enc.round and window.end_round_action.isEnabled():
            assert window.end_round_action.text().replace("&", "") == f"End Round {enc.round}"
        if enc.round == 1 and window.end_round_action.isEnabled() and not ended \
                and enc.state.stage in ("turns", "phases"):
            ended = True
            window.end_round_action.trigger()  # a round over: "Start round 2" once
            box = window._end_round_box
            if box is not None:  # dice still to come: the GM says to end it anyway
                button = box.findChild(QPushButton, "endRoundButton")
                assert button is not None
                button.click()
            texts = menu_texts(window)
            assert [t.lower() for t in texts].count("start round 2") <= 1, texts
            assert len({t.lower() for t in texts}) == len(texts), texts
            continue
        if enc.round > 2:
            break
        autopilot_step(window, engine, rng)
    assert ended and "setup" in seen


def squeezed_rows(window: MainWindow) -> list[str]:
    """The roll panel's rows drawn lower than they need: a Take back button shorter than
    its size hint, or a line that wraps in a row too short for its lines."""
    panel = window.roll_panel
    problems = []
    for button in panel.findChildren(QPushButton):
        if button.objectName().startswith("takeBack-") and button.isVisible() \
                and button.height() < button.sizeHint().height():
            problems.append(f"{button.accessibleName()}: {button.height()} px")
    for label in (panel.title, panel.total, panel.odds):
        if label.isVisible() and label.height() < label.heightForWidth(label.width()):
            problems.append(f"{label.text()[:40]}: {label.height()} px")
    return problems


def test_the_roll_panel_keeps_its_rows_when_the_window_shrinks(window: MainWindow,
                                                                qtbot: QtBot) -> None:
    """A challenge with two defenses on it waits on the roll panel; the window goes from
    1280x800 to a small laptop's 1093x614: the panel keeps the height its rows need (the
    timeline gives way), and the acting fighter's card still shows whole."""
    from fightdesk.engine import commands as c
    from fightdesk.engine.rulesets.ashes import commands as ash

    engine = demo(window, "ashes", (1280, 800))
    doc = window.document
    assert doc.apply(c.StartFight()).ok
    # A tall timeline, as in a later round with every lane (or as the GM dragged it).
    sizes = window.splitter.sizes()
    window.splitter.setSizes([320, sum(sizes) - 320])
    assert doc.apply(ash.Challenge(fighter_id="ash-hound", target_id="kestrel", skill="Bite")).ok
    roll = engine.encounter.state.roll
    assert roll is not None
    assert doc.apply(c.Contribute(roll_id=roll.id, fighter_id="kestrel",
                                  contribution="skill:Dodge roll")).ok
    assert doc.apply(c.Contribute(roll_id=roll.id, fighter_id="kestrel",
                                  contribution="dodge", amount=3)).ok
    qtbot.waitUntil(lambda: window.roll_panel.isVisible())
    QTest.qWait(50)
    assert not squeezed_rows(window)
    window.resize(1093, 614)
    qtbot.waitUntil(lambda: not squeezed_rows(window), timeout=3000)
    # Each line beside its button reads whole, on one line: the buttons take only their width.
    for label in window.roll_panel.findChildren(type(window.roll_panel.title)):
        if label.isVisible() and label.text().startswith("Kestrel:"):
            assert label.width() >= label.fontMetrics().horizontalAdvance(label.text()), label.text()
    acting = [card for card in window.cards.cards() if card.is_acting()]
    assert acting
    for card in acting:
        def whole(card: Any = card) -> bool:
            return bool(card.visibleRegion().boundingRect().height() == card.height())

        qtbot.waitUntil(whole, timeout=3000)
