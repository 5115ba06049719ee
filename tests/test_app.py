"""The GUI bootstrap: the window paints first, then the fight loads; FILE opens a session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from fightdesk import app as app_module
from fightdesk.storage.sessions import demo_session, save_session
from fightdesk.ui import paint_watch
from fightdesk.ui.main_window import MainWindow

if TYPE_CHECKING:
    from fightdesk.engine.engine import Engine

# A start with the fight's picture (the demo on a first start, the last fight reopened)
# shows it before the rules load; one without (a file named) shows the fight once loaded.
STAGES = ("first-paint", "shown", "loaded", "ready", "settled")
STAGES_WITHOUT_PICTURE = ("first-paint", "loaded", "shown", "ready", "settled")


def probe_times(stdout: str, stages: tuple[str, ...] | None = STAGES) -> dict[str, float]:
    """The probe's markers, in the order ``stages`` (None: with or without a picture)."""
    marks = [line.split() for line in stdout.splitlines() if line.startswith(app_module.PROBE_PREFIX)]
    seen = tuple(m[1] for m in marks)
    assert seen == stages or (stages is None and seen in (STAGES, STAGES_WITHOUT_PICTURE)), stdout
    return {stage: float(value) for _, stage, value in marks}


def start_probed(command: list[str], home: Path, probe: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` (a fightdesk start) with the start-up probe set to ``probe``, Qt
    offscreen and every user folder under ``home``."""
    env = {
        **os.environ,
        app_module.PROBE_ENV: probe,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    return subprocess.run([sys.executable, *command], capture_output=True, text=True,
                          timeout=120, env=env, cwd=home)


class PaintSpy(QObject):
    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.log.append("paint")
        return False


def test_callback_runs_once_after_the_first_paint(qtbot: QtBot) -> None:
    seen: list[str] = []
    label = QLabel("Round 1")
    qtbot.addWidget(label)
    spy = PaintSpy(seen)
    label.installEventFilter(spy)
    paint_watch.after_first_paint(label, lambda: seen.append("callback"))
    label.show()
    qtbot.waitUntil(lambda: "callback" in seen)
    assert seen.index("paint") < seen.index("callback")
    label.repaint()
    qtbot.wait(paint_watch.FALLBACK_MS + 50)
    assert seen.count("callback") == 1


def _run_app_in_process(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str],
                        stages: tuple[str, ...] | None = STAGES) -> tuple[MainWindow, dict[str, float]]:
    QApplication.instance() or QApplication([])
    monkeypatch.setenv(app_module.PROBE_ENV, "1")
    monkeypatch.setattr(app_module, "_close_on_interrupt", lambda window: None)  # keep pytest's SIGINT
    before = QApplication.topLevelWidgets()
    assert app_module.main(argv) == 0
    times = probe_times(capsys.readouterr().out, stages)
    return new_main_window(before), times


def new_main_window(before: list[QWidget]) -> MainWindow:
    """The one main window not among ``before`` (the widgets themselves, not their ids:
    a window deleted meanwhile would free its id for the new one)."""
    (window,) = [w for w in QApplication.topLevelWidgets()
                 if isinstance(w, MainWindow) and not any(w is old for old in before)]
    return window


def test_no_file_opens_the_demo_fight_unnamed(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    window, times = _run_app_in_process([], monkeypatch, capsys)
    qtbot.addWidget(window)
    assert times["first-paint"] <= times["loaded"] <= times["ready"]
    engine = window.document.engine
    assert engine is not None and engine.session == demo_session()
    assert window.document.path is None  # saving the demo asks for a name


def test_file_argument_opens_that_session(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    session = demo_session()
    session.encounter.name = session.start.name = "Alley behind the noodle bar"
    path = tmp_path / "alley.json"
    save_session(session, path)
    window, _ = _run_app_in_process([str(path)], monkeypatch, capsys, STAGES_WITHOUT_PICTURE)
    qtbot.addWidget(window)
    engine = window.document.engine
    assert engine is not None and engine.encounter.name == "Alley behind the noodle bar"
    assert window.document.path == path


def test_real_start_up_paints_then_loads_then_quits(tmp_path: Path) -> None:
    done = start_probed(["-m", "fightdesk"], tmp_path, "1")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    times = probe_times(done.stdout)
    assert times["first-paint"] <= times["loaded"] <= times["ready"]


def test_the_start_builds_the_rest_once_the_fight_is_ready(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    window, times = _run_app_in_process([], monkeypatch, capsys)
    qtbot.addWidget(window)
    assert times["ready"] <= times["settled"]
    # Put off until after "ready", then built: the library dock and the print menu.
    assert window.library_panel is not None and window.summary_printing is not None
    assert not window.windowIcon().isNull()
    texts = [a.text() for a in window.file_menu.actions()]
    assert texts.index("&Print Summary…") < texts.index("&Quit")


def test_a_staged_window_paints_its_frame_then_builds_the_body(qtbot: QtBot) -> None:
    from fightdesk.ui import settings

    store = settings.app_settings()
    store.setValue("window/state", b"kept")  # what the GM's last layout left
    window = MainWindow(staged=True)
    qtbot.addWidget(window)
    assert window.centralWidget() is window.loading_label
    assert not hasattr(window, "timeline") and window.summary_printing is None
    # The menu bar's titles only: the actions, their items and shortcuts come with the body.
    assert [m.title() for m in (window.file_menu, window.edit_menu, window.fight_menu,
                                window.view_menu)] == ["&File", "&Edit", "F&ight", "&View"]
    assert window.file_menu.isEmpty() and not hasattr(window, "undo_action")
    window.save_layout()  # closed before its docks exist: the docks' layout is kept
    assert settings.app_settings().value("window/state") == b"kept"
    window.show_session(_demo_engine(), None)  # builds the body first
    assert window.centralWidget() is window.splitter
    assert window.undo_action.shortcut().toString() == "Ctrl+Z"
    assert [k.toString() for k in window.redo_action.shortcuts()] == ["Ctrl+Shift+Z", "Ctrl+Y"]
    assert window.open_action.shortcut().toString() == "Ctrl+O"
    assert window.fighters_model.rowCount() > 0
    qtbot.wait(20)
    assert window.library_panel is None  # the staged start builds it itself


def _demo_engine() -> Engine:
    from fightdesk.engine.engine import Engine

    return Engine(demo_session())


def test_a_repaint_of_the_widgets_in_the_window_counts_as_its_next_paint(qtbot: QtBot) -> None:
    """After the fight is shown, "ready" waits until the child widgets are painted too."""
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    seen: list[str] = []
    window = QWidget()
    qtbot.addWidget(window)
    layout = QVBoxLayout(window)
    label = QLabel("Round 1")
    layout.addWidget(label)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(20)
    spy = PaintSpy(seen)
    label.installEventFilter(spy)
    paint_watch.after_next_paint(window, lambda: seen.append("callback"))
    label.setText("Round 2")  # only the child needs painting
    qtbot.waitUntil(lambda: "callback" in seen)
    assert "paint" in seen and seen.index("paint") < seen.index("callback")
    qtbot.wait(paint_watch.FALLBACK_MS + 50)
    assert seen.count("callback") == 1
    # The watcher is gone once it has fired: a window that shows many fights keeps none.
    assert [c for c in window.children() if type(c).__name__ == "PaintWatcher"] == []


def test_a_start_probed_to_quit_when_ready_never_builds_the_rest(tmp_path: Path) -> None:
    done = start_probed(["-m", "fightdesk"], tmp_path, "ready")
    assert done.returncode == 0, done.stderr
    stages = [line.split()[1] for line in done.stdout.splitlines()
              if line.startswith(app_module.PROBE_PREFIX)]
    assert stages == ["first-paint", "shown", "loaded", "ready"]


COMMANDS_AT_STAGES = """
import importlib.util, sys
from fightdesk import app

def loaded(name):
    module = sys.modules.get(name)
    return module is not None and not isinstance(module, importlib.util._LazyModule)

real_mark = app.Probe.mark

def mark(self, stage):
    names = ("fightdesk.engine.commands", "fightdesk.engine.rulesets.street_fighter.commands")
    print("commands", stage, all(loaded(n) for n in names))
    real_mark(self, stage)

app.Probe.mark = mark
sys.exit(app.main([]))
"""


def test_the_command_classes_load_just_after_the_fight_is_shown(tmp_path: Path) -> None:
    """Showing a fight makes no command: their classes stay off the start-up and load
    in the first idle moment after "ready", before the GM's first click needs them."""
    done = start_probed(["-c", COMMANDS_AT_STAGES], tmp_path, "1")
    assert done.returncode == 0, done.stderr
    seen = [line.split()[1:] for line in done.stdout.splitlines() if line.startswith("commands ")]
    assert seen == [["first-paint", "False"], ["shown", "False"], ["loaded", "False"],
                    ["ready", "False"], ["settled", "True"]]


PICTURE_THEN_LIVE = """
import json, random, sys
from fightdesk import app

def shown_now(window):
    model = window.fighters_model
    cards = [model.item(row) for row in range(model.rowCount())]
    return [[[c.title, c.health, c.health_max, list(c.dice)] for c in cards],
            [lane.title for lane in window.timeline.timeline().lanes],
            window.round_title.text(), window.forward_button.text(), window.windowTitle()]

real_mark = app.Probe.mark

def mark(self, stage):
    print("pydantic", stage, "pydantic" in sys.modules, flush=True)
    real_mark(self, stage)

app.Probe.mark = mark
real_shown, real_ready = app._picture_shown, app._ready

def picture_shown(window, path, probe):
    print("picture", window.document.engine is None, json.dumps(shown_now(window)), flush=True)
    real_shown(window, path, probe)

def ready(window, probe, ok, shown=False):
    print("live", json.dumps(shown_now(window)), flush=True)
    engine = window.document.engine
    rng = random.Random(3)
    for _ in range(int(sys.argv[1])):  # play on before the quit: the next start shows this
        assert window.document.apply(engine.ruleset.autopilot.next_command(engine.encounter, rng)).ok
    real_ready(window, probe, ok, shown)

app._picture_shown, app._ready = picture_shown, ready
sys.exit(app.main([]))
"""


def _picture_and_live(done: subprocess.CompletedProcess[str]) -> tuple[str, str, list[str]]:
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    (picture,) = [line.split(" ", 2) for line in lines if line.startswith("picture ")]
    (live,) = [line.split(" ", 1)[1] for line in lines if line.startswith("live ")]
    assert picture[1] == "True"  # painted before the fight's engine existed
    pydantic = [line.split()[1:] for line in lines if line.startswith("pydantic ")]
    return picture[2], live, [f"{stage}:{loaded}" for stage, loaded in pydantic]


def test_the_fight_s_picture_comes_before_pydantic_and_the_live_fight_takes_its_place(
        tmp_path: Path) -> None:
    """A first start paints the demo's picture, then the live demo, which looks the same;
    after that start played on and quit, the next paints the fight as it was left."""
    done = start_probed(["-c", PICTURE_THEN_LIVE, "5"], tmp_path, "1")
    picture, live, pydantic = _picture_and_live(done)
    assert picture == live
    assert pydantic[:3] == ["first-paint:False", "shown:False", "loaded:True"]
    demo = live

    done = start_probed(["-c", PICTURE_THEN_LIVE, "0"], tmp_path, "1")
    picture, live, pydantic = _picture_and_live(done)
    assert picture == live and picture != demo  # the fight as the last start left it
    assert pydantic[:3] == ["first-paint:False", "shown:False", "loaded:True"]
    assert "(not saved)" in picture


def test_a_start_probed_to_quit_when_shown_quits_before_the_rules_load(tmp_path: Path) -> None:
    done = start_probed(["-c", PICTURE_THEN_LIVE, "0"], tmp_path, "shown")
    assert done.returncode == 0, done.stderr
    stages = [line.split()[1] for line in done.stdout.splitlines()
              if line.startswith(app_module.PROBE_PREFIX)]
    assert stages == ["first-paint", "shown"]


def test_a_picture_s_text_is_shown_as_plain_text(qtbot: QtBot) -> None:
    """A picture is read from a file: a name in it that looks like markup stays text."""
    from fightdesk.engine.views import picture_of

    engine = _demo_engine()
    picture = picture_of(engine, "<b>fight</b>.json", False)
    kaede = picture.cards[0]._replace(title="<i>Kaede</i> & co")
    picture = picture._replace(cards=(kaede, *picture.cards[1:]), state="<h1>Round 9</h1>")
    window = MainWindow(staged=True)
    qtbot.addWidget(window)
    window.show_picture(picture)
    window.show()
    qtbot.waitExposed(window)
    labels = {label.text(): label for label in window.findChildren(QLabel)}
    assert labels["<i>Kaede</i> & co"].textFormat() == Qt.TextFormat.PlainText
    assert window.round_title.text() == "<h1>Round 9</h1>"
    assert window.round_title.textFormat() == Qt.TextFormat.PlainText
    assert window.windowTitle() == "<b>fight</b>.json[*] - fightdesk"
    assert window.document.engine is None
    window.show_session(engine, None)  # the live fight takes the picture's place
    assert window.fighters_model.item(0).title == "Kaede Moriyama"


def test_options_are_read_by_argparse_and_a_mistake_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    """The usual start (nothing, or one FILE) skips argparse; anything else goes through it."""
    assert app_module.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("fightdesk ")
    assert app_module.main(["--help"]) == 0
    assert "a session file to open" in capsys.readouterr().out


def test_the_live_fight_keeps_the_cards_its_picture_built(qtbot: QtBot) -> None:
    """The live fight after a picture that shows it changes no card: the card widgets the
    picture built stay (no second build of every card while the GM looks at them)."""
    from fightdesk.engine.views import picture_of
    from fightdesk.ui.cards import FighterCard

    engine = _demo_engine()
    window = MainWindow(staged=True)
    qtbot.addWidget(window)
    window.show_picture(picture_of(engine, "demo", False))
    built = window.cards.findChildren(FighterCard)
    assert built
    window.show_session(engine, None)
    assert window.cards.findChildren(FighterCard) == built
    # A picture that differs from the live fight: that card reads as the live one.
    picture = picture_of(engine, "demo", False)
    hurt = picture.cards[0]._replace(health=1)
    window2 = MainWindow(staged=True)
    qtbot.addWidget(window2)
    window2.show_picture(picture._replace(cards=(hurt, *picture.cards[1:])))
    assert sorted(card.health.value() for card in window2.cards.findChildren(FighterCard))[0] == 1
    window2.show_session(_demo_engine(), None)
    assert window2.fighters_model.item(0).health == 10
    assert 1 not in [card.health.value() for card in window2.cards.findChildren(FighterCard)]
