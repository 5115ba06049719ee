"""Fuzzed pictures and settings files, read as a start-up reads them.

A picture (the last fight's ``picture.json``, or the bundled demo's) is tampered with:
numbers anywhere set to huge, negative or odd values, chips added on any column, texts
replaced. Whatever the start-up's reader accepts must paint offscreen without a crash;
what it refuses is never painted. A settings file (``window.ini``) gets random keys and
values (``inf``, ``nan``, ``1e400``, Qt's ``@Variant``/``@ByteArray`` forms, text): the
size limit and the recent files come out in range, a bad value says so in one line.
A couple of hundred examples run in CI; ``--stress`` runs 5,000 of each.
"""

from __future__ import annotations

import copy
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
from pytestqt.qtbot import QtBot

from fightdesk.resources_path import DEMO_PICTURE, resource_path
from fightdesk.storage import files
from fightdesk.storage import picture as pictures
from fightdesk.ui import settings as window_settings

CI_EXAMPLES = 300
STRESS_EXAMPLES = 5_000

DEMO = json.loads(resource_path(*DEMO_PICTURE).read_text(encoding="utf-8"))["picture"]

odd_numbers = st.one_of(
    st.sampled_from([10**9, -(10**9), 10**9 + 1, 2**31, 2**40, 2**63, 2**64, -(2**63), -1, 0,
                     10**30]),
    st.integers(),
    st.integers(-(10**9), 10**9),
    st.integers(-3, 12),
)
odd_texts = st.one_of(st.text(max_size=30), st.sampled_from(["", "<b>x</b>", "\u202eevil",
                                                             "\N{GRINNING FACE}" * 200]))


def _leaves(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Where the numbers, texts and empty values of a picture are, with what is there."""
    found: list[tuple[tuple[Any, ...], Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(_leaves(value, (*here, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_leaves(value, (*here, i)))
    else:
        found.append((here, node))
    return found


def _set(data: Any, where: tuple[Any, ...], value: Any) -> None:
    for key in where[:-1]:
        data = data[key]
    data[where[-1]] = value


def tampered(data: st.DataObject) -> dict[str, Any]:
    picture = copy.deepcopy(DEMO)
    columns = len(picture["timeline"]["columns"])
    column = st.one_of(st.integers(0, columns - 1), st.integers(0, columns - 1),
                       st.integers(-2, columns + 2))
    for lane in picture["timeline"]["lanes"]:  # chips, as in a fight under way
        for n in range(data.draw(st.integers(0, 2))):
            lane["chips"].append({"id": f"c{n}", "fighter_id": lane["fighter_ids"][0],
                                  "column": data.draw(column), "label": "5",
                                  "state": "ready"})
    if data.draw(st.booleans()):
        picture["timeline"]["current_column"] = data.draw(st.one_of(column, odd_numbers))
    leaves = _leaves(picture)
    for _ in range(data.draw(st.integers(1, 4))):
        where, now = data.draw(st.sampled_from(leaves))
        if isinstance(now, bool) or data.draw(st.integers(0, 9)) == 0:
            value = data.draw(st.one_of(odd_numbers, odd_texts, st.none(), st.booleans()))
        elif isinstance(now, int) or now is None:
            value = data.draw(odd_numbers)
        else:
            value = data.draw(odd_texts)
        _set(picture, where, value)
    return picture


def _run(stress: bool, kind: str, body: Callable[[st.DataObject], str]) -> Counter[str]:
    tally: Counter[str] = Counter()

    @settings(max_examples=STRESS_EXAMPLES if stress else CI_EXAMPLES, deadline=None,
              suppress_health_check=list(HealthCheck), database=None)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        tally[body(data)] += 1

    started = time.perf_counter()
    check()
    print(f"fuzz {kind}: {sum(tally.values())} examples in "
          f"{time.perf_counter() - started:.1f} s: {dict(tally.most_common())}")
    return tally


def test_every_accepted_picture_paints_offscreen_without_a_crash(
    qtbot: QtBot, stress: bool
) -> None:
    from fightdesk.ui.main_window import MainWindow

    window = MainWindow(staged=True)
    qtbot.addWidget(window)
    window.resize(1000, 700)
    window.show()
    qtbot.waitExposed(window)

    def body(data: st.DataObject) -> str:
        picture = pictures._picture(tampered(data))
        if picture is None:
            return "dropped"
        window.show_picture(picture)
        window.grab()  # every widget painted, the timeline and the cards too
        window.timeline.grab()
        return "painted"

    tally = _run(stress, "pictures", body)
    assert tally["painted"] and tally["dropped"]


def test_the_issue_s_huge_numbers_never_reach_a_paint() -> None:
    for where, value in ((("timeline", "current_column"), 2**64),
                         (("cards", 0, "health"), 2**63),
                         (("timeline", "current_column"), 10**9)):
        picture = copy.deepcopy(DEMO)
        _set(picture, where, value)
        assert pictures._picture(picture) is None
    assert pictures._picture(copy.deepcopy(DEMO)) is not None


# --- settings files ---------------------------------------------------------------------------

KEYS = ["files/max_megabytes", "recent/files", "window/geometry", "window/state",
        "view/hide_library_in_rounds", "player_view/geometry", "odd/key"]
ODD_VALUES = st.one_of(
    st.sampled_from(["inf", "-inf", "nan", "1e400", "-5", "0", "0.001", "50", "1e7", "",
                     "@Invalid()", "@ByteArray(\\xff\\0)", "@Variant(\\0\\0\\0\\x7f\\0)",
                     "@Variant(\\0\\0\\0\\x2\\0\\0\\0\\x5)", "a, b, c", "\"quoted\"",
                     "/tmp/x.json, /tmp/y.json", "\\\\x"]),
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n\r"),
            max_size=20),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


# Qt says so when a tampered ``@Variant(...)`` names a type it does not know; the value
# is then empty, which the settings read as missing.
@pytest.mark.qt_log_ignore("QVariant::load")
def test_fuzzed_settings_files_give_settings_in_range(stress: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="fightdesk-settings-") as base:
        counter = iter(range(10**9))

        def body(data: st.DataObject) -> str:
            folder = Path(base) / str(next(counter))  # a new file: QSettings caches by name
            folder.mkdir()
            lines = ["[General]"]
            for _ in range(data.draw(st.integers(0, 6))):
                lines.append(f"{data.draw(st.sampled_from(KEYS)).split('/', 1)[-1]}="
                             f"{data.draw(ODD_VALUES)}")
            sections: dict[str, list[str]] = {}
            for _ in range(data.draw(st.integers(0, 6))):
                section, key = data.draw(st.sampled_from(KEYS)).split("/", 1)
                sections.setdefault(section, []).append(f"{key}={data.draw(ODD_VALUES)}")
            for section, entries in sections.items():
                lines += [f"[{section}]", *entries]
            (folder / "window.ini").write_text("\n".join(lines) + "\n", encoding="utf-8")
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(window_settings.paths, "config_dir", lambda: folder)
                try:
                    problem = window_settings.apply_size_limit()
                    limit = files.size_limit()
                    recent = window_settings.recent_files()
                finally:
                    files.set_size_limit(None)
            assert 0 < limit <= files.MAX_LIMIT_MEGABYTES * 1024 * 1024
            assert problem is None or ("\n" not in problem and "files/max_megabytes" in problem)
            assert problem is None or limit == files.DEFAULT_SIZE_LIMIT
            assert all(isinstance(path, Path) for path in recent)
            return "refused" if problem else "used"

        tally = _run(stress, "settings", body)
    assert tally["used"] and tally["refused"]


@pytest.mark.parametrize("value", ["inf", "nan", "-3", "0", "1e400", "huge"])
def test_a_bad_size_limit_in_window_ini_says_so_and_the_start_goes_on(
    qtbot: QtBot, value: str
) -> None:
    from fightdesk import app
    from fightdesk.ui.main_window import MainWindow

    store = window_settings.app_settings()
    store.setValue(window_settings.SIZE_LIMIT_KEY, value)
    store.sync()
    window = MainWindow(staged=True)
    qtbot.addWidget(window)
    window.show()
    try:
        app._tell_settings_problem(window)  # raised OverflowError for "inf" before
        assert files.size_limit() == files.DEFAULT_SIZE_LIMIT
    finally:
        files.set_size_limit(None)
    message = window.statusBar().currentMessage()
    assert message == (f"Setting not used: window.ini files/max_megabytes={value} is not a "
                       "number of megabytes above 0 and at most 1048576; the default, 50 MB, "
                       "applies")
