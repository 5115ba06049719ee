"""One action, each thing said once: which of an action's lines the log and the printed
summary show. The rules log a line for the command and lines for what it caused, so one
fact can come twice ("Kaede's Jab resolves", then "Kaede's Jab resolves (speed 10)"); the
fuller line is kept. No Qt, no pydantic, nothing imported: the window imports it before
a fight loads, and the log dock folds with it on every click."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

# What may follow a line inside a fuller line that says the same thing with more:
# "(speed 10)", " for 6", ": 86", ", 10 or less".
_GOES_ON = frozenset(" (:,;")


def says_more(fuller: str, line: str) -> bool:
    """``fuller`` is ``line`` with more after it (at a word's end)."""
    return (len(fuller) > len(line) and fuller.startswith(line)
            and fuller[len(line)] in _GOES_ON)


def said_once(lines: Sequence[str], kept: int = 0) -> list[int]:
    """The indexes of ``lines`` to show, in order: a line said before is left out, and so
    is a line another line says with more. The first ``kept`` lines always stay (the
    action's own line, which its row shows whatever follows)."""
    ordered = sorted(set(lines))  # a fuller line sorts right after the lines it starts with
    shown: list[int] = []
    seen: set[str] = set()
    for n, line in enumerate(lines):
        if n >= kept and (line in seen or _has_fuller(ordered, line)):
            continue
        seen.add(line)
        shown.append(n)
    return shown


def _has_fuller(ordered: list[str], line: str) -> bool:
    at = bisect_right(ordered, line)
    while at < len(ordered) and ordered[at].startswith(line):
        if says_more(ordered[at], line):
            return True
        at += 1
    return False


def action_line(entries: Sequence[Any]) -> str:
    """An action's own line: its first entry's summary, or the line of the step that
    says it with more ("GM set Thug 3's health to 2 (was 4)", "Hound challenges Mira
    with Bite (4 against 2): Hound wins")."""
    head = str(entries[0].summary)
    for n, entry in enumerate(entries):
        if n and says_more(str(entry.summary), head):
            return str(entry.summary)
        for e in entry.events:
            if e.roll is None and e.kind not in _NOT_SAID and says_more(str(e.text), head):
                return str(e.text)
    return head


# A question the rules asked, an answer's restated decision: never the action's line.
_NOT_SAID = frozenset({"ask", "decision"})


def action_lines(entries: Sequence[Any]) -> list[tuple[Any, Any]]:
    """What one action (the log entries of one undo step, its command first) says below
    its own line, each thing once: ``(entry, event)``, or ``(entry, None)`` for a later
    command's own summary. The first command's act is the action's line itself; an
    answer's decision is its command's line; a question answered later in the step is
    left out; a command's line that one of its events says again, or says with more,
    comes once. Every roll stays."""
    lines: list[tuple[Any, Any]] = []
    last = len(entries) - 1
    own = action_line(entries) if entries else ""
    for n, entry in enumerate(entries):
        events = [e for e in entry.events if e.roll is not None or not (
            e.kind == "decision" or (e.kind == "ask" and n < last)
            or (n == 0 and e.kind in ("act", "interrupt")) or _cost_named(e, entry.events))]
        told = n > 0 and _told_by_what_followed(entry, events)
        keys = [own if n == 0 else _TOLD if told else entry.summary,
                *(_key(k, e) for k, e in enumerate(events))]
        # The first command's summary is the action's own line: kept, not folded again.
        kept = said_once(keys, kept=1 if n == 0 else 0)
        if told:
            kept = [k for k in kept if k]
        if n:  # nor said again by a later command
            kept = [k for k in kept if keys[k] != own]
        lines += [(entry, events[k - 1] if k else None) for k in kept if n or k]
    return lines


def _told_by_what_followed(entry: Any, events: Sequence[Any]) -> bool:
    """A later command whose line only sums up what its events say: an answer that
    logged its decision ("Kaede: Hold the 6") and what the choice did ("Kaede holds the
    die 6", "Kaede spends 1 EP on a dodge"), or a roll made with its outcome ("Sniper hits
    Tomasz for 6": "Sniper hits Tomasz", "Tomasz takes 6 damage")."""
    sums_up = any(e.kind == "decision" for e in entry.events) or (
        entry.command.get("kind") == "make-roll" and any(e.kind == "resolve" for e in events))
    return sums_up and any(e.roll is None and e.kind != "step" for e in events)


_TOLD = "\0told"  # a summary its events tell: compared with nothing


def _key(n: int, event: Any) -> str:
    """An event's line as ``said_once`` compares it: a roll never matches another line."""
    return f"\0{n}" if event.roll is not None else str(event.text)


def _cost_named(event: Any, events: Sequence[Any]) -> bool:
    """A spend that another line of its command names as its cost: "Ji-woo spends 1
    assist(s)" beside "Ji-woo: assist ... (1 assist(s))"."""
    if event.kind != "points-spend":
        return False
    _, spends, what = str(event.text).partition(" spends ")
    cost = f"({what.split(' on ', 1)[0]})"
    return bool(spends) and any(other is not event and other.roll is None
                                and cost in str(other.text) for other in events)
