"""Fight > Ruleset Options: the fight's options as inputs; OK applies the changes as
logged, undoable commands."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox, QDialogButtonBox, QSpinBox

from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session
from fightdesk.ui.options_dialog import OptionsDialog


def test_options_dialog_changes_options_through_the_engine(window: Any, qtbot: Any,
                                                           tmp_path: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert window.options_action.shortcut().toString() == "Ctrl+Shift+O"
    window.options_action.trigger()
    dialog = window.findChild(OptionsDialog)
    assert dialog is not None and dialog.isVisible()
    # One input per option, at the fight's current value, with the option explained.
    names = set(dialog.editors)
    assert {"ones_cancel_on_damage", "seconds_per_round", "arena_tn"} <= names
    assert "ruleset" not in names
    box = dialog.editors["ones_cancel_on_damage"].input
    assert isinstance(box, QCheckBox) and not box.isChecked()
    assert "damage roll" in box.toolTip()
    spin = dialog.editors["arena_tn"].input
    assert isinstance(spin, QSpinBox) and (spin.minimum(), spin.maximum(), spin.value()) == (6, 8, 8)
    dialog.grab().save(str(tmp_path / "options.png"))

    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    qtbot.keyClick(spin, Qt.Key.Key_Down)
    assert dialog.changes() == [("ones_cancel_on_damage", True), ("arena_tn", 7)]
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    options = engine.encounter.options
    assert options.ones_cancel_on_damage is True and options.arena_tn == 7
    assert [e.command["kind"] for e in engine.session.log[-2:]] == ["set-option", "set-option"]
    # Both changes were one step: the first Undo (the Edit menu's action) takes both back.
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert options.ones_cancel_on_damage is False and options.arena_tn == 8


def test_cancel_changes_nothing(window: Any, qtbot: Any) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    window.options_action.trigger()
    dialog = window.findChild(OptionsDialog)
    box = dialog.editors["basics_for_all"].input
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    cancel = dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel)
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert engine.encounter.options.basics_for_all is True and not engine.session.log
