"""Every Cogent check option's exact distribution, compared with icepool's whole distribution."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.systems.cogent.odds import (
    CheckOdds,
    assist_bonus_distribution,
    check_odds,
    collaboration_odds,
    conflict_odds,
)
from taletable.systems.cogent.rules import CORE, TIERED, Rules


def wins(pool: int, win_on: int = 4) -> icepool.Die:
    """icepool's wins of a pool (none for a pool of zero or fewer)."""
    return pool @ (icepool.d6 >= win_on) if pool > 0 else icepool.Die([0])


def as_fractions(die: icepool.Die) -> dict[int, Fraction]:
    total = die.denominator()
    return {int(o): Fraction(q, total) for o, q in die.items() if q}


def assert_same(ours: CheckOdds, theirs: icepool.Die, level: int) -> None:
    assert dict(ours.distribution) == as_fractions(theirs)
    assert ours.p_pass == Fraction(theirs.probability(">=", level))


POOLS = st.integers(-2, 14)
LEVELS = st.integers(0, 10)


@settings(max_examples=60, deadline=None)
@given(POOLS, LEVELS, st.integers(0, 4), st.booleans())
def test_core_destiny_after_with_and_without_cap(
    pool: int, level: int, points: int, cap: bool
) -> None:
    """Core: +1 win per point after the roll, optionally capped at the dice rolled."""
    theirs = wins(pool) + points
    if cap:
        theirs = theirs.map(lambda w: min(w, max(0, pool)))
    rules = Rules(destiny_after_cap=cap)
    assert_same(check_odds(pool, level, rules=rules, destiny_after=points), theirs, level)


@settings(max_examples=40, deadline=None)
@given(POOLS, LEVELS)
def test_core_destiny_before_advantage(pool: int, level: int) -> None:
    """Core destiny before the roll: the pool wins on 3-6."""
    ours = check_odds(pool, level, rules=CORE, destiny_before=["advantage"])
    assert_same(ours, wins(pool, 3), level)


@settings(max_examples=60, deadline=None)
@given(POOLS, LEVELS, st.booleans(), st.booleans(), st.integers(0, 2))
def test_tiered_advantage_disadvantage_and_dice(
    pool: int, level: int, advantage: bool, disadvantage: bool, dice: int
) -> None:
    """Tiered: Advantage 3-6, Disadvantage 5-6, both cancel to 4-6; +1D6 per 'die' point."""
    win_on = 4 if advantage == disadvantage else (3 if advantage else 5)
    ours = check_odds(
        pool,
        level,
        rules=TIERED,
        advantage=advantage,
        disadvantage=disadvantage,
        destiny_before=["die"] * dice,
    )
    assert ours.win_on == win_on
    assert_same(ours, wins(pool + dice, win_on), level)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10), st.integers(1, 8), st.integers(1, 3))
def test_tiered_reroll_then_raise(pool: int, level: int, points: int) -> None:
    """Tiered by count: each point rerolls the whole pool while failing, else raises by one."""
    fresh = wins(pool)
    theirs = fresh
    for _ in range(points):
        theirs = theirs.map(lambda w: fresh if w < level else w + 1)
    assert_same(check_odds(pool, level, rules=TIERED, destiny_after=points), theirs, level)


@pytest.mark.parametrize(("pool", "level"), [(4, 2), (5, 2), (7, 3), (0, 0), (1, 1)])
def test_tiered_half_the_pool(pool: int, level: int) -> None:
    """Tiered 'half': pool // 2 wins without rolling."""
    ours = check_odds(pool, level, rules=TIERED, destiny_before=["half"])
    assert_same(ours, icepool.Die([pool // 2]), level)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10), LEVELS, st.integers(0, 12), st.integers(3, 5), st.integers(0, 3))
def test_assisted_check(pool: int, level: int, assist: int, assist_cl: int, helpers: int) -> None:
    """Core assist: clamp(wins - CL, -CL, CL) of the helper (+1 die per extra helper) is added."""
    bonus = wins(assist + helpers).map(lambda w: max(-assist_cl, min(assist_cl, w - assist_cl)))
    assert dict(assist_bonus_distribution(assist, assist_cl, helpers).items()) == as_fractions(
        bonus
    )
    theirs = (wins(pool) + bonus).map(lambda w: max(0, w))
    ours = check_odds(
        pool, level, assist_bonus=assist_bonus_distribution(assist, assist_cl, helpers)
    )
    assert_same(ours, theirs, level)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=1, max_size=5), st.integers(0, 5))
def test_collaboration(pools: list[int], level: int) -> None:
    """Tiered collaboration: summed wins against CL x characters."""
    theirs = icepool.Die([0])
    for pool in pools:
        theirs = theirs + wins(pool)
    expected = Fraction(theirs.probability(">=", level * len(pools)))
    assert collaboration_odds(pools, level) == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 12), st.booleans())
def test_conflict_with_and_without_rerolled_ties(a: int, b: int, aware: bool) -> None:
    """Victory levels: the difference of wins, conditioned on no tie when ties are rerolled."""
    difference = wins(a) - wins(b)
    ours = conflict_odds(a, b, aware_and_active=aware)
    if aware and not (a == 0 and b == 0):
        difference = icepool.Die({o: q for o, q in difference.items() if o != 0})
    assert dict(ours.difference) == as_fractions(difference)
    assert ours.p_a == Fraction(difference.probability(">", 0))
    assert ours.p_b == Fraction(difference.probability("<", 0))
    assert ours.p_a + ours.p_b + ours.p_tie == 1
