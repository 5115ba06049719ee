"""The share's web server: aiohttp on an event loop in a thread of its own.

The GM's thread never waits on it: ``publish`` and the other calls hand their work to the
loop (``call_soon_threadsafe``) and return at once. Each page gets its own writer task that
sends only the newest state, so a slow or stuck phone delays nobody else and its backlog
never grows. What a page may send back is bounded (size, rate) and checked against the
current snapshot; the only thing that leaves the server is a :class:`TypedRoll` for the
device's claimed fighter's waiting roll, given to ``on_roll`` (the window decides).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from fightdesk.resources_path import resource_path

from .snapshot import EMPTY, Snapshot

MAX_DEVICES = 12
# A page's message is a claim or a few dice: 1 KiB is plenty; past 64 KiB aiohttp itself
# closes the connection without reading it.
MAX_MESSAGE = 1024
HARD_MAX_MESSAGE = 64 * 1024
CLOSE_WAIT = 1.0
# Messages a page may send: a burst of RATE_BURST, then RATE_PER_SECOND.
RATE_BURST = 10
RATE_PER_SECOND = 2.0
PAGE_FILES = {"": ("page.html", "text/html"), "page.js": ("page.js", "text/javascript"),
              "page.css": ("page.css", "text/css")}
REFUSAL = "fightdesk: this link is not valid (ask the GM for the current one).\n"
DEVICE_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "connect-src 'self'; img-src 'self' data:; base-uri 'none'; "
                                "form-action 'none'; frame-ancestors 'none'"),
}


class ShareError(Exception):
    """The server could not start (the address is taken, not this machine's...)."""


class TypedRoll(NamedTuple):
    """Faces a player typed on their device for their claimed fighter's waiting roll."""

    roll_id: int
    fighter_id: str
    fighter: str
    faces: tuple[int, ...]


@dataclass
class _Page:
    """One connected page (a device)."""

    ws: web.WebSocketResponse
    device: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    outbox: list[str] = field(default_factory=list)
    state_due: bool = True
    tokens: float = 0.0
    stamp: float = field(default_factory=time.monotonic)


class ShareServer:
    """``start()`` binds ``host:port`` (port 0: any free one) and serves until ``stop()``.

    ``on_roll(TypedRoll)``, ``on_devices(count)`` and ``on_claims(fighter ids)`` are called
    from the server's thread:
    the window's side hands them to its own thread (a queued Qt signal)."""

    def __init__(self, host: str, port: int = 0, *, max_devices: int = MAX_DEVICES,
                 on_roll: Callable[[TypedRoll], None] | None = None,
                 on_devices: Callable[[int], None] | None = None,
                 on_claims: Callable[[frozenset[str]], None] | None = None,
                 secret: str | None = None, rate: tuple[int, float] = (RATE_BURST, RATE_PER_SECOND),
                 ) -> None:
        self.host = host
        self.port = port
        self.max_devices = max_devices
        self.burst, self.per_second = rate
        self.secret = secret or secrets.token_urlsafe(18)
        self._on_roll = on_roll or (lambda _roll: None)
        self._on_devices = on_devices or (lambda _count: None)
        self._on_claims = on_claims or (lambda _claimed: None)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._started = threading.Event()
        self._problem: str | None = None
        self._snapshot = EMPTY
        self._pages: list[_Page] = []
        self._claims: dict[str, str] = {}  # fighter id -> device token
        self._folder = Path(resource_path("share"))

    # --- the GM's thread -----------------------------------------------------------------
    def start(self) -> None:
        """Bind and serve in a new thread; :class:`ShareError` in one line if it cannot."""
        if self._thread is not None:
            raise ShareError("already sharing")
        self._thread = threading.Thread(target=self._run, name="fightdesk-share", daemon=True)
        self._thread.start()
        self._started.wait(15)
        if self._problem is not None or self._runner is None:
            self._thread.join(5)
            self._thread = None
            raise ShareError(self._problem or "the server did not start in time")

    @property
    def running(self) -> bool:
        return self._thread is not None

    def url(self, host: str | None = None) -> str:
        """The link for the players: the secret is its path."""
        where = host or self.host
        if ":" in where:
            where = f"[{where}]"
        return f"http://{where}:{self.port}/{self.secret}/"

    def publish(self, snapshot: Snapshot) -> None:
        """Show ``snapshot`` on every page (returns at once)."""
        self._call(self._publish, snapshot)

    def tell(self, fighter_id: str, text: str) -> None:
        """A line for the page that claimed ``fighter_id`` (the GM took or refused a roll)."""
        self._call(self._tell, fighter_id, text)

    def release(self, fighter_id: str) -> None:
        """The GM frees a fighter's claim: its page goes back to choosing."""
        self._call(self._release, fighter_id)

    def stop(self) -> None:
        """Close every page's connection and the listening socket, and end the thread."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        try:
            future = asyncio.run_coroutine_threadsafe(self._shutdown(), loop)
            future.result(10)
        except (RuntimeError, TimeoutError, asyncio.CancelledError):
            pass
        finally:
            if not loop.is_closed():
                loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
            self._thread = None

    def _call(self, function: Callable[..., None], *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(function, *args)
            except RuntimeError:  # the loop closed in between: nothing to show any more
                pass

    # --- the server's thread -------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._open())
        except OSError as exc:
            self._problem = f"cannot listen on {self.host}:{self.port}: {exc.strerror or exc}"
        except Exception as exc:
            self._problem = f"cannot listen on {self.host}:{self.port}: {exc}"
        self._started.set()
        if self._problem is None:
            loop.run_forever()
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()

    async def _open(self) -> None:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_MESSAGE,
                              handler_args={"max_field_size": 4096, "max_line_size": 4096})
        app.router.add_get("/{key}/", self._page)
        app.router.add_get("/{key}", self._to_folder)
        app.router.add_get("/{key}/ws", self._socket)
        app.router.add_get("/{key}/{name}", self._page)
        # Stop Sharing closes every page first; a request still open then gets a second.
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        for address in runner.addresses:
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        """Every request names the share's secret first; anything else gets one line."""
        key = request.path.split("/")[1] if request.path.count("/") >= 1 else ""
        if not hmac.compare_digest(key.encode(), self.secret.encode()):
            return _refusal(403, REFUSAL)
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as exc:
            return _refusal(exc.status, f"fightdesk: {exc.reason.lower()}.\n")
        return response

    async def _to_folder(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(f"/{self.secret}/")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "")
        if name not in PAGE_FILES:
            return _refusal(404, "fightdesk: no such page.\n")
        file, kind = PAGE_FILES[name]
        body = (self._folder / file).read_bytes()
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=HEADERS)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin and urlsplit(origin).netloc != request.host:
            return _refusal(403, "fightdesk: this page is not the share's own.\n")
        # A phone that stops answering is dropped: no answer to a ping in 20 s, or to
        # the closing handshake in CLOSE_WAIT seconds (Stop Sharing never waits longer).
        ws = web.WebSocketResponse(max_msg_size=HARD_MAX_MESSAGE, heartbeat=20,
                                   timeout=CLOSE_WAIT)
        await ws.prepare(request)
        if len(self._pages) >= self.max_devices:
            devices = f"{self.max_devices} device{'s' if self.max_devices != 1 else ''}"
            await ws.send_str(_line("refused", f"The fight is already shared with {devices}: "
                                               "ask the GM."))
            await ws.close(code=4003, message=b"too many devices")
            return ws
        asked = request.query.get("device", "")
        device = asked if DEVICE_TOKEN.match(asked) else secrets.token_urlsafe(18)
        page = _Page(ws=ws, device=device, tokens=self.burst)
        self._pages.append(page)
        self._devices_changed()
        writer = asyncio.get_running_loop().create_task(self._write(page))
        page.outbox.append(json.dumps({"type": "welcome", "device": device}))
        page.wake.set()
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    self._read(page, message.data)
                elif message.type == WSMsgType.BINARY:
                    self._say(page, "error", "Not understood: send text.")
        finally:
            self._pages.remove(page)
            writer.cancel()
            self._devices_changed()
        return ws

    async def _write(self, page: _Page) -> None:
        """Send a page its lines, then the newest state: never a backlog of old ones."""
        try:
            while not page.ws.closed:
                await page.wake.wait()
                page.wake.clear()
                lines, page.outbox = page.outbox, []
                for line in lines:
                    await page.ws.send_str(line)
                if page.state_due:
                    page.state_due = False
                    await page.ws.send_str(self._state_for(page))
        except (ConnectionError, RuntimeError):
            pass

    def _claims_changed(self) -> None:
        self._on_claims(frozenset(self._claims))
        self._all_states_due()

    def _devices_changed(self) -> None:
        self._on_devices(len(self._pages))

    def _read(self, page: _Page, data: str) -> None:
        """One message from a page: a claim, a release, or typed dice. Anything else, or
        too much, gets one line back and changes nothing."""
        now = time.monotonic()
        page.tokens = min(self.burst, page.tokens + (now - page.stamp) * self.per_second)
        page.stamp = now
        if page.tokens < 1:
            self._say(page, "error", "Too many messages: wait a moment.")
            return
        page.tokens -= 1
        if len(data) > MAX_MESSAGE:
            self._say(page, "error", "Message too long.")
            return
        try:
            message = json.loads(data)
        except ValueError:
            self._say(page, "error", "Not understood: not JSON.")
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "claim":
            self._claim(page, message.get("fighter"))
        elif kind == "release":
            self._release_device(page.device)
        elif kind == "roll":
            self._typed(page, message.get("roll"), message.get("faces"))
        else:
            self._say(page, "error", "Not understood: unknown message.")

    def _claim(self, page: _Page, fighter_id: object) -> None:
        if not isinstance(fighter_id, str) or not self._snapshot.may_claim(fighter_id):
            self._say(page, "error", "That fighter cannot be claimed.")
            return
        holder = self._claims.get(fighter_id)
        if holder is not None and holder != page.device:
            self._say(page, "error", "Another player has claimed that fighter.")
            return
        self._release_device(page.device, quiet=True)
        self._claims[fighter_id] = page.device
        self._claims_changed()

    def _release_device(self, device: str, *, quiet: bool = False) -> None:
        freed = [fid for fid, holder in self._claims.items() if holder == device]
        for fid in freed:
            del self._claims[fid]
        if freed and not quiet:
            self._claims_changed()

    def _release(self, fighter_id: str) -> None:
        device = self._claims.pop(fighter_id, None)
        if device is None:
            return
        for page in self._pages:
            if page.device == device:
                self._say(page, "notice", "The GM released your fighter: choose again.")
        self._claims_changed()

    def _typed(self, page: _Page, roll_id: object, faces: object) -> None:
        fighter_id = self._claim_of(page.device)
        roll = self._snapshot.roll
        if fighter_id is None:
            self._say(page, "error", "Claim your fighter first.")
            return
        if roll is None or roll.fighter_id != fighter_id or roll_id != roll.roll_id:
            self._say(page, "error", "No roll of yours is waiting.")
            return
        if roll.blocked:
            self._say(page, "error", f"Not yet: {roll.blocked}")
            return
        checked = check_faces(faces, roll.number, roll.sides, roll.coins)
        if isinstance(checked, str):
            self._say(page, "error", checked)
            return
        self._on_roll(TypedRoll(roll.roll_id, fighter_id, self._snapshot.name_of(fighter_id),
                                checked))
        self._say(page, "notice", "Sent: the GM resolves it.")

    def _claim_of(self, device: str) -> str | None:
        fighter = next((fid for fid, holder in self._claims.items() if holder == device), None)
        if fighter is not None and not self._snapshot.may_claim(fighter):
            return None
        return fighter

    def _publish(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot
        self._all_states_due()

    def _tell(self, fighter_id: str, text: str) -> None:
        device = self._claims.get(fighter_id)
        for page in self._pages:
            if page.device == device:
                self._say(page, "notice", text)

    def _all_states_due(self) -> None:
        for page in self._pages:
            page.state_due = True
            page.wake.set()

    def _say(self, page: _Page, kind: str, text: str) -> None:
        page.outbox.append(_line(kind, text))
        page.wake.set()

    def _state_for(self, page: _Page) -> str:
        snap = self._snapshot
        mine = self._claim_of(page.device)
        claimable = [{"id": fid, "name": name,
                      "claimed": ("you" if self._claims.get(fid) == page.device
                                  else "other" if fid in self._claims else "")}
                     for fid, name in snap.claimable]
        own = snap.own.get(mine, "null") if mine else "null"
        roll = snap.roll_json if mine and snap.roll and snap.roll.fighter_id == mine else "null"
        return (f'{{"type":"state","fight":{snap.fight_json},'
                f'"claimable":{json.dumps(claimable, ensure_ascii=False)},'
                f'"me":{{"fighter":{json.dumps(mine)},"card":{own},"roll":{roll}}}}}')

    async def _shutdown(self) -> None:
        """Every page told and closed at once (a stuck one waits CLOSE_WAIT at most)."""
        await asyncio.gather(*(self._goodbye(page) for page in list(self._pages)),
                             return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _goodbye(self, page: _Page) -> None:
        try:
            await asyncio.wait_for(
                page.ws.send_str(_line("stopped", "The GM stopped sharing the fight.")), CLOSE_WAIT)
        except (ConnectionError, RuntimeError, TimeoutError):
            pass
        await page.ws.close(code=1001, message=b"sharing stopped")


def check_faces(faces: object, count: int, sides: int, coins: bool) -> tuple[int, ...] | str:
    """The typed faces as numbers, or one line saying what is wrong with them. Coins are
    "H" and "T" (heads 2, tails 1, as the engine reads them)."""
    if not isinstance(faces, list) or len(faces) > 100:
        return "Type the faces as a list."
    out: list[int] = []
    for face in faces:
        if coins:
            if face not in ("H", "T", "h", "t"):
                return "Type each coin as H or T."
            out.append(2 if face in ("H", "h") else 1)
        elif isinstance(face, bool) or not isinstance(face, int):
            return "Type each face as a whole number."
        elif not 1 <= face <= sides:
            return f"{face} is not on a d{sides} (1 to {sides})."
        else:
            out.append(face)
    what = "coins" if coins else "dice"
    if len(out) != count:
        return f"This roll takes {count} {what}; {len(out)} typed."
    return tuple(out)


def _line(kind: str, text: str) -> str:
    return json.dumps({"type": kind, "text": text}, ensure_ascii=False)


def _refusal(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text, headers=HEADERS)
