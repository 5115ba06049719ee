"""Start the window: the bootstrap behind ``fightdesk``, ``fightdesk FILE`` and ``fightdesk-gui``.

The window's frame (title, menus, a "loading" line) is shown first; right after its first
paint the widgets are built, the fight's picture is painted when it has one (the last
fight after a normal quit, the demo on a first start: storage/picture.py), and the fight
is loaded (pydantic and the engine load then), so the GM sees a window at once and the
fight a moment later, before its rules are loaded. What the fight on screen does not need (the campaign
library dock, the print menu) is built once the fight is painted and the GM can click.
The cyclic garbage collector is paused until then: start-up makes tens of thousands of
objects and no garbage, and each collection would walk them all.

With ``FIGHTDESK_STARTUP_PROBE=1`` in the environment the app prints timing markers on
stdout (``fightdesk-probe <stage> <time.monotonic()>``) for ``benchmarks/startup.py``
and quits by itself once the start-up is over. The probe changes nothing else: it
times the same start as the GM's (autosave included).
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication, QWidget

    from fightdesk.engine.views import FightPicture
    from fightdesk.ui.main_window import MainWindow

PROBE_ENV = "FIGHTDESK_STARTUP_PROBE"
PROBE_PREFIX = "fightdesk-probe"
APP_ID = "io.github.fightdesk.Fightdesk"
# What a bare Linux needs for Qt's widgets (README "System packages").
LINUX_PACKAGES = (
    "libegl1 libgl1 libxkbcommon0 libfontconfig1 libglib2.0-0 libdbus-1-3 libcups2 fonts-dejavu-core"
)


def main(argv: Sequence[str] | None = None) -> int:
    """Open the window on ``FILE`` (or on the demo fight) and run until it is closed."""
    if getattr(sys, "frozen", False):  # the bundle's worker processes of Fight > Simulate
        import multiprocessing  # (fightdesk/cli.py run_frozen_child says why)

        multiprocessing.freeze_support()
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) <= 1 and not any(arg.startswith("-") for arg in args):
        # The GM's usual start (no option, at most a file): argparse is not needed to read
        # it, and importing it is a couple of milliseconds before the first paint.
        file: Path | None = Path(args[0]) if args else None
        qt_args: list[str] = []
    else:
        parsed = _parse_arguments(args)
        if isinstance(parsed, int):
            return parsed
        file, qt_args = parsed
    probe = Probe.from_environment()
    _pause_collector()
    try:
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:
        _resume_collector()
        _tell(f"fightdesk: cannot start the window ({exc}). On Linux install: {LINUX_PACKAGES}")
        return 1
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0], *qt_args])
    _describe_application(app)

    from fightdesk.ui.main_window import MainWindow
    from fightdesk.ui.paint_watch import after_first_paint

    window = MainWindow(staged=True)
    window.show()
    from fightdesk.ui.error_report import install

    install(window)  # an unexpected error: one line for the GM, the traceback in the log
    after_first_paint(window, lambda: _first_fight(window, file, probe))
    _close_on_interrupt(window)
    try:
        return app.exec()
    finally:
        _resume_collector()


def _parse_arguments(args: list[str]) -> tuple[Path | None, list[str]] | int:
    """FILE and the options Qt reads (``-style``...), or the exit code of ``--help``,
    ``--version`` or a mistake (argparse has printed what it says)."""
    import argparse

    parser = argparse.ArgumentParser(prog="fightdesk", description="Open the fightdesk window.")
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE", help="a session file to open")
    parser.add_argument("--version", action="version", version=_version())
    try:
        options, qt_args = parser.parse_known_args(args)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 0
    return options.file, qt_args


def _first_fight(window: MainWindow, path: Path | None, probe: Probe) -> None:
    """Complete the window and put the first fight on screen: the autosaved fight after a
    crash (if the GM wants it back) or after a normal quit (unless ``path`` is given),
    else ``path``, else the bundled demo. When that fight has a picture (the last fight
    reopened, or the demo on a first start), the picture is painted first and the rules
    load after (docs/startup.md). Autosave is attached before any action can come."""
    probe.mark("first-paint")
    window.build_body()
    _tell_settings_problem(window)
    picture = _start_picture(path)
    if picture is None:
        _load_first_fight(window, path, probe, shown=False)
        return
    from fightdesk.ui.paint_watch import after_next_paint

    window.show_picture(picture)
    after_next_paint(window, lambda: _picture_shown(window, path, probe))


def _picture_shown(window: MainWindow, path: Path | None, probe: Probe) -> None:
    """The fight's picture is on screen: now the rules and the fight itself. A click in
    between waits for them (they load in this one turn of the event loop)."""
    probe.mark("shown")
    if probe.quit_when_shown:
        from PySide6.QtWidgets import QApplication

        QApplication.exit(0)
        return
    _load_first_fight(window, path, probe, shown=True)


def _start_picture(path: Path | None) -> FightPicture | None:
    """The picture of the fight this start will show, if it has one that still shows it
    (storage/picture.py): no file named, and the last fight reopened after a normal quit
    or, on a first start, the demo."""
    if path is not None:
        return None
    from fightdesk.paths import autosave_dir
    from fightdesk.resources_path import DEMO_FILE, DEMO_PICTURE, MissingResource, resource_path
    from fightdesk.storage.picture import demo_picture, reopen_picture

    try:
        root = autosave_dir()
    except OSError:  # the data folder cannot be made: autosave says so in a moment
        return None
    picture = reopen_picture(root)
    if picture is not None:
        return picture
    try:
        return demo_picture(root, resource_path(DEMO_FILE), resource_path(*DEMO_PICTURE))
    except MissingResource:
        return None


def _load_first_fight(window: MainWindow, path: Path | None, probe: Probe, *, shown: bool) -> None:
    if _restore_or_reopen(window, path):
        ok = True
    elif path is not None:
        ok = window.open_file(path)
    else:
        ok = _show_demo(window)
    probe.mark("loaded")
    from fightdesk.ui.paint_watch import after_next_paint

    after_next_paint(window, lambda: _ready(window, probe, ok, shown))


def _restore_or_reopen(window: MainWindow, path: Path | None) -> bool:
    """Autosave every fight the window shows; True when it brought the last fight back
    (see docs/autosave.md)."""
    from fightdesk.ui.recovery import start_autosave

    binder, choice = start_autosave(window, path)
    if binder is None or choice is None:
        return False
    binder.show_restored(choice, window.show_session)
    return True


def _tell_settings_problem(window: MainWindow) -> None:
    """Settings that cannot be kept are said once; the window works without them. The
    file size limit setting applies from here on."""
    from fightdesk.ui.settings import apply_size_limit, settings_problem

    limit_problem = apply_size_limit()
    problem = settings_problem()
    if problem:
        window.statusBar().showMessage(f"Window settings are not kept: {problem}", 0)
    elif limit_problem:
        window.statusBar().showMessage(f"Setting not used: {limit_problem}", 0)


def _show_demo(window: MainWindow) -> bool:
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.files import FileProblem
    from fightdesk.storage.sessions import demo_session

    try:
        session = demo_session()
    except FileProblem as problem:
        from fightdesk.ui.plain import warn

        warn(window, "The demo fight cannot be opened", str(problem))
        return False
    # The demo has no file of its own: saving it asks for a name (never writes into the install).
    window.show_session(Engine(session), None)
    return True


def _ready(window: MainWindow, probe: Probe, ok: bool, shown: bool = False) -> None:
    """The loaded fight is painted and the event loop is free: the GM can click. The rest
    is built in later turns of the event loop, so a click in between waits for one step.
    ``shown``: its picture was on screen before."""
    from PySide6.QtCore import QTimer

    if not shown:
        probe.mark("shown")
    probe.mark("ready")
    if probe.quit_when_ready or (probe.quit_when_shown and not shown):
        from PySide6.QtWidgets import QApplication

        QApplication.exit(0 if ok else 1)
        return

    def commands() -> None:
        from fightdesk.engine.lazy import load_waiting

        load_waiting()  # the command classes, before the GM's first click needs them
        QTimer.singleShot(0, window, library)

    def library() -> None:
        # The print menu and the rest come next whatever the library does: a campaign
        # folder or file it cannot use must not take the window's other parts with it.
        try:
            window.add_library_panel()
        except Exception as exc:  # the panel reports its own problems; this is the net
            window.statusBar().showMessage(f"The campaign library is off: {exc}", 0)
        finally:
            QTimer.singleShot(0, window, settled)

    def settled() -> None:
        window.add_printing()
        _set_window_icon(window)  # the taskbar takes it from the .desktop file till then
        _resume_collector()
        probe.mark("settled")
        if probe.enabled:
            from PySide6.QtWidgets import QApplication

            QApplication.exit(0 if ok else 1)

    QTimer.singleShot(0, window, commands)


# --- Qt plumbing ------------------------------------------------------------------------------


def _describe_application(app: QApplication) -> None:
    app.setApplicationName("fightdesk")
    app.setApplicationVersion(_version())
    # Lets Wayland and the taskbar match the window to packaging/<APP_ID>.desktop.
    app.setDesktopFileName(APP_ID)


def _set_window_icon(window: QWidget) -> None:
    from PySide6.QtGui import QIcon

    from fightdesk.resources_path import MissingResource, resource_path

    try:
        window.setWindowIcon(QIcon(str(resource_path("icons", "fightdesk.svg"))))
    except MissingResource:
        pass  # a missing icon is not worth a word to the GM


def _close_on_interrupt(window: QWidget) -> None:
    """Ctrl+C in the terminal closes the window the normal way (asking about unsaved work).
    SIGTERM (logout, shutdown, ``kill``) quits without a question, as nobody is there to
    answer it: the autosave already holds every action, and the quit is marked clean, so
    the next start reopens the fight instead of offering to restore it.

    Python runs signal handlers only between bytecodes, so a slow timer lets it run."""
    from PySide6.QtCore import QTimer

    if sys.platform == "win32":
        return
    signal.signal(signal.SIGINT, lambda *_: window.close())
    # The handler only schedules the quit: the event loop, not the signal, runs it.
    signal.signal(signal.SIGTERM, lambda *_: QTimer.singleShot(0, lambda: quit_on_terminate(window)))
    tick = QTimer(window)
    tick.setInterval(500)
    tick.timeout.connect(lambda: None)
    tick.start()


def quit_on_terminate(window: QWidget) -> None:
    """The session is ending: keep the window's layout and quit the app asking nothing.
    Quitting emits ``aboutToQuit``, on which the autosave writes what it still holds and
    marks the exit clean (docs/autosave.md)."""
    from PySide6.QtWidgets import QApplication

    save_layout = getattr(window, "save_layout", None)
    if callable(save_layout):
        save_layout()
    QApplication.exit(0)


def _version() -> str:
    from fightdesk import __version__

    return f"fightdesk {__version__}"


def _tell(message: str) -> None:
    if sys.stderr is not None:
        print(message, file=sys.stderr)


_collector_paused = False


def _pause_collector() -> None:
    """Python's cyclic garbage collector stays off until the start-up is over."""
    global _collector_paused
    if gc.isenabled():
        gc.disable()
        _collector_paused = True


def _resume_collector() -> None:
    global _collector_paused
    if _collector_paused:
        _collector_paused = False
        gc.enable()


class Probe:
    """Start-up timing markers for the benchmark; silent unless FIGHTDESK_STARTUP_PROBE is
    set. The app quits once settled, as soon as it is ready when the variable is
    ``ready`` (the whole-process time of "the fight clickable, then quit"), or as soon as
    the fight is on screen (its picture, or the fight itself) when it is ``shown``."""

    def __init__(self, enabled: bool, quit_when_ready: bool = False,
                 quit_when_shown: bool = False) -> None:
        self.enabled = enabled
        self.quit_when_ready = enabled and quit_when_ready
        self.quit_when_shown = enabled and quit_when_shown

    @classmethod
    def from_environment(cls) -> Probe:
        value = os.environ.get(PROBE_ENV, "")
        return cls(value not in ("", "0"), quit_when_ready=value == "ready",
                   quit_when_shown=value == "shown")

    def mark(self, stage: str) -> None:
        if self.enabled and sys.stdout is not None:
            print(f"{PROBE_PREFIX} {stage} {time.monotonic():.6f}", flush=True)
