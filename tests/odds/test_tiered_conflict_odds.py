"""Exact odds of a tiered conflict against the engine's own ``roll_conflict`` (issue 23.4).

Every tiered option ``odds cogent conflict`` lists, per side: the narrator's Advantage and
Disadvantage (000 > Dice Pools > Advantage and Disadvantage) and destiny before the roll
(000 > Destiny Points > Before a Dice Roll: +1D6, Advantage, Disadvantage to the other side,
half the pool instead of rolling). Small pools are enumerated face by face through the engine;
ties between aware parties (rerolled, the half side keeping its wins) are checked against a
seeded Monte Carlo of the engine with a chi-squared test.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import RulesError
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.conflicts import plan_conflict, roll_conflict
from taletable.systems.cogent.odds import rolled_conflict_odds
from taletable.systems.cogent.pools import pool_of
from taletable.systems.cogent.rules import CORE, TIERED
from tests.odds.test_engines_follow_odds import chi_squared

#: Every tiered option, alone per side, and some together.
OPTIONS: list[dict[str, Any]] = [
    {},
    {"advantage_a": True},
    {"disadvantage_a": True},
    {"advantage_b": True},
    {"disadvantage_b": True},
    {"advantage_a": True, "disadvantage_a": True},
    *(
        {f"destiny_before_{side}": (mode,)}
        for side in "ab"
        for mode in ("die", "advantage", "disadvantage", "half")
    ),
    {"destiny_before_a": ("die", "half")},
    {"destiny_before_b": ("die", "advantage")},
    {"destiny_before_a": ("half",), "destiny_before_b": ("advantage",)},
    {"destiny_before_a": ("half",), "destiny_before_b": ("half",)},
    {"destiny_before_a": ("disadvantage",), "advantage_b": True},
    {"advantage_a": True, "destiny_before_b": ("die", "disadvantage")},
    {"destiny_before_b": ("half",), "disadvantage_b": True},
]
POOLS = [(2, 2), (3, 1), (1, 0), (0, 2)]


def _engine_first_throw(pool_a: int, pool_b: int, options: dict[str, Any]) -> Counter[int]:
    """a - b wins of every face the engine's first throw can show, each counted once."""
    legal = plan_conflict(pool_a, pool_b, rules=TIERED, **options)
    dice_a = 0 if legal.before_a.half else legal.size_a
    dice_b = 0 if legal.before_b.half else legal.size_b
    counts: Counter[int] = Counter()
    for faces in product(range(1, 7), repeat=dice_a + dice_b):
        result = roll_conflict(
            pool_of(pool_a), pool_of(pool_b), GivenFaces(faces[:dice_a]),
            GivenFaces(faces[dice_a:]), rules=TIERED, aware_and_active=False, **options,
        )  # fmt: skip
        counts[result.a_wins - result.b_wins] += 1
    return counts


def _distribution(counts: Counter[int], drop_ties: bool) -> dict[int, Fraction]:
    kept = {d: c for d, c in counts.items() if c and not (drop_ties and d == 0)}
    total = sum(kept.values())
    return {d: Fraction(c, total) for d, c in sorted(kept.items())}


@pytest.mark.parametrize("pools", POOLS)
@pytest.mark.parametrize("options", OPTIONS)
def test_exact_odds_equal_the_engines_every_throw(
    pools: tuple[int, int], options: dict[str, Any]
) -> None:
    """Not aware: the tie stands, so the odds are the engine's first throw, face by face.
    Aware: a tie is thrown again, so the odds are that throw given no tie (unless a tie is
    certain: nobody can roll, and it stands)."""
    counts = _engine_first_throw(*pools, options)
    stands = rolled_conflict_odds(*pools, rules=TIERED, aware_and_active=False, **options)
    assert dict(stands.difference) == _distribution(counts, drop_ties=False)
    rerolled = rolled_conflict_odds(*pools, rules=TIERED, **options)
    certain_tie = set(counts) == {0}
    expected = _distribution(counts, drop_ties=not certain_tie)
    assert dict(rerolled.difference) == expected
    assert rerolled.p_a == sum(p for d, p in expected.items() if d > 0)
    assert rerolled.p_b == sum(p for d, p in expected.items() if d < 0)
    assert rerolled.p_tie == (1 if certain_tie else 0)


@pytest.mark.parametrize(
    ("pools", "options", "seed"),
    [
        ((4, 3), {"destiny_before_a": ("half",), "disadvantage_b": True}, 3),
        ((3, 2), {"advantage_a": True, "destiny_before_b": ("die",)}, 4),
        ((5, 4), {"destiny_before_b": ("half",), "disadvantage_a": True}, 5),
        ((2, 3), {"destiny_before_a": ("advantage",), "destiny_before_b": ("disadvantage",)}, 6),
    ],
)
def test_seeded_conflicts_with_tie_rerolls_follow_the_exact_odds(
    pools: tuple[int, int], options: dict[str, Any], seed: int
) -> None:
    """6,000 seeded conflicts between aware parties (ties rerolled) against the exact odds."""
    source, runs = SeededDice(seed), 6_000
    counts = Counter(
        (lambda r: r.a_wins - r.b_wins)(
            roll_conflict(pool_of(pools[0]), pool_of(pools[1]), source, rules=TIERED, **options)
        )
        for _ in range(runs)
    )
    exact = rolled_conflict_odds(*pools, rules=TIERED, **options).difference
    assert 0 not in counts
    assert chi_squared(counts, list(exact), runs) < 0


def test_half_a_pool_is_the_books_round_down() -> None:
    """000: "take 1/2 (round down) of your Dice Pool": 7D6 is 3 wins, against 1D6 rolled."""
    odds = rolled_conflict_odds(7, 1, rules=TIERED, destiny_before_a=("half",))
    assert (odds.p_a, odds.p_b, odds.difference) == (
        1,
        0,
        ((2, Fraction(1, 2)), (3, Fraction(1, 2))),
    )


def test_disadvantage_given_to_a_side_taking_half_is_refused() -> None:
    """It rolls no dice, so the point would buy nothing (RULINGS "Destiny in conflicts")."""
    for odds_or_roll in (
        lambda: rolled_conflict_odds(4, 3, rules=TIERED, destiny_before_a=("half",),
                                     destiny_before_b=("disadvantage",)),
        lambda: roll_conflict(pool_of(4), pool_of(3), SeededDice(1), rules=TIERED,
                              destiny_before_a=("half",), destiny_before_b=("disadvantage",)),
    ):  # fmt: skip
        with pytest.raises(RulesError, match="takes half its pool"):
            odds_or_roll()


def _odds(table_rules: Any, **args: Any) -> Any:
    table = Table(rules=table_rules, dice=SeededDice(1), store=MemoryStore())
    return perform("odds.cogent.conflict", args, table).result


def test_the_odds_action_takes_the_tables_edition_unless_given() -> None:
    """A tiered table's odds are tiered without asking; a request's edition overrides."""
    args = {"pool_a": 1, "pool_b": 1, "advantage_a": True}
    at_tiered = _odds(TIERED, **args)
    assert (at_tiered.p_a, at_tiered.p_b) == (Fraction(2, 3), Fraction(1, 3))
    assert _odds(CORE, edition="tiered", **args) == at_tiered
    with pytest.raises(RulesError, match="core edition has no narrator Advantage"):
        _odds(CORE, **args)
    with pytest.raises(RulesError, match="core edition has no narrator Advantage"):
        _odds(TIERED, edition="core", **args)


def test_cli_odds_of_a_tiered_conflict(run_cli: Any) -> None:
    """`odds cogent conflict --edition tiered` answers every tiered option it lists (1D6 each;
    a 2D6 taken as half is 1 win, which 1D6 can only tie, and a tie is rolled again)."""
    base = ("odds", "cogent", "conflict", "--pool-a", "1", "--pool-b", "1", "--json")
    for option, p_a in (
        (["--advantage-a"], "2/3"), (["--disadvantage-a"], "1/3"), (["--advantage-b"], "1/3"),
        (["--disadvantage-b"], "2/3"), (["--destiny-before-a", "advantage"], "2/3"),
        (["--destiny-before-a", "disadvantage"], "2/3"), (["--destiny-before-b", "die"], "1/5"),
        (["--destiny-before-a", "die,half"], "1/1"),
    ):  # fmt: skip
        out = run_cli(*base, "--edition", "tiered", *option)
        assert out.status == 0, (option, out.stderr)
        assert out.json()["p_a"] == p_a, option
    core = run_cli(*base, "--advantage-a")
    assert core.status == 2 and "core edition has no narrator Advantage" in core.stderr
