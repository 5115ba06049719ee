"""The editable maneuver catalogue in ``resources/maneuvers/street-fighter.json``.

Loaded lazily (the first time a form or a rule needs it) and cached; a broken file is
reported with its name, the entry and the field, and leaves an empty catalogue.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from ...changes import RuleViolation
from .model import Maneuver


def _catalogue_path() -> Path:
    """The repository's ``resources/`` in a checkout, the packaged copy when installed."""
    here = Path(__file__).resolve().parents[4] / "resources" / "maneuvers" / "street-fighter.json"
    if here.exists():
        return here
    try:
        from importlib.resources import files

        return Path(str(files("fightdesk.resources") / "maneuvers" / "street-fighter.json"))
    except (ImportError, ModuleNotFoundError):  # pragma: no cover - broken install
        return here


CATALOGUE = _catalogue_path()


class CatalogueProblem(RuleViolation):
    """The catalogue file cannot be read; the message names the file and the field."""


def load_catalogue(path: Path = CATALOGUE) -> tuple[Maneuver, ...]:
    """Read a catalogue file; raises CatalogueProblem with a plain message."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CatalogueProblem(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise CatalogueProblem(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None
    entries = data.get("maneuvers") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise CatalogueProblem(f"{path}: needs a 'maneuvers' list")
    result: list[Maneuver] = []
    for i, entry in enumerate(entries):
        try:
            result.append(Maneuver.model_validate(entry))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "entry"
            name = entry.get("name", f"#{i + 1}") if isinstance(entry, dict) else f"#{i + 1}"
            raise CatalogueProblem(f"{path}: maneuver {name!r}: {where}: {err['msg']}") from None
    return tuple(result)


@cache
def catalogue() -> tuple[Maneuver, ...]:
    """The shipped catalogue (empty if the file is broken: the fight still runs)."""
    try:
        return load_catalogue()
    except CatalogueProblem:
        return ()


@cache
def basic_maneuvers() -> tuple[Maneuver, ...]:
    return tuple(m for m in catalogue() if m.basic)


def find(name: str) -> Maneuver | None:
    key = name.strip().lower()
    for m in catalogue():
        if m.name.lower() == key:
            return m
    return None
