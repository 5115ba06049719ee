"""Conditions through the window: the card's ⋯ menu adds one (the condition dialog), the
street-fighter round ends count it down on the card and end it, with the log lines; undo
brings it back; the menu's submenu removes it. Grabs a card with conditions to PNG."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.condition_dialog import ConditionDialog

SHOTS = Path(os.environ.get("FIGHTDESK_SHOTS", "")) if os.environ.get("FIGHTDESK_SHOTS") else None


def click(qtbot: Any, widget: QWidget) -> None:
    assert widget.isVisible() and widget.isEnabled(), widget.objectName() or widget
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def from_more_menu(qtbot: Any, card: Any, label: str, sub: str = "") -> list[str]:
    """Open the card's ⋯ menu and choose ``label`` (in its submenu, ``sub``); returns
    what the menu (or the submenu) offered."""
    offered: list[str] = []

    def pick() -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        action = next(a for a in menu.actions() if a.text() == label)
        if sub:
            submenu = action.menu()
            assert isinstance(submenu, QMenu)
            offered.extend(a.text() for a in submenu.actions())
            chosen = next(a for a in submenu.actions() if a.text() == sub)
        else:
            offered.extend(a.text() for a in menu.actions())
            chosen = action
        menu.close()
        chosen.trigger()

    qtbot.waitUntil(card.more_button.isVisible, timeout=2000)
    QTimer.singleShot(50, pick)
    click(qtbot, card.more_button)
    qtbot.waitUntil(lambda: bool(offered), timeout=2000)
    return offered


def the_dialog(qtbot: Any, window: Any) -> ConditionDialog:
    found: list[ConditionDialog] = []

    def shown() -> bool:
        found[:] = [d for d in window.findChildren(ConditionDialog) if d.isVisible()]
        return bool(found)

    qtbot.waitUntil(shown, timeout=2000)
    return found[0]


def log_lines(window: Any) -> list[str]:
    model = window.log_model
    lines: list[str] = []
    for row in range(model.rowCount()):
        top = model.index(row, 0)
        lines.append(str(model.index(row, 1).data()))
        for child in range(model.rowCount(top)):
            lines.append(str(model.index(child, 1, top).data()))
    return lines


def end_a_round(qtbot: Any, window: Any) -> None:
    """Start a round and end it before the dice are rolled (nothing to ask)."""
    click(qtbot, window.forward_button)
    assert window.forward_button.text() == "Roll action dice"
    click(qtbot, window.round_bar.widgetForAction(window.end_round_action))
    assert window.document.engine.encounter.state.stage == "round-over"


def test_a_condition_for_two_rounds_counts_down_on_the_card(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    card = window.cards.card("kaede")
    assert card is not None and not card.conditions.isVisible()

    offered = from_more_menu(qtbot, card, "Add condition...")
    assert offered == ["Edit...", "Remove from fight", "Hide from / show to the players", "",
                       "Add condition...", "Remove condition"]
    dialog = the_dialog(qtbot, window)
    assert dialog.windowTitle() == "Add a condition to Kaede Moriyama"
    # the rule states a GM may put on are offered (a maneuver sets the others); its
    # phases have no turns to end one with
    assert [dialog.name.itemText(i) for i in range(dialog.name.count())] == [
        "Knocked down", "Stunned"]
    assert [dialog.duration.itemData(i) for i in range(dialog.duration.count())] == [
        "rounds", "until-removed"]

    # OK with no name: said inline, the dialog stays open
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Ok))
    assert dialog.isVisible() and dialog.error.isVisible()
    assert "Give the condition a name" in dialog.error.text()
    assert not engine.session.log

    qtbot.keyClicks(dialog.name.lineEdit(), "Dazed")
    assert not dialog.error.isVisible()
    dialog.duration.setFocus()
    qtbot.keyClick(dialog.duration, Qt.Key.Key_Home)
    assert dialog.duration.currentData() == "rounds" and dialog.rounds.isVisible()
    dialog.rounds.selectAll()
    qtbot.keyClicks(dialog.rounds, "2")
    assert not dialog.until.isVisible() and not dialog.tick.isVisible()
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Ok))
    assert not dialog.isVisible()

    assert card.conditions.isVisible() and card.conditions.text() == "Dazed · 2 rounds"
    assert card.conditions.textFormat() == Qt.TextFormat.PlainText
    assert "Kaede Moriyama is dazed (2 rounds)" in log_lines(window)

    click(qtbot, window.forward_button)
    end_a_round(qtbot, window)
    assert card.conditions.text() == "Dazed · 1 round"
    assert "Kaede Moriyama: Dazed, 1 round left" in log_lines(window)
    end_a_round(qtbot, window)
    assert not card.conditions.isVisible()
    assert "Kaede Moriyama is no longer dazed" in log_lines(window)
    assert engine.encounter.fighters["kaede"].status.conditions == []

    window.undo_action.trigger()
    assert card.conditions.isVisible() and card.conditions.text() == "Dazed · 1 round"
    assert "Kaede Moriyama is no longer dazed" not in log_lines(window)
    window.redo_action.trigger()
    assert not card.conditions.isVisible()


def test_the_gm_removes_a_condition_from_the_menu_and_names_stay_plain(
        window: Any, qtbot: Any) -> None:
    from fightdesk.engine import commands as c

    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    card = window.cards.card("brannock")
    assert engine.apply(c.AddCondition(fighter_id="brannock", name="<b>Soaked</b> & cold")).ok
    assert engine.apply(c.SetValue(fighter_id="brannock", field="status.knocked_down",
                                   value=True)).ok
    assert card.conditions.text() == "<b>Soaked</b> & cold\nKnocked down"
    assert "&lt;b&gt;Soaked&lt;/b&gt; &amp; cold: until removed" in card.conditions.toolTip()
    # only the GM's own condition can be removed: the knockdown ends by the rules
    offered = from_more_menu(qtbot, card, "Remove condition", "<b>Soaked</b> && cold")
    assert offered == ["<b>Soaked</b> && cold"]
    assert engine.encounter.fighters["brannock"].status.conditions == []
    assert card.conditions.text() == "Knocked down"
    assert "GM removed <b>Soaked</b> & cold from Brannock Vale" in log_lines(window)
    window.undo_action.trigger()
    assert card.conditions.text() == "<b>Soaked</b> & cold\nKnocked down"


def test_an_engine_refusal_shows_in_the_dialog(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    card = window.cards.card("kaede")
    from_more_menu(qtbot, card, "Add condition...")
    dialog = the_dialog(qtbot, window)
    dialog.name.setEditText("Dazed\tand confused")  # pasted with a tab in it
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Ok))
    assert dialog.isVisible() and dialog.error.isVisible()
    assert dialog.error.text() == "a condition's name is one line of plain text"
    assert not window.document.engine.session.log
    dialog.reject()


def test_grab_cards_with_conditions(window: Any, qtbot: Any) -> None:
    """A card with a GM condition and rule-derived ones, grabbed in the light palette (and
    the dark one in the next test); saved when FIGHTDESK_SHOTS names a folder."""
    _grab(window, qtbot, "light")


def test_grab_cards_with_conditions_dark(window: Any, qtbot: Any, dark: Any) -> None:
    _grab(window, qtbot, "dark")


def _grab(window: Any, qtbot: Any, look: str) -> None:
    from fightdesk.engine import commands as c

    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    for command in (
        c.AddCondition(fighter_id="kaede", name="Dazed", duration="rounds", rounds=2),
        c.AddCondition(fighter_id="kaede", name="Dazzled by the harbour lights",
                       note="the GM's call"),
        c.SetValue(fighter_id="kaede", field="status.knocked_down", value=True),
    ):
        assert engine.apply(command).ok
    card = window.cards.card("kaede")
    qtbot.waitUntil(lambda: card.conditions.isVisible(), timeout=2000)
    image = card.grab()
    assert not image.isNull() and image.height() > card.conditions.height()
    assert card.conditions.text() == ("Dazed · 2 rounds\nDazzled by the harbour lights\n"
                                      "Knocked down")
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        image.save(str(SHOTS / f"card-conditions-{look}.png"))



def test_the_dialog_alone_for_a_ruleset_with_turns(qtbot: Any) -> None:
    """Driven with a lambda, as the window's ``submit`` would be: the rows follow the
    duration, and OK hands over exactly what the GM chose."""
    sent: list[dict[str, Any]] = []
    answers = ["Brannock Vale has no turn left in this fight", None]

    def submit(values: dict[str, Any]) -> str | None:
        sent.append(values)
        return answers[len(sent) - 1]

    dialog = ConditionDialog("Kaede Moriyama", ("Prone", "Stunned"),
                             [("kaede", "Kaede Moriyama"), ("brannock", "Brannock Vale")],
                             submit, has_turns=True, default_tick="turn-start",
                             bearer_id="kaede")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert [dialog.duration.itemData(i) for i in range(dialog.duration.count())] == [
        "rounds", "until-turn-end", "until-removed"]
    # rounds: the countdown moment is offered (the ruleset's own first), no turn owner
    assert dialog.rounds.isVisible() and dialog.tick.isVisible()
    assert not dialog.until.isVisible()
    assert [dialog.tick.itemData(i) for i in range(dialog.tick.count())] == [
        None, "round-end", "turn-end"]
    assert dialog.tick.itemText(0) == "as the rules say (at the start of each of its " \
        "bearer's turns)"
    dialog.duration.setCurrentIndex(1)
    assert dialog.until.isVisible() and not dialog.rounds.isVisible()
    assert not dialog.tick.isVisible() and dialog.until.currentData() == "kaede"
    dialog.name.setEditText("  Shoved ")
    dialog.until.setCurrentIndex(1)
    dialog.imposed_by.setCurrentIndex(2)
    qtbot.keyClicks(dialog.note, "into the crates")
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Ok))
    # the first answer is a refusal: said inline, the dialog stays open with the input
    assert dialog.isVisible() and dialog.error.text() == answers[0]
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Ok))
    assert not dialog.isVisible()
    assert sent == [{"name": "Shoved", "duration": "until-turn-end", "rounds": None,
                     "until_fighter": "brannock", "tick": None, "note": "into the crates",
                     "imposed_by": "brannock"}] * 2
