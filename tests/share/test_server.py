"""The share's server, with no Qt and no browser: the secret on every request, the device
cap, bad and oversized messages, only the claimed fighter's roll, reconnecting, and Stop
Sharing closing every connection. Every server binds to 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator

import aiohttp
import pytest

from fightdesk.engine import commands as c
from fightdesk.share.server import MAX_MESSAGE, ShareServer, TypedRoll, check_faces

from .fight import PCS, shoot_at_ji_woo, shot, table_fight
from .pages import Page, session

REFUSAL = b"fightdesk: this link is not valid (ask the GM for the current one).\n"


class Served:
    """A running server on the loopback address, with what it handed to the GM."""

    def __init__(self, max_devices: int = 12) -> None:
        self.rolls: list[TypedRoll] = []
        self.counts: list[int] = []
        self.server = ShareServer("127.0.0.1", 0, max_devices=max_devices,
                                  on_roll=self.rolls.append, on_devices=self.counts.append)
        self.server.start()


@pytest.fixture
def served() -> Iterator[Served]:
    running = Served()
    yield running
    running.server.stop()


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 30))


def test_every_request_needs_this_shares_secret(served: Served) -> None:
    server = served.server
    old = ShareServer("127.0.0.1", 0)  # another share: its secret is not this one's
    assert old.secret != server.secret
    root = f"http://127.0.0.1:{server.port}"

    async def test() -> None:
        async with session() as phone:
            for path in ("/", "/page.js", "/ws", "/wrong-secret/", "/wrong-secret/page.js",
                         f"/{old.secret}/", f"/{old.secret}/ws", f"/{server.secret[:-1]}/",
                         f"/x{server.secret}/page.css"):
                status, body = await phone.get(root + path)
                assert (status, body) == (403, REFUSAL), path
            for name, kind in (("", b"<!doctype html>"), ("page.js", b'"use strict"'),
                               ("page.css", b":root")):
                status, body = await phone.get(f"{root}/{server.secret}/{name}")
                assert status == 200 and kind in body, name
            status, body = await phone.get(f"{root}/{server.secret}/nothing-here")
            assert status == 404 and body.count(b"\n") == 1
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await phone.open(server, secret=old.secret)
            page = await phone.open(server)
            assert (await page.next())["type"] == "welcome"

    run(test)


def test_no_more_devices_than_the_cap() -> None:
    running = Served(max_devices=3)
    server = running.server

    async def test() -> None:
        async with session() as phone:
            pages = [await phone.open(server) for _ in range(3)]
            for page in pages:
                await page.state()
            extra = await phone.open(server)
            refused = await extra.next()
            assert refused["type"] == "refused" and "3 devices" in refused["text"]
            assert (await extra.next())["type"] == "closed"
            await pages[0].ws.close()
            await asyncio.sleep(0.2)
            again = await phone.open(server)
            assert (await again.next())["type"] == "welcome"

    try:
        run(test)
    finally:
        server.stop()
    assert max(running.counts) == 3


def test_bad_messages_get_one_line_and_change_nothing(served: Served) -> None:
    server = served.server
    engine = table_fight()
    shoot_at_ji_woo(engine)
    server.publish(shot(engine))

    async def test() -> None:
        async with session() as phone:
            page = await phone.open(server)
            await page.state(lambda s: s["claimable"])
            await page.send({"type": "claim", "fighter": "ji-woo"})
            before = await page.state(lambda s: s["me"]["fighter"] == "ji-woo")
            bad: list[str | object] = [
                "not json", "[1, 2]", "null", {"type": "hack"}, {"no": "type"},
                {"type": "claim", "fighter": ["ji-woo"]},
                {"type": "roll", "roll": 1, "faces": [21]},
                {"type": "roll", "roll": 1, "faces": [0]},
                {"type": "roll", "roll": 1, "faces": [3, 4]},
                {"type": "roll", "roll": 1, "faces": ["H"]},
                {"type": "roll", "roll": 1, "faces": [True]},
                {"type": "roll", "roll": 1, "faces": "7"},
                {"type": "roll", "roll": 2, "faces": [7]},
                "x" * (MAX_MESSAGE + 1),
            ]
            for message in bad:
                await page.send(message)
                line = await page.line()
                assert line and "\n" not in line, message
            await page.ws.send_bytes(b"\x00\x01")
            assert "text" in await page.line()
            # Past the hard limit the connection is closed without reading it; the
            # server goes on serving.
            await page.send("y" * (70 * 1024))
            assert (await page.until(lambda d: d["type"] == "closed"))["code"] == 1009
            other = await phone.open(server)
            state = await other.state()
            assert state["fight"] == before["fight"]

    run(test)
    assert served.rolls == []
    assert engine.encounter.state.roll is not None


def test_too_many_messages_are_refused(served: Served) -> None:
    async def test() -> None:
        async with session() as phone:
            page = await phone.open(served.server)
            await page.state()
            for _ in range(25):
                await page.send({"type": "release"})
            await page.until(lambda d: d.get("text") == "Too many messages: wait a moment.")

    run(test)


def test_only_the_claimed_fighters_waiting_roll_takes_dice(served: Served) -> None:
    server = served.server
    engine = table_fight()
    shoot_at_ji_woo(engine)
    # The GM lets the players claim every PC but Dee.
    server.publish(shot(engine, allowed=("miguel", "ji-woo", "tomasz")))

    async def test() -> None:
        async with session() as phone:
            ji_woo, miguel, nobody = [await phone.open(server) for _ in range(3)]
            for page in (ji_woo, miguel, nobody):
                await page.state()
            await nobody.send({"type": "roll", "roll": 1, "faces": [7]})
            assert await nobody.line() == "Claim your fighter first."
            for fighter in ("dee", "razor-quill", "rooftop-sniper", "nobody"):
                await nobody.send({"type": "claim", "fighter": fighter})
                assert await nobody.line() == "That fighter cannot be claimed."
            await ji_woo.send({"type": "claim", "fighter": "ji-woo"})
            mine = await ji_woo.state(lambda s: s["me"]["fighter"] == "ji-woo")
            assert mine["me"]["roll"]["count"] == 1 and mine["me"]["roll"]["sides"] == 20
            assert mine["me"]["roll"]["odds"][0]["exact"] == "9/20"
            await miguel.send({"type": "claim", "fighter": "ji-woo"})
            assert await miguel.line() == "Another player has claimed that fighter."
            await miguel.send({"type": "claim", "fighter": "miguel"})
            theirs = await miguel.state(lambda s: s["me"]["fighter"] == "miguel")
            assert theirs["me"]["roll"] is None  # Ji-woo's roll is not Miguel's
            await miguel.send({"type": "roll", "roll": 1, "faces": [7]})
            assert await miguel.line() == "No roll of yours is waiting."
            assert served.rolls == []
            await ji_woo.send({"type": "roll", "roll": 1, "faces": [7]})
            assert await ji_woo.line("notice") == "Sent: the GM resolves it."
            assert served.rolls == [TypedRoll(1, "ji-woo", "Ji-woo", (7,))]
            # The GM releases Ji-woo: the page chooses again, its dice go nowhere.
            server.release("ji-woo")
            assert "released" in await ji_woo.line("notice")
            await ji_woo.state(lambda s: s["me"]["fighter"] is None)
            await ji_woo.send({"type": "roll", "roll": 1, "faces": [7]})
            assert await ji_woo.line() == "Claim your fighter first."
            # Nothing a page sent changed the fight.
            assert engine.encounter.state.roll is not None

    run(test)
    assert len(served.rolls) == 1


def test_a_page_reconnects_to_the_current_fight_and_its_claim(served: Served) -> None:
    server = served.server
    engine = table_fight()
    server.publish(shot(engine))

    async def test() -> None:
        async with session() as phone:
            page = await phone.open(server)
            await page.state()
            await page.send({"type": "claim", "fighter": "ji-woo"})
            await page.state(lambda s: s["me"]["fighter"] == "ji-woo")
            device = page.device
            await page.ws.close()  # the phone's connection drops
            shoot_at_ji_woo(engine)  # the fight goes on meanwhile
            server.publish(shot(engine))
            again = await phone.open(server, device=device)
            welcome = await again.next()
            assert welcome == {"type": "welcome", "device": device}
            state = await again.state()
            assert state["me"]["fighter"] == "ji-woo" and state["me"]["roll"]["id"] == 1
            assert state["fight"]["headline"].startswith("Round")

    run(test)


def test_stop_sharing_closes_every_connection() -> None:
    running = Served()
    server = running.server
    port = server.port
    closed: list[dict[str, object]] = []
    ready = threading.Event()

    async def test() -> None:
        async with session() as phone:
            pages: list[Page] = [await phone.open(server) for _ in range(4)]
            for page in pages:
                await page.state()
            ready.set()
            for page in pages:
                assert (await page.next())["type"] == "stopped"
                closed.append(await page.next())

    def stop_when_ready() -> None:
        ready.wait(10)
        server.stop()

    stopper = threading.Thread(target=stop_when_ready)
    stopper.start()
    run(test)
    stopper.join(10)
    assert [c["type"] for c in closed] == ["closed"] * 4
    assert running.counts[-1] == 0
    with socket.socket() as probe:  # nothing listens there any more
        assert probe.connect_ex(("127.0.0.1", port)) != 0


def test_a_taken_address_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        from fightdesk.share.server import ShareError

        with pytest.raises(ShareError, match=f"cannot listen on 127.0.0.1:{port}"):
            ShareServer("127.0.0.1", port).start()


def test_typed_faces_are_checked_against_the_dice_asked_for() -> None:
    assert check_faces([3, 20], 2, 20, False) == (3, 20)
    assert check_faces(["H", "t", "H"], 3, 2, True) == (2, 1, 2)
    assert check_faces([100], 1, 100, False) == (100,)
    assert check_faces([7], 2, 20, False) == "This roll takes 2 dice; 1 typed."
    assert check_faces([21], 1, 20, False) == "21 is not on a d20 (1 to 20)."
    assert check_faces(["X"], 1, 2, True) == "Type each coin as H or T."
    assert check_faces([1.5], 1, 6, False) == "Type each face as a whole number."
    assert check_faces({}, 1, 6, False) == "Type the faces as a list."
    assert set(PCS) == {"miguel", "ji-woo", "tomasz", "dee"}


def test_no_file_campaign_or_other_fight_is_reachable(served: Served) -> None:
    root = f"http://127.0.0.1:{served.server.port}/{served.server.secret}"

    async def test() -> None:
        async with session() as phone:
            for path in ("/demo_fight.json", "/../demo_fight.json", "/%2e%2e/demo_fight.json",
                         "/page.js/../../demo_roll-under.json", "/pictures/demo_fight.json",
                         "/campaigns", "/..%2f..%2fpyproject.toml", "/static/page.js",
                         "/page.html", "/ws/../../demo_fight.json"):
                status, body = await phone.get(root + path)
                assert status in (403, 404), path
                assert body.count(b"\n") == 1 and body.startswith(b"fightdesk: "), path

    run(test)


def test_a_stuck_device_delays_neither_the_others_nor_stop_sharing(served: Served) -> None:
    """A phone that opened its socket and then stopped reading: the GM's publishes
    return, the other page gets the newest fight, and Stop Sharing ends at once."""
    import base64
    import os
    import time

    server = served.server
    engine = table_fight()
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    stuck.sendall((f"GET /{server.secret}/ws HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                   f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())

    async def test() -> None:
        async with session() as phone:
            page = await phone.open(server)
            await page.state()
            for n in range(1000):  # the stuck phone's buffers fill; nothing waits for it
                assert engine.apply(c.RenameFight(name=f"Fight {n} " + "x" * 180)).ok
                server.publish(shot(engine))
                if n % 50 == 0:
                    await asyncio.sleep(0.01)  # the server's writers get their turn
            await page.state(lambda s: s["fight"]["title"].startswith("Fight 999 "))

    try:
        run(test)
        began = time.monotonic()
        server.stop()
        stopped_in = time.monotonic() - began
    finally:
        stuck.close()
    assert stopped_in < 5, f"Stop Sharing waited {stopped_in:.1f}s for a stuck phone"
