"""Names keep their writing direction to themselves.

A name from a file may hold right-to-left letters or Unicode's direction controls (an
override, U+202E, that is never closed reverses everything after it on the line). Put
inside other text ("Kaede strikes NAME for 3", a chip's "NAME 9"), such a name is wrapped
in a first-strong isolate (U+2068 ... U+2069): inside, it reads as it would alone; outside,
the line goes on as if the name were one neutral character. Names of left-to-right
letters only (almost all) are left exactly as they are.

Whole names only, found the way the player view finds hidden ones (``whole_name``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache

FSI = "\u2068"  # first strong isolate
PDI = "\u2069"  # pop directional isolate
_OPENERS = "\u2066\u2067\u2068"  # LRI, RLI, FSI
# Right-to-left letters, Arabic digits, and every explicit direction control.
_NEEDS = frozenset({"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI",
                    "PDI"})


def needs_isolating(name: str) -> bool:
    return not name.isascii() and any(unicodedata.bidirectional(ch) in _NEEDS for ch in name)


def isolated(name: str) -> str:
    """``name`` in an isolate of its own when it needs one (else as it is). An isolate
    the name opens is closed before the name ends, and a stray closing one inside it is
    dropped (it would end the name's isolate early); an embedding or override the name
    leaves open ends with the isolate."""
    if not needs_isolating(name):
        return name
    kept: list[str] = []
    depth = 0
    for ch in name:
        if ch in _OPENERS:
            depth += 1
        elif ch == PDI:
            if depth == 0:
                continue
            depth -= 1
        kept.append(ch)
    return FSI + "".join(kept) + PDI * depth + PDI


def whole_name(name: str) -> str:
    """A pattern for ``name`` that is not part of a longer word: a letter or digit at its
    edge may not touch another one."""
    before = r"(?<!\w)" if re.match(r"\w", name) else ""
    after = r"(?!\w)" if re.search(r"\w$", name) else ""
    return before + re.escape(name) + after


def unchanged(text: str) -> str:
    """What :func:`isolating` gives when no name needs isolating."""
    return text


def isolating(names: Iterable[str]) -> Callable[[str], str]:
    """A function that isolates every whole occurrence of these names in a text (see
    :func:`isolated`); texts without such a name come back as they are."""
    return _isolating(tuple(sorted(set(names))))


@lru_cache(maxsize=64)
def _isolating(names: tuple[str, ...]) -> Callable[[str], str]:
    if not any(needs_isolating(name) for name in names):
        return unchanged
    # Every name is looked for, the longest first: a name that is part of a longer one
    # is read as the longer one. Names that need nothing are matched to be kept as they
    # are; a name already isolated is not isolated again.
    ordered = sorted((n for n in names if n), key=len, reverse=True)
    pattern = re.compile(f"(?<!{FSI})(?:" + "|".join(whole_name(n) for n in ordered) + ")")

    def replace(match: re.Match[str]) -> str:
        return isolated(match.group())

    def isolate(text: str) -> str:
        if not text or text.isascii():
            return text
        return pattern.sub(replace, text)

    return isolate
