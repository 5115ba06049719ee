"""Roll-under's surprise as a step of starting the fight, through the widgets: Start the
Fight asks who attacks by surprise, every fighter at once on the decision panel, and the
surprise step follows from the answer (docs/rulesets/roll-under.md#surprise)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from fightdesk.engine.engine import Engine
from fightdesk.engine.turns import current_fighter
from fightdesk.storage.sessions import load_session

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo_roll-under.json"


def pick(window: MainWindow, fighter_id: str, answer: str) -> None:
    box = window.decision_panel.field_input(fighter_id)
    assert isinstance(box, QComboBox)
    box.setCurrentIndex(box.findData(answer))


def test_start_the_fight_asks_who_attacks_by_surprise_and_the_pcs_ambush(
        window: MainWindow, qtbot: QtBot) -> None:
    """The demo marks the sniper; the GM answers that the PCs ambush instead: the
    surprise step has the PCs and the Vault Warden (an enemy, the ambush's target, who
    cannot be surprised); undo takes the whole start back."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    # No card action marks an ambusher any more: the question does.
    for role in ("gm", "act"):
        dialog = window.open_action_dialog("miguel", role=role)
        if dialog is not None:
            labels = [dialog.form_box.itemText(i) for i in range(dialog.form_box.count())]
            assert not any("surprise" in label for label in labels)
            dialog.reject()

    window.start_fight_action.trigger()
    panel = window.decision_panel
    assert panel.isVisible()
    assert "who attacks by surprise" in panel.prompt.text()
    assert enc.round == 0 and not enc.state.surprise
    sniper = panel.field_input("rooftop-sniper")
    assert isinstance(sniper, QComboBox) and sniper.currentData() == "yes"  # as the demo marks
    for fid in enc.order:
        pick(window, fid, "yes" if enc.fighters[fid].side == "pc" else "no")
    qtbot.mouseClick(panel.fields_ok, Qt.MouseButton.LeftButton)

    assert not panel.isVisible() and enc.state.pending is None
    assert enc.round == 1 and enc.state.surprise
    tl = window.timeline.timeline()
    assert tl is not None and tl.columns == ("Surprise",)
    assert [lane.title for lane in tl.lanes] == ["Miguel", "Ji-woo", "Tomasz", "Dee",
                                                 "Vault Warden"]
    assert current_fighter(enc.state.turns) == "miguel"
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == [
        "miguel", "ji-woo", "tomasz", "dee"]

    window.undo_action.trigger()
    assert enc.round == 0 and enc.state.stage == "setup" and enc.state.pending is None
    assert [f for f in enc.order if enc.fighters[f].status.ambusher] == ["rooftop-sniper"]


def test_nobody_ambushes_and_round_one_starts_with_its_initiative(
        window: MainWindow, qtbot: QtBot) -> None:
    """Answering nobody for every fighter: no surprise step, straight to round 1's
    Wisdom initiative."""
    engine = Engine(load_session(DEMO))
    window.show_session(engine, None)
    enc = engine.encounter
    window.start_fight_action.trigger()
    for fid in enc.order:
        pick(window, fid, "no")
    qtbot.mouseClick(window.decision_panel.fields_ok, Qt.MouseButton.LeftButton)
    assert not enc.state.surprise and enc.state.stage == "initiative"
    pending = enc.state.pending
    assert pending is not None and pending.id.startswith("initiative-1")
    assert not any(f.status.ambusher for f in enc.fighters.values())
