"""Exact Cogent odds: against icepool, against brute force, and against the engine's rolls."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import icepool
import pytest

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError
from taletable.systems.cogent.checks import roll_check
from taletable.systems.cogent.conflicts import roll_conflict
from taletable.systems.cogent.odds import (
    advise_challenge_level,
    assist_bonus_distribution,
    cheatsheet,
    check_odds,
    collaboration_odds,
    conflict_odds,
)
from taletable.systems.cogent.pools import pool_of
from taletable.systems.cogent.rules import CORE, TIERED, Rules


def brute_force_pass(pool: int, level: int, **options: Any) -> Fraction:
    """Enumerate every face combination through the real engine (small pools only)."""
    rules = options.pop("rules", CORE)
    passed = 0
    total = 0
    for faces in itertools.product(range(1, 7), repeat=pool):
        total += 1
        passed += roll_check(pool_of(pool), level, GivenFaces(faces), rules=rules, **options).passed
    return Fraction(passed, total)


@pytest.mark.parametrize(
    ("pool", "level", "options"),
    [
        (4, 3, {}),
        (5, 2, {"destiny_before": ["advantage"]}),
        (4, 3, {"destiny_after": 1}),
        (3, 4, {"destiny_after": 2, "rules": Rules(destiny_after_cap=True)}),
        (4, 2, {"rules": TIERED, "advantage": True}),
        (5, 3, {"rules": TIERED, "disadvantage": True}),
        (5, 3, {"rules": TIERED, "destiny_before": ["half"]}),
        (4, 5, {"rules": TIERED, "destiny_after": 1}),
    ],
)
def test_exact_odds_match_the_engine_by_enumeration(pool: int, level: int, options: Any) -> None:
    """For small pools, enumerating every roll through roll_check gives the exact answer."""
    exact = check_odds(pool, level, **options).p_pass
    engine_options = dict(options)
    if options.get("destiny_before") == ["half"]:
        assert exact == Fraction(int(pool // 2 >= level))
        return
    if engine_options.get("destiny_after") and engine_options.get("rules") is TIERED:
        # a reroll consumes a second set of faces: enumerate pairs of rolls
        rolled = Fraction(0)
        for first in itertools.product(range(1, 7), repeat=pool):
            wins = sum(face >= 4 for face in first)
            if wins >= level:
                rolled += Fraction(1, 6**pool)
            else:
                second = check_odds(pool, level, rules=TIERED).p_pass
                rolled += Fraction(1, 6**pool) * second
        assert exact == rolled
        return
    assert exact == brute_force_pass(pool, level, **engine_options)


def test_destiny_die_matches_seeded_engine() -> None:
    """Tiered +1D6: the engine's seeded pass rate matches the exact odds (chi-squared style)."""
    exact = float(check_odds(3, 3, rules=TIERED, destiny_before=["die"]).p_pass)
    source = SeededDice(11)
    runs = 20_000
    passed = sum(
        roll_check(pool_of(3), 3, source, rules=TIERED, destiny_before=["die"]).passed
        for _ in range(runs)
    )
    assert abs(passed / runs - exact) < 3.29 * (exact * (1 - exact) / runs) ** 0.5


def test_engine_wins_follow_the_exact_distribution() -> None:
    """Chi-squared of 20,000 seeded 6D6 checks against the exact wins distribution (p=0.001)."""
    odds = check_odds(6, 3)
    source = SeededDice(99)
    runs = 20_000
    counts = Counter(roll_check(pool_of(6), 3, source).wins for _ in range(runs))
    statistic = sum(
        (counts.get(wins, 0) - runs * float(p)) ** 2 / (runs * float(p))
        for wins, p in odds.distribution
    )
    assert statistic < 22.458  # chi-squared, 6 degrees of freedom, p = 0.001


def test_specialty_is_certain() -> None:
    """A routine CL 3 check with 8 dice passes for certain."""
    assert check_odds(8, 3, routine=True).p_pass == 1
    assert check_odds(8, 4, routine=True).p_pass < 1


def test_conflict_odds_equal_icepool_with_ties_rerolled() -> None:
    """Conflict odds equal icepool's difference of wins, conditioned on no tie."""
    for pool_a, pool_b in [(5, 5), (6, 4), (3, 7)]:
        difference = pool_a @ (icepool.d6 >= 4) - pool_b @ (icepool.d6 >= 4)
        p_a = difference.probability(">", 0)
        p_tie = difference.probability("==", 0)
        odds = conflict_odds(pool_a, pool_b)
        assert odds.p_a == Fraction(p_a) / (1 - Fraction(p_tie))
        assert odds.p_a + odds.p_b == 1


def test_conflict_odds_match_seeded_engine() -> None:
    """The engine's seeded conflicts agree with the exact odds."""
    exact = float(conflict_odds(6, 4).p_a)
    source = SeededDice(5)
    runs = 10_000
    wins = sum(roll_conflict(pool_of(6), pool_of(4), source).winner == "a" for _ in range(runs))
    assert abs(wins / runs - exact) < 3.29 * (exact * (1 - exact) / runs) ** 0.5


def test_assist_bonus_and_collaboration() -> None:
    """The assist bonus never exceeds the CL; Lucy's 8D6 at CL 3; the portcullis's CL 12."""
    bonus = assist_bonus_distribution(6, 3, helpers=2)
    assert bonus.low == -3 and bonus.high == 3
    assert bonus.probability(lambda b: b == 3) == Fraction(37, 256)  # (28 + 8 + 1) / 256
    assisted = check_odds(5, 4, assist_bonus=assist_bonus_distribution(7, 3))
    assert check_odds(5, 4).p_pass < assisted.p_pass
    assert collaboration_odds([4, 4, 4, 4], 3) == Fraction(
        sum(__import__("math").comb(16, k) for k in range(12, 17)), 2**16
    )


def test_collaboration_odds_refuse_more_than_4000_dice_in_all_before_summing() -> None:
    """Twenty pools of 200 are worked out; more are refused naming ``pools``, before any work."""
    assert 0 < collaboration_odds([200] * 20, 40) < 1
    with pytest.raises(InputError, match="^pools: 4200 dice in all is over the limit"):
        collaboration_odds([200] * 21, 3)
    with pytest.raises(InputError, match="^pools: a pool of 1000000000 dice is over the limit"):
        collaboration_odds([10**9, -(10**9)], 3)


def test_cheatsheet_and_advisor_examples() -> None:
    """000 > Narrator Declares the CL: 4D6 and 31% give CL 3 (Erin; the portcullis's 3 x 4)."""
    sheet = cheatsheet(40, 20)
    assert sheet[4][3][3] == Fraction(5, 16)
    assert len(sheet) == 3 and len(sheet[3]) == 40 and len(sheet[3][0]) == 21
    assert advise_challenge_level(4, Fraction(31, 100)).challenge_level == 3
    assert advise_challenge_level(10, 1).challenge_level == 0
    with pytest.raises(InputError, match="^chance: nan"):
        advise_challenge_level(4, float("nan"))


def test_cheatsheet_equals_icepool() -> None:
    """Every cheatsheet cell (pools 1-12 here) equals icepool's."""
    sheet = cheatsheet(12, 12)
    for win_on, rows in sheet.items():
        for pool, row in enumerate(rows, start=1):
            wins = pool @ (icepool.d6 >= win_on)
            for level, p in enumerate(row):
                assert p == Fraction(wins.probability(">=", level))
