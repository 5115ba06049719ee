"""What the window shows of a fight at rest, as plain data: the cards and the timeline
every ruleset gives (ruleset.py), and the fight's picture that a start-up shows before the
rules are loaded (docs/startup.md, "The fight shown before the rules load").

Nothing here imports pydantic or the engine's models: a start-up reads a picture with
this module alone, and the engine arrives after the window shows it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from .bidi import isolating, unchanged

if TYPE_CHECKING:
    from pathlib import PurePath

    from .engine import Engine
    from .model import Encounter
    from .ruleset import RoundControls, Ruleset

ChipState = Literal["ready", "held", "spent", "lost", "converted", "acting", "done", "waiting"]


class Chip(NamedTuple):
    """A mark on the timeline: an action die on its phase, or a fighter's turn slot."""

    id: str
    fighter_id: str
    column: int
    label: str
    state: ChipState
    tooltip: str = ""
    clickable: bool = False


class Lane(NamedTuple):
    """One row of the timeline: a fighter, or a compact lane for a group of mooks."""

    id: str
    title: str
    fighter_ids: tuple[str, ...]
    chips: tuple[Chip, ...]
    compact: bool = False
    out: bool = False


class Timeline(NamedTuple):
    """The round as the ruleset lays it out: phases 10..1, or turn-order slots.

    ``movable``: the GM may drag a lane to another place in the order (turn order); the
    ruleset then says whether the move is allowed."""

    columns: tuple[str, ...]
    lanes: tuple[Lane, ...]
    current_column: int | None = None
    caption: str = ""
    movable: bool = False
    # The ruleset's id of each column (turn-order sections), for a drag to name its place.
    column_ids: tuple[str, ...] = ()


class Resource(NamedTuple):
    label: str
    value: int
    maximum: int | None = None
    tooltip: str = ""


class ConditionView(NamedTuple):
    """One condition on a card: its name and what is left of it ("2 rounds", "until end
    of Kaede's next turn"). The GM's own conditions are ``removable`` (``position`` is
    their place in ``status.conditions``; not ``index``, which a tuple already has);
    those the rules derive end by the rules."""

    name: str
    left: str = ""
    removable: bool = False
    position: int | None = None
    tooltip: str = ""

    @property
    def text(self) -> str:
        return f"{self.name} · {self.left}" if self.left else self.name


class Card(NamedTuple):
    """What a fighter card shows."""

    fighter_id: str
    title: str
    side: str
    health: int
    health_max: int
    resources: tuple[Resource, ...] = ()
    conditions: tuple[ConditionView, ...] = ()
    dice: tuple[str, ...] = ()
    acting: bool = False
    out: bool = False
    group_size: int = 1
    # The fighter field a "damage/heal" override on the card sets.
    health_field: str = "status.health"
    # Hidden from the players (set by the window's fighters model, not by the ruleset).
    hidden: bool = False


class Forward(NamedTuple):
    """The round bar's one way forward (F4) and its Pass button, as the fight stands."""

    #: What it does: "start-fight", "start-round", "act", "next-step", "end-round", or ""
    #: (nothing: the label says what the fight waits for).
    what: str
    label: str
    #: Whose turn "act" acts with.
    fighter: str = ""
    can_pass: bool = False
    pass_text: str = "Pass"


def can_act(ruleset: Ruleset, enc: Encounter, fighter_id: str) -> bool:
    """Whether the fighter has an action it can take now (a form of the act role that
    is not refused); True for a ruleset with no act forms."""
    forms = [f for f in ruleset.views.action_forms(enc, fighter_id) if f.role == "act"]
    return not forms or any(f.enabled for f in forms)


def forward_of(enc: Encounter, controls: RoundControls, *, pending: bool, rolling: bool,
               fallback: str, ruleset: Ruleset | None = None) -> Forward:
    """What the fight needs next: start the fight or the round, act with whoever's turn
    it is, the next step, or end the round; else what it waits for (an answer, a roll, the
    stack). ``fallback``: the label when the ruleset says nothing. Given the ``ruleset``,
    a fighter who cannot act is skipped: the way forward is the next step."""
    anyone = bool(enc.order)
    actor = controls.actor if controls.actor in enc.fighters else None
    if actor is not None and ruleset is not None and controls.can_next_step \
            and not can_act(ruleset, enc, actor):
        actor = None
    what, label, fighter = "", "", ""
    if not anyone:
        label = "Add fighters first"
    elif controls.can_start_fight:
        what, label = "start-fight", "Start the fight"
    elif controls.can_start_round:
        what, label = "start-round", f"Start round {enc.round + 1}"
    elif actor is not None and controls.can_next_step:
        what, fighter = "act", actor
        label = f"Act: {enc.fighters[actor].name}\N{HORIZONTAL ELLIPSIS}"
    elif controls.can_next_step:
        what, label = "next-step", controls.next_step_label
    elif controls.can_end_round:
        what, label = "end-round", f"End round {enc.round}"
    elif pending:
        label = "Answer the question first"
    elif rolling:
        label = "Make the roll first"  # it waits on the roll panel
    elif controls.extra.get("resolve-next"):
        label = "Resolve the stack first"
    else:
        label = controls.status or fallback
    can_pass = actor is not None and controls.can_next_step
    return Forward(what, label, fighter, can_pass,
                   controls.next_step_label if can_pass else "Pass")


class FightPicture(NamedTuple):
    """The fight as the window showed it at rest: what a start-up paints while the rules
    load (a fraction of a second), then replaces with the live fight. Never a source of
    truth: nothing is read from it but what is painted."""

    #: The window title's fight: the file's name, or the fight's name and "(not saved)".
    title: str
    unsaved: bool
    #: The round bar: the large line (round, phase or turn) and the small status line.
    state: str
    status: str
    next_step_label: str
    can_start_fight: bool
    can_start_round: bool
    can_next_step: bool
    can_end_round: bool
    #: The buttons of a card: (role, the ruleset's word for it).
    card_roles: tuple[tuple[str, str], ...]
    cards: tuple[Card, ...]
    #: (fighter id, group id, group name) of each fighter in a group.
    groups: tuple[tuple[str, str, str], ...]
    timeline: Timeline
    forward: Forward
    can_undo: bool = False
    can_redo: bool = False


def fight_title(name: str, path: PurePath | None) -> str:
    """The window title's fight: its file's name, or the fight's own name and "(not
    saved)" for a fight without a file."""
    return path.name if path is not None else f"{name} (not saved)"


def fighter_cards(ruleset: Ruleset, enc: Encounter) -> tuple[list[tuple[str, Card]], dict[str, tuple[str, str]]]:
    """Every fighter's card keyed by fighter, hidden ones marked so, and each grouped
    fighter's (group id, group name): the window's cards, live or in a picture."""
    # One pass over the fighters (200 in a big fight, on every click).
    groups: dict[str, tuple[str, str]] = {}
    hidden = False
    for fid, f in enc.fighters.items():
        if f.group:
            groups[fid] = (f.group, enc.groups[f.group].name if f.group in enc.groups else f.group)
        hidden = hidden or f.hidden
    cards = ruleset.views.cards(enc)
    if hidden:
        cards = [(fid, card._replace(hidden=True) if enc.fighters[fid].hidden else card)
                 for fid, card in cards]
    isolate = names_isolated(enc)
    if isolate is not unchanged:
        cards = [(fid, _card_isolated(card, isolate)) for fid, card in cards]
        groups = {fid: (group, isolate(name)) for fid, (group, name) in groups.items()}
    return cards, groups


def names_isolated(enc: Encounter) -> Callable[[str], str]:
    """Isolates the fighters' and groups' names in a text of this fight (bidi.py): a name
    written right to left, or with direction controls, keeps them to itself."""
    return isolating([f.name for f in enc.fighters.values()]
                     + [g.name for g in enc.groups.values()])


def _card_isolated(card: Card, isolate: Callable[[str], str]) -> Card:
    return card._replace(title=isolate(card.title), conditions=tuple(
        c._replace(name=isolate(c.name), left=isolate(c.left), tooltip=isolate(c.tooltip))
        for c in card.conditions))


def shown_timeline(ruleset: Ruleset, enc: Encounter) -> Timeline:
    """The ruleset's timeline with every name in it isolated (:func:`names_isolated`)."""
    timeline = ruleset.views.timeline(enc)
    isolate = names_isolated(enc)
    if isolate is unchanged:
        return timeline
    lanes = tuple(lane._replace(title=isolate(lane.title), chips=tuple(
        chip._replace(label=isolate(chip.label), tooltip=isolate(chip.tooltip))
        for chip in lane.chips)) for lane in timeline.lanes)
    return timeline._replace(lanes=lanes, caption=isolate(timeline.caption))


def status_line(state: str, controls: RoundControls) -> str:
    """The small line beside the round's buttons: what the fight waits for (the ruleset's
    status), unless the large line already says it."""
    return controls.status if controls.status and controls.status not in state else ""


def picture_of(engine: Engine, title: str, unsaved: bool) -> FightPicture:
    """The fight as the window shows it now, at rest."""
    ruleset, enc = engine.ruleset, engine.encounter
    cards, groups = fighter_cards(ruleset, enc)
    controls = ruleset.views.round_controls(enc)
    state = ruleset.views.describe_state(enc)
    anyone = bool(enc.order)
    return FightPicture(
        title=title, unsaved=unsaved, state=state, status=status_line(state, controls),
        next_step_label=controls.next_step_label,
        can_start_fight=controls.can_start_fight and anyone,
        can_start_round=controls.can_start_round and anyone,
        can_next_step=controls.can_next_step and anyone,
        can_end_round=controls.can_end_round,
        card_roles=tuple((role, ruleset.views.role_labels.get(role, role.title()))
                         for role in ruleset.views.card_roles),
        cards=tuple(card for _, card in cards),
        groups=tuple((fid, group, name) for fid, (group, name) in groups.items()),
        timeline=shown_timeline(ruleset, enc),
        forward=forward_of(enc, controls, pending=engine.pending() is not None,
                           rolling=ruleset.views.roll_view(enc) is not None,
                           fallback=controls.next_step_label, ruleset=ruleset),
        can_undo=engine.can_undo(), can_redo=engine.can_redo(),
    )


class NotAPicture(ValueError):
    """Plain data that is not a picture of this version (the picture is then not shown)."""


def to_plain(view: Any) -> Any:
    """A view as JSON-ready data: named tuples as objects, tuples as lists."""
    if isinstance(view, tuple):
        fields = getattr(view, "_fields", None)
        if fields is not None:
            return {name: to_plain(value) for name, value in zip(fields, view, strict=True)}
        return [to_plain(item) for item in view]
    return view


def picture_from_plain(data: Any) -> FightPicture:
    """Read a picture back from :func:`to_plain`'s data, checking every field's type;
    raises :class:`NotAPicture` on anything else."""
    picture = _read(FightPicture, data, "picture")
    assert isinstance(picture, FightPicture)
    return picture


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _read(kind: Any, data: Any, where: str) -> Any:
    """``data`` as a value of type ``kind`` (the annotations used by the views above)."""
    if isinstance(kind, type) and issubclass(kind, tuple) and hasattr(kind, "_fields"):
        if not isinstance(data, dict):
            raise NotAPicture(f"{where}: expected an object")
        hints = _hints(kind)
        defaults = kind._field_defaults  # type: ignore[attr-defined]
        values = {}
        for name in kind._fields:
            if name in data:
                values[name] = _read(hints[name], data[name], f"{where}.{name}")
            elif name in defaults:
                values[name] = defaults[name]
            else:
                raise NotAPicture(f"{where}: {name} is missing")
        return kind(**values)
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind in (str, bool):
        if type(data) is not kind:
            raise NotAPicture(f"{where}: expected {kind.__name__}")
        return data
    if kind is int:
        if type(data) is not int:
            raise NotAPicture(f"{where}: expected a whole number")
        return data
    if origin is Literal:
        if data not in args or not isinstance(data, str):
            raise NotAPicture(f"{where}: not one of {', '.join(map(str, args))}")
        return data
    if origin is tuple:
        if not isinstance(data, list):
            raise NotAPicture(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(data) != len(args):
            raise NotAPicture(f"{where}: expected {len(args)} items")
        return tuple(_read(arg, item, f"{where}[{i}]")
                     for i, (arg, item) in enumerate(zip(args, data, strict=True)))
    if origin in (typing.Union, _UnionType) and type(None) in args:
        if data is None:
            return None
        (inner,) = (arg for arg in args if arg is not type(None))
        return _read(inner, data, where)
    raise NotAPicture(f"{where}: cannot read a {kind!r}")


_UnionType = type(int | None)
