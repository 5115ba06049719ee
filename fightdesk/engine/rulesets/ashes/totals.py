"""Ashes totals and small readers the rules and the views share: skills, the attacking
and defending totals, costs, the next defense's speed (docs/rulesets/ashes.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...changes import RuleViolation
from .model import AshesSkill

if TYPE_CHECKING:
    from ...model import Encounter, Fighter

PARTY = ("pc", "ally")
STANCE_FREE = 3  # docs/rulesets/ashes.md#defensive-stance
DODGE_STEP = 3  # docs/rulesets/ashes.md#dodge: +1 defense per 3 speed (1 or 2 give +0)
OUT_CONDITIONS = ("Stunned", "Unconscious")
RESIST_WORDS = {"body": "resist body", "mind": "resist mind", "none": "nothing"}


def with_skill(skill: str) -> str:
    """How a challenge is made, in the log's words: "with Blaster", or "unskilled" (the
    unskilled penalty, docs/rulesets/ashes.md#offensive-action-without-the-skill)."""
    return "unskilled" if skill == "unskilled" else f"with {skill}"


def status_path(fid: str) -> tuple[str, ...]:
    return ("fighters", fid, "status")


# --- totals --------------------------------------------------------------------------------


def skill_of(fighter: Fighter, name: str | None) -> AshesSkill | None:
    return next((s for s in fighter.sheet.skills if s.name == name), None) if name else None


def offensive_skills(fighter: Fighter) -> list[AshesSkill]:
    """The skills that are used as an offensive action (auxiliaries come with theirs)."""
    return [s for s in fighter.sheet.skills if s.kind == "offensive" and not s.auxiliary_to]


def defensive_skills(fighter: Fighter) -> list[AshesSkill]:
    return [s for s in fighter.sheet.skills if s.kind == "defensive"]


def auxiliaries_of(fighter: Fighter, skill: AshesSkill) -> list[AshesSkill]:
    """docs/rulesets/ashes.md#pumping: auxiliary skills add their rating to the skill."""
    return [s for s in fighter.sheet.skills if s.auxiliary_to == skill.name]


def defending_total(fighter: Fighter, resisted_by: str) -> int:
    """docs/rulesets/ashes.md#challenges: resist body, resist mind or nothing, plus the
    passive defense (defensive skills and dodges come as contributions)."""
    resist = {"body": int(fighter.sheet.resist_body), "mind": int(fighter.sheet.resist_mind)}
    return resist.get(resisted_by, 0) + int(fighter.sheet.passive_defense)


def pump_cost(skill: AshesSkill, levels: int) -> int:
    """docs/rulesets/ashes.md#pumping: each level above the rating doubles the cost."""
    return int(skill.cost) * 2 ** levels


def attacking_total(fighter: Fighter, skill: AshesSkill | None, pump: int, auxiliaries: bool,
                    penalty: int) -> tuple[int, dict[str, int], list[str]]:
    """The attacking total, what it costs by pool, and its parts in words. Raises
    RuleViolation when the rules forbid it (pumping a skill that is not pumpable, or past
    burst)."""
    if skill is None:
        return -penalty, {}, [f"without the skill {-penalty:+d}"]
    if pump and not skill.pumpable:
        raise RuleViolation(f"{skill.name} cannot be pumped")
    cost = pump_cost(skill, pump)
    burst = int(fighter.sheet.burst)
    # docs/rulesets/ashes.md#pumping: burst caps what one use of a skill costs, pumped or not.
    if cost > burst:
        what = f"pumping {skill.name} to {skill.rating + pump}" if pump else f"{skill.name}"
        raise RuleViolation(f"{what} costs {cost}, more than {fighter.name}'s burst {burst}")
    total = int(skill.rating) + pump
    costs: dict[str, int] = {}
    if cost:
        costs[skill.pays_with] = cost
    parts = [f"{skill.name} {total}" + (f" (pumped {pump})" if pump else "")]
    if auxiliaries:
        for aux in auxiliaries_of(fighter, skill):
            if int(aux.cost) > burst:  # each auxiliary skill is a use of its own
                raise RuleViolation(f"{aux.name} costs {aux.cost}, more than {fighter.name}'s "
                                    f"burst {burst}")
            total += int(aux.rating)
            if aux.cost:
                costs[aux.pays_with] = costs.get(aux.pays_with, 0) + int(aux.cost)
            parts.append(f"{aux.name} {aux.rating}")
    return total, costs, parts


def pool_now(fighter: Fighter, pool: str) -> int:
    if pool == "force":
        return int(fighter.status.force)
    return int(fighter.status.physical.get(pool, fighter.sheet.physical.get(pool, 0)))


def cost_words(costs: dict[str, int]) -> str:
    return ", ".join(f"{n} {pool.title()}" for pool, n in costs.items()) or "free"


def defense_use_cost(fighter: Fighter) -> int:
    """docs/rulesets/ashes.md#defensive-skills: the next defensive use's speed: the first
    in a round is free, each further one costs one more (0, 1, 2...); the stance's free
    uses cost nothing, and the count keeps running through them."""
    st = fighter.status
    if st.free_defenses > 0:
        return 0
    return int(st.defenses)


def foes_of(enc: Encounter, fighter: Fighter) -> list[str]:
    mine = fighter.side in PARTY
    return [fid for fid in enc.order if (enc.fighters[fid].side in PARTY) != mine]


def parse_parts(text: str) -> list[tuple[str, int]]:
    """'grip 1, break grip 1' -> [('grip', 1), ('break grip', 1)]; a bare number is a part
    named 'difficulty'."""
    parts: list[tuple[str, int]] = []
    for chunk in text.replace("+", ",").split(","):
        words = chunk.split()
        if not words:
            continue
        try:
            value = int(words[-1])
        except ValueError:
            raise RuleViolation(f"difficulty part {chunk.strip()!r} does not end in a number") from None
        parts.append((" ".join(words[:-1]) or "difficulty", value))
    if not parts:
        raise RuleViolation("give the difficulty (at least one part, e.g. 'grip 1')")
    return parts


def is_out_of_fight(fighter: Fighter) -> bool:
    """docs/rulesets/ashes.md#hit-points: 0 HP or less, a physical stat at 0, stunned
    or unconscious."""
    st = fighter.status
    if int(st.hp) <= 0:
        return True
    if any(int(v) <= 0 for v in {**fighter.sheet.physical, **st.physical}.values()):
        return True
    return any(cond.name in OUT_CONDITIONS for cond in st.conditions)
