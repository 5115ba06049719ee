"""Every byte a shared page receives during a played fight with a hidden fighter: the
page, its script and style, and every message on its socket, while the autopilot plays
the roll-under demo (the hidden ambusher acting too) and Ji-woo's player types Ji-woo's
rolls. None of it names the hidden fighter, shows its health or carries a GM note."""

from __future__ import annotations

import asyncio
import json
import random

from fightdesk.engine import commands as c
from fightdesk.engine.player_view import public_fight
from fightdesk.share.server import ShareServer, TypedRoll

from .fight import HIDDEN_HEALTH, HIDDEN_ID, HIDDEN_NAME, SECRET_NOTE, shot, table_fight
from .pages import session

COMMANDS = 160


def test_no_hidden_name_health_or_note_reaches_a_page() -> None:
    engine = table_fight()
    enc = engine.encounter
    # A GM note on a visible enemy as well.
    assert engine.apply(c.SetValue(fighter_id="vault-warden", field="notes",
                                   value=SECRET_NOTE)).ok
    rolls: list[TypedRoll] = []
    # A player types far faster here than at a table: no rate limit in the way.
    server = ShareServer("127.0.0.1", 0, on_roll=rolls.append, rate=(1000, 1000.0))
    server.start()
    received: list[bytes] = []
    typed_by_player = 0
    rng = random.Random(5)

    async def play() -> None:
        nonlocal typed_by_player
        async with session(received) as phone:
            for name in ("", "page.js", "page.css"):
                status, _ = await phone.get(server.url("127.0.0.1") + name)
                assert status == 200
            page = await phone.open(server)
            server.publish(shot(engine))
            await page.state()
            await page.send({"type": "claim", "fighter": "ji-woo"})
            await page.state(lambda s: s["me"]["fighter"] == "ji-woo")
            for _ in range(COMMANDS):
                roll = enc.state.roll if hasattr(enc.state, "roll") else None
                if roll is not None and roll.roller_id == "ji-woo" and roll_ready(engine):
                    await page.send({"type": "roll", "roll": roll.id,
                                     "faces": [rng.randint(1, roll.sides)
                                               for _ in range(roll.count)]})
                    await page.line("notice")
                    typed = rolls[-1]
                    command: c.Command = c.MakeRoll(roll_id=typed.roll_id,
                                                    dice=[list(typed.faces)],
                                                    typed_by=typed.fighter_id)
                    typed_by_player += 1
                else:
                    command = engine.ruleset.autopilot.next_command(enc, rng)  # type: ignore[assignment]
                    if command is None:
                        break
                if not engine.apply(command).ok:
                    break
                published = shot(engine)
                server.publish(published)
                shown = json.loads(published.fight_json)
                await page.state(lambda s: bool(s["fight"] == shown))  # noqa: B023

    try:
        asyncio.run(asyncio.wait_for(play(), 60))
    finally:
        server.stop()

    # The fight was played, and the GM's own data held what the pages must not.
    assert typed_by_player >= 1 and enc.round >= 2
    assert any(e.text == "Dice typed by Ji-woo's player"
               for entry in engine.session.log for e in entry.events)
    gm_text = json.dumps([entry.summary for entry in engine.session.log])
    assert HIDDEN_NAME in gm_text, "the hidden fighter never acted: the test proves less"
    assert enc.fighters[HIDDEN_ID].hidden
    everything = b"".join(received)
    assert len(received) > COMMANDS // 2
    assert b"Ji-woo" in everything and public_fight(engine.ruleset, enc).cards
    health = engine.ruleset.views.card(enc, HIDDEN_ID)
    shown_health = f"{health.health}/{health.health_max}".encode()
    for secret in (HIDDEN_NAME.encode(), b"Razor", b"Quill", HIDDEN_ID.encode(),
                   SECRET_NOTE.encode(), HIDDEN_HEALTH.encode(), shown_health):
        assert secret not in everything, secret
    # Nor as JSON escapes of it (every text goes out as UTF-8, never \\u-escaped).
    assert b"\\u" not in everything.replace(b"\\u00", b"")


def roll_ready(engine: object) -> bool:
    ruleset = engine.ruleset  # type: ignore[attr-defined]
    view = ruleset.views.roll_view(engine.encounter)  # type: ignore[attr-defined]
    return view is not None and not view.blocked
