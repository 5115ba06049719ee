"""The window side of the GM's changes going through the rules and of the rule readings
that show in it (docs/rulesets/README.md#gm-changes): the card's Damage / heal as damage
or as a GM override, the roll-under option in Fight > Ruleset Options, and a number typed
above a sheet field's maximum."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox, QDialogButtonBox, QSpinBox
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.ui.health_dialog import HealthDialog
from fightdesk.ui.options_dialog import OptionsDialog
from tests.engine.ashes.fight import fight


def _damage_on_the_card(window: Any, qtbot: QtBot, text: str, override: bool) -> Engine:
    engine = fight(han={"max_hp": 10})
    assert engine.apply(c.StartRound()).ok
    window.show_session(engine, None)
    card = window.cards.card("han")
    qtbot.mouseClick(card.health_button, Qt.MouseButton.LeftButton)
    dialog = window.findChild(HealthDialog, "HealthDialog")
    assert dialog is not None and dialog.isVisible()
    assert dialog.override_box.text() == "GM override (no rules)"
    if override:
        box = dialog.override_box
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    qtbot.keyClicks(dialog.edit, text)
    qtbot.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert engine.encounter.fighters["han"].status.hp == 5
    return engine


def test_damage_typed_on_the_card_costs_the_offensive_action(window: Any, qtbot: QtBot) -> None:
    engine = _damage_on_the_card(window, qtbot, "-5", override=False)
    card = window.cards.card("han")
    assert "Offense 0/1" in card.resources.text().replace("\u00a0", " ")
    assert engine.encounter.fighters["han"].status.offense is not None


def test_a_gm_override_on_the_card_sets_the_health_alone(window: Any, qtbot: QtBot) -> None:
    engine = _damage_on_the_card(window, qtbot, "-5", override=True)
    card = window.cards.card("han")
    assert "Offense 1/1" in card.resources.text().replace("\u00a0", " ")
    last = engine.session.log[-1]
    assert last.events[0].text.endswith("a GM override, the rules were not applied")


def test_the_assists_after_the_roll_option_in_the_options_dialog(window: Any,
                                                                 qtbot: QtBot) -> None:
    window.show_session(Engine(Session.begin(new_encounter("roll-under", "Garage"))), None)
    engine = window.document.engine
    window.options_action.trigger()
    dialog = window.findChild(OptionsDialog)
    assert dialog is not None and dialog.isVisible()
    box = dialog.editors["assists_after_roll"].input
    assert isinstance(box, QCheckBox) and not box.isChecked()
    assert "face is known" in box.toolTip()
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert engine.encounter.options.assists_after_roll is True


def test_a_maximum_hp_typed_above_twenty_becomes_twenty_with_a_message(qtbot: QtBot) -> None:
    from fightdesk.storage.library import new_fighter
    from fightdesk.ui.fighter_form import FighterForm

    form = FighterForm(new_fighter("roll-under", "Kit", "kit"))
    qtbot.addWidget(form)
    form.show()
    editor = form.editors["sheet.max_hp"]
    spin = editor.input
    assert isinstance(spin, QSpinBox) and spin.maximum() == 20
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "25")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert spin.value() == 20
    assert form.data()["sheet"]["max_hp"] == 20
    assert editor.message.isVisible()
    assert editor.message.text() == "Max hp is at most 20: 25 became 20"
    qtbot.keyClicks(spin, "1")  # typing again clears the note
    assert not editor.message.isVisible()
