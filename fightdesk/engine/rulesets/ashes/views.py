"""The ashes views: what the timeline, the cards, the roll panel, the stack dialog and the
action dialog show, and the commands the forms make (docs/rulesets/ashes.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ... import commands as c
from ... import turns
from ...changes import RuleViolation
from ...odds import AUTOMATIC_BEYOND, challenge_odds
from ...pending_roll import stack_rows
from ...ruleset import (
    ActionForm,
    Card,
    ConditionView,
    FormField,
    Odds,
    Preview,
    Resource,
    RollView,
    StackRow,
)
from ...turn_ruleset import TurnViews
from . import commands as ash
from .model import AshesSkill
from .totals import (
    DODGE_STEP,
    RESIST_WORDS,
    STANCE_FREE,
    attacking_total,
    cost_words,
    defending_total,
    defense_use_cost,
    foes_of,
    offensive_skills,
    parse_parts,
    pump_cost,
    skill_of,
)

if TYPE_CHECKING:
    from ...commands import Command
    from ...model import Encounter, Fighter
    from .rules import Ashes


class AshesViews(TurnViews):
    """The views of the ashes ruleset, read from its rules (``rules.py``)."""

    rules: Ashes
    stack_columns = ("Fighter", "Challenge or defense", "Coins", "Advantage", "Spent", "Cost")
    role_labels: ClassVar[dict[str, str]] = {
        "act": "Act", "react": "Defense", "assist": "Defense", "gm": "GM"}
    card_roles = ("act",)
    starts_with_fight = True

    def roll_view(self, enc: Encounter) -> RollView | None:
        view = super().roll_view(enc)
        roll = enc.state.roll
        if view is None or roll is None:
            return view
        a = roll.total
        how = "automatic, coins for criticals" if (
            enc.options.automatic_beyond_six and abs(a) > AUTOMATIC_BEYOND) else \
            f"{5 + abs(a)} for the challenge"
        line = (f"attack {roll.data.get('attack')} ({roll.data.get('parts')}) against "
                f"{roll.data.get('defense')} ({roll.data.get('defense_parts')})")
        defended = -sum(x.amount for x in roll.contributions)
        if defended:
            line += f", defenses +{defended}"
        return view._replace(dice=f"{7 + abs(a)} coins ({how} + 2)",
                             total_line=f"advantage {a:+d}: {line}")

    def where(self, enc: Encounter) -> str:
        if enc.state.stage == "turns" and enc.state.surprise:
            who = turns.current_fighter(enc.state.turns)
            return f"surprise round, {enc.name_of(who)}'s turn" if who else "surprise round"
        return super().where(enc)

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        """The card shows speed left and each burst used this round."""
        base = super().card(enc, fighter_id)
        f = enc.fighters[fighter_id]
        st, sh = f.status, f.sheet
        burst = int(sh.burst)
        resources = [
            Resource("Speed", int(st.speed), int(sh.speed), "Left this round; back each round"),
            Resource("Defense burst", int(st.defense_speed), burst,
                     f"Speed spent on rising defense costs this round ({st.defenses} defense(s) "
                     f"used; the next costs {defense_use_cost(f)})"),
            Resource("Dodge burst", int(st.dodge_speed), burst, "Speed spent dodging this round"),
            Resource("Move burst", int(st.move_speed), burst, "Speed spent moving this round"),
        ]
        if sh.force:
            resources.append(Resource("Force", int(st.force), int(sh.force), "Force points"))
        for stat, full in sh.physical.items():
            now = int(st.physical.get(stat, full))
            if now != int(full):
                resources.append(Resource(stat.title(), now, int(full), "Physical stat; 0: unconscious"))
        offense = st.offense
        resources.append(Resource("Offense", 0 if offense else 1, 1,
                                  f"Used: {offense}" if offense else "One offensive action a round"))
        if st.attacks_left:
            resources.append(Resource("Attacks left", int(st.attacks_left), None,
                                      f"More challenges of {offense}"))
        if st.free_defenses:
            resources.append(Resource("Free defenses", int(st.free_defenses), STANCE_FREE,
                                      "Defensive stance"))
        if st.readying:
            skill = skill_of(f, st.readying)
            resources.append(Resource(f"Readying {st.readying}", int(st.readied),
                                      int(skill.rounds) if skill else None,
                                      "Rounds of offensive actions put in"))
        if st.initiator and enc.state.stage == "setup":
            resources.append(Resource("Starts the fight", 1, None, "Acts in the surprise round"))
        extra: list[ConditionView] = []
        hp = int(st.hp)
        if hp < 0:
            extra.append(ConditionView("Dead", tooltip="Below 0 HP"))
        elif hp == 0:
            extra.append(ConditionView("Unconscious", "bleeding out within 5 minutes",
                                       tooltip="0 HP"))
        elif any(int(v) <= 0 for v in {**sh.physical, **st.physical}.values()):
            extra.append(ConditionView("Unconscious", tooltip="A physical stat at 0"))
        return base._replace(resources=tuple(resources),
                             conditions=(*base.conditions, *extra))

    def stack(self, enc: Encounter) -> tuple[StackRow, ...]:
        """The waiting challenge and the defenses on it (reactions to it), and a
        cooperative action under way."""
        rows: list[StackRow] = []
        coop = enc.state.cooperative
        if coop is not None:
            names = ", ".join(f"{enc.name_of(p.fighter_id)} {p.rating}" for p in coop.parts)
            rows.append(StackRow(id="cooperative", fighter_id=coop.parts[0].fighter_id,
                                 fighter=enc.name_of(coop.parts[0].fighter_id),
                                 action=f"cooperative action on {enc.name_of(coop.target_id)}",
                                 source="", speed=sum(p.rating for p in coop.parts), spent=0,
                                 cost="", note=names))
        roll = enc.state.roll
        if roll is None:
            return tuple(rows)
        rows += stack_rows(enc, roll, source=f"{self.rules.roll_count(roll)} coins",
                           choice="defense", speed=lambda x: x.amount,
                           spent=lambda x: x.paid.get("use", 0) + x.paid.get("dodge", 0),
                           reacts_to=str(roll.data.get("reacts_to") or ""))
        return tuple(rows)

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        f = enc.fighters[fighter_id]
        st = f.status
        forms: list[ActionForm] = []
        stage = enc.state.stage
        if stage == "setup":
            forms.append(ActionForm("initiator-off", "GM: does not start the fight", role="gm",
                                    rolls=False)
                         if st.initiator else
                         ActionForm("initiator-on", "GM: starts the fight (surprise round)",
                                    role="gm", rolls=False))
        mine = stage == "turns" and turns.current_fighter(enc.state.turns) == fighter_id
        why = "" if mine else "not this fighter's turn"
        if mine and enc.state.roll is not None:
            why = "a challenge is waiting: flip it first"
        used = f"already used this round's offensive action ({st.offense})" if st.offense else ""
        act_why = why or used
        others = tuple((o, enc.name_of(o)) for o in enc.order if o != fighter_id)
        foes = tuple((o, enc.name_of(o)) for o in foes_of(enc, f)) or others
        target = self.target_field(enc, foes)
        pen = int(enc.options.unskilled_penalty)
        skills = (*((s.name, f"{s.name} {s.rating}") for s in offensive_skills(f)),
                  ("none", f"without the skill (-{pen})"))
        again = next((s for s in offensive_skills(f) if s.name == st.offense), None) \
            if st.attacks_left else None
        most_pump = max((_most_pump(f, s) for s in offensive_skills(f)), default=0)
        skill_fields = (
            FormField("skill", "Skill", "choice",
                      ((again.name, f"{again.name} again ({st.attacks_left} left)"),) if again
                      else skills, default=again.name if again else skills[0][0]),
            FormField("pump", "Pump (levels)", "number", default=0, minimum=0, maximum=most_pump,
                      tooltip="Each level doubles the skill's cost, never past burst"),
            FormField("auxiliaries", "Add auxiliary skills", "flag", default=True))
        challenge_why = why if again else act_why
        forms.append(ActionForm("act", "Challenge", (
            target, *skill_fields,
            FormField("resisted_by", "Defends with", "choice",
                      (("skill", "as the skill says"), ("body", "resist body"),
                       ("mind", "resist mind"), ("none", "nothing")), default="skill")),
            enabled=not challenge_why, reason=challenge_why, shortcut="C", verb="Challenge",
            roll_waits=True))
        forms.append(ActionForm("dc", "Challenge against a difficulty", (
            FormField("skill", "Skill", "choice", skills, default=skills[0][0]),
            FormField("parts", "Difficulty parts", "text", default="difficulty 1",
                      tooltip="e.g. 'grip 1, break grip 1' (each part a name and a number)"),
            FormField("target", "Add the resist body of", "choice",
                      (("none", "nobody"), *others), default="none"),
            skill_fields[1], skill_fields[2]),
            enabled=not act_why, reason=act_why, verb="Challenge", roll_waits=True))
        forms.append(ActionForm("stance", "Defensive stance (next 3 defenses free)",
                                enabled=not act_why, reason=act_why, shortcut="D", verb="Apply",
                                rolls=False))
        coop = enc.state.cooperative
        if coop is None:
            forms.append(ActionForm("coop-start", "Start a cooperative action", (
                target, FormField("skill", "Skill", "choice", skills, default=skills[0][0])),
                enabled=not act_why, reason=act_why, verb="Start", rolls=False))
        else:
            late = enc.state.turns.turn_number - coop.last_turn > 1
            joined = any(p.fighter_id == fighter_id for p in coop.parts)
            join_why = act_why or ("already part of it" if joined else "") or (
                "too late: more than a turn since the last participant" if late else "")
            forms.append(ActionForm("coop-join", "Join the cooperative action", (
                FormField("skill", "Skill", "choice", skills, default=skills[0][0]),
                FormField("complete", "Complete it now (challenge)", "flag", default=True)),
                enabled=not join_why, reason=join_why, verb="Join", roll_waits=True))
        paid_most = max(0, min(int(f.sheet.burst) - int(st.move_speed), int(st.speed)))
        free = int(st.free_metres)
        forms.append(ActionForm("move", "Move", (
            FormField("metres", "Metres", "number", default=1, minimum=1,
                      maximum=max(1, free + paid_most + (0 if st.offense else 1))),
            FormField("second", "Second move (gives up the offensive action)", "flag",
                      default=False)),
            enabled=not why, reason=why, shortcut="M", verb="Move", rolls=False))
        forms.append(ActionForm("free", "Free action", (
            FormField("what", "What", "text", default="talks"),),
            enabled=stage == "turns", reason="" if stage == "turns" else "no round is going",
            verb="Apply", rolls=False))
        forms.append(self.hold_form(enc, fighter_id))
        forms.append(self._defend_form(enc, fighter_id))
        forms.append(ActionForm("damage", "GM: damage", (
            FormField("amount", "Damage", "number", default=1, minimum=1, maximum=999),
            FormField("subdual", "Subdual", "flag", default=False)), role="gm", verb="Apply",
            rolls=False))
        rest_why = "between fights, not in a round" if stage == "turns" else ""
        forms.append(ActionForm("recover", "GM: recover (rest)", (
            FormField("quarters", "Quarters of an hour", "number", default=1, minimum=0, maximum=96),
            FormField("days", "Days", "number", default=0, minimum=0, maximum=365)),
            role="gm", enabled=not rest_why, reason=rest_why, verb="Rest", rolls=False))
        return tuple(forms)

    def _defend_form(self, enc: Encounter, fighter_id: str) -> ActionForm:
        """A defense on the waiting challenge, as a reaction (the stack dialog's Add; the
        roll panel offers the same)."""
        roll = enc.state.roll
        options = [o for o in self.rules.contribution_options(enc, roll) if o.fighter_id == fighter_id] \
            if roll is not None else []
        why = "" if options else (
            "no challenge is waiting" if roll is None else
            f"only {enc.name_of(roll.data.get('target'))} defends, with speed and burst left"
            if roll.data.get("kind") != "dc" else "a DC challenge has a fixed difficulty")
        choices = tuple((f"{roll.id}:{o.kind}", f"{o.label} ({o.cost})") for o in options) \
            if roll is not None else ()
        most = max((o.maximum for o in options if o.kind == "dodge"), default=DODGE_STEP)
        # A defense adds to the waiting challenge; its coins are flipped with the challenge.
        return ActionForm("defend", "Defend (skill or dodge)", (
            FormField("defense", "Defense", "choice", choices,
                      default=choices[0][0] if choices else None),
            FormField("speed", "Dodge speed", "number", default=min(DODGE_STEP, max(1, most)),
                      minimum=1, maximum=max(1, most),
                      tooltip="Only for a dodge: +1 defense per 3 speed, rounded down")),
            role="react", enabled=not why, reason=why, verb="Defend", rolls=False)

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        me = enc.fighters[fighter_id]
        pen = int(enc.options.unskilled_penalty)
        auto = bool(enc.options.automatic_beyond_six)
        if form_id in ("act", "dc", "coop-start"):
            skill = skill_of(me, _skill_value(values.get("skill")))
            pump = int(values.get("pump") or 0) if form_id != "coop-start" else 0
            aux = bool(values.get("auxiliaries", True)) if form_id != "coop-start" else False
            try:
                attack, costs, parts = attacking_total(me, skill, pump, aux, pen)
            except RuleViolation as exc:
                return Preview(error=str(exc))
            lines = [f"Attack {attack}: {' + '.join(parts)}; costs {cost_words(costs)}"]
            if form_id == "dc":
                try:
                    dc_parts = parse_parts(str(values.get("parts") or ""))
                except RuleViolation as exc:
                    return Preview(error=str(exc))
                whose = enc.fighters.get(str(values.get("target")))
                if whose is not None:
                    dc_parts.append((f"{whose.name}'s resist body", int(whose.sheet.resist_body)))
                defense = sum(v for _, v in dc_parts)
                lines.append("Difficulty " + " + ".join(f"{k} {v}" for k, v in dc_parts)
                             + f" = {defense}")
            else:
                foe = enc.fighters.get(str(values.get("target")))
                if foe is None:
                    return Preview(error="choose a target")
                resisted = str(values.get("resisted_by") or "skill")
                if resisted == "skill":
                    resisted = skill.resisted_by if skill else "body"
                defense = defending_total(foe, resisted)
                lines.append(f"{foe.name} defends with {RESIST_WORDS[resisted]} + passive "
                             f"defense: {defense}, before defensive skills and dodges")
                if form_id == "coop-start":
                    lines.append("The challenge is made when the last participant completes it")
                    return Preview(lines=tuple(lines))
            a = attack - defense
            got = challenge_odds(a, automatic_beyond_six=auto)
            lines.append(f"Advantage {a:+d}: {7 + abs(a)} coins")
            return Preview(lines=tuple(lines), odds=(
                Odds("success", got.success), Odds("attacker's critical", got.attacker_critical),
                Odds("defender's critical", got.defender_critical)))
        if form_id == "move":
            metres = int(values.get("metres") or 1)
            free = int(me.status.free_metres) + (1 if values.get("second") else 0)
            paid = max(0, metres - free)
            return Preview(lines=(f"{metres} m: {paid} speed" + (
                ", the offensive action given up" if values.get("second") else ""),))
        if form_id == "coop-join":
            coop = enc.state.cooperative
            if coop is None:
                return Preview(error="no cooperative action is under way")
            skill = skill_of(me, _skill_value(values.get("skill")))
            rating = attacking_total(me, skill, 0, False, pen)[0]
            total = sum(p.rating for p in coop.parts) + rating
            foe = enc.fighters.get(coop.target_id)
            if foe is None or not values.get("complete"):
                return Preview(lines=(f"Adds {rating}: {total} so far",))
            a = total - defending_total(foe, coop.resisted_by)
            got = challenge_odds(a, automatic_beyond_six=auto)
            return Preview(lines=(f"Together {total} against {foe.name}: advantage {a:+d}",),
                           odds=(Odds("success", got.success),))
        if form_id == "defend":
            roll = enc.state.roll
            picked = str(values.get("defense") or "")
            if roll is None:
                return Preview(error="no challenge is waiting")
            if ":" not in picked:
                return Preview(error="choose a defense")
            kind = picked.split(":", 1)[1]
            if kind == "dodge":
                bonus = int(values.get("speed") or DODGE_STEP) // DODGE_STEP
            else:
                found = skill_of(me, kind.removeprefix("skill:"))
                bonus = int(found.rating) if found else 0
            a = roll.total - bonus
            got = challenge_odds(a, automatic_beyond_six=auto)
            return Preview(lines=(f"Advantage {roll.total:+d} -> {a:+d}",),
                           odds=(Odds(f"{enc.name_of(roll.data.get('actor'))} wins", got.success),))
        if form_id == "hold-turn":
            return super().preview(enc, form_id, fighter_id, values)
        return Preview(lines=())

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
        skill = _skill_value(values.get("skill"))
        if form_id == "act":
            resisted = values.get("resisted_by")
            return ash.Challenge(fighter_id=fighter_id, target_id=str(values.get("target") or ""),
                                 skill=skill, pump=int(values.get("pump") or 0),
                                 auxiliaries=bool(values.get("auxiliaries", True)),
                                 resisted_by=None if resisted in (None, "skill") else resisted)
        if form_id == "dc":
            whose = values.get("target")
            return ash.DcChallenge(fighter_id=fighter_id, skill=skill,
                                   parts=parse_parts(str(values.get("parts") or "")),
                                   pump=int(values.get("pump") or 0),
                                   auxiliaries=bool(values.get("auxiliaries", True)),
                                   target_id=None if whose in (None, "", "none") else str(whose))
        if form_id == "stance":
            return ash.Stance(fighter_id=fighter_id)
        if form_id == "move":
            return ash.Move(fighter_id=fighter_id, metres=int(values.get("metres") or 1),
                            second=bool(values.get("second")))
        if form_id == "free":
            return ash.FreeAction(fighter_id=fighter_id, what=str(values.get("what") or ""))
        if form_id == "coop-start":
            return ash.StartCooperative(fighter_id=fighter_id,
                                        target_id=str(values.get("target") or ""), skill=skill)
        if form_id == "coop-join":
            return ash.JoinCooperative(fighter_id=fighter_id, skill=skill,
                                       complete=bool(values.get("complete")))
        if form_id in ("resolve-next", "resolve-all"):
            return ash.FlipWaiting()
        if form_id == "defend":
            picked = str(values.get("defense") or "")
            rid, _, kind = picked.partition(":")
            if not rid.isdigit() or not kind:
                raise RuleViolation("choose a defense")
            return c.Contribute(roll_id=int(rid), fighter_id=fighter_id, contribution=kind,
                                amount=int(values.get("speed") or DODGE_STEP)
                                if kind == "dodge" else 0)
        if form_id == "damage":
            return ash.Damage(fighter_id=fighter_id, amount=int(values.get("amount") or 1),
                              subdual=bool(values.get("subdual")))
        if form_id == "recover":
            return ash.Recover(fighter_id=fighter_id, quarters=int(values.get("quarters") or 0),
                               days=int(values.get("days") or 0))
        if form_id in ("initiator-on", "initiator-off"):
            return ash.SetInitiator(fighter_id=fighter_id, initiator=form_id == "initiator-on")
        return super().build_command(form_id, fighter_id, values)

    def round_controls(self, enc: Encounter) -> Any:
        controls = super().round_controls(enc)
        # The stack dialog: its Resolve flips the waiting coins, its Add adds a defense.
        waiting = enc.state.roll is not None
        controls.extra = {"resolve-next": waiting, "resolve-all": waiting,
                          "cancel-stack": False, "interrupt": waiting}
        return controls


def _most_pump(fighter: Fighter, skill: AshesSkill) -> int:
    """The most levels the skill can be pumped: its doubled cost stays within burst."""
    if not skill.pumpable or not skill.cost:
        return 0
    levels = 0
    while levels < 20 and pump_cost(skill, levels + 1) <= int(fighter.sheet.burst):
        levels += 1
    return levels


def _skill_value(value: Any) -> str | None:
    return None if value in (None, "", "none") else str(value)
