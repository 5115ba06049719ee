"""The pending roll kit: a roll that others may change before it is made.

Roll-under assists, ashes defensive skills and dodge speed, the d100 defender's choice of
defense: each is a contribution to a roll that is not made yet. The roll names who rolls
(a player at the table, or the app), what is rolled (dice or coins), the target or the
advantage, and the contributions with who gives them and what they cost. The ruleset
computes the exact odds (:meth:`~fightdesk.engine.ruleset.Rules.roll_odds`) after every
change, pays and refunds the costs (:class:`RollRules`), and applies the result. The whole
exchange, from the roll's opening to its result, is one undo step. See
docs/ARCHITECTURE.md, "Pending roll".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from .base import StateModel
from .changes import Path, resolve
from .ruleset import StackRow

if TYPE_CHECKING:
    from .dice import Roll
    from .model import Encounter
    from .ruleset import Context, Odds, StackRow


class Contribution(StateModel):
    """One change to a pending roll: who gives it, what it is, how much, what it costs."""

    id: int
    fighter_id: str | None = None
    kind: str
    label: str
    amount: int = 0
    cost: str = ""
    # What the ruleset needs to refund the cost when the contribution is taken back.
    paid: dict[str, int] = Field(default_factory=dict)


class PendingRoll(StateModel):
    """A roll waiting to be made, and the contributions so far."""

    id: int
    label: str
    roller_id: str | None = None
    # Who makes the roll: a player at the table (the GM types the faces) or the app.
    by_player: bool = False
    what: Literal["dice", "coins"] = "dice"
    count: int = Field(1, ge=0)
    sides: int = Field(20, ge=2)
    # "target" (roll at or under, or at or over) or "advantage" (coins), for the words.
    measure: str = "target"
    base: int = 0
    contributions: list[Contribution] = Field(default_factory=list)
    next_id: int = 1
    # The ruleset's own facts about the roll (attacker, defender, weapon...).
    data: dict[str, Any] = Field(default_factory=dict)

    @property
    def total(self) -> int:
        """The target or advantage with every contribution added."""
        return self.base + sum(c.amount for c in self.contributions)

    def by(self, fighter_id: str) -> list[Contribution]:
        return [c for c in self.contributions if c.fighter_id == fighter_id]


class RollRules:
    """What a ruleset does with its pending rolls; subclasses override what they use."""

    def roll_odds(self, enc: Encounter, roll: PendingRoll) -> tuple[Odds, ...]:
        """The exact chances of the roll with its contributions so far."""
        return ()

    def pay(self, ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str,
            amount: int) -> Contribution:
        """Check and pay for a contribution (RuleViolation when not allowed) and say what
        it is; the kit gives it its id and adds it to the roll."""
        ctx.fail("nothing can be added to this roll")

    def refund(self, ctx: Context, roll: PendingRoll, contribution: Contribution) -> None:
        """Give back what a contribution cost, when it is taken back."""

    def resolve(self, ctx: Context, roll: PendingRoll, result: Roll) -> None:
        """Apply a made roll's result (the pending roll is already cleared)."""

    def roll_purpose(self, roll: PendingRoll, who: str) -> str:
        """What the log says the roll is for: "Dee rolls Defense against …" is logged as
        "Dee: 1d20 for Defense against …"."""
        return roll.label.removeprefix(f"{who} rolls ") if who else roll.label

    def roll_count(self, roll: PendingRoll) -> int:
        """How many dice or coins the roll takes now: ``roll.count`` unless the
        contributions change it (coins that grow with the advantage)."""
        return roll.count


def open_roll(ctx: Context, path: Path, roll: PendingRoll) -> PendingRoll:
    """Put a roll on hold for contributions (``path`` is where the roll lives)."""
    if _current(ctx, path) is not None:
        ctx.fail("another roll is still waiting to be made")
    ctx.set(path[:-1], str(path[-1]), roll)
    ctx.say(f"{roll.label}: waiting for help or defenses before the roll", kind="ask",
            fighter_id=roll.roller_id)
    found = _current(ctx, path)
    assert found is not None
    return found


def contribute(ctx: Context, path: Path, rules: RollRules, roll_id: int,
               fighter_id: str | None, kind: str, amount: int) -> Contribution:
    """Add one contribution, paid by the ruleset, and log it."""
    roll = _the_roll(ctx, path, roll_id)
    made = rules.pay(ctx, roll, fighter_id, kind, amount)
    roll = _the_roll(ctx, path, roll_id)  # paying may have changed the state
    made = made.model_copy(update={"id": roll.next_id})
    ctx.set(path, "contributions", [*roll.contributions, made])
    ctx.set(path, "next_id", roll.next_id + 1)
    who = ctx.enc.name_of(fighter_id) if fighter_id else "GM"
    sign = f"{made.amount:+d} " if made.amount else ""
    cost = f" ({made.cost})" if made.cost else ""
    ctx.summary = f"{who}: {made.label} {sign}to {roll.label}{cost}".replace("  ", " ")
    ctx.say(ctx.summary, fighter_id=fighter_id, kind="contribution", roll_id=roll_id,
            contribution=made.kind, amount=made.amount)
    return made


def withdraw(ctx: Context, path: Path, rules: RollRules, roll_id: int,
             contribution_id: int) -> None:
    """Take a contribution back; the ruleset refunds its cost."""
    roll = _the_roll(ctx, path, roll_id)
    found = next((c for c in roll.contributions if c.id == contribution_id), None)
    if found is None:
        ctx.fail(f"no contribution {contribution_id} on this roll")
    rules.refund(ctx, roll, found)
    roll = _the_roll(ctx, path, roll_id)
    ctx.set(path, "contributions", [c for c in roll.contributions if c.id != contribution_id])
    who = ctx.enc.name_of(found.fighter_id) if found.fighter_id else "GM"
    ctx.summary = f"{who} takes back {found.label} on {roll.label}"
    ctx.say(ctx.summary, fighter_id=found.fighter_id, kind="contribution-off",
            roll_id=roll_id, contribution=found.kind, amount=found.amount)


def make(ctx: Context, path: Path, rules: RollRules, roll_id: int | None) -> Roll:
    """Make the roll (typed in by the GM for a player's roll, or rolled by the app), clear
    it, and let the ruleset apply the result."""
    roll = _the_roll(ctx, path, roll_id)
    who = ctx.enc.name_of(roll.roller_id) if roll.roller_id else ""
    purpose = rules.roll_purpose(roll, who)
    count = rules.roll_count(roll)
    waiting = roll

    def odds() -> tuple[Odds, ...]:  # what the roll panel showed, logged with the roll
        return rules.roll_odds(ctx.enc, waiting)

    if roll.what == "coins":
        result = ctx.flip(count, who=who, purpose=purpose, fighter_id=roll.roller_id,
                          odds=odds)
    else:
        result = ctx.roll(count, roll.sides, who=who, purpose=purpose,
                          fighter_id=roll.roller_id, odds=odds)
    ctx.set(path[:-1], str(path[-1]), None)
    rules.resolve(ctx, roll, result)
    return result


def _current(ctx: Context, path: Path) -> PendingRoll | None:
    found = resolve(ctx.enc, path[:-1])
    value = getattr(found, str(path[-1]))
    return value if isinstance(value, PendingRoll) else None


def _the_roll(ctx: Context, path: Path, roll_id: int | None) -> PendingRoll:
    """The roll waiting at ``path`` with that id (None: whichever waits)."""
    roll = _current(ctx, path)
    if roll is None or roll_id not in (None, roll.id):
        ctx.fail("that roll is no longer waiting (it was made or taken back)")
    return roll


def stack_rows(enc: Encounter, roll: PendingRoll, *, source: str, choice: str,
               speed: Callable[[Contribution], int | None],
               spent: Callable[[Contribution], int], reacts_to: str = "",
               ) -> list[StackRow]:
    """The interrupt stack's rows of a waiting roll: the roll, then each contribution
    to it (an assist, a defense, a counterstrike) as a reaction to it. The rulesets say
    what their dice are called (``source``), what a contribution is (``choice``, the
    row id's prefix), its number and what it spent."""
    rows = [StackRow(id=f"roll-{roll.id}", fighter_id=roll.roller_id or "",
                     fighter=enc.name_of(roll.roller_id), action=roll.label, source=source,
                     speed=roll.total, spent=0, cost="", reacts_to=reacts_to)]
    rows += [StackRow(id=f"{choice}-{c.id}", fighter_id=c.fighter_id or "",
                      fighter=enc.name_of(c.fighter_id), action=c.label, source="",
                      speed=speed(c), spent=spent(c), cost=c.cost, reacts_to=roll.label)
             for c in roll.contributions]
    return rows
