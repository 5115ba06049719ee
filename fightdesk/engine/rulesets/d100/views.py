"""What the d100 window shows: the cards, the stack of the waiting roll, the action
forms and their previews with exact odds (docs/rulesets/d100.md)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from ... import turns
from ...changes import RuleViolation
from ...odds import d100_beats, d100_beats_one_and_a_half, d100_damage, d100_strike_odds
from ...pending_roll import stack_rows
from ...ruleset import (
    ActionForm,
    Card,
    FormField,
    Odds,
    Preview,
    Resource,
    StackRow,
    weapon_choice,
)
from ...turn_ruleset import TurnViews
from . import commands as dc
from . import values as v

if TYPE_CHECKING:
    from ...commands import Command
    from ...model import Encounter
    from .rules import D100

PARTY = ("pc", "ally")


class D100Views(TurnViews):
    """What the widgets show of a d100 fight, as plain data, read from its rules
    (``rules.py``)."""

    rules: D100
    starts_with_fight = True
    stack_columns = ("Fighter", "Roll or choice", "Roll", "Bonus", "Spent", "Cost")
    role_labels: ClassVar[dict[str, str]] = {
        "act": "Act", "react": "Defense", "assist": "Defense", "gm": "GM"}
    card_roles = ("act",)

    def roll_view(self, enc: Encounter) -> Any:
        """The roll panel's second line in the ruleset's words: the bonus, and the defense
        or counterstrike chosen (not "help")."""
        view = super().roll_view(enc)
        roll = enc.state.roll
        if view is None or roll is None:
            return view
        kind = roll.data.get("kind")
        chosen = roll.contributions[0].label if roll.contributions else ""
        if kind == "defense":
            line = f"against a strike total of {roll.data['strike_total']}; "
            line += (f"{chosen} {roll.total:+d}" if chosen else "no defense chosen yet")
            if roll.base:
                line += f" ({roll.base:+d} from cover or the strike)"
        elif kind == "counter":
            line = (f"counterstrike {roll.total:+d} against a strike total of "
                    f"{roll.data['strike_total']}")
        elif kind == "opposed":
            line = (f"Damage skill {roll.total:+d} against {roll.data['opposed_total']} "
                    f"({enc.name_of(roll.data.get('actor'))}'s {roll.data['why']})")
        else:
            line = f"strike bonus {roll.total:+d}"
            if chosen:
                line += f"; {enc.name_of(roll.contributions[0].fighter_id)} declared a {chosen}"
        # docs/rulesets/d100.md#defense: one defense, picked with its odds, is the answer.
        return view._replace(total_line=line, one_choice=kind == "defense")

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        shown = self._own_preview(enc, form_id, fighter_id, values)
        return shown if shown is not None else super().preview(enc, form_id, fighter_id, values)

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
        if form_id == "strike":
            return dc.Strike(fighter_id=fighter_id, target_id=str(values.get("target") or ""),
                             weapon=weapon_choice(values.get("weapon")),
                             fierce=bool(values.get("fierce")),
                             every_weapon=bool(values.get("every_weapon")))
        if form_id == "break-free":
            return dc.BreakFree(fighter_id=fighter_id)
        if form_id == "disarm":
            return dc.Disarm(fighter_id=fighter_id, target_id=str(values.get("target") or ""))
        if form_id == "pick-up":
            return dc.PickUp(fighter_id=fighter_id)
        if form_id == "repair":
            return dc.RepairWeapon(fighter_id=fighter_id,
                                   weapon=int(values.get("weapon") or 0))
        if form_id == "recover":
            return dc.Recover(fighter_id=fighter_id, minutes=int(values.get("minutes") or 0),
                              hours=int(values.get("hours") or 0),
                              medical=bool(values.get("medical")))
        if form_id == "cover":
            return dc.SetCover(fighter_id=fighter_id, cover=values.get("cover") or "none")
        return super().build_command(form_id, fighter_id, values)

    def round_controls(self, enc: Encounter) -> Any:
        controls = super().round_controls(enc)
        stage = enc.state.stage
        if stage == "initiative":
            controls.status = "initiative: type the rolls or leave them to the app"
        return controls

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        """The card: actions and borrowing, armour, serious wounds, dropped and damaged
        weapons, cover, critical damage."""
        base = super().card(enc, fighter_id)
        f = enc.fighters[fighter_id]
        st = f.status
        resources = []
        if enc.options.alternative_hp:
            base = base._replace(health_max=v.health_max(f, True))
            resources.append(Resource("Critical", int(st.critical), None,
                                      "Critical damage: perceived damage recovers only down "
                                      "to it"))
        if enc.state.stage in ("turns", "round-over", "initiative"):
            tip = "Counterstrikes use it too"
            if st.owes:
                tip = "Next round's action is borrowed: none next round"
            resources.append(Resource("Action", int(st.actions), 1, tip))
            if st.owes:
                resources.append(Resource("Borrowed", 1, None,
                                          "Next round's action is used already"))
        armour = v.armour_of(f)
        if armour is not None:
            resources.append(Resource("Armour", v.armour_left(f), int(armour.hp),
                                      f"{armour.name}: stops natural strike rolls "
                                      f"{armour.low:02d}-{armour.high:02d}"))
        if v.seriously_wounded(f):
            speed = int(f.sheet.running_speed) // 2
            resources.append(Resource("Seriously wounded", 1, None,
                                      "Values halved; an action every second round; "
                                      f"running speed {speed}"))
        if st.dropped:
            names = ", ".join(f.sheet.weapons[i].name for i in st.dropped
                              if 0 <= i < len(f.sheet.weapons))
            resources.append(Resource("Dropped", len(st.dropped), None, names))
        for index, held in enumerate(f.sheet.weapons):
            if v.destroyed(f, index):
                resources.append(Resource(held.name, 0, int(held.hp), "Destroyed beyond repair"))
            elif v.weapon_hp(f, index) < int(held.hp):
                resources.append(Resource(held.name, v.weapon_hp(f, index), int(held.hp),
                                          "The weapon's hit points (0: unusable until repaired)"))
        if st.cover != "none":
            resources.append(Resource(f"{st.cover.title()} cover", 1, None,
                                      "Behind an obstacle (docs/rulesets/d100.md#obstacles)"))
        return base._replace(resources=tuple(resources))

    def stack(self, enc: Encounter) -> tuple[StackRow, ...]:
        """The waiting roll and the choices on it (a counterstrike, a defense)."""
        roll = enc.state.roll
        if roll is None:
            return ()
        return tuple(stack_rows(enc, roll, source="d100", choice="choice",
                                speed=lambda c: c.amount or None,
                                spent=lambda c: c.paid.get("action", 0)))

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        f = enc.fighters[fighter_id]
        forms: list[ActionForm] = []
        stage = enc.state.stage
        mine = stage == "turns" and turns.current_fighter(enc.state.turns) == fighter_id
        why = "" if mine else "not this fighter's turn"
        if mine and enc.state.roll is not None:
            why = "a roll is waiting: make it first"
        word = v.action_word(f)
        act_why = why or ("no action left (next round's is borrowed)" if not word else "")
        holder = v.entangled_by(f)
        strike_why = act_why or (f"entangled by {enc.name_of(holder)}: break free first"
                                 if holder else "")
        foes = tuple((o, enc.name_of(o)) for o in enc.order if o != fighter_id
                     and not self.rules.is_out(enc.fighters[o])
                     and (enc.fighters[o].side in PARTY) != (f.side in PARTY)) \
            or tuple((o, enc.name_of(o)) for o in enc.order if o != fighter_id
                     and not self.rules.is_out(enc.fighters[o]))
        weapons = (*((str(i), f"{f.sheet.weapons[i].name} (damage {f.sheet.weapons[i].damage})")
                     for i in v.held_weapons(f)), ("none", "punches and kicks (damage 1)"))
        fields = [FormField("target", "Target", "choice", foes, default=foes[0][0] if foes else None),
                  FormField("weapon", "Weapon", "choice", weapons, default=weapons[0][0]),
                  FormField("fierce", "Fierce (-20 to strike, +1 damage)", "flag", default=False)]
        if v.every_weapon(f):
            fields.append(FormField("every_weapon", "With every weapon in hand (-20 to own "
                                    "parry, dodge and entangle this round)", "flag",
                                    default=False))
        title = "Strike" + (" (borrows next round's action)" if word == "borrow" else "")
        forms.append(ActionForm("strike", title, tuple(fields), enabled=not strike_why,
                                reason=strike_why, shortcut="S", verb="Strike", roll_waits=True))
        if holder:
            forms.append(ActionForm("break-free", "Break free", enabled=not act_why,
                                    reason=act_why, shortcut="B", verb="Roll"))
        held = tuple((o, enc.name_of(o)) for o in enc.order
                     if v.entangled_by(enc.fighters[o]) == fighter_id)
        if held:
            forms.append(ActionForm("disarm", "Disarm the one entangled", (
                FormField("target", "Whom", "choice", held, default=held[0][0]),),
                enabled=not act_why, reason=act_why, verb="Roll"))
        if f.status.dropped:
            pick_why = act_why or (f"entangled by {enc.name_of(holder)}: break free first"
                                   if holder else "")
            forms.append(ActionForm("pick-up", "Pick up the dropped weapons", enabled=not pick_why,
                                    reason=pick_why, verb="Pick up", rolls=False))
        forms.append(self.hold_form(enc, fighter_id))
        damaged = tuple((str(i), f"{w.name} ({v.weapon_hp(f, i)} of {w.hp} HP)")
                        for i, w in enumerate(f.sheet.weapons)
                        if v.weapon_hp(f, i) < int(w.hp) and not v.destroyed(f, i))
        if damaged:
            forms.append(ActionForm("repair", "GM: repair a weapon", (
                FormField("weapon", "Weapon", "choice", damaged, default=damaged[0][0]),),
                role="gm", verb="Repair", rolls=False))
        if enc.options.alternative_hp:
            forms.append(ActionForm("recover", "GM: recovery out of combat", (
                FormField("minutes", "Minutes of rest", "number", default=0, minimum=0,
                          maximum=10000),
                FormField("hours", "Hours of sleep", "number", default=0, minimum=0,
                          maximum=1000),
                FormField("medical", "Medical attention", "flag", default=False)),
                role="gm", verb="Recover", rolls=False))
        forms.append(ActionForm("cover", "GM: cover", (FormField(
            "cover", "Cover", "choice", (("none", "none"), ("partial", "partial"),
                                         ("full", "full")), default=f.status.cover),),
            role="gm", verb="Apply", rolls=False))
        return tuple(forms)

    def _own_preview(self, enc: Encounter, form_id: str, fighter_id: str,
                     values: dict[str, Any]) -> Preview | None:
        """What the action dialog shows before the roll (None: a form of the shared base)."""
        me = enc.fighters[fighter_id]
        if form_id == "strike":
            foe = enc.fighters.get(str(values.get("target")))
            if foe is None:
                return Preview(error="choose a target")
            try:
                weapon = weapon_choice(values.get("weapon"))
            except RuleViolation as exc:
                return Preview(error=str(exc))
            fierce = bool(values.get("fierce"))
            used: v.Weapons = weapon
            if values.get("every_weapon"):
                if fierce:
                    return Preview(error="no Fierce strike with every weapon at once")
                used = v.every_weapon(me)
            elif fierce and v.may_be_fierce(enc, me, weapon):
                return Preview(error=v.may_be_fierce(enc, me, weapon))
            bonus = v.value(me, "strike") - (v.FIERCE_PENALTY if fierce else 0)
            around = v.around_cover(foe)
            damage = v.weapon_damage(me, used, fierce, enc)
            lines = [f"{me.name} rolls 1d100 {bonus:+d}; {foe.name} then chooses a defense "
                     f"(or declares a counterstrike before the roll)",
                     f"Damage {damage} by the chart; {foe.name}'s Toughness "
                     f"{v.value(foe, 'toughness')} off outside the armour"]
            if around:
                lines.append(f"{foe.name} is behind full cover: striking around it gives "
                             f"+{around} to the defense")
            if v.action_word(me) == "borrow":
                lines.append(f"{me.name} borrows next round's action for this strike")
            if v.seriously_wounded(me):
                lines.append(f"{me.name} is seriously wounded: bonuses halved")
            odds = []
            armour = v.armour_range(foe)
            for name in v.DEFENSES:
                defense = v.value(foe, name) + around
                got = d100_strike_odds(bonus, defense)
                odds.append(Odds(f"hits against {v.a_defense(name)} {defense:+d}", got.hit))
            best = max(v.value(foe, name) for name in v.DEFENSES) + around
            dist = d100_damage(bonus, best, damage, toughness=v.value(foe, "toughness"),
                               armour=armour, chart=v.chart(enc))
            hurt = sum((p for amount, p in dist.items() if amount > 0), Fraction(0))
            odds.append(Odds(f"{foe.name} loses health (best defense)", hurt))
            return Preview(lines=tuple(lines), odds=tuple(odds))
        if form_id == "break-free":
            holder = v.entangled_by(me)
            other = enc.fighters.get(holder or "")
            if other is None:
                return Preview(error="not entangled")
            mine, theirs = v.value(me, "damage_skill"), v.value(other, "damage_skill")
            return Preview(lines=(f"{me.name} 1d100 {mine:+d} against {other.name} 1d100 "
                                  f"{theirs:+d}; ties hold",),
                           odds=(Odds("breaks free", d100_beats(mine, theirs)),))
        if form_id == "disarm":
            foe = enc.fighters.get(str(values.get("target")))
            if foe is None:
                return Preview(error="choose whom to disarm")
            mine, theirs = v.value(me, "damage_skill"), v.value(foe, "damage_skill")
            return Preview(lines=(f"{me.name} 1d100 {mine:+d} must beat 1.5 x {foe.name}'s "
                                  f"1d100 {theirs:+d}",),
                           odds=(Odds("disarms", d100_beats_one_and_a_half(mine, theirs)),))
        if form_id == "pick-up":
            return Preview(lines=(f"{me.name} uses the action to pick up the weapons",))
        if form_id == "repair":
            return Preview(lines=(f"{me.name}'s weapon is repaired to its full hit points",))
        if form_id == "recover":
            return Preview(lines=(f"{me.name} recovers {int(me.sheet.recovery)} a minute "
                                  "(perceived) and an hour of sleep (critical)",))
        if form_id == "cover":
            return Preview(lines=(f"{me.name}: cover {values.get('cover') or 'none'}",))
        return None
