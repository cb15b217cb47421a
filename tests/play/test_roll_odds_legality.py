"""Rolling and odds agree on what is legal (issue 11): for any request, the roll and its exact
odds refuse exactly the same ones, with the same kind of error.

Each mechanic has one definition of its legality (``plan_check``, ``plan_conflict``, boons'
``check_target``, labcats' ``check_roll``) that both the roll and the odds call; these
properties are the proof. A request is generated, rolled with seeded dice and asked for its
odds; both must succeed, or both must fail with the same error type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.dice import SeededDice
from taletable.errors import TaletableError
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.boons.checks import declare_check
from taletable.systems.boons.checks import roll_check as roll_boons
from taletable.systems.boons.odds import pass_probability
from taletable.systems.cogent.checks import roll_check
from taletable.systems.cogent.conflicts import roll_conflict
from taletable.systems.cogent.odds import check_odds, rolled_conflict_odds
from taletable.systems.cogent.pools import pool_of
from taletable.systems.cogent.rules import Rules
from taletable.systems.labcats.odds import labcats_odds
from taletable.systems.labcats.rolls import roll_pool


def refusal(attempt: Callable[[], Any]) -> type[TaletableError] | None:
    """The type of error ``attempt`` refuses with, or None when it is legal."""
    try:
        attempt()
    except TaletableError as error:
        return type(error)
    return None


EDITIONS = st.sampled_from(["core", "tiered"])
POOLS = st.one_of(st.integers(-3, 12), st.integers(-210, 210))
LEVELS = st.one_of(st.integers(-1, 12), st.sampled_from([1000, 1001]))
BEFORE = st.lists(st.sampled_from(["advantage", "die", "half", "disadvantage"]), max_size=3)


@settings(max_examples=300, deadline=None)
@given(
    pool=POOLS, level=LEVELS, edition=EDITIONS, advantage=st.booleans(),
    disadvantage=st.booleans(), before=BEFORE, after=st.integers(-1, 3),
    routine=st.booleans(), seed=st.integers(0, 2**16),
)  # fmt: skip
def test_a_cogent_check_is_refused_by_its_odds_exactly_when_the_roll_refuses_it(
    pool: int, level: int, edition: str, advantage: bool, disadvantage: bool,
    before: list[str], after: int, routine: bool, seed: int,
) -> None:  # fmt: skip
    """Pool, CL, narrator Advantage/Disadvantage (tiered only: "the core edition has no narrator
    Advantage"), destiny before and after, skill specialty: the same refusals for both."""
    rules = Rules(edition=edition)
    options: dict[str, Any] = {
        "rules": rules, "advantage": advantage, "disadvantage": disadvantage,
        "destiny_before": tuple(before), "destiny_after": after, "routine": routine,
    }  # fmt: skip
    rolled = refusal(lambda: roll_check(pool_of(pool), level, SeededDice(seed), **options))
    odds = refusal(lambda: check_odds(pool, level, **options))
    assert rolled is odds


def test_core_advantage_is_refused_by_the_odds_as_by_the_roll() -> None:
    """The issue's case: ``check_odds(4, 3, advantage=True)`` answered 16/27 in core."""
    assert refusal(lambda: check_odds(4, 3, advantage=True)) is not None
    assert refusal(lambda: check_odds(4, 3, advantage=True)) is refusal(
        lambda: roll_check(pool_of(4), 3, SeededDice(1), advantage=True)
    )


@settings(max_examples=300, deadline=None)
@given(
    pool_a=POOLS, pool_b=POOLS, edition=EDITIONS, flags=st.lists(st.booleans(), min_size=4,
    max_size=4), before_a=BEFORE, before_b=BEFORE, aware=st.booleans(), seed=st.integers(0, 99),
)  # fmt: skip
def test_a_conflict_is_refused_by_its_odds_exactly_when_the_roll_refuses_it(
    pool_a: int, pool_b: int, edition: str, flags: list[bool], before_a: list[str],
    before_b: list[str], aware: bool, seed: int,
) -> None:  # fmt: skip
    """Both pools, each side's Advantage/Disadvantage and destiny before (002 > Conflicts)."""
    options: dict[str, Any] = {
        "rules": Rules(edition=edition), "advantage_a": flags[0], "disadvantage_a": flags[1],
        "advantage_b": flags[2], "disadvantage_b": flags[3],
        "destiny_before_a": tuple(before_a), "destiny_before_b": tuple(before_b),
        "aware_and_active": aware,
    }  # fmt: skip

    def roll() -> Any:
        a, b = pool_of(pool_a, field="pool_a"), pool_of(pool_b, field="pool_b")
        return roll_conflict(a, b, SeededDice(seed), **options)

    rolled = refusal(roll)
    odds = refusal(lambda: rolled_conflict_odds(pool_a, pool_b, **options))
    assert rolled is odds


@settings(max_examples=200, deadline=None)
@given(
    bonus=st.integers(-1100, 1100), boons=st.integers(-1, 7), banes=st.integers(-1, 7),
    passive=st.booleans(), target=st.integers(-1100, 1100), seed=st.integers(0, 99),
)  # fmt: skip
def test_a_boons_check_is_refused_by_its_odds_exactly_when_the_roll_refuses_it(
    bonus: int, boons: int, banes: int, passive: bool, target: int, seed: int
) -> None:
    """Bonus, boons (0 to 6), banes (0 to 6), passive, target (within ±1000): 003 > Checks."""

    def declared() -> Any:
        return declare_check(bonus, boons, banes, passive=passive)

    rolled = refusal(lambda: roll_boons(declared(), target, SeededDice(seed)))
    odds = refusal(lambda: pass_probability(declared(), target))
    assert rolled is odds


DICE = st.sampled_from([4, 6, 8, 10, 12, 3, 20])
LABCATS_POOLS = st.one_of(st.lists(DICE, max_size=4), st.just([6] * 41))


@settings(max_examples=200, deadline=None)
@given(pool=LABCATS_POOLS, resources=LABCATS_POOLS, add=st.integers(-1, 2), seed=st.integers(0, 99))
def test_a_labcats_roll_is_refused_by_its_odds_exactly_when_the_roll_refuses_it(
    pool: list[int], resources: list[int], add: int, seed: int
) -> None:
    """At least one main die, at most 40 in each pool, dice of the system (004 > Rolling)."""
    rolled = refusal(lambda: roll_pool(pool, SeededDice(seed), resources, add=add))
    odds = refusal(lambda: labcats_odds(pool, 7, resources, add=add))
    assert rolled is odds


@settings(max_examples=200, deadline=None)
@given(
    pool=POOLS, level=LEVELS, edition=EDITIONS, advantage=st.booleans(),
    disadvantage=st.booleans(), before=BEFORE, after=st.integers(-1, 3),
    routine=st.booleans(), seed=st.integers(0, 2**16),
)  # fmt: skip
def test_the_play_actions_cogent_check_and_odds_cogent_refuse_alike(
    pool: int, level: int, edition: str, advantage: bool, disadvantage: bool,
    before: list[str], after: int, routine: bool, seed: int,
) -> None:  # fmt: skip
    """What both shells call: ``cogent.check`` and ``odds.cogent`` with the same arguments."""
    args = {
        "pool": pool, "cl": level, "advantage": advantage, "disadvantage": disadvantage,
        "destiny_before": ",".join(before), "destiny_after": after, "routine": routine,
    }  # fmt: skip
    table = Table(rules=Rules(edition=edition), dice=SeededDice(seed), store=MemoryStore())
    rolled = refusal(lambda: perform("cogent.check", args, table))
    odds = refusal(lambda: perform("odds.cogent", args, table))
    assert rolled is odds


@settings(max_examples=150, deadline=None)
@given(
    pool_a=POOLS, pool_b=POOLS, edition=EDITIONS, flags=st.lists(st.booleans(), min_size=4,
    max_size=4), before_a=BEFORE, before_b=BEFORE, seed=st.integers(0, 99),
)  # fmt: skip
def test_the_play_actions_cogent_conflict_and_its_odds_refuse_alike(
    pool_a: int, pool_b: int, edition: str, flags: list[bool], before_a: list[str],
    before_b: list[str], seed: int,
) -> None:  # fmt: skip
    """``cogent.conflict`` and ``odds.cogent.conflict`` with the same arguments."""
    args = {
        "pool_a": pool_a, "pool_b": pool_b, "advantage_a": flags[0], "disadvantage_a": flags[1],
        "advantage_b": flags[2], "disadvantage_b": flags[3],
        "destiny_before_a": ",".join(before_a), "destiny_before_b": ",".join(before_b),
    }  # fmt: skip
    table = Table(rules=Rules(edition=edition), dice=SeededDice(seed), store=MemoryStore())
    rolled = refusal(lambda: perform("cogent.conflict", args, table))
    odds = refusal(lambda: perform("odds.cogent.conflict", args, table))
    assert rolled is odds
