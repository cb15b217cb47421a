"""Exact boons and labcats odds against icepool, and the odds CLI contract."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.systems.boons.checks import BoonsCheck
from taletable.systems.boons.dice import resize_dice
from taletable.systems.boons.group import successes_required
from taletable.systems.boons.odds import (
    check_total,
    contest_odds,
    dice_sum,
    group_challenge_odds,
    pass_probability,
)
from taletable.systems.labcats.odds import labcats_odds, total_distribution


@pytest.mark.parametrize("boons", range(7))
@pytest.mark.parametrize("banes", range(7))
def test_boons_sums_equal_icepool(boons: int, banes: int) -> None:
    """All 49 boon/bane sum distributions equal icepool's."""
    first, second, third = resize_dice(boons, banes)
    theirs = icepool.d(first) + icepool.d(second) + icepool.d(third)
    total = theirs.denominator()
    assert dict(dice_sum(boons, banes).items()) == {
        o: Fraction(q, total) for o, q in theirs.items()
    }


def test_boons_pass_and_contest() -> None:
    """Irzi's 24-or-better odds; a contest with the defender winning ties."""
    irzi = BoonsCheck(bonus=9, banes=2)
    assert pass_probability(irzi, 25) == check_total(irzi).at_least(25)
    fair = contest_odds(BoonsCheck(bonus=0), BoonsCheck(bonus=0))
    assert fair.p_a == fair.p_b == Fraction(1, 2)
    defended = contest_odds(BoonsCheck(bonus=0), BoonsCheck(bonus=0), defender="b")
    assert defended.p_b == Fraction(1, 2) + fair.p_tie_roll / 2
    passive = BoonsCheck(bonus=3, boons=1, passive=True)
    assert check_total(passive).items() == [(16, Fraction(1))]


def test_group_challenge_odds_bounds() -> None:
    """Group odds are probabilities and easier difficulties are likelier."""
    members = [(BoonsCheck(bonus=5), 18)] * 4
    easy = group_challenge_odds(members, "easy")
    impossible = group_challenge_odds(members, "impossible")
    assert 0 <= impossible < easy <= 1


@pytest.mark.parametrize(
    ("pool", "resources"), [([8, 6, 6], [6]), ([4, 12, 10, 8], []), ([6] * 8, [8, 4])]
)
def test_labcats_totals_equal_icepool(pool: list[int], resources: list[int]) -> None:
    """Totals (1s set aside, all 1s fail with 0) equal icepool's."""
    main = icepool.Pool([icepool.d(s).map({1: 0}) for s in pool]).highest(2).sum()
    side = (
        icepool.Pool([icepool.d(s) for s in resources]).highest(1).sum()
        if resources
        else icepool.Die([0])
    )
    theirs = icepool.map(lambda m, r: 0 if m == 0 else m + r, main, side)
    total = theirs.denominator()
    assert dict(total_distribution(pool, resources).items()) == {
        o: Fraction(q, total) for o, q in theirs.items() if q
    }


DIE_SIZES = st.sampled_from([4, 6, 8, 10, 12])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(DIE_SIZES, min_size=1, max_size=6),
    st.lists(DIE_SIZES, max_size=2),
    st.integers(0, 2),
)
def test_labcats_any_pool_equals_icepool(pool: list[int], resources: list[int], add: int) -> None:
    """Any mixed pool, resources and extra kept dice: the totals equal icepool's."""
    kept = min(2 + add, len(pool))
    main = icepool.Pool([icepool.d(s).map({1: 0}) for s in pool]).highest(kept).sum()
    side = (
        icepool.Pool([icepool.d(s) for s in resources]).highest(1).sum()
        if resources
        else icepool.Die([0])
    )
    theirs = icepool.map(lambda m, r: 0 if m == 0 else m + r, main, side)
    total = theirs.denominator()
    assert dict(total_distribution(pool, resources, add=add).items()) == {
        o: Fraction(q, total) for o, q in theirs.items() if q
    }


def test_labcats_odds_summary() -> None:
    """All-1s chance and expected complications of a d8, d6 pool."""
    odds = labcats_odds([8, 6], 10)
    assert odds.p_fail_all_ones == Fraction(1, 48)
    assert odds.expected_complications == Fraction(1, 8) + Fraction(1, 6)
    against = labcats_odds([8, 8], opposing=([6, 6], []))
    assert 0 < against.p_pass < 1


def test_odds_cli_contract(run_cli: Any) -> None:
    """The fixed CLI names and keys of the odds commands."""
    out = run_cli("odds", "cogent", "--pool", "4", "--cl", "3", "--json").json()
    assert (out["p_pass"], out["p_pass_float"]) == ("5/16", 0.3125)
    assert out["distribution"][0] == {"wins": 0, "p": "1/16", "p_float": 0.0625}
    advise = run_cli("odds", "cogent", "advise", "--pool", "4", "--chance", "31", "--json").json()
    assert (advise["cl"], advise["p_pass"]) == (3, "5/16")
    conflict = run_cli("odds", "cogent", "conflict", "--pool-a", "5", "--pool-b", "5", "--json")
    assert conflict.json()["p_a"] == "1/2"
    boons = run_cli("odds", "boons", "--bonus", "0", "--target", "3", "--json").json()
    assert boons["p_pass"] == "1/1"
    labcats = run_cli("odds", "labcats", "--pool", "d6", "--target", "7", "--json").json()
    assert labcats["p_pass"] == "0/1"
    sheet = run_cli("cheatsheet", "cogent", "--max-pool", "2", "--max-cl", "2", "--format", "md")
    assert "| win_on | pool | cl0 | cl1 | cl2 |" in sheet.stdout
    bad = run_cli("odds", "cogent", "--pool", "4")
    assert bad.status == 2


def icepool_total(check: BoonsCheck) -> icepool.Die:
    """icepool's total of a boons check: its resized dice plus its modifier."""
    first, second, third = check.dice
    return icepool.d(first) + icepool.d(second) + icepool.d(third) + check.modifier


CHECKS = st.builds(
    BoonsCheck, bonus=st.integers(-3, 8), boons=st.integers(0, 6), banes=st.integers(0, 6)
)


@settings(max_examples=40, deadline=None)
@given(CHECKS, CHECKS, st.sampled_from([None, "a", "b"]), st.booleans())
def test_boons_contests_equal_icepool(
    a: BoonsCheck, b: BoonsCheck, defender: Any, stalemate: bool
) -> None:
    """Contest odds follow the four tie rules in order, from icepool's difference of totals."""
    difference = icepool_total(a) - icepool_total(b)
    ahead = Fraction(difference.probability(">", 0))
    behind = Fraction(difference.probability("<", 0))
    tie = Fraction(difference.probability("==", 0))
    odds = contest_odds(a, b, defender=defender, stalemate_possible=stalemate)
    assert odds.p_tie_roll == tie
    if defender == "a" or (defender is None and a.modifier > b.modifier):
        expected = (ahead + tie, behind, Fraction(0))
    elif defender == "b" or (defender is None and b.modifier > a.modifier):
        expected = (ahead, behind + tie, Fraction(0))
    elif stalemate:
        expected = (ahead, behind, tie)
    else:  # rerolled until a victor
        expected = (ahead / (1 - tie), behind / (1 - tie), Fraction(0))
    assert (odds.p_a, odds.p_b, odds.p_stalemate) == expected


#: What a miss within 5 and a miss by more than 5 add, by reading (RULINGS.md).
MISSES = {"offset": (-1, -2), "none": (0, 0), "big-only": (0, -2)}


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(CHECKS, st.integers(8, 30)), min_size=1, max_size=4),
    st.sampled_from(["easy", "moderate", "challenging", "formidable", "impossible"]),
    st.sampled_from(sorted(MISSES)),
)
def test_boons_group_challenge_equals_icepool(
    members: list[Any], difficulty: Any, failures: Any
) -> None:
    """Each member adds +2 (beat by more than 5), +1 (reached), or a miss's count by reading."""
    near, wide = MISSES[failures]
    tally = icepool.Die([0])
    for check, target in members:
        tally = tally + (icepool_total(check) - target).map(
            lambda m: 2 if m > 5 else 1 if m >= 0 else wide if m < -5 else near
        )
    needed = successes_required(difficulty, len(members))
    odds = group_challenge_odds(members, difficulty, failures)
    assert odds == Fraction(tally.probability(">=", needed))


def icepool_labcats(pool: list[int], resources: list[int]) -> icepool.Die:
    """icepool's labcats total: two highest non-1 main dice plus the highest resource die."""
    main = icepool.Pool([icepool.d(s).map({1: 0}) for s in pool]).highest(2).sum()
    side = (
        icepool.Pool([icepool.d(s) for s in resources]).highest(1).sum()
        if resources
        else icepool.Die([0])
    )
    return icepool.map(lambda m, r: 0 if m == 0 else m + r, main, side)


def test_labcats_opposed_and_complications_equal_icepool(run_cli: Any) -> None:
    """Beating an opposing pool (a tie does not) and the count of 1s, against icepool."""
    ours = labcats_odds([8, 6, 6], opposing=([10, 6], [4]), resources=[6])
    theirs = icepool_labcats([8, 6, 6], [6]) - icepool_labcats([10, 6], [4])
    assert ours.p_pass == Fraction(theirs.probability(">", 0))
    ones = icepool.Die([0])
    for sides in (8, 6, 6):
        ones = ones + (icepool.d(sides) == 1)
    total = ones.denominator()
    assert dict(ours.complications) == {o: Fraction(q, total) for o, q in ones.items() if q}
    out = run_cli(
        "odds", "labcats", "--pool", "d8,d6,d6", "--resources", "d6",
        "--against", "d10,d6", "--against-resources", "d4", "--json",
    ).json()  # fmt: skip
    assert Fraction(out["p_pass"]) == ours.p_pass
    assert [c["complications"] for c in out["complications"]] == [0, 1, 2, 3]
