"""The roll-under ruleset: the rules, on the shared turn order and pending roll.

Every rule names its section of docs/rulesets/roll-under.md. The round: an optional
surprise step for the ambushers, then each round the PCs' Wisdom rolls split them into
those who act before the enemies and those who act after. A turn is one action and a
move. Attacks and combat maneuvers are player-facing rolls, waiting on the roll panel for
assists before they are made.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ... import conditions, pending_roll, rulesets, turns
from ...base import Choice, Condition, Decision, DecisionField
from ...changes import RuleViolation
from ...derived import Reads, per_fighter
from ...notation import parse
from ...odds import d20_at_or_under
from ...pending_roll import Contribution, PendingRoll
from ...ruleset import (
    ContributionOption,
    Odds,
)
from ...tables import lookup, roll_on_table, show_total
from ...turn_ruleset import ROLL, TURNS, TurnOrderRules
from ...turns import TurnOrder, TurnSection, TurnSlot
from . import commands as ru
from .model import MAX_HP, assists_for_level
from .targets import (
    DAMAGE_DIE,
    MANEUVER_STAT,
    PARTY,
    STATUS,
    UNARMED_DIE,
    attack_target,
    defense_target,
    disarmed,
    maneuver_target,
    player_faces,
)

if TYPE_CHECKING:
    from ...dice import Roll
    from ...model import Encounter, Fighter
    from ...ruleset import Context, Handler

# docs/rulesets/roll-under.md#combat-maneuvers: the condition a maneuver leaves on the
# one who loses it.
MANEUVER_CONDITION = {"shove": "Shoved", "grapple": "Grappled", "trip": "Tripped",
                      "disarm": "Disarmed"}
DEATH_TABLE = "death-and-dismemberment"
# The question Start Fight asks (docs/rulesets/roll-under.md#surprise).
SURPRISE_QUESTION = "surprise"
# Its first field: who attacks by surprise, a whole side at once or as picked on each
# fighter's row (a colon: no fighter's id has one).
AMBUSH_FIELD = "surprise:who"
AMBUSH_NOBODY, AMBUSH_PARTY, AMBUSH_ENEMIES, AMBUSH_PICKED = "nobody", "party", "enemies", "picked"


def _path(fid: str) -> tuple[str, ...]:
    return ("fighters", fid, STATUS)


def _wisdom_odds(need: int) -> Any:
    """docs/rulesets/roll-under.md#initiative: the exact chance of a Wisdom roll, as the
    row showed it, for the log."""
    return lambda: (Odds("acts before the enemies", d20_at_or_under(need)),)


def _chance(need: int) -> str:
    """"7/10, 70.0%": a d20 at or under ``need``, as a row of the initiative question shows it."""
    odds = Odds("", d20_at_or_under(need))
    return f"{odds.exact}, {odds.percent}"


class RollUnder(TurnOrderRules):
    """The roll-under rules (docs/rulesets/roll-under.md)."""

    @staticmethod
    def weapon_die(fighter: Fighter, weapon: int | None) -> tuple[int, str]:
        weapons = fighter.sheet.weapons
        if weapon is None or not 0 <= weapon < len(weapons) or disarmed(fighter):
            return UNARMED_DIE, "unarmed"
        chosen = weapons[weapon]
        return DAMAGE_DIE[chosen.weapon_class], chosen.name

    id = "roll-under"
    title = rulesets.info("roll-under").title
    # Injuries outlast one fight; assists come back only with rest. Rested (the shared
    # rested_values): full HP and every assist back, since "assists" is a sheet field too;
    # lethal damage and Fatal Wounds are not, so rest leaves them.
    lasting_status = ("hp", "lethal", "fatal_wounds", "assists")
    quick_fields = ("attack", "defense", "weapons.name", "weapons.weapon_class")
    condition_names = ("Shoved", "Grappled", "Tripped", "Disarmed", "Prone")
    condition_tick = "turn-start"

    # --- the round ----------------------------------------------------------------------------
    def handlers(self) -> dict[str, Handler]:
        return {
            **super().handlers(),
            "start-fight": self._start_fight, "start-round": self._start_round,
            "answer": self._answer, "ru-attack": self._attack, "ru-maneuver": self._maneuver,
            "ru-action": self._other_action, "ru-move": self._move,
            "ru-remove-wound": self._remove_wound, "ru-ambusher": self._set_ambusher,
            "ru-rest": self._rest, "ru-pick-up": self._pick_up, "make-roll": self._make_roll,
        }

    def _start_round(self, ctx: Context, command: Any) -> None:
        if ctx.enc.state.stage in ("turns", "initiative"):
            ctx.fail("finish this round first (End Round)")
        self._ask_initiative(ctx, new_round=True)

    def _start_fight(self, ctx: Context, command: Any) -> None:
        """docs/rulesets/roll-under.md#surprise: starting the fight asks, in one step, who
        attacks by surprise: a whole side at once, nobody, or as picked on each fighter's
        row (each row starts on what the fighter was marked)."""
        enc = ctx.enc
        if enc.round or enc.state.stage != "setup":
            ctx.fail("the fight has already started")
        if enc.state.pending is not None:
            ctx.fail("answer who attacks by surprise first")
        standing = [enc.fighters[fid] for fid in enc.order if not self.is_out(enc.fighters[fid])]
        if not standing:
            self._begin(ctx)
            return
        rows = [DecisionField(
            name=f.id, label=f.name, kind="choice",
            choices=[Choice(id="no", label=f"{f.name}: no surprise"),
                     Choice(id="yes", label=f"{f.name} attacks by surprise")],
            default="yes" if f.status.ambusher else "no")
            for f in standing]
        sides = [Choice(id=AMBUSH_NOBODY, label="Nobody")]
        if any(f.side in PARTY for f in standing):
            sides.append(Choice(id=AMBUSH_PARTY, label="The PCs' side"))
        if any(f.side not in PARTY for f in standing):
            sides.append(Choice(id=AMBUSH_ENEMIES, label="The enemies' side"))
        sides.append(Choice(id=AMBUSH_PICKED, label="As picked below"))
        marked = any(f.status.ambusher for f in standing)
        who = DecisionField(name=AMBUSH_FIELD, label="Who attacks by surprise", kind="choice",
                            choices=sides, default=AMBUSH_PICKED if marked else AMBUSH_NOBODY)
        ctx.set(("state",), "pending", Decision(
            id=SURPRISE_QUESTION, prompt="Starting the fight: who attacks by surprise?",
            fields=[who, *rows], asks="the GM"))
        ctx.summary = "Starting the fight: the GM picks who attacks by surprise"
        ctx.say("Who attacks by surprise?", kind="ask")

    def _answer_surprise(self, ctx: Context, command: Any, pending: Decision) -> None:
        """The GM's answer: a whole side, nobody, or the ambushers as picked row by row
        (the rows count only then); then the fight begins."""
        enc = ctx.enc
        who, rows = pending.fields[0], pending.fields[1:]
        side = command.values.get(who.name, who.default)
        if side not in {choice.id for choice in who.choices}:
            offered = ", ".join(repr(choice.id) for choice in who.choices)
            ctx.fail(f"who attacks by surprise: answer one of {offered}, not {side!r}")
        for row in rows:
            fighter = enc.fighters.get(row.name)
            if fighter is None:
                continue
            if side == AMBUSH_PICKED:
                picked = command.values.get(row.name, row.default)
                if picked not in ("yes", "no"):
                    ctx.fail(f"{fighter.name}: answer 'yes' or 'no' (attacks by surprise?)")
                ambusher = picked == "yes"
            else:
                ambusher = side == (AMBUSH_PARTY if fighter.side in PARTY else AMBUSH_ENEMIES)
            if ambusher != bool(fighter.status.ambusher):
                ctx.set(_path(fighter.id), "ambusher", ambusher)
        ctx.set(("state",), "pending", None)
        self._begin(ctx)

    def _begin(self, ctx: Context) -> None:
        """docs/rulesets/roll-under.md#surprise: ambushers act before the first round's
        initiative; so does a target of the ambush who cannot be surprised (a fighter on
        the ambushers' own side is no target, whatever its ability)."""
        enc = ctx.enc
        ambushers = [fid for fid in enc.order if enc.fighters[fid].status.ambusher]
        if not ambushers:
            self._ask_initiative(ctx, new_round=True)
            return
        ambushing = {enc.fighters[fid].side in PARTY for fid in ambushers}
        immune = [fid for fid in enc.order
                  if fid not in ambushers and enc.fighters[fid].sheet.immune_to_surprise
                  and (enc.fighters[fid].side in PARTY) not in ambushing]
        ctx.set((), "round", 1)
        ctx.set(("state",), "surprise", True)
        ctx.say("Round 1 begins with a surprise", kind="round-start")
        names = ", ".join(enc.name_of(f) for f in ambushers)
        ctx.summary = f"Surprise! {names} {'acts' if len(ambushers) == 1 else 'act'} first"
        self.lay_out(ctx, [TurnSection(id="surprise", label="Surprise", slots=[
            TurnSlot(id=fid, fighter_id=fid) for fid in [*ambushers, *immune]])])

    def _ask_initiative(self, ctx: Context, *, new_round: bool) -> None:
        """docs/rulesets/roll-under.md#initiative: each PC rolls Wisdom, less the worst
        penalty an enemy imposes; the GM types the players' rolls or lets the app roll."""
        enc = ctx.enc
        penalty = self.wisdom_penalty(enc)
        rows = []
        for fid in enc.order:
            fighter = enc.fighters[fid]
            if fighter.side in PARTY and not self.is_out(fighter):
                need = int(fighter.sheet.wisdom) - penalty
                rows.append(DecisionField(
                    name=fid, label=f"{fighter.name}: Wisdom, {need} or less "
                                    f"({_chance(need)} to act before the enemies)",
                    minimum=1, maximum=20, optional=True))
        ctx.set(("state",), "stage", "initiative")
        round_no = enc.round + 1 if new_round else enc.round
        if not rows:
            self._lay_out(ctx, {}, new_round=new_round)
            return
        ask = "" if not penalty else f" (-{penalty} for the enemies' presence)"
        ctx.set(("state",), "pending", Decision(
            id=f"initiative-{round_no}-{'new' if new_round else 'after-surprise'}",
            prompt=f"Round {round_no} initiative: each PC rolls Wisdom{ask}", fields=rows,
            asks="the players"))
        ctx.summary = f"Round {round_no}: initiative (Wisdom)"
        ctx.say(ctx.summary, kind="ask")

    def wisdom_penalty(self, enc: Encounter) -> int:
        """The largest Wisdom penalty an enemy still in the fight imposes."""
        return max((int(f.sheet.wisdom_penalty) for f in enc.fighters.values()
                    if f.side == "enemy" and not self.is_out(f)), default=0)

    def _answer(self, ctx: Context, command: Any) -> None:
        enc = ctx.enc
        pending = enc.state.pending
        if pending is None or pending.id != command.decision_id:
            ctx.fail("no such question is waiting")
        if pending.id == SURPRISE_QUESTION:
            self._answer_surprise(ctx, command, pending)
            return
        rolled: dict[str, int] = {}
        for row in pending.fields:
            fighter = enc.fighters.get(row.name)
            if fighter is None:
                continue
            typed = command.values.get(row.name)
            if typed is not None and not (isinstance(typed, int) and 1 <= typed <= 20):
                ctx.fail(f"{fighter.name}'s Wisdom roll must be a number from 1 to 20")
            need = int(fighter.sheet.wisdom) - self.wisdom_penalty(enc)
            record = self._d20(ctx, fighter, f"Wisdom, {need} or less", typed,
                               odds=_wisdom_odds(need))
            face = record.faces[0]
            record.outcome = "acts before the enemies" if face <= need else "acts after the enemies"
            rolled[row.name] = face
        ctx.set(("state",), "pending", None)
        self._lay_out(ctx, rolled, new_round=pending.id.endswith("-new"))

    def _d20(self, ctx: Context, fighter: Fighter, purpose: str, typed: int | None,
             odds: Any = None) -> Roll:
        """A d20 a player rolled at the table (typed) or the app rolls, logged alike (with
        the exact chance the GM saw before it, ``odds``)."""
        return ctx.roll(1, 20, who=fighter.name, purpose=purpose, fighter_id=fighter.id,
                        typed=None if typed is None else [typed], odds=odds)

    def _lay_out(self, ctx: Context, rolled: dict[str, int], *, new_round: bool) -> None:
        """The round's sections: PCs who made their Wisdom roll, the enemies (as often
        as each acts in a round; out-of-order ones may be dragged anywhere), the rest."""
        enc = ctx.enc
        penalty = self.wisdom_penalty(enc)
        before, after, enemies = [], [], []
        for fid in enc.order:
            fighter = enc.fighters[fid]
            if fighter.side == "enemy":
                for n in range(int(fighter.sheet.turns_per_round)):
                    enemies.append(TurnSlot(id=fid if n == 0 else f"{fid}#{n + 1}",
                                            fighter_id=fid, extra=n > 0,
                                            free=bool(fighter.sheet.acts_out_of_order)))
                continue
            face = rolled.get(fid)
            slot = TurnSlot(id=fid, fighter_id=fid, score=face)
            if face is not None and face <= int(fighter.sheet.wisdom) - penalty:
                before.append(slot)
            else:
                after.append(slot)
        sections = [TurnSection(id="before", label="Before the enemies", slots=before),
                    TurnSection(id="enemies", label="Enemies", slots=enemies),
                    TurnSection(id="after", label="After the enemies", slots=after)]
        summary = f"{len(before)} before the enemies, {len(after)} after"
        if new_round:
            self.start_round(ctx, sections)
            ctx.summary = f"Round {ctx.enc.round}: {summary}"
            return
        # After the surprise step: the same round goes on with its initiative order.
        surprise = [sec for sec in enc.state.turns.sections if sec.id == "surprise"]
        ctx.set(("state",), "surprise", False)
        ctx.summary = f"Round {enc.round} goes on: {summary}"
        self.lay_out(ctx, [*surprise, *sections])

    def turns_done(self, ctx: Context) -> None:
        """docs/rulesets/roll-under.md#surprise: after the surprise step's last turn, round
        1 goes on with its initiative; the step is no round of its own, so nothing that
        counts at the end of a round counts here."""
        if not ctx.enc.state.surprise:
            super().turns_done(ctx)
            return
        ctx.say(f"Round {ctx.enc.round}: the surprise step is over", kind="step")
        self._ask_initiative(ctx, new_round=False)

    def end_round(self, ctx: Context) -> None:
        """docs/rulesets/roll-under.md#surprise: End Round in the surprise step ends round 1
        there, and the surprise step with it (the timeline then shows every fighter, as
        before an initiative); the next round starts with initiative."""
        super().end_round(ctx)
        if ctx.enc.state.surprise:
            ctx.set(("state",), "surprise", False)
            ctx.set(TURNS, "sections", [])

    def on_turn_start(self, ctx: Context, fighter_id: str) -> None:
        """docs/rulesets/roll-under.md#action-economy: a new turn, one action and a move."""
        ctx.set(_path(fighter_id), "action", None)
        ctx.set(_path(fighter_id), "moved", False)

    def may_move(self, enc: Encounter, order: TurnOrder, slot: TurnSlot, to_section: str) -> str | None:
        """docs/rulesets/roll-under.md#initiative: inside a section, never across, except
        an enemy who acts out of order."""
        here = turns.section_of(order, slot.id)
        if here is not None and here.id != to_section and not slot.free:
            return ("the GM orders freely inside a section (before or after the enemies), "
                    "never across")
        return None

    def has_turn_action(self, fighter: Fighter) -> bool:
        """docs/rulesets/roll-under.md#holding: the turn's one action not taken yet."""
        return fighter.status.action is None

    def turn_used(self, enc: Encounter, fighter: Fighter) -> str:
        """docs/rulesets/roll-under.md#holding: a turn is held before its action and its
        move (a held turn starts afresh, so either would come back)."""
        if fighter.status.action is not None:
            return f"already took this turn's action ({fighter.status.action})"
        if fighter.status.moved:
            return "already moved this turn"
        return ""

    # --- the GM's own changes -------------------------------------------------------------------
    def value_set(self, ctx: Context, fighter_id: str, field: str, before: Any,
                  after: Any) -> None:
        """The GM's change of a value these rules read: the assists follow a new level
        (docs/rulesets/roll-under.md#assists); HP never stand above the maximum
        (docs/rulesets/roll-under.md#hit-points)."""
        fighter = ctx.enc.fighters[fighter_id]
        if field == "sheet.level":
            self._assists_follow_level(ctx, fighter, int(before), int(after))
        elif field == "sheet.max_hp":
            most = int(fighter.sheet.max_hp)
            if int(fighter.status.hp) > most:
                ctx.set(_path(fighter_id), "hp", most)
                ctx.say(f"{fighter.name}'s HP capped at the new maximum, {most}",
                        fighter_id=fighter_id, kind="note")

    def value_check(self, ctx: Context, fighter: Fighter, field: str,
                    value: Any) -> tuple[Any, str]:
        """docs/rulesets/roll-under.md#hit-points: "They max out at 20": a maximum above
        20 is refused, HP above the fighter's maximum are capped, overridden or not."""
        if field == "sheet.max_hp" and isinstance(value, int) and value > MAX_HP:
            ctx.fail(f"{fighter.name}'s max HP is at most {MAX_HP} (hit points max out at "
                     f"{MAX_HP})")
        if field == "status.hp" and isinstance(value, int) and value > int(fighter.sheet.max_hp):
            most = int(fighter.sheet.max_hp)
            return most, f"{fighter.name}'s HP capped at the maximum, {most}"
        return value, ""

    def _assists_follow_level(self, ctx: Context, fighter: Fighter, was: int, now: int) -> None:
        """A sheet whose assists were its level's count gets the new level's count, and
        the assists to spend change by as much; a count the GM set stays."""
        old, new = assists_for_level(was), assists_for_level(now)
        if int(fighter.sheet.assists) != old or old == new:
            return
        ctx.set(("fighters", fighter.id, "sheet"), "assists", new)
        left = max(0, int(fighter.status.assists) + new - old)
        ctx.set(_path(fighter.id), "assists", left)
        ctx.say(f"{fighter.name} has {new} assist(s) at level {now} ({left} to spend)",
                fighter_id=fighter.id, kind="note")

    # --- the turn's action ----------------------------------------------------------------------
    def _actor(self, ctx: Context, fid: str, *, action: bool = True) -> Fighter:
        fighter = self.turn_holder(ctx, fid)
        if action and fighter.status.action is not None:
            ctx.fail(f"{fighter.name} has already taken this turn's action "
                     f"({fighter.status.action})")
        return fighter

    def _attack(self, ctx: Context, command: ru.Attack) -> None:
        me = self._actor(ctx, command.fighter_id)
        foe = self.target(ctx, command.target_id)
        if foe.id == me.id:
            ctx.fail("choose someone else to attack")
        weapons = me.sheet.weapons
        if command.weapon is not None and not 0 <= command.weapon < len(weapons):
            ctx.fail(f"{me.name} has no weapon {command.weapon}")
        ctx.set(_path(me.id), "action", "attack")
        ctx.say(f"{me.name} attacks {foe.name}", fighter_id=me.id, kind="act", maneuver="attack")
        data = {"kind": "attack", "actor": me.id, "target": foe.id, "weapon": command.weapon}
        if player_faces(me, foe):
            need = defense_target(foe, me)
            label = f"{foe.name} rolls Defense against {me.name}, {need} or less"
            roll = PendingRoll(id=0, label=label, roller_id=foe.id, by_player=True, base=need,
                               data={**data, "defends": True})
        else:
            need = attack_target(me, foe)
            label = f"{me.name} rolls Attack against {foe.name}, {need} or less"
            roll = PendingRoll(id=0, label=label, roller_id=me.id, by_player=me.side == "pc",
                               base=need, data={**data, "defends": False})
        self.open_roll(ctx, roll)
        ctx.summary = label

    def _maneuver(self, ctx: Context, command: ru.CombatManeuver) -> None:
        me = self._actor(ctx, command.fighter_id)
        foe = self.target(ctx, command.target_id)
        if foe.id == me.id:
            ctx.fail("choose someone else")
        stat = MANEUVER_STAT[command.maneuver].title()
        ctx.set(_path(me.id), "action", command.maneuver)
        ctx.say(f"{me.name} tries to {command.maneuver} {foe.name}", fighter_id=me.id,
                kind="act", maneuver=command.maneuver)
        data = {"kind": "maneuver", "maneuver": command.maneuver, "actor": me.id,
                "target": foe.id}
        if player_faces(me, foe):
            need = maneuver_target(foe, me, command.maneuver)
            label = f"{foe.name} rolls {stat} to resist {me.name}'s {command.maneuver}, {need} or less"
            roll = PendingRoll(id=0, label=label, roller_id=foe.id, by_player=True, base=need,
                               data={**data, "defends": True})
        else:
            need = maneuver_target(me, foe, command.maneuver)
            label = f"{me.name} rolls {stat} to {command.maneuver} {foe.name}, {need} or less"
            roll = PendingRoll(id=0, label=label, roller_id=me.id, by_player=me.side == "pc",
                               base=need, data={**data, "defends": False})
        self.open_roll(ctx, roll)
        ctx.summary = label

    def _other_action(self, ctx: Context, command: ru.OtherTurnAction) -> None:
        me = self._actor(ctx, command.fighter_id)
        words = {"run": "runs about 60 feet", "gear": "activates gear", "reload": "reloads"}
        ctx.set(_path(me.id), "action", command.action)
        ctx.summary = f"{me.name} {words[command.action]}"
        ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver=command.action)

    def _move(self, ctx: Context, command: ru.Move) -> None:
        me = self._actor(ctx, command.fighter_id, action=False)
        if me.status.moved:
            ctx.fail(f"{me.name} has already moved this turn")
        ctx.set(_path(me.id), "moved", True)
        ctx.summary = f"{me.name} moves (about 60 feet)"
        ctx.say(ctx.summary, fighter_id=me.id, kind="note")

    def _remove_wound(self, ctx: Context, command: ru.RemoveFatalWound) -> None:
        """docs/rulesets/roll-under.md#fatal-wounds: an action; a roll only if the option
        says so (a Dexterity roll of the one removing it)."""
        me = self._actor(ctx, command.fighter_id)
        patient = self.target(ctx, command.target_id)
        if patient.status.fatal_wounds <= 0:
            ctx.fail(f"{patient.name} has no Fatal Wound")
        ctx.set(_path(me.id), "action", "remove a Fatal Wound")
        if ctx.enc.options.fatal_wound_needs_roll:
            need = int(me.sheet.dexterity)
            record = ctx.roll(1, 20, who=me.name, fighter_id=me.id,
                              purpose=f"Dexterity to remove a Fatal Wound, {need} or less")
            if record.faces[0] > need:
                record.outcome = "the wound stays"
                ctx.summary = f"{me.name} fails to remove a Fatal Wound from {patient.name}"
                ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver="remove a Fatal Wound")
                return
            record.outcome = "removed"
        ctx.set(_path(patient.id), "fatal_wounds", patient.status.fatal_wounds - 1)
        ctx.summary = f"{me.name} removes a Fatal Wound from {patient.name}"
        ctx.say(ctx.summary, fighter_id=me.id, kind="act", maneuver="remove a Fatal Wound")

    def _pick_up(self, ctx: Context, command: ru.PickUpWeapon) -> None:
        """docs/rulesets/roll-under.md#combat-maneuvers: taking the weapon back is free."""
        me = self._actor(ctx, command.fighter_id, action=False)
        if not disarmed(me):
            ctx.fail(f"{me.name} is not disarmed")
        conditions.remove(ctx, me.id, "Disarmed")
        ctx.summary = f"{me.name} takes their weapon back"
        ctx.say(ctx.summary, fighter_id=me.id, kind="note")

    def _set_ambusher(self, ctx: Context, command: ru.SetAmbusher) -> None:
        fighter = self.target(ctx, command.fighter_id)
        if ctx.enc.round or ctx.enc.state.stage != "setup":
            ctx.fail("ambushers are chosen before the fight starts")
        ctx.set(_path(fighter.id), "ambusher", command.ambusher)
        ctx.summary = (f"GM: {fighter.name} attacks by surprise" if command.ambusher
                       else f"GM: {fighter.name} does not attack by surprise")
        ctx.say(ctx.summary, fighter_id=fighter.id, kind="override")

    def _rest(self, ctx: Context, command: ru.Rest) -> None:
        """docs/rulesets/roll-under.md#assists: a good night's rest brings them back."""
        fighter = self.target(ctx, command.fighter_id)
        full = int(fighter.sheet.assists)
        back = full - int(fighter.status.assists)
        if back <= 0:
            ctx.fail(f"{fighter.name} has all their assists")
        ctx.set(_path(fighter.id), "assists", full)
        ctx.summary = f"{fighter.name} rests: {full} assist(s)"
        ctx.say(ctx.summary, fighter_id=fighter.id, kind="points-gain", pool="assists",
                amount=back, why="rest")


    # --- assists on a waiting roll ------------------------------------------------------------
    def helps(self, roll: PendingRoll, enc: Encounter, fid: str) -> int:
        """+1 for a fighter on the roller's side, -1 for one on the other side, 0 for the
        two fighters of the exchange (no self-assists)."""
        if fid in (roll.data.get("actor"), roll.data.get("target")):
            return 0
        roller = enc.fighters.get(roll.roller_id or "")
        helper = enc.fighters.get(fid)
        if roller is None or helper is None:
            return 0
        return 1 if (helper.side in PARTY) == (roller.side in PARTY) else -1

    def pay(self, ctx: Context, roll: PendingRoll, fighter_id: str | None, kind: str,
            amount: int) -> Contribution:
        """docs/rulesets/roll-under.md#assists: any number, from several allies, before
        the roll; each moves the target by one."""
        enc = ctx.enc
        if kind != "assist":
            ctx.fail(f"no contribution {kind!r} in roll-under")
        if roll.data.get("kind") in ("damage", "death"):
            ctx.fail("assists move a roll's target: this roll has none")
        if fighter_id is None or fighter_id not in enc.fighters:
            ctx.fail("who assists?")
        helper = enc.fighters[fighter_id]
        if roll.roller_id not in enc.fighters:
            ctx.fail("the one rolling has left the fight: no roll to assist")
        sign = self.helps(roll, enc, fighter_id)
        if sign == 0:
            ctx.fail(f"{helper.name} is in this exchange: no self-assists")
        if self.is_out(helper):
            ctx.fail(f"{helper.name} is out of the fight")
        if amount < 1 or amount > helper.status.assists:
            ctx.fail(f"{helper.name} has {helper.status.assists} assist(s) to spend")
        ctx.set(_path(fighter_id), "assists", helper.status.assists - amount)
        ctx.say(f"{helper.name} spends {amount} assist(s)", fighter_id=fighter_id,
                kind="points-spend", pool="assists", amount=amount, why=roll.label)
        whom = enc.name_of(roll.roller_id) if sign > 0 else "against " + enc.name_of(roll.roller_id)
        return Contribution(id=0, fighter_id=fighter_id, kind="assist",
                            label=f"assist ({whom})", amount=sign * amount,
                            cost=f"{amount} assist(s)", paid={"assists": amount})

    def refund(self, ctx: Context, roll: PendingRoll, contribution: Contribution) -> None:
        fid = contribution.fighter_id
        if fid is not None and fid in ctx.enc.fighters:
            back = contribution.paid.get("assists", 0)
            ctx.set(_path(fid), "assists", ctx.enc.fighters[fid].status.assists + back)
            ctx.say(f"{ctx.enc.name_of(fid)} gets {back} assist(s) back", fighter_id=fid,
                    kind="points-gain", pool="assists", amount=back, why="assist taken back")

    def contribution_options(self, enc: Encounter,
                             roll: PendingRoll) -> tuple[ContributionOption, ...]:
        """Each fighter's assist, kept until the fighter, the roster or the exchange
        changes (derived.py): the roll panel asks on every click, 200 fighters each."""
        data = roll.data
        if data.get("kind") in ("damage", "death"):
            return ()  # assists move a target; a damage or table roll has none
        reads = Reads(shared=(roll.roller_id, data.get("actor"), data.get("target")))
        options = per_fighter(enc, "roll-under:assists", reads,
                              lambda enc, fid: self._assist_option(enc, roll, fid))
        return tuple(option for _, option in options if option is not None)

    def _assist_option(self, enc: Encounter, roll: PendingRoll,
                       fid: str) -> ContributionOption | None:
        """What the fighter may add to the roll (None: nothing)."""
        fighter = enc.fighters[fid]
        sign = self.helps(roll, enc, fid)
        if sign == 0 or fighter.status.assists <= 0 or self.is_out(fighter):
            return None
        side = "helps" if sign > 0 else "hinders"
        return ContributionOption(
            fid, fighter.name, "assist", f"assist ({side} {enc.name_of(roll.roller_id)})",
            1, int(fighter.status.assists), 1, "1 assist a point")

    def roll_odds(self, enc: Encounter, roll: PendingRoll) -> tuple[Odds, ...]:
        if roll.data.get("kind") in ("damage", "death"):
            return ()  # no success or failure: the face is the damage or the table's row
        face = roll.data.get("face")
        if face is not None:  # rolled, waiting for assists after the roll: known
            return (Odds(f"{face} against {roll.total} or less",
                         Fraction(int(int(face) <= roll.total))),)
        return (Odds(f"{roll.total} or less on a d20", d20_at_or_under(roll.total)),)

    def roll_purpose(self, roll: PendingRoll, who: str) -> str:
        """The roll as the log names it, with the target it is made against: the assists
        so far included (docs/rulesets/roll-under.md#assists), "Defense against Ganger 1,
        10 or less (8, assists +2)"."""
        return with_assists(super().roll_purpose(roll, who).split(": rolled ", 1)[0], roll)

    # --- the result -----------------------------------------------------------------------------
    def _make_roll(self, ctx: Context, command: Any) -> None:
        """docs/rulesets/roll-under.md#assists: with assists after the roll (an option),
        the roll is made first and waits with its face known; making it again counts
        that face against the target as the assists left it."""
        roll = ctx.enc.state.roll
        face = roll.data.get("face") if roll is not None else None
        if roll is None or face is None or command.roll_id not in (None, roll.id):
            pending_roll.make(ctx, ROLL, self, command.roll_id)
            return
        ctx.set(("state",), "roll", None)
        data = {k: v for k, v in roll.data.items() if k != "face"}
        made = roll.model_copy(update={"data": data, "label": roll.label.split(": rolled ")[0]})
        outcome = self._settle(ctx, made, int(face))
        ctx.say(f"{with_assists(made.label, made)}: {face} counts, {outcome}",
                fighter_id=roll.roller_id, kind="note")

    def resolve(self, ctx: Context, roll: PendingRoll, result: Roll) -> None:
        face = result.faces[0]
        if roll.data.get("kind") == "death":  # a player's own Death table roll
            target = ctx.enc.fighters.get(str(roll.data["target"]))
            if target is not None:
                self._death_roll_typed(ctx, target, result)
            return
        if roll.data.get("kind") == "damage":  # a player's own damage roll, now typed
            attacker = ctx.enc.fighters.get(str(roll.data["actor"]))
            target = ctx.enc.fighters.get(str(roll.data["target"]))
            if attacker is not None and target is not None:
                self.take_damage(ctx, attacker, target, face)
            return
        if ctx.enc.options.assists_after_roll:
            # The face is known; assists may still move the target before it counts.
            label = f"{roll.label}: rolled {face}, assists may still change the target"
            ctx.set(("state",), "roll", roll.model_copy(update={
                "data": {**roll.data, "face": face}, "label": label}))
            result.outcome = f"{face}: waiting for assists after the roll"
            ctx.summary = label
            return
        result.outcome = self._settle(ctx, roll, face)

    def _settle(self, ctx: Context, roll: PendingRoll, face: int) -> str:
        """The roll's face counts against its target: hit, defense or maneuver. Returns
        the outcome for the log."""
        enc = ctx.enc
        data = roll.data
        made = face <= roll.total
        actor = enc.fighters.get(str(data["actor"]))
        target = enc.fighters.get(str(data["target"]))
        if actor is None or target is None:
            ctx.summary = f"{roll.label}: nobody left to roll against"
            return ""
        outcome = f"{'success' if made else 'failure'} ({face}, {roll.total} or less)"
        if data["kind"] == "attack":
            hit = not made if data["defends"] else made
            if not hit:
                ctx.summary = (f"{target.name} defends against {actor.name}" if data["defends"]
                               else f"{actor.name} misses {target.name}")
                ctx.say(ctx.summary, fighter_id=actor.id, kind="resolve")
                return outcome
            ctx.say(f"{actor.name} hits {target.name}", fighter_id=actor.id, kind="resolve")
            self.deal_damage(ctx, actor, target, data.get("weapon"))
            return outcome
        # A combat maneuver: the one who wins it inflicts it; a failed attempt gives the
        # other an automatic hit (docs/rulesets/roll-under.md#combat-maneuvers).
        maneuver = str(data["maneuver"])
        works = not made if data["defends"] else made
        if works:
            ctx.say(f"{actor.name}'s {maneuver} on {target.name} works", fighter_id=actor.id,
                    kind="resolve")
            conditions.add(ctx, target.id, Condition(name=MANEUVER_CONDITION[maneuver],
                                                     duration="until-removed",
                                                     imposed_by=actor.id))
            ctx.summary = f"{actor.name} {maneuver}s {target.name}"
            return outcome
        ctx.say(f"{actor.name}'s {maneuver} fails: {target.name} gets an automatic hit",
                fighter_id=actor.id, kind="resolve")
        self.deal_damage(ctx, target, actor, _first_weapon(target))
        return outcome

    def deal_damage(self, ctx: Context, attacker: Fighter, target: Fighter,
                    weapon: int | None) -> None:
        """docs/rulesets/roll-under.md#damage: the weapon's die. A player who rolls their
        own dice and has not typed this roll yet is asked for it: the damage waits on the
        roll panel."""
        sides, name = self.weapon_die(attacker, weapon)
        if attacker.rolls_own_dice and not ctx.dice.typed_waiting:
            label = f"{attacker.name} rolls damage ({name}) on {target.name}"
            self.open_roll(ctx, PendingRoll(
                id=0, label=label, roller_id=attacker.id, by_player=True, sides=sides,
                measure="damage", data={"kind": "damage", "actor": attacker.id,
                                        "target": target.id, "weapon": weapon}))
            ctx.summary = f"{attacker.name} hits {target.name}: damage to roll"
            return
        record = ctx.roll(1, sides, who=attacker.name, purpose=f"damage ({name})",
                          fighter_id=attacker.id)
        self.take_damage(ctx, attacker, target, record.faces[0])

    def take_damage(self, ctx: Context, attacker: Fighter, target: Fighter,
                    amount: int) -> None:
        """docs/rulesets/roll-under.md#hit-points: damage past 0 HP is lethal damage, and
        each lethal hit is a roll on the Death and Dismemberment table."""
        hp = int(target.status.hp)
        lethal = max(0, amount - hp)
        ctx.set(_path(target.id), "hp", max(0, hp - amount))
        ctx.say(f"{target.name} takes {amount} damage", fighter_id=target.id, kind="damage",
                target=target.id, amount=amount, source=attacker.id)
        ctx.summary = f"{attacker.name} hits {target.name} for {amount}"
        if lethal:
            ctx.set(_path(target.id), "lethal", int(target.status.lethal) + lethal)
            ctx.say(f"{target.name} takes {lethal} lethal damage", fighter_id=target.id,
                    kind="note")
            if DEATH_TABLE in ctx.enc.tables:
                sides = _one_die(ctx.enc.tables[DEATH_TABLE].die)
                if target.rolls_own_dice and sides and not ctx.dice.typed_waiting:
                    # The player rolls on the table: it waits on the roll panel for the face.
                    table = ctx.enc.tables[DEATH_TABLE]
                    self.open_roll(ctx, PendingRoll(
                        id=0, label=f"{target.name} rolls {table.name}",
                        roller_id=target.id, by_player=True, sides=sides,
                        measure="table row",
                        data={"kind": "death", "actor": attacker.id, "target": target.id}))
                else:
                    row = roll_on_table(ctx, DEATH_TABLE, who=target.name,
                                        fighter_id=target.id)
                    self._death_row(ctx, target, row.effect)
            else:
                ctx.say("No Death and Dismemberment table in this fight (Fight > Roll Tables)",
                        fighter_id=target.id, kind="note")
            ctx.summary += f" ({lethal} lethal)"

    def _death_row(self, ctx: Context, target: Fighter, effect: str) -> None:
        """docs/rulesets/roll-under.md#hit-points: the row a lethal hit lands on."""
        if effect.strip().lower() == "fatal-wound":
            wounds = int(ctx.enc.fighters[target.id].status.fatal_wounds)
            ctx.set(_path(target.id), "fatal_wounds", wounds + 1)
            ctx.say(f"{target.name} suffers a Fatal Wound", fighter_id=target.id,
                    kind="condition-on", name="Fatal Wound")

    def _death_roll_typed(self, ctx: Context, target: Fighter, result: Roll) -> None:
        """A player's own roll on the Death and Dismemberment table, now made."""
        table = ctx.enc.tables.get(DEATH_TABLE)
        if table is None:
            ctx.say("No Death and Dismemberment table in this fight (Fight > Roll Tables)",
                    fighter_id=target.id, kind="note")
            return
        total = result.faces[0]
        row = lookup(table, total)
        shown = show_total(table.die, total)
        result.outcome = shown
        effect = f" [{row.effect}]" if row.effect else ""
        ctx.say(f"{table.name}: {shown} -> {row.text}{effect}", fighter_id=target.id,
                kind="table", table=table.id, total=total, row=row.text, effect=row.effect)
        self._death_row(ctx, target, row.effect)

    # --- who is out -----------------------------------------------------------------------------
    def is_out(self, fighter: Fighter) -> bool:
        """docs/rulesets/roll-under.md#hit-points: 0 HP has no effect of its own; a
        fighter is out once they took lethal damage (the GM decides the rest)."""
        return int(fighter.status.lethal) > 0



def _one_die(die: str) -> int:
    """The sides of a table die that is one die ("1d6": 6); 0 for anything else, which
    the app rolls through the table itself."""
    try:
        terms = parse(die).terms
    except RuleViolation:
        return 0
    if len(terms) == 1 and terms[0].count == 1 and terms[0].sign == 1 and terms[0].sides >= 2:
        return terms[0].sides
    return 0


def _first_weapon(fighter: Fighter) -> int | None:
    return 0 if fighter.sheet.weapons else None



def with_assists(text: str, roll: PendingRoll) -> str:
    """``text`` ("..., 8 or less") naming the roll's target as the assists left it
    ("..., 10 or less (8, assists +2)"); unchanged when nobody assisted."""
    moved = roll.total - roll.base
    written = f", {roll.base} or less"
    if not moved or not text.endswith(written):
        return text
    return f"{text.removesuffix(written)}, {roll.total} or less ({roll.base}, assists {moved:+d})"
