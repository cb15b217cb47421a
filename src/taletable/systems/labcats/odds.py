"""Exact odds of the Cortex-style pool system (004), by dynamic programming over the dice.

The total is the two highest main dice that are not 1 (plus ``add`` more), plus the highest
resource die; a roll of all 1s fails with total 0. The state carried die by die is the sorted
tuple of the highest kept faces and the number of 1s, so a pool of 12 mixed dice takes
milliseconds instead of 12^12 enumerations.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import reduce
from math import comb

from taletable._model import Record
from taletable.errors import InputError
from taletable.prob import Distribution, die, fraction_text, point, probability_rows
from taletable.systems.labcats.dice import KEPT_FOR_FREE, check_roll

__all__ = ["LabcatsOdds", "complications_distribution", "labcats_odds", "total_distribution"]


def _top_sums(pool: Sequence[int], keep: int) -> dict[int, int]:
    """Weights of the sum of the ``keep`` highest non-1 faces (1s count 0), over the product of
    the sides.

    Faces are settled from the highest value down. A die of size s joins at value s; given that
    a die shows at most v, it is uniform on 1..v whatever its size, so the dice still unsettled
    are alike, and j of U of them show exactly v in C(U, j) (v-1)^(U-j) of the v^U ways. The
    state is (dice kept so far, their sum); once ``keep`` are kept the sum is final and the
    unsettled dice count only their ways. The work is about values x keep x sum x dice, not
    the exponential number of sorted tuples of kept faces.
    """
    keep = min(keep, len(pool))
    top = max(pool)
    joining = {value: sum(1 for sides in pool if sides == value) for value in range(top + 1)}
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    finished: dict[int, int] = {}
    entered = 0
    for value in range(top, 1, -1):
        entered += joining[value]
        below = _count_below(pool, value)  # ways of the dice that have not joined yet
        nxt: dict[tuple[int, int], int] = {}
        for (kept, total), weight in states.items():
            unsettled = entered - kept
            for showing in range(unsettled + 1):
                ways = weight * comb(unsettled, showing)
                if kept + showing >= keep:
                    rest = (value - 1) ** (unsettled - showing) * below
                    final = total + (keep - kept) * value
                    finished[final] = finished.get(final, 0) + ways * rest
                    continue
                key = (kept + showing, total + showing * value)
                nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    for (_, total), weight in states.items():  # every die left shows 1
        finished[total] = finished.get(total, 0) + weight
    return finished


def _count_below(pool: Sequence[int], value: int) -> int:
    """The ways of the dice smaller than ``value`` (the product of their sides)."""
    ways = 1
    for sides in pool:
        if sides < value:
            ways *= sides
    return ways


def _resource_max(resources: Sequence[int]) -> Distribution:
    """The highest resource die (004 > Rolling the Dice 3); 0 without a side pool."""
    if not resources:
        return point(0)
    return reduce(Distribution.maximum, (die(sides) for sides in resources))


def _counts_at_most(sides: int, value: int) -> int:
    """Faces of a d``sides`` whose value (1 counted as 0) is at most ``value``."""
    if value < 0:
        return 0
    return 1 if value < 2 else min(value, sides)


def _top_two_sums(pool: Sequence[int]) -> dict[int, int]:
    """Weights of the sum of the two highest non-1 faces (0 for missing), by their joint CDF.

    G(x, y) = outcomes where the highest is at most x and the second at most y: every die is at
    most y, or exactly one die lies in (y, x]. With P(y) the product of the dice's counts at most
    y, G(x, y) = P(y) + sum over dice of (c(x) - c(y)) P(y) / c(y); dice of one size are counted
    together. Differencing G gives the joint weights of (highest, second).
    """
    top = max(pool)
    sizes: dict[int, int] = {}
    for sides in pool:
        sizes[sides] = sizes.get(sides, 0) + 1
    kinds = list(sizes.items())
    counts = [[_counts_at_most(s, v) for s, _ in kinds] for v in range(top + 1)]
    # grid[x][y] = G(x, y) for 0 <= y <= x; G(x, y) = base(y) + sum_s c_s(x) * share_s(y).
    grid = [[0] * (top + 1) for _ in range(top + 1)]
    for y in range(top + 1):
        at_y = counts[y]
        product = 1
        for count, (_, many) in zip(at_y, kinds, strict=True):
            product *= count**many
        shares = [many * (product // count) for count, (_, many) in zip(at_y, kinds, strict=True)]
        base = product - sum(c * w for c, w in zip(at_y, shares, strict=True))
        for x in range(y, top + 1):
            grid[x][y] = base + sum(c * w for c, w in zip(counts[x], shares, strict=True))

    # padded[x + 1][y + 1] = G(x, y) for every x, y in -1 .. top (G is 0 below 0).
    padded = [[0] * (top + 2)]
    for x, row in enumerate(grid):
        padded.append([0, *row[: x + 1], *([row[x]] * (top - x))])
    sums: dict[int, int] = {}
    for x in range(top + 1):
        row, below = padded[x + 1], padded[x]
        for y in range(x + 1):
            weight = row[y + 1] - below[y + 1] - row[y] + below[y]
            if weight:
                sums[x + y] = sums.get(x + y, 0) + weight
    return sums


def total_distribution(
    pool: Sequence[int], resources: Sequence[int] = (), *, add: int = 0
) -> Distribution:
    """The distribution of the roll's total (004 > Rolling the Dice)."""
    check_roll(pool, resources, add)
    sums = _top_two_sums(pool) if not add else _top_sums(pool, KEPT_FOR_FREE + add)
    failed = sums.pop(0, 0)
    resource = _resource_max(resources)
    if not sums:
        return point(0)
    rest = Distribution.from_mapping(sums) + resource
    if not failed:
        return rest
    fail_share = Fraction(failed, failed + sum(sums.values()))
    return Distribution.mixture([(fail_share, point(0)), (1 - fail_share, rest)])


def complications_distribution(pool: Sequence[int]) -> Distribution:
    """How many main dice come up 1, each a Complication (004 > Rolling the Dice 1)."""
    total = point(0)
    for sides in pool:
        total = total + Distribution(0, [sides - 1, 1])
    return total


class LabcatsOdds(Record):
    """The chance to reach a target (or beat an opposing pool) and the expected complications."""

    p_pass: Fraction
    p_fail_all_ones: Fraction
    expected_complications: Fraction
    #: How many main dice come up 1 (complications), with their chances.
    complications: tuple[tuple[int, Fraction], ...]
    distribution: tuple[tuple[int, Fraction], ...]

    def to_data(self) -> dict[str, object]:
        """The CLI's JSON: ``p_pass`` as "a/b" and float, complications, totals."""
        return {
            "p_pass": fraction_text(self.p_pass),
            "p_pass_float": float(self.p_pass),
            "p_fail_all_ones": fraction_text(self.p_fail_all_ones),
            "expected_complications": float(self.expected_complications),
            "complications": probability_rows(self.complications, "complications"),
            "distribution": probability_rows(self.distribution, "total"),
        }


def labcats_odds(
    pool: Sequence[int],
    target: int | None = None,
    resources: Sequence[int] = (),
    *,
    add: int = 0,
    opposing: tuple[Sequence[int], Sequence[int]] | None = None,
) -> LabcatsOdds:
    """P(total >= target), or P(total > an opposing pool's total) when ``opposing`` is given.

    ``opposing`` is the other side's main pool and resource dice; a tie does not beat it
    (RULINGS.md "odds": labcats ties).
    """
    totals = total_distribution(pool, resources, add=add)
    if opposing is not None:
        other = total_distribution(opposing[0], opposing[1])
        p_pass = (totals - other).probability(lambda d: d > 0)
    elif target is not None:
        p_pass = totals.at_least(target)
    else:
        raise InputError("target", "no target or opposing pool", expected="{target} T")
    all_ones = Fraction(1)
    for sides in pool:
        all_ones *= Fraction(1, sides)
    complications = complications_distribution(pool)
    return LabcatsOdds(
        p_pass=p_pass,
        p_fail_all_ones=all_ones,
        expected_complications=complications.mean(),
        complications=tuple(complications.items()),
        distribution=tuple(totals.items()),
    )
