"""A stand-in phone for the server tests: an aiohttp client that keeps every byte it gets."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from fightdesk.share.server import ShareServer

WAIT = 5.0


class Page:
    """One connected page: its socket, and every message and byte it received."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, received: list[bytes]) -> None:
        self.ws = ws
        self.received = received
        self.messages: list[dict[str, Any]] = []
        self.device = ""

    async def next(self, timeout: float = WAIT) -> dict[str, Any]:
        message = await self.ws.receive(timeout)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                            aiohttp.WSMsgType.CLOSING):
            return {"type": "closed", "code": self.ws.close_code}
        assert message.type == aiohttp.WSMsgType.TEXT, message
        self.received.append(message.data.encode())
        data = json.loads(message.data)
        self.messages.append(data)
        if data.get("type") == "welcome":
            self.device = data["device"]
        return data

    async def until(self, wanted: Callable[[dict[str, Any]], bool],
                    timeout: float = WAIT) -> dict[str, Any]:
        """The first message ``wanted`` accepts (others are kept, and skipped)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"not received in {timeout}s; last: {self.messages[-3:]}")
            try:
                data = await self.next(left)
            except TimeoutError:
                raise AssertionError(f"not received in {timeout}s; last: "
                                     f"{[(m['type'], m.get('text'), m.get('me', {}).get('roll')) for m in self.messages[-4:]]}") from None
            if wanted(data):
                return data
            if data["type"] == "closed":
                raise AssertionError(f"closed while waiting: {self.messages[-3:]}")

    async def state(self, wanted: Callable[[dict[str, Any]], bool] = lambda s: True,
                    ) -> dict[str, Any]:
        return await self.until(lambda d: d["type"] == "state" and wanted(d))

    async def now(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The page's latest state if ``wanted`` accepts it, else the next one it accepts."""
        states = [m for m in self.messages if m["type"] == "state"]
        if states and wanted(states[-1]):
            return states[-1]
        return await self.state(wanted)

    async def line(self, kind: str = "error") -> str:
        data = await self.until(lambda d: d["type"] == kind)
        return str(data["text"])

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))


@asynccontextmanager
async def session(received: list[bytes] | None = None) -> AsyncIterator[Phone]:
    async with aiohttp.ClientSession() as client:
        yield Phone(client, [] if received is None else received)


class Phone:
    """A browser's worth of requests: pages, files and sockets, every byte kept."""

    def __init__(self, client: aiohttp.ClientSession, received: list[bytes]) -> None:
        self.client = client
        self.received = received

    async def get(self, url: str) -> tuple[int, bytes]:
        async with self.client.get(url, allow_redirects=False) as response:
            body = await response.read()
            self.received.append(body)
            return response.status, body

    async def open(self, server: ShareServer, device: str = "", secret: str | None = None,
                   ) -> Page:
        url = f"http://127.0.0.1:{server.port}/{secret or server.secret}/ws"
        ws = await self.client.ws_connect(url, params={"device": device} if device else None)
        page = Page(ws, self.received)
        return page


class PhoneInThread:
    """A page driven from a Qt test: its own event loop in a thread, so the GM's window
    goes on processing events while the page waits; every call returns the result."""

    def __init__(self) -> None:
        import threading

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client: aiohttp.ClientSession | None = None
        self.received: list[bytes] = []

    def call(self, coroutine: Any, timeout: float = 10) -> Any:
        """The coroutine's result; meanwhile the GM's window goes on handling its events
        (the share hands the fight to the server after the window has painted)."""
        import time

        from PySide6.QtWidgets import QApplication

        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        end = time.monotonic() + timeout
        while not future.done() and time.monotonic() < end:
            if QApplication.instance() is not None:
                QApplication.processEvents()
            time.sleep(0.002)
        return future.result(0)

    def open(self, server: ShareServer) -> Page:
        async def opened() -> Page:
            if self.client is None:
                self.client = aiohttp.ClientSession()
            return await Phone(self.client, self.received).open(server)

        return self.call(opened())

    def close(self) -> None:
        async def closed() -> None:
            if self.client is not None:
                await self.client.close()

        self.call(closed())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()
