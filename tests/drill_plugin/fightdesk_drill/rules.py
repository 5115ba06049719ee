"""The drill's rules (described in tests/drill_ruleset.py, which plays them on roll-under
data too)."""

from __future__ import annotations

from typing import Any

from fightdesk.engine import commands as c
from fightdesk.engine import conditions as kit_conditions
from fightdesk.engine.base import Condition, Decision, DecisionField
from fightdesk.engine.dice import Roll
from fightdesk.engine.odds import d20_at_or_under
from fightdesk.engine.pending_roll import Contribution, PendingRoll
from fightdesk.engine.ruleset import (
    Context,
    ContributionOption,
    Handler,
    Odds,
)
from fightdesk.engine.turn_ruleset import TurnOrderRules
from fightdesk.engine.turns import TurnSection, TurnSlot

DAZED = "Dazed"


class Strike(c.Command):
    kind: str = "drill-strike"
    fighter_id: str
    target_id: str


class Feint(c.Command):
    kind: str = "drill-feint"
    fighter_id: str
    target_id: str


class DrillRuleset(TurnOrderRules):
    """The drill's rules."""

    id = "drill"
    title = "Drill"
    condition_names = (DAZED, "Shoved")

    def __init__(self) -> None:
        self.timer_seconds = 0

    # --- the round -----------------------------------------------------------------------------
    def handlers(self) -> dict[str, Handler]:
        return {**super().handlers(), "start-round": self._start, "start-fight": self._start,
                "answer": self._answer, "drill-strike": self._strike, "drill-feint": self._feint}

    def _start(self, ctx: Context, command: c.Command) -> None:
        if ctx.enc.state.stage in ("turns", "initiative"):
            ctx.fail("finish this round first (End Round)")
        self._ask_initiative(ctx)

    def _ask_initiative(self, ctx: Context) -> None:
        pcs = [fid for fid in ctx.enc.order if ctx.enc.fighters[fid].side == "pc"]
        fields = [DecisionField(name=fid, label=f"{ctx.enc.name_of(fid)}'s Wisdom roll",
                                minimum=1, maximum=20, optional=True) for fid in pcs]
        ctx.set(("state",), "stage", "initiative")
        ctx.set(("state",), "pending", Decision(
            id="initiative", prompt="Each player rolls Wisdom (d20, at or under)",
            fields=fields, asks="the players"))
        ctx.summary = "Initiative: each player rolls Wisdom"
        ctx.say(ctx.summary, kind="ask")

    def _answer(self, ctx: Context, command: c.Answer) -> None:
        enc = ctx.enc
        pending = enc.state.pending
        if pending is None or pending.id != command.decision_id:
            ctx.fail("no such question is waiting")
        quick: list[TurnSlot] = []
        slow: list[TurnSlot] = []
        for fid in enc.order:
            fighter = enc.fighters[fid]
            if fighter.side != "pc":
                slow.append(TurnSlot(id=fid, fighter_id=fid, free=fighter.sheet.acts_out_of_order))
                continue
            typed = command.values.get(fid)
            who = fighter.name
            roll = ctx.roll(1, 20, who=who, purpose="Wisdom", fighter_id=fid,
                            typed=None if typed is None else [int(typed)])
            face = roll.faces[0]
            slot = TurnSlot(id=fid, fighter_id=fid, score=face)
            (quick if face <= fighter.sheet.wisdom else slow).append(slot)
        ctx.set(("state",), "pending", None)
        self.start_round(ctx, [TurnSection(id="quick", label="Quick", slots=quick),
                               TurnSection(id="slow", label="Slow", slots=slow)])
        ctx.summary = f"Round {ctx.enc.round}: {len(quick)} quick, {len(slow)} slow"

    def turn_timer(self, enc: Any) -> int:
        return self.timer_seconds

    # --- a strike: a roll others change before it is made ------------------------------------
    def _my_turn(self, ctx: Context, fid: str) -> None:
        from fightdesk.engine.turns import current_fighter

        if ctx.enc.state.stage != "turns" or current_fighter(ctx.enc.state.turns) != fid:
            ctx.fail(f"not {ctx.enc.name_of(fid)}'s turn")
        if ctx.enc.state.roll is not None:
            ctx.fail("a roll is already waiting")

    def _strike(self, ctx: Context, command: Strike) -> None:
        enc = ctx.enc
        self._my_turn(ctx, command.fighter_id)
        if command.target_id not in enc.fighters or command.target_id == command.fighter_id:
            ctx.fail("choose someone else to strike")
        me, foe = enc.fighters[command.fighter_id], enc.fighters[command.target_id]
        target = me.sheet.attack - (foe.sheet.defense - 10)
        self.open_roll(ctx, PendingRoll(
            id=0, label=f"{me.name} strikes {foe.name}", roller_id=me.id,
            by_player=me.side == "pc", what="dice", count=1, sides=20, base=target,
            data={"attacker": me.id, "target": foe.id}))
        ctx.summary = f"{me.name} strikes at {foe.name}: {target} or less, before help"

    def pay(self, ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str,
            amount: int) -> Contribution:
        enc = ctx.enc
        if fighter_id is None or fighter_id not in enc.fighters:
            ctx.fail("who gives it?")
        st = enc.fighters[fighter_id].status
        if kind == "assist":
            if fighter_id in (roll.data["attacker"], roll.data["target"]):
                ctx.fail("no self-assists: an ally assists")
            if amount < 1 or amount > st.assists:
                ctx.fail(f"{enc.name_of(fighter_id)} has {st.assists} assist(s) left")
            ctx.set(("fighters", fighter_id, "status"), "assists", st.assists - amount)
            return Contribution(id=0, fighter_id=fighter_id, kind="assist", label="assist",
                                amount=amount, cost=f"{amount} assist(s)",
                                paid={"assists": amount})
        if kind == "brace":
            if fighter_id != roll.data["target"]:
                ctx.fail("only the target braces")
            if any(x.kind == "brace" for x in roll.contributions):
                ctx.fail("already braced")
            if st.assists < 1:
                ctx.fail(f"{enc.name_of(fighter_id)} has no assist left to brace with")
            ctx.set(("fighters", fighter_id, "status"), "assists", st.assists - 1)
            return Contribution(id=0, fighter_id=fighter_id, kind="brace", label="brace",
                                amount=-2, cost="1 assist", paid={"assists": 1})
        ctx.fail(f"no contribution {kind!r} in drill")

    def refund(self, ctx: Context, roll: PendingRoll, contribution: Contribution) -> None:
        fid = contribution.fighter_id
        if fid is not None and fid in ctx.enc.fighters:
            st = ctx.enc.fighters[fid].status
            ctx.set(("fighters", fid, "status"), "assists",
                    st.assists + contribution.paid.get("assists", 0))

    def resolve(self, ctx: Context, roll: PendingRoll, result: Roll) -> None:
        enc = ctx.enc
        face = result.faces[0]
        foe = roll.data["target"]
        if face > roll.total:
            result.outcome = f"miss ({face} over {roll.total})"
            ctx.summary = f"{roll.label}: miss"
            return
        result.outcome = f"hit ({face}, needed {roll.total} or less)"
        damage = ctx.roll(1, 6, who=enc.name_of(roll.data["attacker"]), purpose="damage",
                          fighter_id=roll.data["attacker"])
        amount = damage.faces[0]
        st = enc.fighters[foe].status
        ctx.set(("fighters", foe, "status"), "hp", max(0, st.hp - amount))
        ctx.say(f"{enc.name_of(foe)} takes {amount} damage", fighter_id=foe, kind="damage",
                target=foe, amount=amount, source=roll.data["attacker"])
        if face == 1:
            kit_conditions.add(ctx, foe, Condition(name=DAZED, duration="rounds",
                                                   rounds_left=2, tick="round-end"))
        ctx.summary = f"{roll.label}: hit for {amount}"

    def roll_odds(self, enc: Any, roll: PendingRoll) -> tuple[Odds, ...]:
        return (Odds(f"{roll.total} or less on a d20", d20_at_or_under(roll.total)),)

    def contribution_options(self, enc: Any, roll: PendingRoll) -> tuple[ContributionOption, ...]:
        out: list[ContributionOption] = []
        for fid in enc.order:
            st = enc.fighters[fid].status
            name = enc.name_of(fid)
            if fid == roll.data["target"]:
                if st.assists and not any(x.kind == "brace" for x in roll.contributions):
                    out.append(ContributionOption(fid, name, "brace", "brace (-2)", cost="1 assist"))
            elif fid != roll.data["attacker"] and st.assists:
                out.append(ContributionOption(fid, name, "assist", "assist", 1, st.assists, 1,
                                              "1 assist a point"))
        return tuple(out)

    # --- a feint: coins --------------------------------------------------------------------------
    def _feint(self, ctx: Context, command: Feint) -> None:
        enc = ctx.enc
        self._my_turn(ctx, command.fighter_id)
        flips = ctx.flip(2, who=enc.name_of(command.fighter_id), purpose="feint",
                         fighter_id=command.fighter_id)
        heads = flips.faces.count(2)
        flips.outcome = f"{heads} heads"
        if heads == 2:
            st = enc.fighters[command.target_id].status
            ctx.set(("fighters", command.target_id, "status"), "hp", max(0, st.hp - 1))
            ctx.say(f"{enc.name_of(command.target_id)} loses 1 HP to the feint",
                    fighter_id=command.target_id, kind="damage", target=command.target_id,
                    amount=1, source=command.fighter_id)
        ctx.summary = f"{enc.name_of(command.fighter_id)} feints: {heads} heads"


    def pending(self, enc: Any) -> Decision | None:
        return enc.state.pending


class Drill(DrillRuleset):
    """The drill as its plugin registers it: the rules above, with a fighter at 0 HP out
    of the fight and the lasting values the library carries."""

    lasting_status = ("hp", "assists")

    def is_out(self, fighter: Any) -> bool:
        return int(fighter.status.hp) <= 0

    def handlers(self) -> dict[str, Handler]:
        table = super().handlers()
        for kind, what in (("drill-strike", "strikes at"), ("drill-feint", "feints at")):
            table[kind] = _said(what, table[kind])
        return table


def _said(what: str, handler: Handler) -> Handler:
    """The handler of an action, first saying it as the summary counts it: who acts, and
    what they do."""

    def said(ctx: Context, command: Any) -> None:
        ctx.say(f"{ctx.enc.name_of(command.fighter_id)} {what} "
                f"{ctx.enc.name_of(command.target_id)}", kind="act",
                fighter_id=command.fighter_id, action=what.split()[0])
        handler(ctx, command)

    return said


