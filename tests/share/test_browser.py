"""The shared page in a real browser: Debian's chromium, headless at a phone's 360 px,
driven by Selenium through the system's chromium-driver (no browser download). The page
loads, follows a GM action, never shows the hidden fighter, and a player's typed roll
reaches the GM's roll panel and resolves; a dropped connection comes back by itself.

``FIGHTDESK_SHARE_SCREENSHOTS=1`` also writes the phone page, light and dark, to
docs/screenshots/ (player-phone-light.png, player-phone-dark.png).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from fightdesk.engine import commands as c
from fightdesk.engine.rulesets.roll_under.commands import Attack
from fightdesk.share.server import ShareServer
from tests.start_step import answer_surprise

from .fight import HIDDEN_HEALTH, HIDDEN_NAME, SECRET_NOTE, shot, table_fight

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

    from fightdesk.ui.main_window import MainWindow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WAIT = 10.0

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        message = "Debian's chromium and chromium-driver are not installed (.ci/run installs them)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=360,800",
                     "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(360, 800)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: WebDriver, check: Callable[[WebDriver], Any], what: str) -> Any:
    """Wait for the page while the GM's window goes on handling its events."""
    import time

    end = time.monotonic() + WAIT
    while True:
        QApplication.processEvents()
        found = check(driver)
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not seen in {WAIT}s; page says "
                                 f"{driver.find_element('tag name', 'body').text!r}")
        time.sleep(0.02)


def text_of(driver: WebDriver, element_id: str) -> str:
    return str(driver.find_element("id", element_id).text)


def start(window: MainWindow) -> ShareServer:
    window.share.start("127.0.0.1", 0, 12)
    server = window.share.server
    assert server is not None
    return server


def test_the_page_follows_the_fight_and_a_typed_roll_resolves(
        window: MainWindow, qtbot: QtBot, browser: WebDriver, tmp_path: Path) -> None:
    engine = table_fight()
    window.show_session(engine, None)
    server = start(window)
    browser.get(server.url())
    wait_for(browser, lambda d: text_of(d, "headline") == "Before the fight", "the fight")
    wait_for(browser, lambda d: d.find_elements("css selector", "#claimable button"), "choices")
    names = [b.text for b in browser.find_elements("css selector", "#claimable button")]
    assert names == ["Miguel", "Ji-woo", "Tomasz", "Dee"]

    # A GM action reaches the page.
    assert window.document.apply(c.StartFight()).ok
    answer_surprise(window.document, engine)
    wait_for(browser, lambda d: text_of(d, "headline").startswith("Round 1"), "the new round")
    assert window.document.apply(Attack(fighter_id="rooftop-sniper", target_id="ji-woo")).ok

    # Ji-woo's player claims Ji-woo: their card, and the roll waiting on them.
    browser.find_element("css selector", "#claimable button[data-fighter='ji-woo']").click()
    wait_for(browser, lambda d: d.find_element("id", "roll").is_displayed(), "the roll")
    assert "Ji-woo" in text_of(browser, "own-card") and "11/11" in text_of(browser, "own-card")
    assert text_of(browser, "roll-what") == "Roll 1d20"
    assert text_of(browser, "roll-target") == "target 9"
    assert text_of(browser, "roll-odds") == "9 or less on a d20: 9/20 (45.0%)"
    assert_nothing_hidden(browser)
    screenshots(browser, tmp_path)

    # Faces that are not on the die are refused on the page; nothing is sent.
    faces = browser.find_element("id", "faces")
    faces.send_keys("25")
    browser.find_element("id", "send-roll").click()
    assert text_of(browser, "roll-error") == "25 is not on a d20 (1 to 20)."
    assert not window.roll_panel.typed_line.isVisible()
    faces.clear()
    faces.send_keys("7")
    browser.find_element("id", "send-roll").click()
    panel = window.roll_panel
    qtbot.waitUntil(lambda: panel.typed_line.isVisible(), timeout=5000)
    assert panel.typed_line.text() == "Typed by Ji-woo's player: 7"
    wait_for(browser, lambda d: text_of(d, "line") == "Sent: the GM resolves it.", "sent")
    assert engine.encounter.state.roll is not None  # waits for the GM
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert engine.encounter.state.roll is None
    assert "Dice typed by Ji-woo's player" in [e.text for e in engine.session.log[-1].events]
    wait_for(browser, lambda d: not d.find_element("id", "roll").is_displayed(), "roll made")
    wait_for(browser, lambda d: text_of(d, "line") == "The GM rolled with your dice.", "told")
    assert_nothing_hidden(browser)
    window.share.stop()
    wait_for(browser, lambda d: text_of(d, "status") == "The GM stopped sharing the fight.",
             "stopped")


def test_a_dropped_connection_comes_back_by_itself(browser: WebDriver) -> None:
    engine = table_fight()
    first = ShareServer("127.0.0.1", 0)
    first.start()
    first.publish(shot(engine))
    browser.get(first.url())
    wait_for(browser, lambda d: text_of(d, "headline") == "Before the fight", "the fight")
    # The server goes away without a word (as a laptop's network drops), then is back.
    port, secret = first.port, first.secret
    assert first._loop is not None
    for page in list(first._pages):  # no goodbye: the page only sees its connection drop
        asyncio.run_coroutine_threadsafe(page.ws.close(code=1011), first._loop).result(5)
    first.stop()
    wait_for(browser, lambda d: "reconnecting" in text_of(d, "status"), "the drop")
    assert engine.apply(c.StartFight()).ok
    answer_surprise(engine, engine)
    again = ShareServer("127.0.0.1", port, secret=secret)
    again.start()
    try:
        again.publish(shot(engine))
        wait_for(browser, lambda d: text_of(d, "headline").startswith("Round 1"), "back")
        assert text_of(browser, "status") == "Live"
    finally:
        again.stop()


def assert_nothing_hidden(driver: WebDriver) -> None:
    shown = driver.find_element("tag name", "body").text + driver.page_source
    for secret in (HIDDEN_NAME, "Razor", SECRET_NOTE, HIDDEN_HEALTH):
        assert secret not in shown


def screenshots(driver: WebDriver, folder: Path) -> None:
    """The phone page in light and dark (copied to docs/screenshots/ when asked)."""
    driver.set_window_size(360, 1280)  # the whole page, at a phone's width
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})
        path = folder / f"player-phone-{scheme}.png"
        driver.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
        if os.environ.get("FIGHTDESK_SHARE_SCREENSHOTS"):
            shutil.copyfile(path, SHOTS / path.name)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.set_window_size(360, 800)
