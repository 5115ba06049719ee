"""What a shared page may know, at the engine's level: the waiting roll only when a
visible party fighter makes it, a claimable fighter's own card with its dice, and the
log's word on who typed a player's dice (which needs faces and a real fighter)."""

from __future__ import annotations

import json
import random

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.player_view import party_dice, public_roll
from fightdesk.storage.sessions import demo_session

from .fight import HIDDEN_ID, shoot_at_ji_woo, shot, table_fight


def test_the_waiting_roll_only_when_a_visible_party_fighter_makes_it() -> None:
    engine = table_fight()
    enc = engine.encounter
    assert public_roll(engine.ruleset, enc) is None  # nothing waits
    shoot_at_ji_woo(engine)
    roll = public_roll(engine.ruleset, enc)
    assert roll is not None and roll.fighter_id == "ji-woo"
    assert (roll.number, roll.sides, roll.coins, roll.dice) == (1, 20, False, "1d20")
    assert [(o.label, o.exact, o.percent) for o in roll.odds] == [
        ("9 or less on a d20", "9/20", "45.0%")]
    # Hidden, Ji-woo's roll is nobody's business on the pages.
    assert engine.apply(c.HideFighter(fighter_id="ji-woo")).ok
    assert public_roll(engine.ruleset, enc) is None
    assert "ji-woo" not in dict(shot(engine).claimable)


def test_a_roll_shows_only_for_a_claimable_party_fighter() -> None:
    engine = table_fight()
    shoot_at_ji_woo(engine)
    snap = shot(engine, allowed=("miguel",))  # Ji-woo not claimable: on no page
    assert snap.roll is None and snap.roll_json == "null"
    snap = shot(engine)
    assert snap.roll is not None and json.loads(snap.roll_json)["fighter"] == "ji-woo"
    # Were the roller an enemy, no page would see the roll at all.
    engine.encounter.fighters["ji-woo"].side = "enemy"
    assert public_roll(engine.ruleset, engine.encounter) is None


def test_a_claimable_fighters_own_card_has_its_dice() -> None:
    engine = Engine(demo_session())
    enc = engine.encounter
    rng = random.Random(1)
    for _ in range(10):  # on to the rolled action dice
        if party_dice(engine.ruleset, enc):
            break
        command = engine.ruleset.autopilot.next_command(enc, rng)
        assert command is not None and engine.apply(command).ok
    dice = party_dice(engine.ruleset, enc)
    party = {fid for fid, f in enc.fighters.items() if f.side in ("pc", "ally")}
    assert dice and set(dice) <= party
    kaede = next(fid for fid in dice)
    own = json.loads(shot(engine, allowed=(kaede,)).own[kaede])
    assert own["dice"] == list(dice[kaede]) and own["id"] == kaede
    # Not claimable: no own card at all.
    assert shot(engine, allowed=()).own == {}


def test_the_log_names_whose_player_typed_the_dice() -> None:
    engine = table_fight()
    shoot_at_ji_woo(engine)
    roll = engine.encounter.state.roll
    assert roll is not None
    refused = engine.apply(c.MakeRoll(roll_id=roll.id, typed_by="ji-woo"))
    assert not refused.ok and refused.error == "dice typed by a player: no faces were given"
    refused = engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[5]], typed_by="nobody"))
    assert not refused.ok and "no fighter 'nobody'" in (refused.error or "")
    assert engine.encounter.state.roll is not None  # nothing changed
    made = engine.apply(c.MakeRoll(roll_id=roll.id, dice=[[5]], typed_by="ji-woo"))
    assert made.ok and made.entry is not None
    assert made.entry.command["typed_by"] == "ji-woo"
    assert "Dice typed by Ji-woo's player" in [e.text for e in made.entry.events]
    assert made.entry.summary != "Dice typed by Ji-woo's player"  # the roll heads it
    # Undo takes back the whole exchange (the shot and the roll are one step), note and all.
    assert engine.undo()
    assert not any(e.text.startswith("Dice typed by") for entry in engine.session.log
                   for e in entry.events)
    assert HIDDEN_ID in engine.encounter.fighters
