"""The registry of rulesets: every ruleset, built in or installed, is found through the
``fightdesk.rulesets`` entry-point group (docs/rulesets/README.md#adding-a-ruleset).

An entry point names a ruleset's registration, a :class:`RulesetInfo` kept in its
package's ``__init__`` (cheap to import). The registration names the ruleset's parts,
in modules of the same names in every ruleset package:

- ``model``: the data classes a fight file holds (``SHEET``, ``STATUS``, ``OPTIONS``,
  ``ROUND``);
- ``rules``, ``views``, ``autopilot``: the classes of its three parts, as
  ``"module:Class"`` inside the package (:class:`~fightdesk.engine.ruleset.Rules`,
  :class:`~fightdesk.engine.ruleset.Views`, :class:`~fightdesk.engine.ruleset.Autopilot`);
  :func:`parts` builds them, kept as one :class:`~fightdesk.engine.ruleset.Ruleset`
  record;
- ``odds_cli`` (optional): its part of ``fightdesk odds``;
- the editor's sections and catalogue and the library's Health column, as fields here.

Every other list of rulesets (the session models' unions, ``fightdesk rulesets``, the New
Fight question, the library's New) is made from :func:`registered`. A plugin that fails
to import is named in one line (:data:`BROKEN`) and left out; the others still work.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

GROUP = "fightdesk.rulesets"


class RulesetInfo(NamedTuple):
    """A ruleset's registration: its id, title, one line on what it is, its package and
    the fields the editor and the library read without loading its rules."""

    id: str
    title: str
    blurb: str
    package: str
    # Menus list rulesets by this, then by id (the built-ins first, in their order).
    order: int = 100
    # The library's Health column: (status field, sheet field of its full rating).
    health: tuple[str, str] = ("", "")
    # The fighter editor's sheet sections: (title, field names) in order; any field not
    # named still gets a widget, in an "Other" section.
    sections: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # "module:function" giving the editable catalogue the editor's tables offer ("": none).
    catalogue: str = ""
    # True when the package has an ``odds_cli`` module (its part of ``fightdesk odds``).
    odds: bool = False
    # The classes of the ruleset's parts, "module:Class" inside the package: the rules
    # (engine.ruleset.Rules), the views built with them (Views), the autopilot built with
    # both (Autopilot). A registration must name all three.
    rules: str = ""
    views: str = ""
    autopilot: str = ""

    @property
    def data_module(self) -> str:
        """Sheet, status, options and round state (the classes a session file holds)."""
        return f"{self.package}.model"

    @property
    def rules_module(self) -> str:
        """The module of the ruleset's rules (the part the others are built with)."""
        return f"{self.package}.{self.rules.partition(':')[0]}"

    def part(self, name: str) -> tuple[str, str]:
        """(module, class) of one part ("rules", "views" or "autopilot")."""
        module, _, cls = str(getattr(self, name)).partition(":")
        return f"{self.package}.{module}", cls

    @property
    def odds_module(self) -> str:
        return f"{self.package}.odds_cli"


# The built-ins as pyproject.toml declares them; read only when the installed metadata
# of fightdesk names none (an install made before the group existed). A test checks
# that the two agree.
BUILT_IN_POINTS: tuple[tuple[str, str], ...] = (
    ("street-fighter", "fightdesk.engine.rulesets.street_fighter:RULESET"),
    ("d100", "fightdesk.engine.rulesets.d100:RULESET"),
    ("roll-under", "fightdesk.engine.rulesets.roll_under:RULESET"),
    ("ashes", "fightdesk.engine.rulesets.ashes:RULESET"),
)

# The ruleset of a fight or fighter written before files named their ruleset.
OLDEST = "street-fighter"

# The parts every registration names, in the order they are built.
PARTS: tuple[str, ...] = ("rules", "views", "autopilot")

# Plugins that failed to load: (entry-point name, one line saying why).
BROKEN: list[tuple[str, str]] = []
_FOUND: dict[str, RulesetInfo] | None = None


def _load_point(value: str) -> Any:
    module, _, attr = value.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attr) if attr else found


def _discover() -> dict[str, RulesetInfo]:
    from importlib.metadata import entry_points

    points = [(p.name, p.value) for p in entry_points(group=GROUP)]
    if not any(value.startswith("fightdesk.") for _, value in points):
        points = list(BUILT_IN_POINTS) + points
    found: dict[str, RulesetInfo] = {}
    for name, value in points:
        try:
            registration = _load_point(value)
            if not isinstance(registration, RulesetInfo):
                raise TypeError(f"{value} is not a RulesetInfo")
            if registration.id in found:
                raise ValueError(f"the id {registration.id!r} is taken")
            unnamed = [p for p in PARTS if ":" not in getattr(registration, p)]
            if unnamed:
                raise ValueError(f"names no {' or '.join(unnamed)} part (\"module:Class\")")
            data = importlib.import_module(registration.data_module)
            for part in ("SHEET", "STATUS", "OPTIONS", "ROUND"):
                getattr(data, part)
        except Exception as exc:
            line = f"ruleset plugin {name!r} ({value}) left out: {type(exc).__name__}: {exc}"
            BROKEN.append((name, line))  # shown by `fightdesk rulesets` and the window
            continue
        found[registration.id] = registration
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def registered() -> dict[str, RulesetInfo]:
    """Every ruleset found, by id, in menu order (found once per process)."""
    global _FOUND
    if _FOUND is None:
        _FOUND = _discover()
    return _FOUND


def known_ids() -> tuple[str, ...]:
    return tuple(registered())


def missing_line(ruleset_id: str) -> str:
    """The one line for a ruleset id that is not there: a plugin that failed to load, or
    one not installed."""
    return broken_line(ruleset_id) or (
        f"unknown ruleset id {ruleset_id!r} (known: {', '.join(known_ids())})")


def broken_line(ruleset_id: str) -> str:
    """The line saying why an installed plugin of this id was left out ("": none was)."""
    registered()
    return next((line for name, line in BROKEN if name == ruleset_id), "")


def info(ruleset_id: str) -> RulesetInfo:
    """The registration of a ruleset; KeyError gives the one line saying why not."""
    try:
        return registered()[ruleset_id]
    except KeyError:
        raise KeyError(missing_line(ruleset_id)) from None


def data_classes(ruleset_id: str) -> tuple[Any, Any, Any, Any]:
    """(Sheet, Status, Options, Round) of a ruleset, from its data module."""
    module = importlib.import_module(info(ruleset_id).data_module)
    return module.SHEET, module.STATUS, module.OPTIONS, module.ROUND


def part_class(registration: RulesetInfo, name: str) -> Any:
    """The class a registration names for one part."""
    module, cls = registration.part(name)
    return getattr(importlib.import_module(module), cls)


def parts(ruleset_id: str) -> tuple[Any, Any, Any]:
    """The parts of a registered ruleset, built: its rules, the views reading them, the
    autopilot reading both (engine.ruleset.get_ruleset keeps them as one record).
    KeyError: no such ruleset."""
    found = info(ruleset_id)
    rules = part_class(found, "rules")()
    views = part_class(found, "views")(rules)
    return rules, views, part_class(found, "autopilot")(rules, views)


def health_of(fighter: Any) -> tuple[int | None, int | None]:
    """(now, full) of a fighter's health by its ruleset's own fields (None: none)."""
    found = registered().get(str(getattr(fighter.sheet, "ruleset", "")))
    now_field, full_field = found.health if found is not None else ("", "")
    now = getattr(fighter.status, now_field, None) if now_field else None
    full = getattr(fighter.sheet, full_field, None) if full_field else None
    return now, full


__all__ = [
    "BROKEN",
    "GROUP",
    "OLDEST",
    "PARTS",
    "RulesetInfo",
    "broken_line",
    "data_classes",
    "health_of",
    "info",
    "known_ids",
    "missing_line",
    "part_class",
    "parts",
    "registered",
]
