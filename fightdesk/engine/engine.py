"""The engine: the one path from a command to a state change, and the one history.

``apply`` runs a command through its rule handler inside a transaction and appends a
:class:`LogEntry`; ``undo`` and ``redo`` move whole steps between the log and the redo
list by applying recorded changes, so nothing is re-rolled. Views subscribe to
:class:`Notice` objects and redraw what changed (Anki's OpChanges idea).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

from pydantic import BaseModel, ValidationError

from .base import Decision
from .changes import (
    MISFIT_ERRORS,
    Change,
    LeanTransaction,
    RuleViolation,
    Transaction,
    apply_all,
    apply_all_or_none,
    resolve,
)
from .dice import DiceTray
from .listeners import Listeners
from .model import Encounter, Fighter, Group, LogEntry, Session
from .ruleset import Context, QuietContext, Ruleset, get_ruleset
from .tables import handle_table_command

if TYPE_CHECKING:
    from . import commands as c
else:
    from .lazy import lazy_module

    c = lazy_module("fightdesk.engine.commands")  # loads at the first command (lazy.py)

# The commands that move the fight on: each is logged under the step it opens (a new
# round's initiative is that round's, "Tariq's turn" is Tariq's), every other command
# under the step it was given in.
OPENS_A_STEP = frozenset({"start-fight", "start-round", "next-step", "end-round", "end-fight"})


class StepFailed(Exception):
    """Undo, redo or revert could not apply a recorded step (a damaged file); nothing
    was changed. The message is one line for the GM."""


class Outcome(NamedTuple):
    """What ``apply`` returns: the new log entry, or the reason the rules said no."""

    ok: bool
    error: str | None = None
    entry: LogEntry | None = None
    #: Every entry the command logged (several for ``Edits``; ``entry`` is the first).
    entries: tuple[LogEntry, ...] = ()

    @property
    def text(self) -> str:
        if self.error:
            return self.error
        if len(self.entries) > 1:
            return "; ".join(e.summary for e in self.entries)
        return self.entry.summary if self.entry else ""

    @property
    def headline(self) -> str:
        """The status bar's line: the text, and the hits and the fighters out that an
        answer landed (street-fighter's damage lands on the answer to its last damage or
        dodge question, whose own summary only says what was answered)."""
        if self.error:
            return self.error
        landed = [event.text for entry in (self.entries or (self.entry,)) if entry is not None
                  and entry.command.get("kind") == "answer" for event in entry.events
                  if event.kind in ("damage", "down") and event.text not in entry.summary]
        return "; ".join([self.text, *landed]) if landed else self.text


class Notice(NamedTuple):
    """Told to every listener after the state changed."""

    kind: Literal["apply", "undo", "redo", "reset"]
    entries: tuple[LogEntry, ...] = ()
    changes: tuple[Change, ...] = ()
    fighter_ids: frozenset[str] = frozenset()


Listener = Callable[[Notice], None]


class PendingHistory(Protocol):
    """A session's history still being read (a long fight opened live fight first,
    storage/history.py): ``complete`` reads the rest into the session now."""

    has_log: bool
    has_redo: bool

    @property
    def problem(self) -> Exception | None:
        """Why the history could not be read (the session then has none), once complete."""

    def step(self) -> bool:
        """Read on for a few milliseconds; True once the history is in (or refused)."""

    def complete(self) -> None: ...


def _touched_fighters(changes: tuple[Change, ...]) -> frozenset[str]:
    return frozenset(
        str(ch.target[1]) if len(ch.target) > 1 else str(ch.key)
        for ch in changes
        if ch.target[:1] == ("fighters",)
    )


class Engine:
    """Wraps one session; the UI and the CLI change the fight only through this class."""

    def __init__(self, session: Session, *, log: bool = True, narrate: bool = True,
                 record: bool | None = None, history: PendingHistory | None = None) -> None:
        """``history``: the session's log and redo list are still being read; anything
        that reads them (``session``, every change, undo) waits for them first."""
        self._session = session
        self._history = history
        self._history_listeners: list[Callable[[], None]] = []
        self._listeners: Listeners[Notice] = Listeners()
        # A throw-away fight played by the simulator keeps neither (``lean``): with
        # ``log`` off a command leaves no log entry, no redo list and tells no listener
        # (so no journal); with ``narrate`` off the rules' lines for the log are not made.
        # The rules run the same either way, and a refused command still rolls back.
        self.logging = log
        self.narrating = narrate
        # Without a log nothing is undone, so a write need not be recorded as a change
        # (``record``, off with the log unless asked for): a rollback still works.
        self.recording = log if record is None else record

    @classmethod
    def lean(cls, session: Session) -> Engine:
        """An engine for a fight nobody watches: same rules, no log, listeners or lines."""
        return cls(session, log=False, narrate=False)

    # --- reading ---------------------------------------------------------------------
    @property
    def session(self) -> Session:
        """The whole session, history included: a history still being read is read in
        full first (so nothing can act on a log that is not there yet)."""
        if self._history is not None:
            self.complete_history()
        return self._session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session

    @property
    def encounter(self) -> Encounter:
        """The live fight (never waits for the history)."""
        return self._session.encounter

    @property
    def pending_history(self) -> PendingHistory | None:
        """The history still being read, or None once it is in."""
        return self._history

    def complete_history(self) -> None:
        """Read the rest of a pending history now, then tell whoever waits for it."""
        history, self._history = self._history, None
        if history is None:
            return
        history.complete()
        listeners, self._history_listeners = self._history_listeners, []
        for listener in listeners:
            listener()

    def when_history(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` once the history is in (at once if it is)."""
        if self._history is None:
            listener()
        else:
            self._history_listeners.append(listener)

    @property
    def ruleset(self) -> Ruleset:
        return get_ruleset(self.encounter.ruleset)

    def pending(self) -> Decision | None:
        return self.ruleset.rules.pending(self.encounter)

    def can_undo(self) -> bool:
        return bool(self.session.log)

    def can_redo(self) -> bool:
        return bool(self.session.redo)

    def undo_text(self) -> str:
        return self._group_text(self.session.log)

    def redo_text(self) -> str:
        return self._group_text(self.session.redo)

    @staticmethod
    def _group_text(entries: list[LogEntry]) -> str:
        if not entries:
            return ""
        step = entries[-1].step
        first = entries[-1]
        for entry in reversed(entries):
            if entry.step != step:
                break
            first = entry
        return first.summary

    # --- listening -------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.subscribe(listener)

    def unsubscribe(self, listener: Listener) -> None:
        self._listeners.unsubscribe(listener)

    def _notify(self, notice: Notice) -> None:
        self._listeners.notify(notice)

    def replace_session(self, session: Session) -> None:
        """Swap in another session (File > Open, New) and tell every view."""
        self.complete_history()  # whoever waits for the old one's history gets it
        self.session = session
        self._notify(Notice("reset"))

    # --- changing --------------------------------------------------------------------
    def apply(self, command: c.Command) -> Outcome:
        """Apply one command; a rule violation comes back as ``Outcome.error``."""
        return self._run(command, keep=True)

    def check(self, command: c.Command) -> Outcome:
        """Dry run: what ``apply`` would say, with nothing changed and nothing logged."""
        return self._run(command, keep=False)

    def _run(self, command: c.Command, *, keep: bool) -> Outcome:
        enc = self.encounter
        if keep and not self.logging:
            return self._run_lean(command)
        joins = bool(self.session.log) and self.ruleset.rules.step_open(enc)
        # The step the command is given in: its entry is filed there (a hold, an attack
        # that ends a turn), unless the command is the one that opens the next step.
        when = None if not keep or command.kind in OPENS_A_STEP else self._when(enc)
        tx = Transaction(enc)
        tray = DiceTray(enc.dice_seed, enc.dice_drawn, command.dice)
        # Several edits at once (``Edits``) run one after the other in the one
        # transaction: a refusal takes back every one; each keeps its own log entry.
        parts: list[c.Command] = list(command.edits) if isinstance(command, c.Edits) else [command]
        played: list[tuple[c.Command, Context, int]] = []
        for part in parts:
            start = len(tx.changes)
            ctx = Context(enc, tx, tray)
            refused = self._play(ctx, self.ruleset, part)
            if refused is not None:
                tx.rollback()  # (the edits before this one too)
                if part is command:
                    return refused
                return Outcome(ok=False, error=_edit_refusal(part, refused.error or ""))
            played.append((part, ctx, start))
        if not keep:
            events = [e for _, ctx, _ in played for e in ctx.events]
            first = played[0][1]
            tx.rollback()
            entry = LogEntry(seq=0, step=0, command=command.model_dump(mode="json"),
                             summary=first.summary or _first_text(events, command), events=events)
            return Outcome(ok=True, entry=entry)
        log = self.session.log
        number, where = when or self._when(enc)
        entries: list[LogEntry] = []
        for n, (part, ctx, start) in enumerate(played):
            end = played[n + 1][2] if n + 1 < len(played) else len(tx.changes)
            seq = log[-1].seq + 1 if log else 0
            entry = LogEntry(
                seq=seq,
                step=log[-1].step if joins or entries else seq,
                round=number,
                where=where,
                command=part.model_dump(mode="json"),
                summary=ctx.summary or _first_text(ctx.events, part),
                events=ctx.events,
                changes=tx.changes[start:end],
            )
            log.append(entry)
            entries.append(entry)
        self.session.redo.clear()
        changes = tuple(tx.changes)
        self._notify(Notice("apply", tuple(entries), changes, _touched_fighters(changes)))
        return Outcome(ok=True, entry=entries[0], entries=tuple(entries))

    def _when(self, enc: Encounter) -> tuple[int, str]:
        """The round and the step the fight is in, as a log entry files them (the round
        an initiative step is asked for, not the round before it)."""
        views = self.ruleset.views
        # A handful of labels over a whole fight: one string each (memory).
        return views.round_shown(enc), sys.intern(views.where(enc))

    def _run_lean(self, command: c.Command) -> Outcome:
        """``apply`` without a log entry or a notice; the same rules, the same rollback."""
        enc = self.encounter
        tx = Transaction(enc) if self.recording else LeanTransaction(enc)
        tray = DiceTray(enc.dice_seed, enc.dice_drawn, command.dice)
        ruleset = self.ruleset
        quiet = not self.narrating and not command.core
        ctx = QuietContext(enc, tx, tray) if quiet else Context(enc, tx, tray)
        return self._play(ctx, ruleset, command) or Outcome(ok=True)

    def _play(self, ctx: Context, ruleset: Ruleset, command: c.Command) -> Outcome | None:
        """Run one command's rule in its transaction; the refusal (everything rolled
        back), or None when it applied. The one body both ``_run`` and ``_run_lean`` use."""
        tx, tray = ctx.tx, ctx.dice
        try:
            refusal = ruleset.rules.check_command(ctx.enc, command)
            if refusal:
                raise RuleViolation(refusal)
            if command.core:
                self._handle_core(ctx, command)
            else:
                ruleset.rules.handle(ctx, command)
            if isinstance(command, c.MakeRoll) and command.typed_by:
                _say_typed_by(ctx, command)
            if tray.unused_typed:
                raise RuleViolation(
                    f"{tray.unused_typed} typed-in roll(s) were not needed by this action"
                )
            tx.set((), "dice_drawn", tray.drawn)
        except RuleViolation as exc:
            tx.rollback()
            return Outcome(ok=False, error=str(exc))
        except Exception:
            tx.rollback()
            raise
        return None

    def undo(self) -> bool:
        """Take back the last step as a whole (a whole interrupt resolution is one step).

        All or nothing: if a recorded change does not fit the fight (a damaged file),
        what was already taken back is put back, the log and the redo list stay as they
        were, and :class:`StepFailed` says why in one line."""
        group = self._undo_step()
        if not group:
            return False
        changes_done = tuple(ch for e in group for ch in e.changes)
        self._notify(Notice("undo", tuple(group), changes_done, _touched_fighters(changes_done)))
        return True

    def _undo_step(self) -> list[LogEntry]:
        """Take back the last step without telling anyone; the step's entries."""
        group = _last_group(self.session.log)
        if not group:
            return []
        changes = [ch.inverse() for e in reversed(group) for ch in reversed(e.changes)]
        _apply_or_restore(self.encounter, changes, "undo", group)
        del self.session.log[-len(group):]
        self.session.redo.extend(group)
        return group

    def redo(self) -> bool:
        """Apply the last undone step again; all or nothing like :meth:`undo`."""
        group = self._redo_step()
        if not group:
            return False
        changes_done = tuple(ch for e in group for ch in e.changes)
        self._notify(Notice("redo", tuple(group), changes_done, _touched_fighters(changes_done)))
        return True

    def _redo_step(self) -> list[LogEntry]:
        """Apply the last undone step again without telling anyone; its entries."""
        group = _last_group(self.session.redo)
        if not group:
            return []
        _apply_or_restore(self.encounter, [ch for e in group for ch in e.changes], "redo", group)
        del self.session.redo[-len(group):]
        self.session.log.extend(group)
        return group

    def revert_to(self, seq: int) -> int:
        """Undo back to just after log entry ``seq`` ("Revert to here"); returns steps undone.

        All or nothing: if one of the steps cannot be undone, the steps already undone
        are redone and :class:`StepFailed` is raised. The views are told once, with every
        entry taken back, however many steps that was."""
        undone: list[LogEntry] = []
        steps = 0
        try:
            while self.session.log and self.session.log[-1].seq > seq:
                undone = self._undo_step() + undone
                steps += 1
        except StepFailed as failed:
            try:
                for _ in range(steps):
                    self._redo_step()
            except StepFailed:  # pragma: no cover - redo of a step just undone fits
                pass
            raise StepFailed(f"Revert stopped: {failed}; nothing was changed") from failed
        if undone:
            changes = tuple(ch for e in undone for ch in e.changes)
            self._notify(Notice("undo", tuple(undone), changes, _touched_fighters(changes)))
        return steps

    def rebuild(self) -> Encounter:
        """The encounter rebuilt from the log's start and its changes (must equal the live one)."""
        enc = self.session.start.model_copy(deep=True)
        for entry in self.session.log:
            apply_all(enc, entry.changes)
        return enc

    # --- core commands -----------------------------------------------------------------
    def _handle_core(self, ctx: Context, command: c.Command) -> None:
        if isinstance(command, c.Edits):  # (a lean engine's: ``_run`` splits them up)
            for edit in command.edits:
                try:
                    self._handle_core(ctx, edit)
                except RuleViolation as exc:
                    raise RuleViolation(_edit_refusal(edit, str(exc))) from exc
        elif isinstance(command, c.SetValue):
            self._set_value(ctx, command)
        elif isinstance(command, c.SetOption):
            self._set_option(ctx, command)
        elif isinstance(command, c.SetOrder):
            if sorted(command.order) != sorted(ctx.enc.order):
                ctx.fail("the new order must list every fighter exactly once")
            ctx.set((), "order", command.order)
            ctx.summary = "GM reordered the fighters"
            ctx.say(ctx.summary, kind="override")
        elif isinstance(command, c.AddFighters):
            self._add_fighters(ctx, command)
        elif isinstance(command, c.RemoveFighter):
            self._remove_fighter(ctx, command.fighter_id)
        elif isinstance(command, c.FreeRoll):
            self._free_roll(ctx, command)
        elif isinstance(command, c.Note):
            ctx.summary = command.text
            ctx.say(command.text, kind="note")
        elif isinstance(command, c.RenameFight):
            name = " ".join(command.name.split())
            if not name:
                ctx.fail("a fight needs a name")
            before = ctx.enc.name
            ctx.set((), "name", name)
            ctx.summary = f"GM named the fight {name}"
            ctx.say(f"{ctx.summary} (was {before})", kind="override")
        elif isinstance(command, c.AddCondition):
            from . import conditions  # only the GM's condition commands need the kit here

            conditions.apply_add(ctx, command, self.ruleset)
        elif isinstance(command, c.RemoveCondition):
            from . import conditions

            conditions.apply_remove(ctx, command)
        elif isinstance(command, c.HideFighter):
            self._hide_fighter(ctx, command)
        elif isinstance(command, c.SetEnemyHealth):
            words = {"exact": "with numbers", "bar": "as a bar", "word": "in words",
                     "hidden": "not at all"}
            ctx.set((), "enemy_health", command.show)
            ctx.summary = f"GM: the player view shows the enemies' health {words[command.show]}"
            ctx.say(ctx.summary, kind="override")
        elif isinstance(command, c.SetTable | c.RemoveTable | c.RollOnTable):
            handle_table_command(ctx, command)
        else:  # pragma: no cover - every core command is listed above
            ctx.fail(f"no handler for {command.kind}")

    def _set_value(self, ctx: Context, command: c.SetValue) -> None:
        enc = ctx.enc
        if command.fighter_id not in enc.fighters:
            ctx.fail(f"no fighter {command.fighter_id!r}")
        fighter = enc.fighters[command.fighter_id]
        # The limits the rules hold a value to, overridden or not (a refusal, or the value
        # capped with a line saying so).
        value, capped = self.ruleset.rules.value_check(ctx, fighter, command.field, command.value)
        parts: list[str | int] = [int(p) if p.isdigit() else p for p in command.field.split(".")]
        if not parts or parts[0] == "id" or parts[0] == "":
            ctx.fail(f"{command.field!r} cannot be set")
        target = ("fighters", command.fighter_id, *parts[:-1])
        key = parts[-1]
        try:
            holder = resolve(enc, target)
        except (AttributeError, KeyError, IndexError, ValueError):
            ctx.fail(f"{fighter.name} has no {command.field!r}")
        if isinstance(holder, list):
            if not isinstance(key, int) or not 0 <= key < len(holder):
                ctx.fail(f"{fighter.name} has no {command.field!r}")
            before = holder[key]
            ctx.tx.set_item(target, key, value)
        else:
            if not isinstance(holder, BaseModel) or str(key) not in type(holder).model_fields:
                ctx.fail(f"{fighter.name} has no {command.field!r}")
            before = getattr(holder, str(key))
            try:
                ctx.tx.set(target, str(key), value)
            except ValidationError as exc:  # pragma: no cover - Transaction converts these
                ctx.fail(str(exc))
        after = holder[int(key)] if isinstance(holder, list) else getattr(holder, str(key))
        label = command.field.replace("status.", "").replace("sheet.", "").replace("_", " ")
        ctx.summary = f"GM set {fighter.name}'s {label} to {value}"
        ctx.say(f"{ctx.summary} (was {before})"
                + (": a GM override, the rules were not applied" if command.override else ""),
                fighter_id=fighter.id, kind="override")
        if capped:
            ctx.say(capped, fighter_id=fighter.id, kind="note")
        if command.override:
            return
        # What the change triggers, as after the same change made by a rule.
        self.ruleset.rules.value_set(ctx, fighter.id, command.field, before, after)

    def _set_option(self, ctx: Context, command: c.SetOption) -> None:
        options = ctx.enc.options
        fields = type(options).model_fields
        if command.option == "ruleset" or command.option not in fields:
            known = ", ".join(n for n in fields if n != "ruleset")
            ctx.fail(f"{command.option!r} is not an option of this fight (options: {known})")
        before = getattr(options, command.option)
        ctx.set(("options",), command.option, command.value)
        after = getattr(ctx.enc.options, command.option)
        label = command.option.replace("_", " ")
        ctx.summary = f"GM set the option {label} to {after}"
        ctx.say(f"{ctx.summary} (was {before})", kind="override")

    def _add_fighters(self, ctx: Context, command: c.AddFighters) -> None:
        enc = ctx.enc
        data = dict(command.fighter)
        base_name = str(data.get("name") or "Fighter").strip() or "Fighter"
        data.setdefault("id", "new")
        try:
            template = Fighter.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise RuleViolation(f"fighter {base_name!r}: {where}: {err['msg']}") from None
        if template.ruleset != enc.ruleset:
            ctx.fail(f"{base_name} is a {template.ruleset} fighter; this fight is {enc.ruleset}")
        group_id: str | None = None
        names = [base_name]
        if command.count > 1:
            group_id = _unique_id(_slug(base_name), set(enc.groups))
            ctx.tx.put(("groups",), group_id, Group(id=group_id, name=base_name))
            taken = {f.name for f in enc.fighters.values()}
            names = []
            n = 1
            while len(names) < command.count:
                candidate = f"{base_name} {n}"
                if candidate not in taken:
                    names.append(candidate)
                n += 1
        added: list[str] = []
        for name in names:
            fid = _unique_id(_slug(name), set(enc.fighters))
            fighter = template.model_copy(update={"id": fid, "name": name, "group": group_id or template.group})
            ctx.tx.put(("fighters",), fid, fighter)
            added.append(fid)
            self.ruleset.rules.on_fighter_added(ctx, fid)
        ctx.set((), "order", [*enc.order, *added])
        ctx.summary = (
            f"Added {base_name}" if command.count == 1 else f"Added {command.count} x {base_name}"
        )
        ctx.say(ctx.summary, kind="roster")

    def _remove_fighter(self, ctx: Context, fighter_id: str) -> None:
        enc = ctx.enc
        if fighter_id not in enc.fighters:
            ctx.fail(f"no fighter {fighter_id!r}")
        fighter = enc.fighters[fighter_id]
        ctx.set((), "order", [f for f in enc.order if f != fighter_id])
        ctx.tx.delete(("fighters",), fighter_id)
        if (
            fighter.group in enc.groups  # a GM override can name a group that does not exist
            and not any(f.group == fighter.group for f in enc.fighters.values())
        ):
            ctx.tx.delete(("groups",), fighter.group)
        ctx.summary = f"Removed {fighter.name}"
        ctx.say(ctx.summary, kind="roster")
        self.ruleset.rules.on_fighter_removed(ctx, fighter_id)
        from . import conditions  # what lasted until their next turn's end ends now

        conditions.fighter_left(ctx, fighter_id, fighter.name)

    def _hide_fighter(self, ctx: Context, command: c.HideFighter) -> None:
        enc = ctx.enc
        if command.fighter_id not in enc.fighters:
            ctx.fail(f"no fighter {command.fighter_id!r}")
        fighter = enc.fighters[command.fighter_id]
        if fighter.hidden == command.hidden:
            ctx.fail(f"{fighter.name} is already {'hidden from' if fighter.hidden else 'shown to'} "
                     "the players")
        ctx.set(("fighters", fighter.id), "hidden", command.hidden)
        verb = "hides" if command.hidden else "reveals"
        ctx.summary = (f"GM {verb} {fighter.name} "
                       f"{'from' if command.hidden else 'to'} the players")
        ctx.say(ctx.summary, fighter_id=fighter.id, kind="override")

    def _free_roll(self, ctx: Context, command: c.FreeRoll) -> None:
        from .notation import parse  # only free rolls need dice notation; keeps it off start-up

        expr = parse(command.notation)
        total = 0
        all_faces: list[int] = []
        for term in expr.terms:
            if term.sides == 0:
                total += term.sign * term.count
                continue
            record = ctx.dice.roll(term.count, term.sides, who=command.who, purpose="dice bar")
            all_faces.extend(record.faces)
            total += term.sign * sum(record.faces)
        if expr.target is not None:
            hits = sum(1 for f in all_faces if f >= expr.target)
            result = f"{hits} success{'es' if hits != 1 else ''}"
        else:
            result = str(total)
        rolls = ctx.dice.rolls
        for record in rolls:
            record.outcome = result if record is rolls[-1] else ""
            ctx.say(record.describe(), kind="roll", roll=record)
        ctx.summary = f"{command.who + ' ' if command.who else ''}rolled {command.notation.strip()}: {result}"


def _edit_refusal(edit: c.Command, error: str) -> str:
    """One of several edits refused: which field, why, and that none of them was made."""
    field = str(getattr(edit, "field", None) or getattr(edit, "option", "") or edit.kind)
    label = field.replace("status.", "").replace("sheet.", "").replace("_", " ")
    for said in (f"{field}: ", f"{field.rsplit('.', 1)[-1]}: "):
        if error.startswith(said):
            error = error[len(said):]
            break
    return f"{label}: {error} (nothing was changed)"


def _say_typed_by(ctx: Context, command: c.MakeRoll) -> None:
    """A player's dice typed on their own device: the log names whose player typed them."""
    if not command.dice:
        raise RuleViolation("dice typed by a player: no faces were given")
    fighter = ctx.enc.fighters.get(command.typed_by)
    if fighter is None:
        raise RuleViolation(f"dice typed by a player: no fighter {command.typed_by!r}")
    ctx.say(f"Dice typed by {fighter.name}'s player", fighter_id=fighter.id, kind="note")


def _first_text(events: list[Any], command: c.Command) -> str:
    return events[0].text if events else command.kind


def _last_group(entries: list[LogEntry]) -> list[LogEntry]:
    """The entries of the last step (a copy; the list itself is not changed)."""
    if not entries:
        return []
    step = entries[-1].step
    start = len(entries)
    while start > 0 and entries[start - 1].step == step:
        start -= 1
    return entries[start:]


def _apply_or_restore(enc: Encounter, changes: list[Change], what: str,
                      group: list[LogEntry]) -> None:
    """Apply ``changes`` or none of them; StepFailed (one line) when they do not fit."""
    try:
        apply_all_or_none(enc, changes)
    except MISFIT_ERRORS as exc:
        entry = group[0]
        raise StepFailed(
            f"Cannot {what} \u201c{_short(entry.summary)}\u201d (log entry {entry.seq}): "
            f"{_short(_reason(exc), 120)}; nothing was changed"
        ) from exc


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"{'.'.join(str(p) for p in err.get('loc', ())) or 'value'}: {err.get('msg', '')}"
    if isinstance(exc, LookupError):
        return f"no {exc.args[0] if exc.args else 'such entry'!s} in the fight"
    return str(exc) or type(exc).__name__


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "fighter"


def _unique_id(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"
