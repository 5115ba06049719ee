"""Golden files: a whole played fight written out as text and compared with a committed copy.

Why: the scenario tests pin the rules one by one; a golden fight pins everything the GM
reads at once (every log line, every card, the timeline, the stack, the forms and answers
on offer), so a changed word or a view that drifts fails a test. The file is made by the
program, never typed: after a change that is meant to alter what the GM reads, run
``pytest --update-golden`` on the test and read the diff before committing it
(docs/testing.md "Golden fights").
"""

from __future__ import annotations

import dataclasses
import difflib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from fightdesk.engine.commands import Command
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Session
from fightdesk.engine.ruleset import LegalOption, Ruleset, get_ruleset

RESOURCES = Path(__file__).resolve().parent.parent / "resources"
UPDATE_OPTION = "--update-golden"


def _is_leaf(value: Any) -> bool:
    if isinstance(value, (tuple, list)):
        return all(_is_leaf(item) and not isinstance(item, (tuple, list)) for item in value)
    return not (dataclasses.is_dataclass(value) or isinstance(value, (dict, BaseModel)))


def _fields(value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, BaseModel):
        return [(name, getattr(value, name)) for name in type(value).model_fields]
    if dataclasses.is_dataclass(value):
        return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return list(zip(value._fields, value, strict=True))
    return sorted((str(key), item) for key, item in value.items())


def _shown(value: Any, indent: str = "") -> list[str]:
    """A view as lines: one line per plain field, nested views indented under their name,
    so a changed field shows as a one-line diff."""
    if _is_leaf(value) and not (isinstance(value, tuple) and hasattr(value, "_fields")):
        return [f"{indent}{value!r}"]
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        lines: list[str] = []
        for item in value:
            shown = _shown(item, indent + "  ")
            lines.append(f"{indent}- {shown[0].lstrip()}")
            lines.extend(shown[1:])
        return lines or [f"{indent}()"]
    lines = [f"{indent}{type(value).__name__}"] if not isinstance(value, dict) else []
    for name, item in _fields(value):
        if _is_leaf(item) and not (isinstance(item, tuple) and hasattr(item, "_fields")):
            lines.append(f"{indent}  {name}={item!r}")
        else:
            lines.append(f"{indent}  {name}:")
            lines.extend(_shown(item, indent + "    "))
    return lines


def _form_lines(forms: Any) -> list[str]:
    """The forms on a card, one line per form and per field (a field's choices by key and
    label), so a change shows as a short diff."""
    lines: list[str] = []
    for form in forms:
        state = "enabled" if form.enabled else f"disabled: {form.reason}"
        # Only a form that rolls nothing, or whose roll waits on the roll panel, says so:
        # the dialog offers it no dice.
        dice = (", no dice" if not form.rolls
                else ", dice on the roll panel" if form.roll_waits else "")
        lines.append(f"{form.id} '{form.title}' [{form.role}, {form.verb!r}{dice}, "
                     f"key {form.shortcut!r}, {state}]")
        for f in form.fields:
            choices = ", ".join(f"{key}={label!r}" for key, label in f.choices)
            lines.append(f"    {f.name} '{f.label}' {f.kind} default {f.default!r} "
                         f"{f.minimum}..{f.maximum} [{choices}] {f.tooltip!r}")
    return lines


def views_text(enc: Encounter, ruleset: Ruleset | None = None,
               more: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Every view the window draws from the fight, as lines of text, by name (``more``:
    other views to write before the cards, such as the player view)."""
    ruleset = ruleset or get_ruleset(enc.ruleset)
    views: dict[str, list[str]] = {
        "where": [ruleset.views.where(enc)],
        "pending": _shown(ruleset.rules.pending(enc)),
        "timeline": _shown(ruleset.views.timeline(enc)),
        "stack": _shown(ruleset.views.stack(enc)),
        "controls": _shown(ruleset.views.round_controls(enc)),
        "roll": _shown(ruleset.views.roll_view(enc)),
        "state": ruleset.views.describe_state(enc).splitlines(),
        **(more or {}),
    }
    for fid, card in ruleset.views.cards(enc):
        views[f"card {fid}"] = _shown(card)
        views[f"forms {fid}"] = _form_lines(ruleset.views.action_forms(enc, fid))
    return views


def _changes(name: str, old: list[str] | None, new: list[str]) -> list[str]:
    """A view that changed: the whole view the first time, then only its changed lines."""
    if old is None:
        return [f"== {name}", *new]
    diff = difflib.unified_diff(old, new, lineterm="", n=0)
    return [f"== {name}", *(line for line in diff
                            if not line.startswith(("---", "+++")))]


def _same_views(expected: dict[str, list[str]], found: dict[str, list[str]],
                what: str) -> None:
    """Fail the test (not the golden file) when an undo or a redo leaves a view changed."""
    for name in sorted(expected.keys() | found.keys()):
        if expected.get(name) != found.get(name):
            diff = _changes(name, expected.get(name), found.get(name, []))
            raise AssertionError(f"{what} left the view {name!r} changed:\n"
                                 + "\n".join(diff[:40]))


def _option_text(option: LegalOption) -> str:
    spaces = "; ".join(f"{name}={list(values)!r}" for name, values in option.spaces)
    return f"{option.form_id} by {option.fighter_id}: {spaces}"


def next_command(engine: Engine, ruleset: Ruleset, rng: random.Random, policy: str,
                 step: int, lines: list[str], *,
                 idle: str = "the autopilot has nothing to do") -> Command | None:
    """Apply the next command of a golden fight and return it (None: the fight stops).

    "random" tries up to 20 picks among every legal command, writing down the options and
    every refusal; then, or with "autopilot", the ruleset's autopilot plays."""
    if policy == "random":
        options = ruleset.autopilot.legal_commands(engine.encounter)
        lines.append(f"-- step {step}: {len(options)} options")
        lines.extend(f"   {_option_text(o)}" for o in options)
        for _ in range(20):
            if not options:
                break
            option = options[rng.randrange(len(options))]
            try:
                candidate = option.command_at(rng.randrange(option.size))
            except ValueError as refused:
                lines.append(f"   refused form: {refused}")
                continue
            outcome = engine.apply(candidate)
            if outcome.ok:
                return candidate
            lines.append(f"   refused {candidate!r}: {outcome.error}")
    command = ruleset.autopilot.next_command(engine.encounter, rng)
    if command is None:
        lines.append(f"-- step {step}: {idle}")
        return None
    outcome = engine.apply(command)
    if not outcome.ok:
        lines.append(f"-- step {step}: {command!r} refused: {outcome.error}")
        return None
    return command


def step_lines(engine: Engine, step: int, command: object, *, data: bool = False) -> list[str]:
    """A step as the golden file writes it: where it happened, the command, and each event
    of its log entry (with the event's data when ``data``)."""
    entry = engine.session.log[-1]
    lines = [f"-- step {step}: round {entry.round}, {entry.where}: {entry.summary}",
             f"   {command!r}"]
    for event in entry.events:
        roll = f" {event.roll!r}" if event.roll is not None else ""
        shown = f" {dict(sorted(event.data.items()))!r}" if data and event.data else ""
        lines.append(f"   [{event.kind} {event.fighter_id}] {event.text}{roll}{shown}")
    return lines


def play_to_text(demo: str, *, policy: str = "autopilot", seed: int = 0, steps: int = 80,
                 prepare: Callable[[Engine], None] | None = None,
                 undo_every: int = 0) -> str:
    """Play the demo fight ``demo`` (a file in resources/) on the full engine, and write down
    after every command what changed in what the GM reads.

    ``policy`` "autopilot" plays as the simulator's sensible table; "random" picks among
    every legal command with a seeded generator (its options are written down too, so the
    forms' fields and bounds are pinned). ``undo_every`` > 0 undoes and redoes every n-th
    step: the undo must give back every view as it was before that undo step began, and
    the redo every view as it was after the command (else the test fails).
    """
    session = Session.model_validate_json((RESOURCES / demo).read_text(encoding="utf-8"))
    session.encounter.dice_seed = seed
    engine = Engine(session)
    if prepare is not None:
        prepare(engine)
    enc = engine.encounter
    ruleset = get_ruleset(enc.ruleset)
    rng = random.Random(seed)
    lines: list[str] = [f"# {demo}, {policy}, seed {seed}"]
    before = views_text(enc)
    for name, text in before.items():
        lines.extend(_changes(name, None, text))
    step_start: dict[int, dict[str, list[str]]] = {}
    for step in range(1, steps + 1):
        command = next_command(engine, ruleset, rng, policy, step, lines)
        if command is None:
            break
        entry = engine.session.log[-1]
        lines.extend(step_lines(engine, step, command))
        after = views_text(engine.encounter)
        # An undo takes back a whole step (an interrupt with all its answers), so it
        # must give back the views from before the step's first command.
        step_start.setdefault(entry.step, before)
        if undo_every and step % undo_every == 0:
            engine.undo()
            _same_views(step_start[entry.step], views_text(engine.encounter),
                        f"step {step}: undo of {entry.summary!r}")
            engine.redo()
            _same_views(after, views_text(engine.encounter),
                        f"step {step}: redo of {entry.summary!r}")
        for name, text in after.items():
            if before.get(name) != text:
                lines.extend(_changes(name, before.get(name), text))
        for name in before.keys() - after.keys():
            lines.append(f"== {name} gone")
        before = after
    return "\n".join(lines) + "\n"


def check_golden(request: pytest.FixtureRequest, name: str, text: str) -> None:
    """Compare ``text`` with ``golden/<name>.txt`` beside the test file; with
    ``--update-golden`` write it instead."""
    path = Path(str(request.path)).parent / "golden" / f"{name}.txt"
    if request.config.getoption(UPDATE_OPTION):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no golden file {path}: run pytest {UPDATE_OPTION} once and read it")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = list(difflib.unified_diff(expected.splitlines(), text.splitlines(),
                                         "committed", "played now", lineterm="", n=2))
        shown = "\n".join(diff[:80])
        more = f"\n... {len(diff) - 80} more diff lines" if len(diff) > 80 else ""
        pytest.fail(f"{path.name} differs from the fight played now "
                    f"({UPDATE_OPTION} rewrites it if the change is meant):\n{shown}{more}")
