"""Street-fighter fights played through and compared with their golden files
(tests/golden.py): the demo as it ships, the demo with the options turned and special
maneuvers learned, the campaign's fighters, and the previews the action dialog shows."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from fightdesk.engine import commands as c
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Session
from fightdesk.engine.ruleset import ActionForm, Preview, get_ruleset
from fightdesk.engine.rulesets.street_fighter import commands as sf
from fightdesk.engine.rulesets.street_fighter import demo
from tests.golden import RESOURCES, check_golden, play_to_text

CAMPAIGN = RESOURCES / "campaigns" / "Harbour Nights.json"


def _ok(engine: Engine, command: c.Command) -> None:
    outcome = engine.apply(command)
    assert outcome.ok, outcome.error


def turned_options(engine: Engine) -> None:
    """The demo with every option away from its default and the round-long specials
    learned, so the rules behind the options and those maneuvers are played too; two
    dock thugs leave, to keep the file short."""
    for fid in ("dock-thug-2", "dock-thug-3"):
        _ok(engine, c.RemoveFighter(fighter_id=fid))
    for option, value in (("ones_cancel_on_damage", True), ("ones_cancel_on_other_rolls", False),
                          ("ones_cancel_on_recovery", True), ("arena_tn", 6),
                          ("break_free_opposed_strength", False),
                          ("hold_counts_first_action", True), ("seconds_per_round", 20)):
        _ok(engine, c.SetOption(option=option, value=value))
    for fid, names in (("kaede", ("Teleport", "Yoga Flame", "Zen No-Mind", "Punch Defense")),
                       ("brannock", ("Ghostform", "Fire Strike", "Shrouded Moon", "Grab"))):
        for catalogue_name in names:
            _ok(engine, sf.SetManeuver(fighter_id=fid, catalogue=catalogue_name))


def campaign_fighters(engine: Engine) -> None:
    """The fighters of the bundled campaign instead of the demo's: an ally with Chi to
    spend and Zen No-Mind, against a shouting enemy and two syndicate weenies."""
    for fid in list(engine.encounter.order):
        _ok(engine, c.RemoveFighter(fighter_id=fid))
    fighters = {f["id"]: f for f in json.loads(CAMPAIGN.read_text(encoding="utf-8"))["fighters"]}
    for fid, count in (("teodora-vrana", 1), ("hachiro-tsuda", 1), ("syndicate-bruiser", 2)):
        _ok(engine, c.AddFighters(fighter=fighters[fid], count=count))


def _session(data: dict[str, Any]) -> dict[str, Any]:
    return Session.model_validate(data).model_dump(mode="json")


def test_the_bundled_demo_is_the_one_demo_py_builds(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The fight the golden files play is the one ``demo.py`` writes from the catalogue, so
    a changed sheet, maneuver or name in it shows here (its file may lack fields added
    since with their defaults); ``main`` writes where it is told, and says where."""
    shipped = json.loads((RESOURCES / "demo_fight.json").read_text(encoding="utf-8"))
    assert demo.DEMO_PATH == RESOURCES / "demo_fight.json"
    assert _session(demo.demo_session()) == _session(shipped)
    written = demo.write_demo(tmp_path / "a.json")
    assert written == tmp_path / "a.json"
    assert written.read_text(encoding="utf-8") == json.dumps(
        demo.demo_session(), indent=1, ensure_ascii=False) + "\n"
    assert demo.main([str(tmp_path / "b.json")]) == 0
    monkeypatch.setattr("sys.argv", ["demo", str(tmp_path / "c.json")])
    assert demo.main() == 0
    monkeypatch.setattr(demo, "DEMO_PATH", tmp_path / "d.json")
    monkeypatch.setattr("sys.argv", ["demo"])
    assert demo.main() == 0
    assert capsys.readouterr().out.splitlines() == [f"wrote {tmp_path / name}.json"
                                                    for name in "bcd"]
    for name in "bcd":
        assert _session(json.loads((tmp_path / f"{name}.json").read_text("utf-8"))) == \
            _session(shipped)


def event_data_text(engine: Engine) -> str:
    """What each log line carries besides its words (amounts, pools, condition names, the
    reason given): the round summaries count from it and the saved log keeps it."""
    lines = []
    for entry in engine.session.log:
        for event in entry.events:
            if event.data:
                data = ", ".join(f"{key}={value!r}" for key, value in sorted(event.data.items()))
                lines.append(f"{entry.seq} [{event.kind} {event.fighter_id}] {data}")
    return "\n".join(lines) + "\n"


def play(request: pytest.FixtureRequest, name: str, *, prepare: Any = None,
         **how: Any) -> None:
    """Play the demo (tests/golden.py play_to_text) and compare it with ``golden/<name>.txt``,
    and the data of its log lines with ``golden/<name>-data.txt``."""
    kept: list[Engine] = []

    def keep(engine: Engine) -> None:
        kept.append(engine)
        if prepare is not None:
            prepare(engine)

    text = play_to_text("demo_fight.json", prepare=keep, **how)
    check_golden(request, name, text)
    check_golden(request, f"{name}-data", event_data_text(kept[0]))


@pytest.mark.parametrize(("policy", "seed"), [("autopilot", 3), ("random", 11)])
def test_the_demo_fight_reads_the_same(request: pytest.FixtureRequest, policy: str,
                                       seed: int) -> None:
    """Every log line, card, form and view of a seeded demo fight, against the committed
    copy: a changed rule, word or view shows as a diff."""
    play(request, f"demo-{policy}-{seed}", policy=policy, seed=seed, steps=60, undo_every=7)


def test_the_demo_with_turned_options_reads_the_same(request: pytest.FixtureRequest) -> None:
    """The options away from their defaults and the round-long specials, played at random:
    what the GM reads when a table plays by other choices."""
    play(request, "options-random-9", prepare=turned_options, policy="random", seed=9,
         steps=40)


def test_the_campaign_fighters_read_the_same(request: pytest.FixtureRequest) -> None:
    """The campaign's fighters (Chi, Zen No-Mind, a shout, Flame Fist, Fire Strike, weenies)
    played at random."""
    play(request, "campaign-random-3", prepare=campaign_fighters, policy="random", seed=3,
         steps=50)


# --- previews ---------------------------------------------------------------------------------


def _preview_text(shown: Preview) -> list[str]:
    lines = [f"    | {line}" for line in shown.lines]
    lines += [f"    {odds.label}: {odds.chance} ({odds.rounded})" for odds in shown.odds]
    if shown.error is not None:
        lines.append(f"    refused: {shown.error}")
    return lines


def _values(form: ActionForm, rng: random.Random | None) -> dict[str, Any]:
    """A form's defaults, or (with ``rng``) a seeded pick for every field."""
    values: dict[str, Any] = {}
    for field in form.fields:
        if rng is None:
            values[field.name] = field.default
        elif field.kind == "choice" and field.choices:
            values[field.name] = rng.choice(field.choices)[0]
        elif field.kind == "number":
            values[field.name] = rng.randint(field.minimum, max(field.minimum, field.maximum))
        elif field.kind == "flag":
            values[field.name] = rng.random() < 0.5
        else:
            values[field.name] = field.default
    return values


def previews_to_text(prepare: Any, seed: int, steps: int) -> str:
    """Play the demo with the autopilot and, after every step, write the preview of every
    enabled action form of every fighter (with its defaults, then with seeded picks), each
    only when it changed: the speeds, pools, costs and exact odds the dialog shows."""
    session = Session.model_validate_json((RESOURCES / "demo_fight.json").read_text("utf-8"))
    session.encounter.dice_seed = seed
    engine = Engine(session)
    if prepare is not None:
        prepare(engine)
    ruleset = get_ruleset(engine.encounter.ruleset)
    rng = random.Random(seed)
    shown: dict[str, list[str]] = {}
    lines = [f"# previews, seed {seed}"]
    for step in range(1, steps + 1):
        command = ruleset.autopilot.next_command(engine.encounter, rng)
        if command is None:
            break
        _ok(engine, command)
        lines.append(f"-- step {step}: {engine.session.log[-1].summary}")
        enc = engine.encounter
        for fid in enc.order:
            for form in ruleset.views.action_forms(enc, fid):
                if not form.enabled or form.role == "gm":
                    continue
                for label, picks in (("defaults", None), ("picked", rng)):
                    values = _values(form, picks)
                    key = f"{fid} {form.id} {label}"
                    text = [f"  {values!r}", *_preview_text(ruleset.views.preview(enc, form.id, fid,
                                                                            values))]
                    if shown.get(key) != text:
                        lines.append(f"== {key}")
                        lines.extend(text)
                        shown[key] = text
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "prepare", "seed"), [("demo", None, 6),
                                                      ("options", turned_options, 4)],
                         ids=["demo", "options"])
def test_the_previews_read_the_same(request: pytest.FixtureRequest, name: str, prepare: Any,
                                    seed: int) -> None:
    """What the action dialog shows before each roll (speed, pool after soak, cost, exact
    odds, why a move is refused), for every form along a fight."""
    check_golden(request, f"previews-{name}-{seed}", previews_to_text(prepare, seed, 80))
