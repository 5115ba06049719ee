"""An unexpected error never passes silently, and never stops the fight.

:func:`install` puts in a ``sys.excepthook`` (an exception escaping a slot or an event
handler ends there: Qt's event loop goes on) and a Qt message handler. An error tells
the GM in one line, in the window's status bar, that the fight is unchanged (a command
that raises changes nothing: ``Engine.apply`` takes back its whole transaction), and
writes the traceback to ``fightdesk.log`` in the app's log folder (platformdirs' user
log folder; tests point it at a temporary one). Qt's critical messages are told the
same way; its warnings go to the log only.

Nothing is imported here that the first paint would wait for: ``traceback`` and the
log folder are looked up when something goes wrong.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from fightdesk import paths

if TYPE_CHECKING:
    from PySide6.QtCore import QMessageLogContext, QtMsgType
    from PySide6.QtWidgets import QMainWindow

LOG_NAME = "fightdesk.log"
#: Past this size the log starts afresh (the last one is kept as ``fightdesk.log.1``).
LOG_LIMIT = 1024 * 1024


class ErrorReport:
    """Reports unexpected errors to the GM and the log file (one per app)."""

    def __init__(self, window: QMainWindow, log_dir: Path | None = None) -> None:
        self.window = window
        self._log_dir = log_dir
        self.reported = 0
        self._previous_hook: Callable[..., object] = sys.excepthook
        self._previous_handler: Callable[..., object] | None = None
        self._telling = False

    # --- where it is written -------------------------------------------------------------
    def log_path(self) -> Path | None:
        """The log file, or None when the log folder cannot be used."""
        try:
            folder = paths.checked_folder(self._log_dir) if self._log_dir else paths.log_dir()
        except OSError:
            return None
        return folder / LOG_NAME

    def write(self, text: str) -> Path | None:
        """Append ``text`` to the log (with the time); where it went, or None."""
        import time

        path = self.log_path()
        if path is None:
            return None
        try:
            if path.exists() and path.stat().st_size > LOG_LIMIT:
                path.replace(path.with_name(LOG_NAME + ".1"))
            with path.open("a", encoding="utf-8") as log:
                log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{text.rstrip()}\n")
        except OSError:
            return None
        return path

    # --- what the GM is told ----------------------------------------------------------------
    def tell(self, what: str, path: Path | None) -> None:
        """One line in the status bar: what happened, that the fight is unchanged, where
        the details are."""
        where = f"details in {path}" if path is not None else "no log could be written"
        line = " ".join(f"Something went wrong ({what}): the fight is unchanged and goes "
                        f"on; {where}".split())
        self.reported += 1
        if self._telling:  # an error while telling one: the log has it
            return
        self._telling = True
        try:
            self.window.statusBar().showMessage(line, 60000)
        except RuntimeError:  # the window is gone (quitting): the log has it
            pass
        finally:
            self._telling = False

    def excepthook(self, kind: type[BaseException], error: BaseException,
                   tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt | SystemExit) or not self._window_alive():
            self._previous_hook(kind, error, tb)  # (a window gone: nobody to tell)
            return
        try:
            import traceback

            text = "".join(traceback.format_exception(kind, error, tb))
            path = self.write(text)
            sys.stderr.write(text)
            summary = f"{kind.__name__}: {error}" if str(error) else kind.__name__
            self.tell(_short(summary), path)
        except Exception:  # the hook must never raise
            self._previous_hook(kind, error, tb)

    def _window_alive(self) -> bool:
        from shiboken6 import isValid

        return bool(isValid(self.window))

    def qt_message(self, kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        """Qt's own messages: critical ones told to the GM and logged, warnings logged."""
        from PySide6.QtCore import QtMsgType

        if self._previous_handler is not None:
            self._previous_handler(kind, context, message)
        if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            self.tell(_short(f"Qt: {message}"), self.write(f"Qt critical: {message}"))
        elif kind == QtMsgType.QtWarningMsg:
            self.write(f"Qt warning: {message}")


def install(window: QMainWindow, log_dir: Path | None = None) -> ErrorReport:
    """Report every unexpected error in ``window`` from now on; ``log_dir``: the log's
    folder (the app's log folder by default)."""
    from PySide6.QtCore import qInstallMessageHandler

    report = ErrorReport(window, log_dir)
    sys.excepthook = report.excepthook
    previous = qInstallMessageHandler(report.qt_message)
    report._previous_handler = previous if callable(previous) else None
    return report


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
