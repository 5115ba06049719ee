"""An ashes fight through the widgets, on the bundled demo: the surprise round (the Ash
Hound bites Oren, who defends with two skills and a dodge on the roll panel; his parry
answers with a counter-challenge, shown on the stack dialog), then a full round in
initiative order with a defense added through the stack dialog's Add, coins typed as
heads and tails."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.engine.odds import challenge_success
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_ashes.json"


def choose(dialog: object, name: str, key: str) -> None:
    from PySide6.QtWidgets import QWidget

    assert isinstance(dialog, QWidget)
    box = dialog.findChild(QComboBox, f"field-{name}")
    assert box is not None, name
    box.setCurrentIndex(box.findData(key))
    assert box.currentData() == key, (name, key)


def add_option(window: MainWindow, qtbot: QtBot, starts: str) -> None:
    panel = window.roll_panel
    texts = [panel.option.itemText(i) for i in range(panel.option.count())]
    panel.option.setCurrentIndex(next(i for i, t in enumerate(texts) if t.startswith(starts)))
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)


def type_coins(window: MainWindow, qtbot: QtBot, coins: str) -> None:
    panel = window.roll_panel
    qtbot.keyClicks(panel.dice, coins)
    qtbot.keyClick(panel.dice, Qt.Key.Key_Return)


def test_surprise_round_then_a_full_round_through_the_widgets(window: MainWindow,
                                                               qtbot: QtBot) -> None:
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    assert window.start_fight_action.isEnabled()

    # The surprise round: the raiders started the fight; the hound's skill lets it act.
    window.start_fight_action.trigger()
    tl = window.timeline.timeline()
    assert tl is not None and tl.columns == ("Surprise round",)
    assert [lane.title for lane in tl.lanes] == ["Ash Hound", "Ash Raider 1", "Ash Raider 2",
                                                 "Ash Hound (extra turn)"]
    assert current_fighter(enc.state.turns) == "ash-hound"

    # The hound bites Oren: Bite 4 against resist body 3, +1.
    dialog = window.open_action_dialog("ash-hound", role="act")
    assert dialog is not None
    choose(dialog, "target", "oren")
    choose(dialog, "skill", "Bite")
    assert "66%  success" in dialog.odds_label.text()
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    panel = window.roll_panel
    assert panel.isVisible() and enc.state.roll is not None
    assert panel.odds.text().startswith("Ash Hound wins at +1: 66%")
    assert "exactly 21/32" in panel.odds.toolTip()

    # Oren's defense: Directed parry (free), Deflect (1 speed), a dodge (2 + 3 speed).
    add_option(window, qtbot, "Oren: Directed parry")
    assert panel.odds.text().startswith("Ash Hound wins at -1")
    add_option(window, qtbot, "Oren: Deflect")
    add_option(window, qtbot, "Oren: dodge")
    roll = enc.state.roll
    assert roll is not None and roll.total == -3
    assert f"exactly {_frac(challenge_success(-3))}" in panel.odds.toolTip()
    oren = enc.fighters["oren"]
    assert (oren.status.speed, oren.status.defense_speed, oren.status.dodge_speed) == (0, 3, 3)
    card = window.cards.card("oren")
    assert card is not None
    # A resource's words are joined by no-break spaces (a card wraps between resources).
    words = " ".join(label.text() for label in card.findChildren(QLabel)).replace("\u00a0", " ")
    assert "Speed 0/6" in words and "Defense burst 3/4" in words and "Dodge burst 3/4" in words

    # Eight coins and two for criticals: three tails, Oren holds; the parry counters.
    type_coins(window, qtbot, "TTTHHHHH HH")
    roll = enc.state.roll
    assert roll is not None and roll.data["kind"] == "counter"
    assert panel.title.text().startswith("Oren counter-challenges Ash Hound with Directed parry")
    window.stack_action.trigger()
    stack = window._stack_dialog
    assert stack is not None and stack.isVisible()
    rows = [stack.table.model().index(r, 1).data() for r in range(stack.table.model().rowCount())]
    assert any(str(text).startswith("Oren counter-challenges Ash Hound") for text in rows)
    stack.close()
    type_coins(window, qtbot, "HHHTTTT")  # +0: three heads, the counter lands
    assert enc.state.roll is None and enc.fighters["ash-hound"].status.hp == 12 - 4
    texts = [e.text for e in engine.session.log[-1].events]
    assert "Challenge coins at +0: H H H T T (3 heads, 2 tails); critical coins: T T" in texts

    # The rest of the surprise round passes; round 2 in initiative order.
    while enc.state.stage == "turns":
        window.next_step_action.trigger()
    window.start_round_action.trigger()
    tl = window.timeline.timeline()
    assert tl is not None and tl.columns == ("Initiative",)
    assert enc.round == 2 and current_fighter(enc.state.turns) == "ash-hound"
    assert enc.fighters["oren"].status.speed == 6  # speed back each round
    window.next_step_action.trigger()
    assert current_fighter(enc.state.turns) == "kestrel"

    # Kestrel shoots the Warlord; the Warlord parries through the stack dialog's Add.
    dialog = window.open_action_dialog("kestrel", role="act")
    assert dialog is not None
    choose(dialog, "target", "ash-warlord")
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert enc.state.roll is not None
    window.stack_action.trigger()
    stack = window._stack_dialog
    assert stack is not None
    stack.select_fighter("ash-warlord")
    qtbot.mouseClick(stack.add_button, Qt.MouseButton.LeftButton)
    react = window._action_dialog
    assert react is not None and react.current_form() is not None
    assert react.current_form().id == "defend"
    qtbot.keyClick(react, Qt.Key.Key_Return)
    roll = enc.state.roll
    assert roll is not None and [x.label for x in roll.contributions] == ["Absorb power"]
    stack.close()
    type_coins(window, qtbot, "HHHTTT HT")  # 5 against 4 + 2: -1, eight coins
    assert enc.state.roll is None  # three tails of six: the Warlord holds (no counter)
    # The twin blasters shoot twice: the second challenge from the same action.
    dialog = window.open_action_dialog("kestrel", role="act")
    assert dialog is not None
    skill = dialog.findChild(QComboBox, "field-skill")
    assert skill is not None and skill.currentText() == "Twin blasters again (1 left)"
    choose(dialog, "target", "ash-warlord")
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert enc.state.roll is not None
    # The stack dialog's Resolve flips the coins (the app's flip, logged coin by coin).
    window.stack_action.trigger()
    qtbot.mouseClick(stack.resolve_next, Qt.MouseButton.LeftButton)
    assert enc.state.roll is None
    assert any(e.text.startswith("Kestrel: 8 coins for a challenge on Ash Warlord")
               for e in engine.session.log[-1].events)
    stack.close()

    # Everyone else's turn passes; the round ends.
    while enc.state.stage == "turns":
        window.next_step_action.trigger()
    assert enc.state.stage == "round-over" and window.start_round_action.isEnabled()


def _frac(chance: Fraction) -> str:
    return f"{chance.numerator}/{chance.denominator}"


def test_the_sheet_form_edits_named_physical_stats_and_keeps_a_negative_hp(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QLineEdit

    from fightdesk.ui.fighter_editor import FighterEditor
    from fightdesk.ui.fighter_form import FighterForm

    fighter = load_session(DEMO).encounter.fighters["oren"]
    form = FighterForm(fighter)
    qtbot.addWidget(form)
    assert form.errors() == {}
    line = form.editors["sheet.physical"].input
    assert isinstance(line, QLineEdit) and line.text() == "strength 4, agility 4, endurance 4"
    line.setText("strength 5, agility 4, endurance 4, will 2")
    assert form.data()["sheet"]["physical"] == {"strength": 5, "agility": 4, "endurance": 4,
                                                "will": 2}
    assert form.errors() == {}
    line.setText("strength five")
    assert "sheet.physical" in form.errors()
    # The in-fight editor keeps an ashes HP below 0 (dead) as it is.
    fighter.status.hp = -3
    editor = FighterEditor(fighter)
    qtbot.addWidget(editor)
    assert editor.changes() == []


def test_a_narrow_card_wraps_between_resources_not_inside_one(window: MainWindow,
                                                              qtbot: QtBot) -> None:
    """An ashes card's resources ("Defense burst 0/4") wrap on a narrow card between one
    resource and the next, never inside one (a d100 card showed "Dropped" above "1")."""
    window.show_session(Engine(load_session(DEMO)), None)
    card = window.cards.card("oren")
    assert card is not None
    lines = [label for label in card.findChildren(QLabel) if "burst" in label.text()]
    assert lines, "the card shows Oren's bursts"
    for label in lines:
        resources = label.text().split("   ")
        assert len(resources) >= 3 and all(" " not in r for r in resources), resources
        assert any(r.replace("\u00a0", " ") == "Defense burst 0/4" for r in resources)
