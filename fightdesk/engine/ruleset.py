"""The ruleset interface that all four rule texts fit, and the views it gives the UI.

A ruleset owns its data classes (sheet, status, options, round state), handles the
commands of its rules through a :class:`Context`, and describes the fight for the
widgets as plain data (timeline, cards, interrupt stack, action forms, previews), so
the UI shows any ruleset without knowing its rules. See docs/ARCHITECTURE.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, NoReturn

from .changes import Path, RuleViolation, Transaction
from .dice import DiceTray, Roll

if TYPE_CHECKING:
    from .base import Decision
    from .commands import Command
    from .model import Encounter, Event, Fighter


class Context:
    """What a rule handler gets: the encounter to read, and the ways to change it."""

    def __init__(self, encounter: Encounter, tx: Transaction, dice: DiceTray) -> None:
        self.enc = encounter
        self.tx = tx
        self.dice = dice
        self.events: list[Event] = []
        self.summary = ""
        self.opens_step = False

    def say(self, text: str, *, fighter_id: str | None = None, kind: str = "note",
            roll: Roll | None = None, **data: Any) -> None:
        from .model import Event

        self.events.append(Event(text=text, fighter_id=fighter_id, kind=kind, roll=roll, data=data))

    def roll(self, count: int, sides: int, *, who: str = "", purpose: str = "",
             fighter_id: str | None = None) -> Roll:
        """Roll (or take the typed-in faces) and log it; set ``outcome`` before returning
        it to the GM if the rule reads more than the faces."""
        record = self.dice.roll(count, sides, who=who, purpose=purpose)
        self.say(record.describe(), fighter_id=fighter_id, kind="roll", roll=record)
        return record

    def set(self, target: Path, key: str, value: Any) -> None:
        self.tx.set(target, key, value)

    def fail(self, message: str) -> NoReturn:
        raise RuleViolation(message)


# --- views: plain data the widgets render ------------------------------------------------
# Named tuples rather than frozen dataclasses: as light to use, and made six times faster,
# which the start-up feels (ten of them load before the first fight is shown).

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
    """The round as the ruleset lays it out: phases 10..1, or turn-order slots."""

    columns: tuple[str, ...]
    lanes: tuple[Lane, ...]
    current_column: int | None = None
    caption: str = ""


class Resource(NamedTuple):
    label: str
    value: int
    maximum: int | None = None
    tooltip: str = ""


class Card(NamedTuple):
    """What a fighter card shows."""

    fighter_id: str
    title: str
    side: str
    health: int
    health_max: int
    resources: tuple[Resource, ...] = ()
    conditions: tuple[str, ...] = ()
    dice: tuple[str, ...] = ()
    acting: bool = False
    out: bool = False
    group_size: int = 1
    # The fighter field a "damage/heal" override on the card sets.
    health_field: str = "status.health"


class StackRow(NamedTuple):
    """One pending move of the interrupt (reaction) stack, in resolution order."""

    id: str
    fighter_id: str
    fighter: str
    action: str
    die: str
    speed: int | None
    ep_spent: int
    cost: str
    note: str = ""


class FormField(NamedTuple):
    """One input of an action form; the UI picks a widget by ``kind``."""

    name: str
    label: str
    kind: Literal["choice", "number", "flag", "text"]
    choices: tuple[tuple[str, str], ...] = ()
    default: Any = None
    minimum: int = 0
    maximum: int = 0
    tooltip: str = ""


class ActionForm(NamedTuple):
    """An action the fighter can take now (act, interrupt, concentrate...), as a form."""

    id: str
    title: str
    fields: tuple[FormField, ...] = ()
    shortcut: str = ""
    enabled: bool = True
    reason: str = ""


class Odds(NamedTuple):
    """An exact chance shown before a roll, e.g. "at least one success": 3/4."""

    label: str
    chance: Fraction

    @property
    def percent(self) -> str:
        return f"{float(self.chance) * 100:.1f}%"


class Preview(NamedTuple):
    """What the action dialog shows before the roll: plain lines, exact odds, or why not."""

    lines: tuple[str, ...] = ()
    odds: tuple[Odds, ...] = ()
    error: str | None = None


@dataclass
class RoundControls:
    """Which round controls make sense now, with their labels."""

    can_start_fight: bool = False
    can_start_round: bool = False
    can_next_step: bool = False
    can_end_round: bool = False
    next_step_label: str = "Next phase"
    status: str = ""
    extra: dict[str, bool] = field(default_factory=dict)


class Ruleset:
    """Base class of the four rulesets. Subclasses set the class attributes and override
    the hooks; the defaults describe a fight with no rules at all."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # Status fields that outlast one fight (injuries, spent willpower...): carried from the
    # campaign library into a fight and written back after it.
    lasting_status: ClassVar[tuple[str, ...]] = ()

    # --- rules -----------------------------------------------------------------------
    def handle(self, ctx: Context, command: Command) -> None:
        """Apply one ruleset command; raise RuleViolation when the rules forbid it."""
        raise RuleViolation(f"{self.title or self.id} has no rule for {command.kind!r}")

    def pending(self, enc: Encounter) -> Decision | None:
        """The decision the engine is waiting for, if any."""
        return None

    def step_open(self, enc: Encounter) -> bool:
        """True while a compound action (an interrupt stack) is being resolved: the
        commands until it closes join one undo step."""
        return False

    def is_out(self, fighter: Fighter) -> bool:
        """True when the fighter is out of the fight (greyed on cards and timeline)."""
        return False

    def on_fighter_added(self, ctx: Context, fighter_id: str) -> None:
        """Hook for adding a fighter mid-fight (e.g. giving them their status)."""

    def check_state(self, enc: Encounter) -> list[tuple[str, str]]:
        """What a loaded fight must hold for these rules that its field types cannot
        say (every id the round state names exists, every limit the rules assume):
        ``(field path from the encounter, problem)`` pairs, empty when all is sound.
        A file with a problem is refused instead of failing at the next action."""
        return []

    # --- views -----------------------------------------------------------------------
    def timeline(self, enc: Encounter) -> Timeline:
        lanes = tuple(
            Lane(id=fid, title=enc.fighters[fid].name, fighter_ids=(fid,), chips=())
            for fid in enc.order
        )
        return Timeline(columns=(), lanes=lanes)

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        f = enc.fighters[fighter_id]
        return Card(fighter_id=fighter_id, title=f.name, side=f.side, health=0, health_max=0)

    def cards(self, enc: Encounter) -> list[tuple[str, Card]]:
        """Every fighter's card, in order. A ruleset may override this to share work
        between the cards (the UI refreshes them all on every change)."""
        return [(fid, self.card(enc, fid)) for fid in enc.order if fid in enc.fighters]

    def stack(self, enc: Encounter) -> tuple[StackRow, ...]:
        return ()

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        return ()

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        return Preview(error="no such action")

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
        raise RuleViolation(f"no action {form_id!r}")

    def round_controls(self, enc: Encounter) -> RoundControls:
        return RoundControls()

    def describe_state(self, enc: Encounter) -> str:
        """One line for the status bar: round, phase or turn."""
        return f"Round {enc.round}"


RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    RULESETS[ruleset.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in RULESETS:
        from .rulesets import load

        load(ruleset_id)  # a built-in ruleset registers itself on first use
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise RuleViolation(f"unknown ruleset id {ruleset_id!r}") from None
