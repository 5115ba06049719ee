"""The ruleset interface that all four rule texts fit, and the views it gives the UI.

A ruleset owns its data classes (sheet, status, options, round state), handles the
commands of its rules through a :class:`Context`, and describes the fight for the
widgets as plain data (timeline, cards, interrupt stack, action forms, previews), so
the UI shows any ruleset without knowing its rules. See docs/ARCHITECTURE.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, NoReturn

from .changes import Path, RuleViolation, Transaction
from .derived import Reads, per_fighter
from .dice import DiceTray, Roll

# The views the window shows at rest live where a start-up reads them without the engine
# (views.py); named here too, as every ruleset makes them.
from .views import Card, Lane, Timeline
from .views import Chip as Chip
from .views import ChipState as ChipState
from .views import ConditionView as ConditionView
from .views import Resource as Resource

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

    from .base import Decision
    from .commands import Command
    from .model import Encounter, Event, Fighter
    from .pending_roll import PendingRoll

    # The exact chances of a roll about to be made, worked out only if it is logged.
    OddsNow = Callable[[], Sequence["Odds"]]


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
             fighter_id: str | None = None, typed: list[int] | None = None,
             odds: OddsNow | None = None) -> Roll:
        """Roll (or take the typed-in faces) and log it; set ``outcome`` before returning
        it to the GM if the rule reads more than the faces. ``typed``: a player's faces for
        this roll given another way (a decision's row). ``odds``: the exact chances the GM
        saw before the roll, logged with it (asked only when the roll is logged)."""
        chances = _logged_odds(odds)
        record = self.dice.roll(count, sides, who=who, purpose=purpose, typed=typed)
        self.say(record.describe(), fighter_id=fighter_id, kind="roll", roll=record, **chances)
        return record

    def flip(self, count: int, *, who: str = "", purpose: str = "",
             fighter_id: str | None = None, odds: OddsNow | None = None) -> Roll:
        """Flip coins (or take the typed-in heads and tails) and log them flip by flip."""
        chances = _logged_odds(odds)
        record = self.dice.flip(count, who=who, purpose=purpose)
        self.say(record.describe(), fighter_id=fighter_id, kind="roll", roll=record, **chances)
        return record

    def set(self, target: Path, key: str, value: Any) -> None:
        self.tx.set(target, key, value)

    def fail(self, message: str) -> NoReturn:
        raise RuleViolation(message)


# A rule applying one command: ``handler(ctx, command)`` (:meth:`Rules.handlers`).
Handler = Callable[[Context, Any], None]


class QuietContext(Context):
    """A context that makes no lines for the log (the lean engine of the simulator):
    a rule's ``say`` is dropped, its rolls still come from the dice tray."""

    def __init__(self, encounter: Encounter, tx: Transaction, dice: DiceTray) -> None:
        super().__init__(encounter, tx, dice)
        # A rule's write goes straight to the transaction (``Context.set`` only passes it
        # on): one call less for each of the ~500 writes of a simulated fight.
        self.set = tx.set  # type: ignore[method-assign]

    def say(self, text: str, *, fighter_id: str | None = None, kind: str = "note",
            roll: Roll | None = None, **data: Any) -> None:
        return None

    def roll(self, count: int, sides: int, *, who: str = "", purpose: str = "",
             fighter_id: str | None = None, typed: list[int] | None = None,
             odds: OddsNow | None = None) -> Roll:
        return self.dice.roll(count, sides, who=who, purpose=purpose, typed=typed)

    def flip(self, count: int, *, who: str = "", purpose: str = "",
             fighter_id: str | None = None, odds: OddsNow | None = None) -> Roll:
        return self.dice.flip(count, who=who, purpose=purpose)


def _logged_odds(odds: OddsNow | None) -> dict[str, Any]:
    """A roll event's ``odds`` data: [label, exact fraction] pairs, or nothing."""
    chances = odds() if odds is not None else ()
    return {"odds": [[o.label, o.exact] for o in chances]} if chances else {}


# --- views: plain data the widgets render ------------------------------------------------
# Named tuples rather than frozen dataclasses: as light to use, and made six times faster,
# which the start-up feels (ten of them load before the first fight is shown).

class StackRow(NamedTuple):
    """One pending move of the reaction stack, in resolution order; the column titles
    come from the ruleset (:attr:`Views.stack_columns`)."""

    id: str
    fighter_id: str
    fighter: str
    action: str
    source: str
    speed: int | None
    spent: int
    cost: str
    note: str = ""
    # What the move reacts to ("interrupts Kaede's Jab"), if anything.
    reacts_to: str = ""


class FormField(NamedTuple):
    """One input of an action form or a decision; the UI picks a widget by ``kind``."""

    name: str
    label: str
    kind: Literal["choice", "number", "flag", "text"]
    choices: tuple[tuple[str, str], ...] = ()
    default: Any = None
    minimum: int = 0
    maximum: int = 0
    tooltip: str = ""


FormRole = Literal["act", "react", "assist", "gm"]


def weapon_choice(value: Any) -> int | None:
    """A form's weapon field: a place on the fighter's sheet, or "none" (or nothing) for
    unarmed."""
    if value in (None, "", "none"):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RuleViolation(f"no weapon {value!r}") from None


class ActionForm(NamedTuple):
    """An action the fighter can take now (act, interrupt, concentrate...), as a form.

    ``role`` says what kind of action it is: the card's buttons and the stack dialog's
    "Add..." open the forms of their role, whatever the ruleset calls them."""

    id: str
    title: str
    fields: tuple[FormField, ...] = ()
    shortcut: str = ""
    enabled: bool = True
    reason: str = ""
    role: FormRole = "act"
    # The confirm button's word: "Roll", "Spend", "Convert"... so a form that spends
    # points never reads "Roll". Empty: "Roll" when the preview shows odds, else "Apply".
    verb: str = ""
    # False for an action that rolls nothing (holding a turn): the action dialog then
    # offers no dice to roll or type in.
    rolls: bool = True
    # True for an action whose roll waits on the roll panel (an attack others may help
    # or defend against before the dice): the dice are rolled or typed in there, so the
    # action dialog offers none of its own.
    roll_waits: bool = False


class Odds(NamedTuple):
    """An exact chance shown before a roll, e.g. "at least one success": 3/4."""

    label: str
    chance: Fraction

    @property
    def percent(self) -> str:
        return f"{float(self.chance) * 100:.1f}%"

    @property
    def rounded(self) -> str:
        """Whole percent for a glance ("65%"): a result that can happen never reads 0%
        or 100%, and only a certain one (or an impossible one) does; below one percent it
        reads "<1%" and above 99 ">99%" (the exact fraction says how much)."""
        if self.chance <= 0:
            return "0%"
        if self.chance >= 1:
            return "100%"
        if self.chance < Fraction(1, 100):
            return "<1%"
        if self.chance > Fraction(99, 100):
            return ">99%"
        whole = int(self.chance * 100 + Fraction(1, 2))
        return f"{whole}%"

    @property
    def exact(self) -> str:
        """The exact chance as a fraction ("3/4"; "1" or "0" when certain)."""
        if self.chance in (0, 1):
            return str(int(self.chance))
        return f"{self.chance.numerator}/{self.chance.denominator}"


class Preview(NamedTuple):
    """What the action dialog shows before the roll: plain lines, exact odds, or why not."""

    lines: tuple[str, ...] = ()
    odds: tuple[Odds, ...] = ()
    error: str | None = None


class ContributionRow(NamedTuple):
    """One contribution already on a waiting roll."""

    id: int
    who: str
    label: str
    amount: int
    cost: str = ""


class ContributionOption(NamedTuple):
    """Something a fighter may still add to a waiting roll (an assist, a skill, speed)."""

    fighter_id: str
    fighter: str
    kind: str
    label: str
    minimum: int = 0
    maximum: int = 0
    default: int = 0
    cost: str = ""
    # The exact chance the roll succeeds with this option ("19/50"), where that is known.
    chance: str = ""


class RollView(NamedTuple):
    """A roll waiting for contributions, as the roll panel shows it."""

    id: int
    title: str
    roller: str
    by_player: bool
    dice: str
    total_line: str
    odds: tuple[Odds, ...] = ()
    contributions: tuple[ContributionRow, ...] = ()
    options: tuple[ContributionOption, ...] = ()
    coins: bool = False
    # The options are alternatives (a d100 defense): one is picked, and the pick makes
    # the roll; otherwise each option adds to the roll.
    one_choice: bool = False
    # What must be done before the roll can be made, in the GM's words (the Roll
    # button's tooltip while it is disabled); "": it can be made now.
    blocked: str = ""


@dataclass
class RoundControls:
    """Which round controls make sense now, with their labels."""

    can_start_fight: bool = False
    can_start_round: bool = False
    can_next_step: bool = False
    can_end_round: bool = False
    next_step_label: str = "Next"
    status: str = ""
    extra: dict[str, bool] = field(default_factory=dict)
    # What ending the round now would throw away, in the GM's words (unused dice of the
    # phases still to come...); the window asks before it ends the round. "": nothing.
    end_round_loses: str = ""
    # The fighter whose turn it is now: the next step would pass them by, so the
    # window's forward button offers their action instead (None: nobody's turn).
    actor: str | None = None


class LegalOption(NamedTuple):
    """One thing the table may do now (an action form, a reaction, an answer, a GM step)
    with every value its fields may take: ``spaces`` lists each field's values (number
    fields enumerated within their bounds), and ``build`` makes the command for one pick
    of them. Kept as spaces, not as the product, since one attack form alone has thousands
    of combinations; ``size`` is the size of the product."""

    form_id: str
    fighter_id: str
    spaces: tuple[tuple[str, tuple[Any, ...]], ...]
    build: Callable[[dict[str, Any]], Command]

    @property
    def size(self) -> int:
        total = 1
        for _, values in self.spaces:
            total *= max(1, len(values))
        return total

    def values_at(self, index: int) -> dict[str, Any]:
        """The field values of combination ``index`` (0 .. size - 1), mixed-radix."""
        values: dict[str, Any] = {}
        for field_name, options in self.spaces:
            if not options:
                continue
            index, pick = divmod(index, len(options))
            values[field_name] = options[pick]
        return values

    def command_at(self, index: int) -> Command:
        return self.build(self.values_at(index))


class Rules:
    """A ruleset's rules: commands in, changes out. Subclasses set the class attributes
    and override the hooks; the defaults describe a fight with no rules at all. The
    engine core, the simulator and the storage checks call only this part for the
    rules; what the window shows is the :class:`Views` part's."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    # Status fields that outlast one fight (injuries, spent willpower...): carried from the
    # campaign library into a fight and written back after it.
    lasting_status: ClassVar[tuple[str, ...]] = ()
    # What Quick Add asks of a one-off fighter besides its health: sheet fields, and
    # "list.field" for the first row of a list (a weapon's class, a skill's rating).
    quick_fields: ClassVar[tuple[str, ...]] = ()
    # False while the ruleset's rules are not built: its fights open and take fighters,
    # but cannot be started or played.
    rules_built: ClassVar[bool] = True
    # The conditions the rule text names (offered when the GM adds one; any other name
    # may be typed), and when a condition lasting rounds counts down unless told
    # otherwise: "turn-start", "turn-end" or "round-end" (engine/conditions.py).
    condition_names: ClassVar[tuple[str, ...]] = ()
    condition_tick: ClassVar[str] = "round-end"
    # False for a ruleset without fighter turns (street-fighter's phases): its conditions
    # last rounds counted at the round's end, or until removed.
    condition_turns: ClassVar[bool] = True

    @property
    def not_built_line(self) -> str:
        return f"{self.title or self.id}: rules not built yet"

    def handlers(self) -> dict[str, Handler]:
        """The commands these rules apply: each command's ``kind`` and the handler that
        applies it, ``handler(ctx, command)``. Every ruleset dispatches through this one
        table (a subclass adds its own entries to its base's); :meth:`handle` reads it."""
        return {}

    def handle(self, ctx: Context, command: Command) -> None:
        """Apply one ruleset command by its handler; raise RuleViolation when the rules
        forbid it, or have no rule for it."""
        table = self.__dict__.get("_table")
        if table is None:  # made once, on the first command
            table = self._table = self.handlers()
        handler = table.get(command.kind)
        if handler is None:
            raise RuleViolation(f"{self.title or self.id} has no rule for {command.kind!r}")
        handler(ctx, command)

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

    def rested_pairs(self) -> dict[str, str]:
        """Each lasting status value and the sheet field holding its full rating (the
        fighter editor's "Now" values start there and "Fully rested" sets them from it):
        by default a value of the same name."""
        return {name: name for name in self.lasting_status}

    def rested_values(self, sheet: Any) -> dict[str, Any]:
        """A fresh status's values for a sheet: every lasting value at its full rating."""
        fields = type(sheet).model_fields
        return {name: getattr(sheet, name) for name in self.lasting_status if name in fields}

    def pending_roll(self, enc: Encounter) -> PendingRoll | None:
        """The roll others may still change before it is made (assists, defenses...)."""
        return None

    def roll_odds(self, enc: Encounter, roll: PendingRoll) -> tuple[Odds, ...]:
        """The exact chances of a pending roll with its contributions so far."""
        return ()

    def contribution_options(self, enc: Encounter,
                             roll: PendingRoll) -> tuple[ContributionOption, ...]:
        """What each fighter may still add to a pending roll."""
        return ()

    def roll_blocked(self, enc: Encounter, roll: PendingRoll) -> str:
        """What must be chosen before a waiting roll can be made ("": nothing): the
        window keeps its Roll button disabled until then."""
        return ""

    def turn_timer(self, enc: Encounter) -> int:
        """Seconds each turn may last (0: no timer); the window counts them down and
        sends a ``turn-timeout`` command when they run out."""
        return 0

    def next_up(self, enc: Encounter) -> list[str]:
        """The fighters due to act after the current one, in order (the player view says
        who is next); empty where the ruleset cannot tell ahead."""
        return []

    def timed_turn(self, enc: Encounter) -> tuple[str, int] | None:
        """The turn the timer runs on now: (its timeline chip id, its turn number)."""
        return None

    def check_command(self, enc: Encounter, command: Command) -> str | None:
        """Why a command cannot be applied now, before any rule runs (None: go on)."""
        if not self.rules_built and not command.core:
            return self.not_built_line
        return None

    def value_check(self, ctx: Context, fighter: Fighter, field: str,
                    value: Any) -> tuple[Any, str]:
        """The limit the rules hold a value the GM sets to, even as an override: the value
        to write and a line for the log when it was capped ("": as typed), or a refusal
        with ``ctx.fail`` (docs/rulesets/README.md#gm-changes)."""
        return value, ""

    def value_set(self, ctx: Context, fighter_id: str, field: str, before: Any,
                  after: Any) -> None:
        """The GM set a fighter's ``field`` ("status.hp", "sheet.level") from ``before``
        to ``after`` (already written): apply what the rules do after such a change (a
        health loss is damage: half-HP, serious wounds, out of the fight, stun), or
        refuse it with ``ctx.fail`` (docs/rulesets/README.md#gm-changes). Not called for
        a GM override."""

    def condition_rule(self, ctx: Context, fighter_id: str, name: str) -> bool:
        """The GM adds a condition named ``name``: True when it is a state of these rules
        and the rule has put it on (or ``ctx.fail`` says how it comes about), so it is not
        added as a plain condition (docs/rulesets/README.md#gm-changes)."""
        return False

    def on_fighter_added(self, ctx: Context, fighter_id: str) -> None:
        """Hook for adding a fighter mid-fight (e.g. giving them their status)."""

    def on_fighter_removed(self, ctx: Context, fighter_id: str) -> None:
        """Hook for a fighter the GM took out of the fight (already gone from
        ``enc.fighters``): what the round still holds of them (their turns) leaves it."""

    def check_state(self, enc: Encounter) -> list[tuple[str, str]]:
        """What a loaded fight must hold for these rules that its field types cannot
        say (every id the round state names exists, every limit the rules assume):
        ``(field path from the encounter, problem)`` pairs, empty when all is sound.
        A file with a problem is refused instead of failing at the next action."""
        return []

    def side_down(self, enc: Encounter) -> str:
        """The status line once one side has nobody standing ("" while both sides have
        someone standing, or the fight has one side only). No ruleset ends a fight by
        itself: the GM does (docs/rulesets/README.md#the-end-of-a-fight). PCs and allies
        are one side, enemies the other."""
        sides: set[bool] = set()  # True: the party's side
        standing: set[bool] = set()
        for fighter in enc.fighters.values():
            ours = fighter.side != "enemy"
            sides.add(ours)
            if ours not in standing and not self.is_out(fighter):
                standing.add(ours)
                if len(standing) == 2:
                    return ""
        if len(sides) < 2:
            return ""
        if standing == {True}:
            return "Every enemy is down"
        return "The whole party is down" if standing else "Everyone is down"


class Views:
    """A ruleset's views: the fight described as plain data for the widgets (timeline,
    cards, reaction stack, action forms, previews, round controls), and the command a
    filled-in form makes. Built with the :class:`Rules` it reads; it changes nothing."""

    # The column titles of the reaction stack (the fields of :class:`StackRow`).
    stack_columns: ClassVar[tuple[str, ...]] = (
        "Fighter", "Action", "Uses", "Speed", "Spent", "Cost")
    # The ruleset's words for the roles of its action forms (the card's buttons).
    role_labels: ClassVar[dict[str, str]] = {
        "act": "Act", "react": "React", "assist": "Assist", "gm": "GM"}
    # The card buttons, by role, in order (the health button is always there).
    card_roles: ClassVar[tuple[str, ...]] = ("act", "react")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def where(self, enc: Encounter) -> str:
        """Where in the round the fight is, in the ruleset's words ("phase 7", "Kaede's
        turn", "surprise"): every log entry carries it."""
        return ""

    def round_shown(self, enc: Encounter) -> int:
        """The round the fight is in as the GM reads it (the window's title, the log):
        a ruleset that asks a round's initiative before that round begins says that
        round."""
        return enc.round

    def describe_state(self, enc: Encounter) -> str:
        """One line for the status bar: round, phase or turn."""
        return f"Round {enc.round}"

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
        """Every fighter's card, in order. The UI asks for them all on every change; a
        ruleset that says what its cards read (:meth:`card_reads`) has each card kept
        until that changes (derived.py), else every card is made afresh."""
        reads = self.card_reads(enc)
        if reads is None:
            return [(fid, self.card(enc, fid)) for fid in enc.order if fid in enc.fighters]
        return per_fighter(enc, "cards", reads, self.card)

    def card_reads(self, enc: Encounter) -> Reads | None:
        """What a fighter's card reads besides that fighter, the roster (names, groups,
        sides, who is in the fight) and the options: the round's stage, whose turn it
        is... (derived.Reads); None: the cards are not kept. A ruleset whose
        :meth:`card` reads more of the fight says it here."""
        return None

    def stack(self, enc: Encounter) -> tuple[StackRow, ...]:
        return ()

    def roll_view(self, enc: Encounter) -> RollView | None:
        """The waiting roll as the roll panel shows it: who rolls what, the target or
        advantage so far, the exact odds, the contributions and what may still be added."""
        rules = self.rules
        roll = rules.pending_roll(enc)
        if roll is None:
            return None
        who = enc.name_of(roll.roller_id) if roll.roller_id else "The app"
        rows = tuple(ContributionRow(c.id, enc.name_of(c.fighter_id) if c.fighter_id else "GM",
                                     c.label, c.amount, c.cost)
                     for c in roll.contributions)
        coins = roll.what == "coins"
        dice = f"{roll.count} coin{'s' if roll.count != 1 else ''}" if coins \
            else f"{roll.count}d{roll.sides}"
        line = f"{roll.measure} {roll.total}"
        if roll.contributions:
            line += f" ({roll.base} {'+' if roll.total >= roll.base else '-'} " \
                    f"{abs(roll.total - roll.base)} from help)"
        return RollView(id=roll.id, title=roll.label, roller=who, by_player=roll.by_player,
                        dice=dice, total_line=line, odds=rules.roll_odds(enc, roll),
                        contributions=rows, options=rules.contribution_options(enc, roll),
                        coins=coins, blocked=rules.roll_blocked(enc, roll))

    def attack_under_way(self, enc: Encounter) -> tuple[str, str] | None:
        """(attacker, attacked) of the move others may still react to, if any: a
        reaction's form starts on them. By default the waiting roll's roller and its
        target."""
        roll = self.rules.pending_roll(enc)
        if roll is None or not roll.roller_id:
            return None
        target = roll.data.get("target")
        return roll.roller_id, str(target) if target else ""

    def target_field(self, enc: Encounter, foes: tuple[tuple[str, str], ...]) -> FormField:
        """An attack's Target: every one of ``foes`` (id, name), since the GM decides;
        one out of the fight is named so, and the form starts on the first one still in
        it (docs/rulesets/README.md#the-end-of-a-fight)."""
        standing = [fid for fid, _ in foes if not self.rules.is_out(enc.fighters[fid])]
        choices = tuple((fid, name if fid in standing else f"{name} (out)")
                        for fid, name in foes)
        first = standing[0] if standing else choices[0][0] if choices else None
        return FormField("target", "Target", "choice", choices, default=first)

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        return ()

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        return Preview(error="no such action")

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
        raise RuleViolation(f"no action {form_id!r}")

    def round_controls(self, enc: Encounter) -> RoundControls:
        return RoundControls()


class Autopilot:
    """A ruleset's part for the simulator (engine/simulate.py): what the rules offer
    now, and what a plain, sensible table would do. Built with the ruleset's
    :class:`Rules` and :class:`Views`, which it reads; it changes nothing."""

    def __init__(self, rules: Rules, views: Views) -> None:
        self.rules = rules
        self.views = views

    def legal_commands(self, enc: Encounter) -> tuple[LegalOption, ...]:
        """Everything the rules offer now, read from the ruleset's own views: the
        decision waiting (each choice, or each amount between its bounds), the round
        controls and every enabled action form of every fighter in the fight. The GM's
        sheet edits (role ``gm``) and ending the fight by hand are left out: they change
        the fighters or stop the fight rather than play it."""
        from .legal import legal_from_views

        return legal_from_views(self.rules, self.views, enc)

    def next_command(self, enc: Encounter, rng: random.Random) -> Command | None:
        """The command a plain, sensible table would give next (None: it has none).
        Each ruleset with built rules writes its own (its choices are in its page in
        docs/rulesets/); the same state and the same ``rng`` give the same command."""
        return None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A ruleset as the core, the window, the report and the command line get it: its
    parts, each built from the class its registration names
    (:class:`~fightdesk.engine.rulesets.RulesetInfo`)."""

    rules: Rules
    views: Views
    autopilot: Autopilot

    @property
    def id(self) -> str:
        return self.rules.id

    @property
    def title(self) -> str:
        return self.rules.title


RULESETS: dict[str, Ruleset] = {}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset of an id, its parts built once per process from the classes its
    registration names."""
    found = RULESETS.get(ruleset_id)
    if found is None:
        from .rulesets import parts

        try:
            found = RULESETS[ruleset_id] = Ruleset(*parts(ruleset_id))
        except KeyError:
            raise RuleViolation(f"unknown ruleset id {ruleset_id!r}") from None
    return found
