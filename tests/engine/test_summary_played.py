"""The round summary's Down, Order of action and action tallies, read off the fight in the
core for every ruleset (docs/summaries.md#who-went-down-and-what-each-did): a demo fight of
each ruleset played by its autopilot until someone is out, then `fightdesk summary --all`."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from fightdesk import cli
from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.report.summary import summarize
from fightdesk.storage.sessions import load_session, save_session

RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def played_until_someone_is_out(demo: str, seed: int = 1) -> Engine:
    """The demo played by the autopilot to the end of the round in which someone went
    out of the fight (the round's end reached by the autopilot's own End Round)."""
    engine = Engine(load_session(RESOURCES / demo))
    ruleset, rng = engine.ruleset, random.Random(seed)
    went_out_in: int | None = None
    for _ in range(3000):
        enc = engine.encounter
        if went_out_in is None and any(ruleset.rules.is_out(f) for f in enc.fighters.values()):
            went_out_in = enc.round
        if went_out_in is not None and enc.round > went_out_in:
            return engine
        command = ruleset.autopilot.next_command(enc, rng)
        assert command is not None
        out = engine.apply(command)
        assert out.ok, out.error
    raise AssertionError("nobody went out of the fight")


def totals(markdown: str) -> dict[str, dict[str, str]]:
    """The Totals table: fighter -> its cells."""
    part = markdown.split("## Totals", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in part.splitlines()
            if line.startswith("|") and not set(line) <= set("|-: ")]
    head = [cell.strip() for cell in rows[0].strip("|").split("|")]
    table: dict[str, dict[str, str]] = {}
    for line in rows[1:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        table[cells[0]] = dict(zip(head, cells, strict=False))
    return table


@pytest.mark.parametrize("demo", ["demo_fight.json", "demo_d100.json", "demo_roll-under.json",
                                  "demo_ashes.json"])
def test_the_summary_names_who_went_down_and_counts_everyones_actions(
        demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = played_until_someone_is_out(demo)
    enc, ruleset = engine.encounter, engine.ruleset
    out_now = {f.name for f in enc.fighters.values() if ruleset.rules.is_out(f)}
    assert out_now
    path = tmp_path / "fight.json"
    save_session(engine.session, path)
    assert cli.main(["summary", str(path), "--all"]) == 0
    markdown = capsys.readouterr().out
    named: set[str] = set()
    for line in re.findall(r"^\*\*Down:\*\* (.*)$", markdown, flags=re.MULTILINE):
        if line != "nobody":
            named.update(name.strip() for name in line.split(","))
    assert named == out_now
    table = totals(markdown)
    for fighter in enc.fighters.values():
        row = table[fighter.name]
        assert (row["Down"] == "**down**") == (fighter.name in out_now)
        if not ruleset.rules.is_out(fighter):  # standing through the fight: acted on its turns
            assert int(row["Actions"]) >= 1, (fighter.name, row)
    # Every action of the log is one: the act and interrupt lines, fighter by fighter.
    acts: dict[str, int] = {}
    for entry in engine.session.log:
        for event in entry.events:
            if event.kind in ("act", "interrupt") and event.fighter_id:
                name = enc.fighters[event.fighter_id].name
                acts[name] = acts.get(name, 0) + 1
    assert {name: int(row["Actions"]) for name, row in table.items()} == \
        {name: acts.get(name, 0) for name in table}
    assert "nobody acted" not in markdown.split("## Round 1", 1)[1].split("\n## ", 1)[0]


def test_a_renamed_fight_is_summarised_under_its_new_name() -> None:
    engine = played_until_someone_is_out("demo_roll-under.json")
    assert engine.apply(c.RenameFight(name="Rooftop standoff")).ok
    assert summarize(engine.session).title == "Rooftop standoff"
