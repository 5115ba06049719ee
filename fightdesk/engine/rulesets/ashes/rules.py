"""The ashes ruleset: the rules, on the shared turn order and pending roll.

Every rule names its section of docs/rulesets/ashes.md. The round: an optional surprise
round for the fighters who start the fight, then each round in initiative order. A turn
is one offensive action, movement and free actions; defensive skills and dodges are spent
on the challenges others make, as contributions to the waiting coin flip, at a speed cost
that rises with each use and is capped by burst.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import pending_roll, rulesets, turns
from ...odds import AUTOMATIC_BEYOND, challenge_odds
from ...pending_roll import Contribution, PendingRoll
from ...ruleset import ContributionOption, Odds
from ...turn_ruleset import ROLL, TurnOrderRules
from ...turns import TurnOrder, TurnSection, TurnSlot
from . import commands as ash
from . import health
from .model import AshesSkill, Cooperative, CoopPart
from .totals import (
    DODGE_STEP,
    RESIST_WORDS,
    STANCE_FREE,
    attacking_total,
    defending_total,
    defense_use_cost,
    defensive_skills,
    is_out_of_fight,
    pool_now,
    skill_of,
    status_path,
    with_skill,
)

if TYPE_CHECKING:
    from ...dice import Roll
    from ...model import Encounter, Fighter
    from ...ruleset import Context, Handler


class Ashes(TurnOrderRules):
    """The ashes rules (docs/rulesets/ashes.md)."""

    id = "ashes"
    title = rulesets.info("ashes").title
    roll_waiting_line = "a challenge is waiting: flip it first"
    # Injuries and spent Force and physical stats outlast one fight (recovery brings them back).
    lasting_status = ("hp", "force", "physical")
    quick_fields = ("speed", "passive_defense", "skills.name", "skills.rating")
    condition_names = ("Stunned", "Unconscious")

    def value_set(self, ctx: Context, fighter_id: str, field: str, before: Any,
                  after: Any) -> None:
        """docs/rulesets/ashes.md#hit-points: HP the GM takes off are damage like any
        other ("damage of any kind"): they count for the half-HP rule."""
        if field == "status.hp" and int(after) < int(before):
            health.after_damage(ctx, fighter_id, int(before) - int(after), int(before))

    def rested_values(self, sheet: Any) -> dict[str, Any]:
        values = super().rested_values(sheet)
        values["physical"] = dict(getattr(sheet, "physical", {}))
        values["speed"] = getattr(sheet, "speed", 0)
        return values

    # --- the round ----------------------------------------------------------------------------
    def handlers(self) -> dict[str, Handler]:
        return {
            **super().handlers(),
            "start-fight": self._start_fight, "start-round": self._start_round,
            "ash-challenge": self._challenge, "ash-dc": self._dc, "ash-stance": self._stance,
            "ash-move": self._move, "ash-free": self._free,
            "ash-coop-start": self._coop_start, "ash-coop-join": self._coop_join,
            "ash-initiator": self._set_initiator, "ash-damage": health.gm_damage,
            "ash-recover": health.recover, "ash-flip": self._flip,
        }

    def _start_round(self, ctx: Context, command: Any) -> None:
        if ctx.enc.state.stage == "turns":
            ctx.fail("finish this round first (End Round)")
        self._begin_round(ctx)

    def _flip(self, ctx: Context, command: Any) -> None:
        roll = ctx.enc.state.roll
        if roll is None:
            ctx.fail("no challenge is waiting")
        pending_roll.make(ctx, ROLL, self, roll.id)

    def _start_fight(self, ctx: Context, command: Any) -> None:
        """docs/rulesets/ashes.md#surprise-round: only the fighters who start the fight act
        in it (and those a skill lets act); without them round 1 is a normal round."""
        enc = ctx.enc
        if enc.round or enc.state.stage != "setup":
            ctx.fail("the fight has already started")
        initiators = [fid for fid in enc.order if enc.fighters[fid].status.initiator]
        if not initiators:
            self._begin_round(ctx)
            return
        awake = [fid for fid in enc.order
                 if fid in initiators or enc.fighters[fid].sheet.negates_surprise]
        self._refill(ctx)
        ctx.set((), "round", 1)
        ctx.set(("state",), "surprise", True)
        ctx.say("Round 1 is a surprise round", kind="round-start")
        ctx.summary = "Surprise round: " + ", ".join(enc.name_of(f) for f in awake) + " act"
        self.lay_out(ctx, [TurnSection(id="surprise", label="Surprise round",
                                       slots=self._ordered_slots(enc, awake))])

    def _begin_round(self, ctx: Context) -> None:
        """docs/rulesets/ashes.md#initiative: every round in initiative order; speed and
        the round's spending start afresh."""
        enc = ctx.enc
        self._refill(ctx)
        ctx.set(("state",), "surprise", False)
        self.start_round(ctx, [TurnSection(id="initiative", label="Initiative",
                                           slots=self._ordered_slots(enc, list(enc.order)))])

    def _ordered_slots(self, enc: Encounter, fids: list[str]) -> list[TurnSlot]:
        """Highest initiative first (ties: the fight's order, which the GM drags); extra
        turns from skills come after everyone's first turn, in the same order."""
        ranked = sorted(fids, key=lambda f: -int(enc.fighters[f].sheet.initiative))
        slots = [TurnSlot(id=f, fighter_id=f, score=int(enc.fighters[f].sheet.initiative))
                 for f in ranked]
        most = max((int(enc.fighters[f].sheet.extra_turns) for f in ranked), default=0)
        for n in range(1, most + 1):
            slots.extend(TurnSlot(id=f"{f}#{n + 1}", fighter_id=f, extra=True,
                                  score=int(enc.fighters[f].sheet.initiative))
                         for f in ranked if int(enc.fighters[f].sheet.extra_turns) >= n)
        return slots

    def _refill(self, ctx: Context) -> None:
        """A new round: speed back to the speed stat, the offensive action back, no
        defensive uses, burst spending and damage this round."""
        fresh = {"offense": None, "attacks_left": 0, "defenses": 0, "defense_speed": 0,
                 "dodge_speed": 0, "move_speed": 0, "free_defenses": 0, "free_metres": 1,
                 "damage_this_round": 0}
        for fid, fighter in ctx.enc.fighters.items():
            st = fighter.status
            values = {**fresh, "speed": int(fighter.sheet.speed)}
            for key, value in values.items():
                if getattr(st, key) != value:
                    ctx.set(status_path(fid), key, value)

    def on_turn_start(self, ctx: Context, fighter_id: str) -> None:
        """docs/rulesets/ashes.md#initiative: an extra turn from a skill brings another
        offensive action (not one lost to the half-HP rule);
        docs/rulesets/ashes.md#cooperative-actions: a cooperative action whose last
        participant acted more than a turn ago falls apart."""
        slot = turns.current_slot(ctx.enc.state.turns)
        fighter = ctx.enc.fighters.get(fighter_id)
        if slot is not None and slot.extra and fighter is not None:
            used = fighter.status.offense
            if used is not None and not used.startswith("lost"):
                ctx.set(status_path(fighter_id), "offense", None)
                ctx.set(status_path(fighter_id), "attacks_left", 0)
                ctx.say(f"{fighter.name}'s extra turn: another offensive action",
                        fighter_id=fighter_id, kind="note")
        coop = ctx.enc.state.cooperative
        if coop is not None and ctx.enc.state.turns.turn_number - coop.last_turn > 1:
            ctx.set(("state",), "cooperative", None)
            ctx.say(f"The cooperative action on {ctx.enc.name_of(coop.target_id)} falls apart: "
                    "nobody completed it within a turn", kind="note")

    def may_hold(self, enc: Encounter, order: TurnOrder, slot: TurnSlot, after: str) -> str | None:
        """docs/rulesets/ashes.md#holding: only for a fighter of lower initiative."""
        mine = int(enc.fighters[slot.fighter_id].sheet.initiative)
        theirs = int(enc.fighters[after].sheet.initiative)
        if mine <= theirs:
            return f"initiative {mine} is not higher than {enc.name_of(after)}'s {theirs}"
        return None

    def has_turn_action(self, fighter: Fighter) -> bool:
        """docs/rulesets/ashes.md#action-economy: the offensive action unused, or
        challenges of it still to make."""
        return fighter.status.offense is None or int(fighter.status.attacks_left) > 0

    def turn_used(self, enc: Encounter, fighter: Fighter) -> str:
        """docs/rulesets/ashes.md#holding: a fighter holds their action, so only while the
        round's offensive action is unused."""
        used = fighter.status.offense
        if used is None:
            return ""
        if used.startswith("lost"):
            return f"no offensive action left to hold ({used})"
        return f"already used this round's offensive action ({used})"

    # --- the offensive action -------------------------------------------------------------------
    def _other(self, ctx: Context, fid: str | None, me: Fighter) -> Fighter:
        foe = self.target(ctx, fid)
        if foe.id == me.id:
            ctx.fail("choose someone else")
        return foe

    def _skill(self, ctx: Context, me: Fighter, name: str | None) -> AshesSkill | None:
        if name is None:
            return None
        skill = skill_of(me, name)
        if skill is None or skill.kind != "offensive":
            ctx.fail(f"{me.name} has no offensive skill {name!r}")
        return skill

    def _use_offense(self, ctx: Context, me: Fighter, what: str, attacks: int = 1) -> None:
        """docs/rulesets/ashes.md#action-economy: one offensive action a round."""
        st = me.status
        if st.offense is not None:
            ctx.fail(f"{me.name} has already used this round's offensive action ({st.offense})")
        ctx.set(status_path(me.id), "offense", what)
        ctx.set(status_path(me.id), "attacks_left", attacks - 1)
        if st.readying is not None and not what.startswith(f"readying {st.readying}"):
            ctx.set(status_path(me.id), "readying", None)
            ctx.set(status_path(me.id), "readied", 0)

    def _pay(self, ctx: Context, me: Fighter, costs: dict[str, int]) -> None:
        """docs/rulesets/ashes.md#force-and-physical-stats: spend the points a use costs."""
        for pool, amount in costs.items():
            if pool_now(me, pool) < amount:
                ctx.fail(f"{me.name} has {pool_now(me, pool)} {pool.title()}, needs {amount}")
        for pool, amount in costs.items():
            now = pool_now(me, pool)
            if pool == "force":
                ctx.set(status_path(me.id), "force", now - amount)
            else:
                physical = {**me.sheet.physical, **ctx.enc.fighters[me.id].status.physical}
                physical[pool] = now - amount
                ctx.set(status_path(me.id), "physical", physical)
            # Speed is the summary's points; Force and stats are told in words.
            ctx.say(f"{me.name} spends {amount} {pool.title()}", fighter_id=me.id,
                    kind="note", pool=pool, amount=amount)
            if pool != "force" and now - amount <= 0:
                ctx.say(f"{me.name}'s {pool} is at 0: unconscious", fighter_id=me.id,
                        kind="note")

    def _challenge(self, ctx: Context, command: ash.Challenge) -> None:
        """docs/rulesets/ashes.md#challenges."""
        me = self.turn_holder(ctx, command.fighter_id)
        foe = self._other(ctx, command.target_id, me)
        skill = self._skill(ctx, me, command.skill)
        st = me.status
        name = skill.name if skill else "unskilled"
        again = skill is not None and st.offense == skill.name and st.attacks_left > 0
        if again:
            ctx.set(status_path(me.id), "attacks_left", st.attacks_left - 1)
        elif skill is not None and skill.rounds > 1:
            if not self._ready(ctx, me, skill):
                return
        else:
            self._use_offense(ctx, me, name, skill.attacks if skill else 1)
        penalty = int(ctx.enc.options.unskilled_penalty)
        total, costs, parts = attacking_total(me, skill, command.pump, command.auxiliaries,
                                              penalty)
        self._pay(ctx, me, costs)
        resisted = command.resisted_by or (skill.resisted_by if skill else "body")
        self._open_challenge(ctx, me, foe, total, resisted, kind="challenge", skill=name,
                             damage=int(skill.damage) if skill else 0, parts=parts)

    def _ready(self, ctx: Context, me: Fighter, skill: AshesSkill) -> bool:
        """docs/rulesets/ashes.md#multi-round-weapons: a weapon that needs several rounds
        of offensive actions makes its challenge on the last of them; True then."""
        st = me.status
        done = int(st.readied) if st.readying == skill.name else 0
        if done + 1 >= skill.rounds:
            self._use_offense(ctx, me, skill.name, skill.attacks)
            ctx.set(status_path(me.id), "readying", None)
            ctx.set(status_path(me.id), "readied", 0)
            return True
        self._use_offense(ctx, me, f"readying {skill.name}")
        ctx.set(status_path(me.id), "readying", skill.name)
        ctx.set(status_path(me.id), "readied", done + 1)
        ctx.summary = f"{me.name} readies {skill.name} ({done + 1} of {skill.rounds} rounds)"
        ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver=skill.name)
        return False

    def _open_challenge(self, ctx: Context, me: Fighter, foe: Fighter | None, attack: int,
                        resisted: str, *, kind: str, skill: str, damage: int,
                        parts: list[str], defense: int | None = None,
                        defense_words: str = "", reacts_to: str = "") -> None:
        if defense is None:
            assert foe is not None
            defense = defending_total(foe, resisted)
            defense_words = f"{RESIST_WORDS[resisted]} + passive defense"
        against = foe.name if foe is not None else "a difficulty"
        verb = {"challenge": "challenges", "counter": "counter-challenges",
                "cooperative": "completes the cooperative action on",
                "dc": "makes a challenge against"}[kind]
        how = "" if kind == "cooperative" else f" {with_skill(skill)}"
        label = f"{me.name} {verb} {against}{how} ({attack} against {defense})"
        roll = PendingRoll(
            id=0, label=label, roller_id=me.id, what="coins", sides=2, measure="advantage",
            base=attack - defense, count=7 + abs(attack - defense),
            data={"kind": kind, "actor": me.id, "target": foe.id if foe else None,
                  "target_name": against,
                  "skill": skill, "attack": attack, "defense": defense, "damage": damage,
                  "resisted_by": resisted, "parts": " + ".join(parts),
                  "defense_parts": defense_words, "reacts_to": reacts_to})
        ctx.say(label, fighter_id=me.id, kind="note" if kind == "counter" else "act",
                maneuver=skill, target=foe.id if foe else None)
        self.open_roll(ctx, roll)
        ctx.summary = label

    def _dc(self, ctx: Context, command: ash.DcChallenge) -> None:
        """docs/rulesets/ashes.md#dc-challenges: a fixed difficulty, from its parts."""
        me = self.turn_holder(ctx, command.fighter_id)
        skill = self._skill(ctx, me, command.skill)
        if not command.parts:
            ctx.fail("give the difficulty (at least one part)")
        target = None
        parts_given = list(command.parts)
        if command.target_id:
            target = self._other(ctx, command.target_id, me)
            parts_given.append((f"{target.name}'s resist body", int(target.sheet.resist_body)))
        self._use_offense(ctx, me, skill.name if skill else "unskilled")
        total, costs, parts = attacking_total(me, skill, command.pump, command.auxiliaries,
                                              int(ctx.enc.options.unskilled_penalty))
        self._pay(ctx, me, costs)
        dc = sum(value for _, value in parts_given)
        words = " + ".join(f"{label} {value}" for label, value in parts_given)
        self._open_challenge(ctx, me, target, total, "none", kind="dc",
                             skill=skill.name if skill else "unskilled",
                             damage=int(skill.damage) if skill else 0, parts=parts,
                             defense=dc, defense_words=words)

    def _stance(self, ctx: Context, command: ash.Stance) -> None:
        """docs/rulesets/ashes.md#defensive-stance."""
        me = self.turn_holder(ctx, command.fighter_id)
        self._use_offense(ctx, me, "defensive stance")
        ctx.set(status_path(me.id), "free_defenses", STANCE_FREE)
        ctx.summary = f"{me.name} takes a defensive stance: the next {STANCE_FREE} defenses are free"
        ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver="defensive stance")

    def _move(self, ctx: Context, command: ash.Move) -> None:
        """docs/rulesets/ashes.md#movement."""
        me = self.turn_holder(ctx, command.fighter_id)
        st = me.status
        free = int(st.free_metres)
        if command.second:
            self._use_offense(ctx, me, "second move")
            free += 1
        paid = max(0, command.metres - free)
        burst_left = int(me.sheet.burst) - int(st.move_speed)
        if paid > burst_left:
            ctx.fail(f"{me.name} can pay for {max(0, burst_left)} more metre(s) this round "
                     f"(burst {me.sheet.burst})")
        if paid > st.speed:
            ctx.fail(f"{me.name} has {st.speed} speed left")
        ctx.set(status_path(me.id), "free_metres", free - min(free, command.metres))
        if paid:
            ctx.set(status_path(me.id), "speed", st.speed - paid)
            ctx.set(status_path(me.id), "move_speed", st.move_speed + paid)
            ctx.say(f"{me.name} spends {paid} speed moving", fighter_id=me.id,
                    kind="points-spend", pool="speed", amount=paid, why="movement")
        how = f"{paid} speed" if paid else "free"
        ctx.summary = f"{me.name} moves {command.metres} m ({how})" + (
            ", giving up the offensive action" if command.second else "")
        ctx.say(ctx.summary, fighter_id=me.id, kind="note")

    def _free(self, ctx: Context, command: ash.FreeAction) -> None:
        """docs/rulesets/ashes.md#free-actions: logged, nothing spent."""
        enc = ctx.enc
        if command.fighter_id not in enc.fighters:
            ctx.fail(f"no fighter {command.fighter_id!r}")
        what = " ".join(command.what.split()) or "a free action"
        ctx.summary = f"{enc.name_of(command.fighter_id)}: {what} (free action)"
        ctx.say(ctx.summary, fighter_id=command.fighter_id, kind="note")

    # --- cooperative actions ------------------------------------------------------------------
    def _coop_start(self, ctx: Context, command: ash.StartCooperative) -> None:
        """docs/rulesets/ashes.md#cooperative-actions: one starts, the others complete it."""
        me = self.turn_holder(ctx, command.fighter_id)
        foe = self._other(ctx, command.target_id, me)
        if ctx.enc.state.cooperative is not None:
            ctx.fail("a cooperative action is already under way: join it")
        skill = self._skill(ctx, me, command.skill)
        self._use_offense(ctx, me, f"cooperative: {skill.name if skill else 'unskilled'}")
        rating, costs, _ = attacking_total(me, skill, 0, False,
                                           int(ctx.enc.options.unskilled_penalty))
        self._pay(ctx, me, costs)
        ctx.set(("state",), "cooperative", Cooperative(
            target_id=foe.id, resisted_by=skill.resisted_by if skill else "body",
            damage=int(skill.damage) if skill else 0,
            parts=[CoopPart(fighter_id=me.id, skill=skill.name if skill else None, rating=rating)],
            last_turn=ctx.enc.state.turns.turn_number))
        ctx.summary = f"{me.name} starts a cooperative action on {foe.name} ({rating})"
        ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver="cooperative")

    def _coop_join(self, ctx: Context, command: ash.JoinCooperative) -> None:
        me = self.turn_holder(ctx, command.fighter_id)
        coop = ctx.enc.state.cooperative
        if coop is None:
            ctx.fail("no cooperative action is under way")
        if any(p.fighter_id == me.id for p in coop.parts):
            ctx.fail(f"{me.name} is already part of it")
        if ctx.enc.state.turns.turn_number - coop.last_turn > 1:
            ctx.fail("too late: the last participant acted more than a turn ago")
        skill = self._skill(ctx, me, command.skill)
        self._use_offense(ctx, me, f"cooperative: {skill.name if skill else 'unskilled'}")
        rating, costs, _ = attacking_total(me, skill, 0, False,
                                           int(ctx.enc.options.unskilled_penalty))
        self._pay(ctx, me, costs)
        parts = [*coop.parts, CoopPart(fighter_id=me.id, skill=skill.name if skill else None,
                                       rating=rating)]
        foe = ctx.enc.fighters.get(coop.target_id)
        if not command.complete or foe is None:
            ctx.set(("state",), "cooperative", coop.model_copy(update={
                "parts": parts, "last_turn": ctx.enc.state.turns.turn_number}))
            ctx.summary = f"{me.name} joins the cooperative action ({rating})"
            ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver="cooperative")
            return
        ctx.set(("state",), "cooperative", None)
        total = sum(p.rating for p in parts)
        words = [f"{ctx.enc.name_of(p.fighter_id)} {p.rating}" for p in parts]
        self._open_challenge(ctx, me, foe, total, coop.resisted_by, kind="cooperative",
                             skill="a cooperative action", damage=coop.damage, parts=words)

    def _set_initiator(self, ctx: Context, command: ash.SetInitiator) -> None:
        enc = ctx.enc
        if command.fighter_id not in enc.fighters:
            ctx.fail(f"no fighter {command.fighter_id!r}")
        if enc.round or enc.state.stage != "setup":
            ctx.fail("who starts the fight is chosen before it starts")
        ctx.set(status_path(command.fighter_id), "initiator", command.initiator)
        name = enc.name_of(command.fighter_id)
        ctx.summary = (f"GM: {name} starts the fight (surprise round)" if command.initiator
                       else f"GM: {name} does not start the fight")
        ctx.say(ctx.summary, fighter_id=command.fighter_id, kind="override")

    # --- defenses on a waiting challenge ---------------------------------------------------------
    def pay(self, ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str,
            amount: int) -> Contribution:
        """docs/rulesets/ashes.md#defensive-skills and #dodge: only the defender adds to a
        challenge; each use escalates in speed, capped by burst."""
        enc = ctx.enc
        if roll.data.get("kind") == "dc":
            ctx.fail("a DC challenge has a fixed difficulty")
        defender_id = roll.data.get("target")
        if fighter_id is None or fighter_id != defender_id or fighter_id not in enc.fighters:
            ctx.fail(f"only {enc.name_of(defender_id)} defends against this challenge")
        me = enc.fighters[fighter_id]
        if self.is_out(me):
            ctx.fail(f"{me.name} is out of the fight")
        st = me.status
        use = defense_use_cost(me)
        free = st.free_defenses > 0
        if int(st.defense_speed) + use > int(me.sheet.burst):
            ctx.fail(f"{me.name}'s next defense costs {use} speed: past burst "
                     f"{me.sheet.burst} this round")
        if kind == "dodge":
            if amount < 1:
                ctx.fail("a dodge takes at least 1 speed (+1 defense per 3, rounded down)")
            if int(st.dodge_speed) + amount > int(me.sheet.burst):
                ctx.fail(f"{me.name} can dodge with {int(me.sheet.burst) - st.dodge_speed} "
                         f"more speed this round (burst {me.sheet.burst})")
            if amount + use > st.speed:
                ctx.fail(f"{me.name} has {st.speed} speed left")
            bonus = amount // DODGE_STEP
            label, dodge = f"dodge ({amount} speed)", amount
        elif kind.startswith("skill:"):
            skill = skill_of(me, kind.removeprefix("skill:"))
            if skill is None or skill.kind != "defensive":
                ctx.fail(f"{me.name} has no defensive skill {kind.removeprefix('skill:')!r}")
            if any(x.kind == kind for x in roll.contributions):
                ctx.fail(f"{skill.name} is already on this challenge")
            if use > st.speed:
                ctx.fail(f"{me.name} has {st.speed} speed left")
            bonus, label, dodge = int(skill.rating), skill.name, 0
        else:
            ctx.fail(f"no defense {kind!r} in ashes")
        spent = use + dodge
        ctx.set(status_path(me.id), "defenses", st.defenses + 1)
        if free:
            ctx.set(status_path(me.id), "free_defenses", st.free_defenses - 1)
        if spent:
            ctx.set(status_path(me.id), "speed", st.speed - spent)
            ctx.say(f"{me.name} spends {spent} speed on a defense", fighter_id=me.id,
                    kind="points-spend", pool="speed", amount=spent, why=roll.label)
        if use:
            ctx.set(status_path(me.id), "defense_speed", st.defense_speed + use)
        if dodge:
            ctx.set(status_path(me.id), "dodge_speed", st.dodge_speed + dodge)
        words = [f"{use} speed" if use else ("free (stance)" if free else "free")]
        if dodge:
            words.append(f"{dodge} speed dodging")
        return Contribution(id=0, fighter_id=me.id, kind=kind, label=label, amount=-bonus,
                            cost=" + ".join(words),
                            paid={"use": use, "dodge": dodge, "free": int(free)})

    def refund(self, ctx: Context, roll: PendingRoll, contribution: Contribution) -> None:
        """Taking a defense back gives its speed back; the latest first, so the rising
        cost of the uses stays right."""
        fid = contribution.fighter_id
        if fid is None or fid not in ctx.enc.fighters:
            return
        mine = roll.by(fid)
        if mine and mine[-1].id != contribution.id:
            ctx.fail(f"take back {ctx.enc.name_of(fid)}'s latest defense first ({mine[-1].label})")
        st = ctx.enc.fighters[fid].status
        use, dodge, free = (contribution.paid.get(k, 0) for k in ("use", "dodge", "free"))
        ctx.set(status_path(fid), "defenses", max(0, st.defenses - 1))
        if free:
            ctx.set(status_path(fid), "free_defenses", st.free_defenses + 1)
        if use + dodge:
            ctx.set(status_path(fid), "speed", st.speed + use + dodge)
            ctx.say(f"{ctx.enc.name_of(fid)} gets {use + dodge} speed back", fighter_id=fid,
                    kind="points-gain", pool="speed", amount=use + dodge,
                    why="defense taken back")
        if use:
            ctx.set(status_path(fid), "defense_speed", st.defense_speed - use)
        if dodge:
            ctx.set(status_path(fid), "dodge_speed", st.dodge_speed - dodge)

    def contribution_options(self, enc: Encounter,
                             roll: PendingRoll) -> tuple[ContributionOption, ...]:
        if roll.data.get("kind") == "dc":
            return ()
        fid = roll.data.get("target")
        me = enc.fighters.get(fid or "")
        if me is None or self.is_out(me):
            return ()
        st = me.status
        use = defense_use_cost(me)
        if int(st.defense_speed) + use > int(me.sheet.burst) or use > st.speed:
            return ()
        cost = f"{use} speed" if use else "free"
        used = {x.kind for x in roll.contributions}
        automatic = bool(enc.options.automatic_beyond_six)

        def chance(defense: int) -> str:  # the challenge's chance with this defense added
            return str(challenge_odds(roll.total - defense,
                                      automatic_beyond_six=automatic).success)

        options = [ContributionOption(me.id, me.name, f"skill:{s.name}", f"{s.name} (+{s.rating} defense)",
                                      0, 0, 0, cost, chance(int(s.rating)))
                   for s in defensive_skills(me) if f"skill:{s.name}" not in used]
        most = min(int(me.sheet.burst) - int(st.dodge_speed), int(st.speed) - use)
        if most >= 1:
            options.append(ContributionOption(
                me.id, me.name, "dodge", "dodge (+1 defense per 3 speed)", 1, most,
                min(DODGE_STEP, most), f"{cost} + the speed"))
        return tuple(options)

    def roll_purpose(self, roll: PendingRoll, who: str) -> str:
        """"Han: 8 coins for a challenge on Vader with Blaster at +1 (+3, defenses -2)",
        at the advantage the defenses left, the advantage before them beside it."""
        data = roll.data
        what = {"counter": "a counter-challenge", "cooperative": "a cooperative challenge",
                "dc": "a challenge"}.get(str(data.get("kind")), "a challenge")
        on = f"against difficulty {data.get('defense')}" if data.get("kind") == "dc" else \
            f"on {data.get('target_name') or 'the target'}"
        how = "" if data.get("kind") == "cooperative" else f" {with_skill(str(data.get('skill')))}"
        moved = roll.total - roll.base
        before = f" ({roll.base:+d}, defenses {moved:+d})" if moved else ""
        return f"{what} {on}{how} at {roll.total:+d}{before}"

    def roll_count(self, roll: PendingRoll) -> int:
        """docs/rulesets/ashes.md#challenges: 5 + |advantage| coins, and 2 for criticals."""
        return 7 + abs(roll.total)

    def roll_odds(self, enc: Encounter, roll: PendingRoll) -> tuple[Odds, ...]:
        a = roll.total
        got = challenge_odds(a, automatic_beyond_six=bool(enc.options.automatic_beyond_six))
        actor = enc.name_of(roll.data.get("actor"))
        return (Odds(f"{actor} wins at {a:+d}", got.success),
                Odds("attacker's critical", got.attacker_critical),
                Odds("defender's critical", got.defender_critical))

    # --- the flip ----------------------------------------------------------------------------------
    def resolve(self, ctx: Context, roll: PendingRoll, result: Roll) -> None:
        """docs/rulesets/ashes.md#challenges and #criticals."""
        enc = ctx.enc
        data = roll.data
        a = roll.total
        n = 5 + abs(a)
        faces = result.faces
        first, extra = faces[:n], faces[n:]
        heads = sum(1 for f in first if f == 2)
        auto = bool(enc.options.automatic_beyond_six) and abs(a) > AUTOMATIC_BEYOND
        if auto:
            wins = a > 0
        else:
            favour = heads if a >= 0 else n - heads
            wins = (favour >= 3) == (a >= 0)
        all_heads = sum(1 for f in faces if f == 2)
        favour_all = all_heads if a >= 0 else len(faces) - all_heads
        crit_side: str | None = None  # "attacker" or "defender"
        if favour_all >= 7:
            crit_side = "attacker" if a >= 0 else "defender"
        elif favour_all == 0:
            crit_side = "defender" if a >= 0 else "attacker"
        if crit_side is not None and auto and (crit_side == "attacker") != wins:
            crit_side = None  # docs/rulesets/ashes.md#criticals: no critical against an automatic outcome
        shown = " ".join("H" if f == 2 else "T" for f in first)
        more = " ".join("H" if f == 2 else "T" for f in extra)
        actor = enc.fighters.get(str(data.get("actor")))
        target = enc.fighters.get(str(data.get("target"))) if data.get("target") else None
        who = actor.name if actor else "the attacker"
        against = target.name if target else "the difficulty"
        outcome = f"{who} wins" if wins else f"{against} holds"
        if auto:
            outcome += " (automatic beyond +/-6)"
        if crit_side:
            outcome += f", critical for the {crit_side}"
        result.outcome = outcome
        ctx.say(f"Challenge coins at {a:+d}: {shown} ({heads} heads, {n - heads} tails); "
                f"critical coins: {more}", fighter_id=data.get("actor"), kind="note")
        ctx.summary = f"{roll.label}: {outcome}"
        ctx.say(ctx.summary, fighter_id=data.get("actor"), kind="resolve")
        if crit_side == "attacker":
            ctx.say(f"Critical success for {who}: the GM says what good comes of it",
                    fighter_id=data.get("actor"), kind="note")
        elif crit_side == "defender":
            ctx.say(f"Critical failure for {who}: the GM says what bad comes of it",
                    fighter_id=data.get("actor"), kind="note")
        if actor is None:
            return
        if wins:
            damage = int(data.get("damage") or 0)
            if damage and target is not None:
                health.hurt(ctx, target, damage, str(data.get("skill")), source=actor.id)
            return
        if target is None:
            return
        used = [skill_of(target, x.kind.removeprefix("skill:")) for x in roll.contributions
                if x.kind.startswith("skill:")]
        counter = next((s for s in used if s is not None and s.counter_challenge), None)
        if counter is not None and not self.is_out(target) and not self.is_out(actor):
            self._open_challenge(ctx, target, actor, int(counter.rating), counter.resisted_by,
                                 kind="counter", skill=counter.name, damage=int(counter.damage),
                                 parts=[f"{counter.name} {counter.rating}"],
                                 reacts_to=roll.label)


    def check_state(self, enc: Encounter) -> list[tuple[str, str]]:
        problems = super().check_state(enc)
        coop = enc.state.cooperative
        if coop is not None:
            for fid in (coop.target_id, *(p.fighter_id for p in coop.parts)):
                if fid not in enc.fighters:
                    problems.append(("state.cooperative", f"names no fighter of this fight: {fid!r}"))
        roll = enc.state.roll
        if roll is not None:
            for key in ("actor", "target"):
                fid = roll.data.get(key)
                if fid is not None and fid not in enc.fighters:
                    problems.append((f"state.roll.data.{key}", f"names no fighter: {fid!r}"))
        return problems

    def is_out(self, fighter: Fighter) -> bool:
        return is_out_of_fight(fighter)

