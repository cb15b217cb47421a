"""Exact odds of a conflict with destiny spent after the roll (issue 37.2; 002 > Destiny Points
> After any roll of a dice pool), against icepool's independent enumeration, and the engine's
rolls against the same rule."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.dice import GivenFaces
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.conflicts import roll_conflict
from taletable.systems.cogent.odds.conflicts import rolled_conflict_odds
from taletable.systems.cogent.pools import pool_of
from taletable.systems.cogent.rules import CORE, TIERED, Rules

CAPPED = Rules(edition="core", destiny_after_cap=True)


def _icepool(a: int, b: int, points_a: int, points_b: int, aware: bool, cap: bool) -> icepool.Die:
    """icepool's a - b after the spends: a tie on the dice rerolled between aware parties, then
    a win a point (never past the dice rolled when capped)."""

    def added(points: int, rolled: int, dice: int) -> int:
        return min(points, max(0, dice - rolled)) if cap else points

    def final(wins_a: int, wins_b: int) -> object:
        if aware and wins_a == wins_b and not (a == 0 and b == 0):
            return icepool.Reroll
        return wins_a + added(points_a, wins_a, a) - (wins_b + added(points_b, wins_b, b))

    side_a = a @ (icepool.d6 >= 4) if a else icepool.Die([0])
    side_b = b @ (icepool.d6 >= 4) if b else icepool.Die([0])
    return icepool.map(final, side_a, side_b)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 8), st.integers(0, 8), st.integers(0, 3), st.integers(0, 3), st.booleans(),
       st.booleans())  # fmt: skip
def test_odds_match_an_independent_enumeration(
    a: int, b: int, points_a: int, points_b: int, aware: bool, cap: bool
) -> None:
    """Every victory level's chance, and who wins, equal icepool's."""
    rules = CAPPED if cap else CORE
    ours = rolled_conflict_odds(a, b, rules=rules, aware_and_active=aware,
                                destiny_after_a=points_a, destiny_after_b=points_b)  # fmt: skip
    theirs = _icepool(a, b, points_a, points_b, aware, cap)
    total = theirs.denominator()
    assert dict(ours.difference) == {int(o): Fraction(q, total) for o, q in theirs.items() if q}
    assert ours.p_a == Fraction(theirs.probability(">", 0))
    assert ours.p_b == Fraction(theirs.probability("<", 0))
    assert ours.p_a + ours.p_b + ours.p_tie == 1


def test_one_point_after_the_roll_on_five_dice_each() -> None:
    """5D6 against 5D6: alone, 1/2 each; a point after the roll for side a adds a win to what
    it achieved, so a's losses by one become ties that stand: a wins 1/2, b 35/154."""
    plain = rolled_conflict_odds(5, 5)
    spent = rolled_conflict_odds(5, 5, destiny_after_a=1)
    assert (plain.p_a, plain.p_tie) == (Fraction(1, 2), 0)
    assert spent.p_a == Fraction(1, 2)
    assert spent.p_tie == plain.difference[4][1]  # the old a - b = -1
    assert spent.p_b == Fraction(1, 2) - spent.p_tie


def test_the_engine_adds_a_win_a_point_on_the_settled_throw() -> None:
    """002: "add a single win in addition to what they achieved": a ties b 2-2 on the dice, the
    tie is rerolled (a 1 win, b 2), then a's 2 points make it 3 against 2: a wins, VL 1."""
    result = roll_conflict(
        pool_of(3), pool_of(3), GivenFaces([4, 5, 1, 1, 1, 6]), GivenFaces([6, 6, 1, 5, 4, 1]),
        destiny_after_a=2,
    )  # fmt: skip
    assert (result.rerolls, result.a_wins, result.b_wins) == (1, 3, 2)
    assert (result.winner, result.victory_level, result.destiny_wins("a")) == ("a", 1, 2)
    assert [spend.when for spend in result.destiny_a] == ["after", "after"]


def test_a_tie_destiny_makes_stands_and_the_cap_holds() -> None:
    """One point lifts a from 1 win to 2 against b's 2: the tie stands (VL 0, no winner). With
    the cap, 3 points on 2 dice that won 1 add only 1."""
    tied = roll_conflict(pool_of(2), pool_of(2), GivenFaces([6, 1]), GivenFaces([6, 6]),
                         destiny_after_a=1)  # fmt: skip
    assert (tied.winner, tied.victory_level) == (None, 0)
    assert "cogent.conflict.destiny_tie" in [note.kind for note in tied.rules_applied]
    capped = roll_conflict(pool_of(2), pool_of(2), GivenFaces([6, 1]), GivenFaces([1, 1]),
                           rules=CAPPED, destiny_after_a=3)  # fmt: skip
    assert (capped.a_wins, capped.destiny_wins("a")) == (2, 1)


def test_the_tiered_edition_and_too_many_points_are_refused() -> None:
    """000's after-roll spends work on a result against a CL, which a conflict has not: refused
    naming the rule, for the roll and its odds alike; more points than a roll takes are
    refused naming the field."""
    with pytest.raises(RulesError, match="000 > Destiny Points > After a Dice Roll"):
        rolled_conflict_odds(3, 3, rules=TIERED, destiny_after_b=1)
    with pytest.raises(RulesError, match="After a Dice Roll"):
        roll_conflict(pool_of(3), pool_of(3), GivenFaces([6] * 6), rules=TIERED,
                      destiny_after_a=1)  # fmt: skip
    with pytest.raises(InputError, match="destiny_after_a"):
        rolled_conflict_odds(3, 3, destiny_after_a=10_000)
