"""Exact odds for the four rulesets, as ``fractions.Fraction``: every ruleset shows the
chance of a roll before it is made (docs/rulesets/README.md#what-every-ruleset-gives-the-gm).

Hand coded on purpose, not built on ``icepool``: every distribution the rules need is a
small closed form (a d10 is success / one / blank, a coin is heads / tails, a d100 contest
is a count of face pairs), so about two hundred lines of integer arithmetic give the exact
fractions directly, with no dependency to install and nothing to import at start-up. The
tests check every result against a brute-force enumeration of all faces, not against this
code. docs/odds.md says more.

Counts are kept as integers over a power of the die size and turned into reduced
fractions at the end; results are cached, and callers get fresh dicts they may change.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

__all__ = [
    "DAMAGE_CHART",
    "ChallengeOdds",
    "CounterstrikeOdds",
    "StrikeOdds",
    "at_least",
    "challenge_criticals",
    "challenge_odds",
    "challenge_success",
    "chart_multiplier",
    "clamp_tn",
    "d20_at_or_under",
    "d100_beats",
    "d100_beats_one_and_a_half",
    "d100_beats_total",
    "d100_counterstrike",
    "d100_damage",
    "d100_defense_beats",
    "d100_hit_damage",
    "d100_strike_hits",
    "d100_strike_odds",
    "damage_after_dodges",
    "one_and_a_half",
    "opposed_successes",
    "pool_successes",
]

ZERO = Fraction(0)
ONE = Fraction(1)

# --- street-fighter: pools of d10 against a target number ------------------------------

TN_MIN = 2
TN_MAX = 10  # never above 10: docs/rulesets/street-fighter.md#target-numbers


def clamp_tn(tn: int) -> int:
    """The target number actually rolled against: at most 10, at least 2 (a 1 is never
    a success, so it can still cancel one)."""
    return max(TN_MIN, min(TN_MAX, tn))


@lru_cache(maxsize=512)
def _pool_counts(dice: int, tn: int, ones_cancel: bool) -> tuple[int, ...]:
    """Out of 10**dice equally likely face lists, how many give 0, 1, ... dice net
    successes. A die is a success (``11 - tn`` faces), a one (cancels, if ``ones_cancel``)
    or a blank; the net is floored at 0 over the whole roll, not die by die."""
    hit_faces = 11 - tn
    one_faces = 1 if ones_cancel else 0
    blank_faces = 10 - hit_faces - one_faces
    counts = [0] * (dice + 1)
    fact = [factorial(i) for i in range(dice + 1)]
    for hits in range(dice + 1):
        for ones in range(dice - hits + 1 if ones_cancel else 1):
            blanks = dice - hits - ones
            ways = fact[dice] // (fact[hits] * fact[ones] * fact[blanks])
            counts[max(0, hits - ones)] += (
                ways * hit_faces**hits * one_faces**ones * blank_faces**blanks
            )
    return tuple(counts)


def pool_successes(dice: int, tn: int, *, ones_cancel: bool) -> dict[int, Fraction]:
    """Net successes of ``dice`` d10 at target number ``tn``: {0: p0, 1: p1, ..., dice: pn}.

    A face >= tn is a success; with ``ones_cancel`` each 1 takes away one success, and a
    net below 0 counts as 0 (docs/rulesets/street-fighter.md#successes-and-ones). ``tn``
    is clamped to 2..10; 0 dice give {0: 1}."""
    if dice < 0:
        raise ValueError(f"a pool cannot have {dice} dice")
    counts = _pool_counts(dice, clamp_tn(tn), ones_cancel)
    total = 10**dice
    return {k: Fraction(n, total) for k, n in enumerate(counts)}


def at_least(dist: dict[int, Fraction], k: int) -> Fraction:
    """Chance of a result of ``k`` or more in the distribution ``dist``."""
    return sum((p for value, p in dist.items() if value >= k), ZERO)


def _convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        if not px:
            continue
        for y, py in b.items():
            if py:
                out[x + y] = out.get(x + y, ZERO) + px * py
    return out


@lru_cache(maxsize=256)
def _dodged_points(dodges: int, tn: int, ones_cancel: bool) -> tuple[tuple[int, Fraction], ...]:
    """Points removed by ``dodges`` separate 2-dice dodge rolls (each floored at 0)."""
    one_dodge = pool_successes(2, tn, ones_cancel=ones_cancel)
    total: dict[int, Fraction] = {0: ONE}
    for _ in range(dodges):
        total = _convolve(total, one_dodge)
    return tuple(sorted(total.items()))


def damage_after_dodges(
    damage: dict[int, Fraction], dodges: int, *, tn: int = 6, ones_cancel: bool
) -> dict[int, Fraction]:
    """Damage left after ``dodges`` Edge Point dodges: each dodge is its own roll of 2 d10
    at ``tn``, each net success removes one point, never below 0
    (docs/rulesets/street-fighter.md#dodges). Keys run 0..max."""
    if dodges < 0:
        raise ValueError(f"cannot buy {dodges} dodges")
    removed = _dodged_points(dodges, clamp_tn(tn), ones_cancel)
    top = max(damage, default=0)
    out = dict.fromkeys(range(top + 1), ZERO)
    for points, p in damage.items():
        if points < 0:
            raise ValueError(f"damage cannot be {points}")
        for taken, q in removed:
            out[max(0, points - taken)] += p * q
    return out


@lru_cache(maxsize=512)
def _opposed(
    dice: int, against: int, tn: int, against_tn: int, ones_cancel: bool
) -> tuple[Fraction, ...]:
    mine = pool_successes(dice, tn, ones_cancel=ones_cancel)
    theirs = pool_successes(against, against_tn, ones_cancel=ones_cancel)
    out = [ZERO] * (dice + 1)
    for x, px in mine.items():
        for y, py in theirs.items():
            out[max(0, x - y)] += px * py
    return tuple(out)


def opposed_successes(
    dice: int,
    against: int,
    *,
    tn: int = 6,
    against_tn: int | None = None,
    ones_cancel: bool,
) -> dict[int, Fraction]:
    """Net successes of an opposed roll (intimidation, deception, stunning shout, breaking
    a hold): both sides roll their pools, at ``tn`` and ``against_tn`` (default the same;
    concentration or recovery can raise one side's), each side's 1s cancel its own
    successes if ``ones_cancel``, and the roller keeps what is left above the other side
    (docs/rulesets/street-fighter.md#intimidation-and-deception). Keys run 0..dice."""
    if dice < 0 or against < 0:
        raise ValueError("a pool cannot have fewer than 0 dice")
    other_tn = tn if against_tn is None else against_tn
    return dict(enumerate(_opposed(dice, against, clamp_tn(tn), clamp_tn(other_tn), ones_cancel)))


# --- d100: strike against parry, dodge, entangle or counterstrike -----------------------

D100 = 100
FUMBLE_TOP = 10  # a natural 01-10 strike fails: docs/odds.md#d100-strike-and-defense


def one_and_a_half(total: int) -> int:
    """"1.5 x a roll" is roll + floor(roll / 2) (docs/odds.md#d100-counterstrike)."""
    return total + total // 2


def _naturals_in(low: int, high: int) -> int:
    """How many natural d100 faces lie in low..high."""
    return max(0, min(high, D100) - max(low, 1) + 1)


@dataclass(frozen=True)
class StrikeOdds:
    """A strike against one defense roll: the three ways it can end (they sum to 1)."""

    hit: Fraction
    defended: Fraction
    fumbled: Fraction


@lru_cache(maxsize=1024)
def d100_strike_odds(strike_bonus: int, defense_bonus: int) -> StrikeOdds:
    """Strike total against a parry, dodge or entangle total: a natural 01-10 strike fails
    with no defense roll; otherwise the defense succeeds only if its total strictly beats
    the strike total, ties to the attacker (docs/odds.md#d100-strike-and-defense)."""
    hits = defended = 0
    for natural in range(FUMBLE_TOP + 1, D100 + 1):
        strike = natural + strike_bonus
        # The defense needs natural + defense_bonus > strike.
        wins = _naturals_in(strike - defense_bonus + 1, D100)
        defended += wins
        hits += D100 - wins
    square = D100 * D100
    return StrikeOdds(
        hit=Fraction(hits, square),
        defended=Fraction(defended, square),
        fumbled=Fraction(FUMBLE_TOP, D100),
    )


def d100_defense_beats(strike_bonus: int, defense_bonus: int) -> Fraction:
    """Chance the defense is rolled and its total strictly beats the strike total (never
    on a natural 01-10 strike, which fails before any defense is rolled)."""
    return d100_strike_odds(strike_bonus, defense_bonus).defended


def d100_strike_hits(strike_bonus: int, defense_bonus: int) -> Fraction:
    """Chance the strike hits against a parry, dodge or entangle with ``defense_bonus``."""
    return d100_strike_odds(strike_bonus, defense_bonus).hit


@dataclass(frozen=True)
class CounterstrikeOdds:
    """A strike met by a counterstrike: who connects (the four sum to 1)."""

    only_attack: Fraction
    both: Fraction
    only_counter: Fraction
    neither: Fraction


@lru_cache(maxsize=1024)
def d100_counterstrike(strike_bonus: int, counter_bonus: int) -> CounterstrikeOdds:
    """docs/odds.md#d100-counterstrike: counter total <= strike total: only the attack
    hits; above it but below 1.5 x the strike total: both hit; at or above 1.5 x: only the
    counter hits. A natural 01-10 strike never hits, and the counter then hits if its total
    beats the strike total. A natural 01-10 counter fails outright: it does no damage and
    stops nothing, so the attack hits unless it fumbled too (our reading, docs/odds.md)."""
    only_attack = both = only_counter = neither = 0
    good_counters = D100 - FUMBLE_TOP  # counters whose natural roll is 11..100
    for natural in range(1, D100 + 1):
        strike = natural + strike_bonus
        above = strike - counter_bonus + 1  # lowest natural counter whose total beats it
        if natural <= FUMBLE_TOP:
            wins = _naturals_in(max(above, FUMBLE_TOP + 1), D100)
            only_counter += wins
            neither += D100 - wins
            continue
        # Counters that fumble (natural 01-10) leave the attack alone.
        only_attack += FUMBLE_TOP
        # Natural counters 11..100 split by total: <= strike, between, >= 1.5 x strike.
        decisive = max(above, one_and_a_half(strike) - counter_bonus)
        counter_only = _naturals_in(max(decisive, FUMBLE_TOP + 1), D100)
        both_hit = _naturals_in(max(above, FUMBLE_TOP + 1), decisive - 1)
        only_counter += counter_only
        both += both_hit
        only_attack += good_counters - counter_only - both_hit
    square = D100 * D100
    return CounterstrikeOdds(
        only_attack=Fraction(only_attack, square),
        both=Fraction(both, square),
        only_counter=Fraction(only_counter, square),
        neither=Fraction(neither, square),
    )


# docs/rulesets/d100.md#damage-chart: (lowest natural roll, highest, multiplier).
DamageChart = tuple[tuple[int, int, Fraction], ...]
DAMAGE_CHART: DamageChart = (
    (1, 10, Fraction(0)), (11, 25, Fraction(1, 2)), (26, 75, Fraction(1)),
    (76, 90, Fraction(3, 2)), (91, 100, Fraction(2)))


def chart_multiplier(chart: DamageChart, natural: int) -> Fraction:
    """The chart's multiplier for a natural strike roll (x1 where the chart has no row)."""
    for low, high, times in chart:
        if low <= natural <= high:
            return times
    return Fraction(1)


def d100_hit_damage(weapon_damage: int, natural: int, *, toughness: int = 0,
                    armour: tuple[int, int] | None = None,
                    chart: DamageChart = DAMAGE_CHART) -> tuple[int, bool]:
    """What one hit does: (damage, whether the armour takes it). The weapon's damage
    times the chart's multiplier for the natural roll, rounded down; a natural roll
    inside the armour's range hits the armour, else Toughness comes off; never below 0
    (docs/rulesets/d100.md#damage)."""
    amount = int(weapon_damage * chart_multiplier(chart, natural)) if weapon_damage >= 0 else 0
    amount = max(0, amount)
    if armour is not None and armour[0] <= natural <= armour[1]:
        return amount, True
    return max(0, amount - toughness), False


@lru_cache(maxsize=1024)
def d100_damage(strike_bonus: int, defense_bonus: int, weapon_damage: int, *,
                toughness: int = 0, armour: tuple[int, int] | None = None,
                chart: DamageChart = DAMAGE_CHART) -> dict[int, Fraction]:
    """The exact chance the defender loses each amount of health to one strike met by a
    parry, dodge or entangle: 0 on a natural 01-10, on a successful defense and on a hit
    inside the armour's range (docs/odds.md#d100-strike-and-defense and
    docs/rulesets/d100.md#damage)."""
    counts: dict[int, int] = {}
    for natural in range(1, D100 + 1):
        if natural <= FUMBLE_TOP:
            counts[0] = counts.get(0, 0) + D100
            continue
        strike = natural + strike_bonus
        defended = _naturals_in(strike - defense_bonus + 1, D100)
        counts[0] = counts.get(0, 0) + defended
        lost, on_armour = d100_hit_damage(weapon_damage, natural, toughness=toughness,
                                          armour=armour, chart=chart)
        lost = 0 if on_armour else lost
        counts[lost] = counts.get(lost, 0) + D100 - defended
    square = D100 * D100
    return {amount: Fraction(n, square) for amount, n in sorted(counts.items()) if n}


def d100_beats_total(bonus: int, total: int) -> Fraction:
    """Chance 1d100 + ``bonus`` strictly beats a known total (a defense roll once the
    strike is made)."""
    return Fraction(_naturals_in(total - bonus + 1, D100), D100)


@lru_cache(maxsize=1024)
def d100_beats(bonus: int, other_bonus: int) -> Fraction:
    """Chance 1d100 + ``bonus`` strictly beats 1d100 + ``other_bonus`` (breaking free of an
    entangle: "ties hold"). No natural 01-10 rule: these are not strikes."""
    wins = sum(_naturals_in(other + other_bonus - bonus + 1, D100) for other in range(1, D100 + 1))
    return Fraction(wins, D100 * D100)


@lru_cache(maxsize=1024)
def d100_beats_one_and_a_half(bonus: int, other_bonus: int) -> Fraction:
    """Chance 1d100 + ``bonus`` exceeds 1.5 x (1d100 + ``other_bonus``): the entangler's
    disarm (docs/odds.md#d100-entangle-and-disarm)."""
    wins = sum(
        _naturals_in(one_and_a_half(other + other_bonus) - bonus + 1, D100)
        for other in range(1, D100 + 1)
    )
    return Fraction(wins, D100 * D100)


# --- roll-under: d20 at or under a target -----------------------------------------------


def d20_at_or_under(target: int) -> Fraction:
    """Chance a d20 shows ``target`` or less; no automatic 1 or 20 (docs/odds.md#roll-under-d20),
    so a target of 0 or less never succeeds and 20 or more always does."""
    return Fraction(max(0, min(20, target)), 20)


# --- ashes: coin challenges ---------------------------------------------------------------

AUTOMATIC_BEYOND = 6  # the text's table: "<-6 0" and "+6 1" past the last row


def _coins_at_least(coins: int, k: int) -> Fraction:
    """Chance that at least ``k`` of ``coins`` fair coins land one given way."""
    return Fraction(sum(comb(coins, j) for j in range(max(0, k), coins + 1)), 2**coins)


@lru_cache(maxsize=256)
def challenge_success(advantage: int, *, automatic_beyond_six: bool = True) -> Fraction:
    """Chance the attacker wins a challenge with ``advantage`` = attacking total - defending
    total (docs/odds.md#ashes-challenge): 5 + |a| coins, the advantaged side (the attacker
    when a >= 0) wins with 3 or more in its favour. With the option on (the default), beyond +6 the
    attacker always wins and below -6 always loses. Reproduces the text's table."""
    if automatic_beyond_six and advantage > AUTOMATIC_BEYOND:
        return ONE
    if automatic_beyond_six and advantage < -AUTOMATIC_BEYOND:
        return ZERO
    advantaged_wins = _coins_at_least(5 + abs(advantage), 3)
    return advantaged_wins if advantage >= 0 else ONE - advantaged_wins


@lru_cache(maxsize=256)
def challenge_criticals(advantage: int) -> tuple[Fraction, Fraction]:
    """(attacker's critical, defender's critical) of a challenge: 7 + |a| coins in all, 7
    or more in the advantaged side's favour is its critical, all of them against it the
    other side's (docs/odds.md#ashes-criticals; 1/128 each at +0)."""
    coins = 7 + abs(advantage)
    advantaged = _coins_at_least(coins, 7)
    other = Fraction(1, 2**coins)
    return (advantaged, other) if advantage >= 0 else (other, advantaged)


@dataclass(frozen=True)
class ChallengeOdds:
    """What the challenge dialog shows before the coins are flipped."""

    advantage: int
    success: Fraction
    attacker_critical: Fraction
    defender_critical: Fraction

    @property
    def failure(self) -> Fraction:
        return ONE - self.success


def challenge_odds(advantage: int, *, automatic_beyond_six: bool = True) -> ChallengeOdds:
    """Success and both criticals. With the automatic rule on, beyond +/-6 only the side
    the outcome favours can score a critical (docs/odds.md#ashes-criticals): a defender's
    critical at +7 would contradict the automatic success."""
    attacker_critical, defender_critical = challenge_criticals(advantage)
    if automatic_beyond_six and advantage > AUTOMATIC_BEYOND:
        defender_critical = ZERO
    if automatic_beyond_six and advantage < -AUTOMATIC_BEYOND:
        attacker_critical = ZERO
    return ChallengeOdds(
        advantage=advantage,
        success=challenge_success(advantage, automatic_beyond_six=automatic_beyond_six),
        attacker_critical=attacker_critical,
        defender_critical=defender_critical,
    )
