"""The library panel and the fighter form: model checks, filters, form messages,
add-to-fight commands, drag data, undo, bad imports, failed saves, write-back."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QSpinBox, QTableWidget, QTableWidgetItem
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.commands import AddFighters
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Fighter, Session
from fightdesk.storage import files
from fightdesk.storage.library import (
    FIGHTER_MIME,
    Library,
    WriteBackPlan,
    commands_from_drag,
)
from fightdesk.ui.fighter_form import FighterDialog, FighterForm
from fightdesk.ui.library_panel import IdRole, LibraryPanel, WriteBackDialog
from fightdesk.ui.plain import plain_tip


def item(table: QTableWidget, row: int, column: int) -> QTableWidgetItem:
    """The cell at ``row``, ``column``; every cell of these tables is filled in."""
    cell = table.item(row, column)
    assert cell is not None, f"no item at row {row}, column {column}"
    return cell


@pytest.fixture
def panel(qtbot: QtBot, tmp_path: Path) -> LibraryPanel:
    """A panel on a fresh library: the first run brings in the sample campaign."""
    widget = LibraryPanel(Library(tmp_path / "campaigns"))
    qtbot.addWidget(widget)
    return widget


def shown_names(panel: LibraryPanel) -> list[str]:
    proxy = panel.proxy
    return [proxy.index(r, 0).data() for r in range(proxy.rowCount())]


def select(panel: LibraryPanel, *ids: str) -> None:
    panel.view.clearSelection()
    sel = panel.view.selectionModel()
    for fid in ids:
        index = panel.proxy.mapFromSource(panel.model.index(panel.model.row_of(fid), 0))
        sel.select(index, sel.SelectionFlag.Select | sel.SelectionFlag.Rows)


def test_first_run_opens_the_sample_campaign(panel: LibraryPanel) -> None:
    assert panel.campaign is not None and panel.campaign.name == "Harbour Nights"
    assert panel.campaign_combo.currentText() == "Harbour Nights"
    assert "Syndicate Bruiser" in shown_names(panel)
    assert not panel.undo_action.isEnabled() and panel.banner.isHidden()


def test_long_tags_are_cut_short_not_scrolled_and_the_tooltip_has_them(
        panel: LibraryPanel, qtbot: QtBot) -> None:
    campaign = panel.campaign
    assert campaign is not None
    bruiser = next(f for f in campaign.fighters if f.name == "Syndicate Bruiser")
    many = ["mook", "syndicate", "harbour", "night shift", "armed", "loud", "drunk"]
    campaign.edit(bruiser.id, bruiser.model_copy(update={"tags": many}))
    panel.resize(380, 500)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.view.horizontalScrollBar().maximum() == 0
    index = panel.model.index(panel.model.row_of(bruiser.id), 3)
    assert "Tags: " + ", ".join(many) in index.data(Qt.ItemDataRole.ToolTipRole)


@pytest.mark.parametrize("which", ["model", "proxy"])
def test_models_pass_the_model_tester_through_edits(panel: LibraryPanel, qtmodeltester: Any,
                                                    which: str) -> None:
    # one model per test: the tester follows the last model it was given
    qtmodeltester.check(getattr(panel, which), force_py=True)
    campaign = panel.campaign
    assert campaign is not None
    copy = campaign.duplicate("canal-lookout")
    campaign.edit(copy.id, copy.model_copy(update={"name": "Aardvark", "tags": ["odd"]}))
    campaign.delete(["dov-abramsky", copy.id])
    campaign.undo()
    campaign.redo()
    assert panel.model.rowCount() == len(campaign)
    assert panel.model.index(0, 0).data(IdRole) == campaign.fighters[0].id


def test_search_and_filters(panel: LibraryPanel, qtbot: QtBot) -> None:
    qtbot.keyClicks(panel.search, "TSUDA")
    assert shown_names(panel) == ['Hachiro "Lantern" Tsuda']
    panel.search.clear()
    panel.side_filter.setCurrentIndex(panel.side_filter.findData("enemy"))
    assert shown_names(panel) == ["Canal Lookout", 'Hachiro "Lantern" Tsuda',
                                  "Syndicate Bruiser"]
    panel.tag_filter.setCurrentIndex(panel.tag_filter.findData("mook"))
    assert shown_names(panel) == ["Canal Lookout", "Syndicate Bruiser"]
    panel.side_filter.setCurrentIndex(panel.side_filter.findData("pc"))
    assert shown_names(panel) == []
    panel.side_filter.setCurrentIndex(0)
    panel.tag_filter.setCurrentIndex(0)
    panel.ruleset_filter.setCurrentIndex(panel.ruleset_filter.findData("street-fighter"))
    assert len(shown_names(panel)) == 6
    # a new tag appears in the tag filter as soon as a fighter has it
    campaign = panel.campaign
    assert campaign is not None
    lookout = campaign.get("canal-lookout")
    campaign.edit(lookout.id, lookout.model_copy(update={"tags": ["mook", "canal"]}))
    panel.tag_filter.setCurrentIndex(panel.tag_filter.findData("canal"))
    assert shown_names(panel) == ["Canal Lookout"]


def test_add_to_fight_emits_the_command_with_a_count(panel: LibraryPanel,
                                                     qtbot: QtBot) -> None:
    select(panel, "syndicate-bruiser")
    panel.count_spin.setValue(5)
    assert panel.add_action.text() == "Add 5 to fight"
    with qtbot.waitSignal(panel.addToEncounter) as blocker:
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    cmd = blocker.args[0]
    assert isinstance(cmd, AddFighters) and cmd.count == 5
    assert cmd.fighter["source_id"] == "syndicate-bruiser"
    engine = Engine(Session.begin(Encounter()))
    assert engine.apply(cmd).ok
    names = [engine.encounter.fighters[f].name for f in engine.encounter.order]
    assert names == [f"Syndicate Bruiser {i}" for i in range(1, 6)]


def test_drag_carries_the_fighters_and_the_count(panel: LibraryPanel) -> None:
    panel.count_spin.setValue(3)
    rows = [panel.model.index(panel.model.row_of(fid), 0)
            for fid in ("canal-lookout", "hachiro-tsuda")]
    mime = panel.model.mimeData(rows)
    assert panel.model.mimeTypes() == [FIGHTER_MIME]
    assert mime.hasFormat(FIGHTER_MIME)
    # in campaign order, whatever order they were picked in
    assert mime.text() == '3 x Hachiro "Lantern" Tsuda\n3 x Canal Lookout'
    cmds = commands_from_drag(bytes(mime.data(FIGHTER_MIME).data()))
    assert [(x.fighter["name"], x.count) for x in cmds] == [
        ('Hachiro "Lantern" Tsuda', 3), ("Canal Lookout", 3)]
    assert panel.model.flags(rows[0]) & Qt.ItemFlag.ItemIsDragEnabled
    assert panel.view.dragEnabled()


def test_edit_duplicate_delete_and_library_undo(panel: LibraryPanel,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = panel.campaign
    assert campaign is not None

    def edited(fighter: Fighter, title: str) -> Fighter:
        assert title == "Edit Canal Lookout"
        return fighter.model_copy(update={"notes": "saw everything"})

    monkeypatch.setattr(panel, "_edit_dialog", edited)
    select(panel, "canal-lookout")
    panel.edit_action.trigger()
    assert campaign.get("canal-lookout").notes == "saw everything"
    assert panel.undo_action.isEnabled()
    assert panel.undo_action.toolTip() == plain_tip("Undo library edit: Edit Canal Lookout")
    panel.duplicate_action.trigger()
    assert panel.selected_fighters()[0].name == "Canal Lookout (copy)"
    select(panel, "canal-lookout", "canal-lookout-copy")
    panel.delete_action.trigger()
    assert "Canal Lookout" not in shown_names(panel)
    for _ in range(3):
        panel.undo_action.trigger()
    assert campaign.get("canal-lookout").notes.startswith("Whistles")
    assert len(campaign) == 6 and panel.redo_action.isEnabled()
    panel.redo_action.trigger()
    assert campaign.get("canal-lookout").notes == "saw everything"


def test_new_fighter_and_new_campaign(panel: LibraryPanel,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(panel, "_ask_text", lambda *a: "Side story")
    panel.new_campaign_action.trigger()
    assert panel.campaign is not None and panel.campaign.name == "Side story"
    assert panel.campaign_combo.currentText() == "Side story" and shown_names(panel) == []
    monkeypatch.setattr(panel, "_edit_dialog",
                        lambda f, title: f.model_copy(update={"name": "Rook"}))
    asked: list[str] = []

    def ask() -> str:
        asked.append("asked")
        return "d100"

    monkeypatch.setattr(panel, "_new_ruleset", ask)
    panel.new_action.trigger()
    assert asked == ["asked"]
    assert shown_names(panel) == ["Rook"] and panel.selected_fighters()[0].id == "rook"
    assert panel.selected_fighters()[0].ruleset == "d100"
    # back to the first campaign through the picker
    i = panel.campaign_combo.findData("Harbour Nights")
    panel.campaign_combo.activated.emit(i)
    assert panel.campaign.name == "Harbour Nights" and len(shown_names(panel)) == 6


def test_rename_delete_and_a_broken_campaign(panel: LibraryPanel,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    library = panel.library
    monkeypatch.setattr(panel, "_ask_text", lambda *a: "Harbour Nights, year two")
    panel.rename_campaign_action.trigger()
    assert panel.campaign is not None and panel.campaign.name == "Harbour Nights, year two"
    assert [panel.campaign_combo.itemText(i) for i in range(panel.campaign_combo.count())] == [
        "Harbour Nights, year two", "Starter Fighters"]
    # a broken campaign file: one message, the open campaign stays, the file untouched
    broken = library.folder / "Broken.json"
    text = panel.campaign.path.read_text("utf-8").replace('"wits": 4', '"wits": "sharp"', 1)
    broken.write_text(text, encoding="utf-8")
    panel._fill_campaigns()
    panel.campaign_combo.activated.emit(panel.campaign_combo.findData("Broken"))
    assert panel.banner.text().startswith(f"Cannot open this campaign: {broken}, fighter #1 ")
    assert "field sheet.wits" in panel.banner.text()
    assert panel.campaign.name == "Harbour Nights, year two"
    assert panel.campaign_combo.currentText() == "Harbour Nights, year two"
    assert broken.read_text("utf-8") == text
    # deleting asks first, then moves the file aside and opens what is left
    asked: list[str] = []

    def refuse(title: str, text: str) -> bool:
        asked.append(text)
        return False

    monkeypatch.setattr(panel, "_confirm", refuse)
    panel.delete_campaign_action.trigger()
    assert panel.campaign.name == "Harbour Nights, year two" and len(asked) == 1
    monkeypatch.setattr(panel, "_confirm", lambda title, text: True)
    panel.delete_campaign_action.trigger()
    assert library.campaigns() == ["Broken", "Starter Fighters"]
    assert (library.folder / ".deleted").is_dir()


def test_bad_import_names_file_fighter_field_and_adds_nothing(
        panel: LibraryPanel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = panel.campaign
    assert campaign is not None
    fighters = [f.model_dump(mode="json") for f in campaign.fighters[:2]]
    fighters[1]["sheet"]["wits"] = "sharp"
    bad = tmp_path / "bad import.json"
    bad.write_text(json.dumps({"fightdesk": "fighters", "schema_version": 1,
                               "fighters": fighters}))
    monkeypatch.setattr(panel, "_ask_open_file", lambda: bad)
    before = campaign.fighters
    panel.import_action.trigger()
    text = panel.banner.text()
    assert not panel.banner.isHidden()
    assert text.startswith(f"Nothing was imported: {bad}, fighter #2 ")
    assert "field sheet.wits" in text and "'sharp'" in text
    assert campaign.fighters == before and not panel.undo_action.isEnabled()


def test_failed_save_shows_a_banner_and_retries(panel: LibraryPanel,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = panel.campaign
    assert campaign is not None
    good = campaign.path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    select(panel, "dov-abramsky")
    panel.delete_action.trigger()
    assert not panel.banner.isHidden() and not panel.retry_button.isHidden()
    assert "the disk is full" in panel.banner.text()
    assert str(campaign.path) in panel.banner.text()
    assert campaign.path.read_bytes() == good
    monkeypatch.undo()
    panel.retry_button.click()
    assert panel.banner.isHidden()
    assert "dov-abramsky" not in campaign.path.read_text("utf-8")


def test_write_back_shows_the_diff_then_applies(panel: LibraryPanel, qtbot: QtBot,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = panel.campaign
    assert campaign is not None
    engine = Engine(Session.begin(Encounter()))
    select(panel, "marisol-quintero")
    panel.addToEncounter.connect(engine.apply)
    panel.add_action.trigger()
    fid = engine.encounter.order[0]
    assert engine.apply(c.SetValue(fighter_id=fid, field="status.health", value=3)).ok
    panel.set_encounter_source(lambda: engine.encounter)
    seen: list[WriteBackPlan] = []

    def confirm(plan: WriteBackPlan) -> bool:
        seen.append(plan)
        dialog = WriteBackDialog(plan, campaign.name)
        qtbot.addWidget(dialog)
        table = dialog.table
        cells = [[item(table, r, k).text() for k in range(4)]
                 for r in range(table.rowCount())]
        assert cells == [["Marisol Quintero", "Health (now)", "10", "3"]]
        return True

    monkeypatch.setattr(panel, "_confirm_write_back", confirm)
    panel.write_back_action.trigger()
    assert len(seen) == 1 and campaign.get("marisol-quintero").status.health == 3
    assert panel.undo_action.toolTip() == plain_tip("Undo library edit: Write back Marisol Quintero")
    panel.undo_action.trigger()
    assert campaign.get("marisol-quintero").status.health == 10


# --- the form ---------------------------------------------------------------------------------


@pytest.fixture
def marisol(panel: LibraryPanel) -> Fighter:
    assert panel.campaign is not None
    return panel.campaign.get("marisol-quintero")


def test_form_widgets_follow_the_model_fields(qtbot: QtBot, marisol: Fighter) -> None:
    form = FighterForm(marisol)
    qtbot.addWidget(form)
    strength = form.editors["sheet.strength"].input
    health = form.editors["sheet.health"].input
    assert isinstance(strength, QSpinBox) and (strength.minimum(), strength.maximum()) == (0, 10)
    assert isinstance(health, QSpinBox) and (health.minimum(), health.maximum()) == (1, 30)
    assert form.editors["sheet.weenie"].spec.kind == "bool"
    assert form.editors["side"].value() == "pc"
    table = form.tables["sheet.maneuvers"]
    assert table.table.rowCount() == len(marisol.sheet.maneuvers)
    # unchanged, the form gives back exactly the fighter it was given
    assert form.fighter() == marisol


def test_form_messages_next_to_the_field(qtbot: QtBot, marisol: Fighter) -> None:
    dialog = FighterDialog(marisol, "Edit")
    qtbot.addWidget(dialog)
    form = dialog.form
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    form.editors["sheet.health"].set_value(7)
    message = form.editors["status.health"].message
    assert message.text() == "current health 10 is above the sheet's 7"
    assert not message.isHidden() and not ok.isEnabled()
    assert form.summary.text() == "1 problem to fix before saving"
    form.rested_button.click()
    assert form.editors["status.health"].value() == 7
    assert message.isHidden() and ok.isEnabled()
    form.editors["name"].set_value("   ")
    assert form.editors["name"].message.text() == "cannot be empty"
    assert form.fighter() is None and not ok.isEnabled()


def test_form_maneuver_table_messages(qtbot: QtBot, marisol: Fighter) -> None:
    form = FighterForm(marisol)
    qtbot.addWidget(form)
    table = form.tables["sheet.maneuvers"]
    speed = table.column_of("speed")
    item(table.table, 0, speed).setData(Qt.ItemDataRole.EditRole, 12)
    assert table.message.text() == (
        "Maneuver 1 (Jab), speed: Input should be less than or equal to 10 (got 12)")
    item(table.table, 0, speed).setData(Qt.ItemDataRole.EditRole, 3)
    assert table.message.isHidden()
    name = table.column_of("name")
    item(table.table, 1, name).setText("jab")
    assert "maneuver 'jab' is listed twice" in table.message.text()
    # a broken field elsewhere does not hide the table's own problem
    form.editors["name"].set_value("")
    assert form.editors["name"].message.text() == "cannot be empty"
    assert "maneuver 'jab' is listed twice" in table.message.text()
    assert form.summary.text() == "2 problems to fix before saving"
    form.editors["name"].set_value("Marisol Quintero")
    item(table.table, 1, name).setText("Strong")
    catalogue = table.catalogue_combo
    i = next(k for k in range(catalogue.count()) if catalogue.itemText(k) == "Throw")
    catalogue.activated.emit(i)
    fighter = form.fighter()
    assert fighter is not None
    assert fighter.sheet.maneuvers[0].speed == 3
    assert fighter.sheet.maneuvers[-1].name == "Throw"
    assert fighter.sheet.maneuvers[-1].technique == "grab"


# --- wired into the main window -----------------------------------------------------------------


def test_main_window_applies_library_fighters_by_button_and_drop(
        window: Any, qtbot: QtBot, tmp_path: Path) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QDropEvent

    from fightdesk.storage.sessions import demo_session

    window.show_session(Engine(demo_session()), None)
    panel = window.add_library_panel(Library(tmp_path / "campaigns"))
    assert window.add_library_panel() is panel  # built once
    assert window.library_dock is not None
    assert window.library_dock.toggleViewAction() in window.view_menu.actions()
    engine = window.document.engine
    assert engine is not None
    before = len(engine.encounter.fighters)

    select(panel, "syndicate-bruiser")
    panel.count_spin.setValue(2)
    panel.add_action.trigger()
    names = [engine.encounter.fighters[f].name for f in engine.encounter.order[before:]]
    assert names == ["Syndicate Bruiser 1", "Syndicate Bruiser 2"]

    panel.count_spin.setValue(1)
    mime = panel.model.mimeData([panel.model.index(panel.model.row_of("hachiro-tsuda"), 0)])
    centre = window.centralWidget().geometry().center()
    drop = QDropEvent(QPointF(centre), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    assert drop.isAccepted()
    last = engine.encounter.fighters[engine.encounter.order[-1]]
    assert last.name == 'Hachiro "Lantern" Tsuda' and last.source_id == "hachiro-tsuda"
    count = len(engine.encounter.fighters)
    qtbot.waitUntil(lambda: window.library_dock.width() > 150)
    over_library = QDropEvent(QPointF(window.library_dock.geometry().center()),
                              Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                              Qt.KeyboardModifier.NoModifier)
    window.dropEvent(over_library)  # dropping back onto the library adds nothing
    assert not over_library.isAccepted() and len(engine.encounter.fighters) == count
    # the fight's undo takes the drop back; the library's history is not touched
    window.undo_action.trigger()
    assert len(engine.encounter.fighters) == before + 2
    assert panel.campaign is not None and not panel.campaign.can_undo()


def test_library_dock_place_is_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    from fightdesk.ui.main_window import MainWindow

    def window_with_library(library: bool = True) -> MainWindow:
        win = MainWindow()
        qtbot.addWidget(win, before_close_func=lambda w: w.document.undo_stack.setClean())
        win.resize(1280, 800)
        win.show()
        if library:
            win.add_library_panel(Library(tmp_path / "campaigns"))
        return win

    window_with_library(library=False).save_layout()  # saved before the library existed
    second = window_with_library()
    dock = second.library_dock
    assert dock is not None
    qtbot.waitUntil(dock.isVisible)  # the main window lays its docks out on the next pass
    dock.hide()
    second.save_layout()
    third = window_with_library()
    qtbot.wait(50)
    assert third.library_dock is not None and not third.library_dock.isVisible()
    third.library_dock.show()
    third.save_layout()
    fourth = window_with_library()
    qtbot.waitUntil(lambda: fourth.library_dock is not None and fourth.library_dock.isVisible())
