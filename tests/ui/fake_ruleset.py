"""A small made-up ruleset for widget tests only (not shipped): it runs on the demo
fight's fighters and returns simple views, so the widgets are tested against the
ruleset interface rather than one real ruleset's rules.

"Practice" rules: a round rolls one d10 per fighter; phases go 10..1; a fighter acts
with the die showing the phase (form "act"), or interrupts with any unspent die (form
"interrupt"), which puts a move on a stack kept in this object (not undoable: test
views only); "resolve-next" / "resolve-all" / "cancel-stack" empty it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine import conditions
from fightdesk.engine.changes import RuleViolation
from fightdesk.engine.engine import Engine
from fightdesk.engine.model import Encounter, Session
from fightdesk.engine.ruleset import (
    ActionForm,
    Autopilot,
    Card,
    Chip,
    Context,
    FormField,
    Lane,
    Odds,
    Preview,
    Resource,
    RoundControls,
    Rules,
    Ruleset,
    StackRow,
    Timeline,
    Views,
)
from fightdesk.storage.sessions import demo_session

PHASES = tuple(str(p) for p in range(10, 0, -1))


class PracticeRules(Rules):
    """Just enough rules to move the views."""

    id = "practice"
    title = "Practice"

    def handle(self, ctx: Context, command: c.Command) -> None:
        enc = ctx.enc
        if isinstance(command, c.StartRound):
            ctx.set((), "round", enc.round + 1)
            ctx.set(("state",), "stage", "phases")
            ctx.set(("state",), "phase", 10)
            for fid in enc.order:
                roll = ctx.roll(1, 10, who=enc.fighters[fid].name, purpose="action die", fighter_id=fid)
                ctx.tx.set((("fighters", fid, "status")), "dice",
                           [{"id": 0, "face": roll.faces[0], "state": "ready"}])
            ctx.summary = f"Round {enc.round} starts"
        elif isinstance(command, c.NextStep):
            phase = enc.state.phase or 1
            if phase <= 1:
                ctx.fail("phase 1 is the last phase")
            ctx.set(("state",), "phase", phase - 1)
            ctx.summary = f"Phase {phase - 1}"
        elif isinstance(command, c.EndRound):
            ctx.set(("state",), "stage", "round-over")
            ctx.set(("state",), "phase", None)
            ctx.summary = f"Round {enc.round} ends"
        else:
            ctx.fail(f"practice has no rule for {command.kind}")



class PracticeViews(Views):
    """The practice views; the stack rows are kept here, set by the tests."""

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__(rules or PracticeRules())
        self.stack_rows: list[StackRow] = []

    def timeline(self, enc: Encounter) -> Timeline:
        lanes: list[Lane] = []
        seen_groups: set[str] = set()
        for fid in enc.order:
            f = enc.fighters[fid]
            members = [fid]
            if f.group:
                if f.group in seen_groups:
                    continue
                seen_groups.add(f.group)
                members = [m for m in enc.order if enc.fighters[m].group == f.group]
            chips = tuple(
                Chip(id=f"{m}:{d.id}", fighter_id=m, column=10 - d.face,
                     label=str(d.face) if len(members) == 1 else enc.fighters[m].name[-1],
                     state=d.state, tooltip=f"{enc.fighters[m].name}: die {d.face}",
                     clickable=d.state in ("ready", "held"))
                for m in members for d in enc.fighters[m].status.dice)
            title = enc.groups[f.group].name if f.group else f.name
            lanes.append(Lane(id=f.group or fid, title=title, fighter_ids=tuple(members),
                              chips=chips, compact=len(members) > 1,
                              out=all(enc.fighters[m].status.health <= 0 for m in members)))
        current = None if enc.state.phase is None else 10 - enc.state.phase
        return Timeline(columns=PHASES, lanes=tuple(lanes), current_column=current, caption="Phase")

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        f = enc.fighters[fighter_id]
        st = f.status
        acting = any(d.face == enc.state.phase and d.state == "ready" for d in st.dice)
        return Card(fighter_id=fighter_id, title=f.name, side=f.side, health=st.health,
                    health_max=f.sheet.health,
                    resources=(Resource("EP", st.ep), Resource("Chi", st.chi, f.sheet.chi)),
                    conditions=conditions.views(enc, fighter_id),
                    dice=tuple(str(d.face) for d in st.dice if d.state == "ready"),
                    acting=acting, out=st.health <= 0)

    def stack(self, enc: Encounter) -> tuple[StackRow, ...]:
        return tuple(self.stack_rows)

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        f = enc.fighters[fighter_id]
        dice = tuple((f"{fighter_id}:{d.id}", f"die {d.face}") for d in f.status.dice
                     if d.state == "ready")
        targets = tuple((o, enc.fighters[o].name) for o in enc.order if o != fighter_id)
        maneuvers = tuple((m.name, m.name) for m in f.sheet.maneuvers[:4])
        fields = (
            FormField("maneuver", "Maneuver", "choice", maneuvers, default=maneuvers[0][0]),
            FormField("target", "Target", "choice", targets, default=targets[0][0]),
            FormField("die", "Die", "choice", dice),
            FormField("ep", "EP for speed", "number", minimum=0, maximum=5, default=0),
            FormField("all_out", "All out", "flag", default=False),
        )
        return (
            ActionForm("act", "Act", fields, shortcut="F2", enabled=bool(dice),
                       reason="" if dice else "no unspent die"),
            ActionForm("interrupt", "Interrupt", fields, enabled=bool(dice),
                       reason="" if dice else "no unspent die"),
        )

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        ep = int(values.get("ep") or 0)
        have = enc.fighters[fighter_id].status.ep
        lines = (f"{values.get('maneuver')} at {enc.name_of(values.get('target'))}",
                 f"speed {3 + ep}")
        odds = (Odds("at least one success on 2d10 at TN 6", Fraction(3, 4)),)
        error = f"not enough EP: has {have}, needs {ep}" if ep > have else None
        return Preview(lines=lines, odds=odds, error=error)

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> c.Command:
        if form_id in ("act", "interrupt"):
            return c.FreeRoll(notation="2d10>=6", who=fighter_id)
        raise RuleViolation(f"no action {form_id!r}")

    def round_controls(self, enc: Encounter) -> RoundControls:
        in_phases = enc.state.stage == "phases"
        return RoundControls(can_start_round=not in_phases, can_next_step=in_phases,
                             can_end_round=in_phases, status="practice")

    def where(self, enc: Encounter) -> str:
        return "" if enc.state.phase is None else f"phase {enc.state.phase}"

    def describe_state(self, enc: Encounter) -> str:
        if enc.state.phase is None:
            return f"Round {enc.round}"
        return f"Round {enc.round}, phase {enc.state.phase}"


class PracticeEngine(Engine):
    """An engine whose encounter is read by the practice ruleset."""

    def __init__(self, session: Session, views: PracticeViews | None = None) -> None:
        super().__init__(session)
        self.practice = views or PracticeViews()
        self._parts = Ruleset(self.practice.rules, self.practice,
                              Autopilot(self.practice.rules, self.practice))

    @property
    def ruleset(self) -> Ruleset:
        return self._parts


def practice_engine() -> PracticeEngine:
    return PracticeEngine(demo_session())
