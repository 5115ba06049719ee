"""The base parts of every ruleset whose rounds are turns: they plug the shared kits (turn
order, pending roll) into the ruleset interface, so a ruleset adds rules, not machinery.
:class:`TurnOrderRules` is the rules part, :class:`TurnViews` the views part (timeline,
cards, the Hold form, round controls), :class:`TurnAutopilot` the autopilot's shared steps.

A rules subclass keeps its round state in a :class:`~fightdesk.engine.turn_state.TurnRoundState`
(``enc.state``), says how a round's turns are laid out (:meth:`TurnOrderRules.sections`),
and handles its own actions; moving, holding and timing out turns, contributions to a
waiting roll, and going on to the next turn are handled here and call the subclass's
hooks. A ruleset whose rules are not built yet (``rules_built = False``) opens, takes
fighters and shows them, but cannot start a fight or act.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from . import commands as c
from . import conditions, pending_roll, turns
from .changes import RuleViolation
from .derived import Reads, by_roster, kept
from .pending_roll import PendingRoll, RollRules
from .ruleset import (
    ActionForm,
    Autopilot,
    Card,
    FormField,
    Lane,
    Preview,
    RoundControls,
    Rules,
    Timeline,
    Views,
)
from .turns import TurnOrder, TurnRules, TurnSection

if TYPE_CHECKING:
    from .base import Decision
    from .commands import Command
    from .model import Encounter, Fighter
    from .ruleset import Context, Handler

TURNS: tuple[str, ...] = ("state", "turns")
ROLL: tuple[str, ...] = ("state", "roll")


class TurnOrderRules(Rules, TurnRules, RollRules):
    """The rules of a ruleset of turns: the shared turn order and pending roll."""

    # The status field that is the fighter's health, and the sheet field of its maximum.
    health_field: ClassVar[str] = "hp"
    health_max_field: ClassVar[str] = "max_hp"

    # --- what a subclass says -----------------------------------------------------------------
    def sections(self, ctx: Context) -> list[TurnSection]:
        """The round's turns, laid out at the start of a round (default: one section in
        the fight's order)."""
        enc = ctx.enc
        return [TurnSection(id="round", label="Turns", slots=[
            turns.TurnSlot(id=fid, fighter_id=fid) for fid in enc.order])]

    def on_turn_start(self, ctx: Context, fighter_id: str) -> None:
        """Hook: a fighter's turn begins."""

    def on_turn_end(self, ctx: Context, fighter_id: str) -> None:
        """Hook: a fighter's turn ends."""

    def on_timeout(self, ctx: Context, fighter_id: str) -> None:
        """The turn timer ran out; by default the turn passes with no action."""
        ctx.say(f"Time is up: {ctx.enc.name_of(fighter_id)}'s turn passes", kind="note",
                fighter_id=fighter_id)
        self.next_turn(ctx)

    def rested_pairs(self) -> dict[str, str]:
        return {**super().rested_pairs(), self.health_field: self.health_max_field}

    def rested_values(self, sheet: Any) -> dict[str, Any]:
        """Full health (the sheet's maximum) and every other lasting value at its rating."""
        values = super().rested_values(sheet)
        values[self.health_field] = getattr(sheet, self.health_max_field)
        return values

    # --- the round ----------------------------------------------------------------------------
    def start_round(self, ctx: Context, sections: list[TurnSection] | None = None) -> None:
        """Lay out the round's turns (``sections``, else :meth:`sections`) and give the
        first turn."""
        enc = ctx.enc
        ctx.set((), "round", enc.round + 1)
        ctx.say(f"Round {ctx.enc.round} begins", kind="round-start")
        ctx.summary = f"Round {ctx.enc.round} begins"
        self.lay_out(ctx, sections if sections is not None else self.sections(ctx))

    def lay_out(self, ctx: Context, sections: list[TurnSection]) -> None:
        """Put these turns in the round's order and give the first waiting one (a new
        round, or a round that goes on with more sections after a surprise step)."""
        ctx.set(("state",), "stage", "turns")
        first = turns.begin(ctx, TURNS, sections, self._skips(ctx.enc))
        if first is not None:
            self._turn_begins(ctx, first.fighter_id)

    # What a refusal says when a turn's action is tried while a roll waits.
    roll_waiting_line: ClassVar[str] = "a roll is waiting: make it first"

    def turn_holder(self, ctx: Context, fid: str) -> Fighter:
        """The fighter acting on their own turn, or a refusal: the fighter must exist, the
        turn be theirs, and no roll be waiting."""
        enc = ctx.enc
        if fid not in enc.fighters:
            ctx.fail(f"no fighter {fid!r}")
        fighter = enc.fighters[fid]
        if enc.state.stage != "turns" or turns.current_fighter(enc.state.turns) != fid:
            ctx.fail(f"not {fighter.name}'s turn")
        if enc.state.roll is not None:
            ctx.fail(self.roll_waiting_line)
        return fighter

    def target(self, ctx: Context, fid: str | None) -> Fighter:
        """The fighter an action is aimed at, or "choose a target"."""
        if not fid or fid not in ctx.enc.fighters:
            ctx.fail("choose a target")
        return ctx.enc.fighters[fid]

    def next_turn(self, ctx: Context) -> None:
        """End the current turn and give the next; the round ends after the last."""
        order: TurnOrder = ctx.enc.state.turns
        ending = turns.current_fighter(order)
        if ending is not None:
            self.on_turn_end(ctx, ending)
            conditions.tick(ctx, "turn-end", ending)
        nxt = turns.end_turn(ctx, TURNS, self._skips(ctx.enc))
        if nxt is None:
            self.turns_done(ctx)
            return
        self._turn_begins(ctx, nxt.fighter_id)

    def turns_done(self, ctx: Context) -> None:
        """The last turn laid out is taken: the round is over (a ruleset whose round goes
        on after a first step of turns, such as a surprise step, says what follows)."""
        ctx.set(("state",), "stage", "round-over")
        ctx.summary = ctx.summary or f"Round {ctx.enc.round}: every turn is taken"
        ctx.say(f"Round {ctx.enc.round}: every turn is taken", kind="round-end")
        conditions.tick(ctx, "round-end")

    def end_round(self, ctx: Context) -> None:
        # The turn under way when the round ends is taken: struck out on the timeline
        # like every turn before it.
        turns.take_current(ctx, TURNS)
        ctx.set(("state",), "stage", "round-over")
        ctx.set(TURNS, "current", None)
        ctx.summary = f"Round {ctx.enc.round} ends"
        ctx.say(ctx.summary, kind="round-end")
        conditions.tick(ctx, "round-end")

    def _turn_begins(self, ctx: Context, fighter_id: str) -> None:
        name = ctx.enc.name_of(fighter_id)
        ctx.summary = ctx.summary or f"{name}'s turn"
        ctx.say(f"{name}'s turn", fighter_id=fighter_id, kind="step")
        conditions.tick(ctx, "turn-start", fighter_id)
        self.on_turn_start(ctx, fighter_id)

    def _skips(self, enc: Encounter) -> Any:
        def skips(fid: str) -> bool:
            fighter = enc.fighters.get(fid)
            return fighter is None or self.is_out(fighter) or self.skips(enc, fid)

        return skips

    # --- commands -------------------------------------------------------------------------------
    def handlers(self) -> dict[str, Handler]:
        """The shared commands of a turn order; a subclass adds its own to these."""
        return {
            "start-fight": self._start, "start-round": self._start,
            "next-step": self._next_step, "end-round": self._end_round,
            "move-turn": self._move_turn, "hold-turn": self._hold,
            "turn-timeout": self._timeout, "contribute": self._contribute,
            "withdraw": self._withdraw, "make-roll": self._make_roll,
        }

    def _start(self, ctx: Context, command: Any) -> None:
        if ctx.enc.state.stage == "turns":
            ctx.fail("finish this round first (End Round)")
        self.start_round(ctx)

    def _next_step(self, ctx: Context, command: Any) -> None:
        self._no_waiting(ctx.enc)
        if ctx.enc.state.stage != "turns":
            ctx.fail("no round is going: start one first")
        self.next_turn(ctx)

    def _end_round(self, ctx: Context, command: Any) -> None:
        self._no_waiting(ctx.enc)
        if ctx.enc.state.stage != "turns":
            ctx.fail("no round is going")
        self.end_round(ctx)

    def _move_turn(self, ctx: Context, command: Any) -> None:
        turns.move(ctx, TURNS, self, command.slot_id, command.section, command.index)
        slot = turns.slot_by_id(ctx.enc.state.turns, command.slot_id)
        section = turns.section_of(ctx.enc.state.turns, command.slot_id)
        who = ctx.enc.name_of(slot.fighter_id if slot else command.slot_id)
        place = section.label if section else command.section
        ctx.summary = f"GM moved {who}'s turn ({place}, place {command.index + 1})"
        ctx.say(ctx.summary, kind="override", fighter_id=slot.fighter_id if slot else None)

    def _timeout(self, ctx: Context, command: Any) -> None:
        state = ctx.enc.state
        current = turns.current_fighter(state.turns)
        if state.stage != "turns" or current is None or \
                state.turns.turn_number != command.turn_number:
            ctx.fail("that turn is already over")
        self.on_timeout(ctx, current)

    def _contribute(self, ctx: Context, command: Any) -> None:
        pending_roll.contribute(ctx, ROLL, self, command.roll_id, command.fighter_id,
                                command.contribution, command.amount)

    def _withdraw(self, ctx: Context, command: Any) -> None:
        pending_roll.withdraw(ctx, ROLL, self, command.roll_id, command.contribution_id)

    def _make_roll(self, ctx: Context, command: Any) -> None:
        pending_roll.make(ctx, ROLL, self, command.roll_id)

    def _hold(self, ctx: Context, command: Any) -> None:
        order: TurnOrder = ctx.enc.state.turns
        slot_id = command.slot_id or order.current
        if slot_id is None:
            ctx.fail("nobody's turn to hold")
        slot = turns.slot_by_id(order, slot_id)
        if slot is None:
            ctx.fail(f"no turn {slot_id!r} this round")
        why = self.hold_refusal(ctx.enc, slot.fighter_id)
        if not why and slot_id != order.current:
            why = "only the turn going on now can be held"
        if why:
            ctx.fail(f"{ctx.enc.name_of(slot.fighter_id)} cannot hold the turn: {why}")
        name = ctx.enc.name_of
        if command.after not in self.next_up(ctx.enc):
            after = ctx.enc.fighters.get(command.after)
            if after is not None and self.is_out(after):
                ctx.fail(f"{name(slot.fighter_id)} cannot hold for {after.name}: "
                         f"{after.name} is out of the fight")
            ctx.fail(f"{name(command.after)} has no turn left this round to hold for")
        was_current = order.current == slot_id
        # The turn that comes next, found from where the held turn stood (the held turn
        # goes after it, so it stays next).
        nxt = turns.next_slot(order, self._skips(ctx.enc))
        turns.hold(ctx, TURNS, self, slot_id, command.after)
        ctx.summary = f"{name(slot.fighter_id)} holds to act right after {name(command.after)}"
        ctx.say(ctx.summary, fighter_id=slot.fighter_id, kind="hold")
        if was_current:
            if nxt is None:
                ctx.fail("nobody else has a turn left to hold for")
            turns.give_turn_to(ctx, TURNS, nxt.id)
            self._turn_begins(ctx, nxt.fighter_id)

    def _no_waiting(self, enc: Encounter) -> None:
        if enc.state.roll is not None:
            raise RuleViolation("a roll is waiting: make it or take it back first")
        if enc.state.pending is not None:
            raise RuleViolation("answer the question first")

    def open_roll(self, ctx: Context, roll: PendingRoll) -> PendingRoll:
        """Put a roll on hold for contributions, with the next roll id."""
        state = ctx.enc.state
        roll = roll.model_copy(update={"id": state.next_roll_id})
        ctx.set(("state",), "next_roll_id", state.next_roll_id + 1)
        return pending_roll.open_roll(ctx, ROLL, roll)

    # --- engine hooks ---------------------------------------------------------------------------
    def pending(self, enc: Encounter) -> Decision | None:
        return enc.state.pending

    def pending_roll(self, enc: Encounter) -> PendingRoll | None:
        return enc.state.roll

    def step_open(self, enc: Encounter) -> bool:
        """A waiting roll or question keeps the undo step open: the whole exchange is one step."""
        return enc.state.roll is not None or enc.state.pending is not None

    def is_out(self, fighter: Fighter) -> bool:
        return int(getattr(fighter.status, self.health_field)) <= 0

    def on_fighter_added(self, ctx: Context, fighter_id: str) -> None:
        """A fighter joining mid-round gets a turn at the end of the last section."""
        order: TurnOrder = ctx.enc.state.turns
        if ctx.enc.state.stage == "turns" and order.sections:
            turns.add_turn(ctx, TURNS, fighter_id, order.sections[-1].id, extra=False)

    def on_fighter_removed(self, ctx: Context, fighter_id: str) -> None:
        """A fighter taken out of the fight takes their turns with them
        (docs/rulesets/roll-under.md#removing-a-fighter, the same in every turn-order
        ruleset). Their turn going on ends there and the next waiting turn begins, as
        after Next turn; while a roll or question of that turn waits, nobody's turn goes
        on until it is settled and the GM presses Next turn."""
        state = ctx.enc.state
        order: TurnOrder = state.turns
        if not any(s.fighter_id == fighter_id for s in turns.slots(order)):
            return
        if state.stage != "turns" or turns.current_fighter(order) != fighter_id:
            turns.remove_fighter(ctx, TURNS, fighter_id)
            return
        self.on_turn_end(ctx, fighter_id)
        conditions.tick(ctx, "turn-end", fighter_id)
        # The next waiting turn, found from where the removed turn stood.
        nxt = turns.next_slot(ctx.enc.state.turns, self._skips(ctx.enc))
        turns.remove_fighter(ctx, TURNS, fighter_id)
        if ctx.enc.state.roll is not None or ctx.enc.state.pending is not None:
            return
        if nxt is None:
            self.turns_done(ctx)
            return
        turns.give_turn_to(ctx, TURNS, nxt.id)
        self._turn_begins(ctx, nxt.fighter_id)

    def next_up(self, enc: Encounter) -> list[str]:
        order: TurnOrder = enc.state.turns
        if enc.state.stage != "turns":
            return []
        return [slot.fighter_id for slot in turns.waiting_slots(order, self._skips(enc))]

    def timed_turn(self, enc: Encounter) -> tuple[str, int] | None:
        order: TurnOrder = enc.state.turns
        if enc.state.stage != "turns" or order.current is None:
            return None
        return order.current, order.turn_number

    # --- views ------------------------------------------------------------------------------------

    def turn_used(self, enc: Encounter, fighter: Fighter) -> str:
        """Why the fighter's turn is too far gone to hold ("": nothing of it is used yet).
        A ruleset says what using its turn means (its action, its move...)."""
        return ""

    def hold_refusal(self, enc: Encounter, fighter_id: str) -> str:
        """Why the fighter cannot hold the turn now ("": they may). A turn is held before
        it is used: on the fighter's own turn, with no roll or question waiting (the next
        turn would begin with it still open), and nothing of the turn used yet."""
        state = enc.state
        if state.stage != "turns" or turns.current_fighter(state.turns) != fighter_id:
            return "only on the fighter's own turn"
        if state.roll is not None:
            return self.roll_waiting_line
        if state.pending is not None:
            return "answer the question first"
        fighter = enc.fighters.get(fighter_id)
        if fighter is None:  # removed during their own turn: the turn only passes
            return "no longer in the fight"
        return self.turn_used(enc, fighter)

    def turn_timer(self, enc: Encounter) -> int:
        """The options' ``turn_timer_seconds`` where the ruleset has that option (0: off)."""
        return int(getattr(enc.options, "turn_timer_seconds", 0) or 0)

    def has_turn_action(self, fighter: Fighter) -> bool:
        """Whether the turn holder still has their turn's own action (False: the forward
        button offers only the next turn). A ruleset that counts actions says."""
        return False




class TurnViews(Views):
    """The views of a ruleset of turns: timeline by turns, cards with health, the Hold
    form and the round controls of a turn order."""

    rules: TurnOrderRules

    def __init__(self, rules: TurnOrderRules) -> None:
        super().__init__(rules)

    def where(self, enc: Encounter) -> str:
        state = enc.state
        if state.stage == "initiative":
            return "initiative"
        if state.stage == "round-over":
            return "end of round"
        order: TurnOrder = state.turns
        slot = turns.current_slot(order)
        if state.stage != "turns" or slot is None:
            return ""
        turn = f"{enc.name_of(slot.fighter_id)}'s turn"
        section = turns.section_of(order, slot.id)
        if section is not None and len(order.sections) > 1:
            return f"{section.label.lower()}, {turn}"
        return turn

    def timeline(self, enc: Encounter) -> Timeline:
        order: TurnOrder = enc.state.turns
        if enc.state.stage in ("turns", "round-over") and order.sections:
            return turns.timeline(enc, order, out=lambda fid: self._out(enc, fid),
                                  caption=self.describe_state(enc))
        lanes = tuple(Lane(id=fid, title=enc.fighters[fid].name, fighter_ids=(fid,), chips=(),
                           out=self._out(enc, fid))
                      for fid in enc.order if fid in enc.fighters)
        return Timeline(columns=("Turns",), lanes=lanes, caption=self.describe_state(enc))

    def _out(self, enc: Encounter, fid: str) -> bool:
        fighter = enc.fighters.get(fid)
        return fighter is None or self.rules.is_out(fighter)

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        f = enc.fighters[fighter_id]
        # Kept until the roster moves, and whose turn it is per state (derived.py).
        size = by_roster(enc, "turns:group-sizes", _group_sizes).get(f.group, 1) \
            if f.group else 1
        return Card(
            fighter_id=fighter_id, title=f.name, side=f.side,
            health=int(getattr(f.status, self.rules.health_field)),
            health_max=int(getattr(f.sheet, self.rules.health_max_field)),
            conditions=conditions.views(enc, fighter_id),
            acting=kept(enc, "turns:current-fighter", _current_fighter) == fighter_id
            and enc.state.stage == "turns",
            out=self.rules.is_out(f), group_size=size,
            health_field=f"status.{self.rules.health_field}")

    def card_reads(self, enc: Encounter) -> Reads:
        """Besides the fighter, the roster and the options, a turn ruleset's card reads
        the round's stage and whether it is the fighter's turn (a subclass's card that
        reads more says so here)."""
        stage = enc.state.stage
        acting = kept(enc, "turns:current-fighter", _current_fighter) \
            if stage == "turns" else None
        return Reads(stage, {acting: True} if acting is not None else {})

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        if not self.rules.rules_built:
            return (ActionForm("act", "Act", enabled=False, reason=self.rules.not_built_line),)
        return (self.hold_form(enc, fighter_id),)

    def hold_form(self, enc: Encounter, fighter_id: str) -> ActionForm:
        """Hold this turn to act right after another fighter's next turn; the choices are
        the fighters the ruleset lets this one hold for."""
        order: TurnOrder = enc.state.turns
        why = self.rules.hold_refusal(enc, fighter_id)
        later: tuple[tuple[str, str], ...] = ()
        if not why:
            slot = turns.current_slot(order)
            assert slot is not None  # hold_refusal found this fighter's turn going on
            # Only fighters still in the fight whose turn is yet to come.
            waiting = [fid for fid in self.rules.next_up(enc) if fid != fighter_id]
            refusals = {fid: self.rules.may_hold(enc, order, slot, fid) for fid in dict.fromkeys(waiting)}
            later = tuple((fid, enc.name_of(fid)) for fid, no in refusals.items() if not no)
            if not waiting:
                why = "nobody else has a turn left this round"
            elif not later:
                why = next(no for no in refusals.values() if no)
        field = FormField("after", "Act right after", "choice", later,
                          default=later[0][0] if later else None)
        return ActionForm("hold-turn", "Hold the turn", (field,), enabled=not why, reason=why,
                          shortcut="H", verb="Hold", rolls=False)

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
        if form_id == "hold-turn":
            return c.HoldTurn(after=str(values.get("after") or ""))
        if form_id in ("resolve-next", "resolve-all"):  # the stack dialog: the waiting roll
            return c.MakeRoll()
        raise RuleViolation(f"no action {form_id!r}")

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        if form_id == "hold-turn":
            if self.rules.hold_refusal(enc, fighter_id):
                return Preview(lines=())  # the greyed-out form says why; nothing to preview
            after = values.get("after")
            if after not in enc.fighters:
                return Preview(error="choose the fighter to act after")
            return Preview(lines=(f"{enc.name_of(fighter_id)} waits and acts right after "
                                  f"{enc.name_of(after)}'s turn",))
        return Preview(error="no such action")

    # True where a fight has its own start (a surprise step, initiative once per fight):
    # Start Fight in setup, Start Round only once a round is over.
    starts_with_fight: ClassVar[bool] = False

    def round_controls(self, enc: Encounter) -> RoundControls:
        if not self.rules.rules_built:
            return RoundControls(status=self.rules.not_built_line, next_step_label="Next turn")
        state = enc.state
        busy = state.roll is not None or state.pending is not None
        going = state.stage == "turns"
        if self.starts_with_fight:
            can_start_fight = state.stage == "setup" and bool(enc.order)
            can_start_round = state.stage == "round-over" and bool(enc.order)
        else:
            can_start_fight, can_start_round = False, not going and bool(enc.order)
        extra: dict[str, bool] = {}
        if state.roll is not None:
            # The stack dialog lists the waiting roll and its contributions: its Resolve
            # makes the roll (the app's dice) once nothing is missing. The choices are
            # the roll panel's, so the dialog adds nothing, cancels nothing and does not
            # open by itself; it may be closed, the roll still waiting (docs/ui.md).
            ready = not self.rules.roll_blocked(enc, state.roll)
            extra = {"resolve-next": ready, "resolve-all": ready, "cancel-stack": False,
                     "interrupt": False, "open-stack-dialog": False, "close-stack": True}
        # Whoever's turn it is, while their turn's own action is still there: the
        # window's forward button offers it, Pass lets the turn go
        # (docs/rulesets/README.md#what-every-ruleset-gives-the-gm).
        actor = _current_fighter(enc) if going and not busy else None
        fighter = enc.fighters.get(actor) if actor is not None else None
        if fighter is None or self.rules.is_out(fighter) or not self.rules.has_turn_action(fighter):
            actor = None
        return RoundControls(
            can_start_fight=can_start_fight,
            can_start_round=can_start_round,
            can_next_step=going and not busy,
            can_end_round=going and not busy,
            next_step_label=f"{fighter.name} lets the turn go" if actor and fighter
            else "Next turn",
            status="" if state.stage == "setup" else self.rules.side_down(enc),
            extra=extra,
            actor=actor,
        )

    def round_shown(self, enc: Encounter) -> int:
        """The round the window's title names: the round going on, or, while a round's
        initiative is asked (before that round begins), the round it is for, as the
        question says (docs/rulesets/d100.md#initiative)."""
        return enc.round + 1 if enc.state.stage == "initiative" else enc.round

    def describe_state(self, enc: Encounter) -> str:
        state = enc.state
        shown = self.round_shown(enc)
        if state.stage == "setup" or shown == 0:
            return "Before the fight"
        where = self.where(enc)
        return f"Round {shown}" + (f" · {where}" if where else "")


class TurnAutopilot(Autopilot):
    """The autopilot of a ruleset of turns: the steps every one takes alike."""

    rules: TurnOrderRules

    def autopilot_step(self, enc: Encounter, *, roll: Callable[[PendingRoll], Command | None],
                       turn: Callable[[Fighter], Command | None]) -> Command | None:
        """The steps every turn-order autopilot takes alike (docs/simulate.md#how-a-fight-is-played):
        a question gets the values it suggests, the fight and each round are started, a
        waiting roll goes to ``roll``, the turn holder's move to ``turn``; a turn whose
        fighter is gone or out of the fight passes."""
        state = enc.state
        pending = self.rules.pending(enc)
        if pending is not None:
            return c.Answer(decision_id=pending.id, values={}, by="autopilot")
        if state.stage == "setup":
            return c.StartFight()
        if state.stage == "round-over":
            return c.StartRound()
        if state.stage != "turns":
            return None
        if state.roll is not None:
            return roll(state.roll)
        fid = turns.current_fighter(state.turns)
        if fid is None or fid not in enc.fighters or self.rules.is_out(enc.fighters[fid]):
            return c.NextStep()
        return turn(enc.fighters[fid])


def _group_sizes(enc: Encounter) -> dict[str, int]:
    """How many fighters each group has (a card shows its group's size)."""
    sizes: dict[str, int] = {}
    for f in enc.fighters.values():
        if f.group:
            sizes[f.group] = sizes.get(f.group, 0) + 1
    return sizes


def _current_fighter(enc: Encounter) -> str | None:
    return turns.current_fighter(enc.state.turns)
