"""Setting a fight up at the table, through the widgets: the starter fighters of every
ruleset, the library following the open fight's ruleset, File > New Fight's name, the
new fighter's ruleset, and a PC added twice."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt, QTimer
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.engine.rulesets import KNOWN_RULESETS
from fightdesk.storage.library import Library, add_command, fighter_problems
from fightdesk.ui.library_panel import LibraryPanel
from fightdesk.ui.plain import plain_tip
from fightdesk.ui.ruleset_choice import RulesetChoice

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

STARTER = "Starter Fighters"


def shown_names(panel: LibraryPanel) -> list[str]:
    proxy = panel.proxy
    return [proxy.index(r, 0).data() for r in range(proxy.rowCount())]


def select(panel: LibraryPanel, fighter_id: str) -> None:
    panel.view.clearSelection()
    index = panel.proxy.mapFromSource(panel.model.index(panel.model.row_of(fighter_id), 0))
    assert index.isValid(), f"{fighter_id} is not in the list"
    sel = panel.view.selectionModel()
    sel.select(index, sel.SelectionFlag.Select | sel.SelectionFlag.Rows)


def fight_of(window: MainWindow, ruleset: str, tmp_path: Path) -> LibraryPanel:
    window.show_session(Engine(Session.begin(new_encounter(ruleset, "Test"))), None)
    panel = window.add_library_panel(Library(tmp_path / "campaigns"))
    assert window.library_dock is not None
    window.library_dock.show()
    assert panel.open_campaign(STARTER), "no starter campaign"
    return panel


def test_the_starter_campaign_holds_pcs_a_boss_and_mooks_for_every_ruleset(
        tmp_path: Path) -> None:
    library = Library(tmp_path / "campaigns")
    assert STARTER in library.first_run()
    campaign = library.open(STARTER)
    for ruleset in KNOWN_RULESETS:
        theirs = [f for f in campaign.fighters if f.ruleset == ruleset]
        tags = {t for f in theirs for t in f.tags}
        assert {"pc", "boss", "mook"} <= tags, ruleset
        assert sum(f.side == "pc" for f in theirs) >= 1, ruleset
        engine = Engine(Session.begin(new_encounter(ruleset)))
        for f in theirs:
            assert fighter_problems(f) == [], f.name
            assert engine.apply(add_command(f, 3 if "mook" in f.tags else 1)).ok, f.name
        # a whole fight of each ruleset can start from them
        assert len(engine.encounter.fighters) >= 4


def test_the_library_follows_the_fights_ruleset_and_says_why_it_cannot_add(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    panel = fight_of(window, "d100", tmp_path)
    assert panel.ruleset_filter.currentData() == "d100"
    assert sorted(shown_names(panel)) == ["Bandit", "Bandit Captain", "Rook", "Tariq", "Vesna"]
    select(panel, "rook")
    assert panel.add_action.isEnabled() and panel.add_reason.isHidden()
    # the GM may still show every ruleset; a fighter of another one cannot be added
    panel.ruleset_filter.setCurrentIndex(panel.ruleset_filter.findData(None))
    select(panel, "kaede-moriyama")
    assert not panel.add_action.isEnabled() and not panel.add_button.isEnabled()
    reason = "Kaede Moriyama is a Street Fighter fighter; this fight uses d100."
    assert panel.add_reason.isVisibleTo(panel) and panel.add_reason.text().startswith(reason)
    assert panel.add_action.toolTip() == plain_tip(panel.add_reason.text())
    # a new fight of another ruleset: the list follows it
    window.show_session(Engine(Session.begin(new_encounter("ashes", "Ash road"))), None)
    assert panel.ruleset_filter.currentData() == "ashes"
    assert "Ash Warlord" in shown_names(panel) and "Rook" not in shown_names(panel)


def test_new_fight_asks_its_name_with_its_ruleset(window: MainWindow, qtbot: QtBot) -> None:
    seen: list[str] = []

    def answer() -> None:
        dialog = window.findChild(RulesetChoice)
        assert dialog is not None and dialog.name_edit is not None
        seen.append(dialog.name_edit.text())
        dialog.name_edit.clear()
        qtbot.keyClicks(dialog.name_edit, "Ambush at the ford")
        dialog.list.setCurrentRow(2)
        qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Return)

    QTimer.singleShot(0, answer)
    window.new_fight()
    engine = window.document.engine
    assert seen == ["New fight"]
    assert engine is not None and engine.encounter.ruleset == "roll-under"
    assert engine.encounter.name == "Ambush at the ford"
    assert "Ambush at the ford" in window.windowTitle()


def test_a_new_fighters_ruleset_starts_on_the_open_fights(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    panel = fight_of(window, "ashes", tmp_path)
    panel.ruleset_filter.setCurrentIndex(panel.ruleset_filter.findData(None))
    offered: list[str | None] = []

    def look() -> None:
        dialog = panel.findChild(RulesetChoice)
        assert dialog is not None
        offered.append(dialog.chosen())
        dialog.reject()

    QTimer.singleShot(0, look)
    panel.new_action.trigger()
    assert offered == ["ashes"]


def test_adding_the_same_pc_twice_asks_first(window: MainWindow, qtbot: QtBot,
                                            tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    panel = fight_of(window, "d100", tmp_path)
    asked: list[str] = []
    answer = [False]

    def confirm(title: str, text: str) -> bool:
        asked.append(text)
        return answer[0]

    monkeypatch.setattr(panel, "_confirm", confirm)
    engine = window.document.engine
    assert engine is not None
    select(panel, "rook")
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert asked == [] and len(engine.encounter.fighters) == 1
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert asked == ["Rook is already in this fight. Add another copy?"]
    assert len(engine.encounter.fighters) == 1
    answer[0] = True
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert len(engine.encounter.fighters) == 2
    # mooks are added again without a question
    select(panel, "bandit")
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert len(asked) == 2 and len(engine.encounter.fighters) == 4
