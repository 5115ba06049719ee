"""The roll-under views: the cards, the stack rows, the action forms and their previews,
the round controls, and the commands the forms make (docs/rulesets/roll-under.md). The
rules (``rules.py``) subclass them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ... import turns
from ...odds import d20_at_or_under
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
from . import commands as ru
from .targets import (
    DAMAGE_DIE,
    MANEUVER_STAT,
    PARTY,
    attack_target,
    defense_target,
    disarmed,
    maneuver_target,
    player_faces,
)

if TYPE_CHECKING:
    from ...commands import Command
    from ...model import Encounter
    from .rules import RollUnder


class RollUnderViews(TurnViews):
    """What the widgets show of a roll-under fight, as plain data, read from its rules
    (``rules.py``)."""

    rules: RollUnder
    starts_with_fight = True
    stack_columns = ("Fighter", "Roll or assist", "Rolls", "Target", "Assists", "Cost")
    role_labels: ClassVar[dict[str, str]] = {
        "act": "Act", "react": "Assist", "assist": "Assist", "gm": "GM"}
    card_roles = ("act",)

    def round_shown(self, enc: Encounter) -> int:
        """The initiative asked after the surprise step is round 1's own, not the next
        round's (docs/rulesets/roll-under.md#initiative)."""
        return enc.round if enc.state.surprise else super().round_shown(enc)

    def where(self, enc: Encounter) -> str:
        if enc.state.stage == "turns" and enc.state.surprise:
            slot = turns.current_slot(enc.state.turns)
            who = enc.name_of(slot.fighter_id) if slot else ""
            return f"surprise, {who}'s turn" if who else "surprise"
        return super().where(enc)

    def card(self, enc: Encounter, fighter_id: str) -> Card:
        base = super().card(enc, fighter_id)
        f = enc.fighters[fighter_id]
        st = f.status
        resources = [Resource("Assists", int(st.assists), int(f.sheet.assists),
                              "Spent on anyone's roll, before it is made")]
        if st.lethal:
            resources.append(Resource("Lethal", int(st.lethal), None, "Damage taken past 0 HP"))
        if st.fatal_wounds:
            resources.append(Resource("Fatal Wounds", int(st.fatal_wounds), None,
                                      "Removing one is an action"))
        if base.acting:
            resources.append(Resource("Action", 0 if st.action else 1, 1,
                                      f"Used: {st.action}" if st.action else "One action this turn"))
            resources.append(Resource("Move", 0 if st.moved else 1, 1, "About 60 feet"))
        if st.ambusher and enc.state.stage == "setup":
            resources.append(Resource("Ambusher", 1, None, "Acts in the surprise step"))
        return base._replace(resources=tuple(resources))

    def roll_view(self, enc: Encounter) -> Any:
        """A player's damage or Death table roll reads as what it is: the die whose face
        is the damage or the table's row (not a target of 0)."""
        view = super().roll_view(enc)
        roll = enc.state.roll
        if view is not None and roll is not None and roll.data.get("kind") == "death":
            return view._replace(total_line=f"the face of the d{roll.sides} is the row of "
                                            "the Death and Dismemberment table")
        if view is None or roll is None or roll.data.get("kind") != "damage":
            return view
        return view._replace(total_line=f"the face of the d{roll.sides} is the damage to "
                                        f"{enc.name_of(roll.data.get('target'))}")

    def stack(self, enc: Encounter) -> tuple[StackRow, ...]:
        """The waiting roll and the assists on it: reactions to the roll they change."""
        roll = enc.state.roll
        if roll is None:
            return ()
        return tuple(stack_rows(enc, roll, source="d20", choice="assist",
                                speed=lambda c: None,
                                spent=lambda c: c.paid.get("assists", 0)))

    def action_forms(self, enc: Encounter, fighter_id: str) -> tuple[ActionForm, ...]:
        f = enc.fighters[fighter_id]
        forms: list[ActionForm] = []
        stage = enc.state.stage
        mine = stage == "turns" and turns.current_fighter(enc.state.turns) == fighter_id
        why = "" if mine else "not this fighter's turn"
        if mine and enc.state.roll is not None:
            why = "a roll is waiting: make it first"
        acted = f"already took this turn's action ({f.status.action})" if f.status.action else ""
        act_why = why or acted
        others = tuple((o, enc.name_of(o)) for o in enc.order if o != fighter_id)
        foes = tuple((o, n) for o, n in others if (enc.fighters[o].side in PARTY) != (f.side in PARTY)) \
            or others
        weapons = (*((str(i), f"{w.name} (d{DAMAGE_DIE[w.weapon_class]})")
                     for i, w in enumerate(f.sheet.weapons)), ("none", "unarmed (d6)"))
        target = self.target_field(enc, foes)  # docs/rulesets/roll-under.md#attack
        forms.append(ActionForm("act", "Attack", (
            target, FormField("weapon", "Weapon", "choice", weapons, default=weapons[0][0])),
            enabled=not act_why, reason=act_why, shortcut="A", roll_waits=True))
        forms.append(ActionForm("maneuver", "Combat maneuver", (
            FormField("maneuver", "Maneuver", "choice", (
                ("shove", "Shove (Strength)"), ("grapple", "Grapple (Strength)"),
                ("trip", "Trip (Dexterity)"), ("disarm", "Disarm (Dexterity)")), default="shove"),
            target), enabled=not act_why, reason=act_why, shortcut="M", roll_waits=True))
        forms.append(ActionForm("other", "Run, activate gear or reload", (
            FormField("action", "Action", "choice", (("run", "Run about 60 feet"),
                                                    ("gear", "Activate gear"),
                                                    ("reload", "Reload")), default="run"),),
            enabled=not act_why, reason=act_why, rolls=False))
        wounded = tuple((o, enc.name_of(o)) for o in enc.order
                        if enc.fighters[o].status.fatal_wounds > 0)
        wound_why = act_why or ("" if wounded else "nobody has a Fatal Wound")
        # docs/rulesets/roll-under.md#fatal-wounds: a Dexterity roll only under the option.
        forms.append(ActionForm("remove-wound", "Remove a Fatal Wound", (
            FormField("target", "From", "choice", wounded, default=wounded[0][0] if wounded else None),),
            enabled=not wound_why, reason=wound_why,
            rolls=enc.options.fatal_wound_needs_roll))
        if disarmed(f):
            forms.append(ActionForm("pick-up", "Take the weapon back (free)",
                                    enabled=not why, reason=why, rolls=False))
        move_why = why or ("already moved this turn" if f.status.moved else "")
        forms.append(ActionForm("move", "Move (about 60 feet)", enabled=not move_why,
                                reason=move_why, rolls=False))
        forms.append(self.hold_form(enc, fighter_id))
        forms.append(ActionForm("rest", "GM: rest (assists back)", role="gm", rolls=False))
        return tuple(forms)

    def preview(self, enc: Encounter, form_id: str, fighter_id: str,
                values: dict[str, Any]) -> Preview:
        me = enc.fighters[fighter_id]
        foe = enc.fighters.get(str(values.get("target")))
        if form_id in ("act", "maneuver"):
            if foe is None:
                return Preview(error="choose a target")
            if form_id == "act":
                if player_faces(me, foe):
                    need = defense_target(foe, me)
                    line = f"{foe.name} rolls Defense, {need} or less (the enemy does not roll)"
                    odds = (Odds(f"{foe.name} defends", d20_at_or_under(need)),)
                else:
                    need = attack_target(me, foe)
                    line = f"{me.name} rolls Attack, {need} or less"
                    odds = (Odds("hit", d20_at_or_under(need)),)
                weapon = weapon_choice(values.get("weapon"))
                sides, name = self.rules.weapon_die(me, weapon)
                return Preview(lines=(line, f"Damage on a hit: 1d{sides} ({name})",
                                      "Assists can still change the target on the roll panel"),
                               odds=odds)
            maneuver = str(values.get("maneuver") or "shove")
            stat = MANEUVER_STAT.get(maneuver, "strength").title()
            if player_faces(me, foe):
                need = maneuver_target(foe, me, maneuver)
                line = f"{foe.name} rolls {stat} to resist, {need} or less"
                odds = (Odds(f"{foe.name} resists", d20_at_or_under(need)),)
            else:
                need = maneuver_target(me, foe, maneuver)
                line = f"{me.name} rolls {stat}, {need} or less; a failure gives {foe.name} a hit"
                odds = (Odds(f"the {maneuver} works", d20_at_or_under(need)),)
            return Preview(lines=(line,), odds=odds)
        if form_id == "hold-turn":
            return super().preview(enc, form_id, fighter_id, values)
        if form_id == "remove-wound" and enc.options.fatal_wound_needs_roll:
            need = int(me.sheet.dexterity)
            return Preview(lines=(f"{me.name} rolls Dexterity, {need} or less",),
                           odds=(Odds("removed", d20_at_or_under(need)),))
        return Preview(lines=())

    def build_command(self, form_id: str, fighter_id: str, values: dict[str, Any]) -> Command:
        target = str(values.get("target") or "")
        if form_id == "act":
            return ru.Attack(fighter_id=fighter_id, target_id=target,
                             weapon=weapon_choice(values.get("weapon")))
        if form_id == "maneuver":
            return ru.CombatManeuver(fighter_id=fighter_id, target_id=target,
                                     maneuver=values.get("maneuver") or "shove")
        if form_id == "other":
            return ru.OtherTurnAction(fighter_id=fighter_id, action=values.get("action") or "run")
        if form_id == "move":
            return ru.Move(fighter_id=fighter_id)
        if form_id == "pick-up":
            return ru.PickUpWeapon(fighter_id=fighter_id)
        if form_id == "remove-wound":
            return ru.RemoveFatalWound(fighter_id=fighter_id, target_id=target)
        if form_id == "rest":
            return ru.Rest(fighter_id=fighter_id)
        # The ambushers are picked when the fight starts (docs/rulesets/roll-under.md#surprise);
        # a form id from an older layout still builds the GM's mark.
        if form_id in ("ambusher-on", "ambusher-off"):
            return ru.SetAmbusher(fighter_id=fighter_id, ambusher=form_id == "ambusher-on")
        return super().build_command(form_id, fighter_id, values)

    def round_controls(self, enc: Encounter) -> Any:
        controls = super().round_controls(enc)
        stage = enc.state.stage
        if stage == "initiative":
            controls.status = "each PC rolls Wisdom: type the rolls or leave them to the app"
        return controls
