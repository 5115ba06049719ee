"""The GM's operations: one path for every action (ui/operations.py through the
document), and the editor's and options dialog's edits landing whole."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QLineEdit, QSpinBox
from pytestqt.qtbot import QtBot

import fightdesk.ui
from fightdesk.engine.engine import Engine
from fightdesk.storage.sessions import demo_session
from fightdesk.ui import operations
from fightdesk.ui.fighter_editor import FighterEditor
from fightdesk.ui.main_window import MainWindow
from fightdesk.ui.options_dialog import OptionsDialog


def test_only_the_document_calls_the_engine_s_apply() -> None:
    folder = Path(fightdesk.ui.__file__).parent
    callers = sorted(path.name for path in folder.glob("*.py")
                     if re.search(r"engine\.apply\(", path.read_text(encoding="utf-8")))
    assert callers == ["document.py"]


def test_a_two_field_edit_whose_second_field_is_refused_changes_nothing(
        window: MainWindow, qtbot: QtBot) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert engine is not None
    before = engine.encounter.model_dump(mode="json")
    window.cards.requested.emit("edit", "kaede")
    editor = window.findChild(FighterEditor)
    assert editor is not None and editor.isVisible()
    name = editor.findChild(QLineEdit, "edit-name")
    health = editor.findChild(QSpinBox, "edit-status.health")
    assert name is not None and health is not None
    name.setText("Kaede the Swift")
    health.setMinimum(-999)  # (the editor's own bound would stop it: the rules must)
    health.setValue(-4)
    assert [field for field, _ in editor.changes()] == ["name", "status.health"]
    editor._ok()
    # Nothing changed, nothing logged, nothing to undo; the refusal names the field.
    assert engine.encounter.model_dump(mode="json") == before and not engine.session.log
    assert not window.document.can_undo()
    assert window.statusBar().currentMessage().startswith("health: ")


def test_a_two_field_edit_is_one_undo_step(window: MainWindow, qtbot: QtBot) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert engine is not None
    window.cards.requested.emit("edit", "kaede")
    editor = window.findChild(FighterEditor)
    assert editor is not None
    name = editor.findChild(QLineEdit, "edit-name")
    health = editor.findChild(QSpinBox, "edit-status.health")
    assert name is not None and health is not None
    name.setText("Kaede the Swift")
    health.setValue(6)
    editor._ok()
    kaede = engine.encounter.fighters["kaede"]
    assert (kaede.name, kaede.status.health) == ("Kaede the Swift", 6)
    assert window.document.undo_stack.count() == 1
    card = window.cards.card("kaede")
    assert card is not None and card.title.text() == "Kaede the Swift"
    window.undo_action.trigger()
    assert (kaede.name, kaede.status.health) == ("Kaede Moriyama", 10)
    assert not window.document.can_undo()


def test_the_options_dialog_s_changes_are_one_step(window: MainWindow, qtbot: QtBot) -> None:
    window.show_session(Engine(demo_session()), None)
    engine = window.document.engine
    assert engine is not None
    window.options_action.trigger()
    dialog = window.findChild(OptionsDialog)
    assert dialog is not None
    window.gm.apply_options([("ones_cancel_on_damage", True), ("arena_tn", 7)])
    assert window.document.undo_stack.count() == 1
    dialog.reject()
    window.undo_action.trigger()
    options = engine.encounter.options
    assert options.ones_cancel_on_damage is False and options.arena_tn == 8


def test_the_operations_build_the_command_and_go_through_the_document(
        window: MainWindow) -> None:
    engine = Engine(demo_session())
    window.show_session(engine, None)
    document = window.document
    refused: list[str] = []
    document.refused.connect(refused.append)
    assert operations.round_step(document, "start-fight").ok
    hidden = operations.toggle_hidden(document, "brannock")
    assert hidden is not None and hidden.ok
    assert engine.encounter.fighters["brannock"].hidden
    assert operations.set_health(document, "kaede", "status.health", 7).ok
    assert operations.set_enemy_health(document, engine.encounter.enemy_health) is None
    assert operations.rename_fight(document, "   ") == "Not renamed: a fight needs a name"
    renamed = operations.rename_fight(document, "Dockside  ambush")
    assert not isinstance(renamed, str) and renamed is not None and renamed.ok
    assert engine.encounter.name == "Dockside ambush"
    out = operations.add_condition(document, "kaede", {"name": "", "duration": "until-removed"})
    assert not out.ok and (out.error or "").startswith("name: ")
    assert not operations.free_roll(document, "3q7").ok
    assert refused == []  # the dice bar says why itself
    assert not operations.remove_condition(document, "kaede", 5).ok
    assert refused  # the status line says why
    assert isinstance(operations.quick_add(document, "Giant", "enemy", 90), str)
    assert operations.revert_to(document, 0) == 3  # back to just after the fight began
