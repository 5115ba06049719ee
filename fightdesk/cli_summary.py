"""``fightdesk summary``: a round or fight summary from a session file, in the terminal.

    fightdesk summary SESSION [--round N | --all] [--format md|html|pdf] [-o FILE]

Markdown to the terminal needs no Qt. HTML (the chart as an embedded PNG), Markdown
written to a file (the chart PNG beside it) and PDF start Qt's GUI module (no widgets),
offscreen when there is no display. Bad input prints one line on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .report import FightSummary

_qt_app: object | None = None  # kept alive for the length of the command

FORMAT_BY_SUFFIX = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html",
                    ".pdf": "pdf"}

EXAMPLES = """\
examples:
  fightdesk summary fight.json                      the whole fight as Markdown
  fightdesk summary fight.json --round 2            round 2 only
  fightdesk summary fight.json -o fight.pdf         PDF (format from the file name)
  fightdesk summary fight.json --all --format html -o fight.html --paper letter
"""



def _round_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a round number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not a round number (0 or more)")
    return value


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "summary",
        help="print or export a round or fight summary (Markdown, HTML or PDF)",
        description="Summarise a saved fight: who acted in what order, every roll, damage, "
        "points, conditions, who is down, and everyone's state at the end of each round. "
        "The whole fight (with totals and a chart) unless --round is given.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("session", metavar="SESSION", type=Path, help="the session file (.json)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--round", "-r", dest="round", type=_round_number, metavar="N",
                       help="summarise round N only (0 = what happened before round 1)")
    which.add_argument("--all", "-a", dest="all", action="store_true",
                       help="the whole fight: every round, totals and the chart (default)")
    parser.add_argument("--format", "-f", choices=("md", "html", "pdf"), default=None,
                        help="output format (default: from the -o file name, else md)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write to FILE instead of the terminal (PDF needs a file "
                        "or a redirect)")
    parser.add_argument("--paper", choices=("a4", "letter"), default=None,
                        help="page size of a PDF (default: from the system locale)")


def run(args: argparse.Namespace) -> int:
    from .report import SummaryProblem, summarize
    from .storage.files import FileProblem
    from .storage.sessions import load_session

    path: Path = args.session
    output: Path | None = args.output
    fmt: str = args.format or (FORMAT_BY_SUFFIX.get(output.suffix.lower(), "md")
                               if output else "md")
    if fmt == "pdf" and output is None and sys.stdout.isatty():
        return _fail("a PDF does not go to the terminal: give -o FILE.pdf (or redirect it)")
    try:
        session = load_session(path)
        summary = summarize(session, None if args.round is None else [args.round])
    except FileProblem as problem:
        return _fail(str(problem))
    except SummaryProblem as problem:
        return _fail(f"{path}: {problem}")
    try:
        if fmt == "md" and output is None:
            from .report import to_markdown

            sys.stdout.write(to_markdown(summary))
            return 0
        _start_qt()
        if output is None:
            return _to_stdout(summary, fmt, args.paper)
        from .ui.summary_files import export_summary

        written = export_summary(summary, output, fmt, args.paper)  # type: ignore[arg-type]
    except FileProblem as problem:
        return _fail(str(problem))
    for item in written:
        print(f"wrote {item}")
    return 0


def _to_stdout(summary: FightSummary, fmt: str, paper: str | None) -> int:
    from .ui.summary_files import pdf_bytes, summary_html

    if fmt == "html":
        sys.stdout.write(summary_html(summary))
        return 0
    data = pdf_bytes(summary, paper)  # type: ignore[arg-type]
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0


def _start_qt() -> None:
    """A QGuiApplication for fonts, images and PDF; offscreen when there is no display."""
    if (
        "QT_QPA_PLATFORM" not in os.environ
        and sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtGui import QGuiApplication

    global _qt_app
    if QGuiApplication.instance() is None:
        _qt_app = QGuiApplication(["fightdesk-summary"])


def _fail(message: str) -> int:
    print(" ".join(message.splitlines()), file=sys.stderr)
    return 2
