"""The d100 ruleset: the round, initiative and actions, on the shared turn order and
pending roll; the exchange is in ``exchange.py``, ``defense.py`` and ``damage.py``, the
views in ``views.py``.

Every rule names its section of docs/rulesets/d100.md. A round is one turn for each
fighter in the declared order (or an initiative method's), one action each; parry,
dodge and entangle are free, a counterstrike costs the defender's action, and an action
may be borrowed from the next round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import conditions, rulesets, turns
from ...base import Decision, DecisionField
from ...pending_roll import Contribution, PendingRoll
from ...ruleset import (
    ContributionOption,
    Odds,
)
from ...turn_ruleset import TurnOrderRules
from ...turns import TurnSection, TurnSlot
from . import commands as dc
from . import damage as dm
from . import defense as de
from . import exchange as ex
from . import values as v

if TYPE_CHECKING:
    from ...dice import Roll
    from ...model import Encounter, Fighter
    from ...ruleset import Context, Handler

PARTY = ("pc", "ally")
# docs/rulesets/d100.md#initiative: the bonus each method adds to its 1d100.
METHOD_BONUS = {"A": None, "B": "combat_skill", "C": "wit_skill", "D": None}
METHOD_WORDS = {"A": "1d100", "B": "1d100 + Combat", "C": "1d100 + Wit",
                "D": "1d100, then by seat"}


class D100(TurnOrderRules):
    """The d100 rules (docs/rulesets/d100.md)."""

    id = "d100"
    title = rulesets.info("d100").title
    # Injuries outlast one fight, and so does the damage to armour.
    lasting_status = ("hp",)
    quick_fields = ("strike", "parry", "dodge", "weapons.name", "weapons.damage")
    condition_names = ("Entangled",)
    condition_tick = "turn-start"

    # --- the round ----------------------------------------------------------------------------
    def handlers(self) -> dict[str, Handler]:
        return {
            **super().handlers(),
            "start-fight": self._start, "start-round": self._start, "answer": self._answer,
            "make-roll": self._make_roll, "d100-strike": self._strike,
            "d100-break-free": self._break_free, "d100-disarm": self._disarm,
            "d100-pick-up": self._pick_up, "d100-cover": self._cover,
            "d100-recover": self._recover, "d100-repair": self._repair,
        }

    def _start(self, ctx: Context, command: Any) -> None:
        if ctx.enc.state.stage in ("turns", "initiative"):
            ctx.fail("finish this round first (End Round)")
        self._new_round(ctx)

    def _make_roll(self, ctx: Context, command: Any) -> None:
        if not self._takes_the_strike(ctx, command.roll_id):
            super()._make_roll(ctx, command)

    def _new_round(self, ctx: Context) -> None:
        """docs/rulesets/d100.md#initiative: the declared order needs no roll; a method
        rolls every round, or once for the fight."""
        enc = ctx.enc
        method = enc.options.initiative
        if method == "declared":
            self._begin(ctx, self._declared(enc), {})
            return
        kept = enc.state.initiative
        if not enc.options.initiative_every_round and kept and \
                all(fid in kept for fid in enc.order if not self.is_out(enc.fighters[fid])):
            self._begin(ctx, self._by_rolls(enc, kept), kept)
            return
        rows = [DecisionField(name=fid, label=f"{enc.name_of(fid)}: {METHOD_WORDS[method]}",
                              minimum=1, maximum=100, optional=True)
                for fid in enc.order if not self.is_out(enc.fighters[fid])]
        round_no = enc.round + 1
        ctx.set(("state",), "stage", "initiative")
        ctx.set(("state",), "pending", Decision(
            id=f"initiative-{round_no}", prompt=f"Round {round_no} initiative: "
            f"method {method}, {METHOD_WORDS[method]} each", fields=rows, asks="the table"))
        ctx.summary = f"Round {round_no}: initiative (method {method})"
        ctx.say(ctx.summary, kind="ask")

    def _declared(self, enc: Encounter) -> list[str]:
        """The order the GM declared: last round's (with the GM's drags), else the fight's."""
        last = [s.fighter_id for s in turns.slots(enc.state.turns)]
        seen = [fid for fid in dict.fromkeys(last) if fid in enc.fighters]
        return seen + [fid for fid in enc.order if fid not in seen]

    def _answer(self, ctx: Context, command: Any) -> None:
        enc = ctx.enc
        pending = enc.state.pending
        if pending is None or pending.id != command.decision_id:
            ctx.fail("no such question is waiting")
        if pending.id.startswith("parry-"):
            de.answer_hit(self, ctx, command.choice, command.by)
            return
        method = enc.options.initiative
        scores: dict[str, int] = {}
        for row in pending.fields:
            fighter = enc.fighters.get(row.name)
            if fighter is None:
                continue
            typed = command.values.get(row.name)
            if typed is not None and not (isinstance(typed, int) and 1 <= typed <= 100):
                ctx.fail(f"{fighter.name}'s initiative roll must be a number from 1 to 100")
            record = ctx.roll(1, 100, who=fighter.name, purpose=f"initiative ({method})",
                              fighter_id=fighter.id, typed=None if typed is None else [typed])
            scores[row.name] = record.faces[0] + self._initiative_bonus(enc, fighter)
            record.outcome = f"initiative {scores[row.name]}"
        ctx.set(("state",), "pending", None)
        ctx.set(("state",), "initiative", scores)
        self._begin(ctx, self._by_rolls(enc, scores), scores)

    def _initiative_bonus(self, enc: Encounter, fighter: Fighter) -> int:
        skill = METHOD_BONUS.get(enc.options.initiative)
        return v.value(fighter, skill) if skill else 0

    def _by_rolls(self, enc: Encounter, scores: dict[str, int]) -> list[str]:
        """docs/rulesets/d100.md#initiative: highest first (ties: the higher bonus, then
        the fight's order); method D: the highest roller, then clockwise by seat."""
        place = {fid: i for i, fid in enumerate(enc.order)}
        rolled = [fid for fid in enc.order if fid in scores and fid in enc.fighters]
        ranked = sorted(rolled, key=lambda f: (-scores[f],
                                                -self._initiative_bonus(enc, enc.fighters[f]),
                                                place[f]))
        if enc.options.initiative != "D" or not ranked:
            return ranked
        seated = sorted((f for f in ranked if enc.fighters[f].sheet.seat > 0),
                        key=lambda f: (enc.fighters[f].sheet.seat, place[f]))
        unseated = [f for f in ranked if enc.fighters[f].sheet.seat == 0]
        if not seated:
            return ranked
        top = next(f for f in ranked if f in seated)
        at = seated.index(top)
        return seated[at:] + seated[:at] + unseated

    def _begin(self, ctx: Context, order: list[str], scores: dict[str, int]) -> None:
        """A new round: each fighter's action (none after borrowing, one every second round
        while seriously wounded), then the turns."""
        enc = ctx.enc
        new_round = enc.round + 1
        for fid in enc.order:
            fighter = enc.fighters[fid]
            st = fighter.status
            wounded = v.below_the_line(enc, fighter)
            since = st.wounded_round
            if wounded and since is None:  # the GM set the hit points by hand
                since = new_round - 1
                ctx.set(dm.path(fid), "wounded_round", since)
            elif not wounded and since is not None:
                since = None
                ctx.set(dm.path(fid), "wounded_round", None)
            acts = since is None or (new_round - since) % 2 == 0
            actions = 0 if st.owes or not acts else 1
            if st.owes:
                ctx.say(f"{fighter.name} borrowed this round's action: no action this round",
                        fighter_id=fid, kind="note")
                ctx.set(dm.path(fid), "owes", False)
            elif not acts:
                ctx.say(f"{fighter.name} is seriously wounded: no action this round",
                        fighter_id=fid, kind="note")
            ctx.set(dm.path(fid), "actions", actions)
            if st.defense_penalty:
                ctx.set(dm.path(fid), "defense_penalty", 0)
        label = "Declared order" if enc.options.initiative == "declared" else \
            f"Initiative ({enc.options.initiative})"
        section = TurnSection(id="round", label=label, slots=[
            TurnSlot(id=fid, fighter_id=fid, score=scores.get(fid)) for fid in order])
        self.start_round(ctx, [section])

    def on_turn_start(self, ctx: Context, fighter_id: str) -> None:
        """An entanglement ends when the entangler is out of the fight or gone."""
        fighter = ctx.enc.fighters[fighter_id]
        holder = v.entangled_by(fighter)
        if holder is not None:
            other = ctx.enc.fighters.get(holder)
            if other is None or self.is_out(other):
                conditions.remove(ctx, fighter_id, "Entangled")

    def has_turn_action(self, fighter: Fighter) -> bool:
        """docs/rulesets/d100.md#actions: an action left this round (a borrowed one is
        the GM's to choose, not the forward button's)."""
        return int(fighter.status.actions) > 0

    def turn_used(self, enc: Encounter, fighter: Fighter) -> str:
        """docs/rulesets/d100.md#holding: holding keeps this round's action for later in
        the round, so only while it is unused."""
        return "" if int(fighter.status.actions) > 0 else "no action left this round to hold"

    def value_set(self, ctx: Context, fighter_id: str, field: str, before: Any,
                  after: Any) -> None:
        """A health (or maximum) the GM types is read as a hit would be: out of the fight
        at 0, seriously wounded at once at 1/5 or less (docs/rulesets/d100.md#serious-wounds)."""
        if field in ("status.hp", "sheet.max_hp", "sheet.build"):
            hp = int(ctx.enc.fighters[fighter_id].status.hp)
            dm.health_changed(self, ctx, fighter_id, int(before) if field == "status.hp" else hp)

    def release(self, ctx: Context, fighter_id: str) -> None:
        """A fighter out of the fight lets go of everyone they entangle."""
        for fid in ctx.enc.order:
            if v.entangled_by(ctx.enc.fighters[fid]) == fighter_id:
                conditions.remove(ctx, fid, "Entangled")

    # --- the turn's action --------------------------------------------------------------------
    def _strike(self, ctx: Context, command: dc.Strike) -> None:
        me = self.turn_holder(ctx, command.fighter_id)
        foe = self.target(ctx, command.target_id)
        if foe.id == me.id:
            ctx.fail("choose someone else to strike")
        if self.is_out(foe):
            ctx.fail(f"{foe.name} is out of the fight")
        holder = v.entangled_by(me)
        if holder is not None:
            ctx.fail(f"{me.name} is entangled by {ctx.enc.name_of(holder)}: break free first")
        weapons = me.sheet.weapons
        if command.every_weapon:
            every = v.every_weapon(me)
            if not every:
                ctx.fail(f"{me.name} holds fewer than two weapons")
            if command.fierce:
                ctx.fail("no Fierce strike with every weapon at once")
            ex.open_strike(self, ctx, me, foe, every, False)
            return
        if command.weapon is not None:
            if not 0 <= command.weapon < len(weapons):
                ctx.fail(f"{me.name} has no weapon {command.weapon}")
            why = v.unusable(me, command.weapon)
            if why:
                ctx.fail(why)
        if command.fierce:
            why = v.may_be_fierce(ctx.enc, me, command.weapon)
            if why:
                ctx.fail(why)
        ex.open_strike(self, ctx, me, foe, command.weapon, command.fierce)

    def _opposed(self, ctx: Context, me: Fighter, other: Fighter,
                 why: str) -> tuple[int, int] | None:
        """Both roll 1d100 + Damage skill (docs/rulesets/d100.md#entangle). None: the
        other's player rolls their own dice and has not typed them yet, so their roll
        waits on the roll panel and the outcome follows when it is made."""
        mine = ctx.roll(1, 100, who=me.name, purpose=f"{why} (+ Damage skill)", fighter_id=me.id)
        a = mine.faces[0] + v.value(me, "damage_skill")
        mine.outcome = str(a)
        if other.rolls_own_dice and not ctx.dice.typed_waiting:
            self.open_roll(ctx, PendingRoll(
                id=0, label=f"{other.name} rolls resisting {me.name}'s {why} (+ Damage skill)",
                roller_id=other.id, by_player=True, sides=100, measure="Damage skill",
                base=v.value(other, "damage_skill"),
                data={"kind": "opposed", "why": why, "actor": me.id, "target": other.id,
                      "opposed_total": a}))
            ctx.summary = f"{me.name}: {a}; {other.name} rolls to resist"
            return None
        theirs = ctx.roll(1, 100, who=other.name, purpose=f"resisting {me.name}'s {why} (+ Damage skill)",
                          fighter_id=other.id)
        b = theirs.faces[0] + v.value(other, "damage_skill")
        theirs.outcome = str(b)
        return a, b

    def _resolve_opposed(self, ctx: Context, roll: PendingRoll, result: Roll) -> None:
        """The other player's own roll against a break free or a disarm, now made."""
        enc = ctx.enc
        me = enc.fighters.get(str(roll.data["actor"]))
        other = enc.fighters.get(str(roll.data["target"]))
        b = result.faces[0] + roll.total
        result.outcome = str(b)
        if me is None or other is None:
            ctx.summary = f"{roll.label}: nobody left to roll against"
            return
        a = int(roll.data["opposed_total"])
        if roll.data["why"] == "breaking free":
            self._broke_free(ctx, me, other, a, b)
        else:
            self._disarmed(ctx, me, other, a, b)

    def _break_free(self, ctx: Context, command: dc.BreakFree) -> None:
        """docs/rulesets/d100.md#entangle: the entangled fighter's action; only winning
        breaks free (ties hold)."""
        me = self.turn_holder(ctx, command.fighter_id)
        holder = v.entangled_by(me)
        if holder is None or holder not in ctx.enc.fighters:
            ctx.fail(f"{me.name} is not entangled")
        other = ctx.enc.fighters[holder]
        ex.use_action(ctx, me, "breaking free")
        ctx.say(f"{me.name} tries to break free", fighter_id=me.id, kind="act",
                maneuver="break free")
        rolled = self._opposed(ctx, me, other, "breaking free")
        if rolled is not None:
            self._broke_free(ctx, me, other, *rolled)

    def _broke_free(self, ctx: Context, me: Fighter, other: Fighter, a: int, b: int) -> None:
        if a > b:
            conditions.remove(ctx, me.id, "Entangled")
            ctx.summary = f"{me.name} breaks free of {other.name} ({a} to {b})"
        else:
            ctx.summary = f"{me.name} stays entangled by {other.name} ({a} to {b})"
        ctx.say(ctx.summary, fighter_id=me.id, kind="resolve")

    def _disarm(self, ctx: Context, command: dc.Disarm) -> None:
        """docs/rulesets/d100.md#entangle: the entangler's action; beat 1.5 x the other's
        roll, and the entangled fighter drops what they hold."""
        me = self.turn_holder(ctx, command.fighter_id)
        foe = self.target(ctx, command.target_id)
        if v.entangled_by(foe) != me.id:
            ctx.fail(f"{me.name} does not hold {foe.name} entangled")
        if not v.held_weapons(foe):
            ctx.fail(f"{foe.name} holds no weapon")
        ex.use_action(ctx, me, "a disarm")
        ctx.say(f"{me.name} tries to disarm {foe.name}", fighter_id=me.id, kind="act",
                maneuver="disarm")
        rolled = self._opposed(ctx, me, foe, "disarm")
        if rolled is not None:
            self._disarmed(ctx, me, foe, *rolled)

    def _disarmed(self, ctx: Context, me: Fighter, foe: Fighter, a: int, b: int) -> None:
        need = b + b // 2
        if a > need:
            ctx.set(dm.path(foe.id), "dropped", list(range(len(foe.sheet.weapons))))
            ctx.summary = f"{me.name} disarms {foe.name} ({a} beats {need})"
        else:
            ctx.summary = f"{me.name} fails to disarm {foe.name} ({a}, needed more than {need})"
        ctx.say(ctx.summary, fighter_id=me.id, kind="resolve")

    def _pick_up(self, ctx: Context, command: dc.PickUp) -> None:
        """docs/rulesets/d100.md#natural-01-10: picking dropped weapons up is an action."""
        me = self.turn_holder(ctx, command.fighter_id)
        if not me.status.dropped:
            ctx.fail(f"{me.name} has dropped nothing")
        holder = v.entangled_by(me)
        if holder is not None:
            ctx.fail(f"{me.name} is entangled by {ctx.enc.name_of(holder)}: break free first")
        ex.use_action(ctx, me, "picking up")
        ctx.set(dm.path(me.id), "dropped", [])
        ctx.summary = f"{me.name} picks up their weapons"
        ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver="pick up")

    def _cover(self, ctx: Context, command: dc.SetCover) -> None:
        fighter = self.target(ctx, command.fighter_id)
        if fighter.status.cover == command.cover:
            ctx.fail(f"{fighter.name} is already there")
        ctx.set(dm.path(fighter.id), "cover", command.cover)
        words = {"none": "out of cover", "partial": "behind partial cover",
                 "full": "behind full cover"}
        ctx.summary = f"GM: {fighter.name} is {words[command.cover]}"
        ctx.say(ctx.summary, fighter_id=fighter.id, kind="override")

    def _repair(self, ctx: Context, command: dc.RepairWeapon) -> None:
        """docs/rulesets/d100.md#weapon-destruction: at 0 a weapon is repairable, unless
        destroyed."""
        fighter = self.target(ctx, command.fighter_id)
        weapons = fighter.sheet.weapons
        if not command.weapon < len(weapons):
            ctx.fail(f"{fighter.name} has no weapon {command.weapon}")
        name = weapons[command.weapon].name
        if v.destroyed(fighter, command.weapon):
            ctx.fail(f"{fighter.name}'s {name} is destroyed beyond repair")
        full = int(weapons[command.weapon].hp)
        if v.weapon_hp(fighter, command.weapon) >= full:
            ctx.fail(f"{fighter.name}'s {name} is not damaged")
        hp = [v.weapon_hp(fighter, i) for i in range(len(weapons))]
        hp[command.weapon] = full
        ctx.set(dm.path(fighter.id), "weapon_hp", hp)
        ctx.summary = f"GM: {fighter.name}'s {name} is repaired ({full} HP)"
        ctx.say(ctx.summary, fighter_id=fighter.id, kind="override")

    def _recover(self, ctx: Context, command: dc.Recover) -> None:
        """docs/rulesets/d100.md#alternative-hit-points: out of combat, perceived damage
        recovers Recovery a minute, never past the critical damage; critical damage
        recovers Recovery an hour of sleep (double with medical attention), or a minute
        with Healing Factor."""
        enc = ctx.enc
        if not enc.options.alternative_hp:
            ctx.fail("recovery is part of the alternative hit point rules (Fight > Options)")
        if enc.state.stage in ("turns", "initiative"):
            ctx.fail("recovery is out of combat: end the round first")
        fighter = self.target(ctx, command.fighter_id)
        if command.minutes <= 0 and command.hours <= 0:
            ctx.fail("how long: minutes of rest or hours of sleep")
        rate = int(fighter.sheet.recovery)
        critical = int(fighter.status.critical)
        mended = command.hours * rate * (2 if command.medical else 1)
        if fighter.sheet.healing_factor:
            mended += (command.minutes + 60 * command.hours) * rate
        critical = max(0, critical - mended)
        build = int(fighter.sheet.build)
        hp = min(build - critical, int(fighter.status.hp) + (command.minutes + 60 * command.hours) * rate)
        hp = max(int(fighter.status.hp), hp)
        ctx.set(dm.path(fighter.id), "critical", critical)
        ctx.set(dm.path(fighter.id), "hp", hp)
        ctx.summary = (f"{fighter.name} recovers: health {hp} of {build}, critical damage "
                       f"{critical}")
        ctx.say(ctx.summary, fighter_id=fighter.id, kind="note")

    # --- the waiting rolls --------------------------------------------------------------------
    def _takes_the_strike(self, ctx: Context, roll_id: int | None) -> bool:
        """A defense roll with "no defense" chosen is not rolled: the strike hits; one
        with nothing chosen waits for the choice."""
        roll = ctx.enc.state.roll
        if roll is None or roll_id not in (None, roll.id) or roll.data.get("kind") != "defense":
            return False
        chosen = de.chosen_defense(roll)
        if chosen is None:
            ctx.fail(self.roll_blocked(ctx.enc, roll))
        if chosen != de.TAKE:
            return False
        de.take_the_strike(self, ctx, roll)
        return True

    def roll_blocked(self, enc: Encounter, roll: PendingRoll) -> str:
        """A defense roll waits for the defender's choice (docs/rulesets/d100.md#defense)."""
        if roll.data.get("kind") == "defense" and de.chosen_defense(roll) is None:
            return "choose parry, dodge or entangle (or no defense) first"
        return ""

    def pay(self, ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str,
            amount: int) -> Contribution:
        if roll.data.get("kind") == "strike" and kind.startswith("counter"):
            return ex.pay_counter(ctx, roll, fighter_id, kind)
        if roll.data.get("kind") == "defense":
            return de.pay_defense(ctx, roll, fighter_id, kind)
        ctx.fail("nothing can be added to this roll")

    def refund(self, ctx: Context, roll: PendingRoll, contribution: Contribution) -> None:
        fid = contribution.fighter_id
        if fid is not None and fid in ctx.enc.fighters:
            ex.give_back(ctx, ctx.enc.fighters[fid], contribution.paid)

    def resolve(self, ctx: Context, roll: PendingRoll, result: Roll) -> None:
        kind = roll.data.get("kind")
        if kind == "strike":
            ex.resolve_strike(self, ctx, roll, result)
        elif kind == "defense":
            de.resolve_defense(self, ctx, roll, result)
        elif kind == "counter":
            ex.resolve_counter(self, ctx, roll, result)
        elif kind == "opposed":
            self._resolve_opposed(ctx, roll, result)

    def contribution_options(self, enc: Encounter,
                             roll: PendingRoll) -> tuple[ContributionOption, ...]:
        kind = roll.data.get("kind")
        if kind == "strike":
            return tuple(ex.counter_options(self, enc, roll))
        if kind == "defense":
            return tuple(de.defense_options(self, enc, roll))
        return ()

    def roll_odds(self, enc: Encounter, roll: PendingRoll) -> tuple[Odds, ...]:
        kind = roll.data.get("kind")
        if kind == "strike":
            return ex.strike_odds(self, enc, roll)
        if kind == "defense":
            return de.defense_odds(self, enc, roll)
        if kind == "counter":
            return ex.counter_odds(enc, roll)
        return ()



    def check_state(self, enc: Encounter) -> list[tuple[str, str]]:
        problems = []
        for fid, fighter in enc.fighters.items():
            for i in fighter.status.dropped:
                if not 0 <= i < len(fighter.sheet.weapons):
                    problems.append((f"fighters.{fid}.status.dropped",
                                     f"names weapon {i}, which the sheet does not have"))
        return problems

