"""The conditions kit: conditions the GM (or a rule) puts on a fighter, with a duration,
counted down at the moments the ruleset says, shown on the card with what is left.

A fighter's conditions are ``fighter.status.conditions`` (every ruleset's status has that
list). A rule calls :func:`add`, :func:`remove` and :func:`tick`; the engine's
``AddCondition`` and ``RemoveCondition`` commands call :func:`apply_add` and
:func:`apply_remove`. Every write goes through the context's transaction, so each change
is logged, undone, redone and rebuilt like any other; each condition that starts or ends
is a ``condition-on`` / ``condition-off`` event with ``{"name": ...}``, the words the
round summaries read.

Durations (``Condition.duration``):

* ``rounds``: ``rounds_left`` counts down by one at the condition's ``tick`` moment (the
  start or end of its bearer's turn, or the end of the round; the ruleset's
  ``condition_tick`` unless the GM says otherwise) and the condition ends at 0.
* ``until-turn-end``: ends at the end of ``until_fighter``'s *next* turn, on whichever
  fighter it sits. A turn already going when it was imposed does not count: the start of
  that fighter's next turn arms it (``turn_begun``), the end of that turn ends it. A
  ruleset with turns therefore ticks both ``turn-start`` and ``turn-end``.
  If that fighter leaves the fight first, it ends then (:func:`fighter_left`).
* ``until-removed``: lasts until the GM (or a rule) removes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from .base import Condition
from .changes import RuleViolation
from .derived import by_roster, fighter_values
from .ruleset import ConditionView

if TYPE_CHECKING:
    from .model import Encounter
    from .ruleset import Context, Ruleset

Moment = Literal["turn-start", "turn-end", "round-end"]
MOMENTS: tuple[str, ...] = ("turn-start", "turn-end", "round-end")
DURATIONS: tuple[str, ...] = ("rounds", "until-turn-end", "until-removed")
NAME_MAX = 60
ROUNDS_MAX = 100


# --- reading ------------------------------------------------------------------------------


def conditions_of(enc: Encounter, fighter_id: str) -> list[Condition]:
    return enc.fighters[fighter_id].status.conditions


def check_name(name: str) -> str:
    """The name as kept (spaces trimmed), or why it cannot be a condition's name."""
    text = name.strip()
    if not text:
        raise RuleViolation("a condition needs a name")
    if len(text) > NAME_MAX:
        raise RuleViolation(f"a condition's name is at most {NAME_MAX} characters "
                            f"(this one has {len(text)})")
    if any(not ch.isprintable() for ch in text):
        raise RuleViolation("a condition's name is one line of plain text")
    return text


def left_text(enc: Encounter, condition: Condition) -> str:
    """What is left of a condition, in the GM's words: "2 rounds", "until end of
    Kaede's next turn", "until removed"."""
    if condition.duration == "rounds":
        left = condition.rounds_left or 0
        # below 1 only by a GM's override of the field: it ends at its next count
        return _rounds(left) if left >= 1 else "ends at its next count"
    if condition.duration == "until-turn-end" and condition.until_fighter:
        whose = enc.name_of(condition.until_fighter)
        if condition.until_fighter not in enc.fighters:
            return f"until removed ({whose} has left the fight)"
        return f"until end of {whose}'s {'turn' if condition.turn_begun else 'next turn'}"
    return "until removed"


def tick_text(enc: Encounter, condition: Condition, bearer: str) -> str:
    """When its rounds count down, for the tooltip."""
    who = enc.name_of(bearer)
    return {
        "turn-start": f"counts down at the start of each of {who}'s turns",
        "turn-end": f"counts down at the end of each of {who}'s turns",
        "round-end": "counts down at the end of each round",
    }[condition.tick]


def views(enc: Encounter, fighter_id: str) -> tuple[ConditionView, ...]:
    """The fighter's conditions as the card shows them (the GM may remove each)."""
    out: list[ConditionView] = []
    for index, cond in enumerate(conditions_of(enc, fighter_id)):
        tips = [f"{cond.name}: {left_text(enc, cond)}"]
        if cond.duration == "rounds":
            tips.append(tick_text(enc, cond, fighter_id))
        if cond.imposed_by:
            tips.append(f"imposed by {enc.name_of(cond.imposed_by)}")
        if cond.note:
            tips.append(cond.note)
        # "until removed" goes without saying on the card (the tooltip says it).
        left = "" if cond.duration == "until-removed" else left_text(enc, cond)
        out.append(ConditionView(name=cond.name, left=left, removable=True, position=index,
                                 tooltip="\n".join(tips)))
    return tuple(out)


# --- changing -----------------------------------------------------------------------------


def add(ctx: Context, fighter_id: str, condition: Condition) -> None:
    """Put ``condition`` on the fighter; one of the same name (any case) is replaced, so
    a condition imposed again starts its duration afresh."""
    enc = ctx.enc
    if fighter_id not in enc.fighters:
        ctx.fail(f"no fighter {fighter_id!r}")
    name = check_name(condition.name)
    who = enc.name_of(fighter_id)
    if condition.duration == "rounds" and (condition.rounds_left or 0) < 1:
        ctx.fail(f"{name}: how many rounds? (at least 1)")
    if condition.duration == "until-turn-end":
        if condition.until_fighter not in enc.fighters:
            ctx.fail(f"no fighter {condition.until_fighter!r} to end {name} with their turn")
    if condition.imposed_by is not None and condition.imposed_by not in enc.fighters:
        ctx.fail(f"no fighter {condition.imposed_by!r} to have imposed {name}")
    if condition.duration == "rounds" and (condition.rounds_left or 0) > ROUNDS_MAX:
        ctx.fail(f"a condition lasts at most {ROUNDS_MAX} rounds")
    data = condition.model_dump() | {"name": name, "turn_begun": False}
    if condition.duration != "rounds":
        data["rounds_left"] = None
    if condition.duration != "until-turn-end":
        data["until_fighter"] = None
    path = _path(fighter_id)
    kept = conditions_of(enc, fighter_id)
    same = _find(kept, name)
    fresh = Condition.model_validate(data)
    left = left_text(enc, fresh)
    by = f", from {enc.name_of(fresh.imposed_by)}" if fresh.imposed_by else ""
    if same is None:
        ctx.tx.append(path, data)
        ctx.say(f"{who} is {_lower(name)} ({left}{by})", fighter_id=fighter_id,
                kind="condition-on", name=name)
    else:
        ctx.tx.set_item(path, same, data)
        ctx.say(f"{who} is {_lower(name)} again: now {left}{by}", fighter_id=fighter_id,
                kind="note", name=name)


def remove(ctx: Context, fighter_id: str, index_or_name: int | str) -> Condition:
    """Take a condition off the fighter, by its place in the list or its name (any case)."""
    enc = ctx.enc
    if fighter_id not in enc.fighters:
        ctx.fail(f"no fighter {fighter_id!r}")
    who = enc.name_of(fighter_id)
    kept = conditions_of(enc, fighter_id)
    if isinstance(index_or_name, int):
        if not 0 <= index_or_name < len(kept):
            ctx.fail(f"{who} has no condition number {index_or_name + 1} "
                     f"({_count(len(kept))})")
        index = index_or_name
    else:
        found = _find(kept, index_or_name)
        if found is None:
            ctx.fail(f"{who} is not {_lower(index_or_name.strip())}")
        index = found
    gone = kept[index]
    ctx.tx.delete(_path(fighter_id), index)
    ctx.say(f"{who} is no longer {_lower(gone.name)}", fighter_id=fighter_id,
            kind="condition-off", name=gone.name)
    return gone


def _bearers(enc: Encounter) -> list[str]:
    """Every fighter with a condition, in the fight's order, then those the order does
    not list. Who bears one is kept per fighter until the fighter is written
    (derived.py): a turn's start and end tick a handful of bearers, not 400 fighters."""
    places = by_roster(enc, "conditions:places", _places)
    if places is None:
        listed = set(enc.order)  # a set: a list lookup per fighter grew with the square
        return [f for f in [*enc.order, *(f for f in enc.fighters if f not in listed)]
                if f in enc.fighters and conditions_of(enc, f)]
    bearers = fighter_values(enc, "conditions:bearers",
                             lambda enc, fid: True if conditions_of(enc, fid) else None)
    return sorted(bearers, key=places.__getitem__)


def _places(enc: Encounter) -> dict[str, int] | None:
    """Each fighter's place in the order; None unless the order lists every fighter of
    the fight once and nobody else (a hand-edited file may not)."""
    places = {fid: at for at, fid in enumerate(enc.order)}
    if len(places) != len(enc.order) or places.keys() != enc.fighters.keys():
        return None
    return places


def tick(ctx: Context, moment: str, fighter_id: str | None = None) -> None:
    """Count down what counts at ``moment``: at ``turn-start`` / ``turn-end`` of
    ``fighter_id``, that fighter's conditions lasting rounds counted then, and (on any
    fighter) the ``until-turn-end`` conditions bound to that fighter's turn; at
    ``round-end``, every fighter's conditions counted at the end of the round."""
    enc = ctx.enc
    if moment not in MOMENTS:
        raise ValueError(f"unknown moment {moment!r} (one of {', '.join(MOMENTS)})")
    if moment != "round-end" and fighter_id is None:
        raise ValueError(f"{moment} is the moment of a fighter's turn: name the fighter")
    for bearer in _bearers(enc):
        kept = conditions_of(enc, bearer)
        if not kept:
            continue
        after: list[dict[str, Any]] = []
        changed = False
        for cond in kept:
            data = cond.model_dump()
            ends = False
            if (cond.duration == "rounds" and cond.tick == moment
                    and (moment == "round-end" or bearer == fighter_id)):
                left = (cond.rounds_left or 1) - 1
                changed = True
                if left <= 0:
                    ends = True
                else:
                    data["rounds_left"] = left
                    ctx.say(f"{enc.name_of(bearer)}: {cond.name}, {_rounds(left)} left",
                            fighter_id=bearer, kind="note", name=cond.name, rounds_left=left)
            elif cond.duration == "until-turn-end" and cond.until_fighter == fighter_id:
                if moment == "turn-start" and not cond.turn_begun:
                    data["turn_begun"] = True
                    changed = True
                elif moment == "turn-end" and cond.turn_begun:
                    ends = True
                    changed = True
            if ends:
                ctx.say(f"{enc.name_of(bearer)} is no longer {_lower(cond.name)}",
                        fighter_id=bearer, kind="condition-off", name=cond.name)
            else:
                after.append(data)
        if changed:
            ctx.set(("fighters", bearer, "status"), "conditions", after)


def fighter_left(ctx: Context, fighter_id: str, name: str) -> None:
    """``fighter_id`` (called ``name``) has left the fight: the turn that would end each
    condition lasting until the end of their next turn never comes, so each such
    condition ends now, with a line naming who left (docs/ARCHITECTURE.md#conditions).
    Called after the fighter is gone and the ruleset has ended their turn going on."""
    enc = ctx.enc
    for bearer in _bearers(enc):
        kept = conditions_of(enc, bearer)
        ending = [c for c in kept
                  if c.duration == "until-turn-end" and c.until_fighter == fighter_id]
        if not ending:
            continue
        for cond in ending:
            ctx.say(f"{enc.name_of(bearer)} is no longer {_lower(cond.name)} ({name} has "
                    "left the fight)", fighter_id=bearer, kind="condition-off", name=cond.name)
        ctx.set(("fighters", bearer, "status"), "conditions",
                [c.model_dump() for c in kept if c not in ending])


# --- the engine's commands ----------------------------------------------------------------


def apply_add(ctx: Context, command: Any, ruleset: Ruleset) -> None:
    """``AddCondition``: the GM puts a condition on a fighter; ``ruleset`` (the fight's)
    says when rounds count down by default, and whether it has fighter turns at all."""
    tick_at = command.tick or ruleset.rules.condition_tick
    name = check_name(command.name)
    if not ruleset.rules.condition_turns and (command.duration == "until-turn-end"
                                        or tick_at != "round-end"):
        ctx.fail(f"{ruleset.title or ruleset.id} has no fighter turns: {name} can last "
                 "rounds counted at the end of each round, or until removed")
    data: dict[str, Any] = {
        "name": name, "duration": command.duration, "tick": tick_at, "note": command.note.strip(),
        "imposed_by": command.imposed_by or None,
        "rounds_left": command.rounds if command.duration == "rounds" else None,
        "until_fighter": command.until_fighter if command.duration == "until-turn-end" else None,
    }
    if command.duration == "rounds" and not command.rounds:
        ctx.fail(f"{name}: how many rounds? (at least 1)")
    if command.duration == "until-turn-end" and not command.until_fighter:
        ctx.fail(f"{name}: whose turn ends it?")
    if command.fighter_id in ctx.enc.fighters and ruleset.rules.condition_rule(
            ctx, command.fighter_id, name):
        ctx.summary = "GM: " + next((e.text for e in ctx.events if e.kind == "condition-on"),
                                    f"{ctx.enc.name_of(command.fighter_id)}: {name}")
        return
    add(ctx, command.fighter_id, Condition.model_validate(data))
    ctx.summary = "GM: " + ctx.events[-1].text


def apply_remove(ctx: Context, command: Any) -> None:
    """``RemoveCondition``: the GM takes a condition off a fighter."""
    gone = remove(ctx, command.fighter_id, command.index)
    ctx.summary = f"GM removed {gone.name} from {ctx.enc.name_of(command.fighter_id)}"


# --- helpers ------------------------------------------------------------------------------


def _path(fighter_id: str) -> tuple[str, ...]:
    return ("fighters", fighter_id, "status", "conditions")


def _find(kept: list[Condition], name: str) -> int | None:
    wanted = name.strip().casefold()
    return next((i for i, c in enumerate(kept) if c.name.casefold() == wanted), None)


def _lower(name: str) -> str:
    """"Stunned" reads "is stunned"; a name that starts with an acronym stays as it is."""
    if name[:2].isupper():
        return name
    return name[:1].lower() + name[1:]


def _rounds(n: int) -> str:
    return f"{n} round" if n == 1 else f"{n} rounds"


def _count(n: int) -> str:
    return "no conditions" if n == 0 else ("1 condition" if n == 1 else f"{n} conditions")
