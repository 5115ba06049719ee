"""Exact odds: every figure is checked against a brute-force count over all faces (or all
coin sequences), written here straight from the rules in docs/odds.md (the rules the odds
follow), never against odds.py itself."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fightdesk.engine import odds

D10 = range(1, 11)
F = Fraction


# --- brute force, straight from the rulings -----------------------------------------------


def net_successes(faces: Iterable[int], tn: int, ones_cancel: bool) -> int:
    """docs/rulesets/street-fighter.md#successes-and-ones: a face at or above the TN is a
    success; with ones cancelling each 1 takes one away; the roll never goes below 0."""
    faces = list(faces)
    hits = sum(1 for f in faces if f >= tn)
    ones = sum(1 for f in faces if f == 1) if ones_cancel else 0
    return max(0, hits - ones)


def enumerate_pool(dice: int, tn: int, ones_cancel: bool) -> dict[int, Fraction]:
    counts = Counter(
        net_successes(faces, tn, ones_cancel) for faces in itertools.product(D10, repeat=dice)
    )
    total = 10**dice
    return {k: F(counts.get(k, 0), total) for k in range(dice + 1)}


def enumerate_outcomes(dice: int, judge: Callable[[tuple[int, ...]], int]) -> Counter[int]:
    return Counter(judge(faces) for faces in itertools.product(D10, repeat=dice))


# --- street-fighter pools -------------------------------------------------------------------


def test_issue_example_two_dice_tn_six() -> None:
    dist = odds.pool_successes(2, 6, ones_cancel=False)
    assert dist == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    assert odds.at_least(dist, 1) == F(3, 4)


def test_two_dice_with_ones_cancelling_by_hand() -> None:
    # Faces 6-10 succeed (1/2), a 1 cancels (1/10), 2-5 are blanks (2/5).
    # Two successes: 1/4. One: success and blank either way round, 2 * 1/2 * 2/5 = 2/5.
    dist = odds.pool_successes(2, 6, ones_cancel=True)
    assert dist == {0: F(7, 20), 1: F(2, 5), 2: F(1, 4)}


def test_net_below_zero_counts_under_zero_not_per_die() -> None:
    # [1, 1, 10] is 1 success and 2 ones: net 0. [10, 1] is net 0, [10, 10, 1] net 1.
    dist = odds.pool_successes(3, 10, ones_cancel=True)
    # Exactly one net success: (10, blank, blank) in 3 orders * 8 * 8 = 192,
    # plus (10, 10, 1) in 3 orders = 3 -> 195 of 1000.
    assert dist[1] == F(195, 1000)
    assert dist[3] == F(1, 1000)


@pytest.mark.parametrize("ones_cancel", [False, True])
@pytest.mark.parametrize("tn", range(2, 11))
@pytest.mark.parametrize("dice", range(0, 5))
def test_pool_matches_enumeration(dice: int, tn: int, ones_cancel: bool) -> None:
    assert odds.pool_successes(dice, tn, ones_cancel=ones_cancel) == enumerate_pool(
        dice, tn, ones_cancel
    )


@pytest.mark.parametrize(("tn", "ones_cancel"), [(6, False), (6, True), (8, True), (4, False)])
def test_five_dice_match_enumeration(tn: int, ones_cancel: bool) -> None:
    assert odds.pool_successes(5, tn, ones_cancel=ones_cancel) == enumerate_pool(5, tn, ones_cancel)


def test_zero_dice_and_every_key_present() -> None:
    assert odds.pool_successes(0, 6, ones_cancel=True) == {0: F(1)}
    dist = odds.pool_successes(4, 10, ones_cancel=True)
    assert list(dist) == [0, 1, 2, 3, 4]


def test_target_number_is_clamped_to_two_through_ten() -> None:
    # docs/rulesets/street-fighter.md#target-numbers: never above 10; concentration's +2 on
    # TN 9 is 10.
    assert odds.pool_successes(3, 12, ones_cancel=True) == odds.pool_successes(
        3, 10, ones_cancel=True
    )
    assert odds.pool_successes(3, 0, ones_cancel=False) == odds.pool_successes(
        3, 2, ones_cancel=False
    )
    # At TN 2 a 1 is still no success: one die succeeds 9 times in 10.
    assert odds.pool_successes(1, -5, ones_cancel=False) == {0: F(1, 10), 1: F(9, 10)}


def test_negative_dice_are_refused() -> None:
    with pytest.raises(ValueError, match="-1 dice"):
        odds.pool_successes(-1, 6, ones_cancel=False)


def test_returned_dicts_are_the_callers_own() -> None:
    dist = odds.pool_successes(2, 6, ones_cancel=False)
    dist[0] = F(99)
    assert odds.pool_successes(2, 6, ones_cancel=False)[0] == F(1, 4)


def test_at_least() -> None:
    dist = {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    assert odds.at_least(dist, 0) == 1
    assert odds.at_least(dist, -3) == 1
    assert odds.at_least(dist, 2) == F(1, 4)
    assert odds.at_least(dist, 3) == 0


# --- damage and EP dodges -------------------------------------------------------------------


def test_one_dodge_against_a_one_die_hit_by_hand() -> None:
    # One damage die at TN 6 (1s ignored on damage): 1 point half the time.
    damage = odds.pool_successes(1, 6, ones_cancel=False)
    # The dodge (2 dice, TN 6, 1s cancel) removes the point with at least one net success:
    # 1 - 7/20 = 13/20. Damage left: 1/2 * 7/20 = 7/40.
    after = odds.damage_after_dodges(damage, 1, ones_cancel=True)
    assert after == {0: F(33, 40), 1: F(7, 40)}


@pytest.mark.parametrize(
    ("damage_dice", "dodges", "tn", "ones_cancel"),
    [(2, 1, 6, True), (2, 1, 6, False), (1, 2, 6, True), (1, 2, 8, True), (3, 1, 7, True)],
)
def test_dodges_match_enumeration(
    damage_dice: int, dodges: int, tn: int, ones_cancel: bool
) -> None:
    """Every face of the damage roll (TN 6, 1s ignored) and of each 2-dice dodge."""

    def left(faces: tuple[int, ...]) -> int:
        points = net_successes(faces[:damage_dice], 6, False)
        rest = faces[damage_dice:]
        # Each dodge is its own roll: its net is floored at 0 before it removes points.
        removed = sum(
            net_successes(rest[i : i + 2], tn, ones_cancel) for i in range(0, len(rest), 2)
        )
        return max(0, points - removed)

    dice = damage_dice + 2 * dodges
    counts = enumerate_outcomes(dice, left)
    expected = {k: F(counts.get(k, 0), 10**dice) for k in range(damage_dice + 1)}
    damage = odds.pool_successes(damage_dice, 6, ones_cancel=False)
    assert odds.damage_after_dodges(damage, dodges, tn=tn, ones_cancel=ones_cancel) == expected


def test_no_dodges_change_nothing_and_keys_are_filled() -> None:
    damage = {3: F(1)}
    assert odds.damage_after_dodges(damage, 0, ones_cancel=True) == {
        0: F(0),
        1: F(0),
        2: F(0),
        3: F(1),
    }
    with pytest.raises(ValueError):
        odds.damage_after_dodges(damage, -1, ones_cancel=True)


@pytest.mark.parametrize(
    ("mine", "theirs", "tn", "their_tn", "ones_cancel"),
    [
        (2, 2, 6, 6, True),
        (3, 2, 6, 6, True),
        (1, 3, 6, 6, True),
        (2, 0, 6, 6, True),
        (2, 2, 8, 6, True),
        (3, 1, 6, 10, False),
    ],
)
def test_opposed_matches_enumeration(
    mine: int, theirs: int, tn: int, their_tn: int, ones_cancel: bool
) -> None:
    def net(faces: tuple[int, ...]) -> int:
        mine_net = net_successes(faces[:mine], tn, ones_cancel)
        return max(0, mine_net - net_successes(faces[mine:], their_tn, ones_cancel))

    counts = enumerate_outcomes(mine + theirs, net)
    expected = {k: F(counts.get(k, 0), 10 ** (mine + theirs)) for k in range(mine + 1)}
    got = odds.opposed_successes(mine, theirs, tn=tn, against_tn=their_tn, ones_cancel=ones_cancel)
    assert got == expected
    if tn == their_tn:
        assert odds.opposed_successes(mine, theirs, tn=tn, ones_cancel=ones_cancel) == expected


def test_opposed_one_die_each_by_hand() -> None:
    # One die each at TN 6, 1s cancelling: each side nets 1 half the time. The roller
    # keeps a success only when the other side nets 0: 1/2 * 1/2 = 1/4.
    assert odds.opposed_successes(1, 1, ones_cancel=True) == {0: F(3, 4), 1: F(1, 4)}


# --- properties -----------------------------------------------------------------------------

pools = st.integers(min_value=0, max_value=25)
tns = st.integers(min_value=-3, max_value=14)


@given(dice=pools, tn=tns, ones_cancel=st.booleans())
def test_pool_is_a_distribution(dice: int, tn: int, ones_cancel: bool) -> None:
    dist = odds.pool_successes(dice, tn, ones_cancel=ones_cancel)
    assert sorted(dist) == list(range(dice + 1))
    assert sum(dist.values()) == 1
    assert all(p >= 0 for p in dist.values())


@given(
    dice=pools,
    tn=st.integers(min_value=2, max_value=9),
    k=st.integers(0, 25),
    ones_cancel=st.booleans(),
)
def test_higher_tn_never_helps(dice: int, tn: int, k: int, ones_cancel: bool) -> None:
    easier = odds.pool_successes(dice, tn, ones_cancel=ones_cancel)
    harder = odds.pool_successes(dice, tn + 1, ones_cancel=ones_cancel)
    assert odds.at_least(harder, k) <= odds.at_least(easier, k)


@given(dice=pools, tn=tns, k=st.integers(0, 25))
def test_ones_cancelling_never_helps_and_more_dice_do(dice: int, tn: int, k: int) -> None:
    plain = odds.pool_successes(dice, tn, ones_cancel=False)
    cancel = odds.pool_successes(dice, tn, ones_cancel=True)
    assert odds.at_least(cancel, k) <= odds.at_least(plain, k)
    bigger = odds.pool_successes(dice + 1, tn, ones_cancel=False)
    assert odds.at_least(bigger, k) >= odds.at_least(plain, k)


@given(
    dice=st.integers(0, 8),
    dodges=st.integers(0, 4),
    tn=tns,
    ones_cancel=st.booleans(),
    k=st.integers(1, 8),
)
def test_dodges_only_take_damage_away(
    dice: int, dodges: int, tn: int, ones_cancel: bool, k: int
) -> None:
    damage = odds.pool_successes(dice, 6, ones_cancel=False)
    after = odds.damage_after_dodges(damage, dodges, tn=tn, ones_cancel=ones_cancel)
    more = odds.damage_after_dodges(damage, dodges + 1, tn=tn, ones_cancel=ones_cancel)
    assert sum(after.values()) == 1 and sorted(after) == list(range(dice + 1))
    assert odds.at_least(after, k) <= odds.at_least(damage, k)
    assert odds.at_least(more, k) <= odds.at_least(after, k)


@given(mine=st.integers(0, 8), theirs=st.integers(0, 8), ones_cancel=st.booleans())
def test_opposed_is_a_distribution(mine: int, theirs: int, ones_cancel: bool) -> None:
    dist = odds.opposed_successes(mine, theirs, ones_cancel=ones_cancel)
    assert sum(dist.values()) == 1 and sorted(dist) == list(range(mine + 1))


# --- d100 -----------------------------------------------------------------------------------


def strike_outcome(strike: int, defense: int, sb: int, db: int) -> str:
    """docs/odds.md#d100-strike-and-defense: natural 01-10 fails with no defense roll; the
    defense must strictly beat the strike total; ties to the attacker."""
    if strike <= 10:
        return "fumbled"
    return "defended" if defense + db > strike + sb else "hit"


def counter_outcome(strike: int, counter: int, sb: int, cb: int) -> str:
    s_total, c_total = strike + sb, counter + cb
    one_and_half = s_total + s_total // 2  # docs/odds.md#d100-counterstrike
    if strike <= 10:  # the attack never hits; the counter hits if it beats the total
        return "only_counter" if c_total > s_total and counter > 10 else "neither"
    if counter <= 10:  # a fumbled counter does nothing (docs/odds.md)
        return "only_attack"
    if c_total <= s_total:
        return "only_attack"
    if c_total < one_and_half:
        return "both"
    return "only_counter"


BONUS_PAIRS = [(0, 0), (20, 0), (0, 30), (-20, 15), (45, -10), (-95, 0), (0, 150), (200, 0)]


@pytest.mark.parametrize(("sb", "db"), BONUS_PAIRS)
def test_strike_odds_match_enumeration(sb: int, db: int) -> None:
    counts = Counter(strike_outcome(s, d, sb, db) for s in range(1, 101) for d in range(1, 101))
    got = odds.d100_strike_odds(sb, db)
    assert got.hit == F(counts["hit"], 10_000)
    assert got.defended == F(counts["defended"], 10_000)
    assert got.fumbled == F(counts["fumbled"], 10_000) == F(1, 10)
    assert odds.d100_strike_hits(sb, db) == got.hit
    assert odds.d100_defense_beats(sb, db) == got.defended


def test_even_strike_by_hand() -> None:
    # Equal bonuses, strike natural s >= 11: the defense beats it on 100 - s faces.
    # Sum over s = 11..100 of (100 - s) = 89 * 90 / 2 = 4005 of 10000.
    assert odds.d100_defense_beats(0, 0) == F(4005, 10_000)
    assert odds.d100_strike_hits(0, 0) == F(9000 - 4005, 10_000)


@pytest.mark.parametrize(("sb", "cb"), [*BONUS_PAIRS, (0, 60), (-30, 40), (10, 95)])
def test_counterstrike_matches_enumeration(sb: int, cb: int) -> None:
    counts = Counter(counter_outcome(s, c, sb, cb) for s in range(1, 101) for c in range(1, 101))
    got = odds.d100_counterstrike(sb, cb)
    for name in ("only_attack", "both", "only_counter", "neither"):
        assert getattr(got, name) == F(counts[name], 10_000), name
    assert got.only_attack + got.both + got.only_counter + got.neither == 1


def test_one_and_a_half_rounds_down() -> None:
    assert odds.one_and_a_half(41) == 61
    assert odds.one_and_a_half(40) == 60
    assert odds.one_and_a_half(-9) == -14


@pytest.mark.parametrize(("b", "ob"), [(0, 0), (15, 0), (0, 40), (-20, -5)])
def test_entangle_contests_match_enumeration(b: int, ob: int) -> None:
    pairs = [(x, y) for x in range(1, 101) for y in range(1, 101)]
    beats = sum(1 for x, y in pairs if x + b > y + ob)
    disarms = sum(1 for x, y in pairs if x + b > (y + ob) + (y + ob) // 2)
    assert odds.d100_beats(b, ob) == F(beats, 10_000)
    assert odds.d100_beats_one_and_a_half(b, ob) == F(disarms, 10_000)


@given(sb=st.integers(-150, 150), db=st.integers(-150, 150))
def test_strike_odds_properties(sb: int, db: int) -> None:
    got = odds.d100_strike_odds(sb, db)
    assert got.hit + got.defended + got.fumbled == 1
    assert odds.d100_strike_hits(sb + 1, db) >= got.hit
    assert odds.d100_strike_hits(sb, db + 1) <= got.hit
    counter = odds.d100_counterstrike(sb, db)
    assert counter.only_attack + counter.both + counter.only_counter + counter.neither == 1
    assert min(counter.only_attack, counter.both, counter.only_counter, counter.neither) >= 0


# --- roll-under -----------------------------------------------------------------------------


@pytest.mark.parametrize("target", range(-3, 25))
def test_d20_matches_enumeration(target: int) -> None:
    assert odds.d20_at_or_under(target) == F(sum(1 for f in range(1, 21) if f <= target), 20)


def test_d20_rulings_examples() -> None:
    # docs/odds.md#roll-under-d20: Attack 15 against Defense 12 succeeds on 13 or less.
    assert odds.d20_at_or_under(15 - (12 - 10)) == F(13, 20)
    # Defense 14 against Attack 12 succeeds on 12 or less.
    assert odds.d20_at_or_under(14 - (12 - 10)) == F(3, 5)


# --- ashes ----------------------------------------------------------------------------------

# The text's "Probabilities of Success" table (seed 003), as printed.
TEXT_TABLE = {
    -6: F(67, 2048),
    -5: F(56, 1024),
    -4: F(46, 512),
    -3: F(37, 256),
    -2: F(29, 128),
    -1: F(22, 64),
    0: F(16, 32),
    1: F(42, 64),
    2: F(99, 128),
    3: F(219, 256),
    4: F(466, 512),
    5: F(968, 1024),
    6: F(1981, 2048),
}


@pytest.mark.parametrize(("advantage", "chance"), TEXT_TABLE.items())
def test_challenge_reproduces_the_text_table(advantage: int, chance: Fraction) -> None:
    assert odds.challenge_success(advantage) == chance


def test_beyond_six_is_automatic_by_option() -> None:
    assert odds.challenge_success(7) == 1 and odds.challenge_success(12) == 1
    assert odds.challenge_success(-7) == 0
    # With the option off the coins decide: 12 coins, attacker needs 3 heads.
    assert odds.challenge_success(7, automatic_beyond_six=False) == F(4096 - 1 - 12 - 66, 4096)
    assert odds.challenge_success(-7, automatic_beyond_six=False) == F(1 + 12 + 66, 4096)


def reflip_attacker_wins(coins: tuple[bool, ...], advantage: int) -> bool:
    """The text's own wording: flip five coins (True = heads, the attacker's); for each
    point of advantage the advantaged side reflips one coin that landed against it, using
    the next coin of the sequence."""
    hand = list(coins[:5])
    spare = iter(coins[5:])
    favour = advantage >= 0  # the advantaged side's face
    for _ in range(abs(advantage)):
        if (not favour) in hand:
            hand[hand.index(not favour)] = next(spare)
    return sum(hand) >= 3


@pytest.mark.parametrize("advantage", range(-6, 7))
def test_challenge_matches_the_reflip_wording(advantage: int) -> None:
    n = 5 + abs(advantage)
    wins = sum(
        reflip_attacker_wins(coins, advantage)
        for coins in itertools.product((True, False), repeat=n)
    )
    assert odds.challenge_success(advantage) == F(wins, 2**n)


@pytest.mark.parametrize("advantage", range(-6, 7))
def test_criticals_match_enumeration(advantage: int) -> None:
    n = 7 + abs(advantage)
    attacker = defender = 0
    for coins in itertools.product((True, False), repeat=n):
        heads = sum(coins)
        favour = heads if advantage >= 0 else n - heads  # coins for the advantaged side
        if favour >= 7:
            if advantage >= 0:
                attacker += 1
            else:
                defender += 1
        elif favour == 0:
            if advantage >= 0:
                defender += 1
            else:
                attacker += 1
    assert odds.challenge_criticals(advantage) == (F(attacker, 2**n), F(defender, 2**n))


def test_criticals_at_zero_are_one_in_128_as_the_text_says() -> None:
    assert odds.challenge_criticals(0) == (F(1, 128), F(1, 128))
    got = odds.challenge_odds(2)
    assert got.success == F(99, 128) and got.failure == F(29, 128)
    # +2: 9 coins; at least 7 heads is (36 + 9 + 1) / 512; all tails 1/512.
    assert (got.attacker_critical, got.defender_critical) == (F(46, 512), F(1, 512))


@given(a=st.integers(-20, 20))
def test_challenge_properties(a: int) -> None:
    assert odds.challenge_success(a + 1) >= odds.challenge_success(a)
    assert odds.challenge_success(a) + odds.challenge_success(-a) == 1
    up, down = odds.challenge_criticals(a)
    assert odds.challenge_criticals(-a) == (down, up)
    if a >= 0:
        assert odds.challenge_criticals(a + 1)[0] >= up
