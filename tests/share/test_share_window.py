"""Fight > Share With Players... in the GM's window: the dialog says who sees what, starts
and stops the share on the loopback address, the status bar counts the devices, the
choice is remembered; a player's typed roll waits in the roll panel ("typed by Ji-woo's
player") until the GM rolls with it or rejects it, and the log says who typed it;
closing the window ends the share."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.roll_under.commands import Attack
from fightdesk.share.network import LOOPBACK
from fightdesk.ui import settings
from fightdesk.ui.share_dialog import WHO_SEES, ShareDialog
from tests.start_step import answer_surprise

from .fight import shoot_at_ji_woo, table_fight
from .pages import Page, PhoneInThread

if TYPE_CHECKING:
    from fightdesk.ui.main_window import MainWindow


@pytest.fixture
def phone() -> Iterator[PhoneInThread]:
    device = PhoneInThread()
    yield device
    device.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def start_sharing(window: MainWindow) -> ShareDialog:
    assert window.share.action in window.fight_menu.actions()
    assert window.share.action.text() == "Share With &Players..."
    dialog = window.share.open_dialog()
    assert not window.share.sharing  # off until the GM starts it
    dialog.address.setCurrentIndex(dialog.address.findData(LOOPBACK))
    dialog.port.setValue(free_port())
    dialog.start_button.click()
    assert window.share.sharing, dialog.problem.text()
    return dialog


def claim(phone: PhoneInThread, page: Page, fighter: str) -> None:
    phone.call(page.state())
    phone.call(page.send({"type": "claim", "fighter": fighter}))
    phone.call(page.state(lambda s: s["me"]["fighter"] == fighter))


def test_the_dialog_starts_and_stops_the_share(window: MainWindow, qtbot: QtBot,
                                               phone: PhoneInThread) -> None:
    engine = table_fight()
    window.show_session(engine, None)
    dialog = start_sharing(window)
    server = window.share.server
    assert server is not None and server.host == LOOPBACK
    assert dialog.explain.text() == WHO_SEES
    assert "Anyone on the same network who has the link" in WHO_SEES
    assert "Nothing comes back but the dice a player types" in WHO_SEES
    assert dialog.link.text() == f"Link for the players: {server.url()}"
    assert not dialog.qr.pixmap().isNull() and dialog.qr.pixmap().width() >= 100
    qtbot.waitUntil(lambda: dialog.qr.geometry().bottom() < dialog.devices.geometry().top())
    assert dialog.qr.height() >= dialog.qr.pixmap().height()  # the whole code shows
    assert not dialog.start_button.isEnabled() and dialog.stop_button.isEnabled()
    store = settings.app_settings()
    assert store.value("share/host") == LOOPBACK
    assert int(store.value("share/port")) == server.port
    # The PCs may be claimed; the hidden ambusher and the enemies may not.
    ticked = {dialog.fighters.item(i).data(Qt.ItemDataRole.UserRole)
              for i in range(dialog.fighters.count())
              if dialog.fighters.item(i).checkState() == Qt.CheckState.Checked}
    assert ticked == {"miguel", "ji-woo", "tomasz", "dee"}

    pages = [phone.open(server) for _ in range(2)]
    status = window.share.status
    qtbot.waitUntil(lambda: status.text() == "Shared: 2 devices", timeout=5000)
    assert status.isVisible()
    # A GM action reaches the pages.
    shoot_at_ji_woo(engine)
    window.document.changed.emit(None)  # the engine was driven directly: tell the views
    for page in pages:
        phone.call(page.state(lambda s: s["fight"]["headline"].startswith("Round")))

    dialog.stop_button.click()
    assert not window.share.sharing and not status.isVisible()
    for page in pages:
        phone.call(page.until(lambda d: d["type"] == "stopped"))
    assert dialog.link.text() == "Not shared." and dialog.start_button.isEnabled()
    # A new share remembers the address and port, and has a new secret.
    again = ShareDialog(window.share)
    assert again.address.currentData() == LOOPBACK and again.port.value() == server.port
    again.start_button.click()
    assert window.share.server is not None and window.share.server.secret != server.secret
    window.share.stop()


def test_a_players_typed_roll_waits_for_the_gm_then_resolves(
        window: MainWindow, qtbot: QtBot, phone: PhoneInThread) -> None:
    engine = table_fight()
    window.show_session(engine, None)
    start_sharing(window)
    assert window.document.apply(c.StartFight()).ok
    answer_surprise(window.document, engine)
    assert window.document.apply(Attack(fighter_id="rooftop-sniper", target_id="ji-woo")).ok
    roll = engine.encounter.state.roll
    assert roll is not None and roll.roller_id == "ji-woo"
    server = window.share.server
    assert server is not None
    page = phone.open(server)
    claim(phone, page, "ji-woo")
    phone.call(page.now(lambda s: s["me"]["roll"] is not None))
    logged = len(engine.session.log)

    phone.call(page.send({"type": "roll", "roll": roll.id, "faces": [20]}))
    assert phone.call(page.line("notice")) == "Sent: the GM resolves it."
    panel = window.roll_panel
    qtbot.waitUntil(lambda: panel.typed_line.isVisible(), timeout=5000)
    assert panel.typed_line.text() == "Typed by Ji-woo's player: 20"
    assert panel.dice.text() == "20" and panel.reject_button.isVisible()
    # Nothing changed by itself: the roll still waits for the GM.
    assert len(engine.session.log) == logged and engine.encounter.state.roll is not None

    # The GM rejects it: the player hears so, and the roll still waits.
    panel.reject_button.click()
    assert not panel.typed_line.isVisible() and panel.dice.text() == ""
    assert "did not take" in phone.call(page.line("notice"))
    assert engine.encounter.state.roll is not None

    # Typed again, and the GM rolls with it.
    phone.call(page.send({"type": "roll", "roll": roll.id, "faces": [20]}))
    assert phone.call(page.line("notice")) == "Sent: the GM resolves it."
    qtbot.waitUntil(lambda: panel.typed_line.isVisible(), timeout=5000)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert engine.encounter.state.roll is None
    entry = engine.session.log[-1]
    assert entry.command["typed_by"] == "ji-woo"
    texts = [e.text for e in entry.events]
    assert "Dice typed by Ji-woo's player" in texts
    made = next(e.roll for e in entry.events if e.roll is not None)
    assert made.faces == [20] and made.source == "typed"
    from html import escape

    from fightdesk.ui.log_view import entry_html

    assert escape("typed in by Ji-woo's player") in entry_html(entry)
    assert "typed in by the GM" not in entry_html(entry)
    assert phone.call(page.line("notice")) == "The GM rolled with your dice."
    # The page gets the fight after the roll (before or after it heard so).
    if not any(m["type"] == "state" and m["me"]["roll"] is None for m in page.messages[-3:]):
        phone.call(page.state(lambda s: s["me"]["roll"] is None))


def test_the_gm_may_take_a_fighter_back_from_the_players(
        window: MainWindow, qtbot: QtBot, phone: PhoneInThread) -> None:
    engine = table_fight()
    window.show_session(engine, None)
    dialog = start_sharing(window)
    server = window.share.server
    assert server is not None
    page = phone.open(server)
    claim(phone, page, "ji-woo")
    row = next(i for i in range(dialog.fighters.count())
               if dialog.fighters.item(i).data(Qt.ItemDataRole.UserRole) == "ji-woo")
    qtbot.waitUntil(lambda: dialog.fighters.item(row).text().endswith("claimed by a player"),
                    timeout=5000)
    assert dialog.fighters.item(row).text() == "Ji-woo (pc) - claimed by a player"
    dialog.fighters.setCurrentRow(row)
    dialog.release_button.click()
    qtbot.waitUntil(lambda: dialog.fighters.item(row).text() == "Ji-woo (pc)", timeout=5000)
    assert dialog.fighters.currentRow() == row  # the GM's choice stays selected
    phone.call(page.state(lambda s: s["me"]["fighter"] is None))
    phone.call(page.send({"type": "claim", "fighter": "ji-woo"}))
    phone.call(page.state(lambda s: s["me"]["fighter"] == "ji-woo"))
    dialog.fighters.item(row).setCheckState(Qt.CheckState.Unchecked)  # no longer offered
    state = phone.call(page.state(lambda s: "ji-woo" not in [c["id"] for c in s["claimable"]]))
    assert state["me"]["fighter"] is None
    window.share.stop()


def test_closing_the_window_ends_the_share(window: MainWindow, phone: PhoneInThread) -> None:
    window.show_session(table_fight(), None)
    start_sharing(window)
    server = window.share.server
    assert server is not None
    page = phone.open(server)
    phone.call(page.state())
    window.document.undo_stack.setClean()
    window.close()
    assert not window.share.sharing
    phone.call(page.until(lambda d: d["type"] == "stopped"))
    with socket.socket() as probe:
        assert probe.connect_ex((LOOPBACK, server.port)) != 0


def test_every_network_only_when_the_gm_says_yes(
        window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from fightdesk.share.network import ALL, addresses, default_host

    window.show_session(table_fight(), None)
    dialog = window.share.open_dialog()
    # The default is never every network, nor this computer only when there is a network.
    assert dialog.address.currentData() != ALL
    assert default_host(addresses()) != ALL
    assert dialog.address.findData(ALL) >= 0
    asked: list[str] = []

    def answer_no(*args: object, **kwargs: object) -> QMessageBox.StandardButton:
        asked.append(str(args[1]))
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", answer_no)
    dialog.address.setCurrentIndex(dialog.address.findData(ALL))
    dialog.port.setValue(free_port())
    dialog.start_button.click()
    assert asked == ["Share on every network?"] and not window.share.sharing
    assert settings.app_settings().value("share/host") is None


def test_the_device_cap_is_the_dialogs(window: MainWindow, phone: PhoneInThread) -> None:
    window.show_session(table_fight(), None)
    dialog = window.share.open_dialog()
    dialog.max_devices.setValue(1)
    dialog.address.setCurrentIndex(dialog.address.findData(LOOPBACK))
    dialog.port.setValue(free_port())
    dialog.start_button.click()
    server = window.share.server
    assert server is not None and server.max_devices == 1
    assert int(settings.app_settings().value("share/max_devices")) == 1
    first = phone.open(server)
    phone.call(first.state())
    second = phone.open(server)
    assert "already shared with 1 device:" in phone.call(second.line("refused"))
    window.share.stop()


def test_faces_go_to_the_roll_panel_as_the_gm_would_type_them() -> None:
    from fightdesk.ui.share_dialog import _faces_text

    assert _faces_text((2, 1, 2), coins=True, d100=False) == "H T H"
    assert _faces_text((100, 7), coins=False, d100=True) == "00 7"
    assert _faces_text((3, 10), coins=False, d100=False) == "3 10"
