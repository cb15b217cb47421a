"""The boons and labcats engines' seeded rolls follow the exact distributions (DESIGN >
Principles 6).

Chi-squared over many seeded rolls, with rare totals pooled so every cell expects at least 5;
the critical values are for p = 0.001, so an honest engine fails about once in a thousand runs
(the seeds are fixed, so these tests are repeatable).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from taletable.dice import SeededDice
from taletable.systems.boons.checks import BoonsCheck, roll_check
from taletable.systems.boons.odds import check_total
from taletable.systems.labcats.odds import complications_distribution, total_distribution
from taletable.systems.labcats.rolls import roll_pool

#: Chi-squared critical values at p = 0.001 by degrees of freedom.
CRITICAL = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12,
            9: 27.88, 10: 29.59, 11: 31.26, 12: 32.91, 13: 34.53, 14: 36.12, 15: 37.70,
            16: 39.25, 17: 40.79, 18: 42.31, 19: 43.82, 20: 45.31, 21: 46.80, 22: 48.27,
            23: 49.73, 24: 51.18, 25: 52.62, 26: 54.05, 27: 55.48, 28: 56.89, 29: 58.30,
            30: 59.70}  # fmt: skip


def chi_squared(counts: Counter[int], exact: list[tuple[int, Fraction]], runs: int) -> float:
    """The statistic after pooling outcomes (in order) until each cell expects >= 5."""
    cells: list[tuple[float, int]] = []
    expected, observed = 0.0, 0
    for outcome, p in exact:
        expected += runs * float(p)
        observed += counts.get(outcome, 0)
        if expected >= 5:
            cells.append((expected, observed))
            expected, observed = 0.0, 0
    if expected and cells:
        last_expected, last_observed = cells.pop()
        cells.append((last_expected + expected, last_observed + observed))
    assert sum(counts.values()) == runs and sum(o for _, o in cells) == runs
    statistic = sum((o - e) ** 2 / e for e, o in cells)
    assert len(cells) - 1 in CRITICAL
    return statistic - CRITICAL[len(cells) - 1]


def test_boons_rolls_follow_the_exact_totals() -> None:
    """12,000 seeded d12, d10, d6 + 3 checks against the exact sum distribution."""
    check = BoonsCheck(bonus=2, boons=3, banes=2)
    source = SeededDice(5)
    runs = 12_000
    counts = Counter(roll_check(check, None, source).total for _ in range(runs))
    assert chi_squared(counts, check_total(check).items(), runs) < 0


def test_labcats_rolls_follow_the_exact_totals_and_complications() -> None:
    """12,000 seeded d10, d8, d6, d4 + d6 rolls: totals and counts of 1s."""
    pool, resources = (10, 8, 6, 4), (6,)
    source = SeededDice(8)
    runs = 12_000
    rolls = [roll_pool(pool, source, resources) for _ in range(runs)]
    totals = Counter(roll.total for roll in rolls)
    assert chi_squared(totals, total_distribution(pool, resources).items(), runs) < 0
    ones = Counter(len(roll.complications) for roll in rolls)
    assert chi_squared(ones, complications_distribution(pool).items(), runs) < 0
