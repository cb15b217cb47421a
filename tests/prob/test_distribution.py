"""The exact distribution engine, checked against icepool and brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from taletable.prob import Distribution, binomial, die, estimate_probability, point


def as_fractions(distribution: Distribution) -> dict[int, Fraction]:
    return dict(distribution.items())


def icepool_fractions(result: icepool.Die) -> dict[int, Fraction]:
    total = result.denominator()
    return {o: Fraction(q, total) for o, q in result.items() if q}


@given(st.lists(st.integers(1, 12), min_size=1, max_size=5))
def test_sums_of_dice_equal_icepool(sides: list[int]) -> None:
    """The sum of independent dice equals icepool's exact answer."""
    ours = point(0)
    theirs = icepool.Die([0])
    for s in sides:
        ours = ours + die(s)
        theirs = theirs + icepool.d(s)
    assert as_fractions(ours) == icepool_fractions(theirs)


@given(st.integers(0, 30), st.integers(3, 5))
def test_binomial_wins_equal_icepool(pool: int, win_on: int) -> None:
    """Wins of a pool of d6 equal icepool's count of dice >= win_on."""
    ours = binomial(pool, 7 - win_on, 6)
    theirs = pool @ (icepool.d6 >= win_on) if pool else icepool.Die([0])
    assert as_fractions(ours) == icepool_fractions(theirs)


def test_difference_maximum_mixture_condition() -> None:
    """Each operation against brute-force enumeration."""
    a, b = die(6), die(4)
    brute: dict[int, Fraction] = {}
    for x, y in itertools.product(range(1, 7), range(1, 5)):
        brute[x - y] = brute.get(x - y, Fraction(0)) + Fraction(1, 24)
    assert as_fractions(a - b) == brute
    highest: dict[int, Fraction] = {}
    for x, y in itertools.product(range(1, 7), range(1, 5)):
        highest[max(x, y)] = highest.get(max(x, y), Fraction(0)) + Fraction(1, 24)
    assert as_fractions(a.maximum(b)) == highest
    mixed = Distribution.mixture([(Fraction(1, 3), point(0)), (Fraction(2, 3), die(2))])
    assert as_fractions(mixed) == {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}
    assert as_fractions(die(6).condition(lambda x: x > 4)) == {5: Fraction(1, 2), 6: Fraction(1, 2)}
    assert die(6).at_least(5) == Fraction(1, 3)
    assert die(6).mean() == Fraction(7, 2)
    assert np.array_equal(die(4).floats(), [0.25, 0.25, 0.25, 0.25])
    assert np.array_equal((die(2) + die(2)).floats(), [0.25, 0.5, 0.25])
    assert (a - 2) == Distribution(-1, [1] * 6)


def test_invalid_distributions_are_refused() -> None:
    """No weights, negative weights, or an impossible condition: ValueError."""
    with pytest.raises(ValueError):
        Distribution(0, [])
    with pytest.raises(ValueError):
        Distribution(0, [1, -1])
    with pytest.raises(ValueError):
        die(6).condition(lambda x: x > 6)


@given(st.integers(1, 6))
def test_probabilities_sum_to_one(sides: int) -> None:
    """Every distribution's probabilities sum to exactly one."""
    total = die(sides) + die(sides) - die(3)
    assert sum(p for _, p in total.items()) == 1


def test_monte_carlo_agrees_with_exact_within_its_bound() -> None:
    """A seeded Monte Carlo estimate of P(3d8 >= 15) lies within its stated bound."""
    exact = float((die(8) + die(8) + die(8)).at_least(15))
    estimate = estimate_probability(
        lambda rng, n: rng.integers(1, 9, size=(n, 3)).sum(axis=1) >= 15, 200_000, seed=4
    )
    assert estimate.agrees_with(exact)
    assert estimate.bound < 0.005


def naive_convolution(a: list[int], b: list[int]) -> list[int]:
    result = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            result[i + j] += x * y
    return result


@given(
    st.lists(st.integers(0, 50), min_size=1, max_size=12).filter(any),
    st.integers(1, 12),
    st.integers(1, 5),
    st.booleans(),
)
def test_every_convolution_path_is_exact(
    weights: list[int], width: int, weight: int, uniform_first: bool
) -> None:
    """Sliding window (a fair die), NumPy and big-integer paths all equal the naive sum."""
    shape = Distribution(0, weights)
    flat = Distribution(0, [weight] * width)
    total = flat + shape if uniform_first else shape + flat
    expected = Distribution(shape.offset, naive_convolution(list(shape.weights), [1] * width))
    assert total == expected
    huge = Distribution(0, [w * 2**70 + 1 for w in weights])
    lumpy = Distribution(0, [1, 2, 3, 5])
    assert huge + lumpy == Distribution(0, naive_convolution(list(huge.weights), [1, 2, 3, 5]))


@given(
    st.lists(st.integers(0, 50), min_size=1, max_size=40).filter(any),
    st.lists(st.integers(0, 50), min_size=2, max_size=40).filter(lambda w: len(set(w)) > 1),
)
def test_lumpy_sums_small_and_large_are_exact(first: list[int], second: list[int]) -> None:
    """Two uneven distributions (neither a fair die): summed by Python under 64 products and
    by NumPy from 64 (up to 1,600 here), each equal to the naive sum."""
    total = Distribution(0, first) + Distribution(0, second)
    assert total == Distribution(0, naive_convolution(first, second))


def test_fractions_are_real_fractions() -> None:
    """Answers built on the fast path behave as ordinary reduced Fractions."""
    answer = (die(6) + die(6)).at_least(10)
    assert answer == Fraction(1, 6) and hash(answer) == hash(Fraction(1, 6))
    assert answer + Fraction(1, 3) == Fraction(1, 2)
    assert dict((die(4) - die(4)).items())[0] == Fraction(1, 4)
    assert str(die(3).probability(lambda x: x > 1)) == "2/3"
