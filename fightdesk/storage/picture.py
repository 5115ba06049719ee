"""The fight's picture: what the window showed of it at rest, kept as plain JSON so that a
start-up paints the fight before the rules and their models load (docs/startup.md, "The
fight shown before the rules load").

Two pictures exist:

* the bundled demo's, ``resources/pictures/demo_fight.json`` (made from the demo by
  ``python -m fightdesk.storage.picture``; a test holds it equal to the live demo's), shown
  on a first start, when no fight was ever autosaved;
* the last fight's, ``picture.json`` in its autosave folder, written when the app quits
  normally and shown when the next start reopens that fight.

A picture counts only while what it shows cannot have changed: the autosave's files and
its state file are exactly as they were when it was written, the app is the same version,
and no other window holds the fight. Anything else (a crash, another start, a damaged or
foreign file) and the start goes the usual way, a fraction of a second later. A picture is
never read as the fight: the engine loads the fight from its files right after, and the
window then shows the live fight in its place.

Imports neither Qt nor pydantic (that is its point).
"""

from __future__ import annotations

import json
import logging
import os
import stat
import zlib
from pathlib import Path
from typing import Any

from fightdesk import __version__
from fightdesk.engine.views import (
    FightPicture,
    NotAPicture,
    fight_title,
    picture_from_plain,
    picture_of,
    to_plain,
)
from fightdesk.resources_path import DEMO_FILE, DEMO_PICTURE, resource_path

from .autosave_folder import FIGHT_ID, RECORD, STATE_FILE, in_use
from .files import FileProblem, atomic_write_text

PICTURE_FILE = "picture.json"
PICTURE_VERSION = 1
# A picture is small (the demo's is 3 KB; 200 fighters about 400 KB): a bigger file is
# not one of ours.
_MAX_BYTES = 8 * 1024 * 1024
log = logging.getLogger(__name__)


def keep_picture(root: Path, fight_id: str, picture: FightPicture) -> None:
    """Write the last fight's picture, after the autosave has written everything else
    (a normal quit). Raises FileProblem."""
    folder = root / fight_id
    data = {"version": PICTURE_VERSION, "app": __version__,
            "stamp": _stamp(root, folder), "picture": to_plain(picture)}
    atomic_write_text(folder / PICTURE_FILE, json.dumps(data, separators=(",", ":")),
                      keep_backup=False)


def reopen_picture(root: Path) -> FightPicture | None:
    """The picture of the fight a start reopens after a normal quit, or None when there
    is none that still shows it."""
    state = _read_json(root / STATE_FILE)
    if not isinstance(state, dict) or state.get("clean_exit") is not True:
        return None
    fight_id = state.get("fight_id")
    if not isinstance(fight_id, str) or not FIGHT_ID.match(fight_id):
        return None
    folder = root / fight_id
    data = _read_json(folder / PICTURE_FILE)
    if (not isinstance(data, dict) or data.get("version") != PICTURE_VERSION
            or data.get("app") != __version__ or data.get("stamp") != _stamp(root, folder)):
        return None
    if in_use(folder):  # open in another window: this start does not reopen it
        return None
    return _picture(data.get("picture"))


def demo_picture(root: Path, demo: Path, picture_file: Path) -> FightPicture | None:
    """The bundled demo's picture, for a first start: no fight was ever autosaved under
    ``root``, and ``picture_file`` was made from this very ``demo`` file."""
    if (root / STATE_FILE).exists():
        return None
    data = _read_json(picture_file)
    if not isinstance(data, dict) or data.get("version") != PICTURE_VERSION:
        return None
    if data.get("demo") != _fingerprint(demo):
        return None
    return _picture(data.get("picture"))


def demo_picture_text(demo: Path, picture: FightPicture) -> str:
    """The bundled demo picture's file (written by ``python -m fightdesk.storage.picture``)."""
    data = {"version": PICTURE_VERSION, "demo": _fingerprint(demo), "picture": to_plain(picture)}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


#: The largest number a picture may hold anywhere (a health, a count, a position): far
#: above any fight's, far below what Qt's 32-bit integers take.
MAX_NUMBER = 10**9
#: The most timeline columns, lanes and cards a picture may have (a fight of 200 fighters
#: has a few hundred lanes).
MAX_ITEMS = 10_000


def picture_problem(picture: FightPicture) -> str | None:
    """Why ``picture`` cannot be painted, or None. A picture is read as untrusted input
    (a file anyone could have edited): every number must be in range before it reaches
    Qt, every chip and the current column must be one of the timeline's columns."""
    timeline = picture.timeline
    columns = len(timeline.columns)
    if columns > MAX_ITEMS or len(timeline.lanes) > MAX_ITEMS or len(picture.cards) > MAX_ITEMS:
        return "too many columns, lanes or cards"
    current = timeline.current_column
    if current is not None and not 0 <= current < columns:
        return f"timeline.current_column {current} is not one of its {columns} columns"
    for lane in timeline.lanes:
        for chip in lane.chips:
            if not 0 <= chip.column < columns:
                return f"chip {chip.id!r}: column {chip.column} is not one of {columns}"
    for where, number in _numbers(picture, "picture"):
        if not -MAX_NUMBER <= number <= MAX_NUMBER:
            return f"{where}: {number} is out of range"
    return None


def _numbers(value: Any, where: str) -> list[tuple[str, int]]:
    """Every whole number in a picture, with where it is."""
    found: list[tuple[str, int]] = []
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, bool) or isinstance(item, str) or item is None:
            continue
        if isinstance(item, int):
            found.append((at, item))
        elif isinstance(item, tuple):
            names = getattr(item, "_fields", None)
            if names is not None:
                stack.extend((v, f"{at}.{n}") for n, v in zip(names, item, strict=True))
            else:
                stack.extend((v, f"{at}[{i}]") for i, v in enumerate(item))
    return found


def _picture(data: Any) -> FightPicture | None:
    """The picture in ``data`` if it is one that can be painted; anything else is dropped
    (the start then goes the usual way)."""
    try:
        picture = picture_from_plain(data)
    except NotAPicture:
        return None
    problem = picture_problem(picture)
    if problem is not None:
        log.info("a fight's picture is not shown: %s", problem)
        return None
    return picture


def _read_json(path: Path) -> Any:
    """A small JSON file's data, or None (missing, too big, unreadable, not JSON)."""
    try:
        # Never blocks on a pipe put in its place, nor reads a device: plain files only.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            raw = file.read(_MAX_BYTES + 1)
        if len(raw) > _MAX_BYTES:
            return None
        return json.loads(raw)
    except (OSError, ValueError, RecursionError):
        return None


def _stamp(root: Path, folder: Path) -> list[list[Any]]:
    """Name, size and change time of the state file and the fight's files of record:
    any write to them since the picture was taken changes it."""
    paths = [root / STATE_FILE]
    try:
        paths.extend(sorted(p for p in folder.iterdir() if RECORD.match(p.name)))
    except OSError:
        return []
    stamp: list[list[Any]] = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            return []
        stamp.append([path.name, info.st_size, info.st_mtime_ns])
    return stamp


def _fingerprint(demo: Path) -> list[int]:
    """The demo file's size and checksum (zlib's, as the bundle leaves out OpenSSL)."""
    try:
        raw = demo.read_bytes()
    except OSError:
        return []
    return [len(raw), zlib.crc32(raw)]


def _write_demo_picture() -> None:
    """Make the bundled demo's picture again from the demo fight (after the demo or the
    views change; tests/storage/test_picture.py says when)."""
    from fightdesk.engine.engine import Engine
    from fightdesk.storage.sessions import load_session

    demo = resource_path(DEMO_FILE)
    engine = Engine(load_session(demo))
    picture = picture_of(engine, fight_title(engine.encounter.name, None), False)
    target = demo.parent.joinpath(*DEMO_PICTURE)
    target.write_text(demo_picture_text(demo, picture), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    try:
        _write_demo_picture()
    except FileProblem as problem:
        raise SystemExit(f"cannot make the demo picture: {problem}") from None
