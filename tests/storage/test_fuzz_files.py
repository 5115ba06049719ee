"""Fuzzed sessions and campaigns: whatever is done to a file, loading it gives a sound
fight or one short FileProblem, and never changes the file.

Each example takes a played session (an interrupt stack open, a log, a redo list) or the
sample campaign and damages it one to three times: byte flips, cuts, a byte-order mark,
bytes that are not UTF-8, a value retyped (huge numbers, deep nesting, strings, null...),
a field removed, a list item duplicated, a recorded change of the log bent out of shape.
A file that loads must then work: every ruleset view draws, every step undoes and redoes
(the proof at load time promises it), and the fight after redoing all equals the loaded
one. A few hundred examples run in CI; ``--stress`` runs 10,000 of each and prints the
tally (docs/benchmarks.md, "Long runs of the tests").
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightdesk.engine.engine import Engine
from fightdesk.storage.files import FileProblem
from fightdesk.storage.library import Campaign, Library
from fightdesk.storage.sessions import load_session

from .damaged import campaign_text, stacked_data

CI_EXAMPLES = 250
STRESS_EXAMPLES = 10_000
MESSAGE_LIMIT = 300  # about three lines, besides the file's own path

SESSION = json.dumps(stacked_data(), indent=1).encode()
CAMPAIGN = campaign_text().encode()

# --- damage -------------------------------------------------------------------------------

Damage = Callable[[bytes], bytes]

huge_numbers = st.sampled_from([10**40, -(10**40), 2**63, 10**4000, 1e308, -1, 0, 99999])
odd_values: st.SearchStrategy[Any] = st.one_of(
    huge_numbers,
    st.sampled_from([None, True, False, "", "<b>x</b>", "\N{GRINNING FACE}" * 300, [], {},
                     "ghost", 3.5]),
    st.integers(-5, 40),
    st.text(max_size=12),
    st.just("DEEP"),
)


def _paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(_paths(value, (*here, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_paths(value, (*here, index)))
    return found


def _json_damage(data: st.DataObject, raw: bytes, focus: str | None) -> bytes:
    """Retype, remove or duplicate one value of the JSON (in the log's changes, if
    ``focus`` says so: files that pass the field checks but break the fight)."""
    try:
        tree = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return raw
    paths = [p for p in _paths(tree) if p and (focus is None or focus in map(str, p))]
    if not paths:
        return raw
    path = data.draw(st.sampled_from(paths))
    parent = tree
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    how = data.draw(st.sampled_from(["retype", "remove", "duplicate"]))
    if how == "retype":
        value = data.draw(odd_values)
        if value == "DEEP":
            text = json.dumps(tree)
            value = None  # the deep nesting is spliced into the text below
            parent[key] = "@@DEEP@@"
            depth = data.draw(st.sampled_from([50, 5_000, 100_000]))
            return text.replace('"@@DEEP@@"', "[" * depth + "]" * depth).encode()
        parent[key] = value
    elif how == "remove":
        del parent[key]
    elif isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[f"{key}_copy"] = parent[key]
    return json.dumps(tree, indent=1).encode()


def damage(data: st.DataObject, raw: bytes, log_focus: bool) -> bytes:
    kind = data.draw(st.sampled_from(
        ["flip", "cut", "bom", "not-utf8", "json", "json", "json", "log"]))
    if kind == "flip" and raw:
        at = data.draw(st.integers(0, len(raw) - 1))
        return raw[:at] + bytes([data.draw(st.integers(0, 255))]) + raw[at + 1:]
    if kind == "cut":
        return raw[: data.draw(st.integers(0, len(raw)))]
    if kind == "bom":
        return b"\xef\xbb\xbf" + raw
    if kind == "not-utf8":
        at = data.draw(st.integers(0, len(raw)))
        return raw[:at] + data.draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80"])) + raw[at:]
    focus = "changes" if kind == "log" and log_focus else None
    return _json_damage(data, raw, focus)


# --- the checks ------------------------------------------------------------------------------


def _short_and_one_line(problem: FileProblem, path: Path) -> None:
    message = str(problem)
    assert "\n" not in message and str(path) in message, message
    assert len(message) - len(str(path)) <= MESSAGE_LIMIT, message


def _works(engine: Engine) -> None:
    """A fight that loaded draws, undoes to its start and redoes to where it was."""
    ruleset, enc = engine.ruleset, engine.encounter
    ruleset.views.cards(enc)
    ruleset.views.timeline(enc)
    ruleset.views.stack(enc)
    ruleset.views.round_controls(enc)
    ruleset.views.describe_state(enc)
    engine.pending()
    live = engine.encounter.model_dump(mode="json")
    steps = 0
    while engine.undo():
        steps += 1
    assert engine.encounter == engine.session.start
    for _ in range(steps):
        assert engine.redo()
    assert engine.encounter.model_dump(mode="json") == live
    while engine.redo():  # and the steps the file had undone
        pass


def _run(stress: bool, kind: str, body: Callable[[st.DataObject], str]) -> Counter[str]:
    tally: Counter[str] = Counter()

    @settings(max_examples=STRESS_EXAMPLES if stress else CI_EXAMPLES, deadline=None,
              suppress_health_check=list(HealthCheck), database=None)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        tally[body(data)] += 1

    started = time.perf_counter()
    check()
    seconds = time.perf_counter() - started
    print(f"fuzz {kind}: {sum(tally.values())} examples in {seconds:.1f} s: "
          f"{dict(tally.most_common())}")
    return tally


def test_fuzzed_sessions_load_soundly_or_give_one_short_problem(stress: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="fightdesk-fuzz-") as folder:
        path = Path(folder) / "fight.json"

        def body(data: st.DataObject) -> str:
            raw = SESSION
            for _ in range(data.draw(st.integers(1, 3))):
                raw = damage(data, raw, log_focus=True)
            path.write_bytes(raw)
            try:
                session = load_session(path)
            except FileProblem as problem:
                assert path.read_bytes() == raw
                _short_and_one_line(problem, path)
                return type(problem).__name__
            assert path.read_bytes() == raw
            _works(Engine(session))
            return "loaded"

        tally = _run(stress, "sessions", body)
    assert tally["loaded"] and tally["FileProblem"] and tally["HistoryProblem"]


def test_fuzzed_campaigns_load_soundly_or_give_one_short_problem(stress: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="fightdesk-fuzz-") as folder:
        library = Library(Path(folder))
        library.create("Target")
        target = library.open("Target")
        path = Path(folder) / "Fuzzed.json"

        def body(data: st.DataObject) -> str:
            raw = CAMPAIGN
            for _ in range(data.draw(st.integers(1, 3))):
                raw = damage(data, raw, log_focus=False)
            path.write_bytes(raw)
            outcome = []
            for load in (lambda: Campaign.load(path), lambda: target.import_file(path)):
                try:
                    load()
                    outcome.append("ok")
                except FileProblem as problem:
                    _short_and_one_line(problem, path)
                    outcome.append("refused")
                assert path.read_bytes() == raw
            while target.undo():  # imports leave the target as it was for the next one
                pass
            return "/".join(outcome)

        tally = _run(stress, "campaigns", body)
    assert tally["ok/ok"] and tally["refused/refused"]


@pytest.mark.parametrize("raw", [b"", b"\xef\xbb\xbf", b"{}", b"[]", b"null", b"\x00" * 10])
def test_tiny_files(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "tiny.json"
    path.write_bytes(raw)
    with pytest.raises(FileProblem) as caught:
        load_session(path)
    _short_and_one_line(caught.value, path)
    with pytest.raises(FileProblem) as caught:
        Campaign.load(path)
    _short_and_one_line(caught.value, path)
