"""Exact odds, taletable against icepool (the peer), in one run: equal answers, then speed.

Run with ``python3 tasks.py bench``. For each workload both libraries compute the same exact
answers; the script checks they are equal, then prints the median time of each over several
runs and the ratio. taletable's caches are cleared before every run; icepool keeps its own
internal caches, which only favours the peer.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

from taletable.prob.distribution import binomial, die
from taletable.systems.boons.dice import resize_dice
from taletable.systems.boons.odds import dice_sum
from taletable.systems.cogent.odds import cheatsheet, check_odds, conflict_odds
from taletable.systems.labcats.odds import total_distribution

RUNS = 5


def clear_caches() -> None:
    binomial.cache_clear()
    die.cache_clear()
    dice_sum.cache_clear()


def median_seconds(function: Callable[[], Any], *, ours: bool) -> tuple[float, Any]:
    times = []
    result = None
    for _ in range(RUNS):
        if ours:
            clear_caches()
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


# -- the cheatsheet: 3 thresholds x pools 1-40 x CL 0-20 ------------------------------------
def ours_cheatsheet() -> dict[tuple[int, int, int], Fraction]:
    sheet = cheatsheet(40, 20)
    return {(w, pool, cl): p for w, rows in sheet.items() for pool, row in enumerate(rows, 1)
            for cl, p in enumerate(row)}  # fmt: skip


def icepool_cheatsheet() -> dict[tuple[int, int, int], Fraction]:
    out = {}
    for win_on in (3, 4, 5):
        for pool in range(1, 41):
            wins = pool @ (icepool.d6 >= win_on)
            for cl in range(21):
                out[(win_on, pool, cl)] = Fraction(wins.probability(">=", cl))
    return out


# -- opposed victory-level tables: pools 1-20 x 1-20, ties rerolled --------------------------
def ours_opposed() -> dict[tuple[int, int], dict[int, Fraction]]:
    return {
        (a, b): dict(conflict_odds(a, b).difference) for a in range(1, 21) for b in range(1, 21)
    }


def icepool_opposed() -> dict[tuple[int, int], dict[int, Fraction]]:
    out = {}
    for a in range(1, 21):
        for b in range(1, 21):
            difference = a @ (icepool.d6 >= 4) - b @ (icepool.d6 >= 4)
            no_tie = difference.denominator() - difference.quantity(0)
            out[(a, b)] = {o: Fraction(q, no_tie) for o, q in difference.items() if q and o != 0}
    return out


# -- boons: sums for boons 0-6 x banes 0-6 ----------------------------------------------------
def ours_boons() -> dict[tuple[int, int], dict[int, Fraction]]:
    return {(b, n): dict(dice_sum(b, n).items()) for b in range(7) for n in range(7)}


def icepool_boons() -> dict[tuple[int, int], dict[int, Fraction]]:
    out = {}
    for b in range(7):
        for n in range(7):
            first, second, third = resize_dice(b, n)
            total = icepool.d(first) + icepool.d(second) + icepool.d(third)
            out[(b, n)] = {o: Fraction(q, total.denominator()) for o, q in total.items() if q}
    return out


# -- labcats: pools of 3 to 12 mixed dice -----------------------------------------------------
LABCATS_POOLS = [[(4, 6, 8, 10, 12)[i % 5] for i in range(size)] for size in range(3, 13)]


def ours_labcats() -> list[dict[int, Fraction]]:
    return [dict(total_distribution(pool).items()) for pool in LABCATS_POOLS]


def icepool_labcats() -> list[dict[int, Fraction]]:
    out = []
    for pool in LABCATS_POOLS:
        total = icepool.Pool([icepool.d(s).map({1: 0}) for s in pool]).highest(2).sum()
        out.append({o: Fraction(q, total.denominator()) for o, q in total.items() if q})
    return out


def single_check_seconds() -> float:
    """The slowest single-check odds among pools 1-40, CL 0-20, with destiny after."""
    worst = 0.0
    for pool in (1, 10, 20, 40):
        for cl in (0, 5, 20):
            clear_caches()
            start = time.perf_counter()
            check_odds(pool, cl, destiny_after=2)
            worst = max(worst, time.perf_counter() - start)
    return worst


def main() -> None:
    print(f"taletable vs icepool {icepool.__version__}: median of {RUNS} runs each")
    print(f"{'workload':<34}{'taletable':>12}{'icepool':>12}{'ratio':>9}")
    for name, ours, theirs in (
        ("cheatsheet 3 x 40 x 21", ours_cheatsheet, icepool_cheatsheet),
        ("opposed VL tables 20 x 20", ours_opposed, icepool_opposed),
        ("boons sums 7 x 7", ours_boons, icepool_boons),
        ("labcats pools of 3-12 mixed dice", ours_labcats, icepool_labcats),
    ):
        our_time, our_answer = median_seconds(ours, ours=True)
        their_time, their_answer = median_seconds(theirs, ours=False)
        if our_answer != their_answer:
            raise SystemExit(f"{name}: answers differ from icepool's")
        print(
            f"{name:<34}{our_time * 1000:>10.2f}ms{their_time * 1000:>10.2f}ms"
            f"{their_time / our_time:>8.1f}x"
        )
    print(f"slowest single check's odds (uncached): {single_check_seconds() * 1000:.3f} ms")


if __name__ == "__main__":
    main()
