"""The ``fightdesk`` command: the window by default, and sub-commands for the terminal.

    fightdesk                 open the window on the demo fight
    fightdesk FILE            open the window on a session file
    fightdesk check FILE      validate a session file: prints OK, or one line on stderr (exit 2)
    fightdesk --version

Other sub-commands live in their own modules, listed in :data:`COMMAND_MODULES`. Each
such module has ``add_parser(subparsers) -> None`` (which adds one or more sub-parsers)
and ``run(args) -> int``; a module that is not there is skipped. Keep their module-level
imports light (no Qt, no pydantic): they are imported whenever a sub-command runs.

This module itself imports neither Qt nor pydantic, so ``--version`` and ``check`` start
fast and work on a machine without a display.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import NoReturn, cast

from . import __version__

# Sub-command modules, imported when a sub-command (or --help) is asked for.
COMMAND_MODULES: tuple[str, ...] = (
    "fightdesk.cli_odds",
    "fightdesk.cli_summary",
    "fightdesk.cli_new",
    "fightdesk.cli_simulate",
)

Runner = Callable[[argparse.Namespace], int]

USAGE = """\
fightdesk [FILE]            open the window (on FILE, or on the demo fight)
       fightdesk COMMAND [...]     run a command in the terminal (see below)
       fightdesk --version"""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fightdesk`` console script and of ``python -m fightdesk``."""
    run_frozen_child()
    args = list(sys.argv[1:] if argv is None else argv)
    _make_output_safe()
    _tell_environment_problem()
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``fightdesk odds ... | head``): nothing left to tell.
        _silence_stdout()
        return 1


def _tell_environment_problem() -> None:
    """A setting from the environment that is not used says so in one line (the default
    applies)."""
    from .storage.files import size_limit_problem

    problem = size_limit_problem()
    if problem and sys.stderr is not None:
        print(f"fightdesk: {problem}", file=sys.stderr)


def run_frozen_child() -> None:
    """In the desktop bundle (a frozen program) the simulator's worker processes start
    the bundle's own program: there, play the worker's part and exit instead of opening
    a window or a command (``multiprocessing.freeze_support``; nothing outside a bundle)."""
    if getattr(sys, "frozen", False):
        import multiprocessing

        multiprocessing.freeze_support()


def _dispatch(args: list[str]) -> int:
    if args[:1] == ["--version"]:
        print(version_text())
        return 0
    if not args:
        return _start_window([])
    first = args[0]
    if first in ("-h", "--help") or not first.startswith("-"):
        parser, commands = build_parser()
        if first in commands or first in ("-h", "--help"):
            try:
                namespace = parser.parse_args(args)
            except SystemExit as stop:  # --help, or a usage error already printed
                return _exit_code(stop)
            runner: Runner = namespace.run
            return runner(namespace)
        if _looks_like_command(first):
            known = ", ".join(sorted(commands))
            _error(f"fightdesk: unknown command {first!r} (commands: {known}); "
                   f"to open a file, give its path, e.g. ./{first}")
            return 2
    return _start_window(args)


class OneLineParser(argparse.ArgumentParser):
    """Usage mistakes as one line on stderr ("fightdesk simulate: ..."), exit 2: argparse's
    documented way (a subclass overriding ``error``), instead of its whole usage block.
    Every sub-command's parser is one (``add_subparsers(parser_class=...)``)."""

    def error(self, message: str) -> NoReturn:
        print(" ".join(f"{self.prog}: {message}".splitlines()), file=sys.stderr)
        raise SystemExit(2)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        """A command takes no argument it does not know: an unknown option is this
        command's one-line error ("fightdesk simulate: unrecognized arguments: --x"),
        not left over for the top-level parser, whose error prints its usage block."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def version_text() -> str:
    return f"fightdesk {__version__}"


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Runner]]:
    """The full parser with every available sub-command, and each command's runner."""
    parser = argparse.ArgumentParser(
        prog="fightdesk",
        usage=USAGE,
        description="A combat manager for the game master at the table.",
        epilog="Run 'fightdesk COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    # prog: each command's usage line reads "fightdesk simulate ...", not the top usage block.
    # The command modules use only ArgumentParser's API on their parsers.
    subparsers = cast("argparse._SubParsersAction[argparse.ArgumentParser]",
                      parser.add_subparsers(title="commands", metavar="COMMAND",
                                            prog="fightdesk", parser_class=OneLineParser))
    commands: dict[str, Runner] = {}
    _register(subparsers, commands, _add_check_parser, _run_check)
    for module in command_modules():
        _register(subparsers, commands, module.add_parser, module.run)
    return parser, commands


def command_modules() -> list[ModuleType]:
    """The sub-command modules that exist in this installation, in registry order."""
    found: list[ModuleType] = []
    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name) is None:
            continue
        found.append(importlib.import_module(name))
    return found


def _register(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    commands: dict[str, Runner],
    add_parser: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None],
    run: Runner,
) -> None:
    before = set(subparsers.choices)
    add_parser(subparsers)
    for name in set(subparsers.choices) - before:
        subparsers.choices[name].set_defaults(run=run)
        commands[name] = run


# --- fightdesk check --------------------------------------------------------------------


def _add_check_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = subparsers.add_parser(
        "check",
        help="validate a session file: prints OK, or the problem on stderr (exit 2)",
        description="Read and validate a fightdesk session file without changing it. "
        "Prints OK (exit 0), or one line naming the file, the field and the problem "
        "on stderr (exit 2).",
    )
    check.add_argument("file", metavar="FILE", type=Path, help="the session file (.json)")


def _run_check(args: argparse.Namespace) -> int:
    from .storage.files import FileProblem
    from .storage.sessions import load_session

    try:
        load_session(args.file)
    except FileProblem as problem:
        _error(str(problem))
        return 2
    print("OK")
    return 0


# --- the window -------------------------------------------------------------------------


def _start_window(args: list[str]) -> int:
    from .app import main as app_main

    return app_main(args)


def _looks_like_command(word: str) -> bool:
    """A bare word that is not a file is a mistyped command, not a file to open."""
    return not Path(word).exists() and "." not in word and "/" not in word and "\\" not in word


# --- output that works on every console ---------------------------------------------------


def _make_output_safe() -> None:
    """A file name the console's encoding cannot show must not crash a command."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _error(message: str) -> None:
    if sys.stderr is not None:
        print(" ".join(message.splitlines()), file=sys.stderr)


def _silence_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _exit_code(stop: SystemExit) -> int:
    code = stop.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    _error(str(code))
    return 1
