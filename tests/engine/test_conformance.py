"""What every ruleset must do, parametrized over the registry (the built-ins and any
installed plugin, the test run's drill among them): a ruleset passes by registering,
with no test naming it (docs/rulesets/README.md#adding-a-ruleset). The window's half is
tests/ui/test_conformance_window.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from fightdesk.engine import commands as c
from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session, new_encounter
from fightdesk.engine.player_view import public_fight
from fightdesk.engine.ruleset import get_ruleset
from fightdesk.engine.rulesets import health_of, known_ids, registered
from fightdesk.report.summary import summarize
from fightdesk.storage.library import new_fighter
from fightdesk.storage.sessions import load_session, save_session

RULESETS = [rid for rid in known_ids() if get_ruleset(rid).rules.rules_built]


def fight(ruleset: str, seed: int = 5) -> Engine:
    """Two PCs against two enemies, every fighter as the ruleset makes a new one; the
    second enemy hidden from the players."""
    enc = new_encounter(ruleset, "Conformance")
    enc.dice_seed = seed
    for fid, side in (("ana", "pc"), ("bo", "pc"), ("cut", "enemy"), ("dax", "enemy")):
        fighter = new_fighter(ruleset, fid.title(), fid).model_copy(
            update={"side": side, "hidden": fid == "dax"})
        enc.fighters[fid] = fighter
        enc.order.append(fid)
    return Engine(Session.begin(enc))


def play(engine: Engine, steps: int, seed: int, policy: str) -> int:
    """Play ``steps`` commands: random picks among the legal ones, or the autopilot's."""
    rng = random.Random(seed)
    ruleset, enc = engine.ruleset, engine.encounter
    played = 0
    for _ in range(steps):
        command = None
        if policy == "random":
            options = [o for o in ruleset.autopilot.legal_commands(enc) if o.size]
            for _ in range(20):
                if not options:
                    break
                option = rng.choice(options)
                try:
                    command = option.command_at(rng.randrange(option.size))
                except (RuleViolation, ValidationError, ValueError):
                    continue
                if engine.apply(command).ok:
                    break
                command = None
        if command is None:
            command = ruleset.autopilot.next_command(enc, rng)
            if command is None or not engine.apply(command).ok:
                break
        played += 1
    return played


def test_every_ruleset_is_registered_with_its_parts() -> None:
    assert len(registered()) >= 5  # the four built-ins and the drill plugin
    for info in registered().values():
        assert info.id and info.title and info.blurb
        assert all(info.health), f"{info.id}: no health fields for the library"
        assert get_ruleset(info.id).id == info.id


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_command_the_views_and_the_autopilot_make_has_a_rule_in_the_table(
        ruleset: str) -> None:
    """One dispatch style (docs/ARCHITECTURE.md "The ruleset interface"): the rules part
    applies each ruleset command by its kind, from the table of ``Rules.handlers``."""
    engine = fight(ruleset)
    parts, enc = engine.ruleset, engine.encounter
    table = parts.rules.handlers()
    rng = random.Random(2)
    seen: set[str] = set()
    for _ in range(40):
        made = [o.command_at(0) for o in parts.autopilot.legal_commands(enc) if o.size]
        command = parts.autopilot.next_command(enc, rng)
        for one in [*made, *([command] if command is not None else [])]:
            if not one.core:
                assert one.kind in table, f"{ruleset}: no rule for {one.kind!r}"
                seen.add(one.kind)
        if command is None or not engine.apply(command).ok:
            break
    assert seen, f"{ruleset}: no ruleset command was offered"


@pytest.mark.parametrize("policy", ["random", "autopilot"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fight_plays_then_undoes_and_redoes_to_the_same_state(ruleset: str,
                                                                 policy: str) -> None:
    engine = fight(ruleset)
    start = engine.encounter.model_dump_json()
    played = play(engine, 60, seed=11, policy=policy)
    assert played >= 10, f"{ruleset}: the {policy} table stopped after {played} commands"
    end = engine.encounter.model_dump_json()
    undone = 0
    while engine.can_undo():
        assert engine.undo()
        undone += 1
    assert engine.encounter.model_dump_json() == start
    while engine.can_redo():
        assert engine.redo()
    assert undone and engine.encounter.model_dump_json() == end


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_health_change_typed_on_the_card_reaches_the_rules(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = fight(ruleset)
    play(engine, 6, seed=3, policy="autopilot")
    rules = engine.ruleset
    seen: list[tuple[str, str, object, object]] = []
    real = rules.rules.value_set

    def value_set(ctx: object, fighter_id: str, field: str, before: object,
                  after: object) -> None:
        seen.append((fighter_id, field, before, after))
        real(ctx, fighter_id, field, before, after)  # type: ignore[arg-type]

    monkeypatch.setattr(rules.rules, "value_set", value_set)
    card = rules.views.card(engine.encounter, "cut")
    assert card.health_max > 0 and card.health > 0
    outcome = engine.apply(c.SetValue(fighter_id="cut", field=card.health_field,
                                      value=card.health - 1))
    assert outcome.ok, outcome.error
    assert seen == [("cut", card.health_field, card.health, card.health - 1)]
    assert rules.views.card(engine.encounter, "cut").health == card.health - 1
    # Taken as an override, the rules are not asked.
    assert engine.apply(c.SetValue(fighter_id="cut", field=card.health_field,
                                   value=card.health - 2, override=True)).ok
    assert len(seen) == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_summary_says_who_went_down_and_counts_the_actions(ruleset: str) -> None:
    engine = fight(ruleset, seed=8)
    rules, enc = engine.ruleset, engine.encounter
    rng = random.Random(4)
    for _ in range(600):
        if any(rules.rules.is_out(f) for f in enc.fighters.values()):
            break
        command = rules.autopilot.next_command(enc, rng)
        assert command is not None and engine.apply(command).ok
    if not any(rules.rules.is_out(f) for f in enc.fighters.values()):
        # Fighters as a new sheet makes them may not hurt each other (no skills yet):
        # the GM types 0 health on a card, through the rules.
        card = rules.views.card(enc, "cut")
        assert engine.apply(c.SetValue(fighter_id="cut", field=card.health_field,
                                       value=0)).ok
    down = [f.name for f in enc.fighters.values() if rules.rules.is_out(f)]
    assert down, f"{ruleset}: nobody went down"
    summary = summarize(engine.session)
    assert set(down) <= {name for r in summary.rounds for name in r.down}
    assert sum(t.actions for r in summary.rounds for t in r.tallies) > 0


@pytest.mark.parametrize("ruleset", list(known_ids()))
def test_the_library_and_the_editor_read_the_ruleset_s_own_fields(ruleset: str) -> None:
    fighter = new_fighter(ruleset, "Kaede", "kaede")
    now, full = health_of(fighter)
    assert now is not None and full is not None and now == full > 0
    # Fully rested: the lasting values the rules give for this sheet.
    rested = get_ruleset(ruleset).rules.rested_values(fighter.sheet)
    lasting = get_ruleset(ruleset).rules.lasting_status
    assert set(rested) >= set(lasting) - {"fatal_wounds", "lethal"}
    assert rested[registered()[ruleset].health[0]] == full


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_player_view_hides_a_hidden_fighter(ruleset: str) -> None:
    engine = fight(ruleset)
    play(engine, 8, seed=2, policy="autopilot")
    shown = public_fight(engine.ruleset, engine.encounter)
    ids = {card.fighter_id for card in shown.cards}
    assert "dax" not in ids and {"ana", "bo", "cut"} <= ids
    names = " ".join(lane.title for lane in shown.timeline.lanes)
    assert "Dax" not in names and "Dax" not in shown.headline


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fight_file_reads_back_the_same(ruleset: str, tmp_path: Path) -> None:
    engine = fight(ruleset)
    play(engine, 20, seed=9, policy="random")
    path = tmp_path / "fight.json"
    save_session(engine.session, path)
    back = load_session(path)
    assert back.encounter == engine.session.encounter
    assert Engine(back).rebuild() == engine.encounter
