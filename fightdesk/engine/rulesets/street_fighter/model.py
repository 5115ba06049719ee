"""Street Fighter data: the fighter sheet, maneuvers, live status and round state.

The rules these serve are in docs/rulesets/street-fighter.md (the sheet: #fighter-sheet).
Everything a rule writes lives here, so undo, redo and the log rebuild cover it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...base import Condition, Decision, StateModel

RULESET_ID = "street-fighter"

Technique = Literal["punch", "kick", "block", "grab", "athletics", "focus"]
TECHNIQUES: tuple[str, ...] = ("punch", "kick", "block", "grab", "athletics", "focus")
Special = Literal[
    "zen-no-mind",
    "teleport",
    "shrouded-moon",
    "ghostform",
    "punch-defense",
    "kick-defense",
    "yoga-flame",
    "fire-strike",
    "flame-fist",
    "toughskin",
    "stunning-shout",
    "kippup",
]
# Specials that last from an instant to the end of the round and can be dropped
# (docs/rulesets/street-fighter.md#round-long-effects).
ROUND_EFFECTS: frozenset[str] = frozenset(
    {"teleport", "shrouded-moon", "ghostform", "yoga-flame", "fire-strike"}
)
# Of those, the ones that break recovery and concentration when kept longer than a phase.
BREAKS_FOCUS: frozenset[str] = frozenset({"teleport", "shrouded-moon", "ghostform"})
# Switched on at any time, lasting for Focus attacks
# (docs/rulesets/street-fighter.md#flame-fist-and-toughskin).
COUNTED_EFFECTS: frozenset[str] = frozenset({"flame-fist", "toughskin"})
# Passive maneuvers: never used as an action.
PASSIVE: frozenset[str] = frozenset({"zen-no-mind", "kippup", "flame-fist", "toughskin"})

Attribute = Literal[
    "strength", "dexterity", "stamina", "charisma", "manipulation", "appearance",
    "perception", "intelligence", "wits",
    "arena", "style_lore", "insight", "intimidation", "subterfuge",
    "punch", "kick", "block", "grab", "athletics", "focus",
]


def _wits_and_focus() -> list[Attribute]:
    return ["wits", "focus"]


class Maneuver(StateModel):
    """A maneuver as the fighter knows it: modifiers, technique and rule flags."""

    name: str = Field(min_length=1)
    speed: int = Field(0, ge=-10, le=10)
    damage: int = Field(0, ge=-10, le=10)
    move: int = Field(0, ge=-10, le=20)
    technique: Technique | None = "punch"
    abort: bool = False
    block: bool = False
    hold: bool = False
    knockdown: bool = False
    no_damage: bool = False
    basic: bool = False
    special: Special | None = None
    # Stunning Shout's opposed pool (default Wits + Focus:
    # docs/rulesets/street-fighter.md#stunning-shout).
    shout_pool: list[Attribute] = Field(default_factory=_wits_and_focus)
    # A block that guards only against some techniques (Punch / Kick Defense); empty = all.
    guards: list[Technique] = Field(default_factory=list)
    # Flame Fist / Toughskin: extra damage dice on the fighter's attacks, or extra soak,
    # while the effect lasts. The rule text gives no numbers; the catalogue's are editable.
    effect_damage: int = Field(0, ge=0, le=10)
    effect_soak: int = Field(0, ge=0, le=10)
    note: str = ""


class StreetFighterSheet(StateModel):
    """The street-fighter fighter sheet (docs/rulesets/street-fighter.md#fighter-sheet)."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    # Attributes
    strength: int = Field(2, ge=0, le=10)
    dexterity: int = Field(2, ge=0, le=10)
    stamina: int = Field(2, ge=0, le=10)
    charisma: int = Field(2, ge=0, le=10)
    manipulation: int = Field(2, ge=0, le=10)
    appearance: int = Field(2, ge=0, le=10)
    perception: int = Field(2, ge=0, le=10)
    intelligence: int = Field(2, ge=0, le=10)
    wits: int = Field(2, ge=0, le=10)
    # Abilities the text uses
    arena: int = Field(0, ge=0, le=10)
    style_lore: int = Field(0, ge=0, le=10)
    insight: int = Field(0, ge=0, le=10)
    intimidation: int = Field(0, ge=0, le=10)
    subterfuge: int = Field(0, ge=0, le=10)
    # Techniques
    punch: int = Field(0, ge=0, le=10)
    kick: int = Field(0, ge=0, le=10)
    block: int = Field(0, ge=0, le=10)
    grab: int = Field(0, ge=0, le=10)
    athletics: int = Field(0, ge=0, le=10)
    focus: int = Field(0, ge=0, le=10)
    # Pools (permanent ratings)
    health: int = Field(10, ge=1, le=30)
    chi: int = Field(0, ge=0, le=20)
    willpower: int = Field(1, ge=0, le=20)
    weenie: bool = False
    maneuvers: list[Maneuver] = Field(default_factory=list)

    def rating(self, name: str) -> int:
        return int(getattr(self, name))


DieState = Literal["ready", "held", "spent", "lost", "converted"]


class ActionDie(StateModel):
    """One action die: its face is its phase (docs/rulesets/street-fighter.md#action-dice)."""

    id: int
    face: int = Field(ge=1, le=10)
    state: DieState = "ready"
    why: str = ""


class ActiveBlock(StateModel):
    """A block that holds: until it has absorbed Block-technique attacks, the fighter
    next acts, or the round ends (docs/rulesets/street-fighter.md#blocks)."""

    move_id: int
    maneuver: str
    absorbed: int = 0
    limit: int = Field(ge=0)
    gives_ep: bool = True
    guards: list[Technique] = Field(default_factory=list)


class SustainedHold(StateModel):
    """A hold the fighter keeps on someone (docs/rulesets/street-fighter.md#sustained-holds)."""

    target_id: str
    maneuver: str
    actions: int = 0
    limit: int = Field(ge=0)


class LastingEffect(StateModel):
    """A maneuver effect that outlasts its action (Teleport, Flame Fist, ...)."""

    name: str
    special: Special
    round: int
    phase: int | None = None
    attacks_left: int | None = None
    damage_bonus: int = 0
    soak_bonus: int = 0


ConcentrationKind = Literal["find-angle", "find-weakness", "power-up"]


class Concentration(StateModel):
    """A concentration declared this round; rolled at the end of the round."""

    kind: ConcentrationKind
    tn: int = Field(ge=2, le=10)
    move_id: int | None = None
    broken: bool = False


class Recovery(StateModel):
    """Regaining chi or willpower over time (docs/rulesets/street-fighter.md#recovery)."""

    pool: Literal["chi", "willpower"]
    full_rounds: int = 0
    # True once the recovery has covered a round from its very start.
    whole_round: bool = False
    did_something: bool = False


class StreetFighterStatus(StateModel):
    """What changes about a street-fighter fighter during a fight."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    health: int = Field(10, ge=0)
    chi: int = Field(0, ge=0)
    willpower: int = Field(1, ge=0)
    ep: int = Field(0, ge=0)
    zen_ep: int = Field(0, ge=0)
    # EP lost to a fight-start intimidation or deception before the fighter had any:
    # taken from the round-1 gain (docs/rulesets/street-fighter.md#fight-start).
    ep_debt: int = Field(0, ge=0)
    dice: list[ActionDie] = Field(default_factory=list)
    conditions: list[Condition] = Field(default_factory=list)
    bought_dice: int = Field(0, ge=0)
    rolled: bool = False
    willpower_ep_used: bool = False
    knocked_down: bool = False
    acted_this_round: bool = False
    block: ActiveBlock | None = None
    holding: SustainedHold | None = None
    concentration: Concentration | None = None
    recovery: Recovery | None = None
    effects: list[LastingEffect] = Field(default_factory=list)


class StreetFighterOptions(StateModel):
    """Per-fight options: the table in docs/rulesets/street-fighter.md#options."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    # 1s do not cancel on damage rolls, do on other rolls, are ignored on recovery rolls
    # (docs/rulesets/street-fighter.md#successes-and-ones).
    ones_cancel_on_damage: bool = Field(
        False, description="Each 1 rolled on a damage roll cancels one success")
    ones_cancel_on_other_rolls: bool = Field(
        True, description="Each 1 cancels one success on concentration, intimidation, "
        "deception, stunning shout and dodge rolls")
    ones_cancel_on_recovery: bool = Field(
        False, description="Each 1 cancels one success on recovery rolls (the text ignores them)")
    # Seconds per round for recovery's time table (docs/rulesets/street-fighter.md#recovery).
    seconds_per_round: int = Field(
        3, ge=1, le=60, description="How long a round lasts, for recovery's time table")
    # Find an Angle's TN by arena, 8 open, 7 unusual, 6 obstacles
    # (docs/rulesets/street-fighter.md#concentration-kinds).
    arena_tn: int = Field(
        8, ge=6, le=8, description="Find an Angle's target number: 8 open arena, "
        "7 unusual environment, 6 obstacle-strewn ground")
    # Breaking free is an opposed Strength roll (docs/rulesets/street-fighter.md#breaking-free).
    break_free_opposed_strength: bool = Field(
        True, description="Breaking free of a sustained hold is an opposed Strength roll")
    # The grab that starts a sustained hold counts as one of its Grab-technique actions
    # (docs/rulesets/street-fighter.md#sustained-holds).
    hold_counts_first_action: bool = Field(
        False, description="The grab that starts a sustained hold counts as one of the "
        "Grab-technique actions it can be kept up")
    # Every fighter knows the catalogue's basic maneuvers besides those on the sheet
    # (docs/rulesets/street-fighter.md#maneuvers).
    basics_for_all: bool = Field(
        True, description="Every fighter knows the catalogue's basic maneuvers besides "
        "those on the sheet")


Stage = Literal["setup", "fight-start", "round-start", "phases", "round-end", "round-over",
                "fight-over"]
Action = Literal["maneuver", "concentrate", "intimidate", "deceive", "break-free",
                 "sustain-hold"]


class Move(StateModel):
    """One declared move on the interrupt stack (an act or an interrupt)."""

    id: int
    fighter_id: str
    action: Action = "maneuver"
    maneuver: Maneuver | None = None
    target_id: str | None = None
    die_id: int
    die_face: int
    held_die: bool = False
    speed_base: int
    ep_speed: int = 0
    interrupts: int | None = None
    cost_ep: int = 0
    zen_paid: int = 0
    ep_paid: int = 0
    ep_damage: int | None = None
    concentration: ConcentrationKind | None = None
    tn: int | None = None
    lost: bool = False
    lost_why: str = ""
    resolved: bool = False
    interrupted: bool = False
    # The fighter as the declaration found them, so that cancelling an interrupt puts them
    # back (None: a stack saved before these were kept; left as it is).
    acted_before: bool | None = None
    recovery_busy_before: bool | None = None
    block_before: ActiveBlock | None = None
    die_why_before: str | None = None

    @property
    def speed(self) -> int:
        return self.speed_base + 2 * self.ep_speed

    @property
    def is_block(self) -> bool:
        return bool(self.maneuver and self.maneuver.block)

    @property
    def open(self) -> bool:
        return not self.resolved and not self.lost


DamageStage = Literal["attacker-ep", "defender-ep", "dodge", "stand"]


class DamageRoll(StateModel):
    """The damage of one move being resolved, between its decisions."""

    move_id: int
    stage: DamageStage
    pool: int
    added: int = 0
    removed: int = 0
    damage: int = 0
    dodges: int = 0
    block_applied: bool = False


# The "-roll" and "-resist" kinds: one side of an opposed roll, asked of a player who
# rolls their own dice (the actor's side, the target's).
TaskKind = Literal["die-going", "stand", "recovery-end", "damage", "concentration-end",
                   "action-dice", "resist-intimidate", "resist-deceive", "intimidate-roll",
                   "deceive-roll", "shout-roll", "shout-resist", "break-free-roll",
                   "break-free-resist", "roll-off"]


class RollOffLeft(StateModel):
    """An acting-order roll-off waiting for a player's die: the tied group being settled,
    as its places so far (a place of several fighters is still tied), the faces already
    rolled for the place being rolled, and the tied groups of the phase still to roll."""

    places: list[list[str]] = Field(default_factory=list)
    faces: dict[str, int] = Field(default_factory=dict)
    # The place being rolled is a re-roll (its group has rolled once already).
    again: bool = False
    later: list[list[str]] = Field(default_factory=list)
    # The place the question is for (its index in ``places``).
    rolling: int = 0
    # Questions asked in this phase's roll-offs so far (keeps each question's id its own).
    asked: int = 0


class Task(StateModel):
    """What the pending decision is about, so its answer can be applied."""

    kind: TaskKind
    fighter_id: str
    die_id: int | None = None
    then: Literal["pass", "end-round", "round-start", "damage", "roll-all"] = "pass"
    # One side of an opposed roll: who acts, their successes once rolled (for the
    # target's side), and the move on the stack it finishes (None for an intimidation
    # or deception before round 1).
    actor_id: str | None = None
    successes: int = 0
    move_id: int | None = None
    # The acting-order roll-off a player's die is asked for.
    roll_off: RollOffLeft | None = None


class StreetFighterRound(StateModel):
    """Round state: where the fight is, the interrupt stack, and what the engine waits for."""

    ruleset: Literal["street-fighter"] = "street-fighter"
    stage: Stage = "setup"
    phase: int | None = None
    # Fighters who already took this pass's action in the current phase.
    passed: list[str] = Field(default_factory=list)
    pass_number: int = 1
    # Roll-off results for acting-order ties in the current phase (lower goes first).
    rolloff: dict[str, int] = Field(default_factory=dict)
    stack: list[Move] = Field(default_factory=list)
    resolving: bool = False
    next_move_id: int = 1
    damage: DamageRoll | None = None
    pending: Decision | None = None
    task: Task | None = None
    # Fight start: fighters who already concentrated, intimidated or deceived.
    opened: list[str] = Field(default_factory=list)
    # End of round: which step runs, and who is done with it.
    end_step: Literal["dice", "concentration", "recovery", "cleanup"] = "dice"
    end_done: list[str] = Field(default_factory=list)
    # Round start: knocked-down fighters standing up.
    standing_done: list[str] = Field(default_factory=list)


# What the session models take from this module (see fightdesk/engine/rulesets/__init__.py).
SHEET = StreetFighterSheet
STATUS = StreetFighterStatus
OPTIONS = StreetFighterOptions
ROUND = StreetFighterRound
