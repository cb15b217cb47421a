"""Exact duel odds against a Monte Carlo run of the real combat engine."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from taletable.dice import SeededDice
from taletable.store.sheets import load_character, load_statblock
from taletable.systems.cogent.combat.simulate import simulate_duel
from taletable.systems.cogent.odds import wins_distribution
from taletable.systems.cogent.odds.duel import (
    Duelist,
    duel_odds,
    duelist_from_sheet,
    victory_after_policy,
)

TERRIK = load_character("examples/characters/core_sir_terrik.yaml")
THUG = load_statblock("examples/statblocks/thug.yaml").as_character()


def test_policy_spends_strength_then_armour() -> None:
    """The loser spends STR (victory levels), then armour (injury levels), only as needed."""
    assert victory_after_policy(3, 1, 3) == (0, 1, 2)
    assert victory_after_policy(5, 0, 0) == (5, 0, 0)  # a deathblow
    # a deathblow -1 armour: fatal; the STR point would take level 6 to 5, still a deathblow,
    # so it is not spent ("only as far as needed", RULINGS.md "Default policies")
    assert victory_after_policy(6, 1, 1) == (4, 0, 1)
    assert victory_after_policy(5, 1, 1) == (3, 1, 1)  # 5 -> 4 fatal -1 armour: serious
    assert victory_after_policy(1, 2, 0) == (0, 1, 0)


def test_exact_duel_sums_to_one_and_matches_the_engine() -> None:
    """DP probabilities sum to 1; 1,500 seeded engine duels agree within 3.29 standard errors."""
    terrik = duelist_from_sheet(TERRIK, "Arming Sword")
    thug = duelist_from_sheet(THUG, "Club")
    assert terrik == Duelist(pool=8, strength=1, armour=2)
    assert thug == Duelist(pool=6, strength=1)
    odds = duel_odds(terrik, thug, horizon=30)
    assert odds.p_a + odds.p_b + odds.p_undecided == 1
    assert odds.p_a_kills <= odds.p_a
    runs = 1500
    wins = sum(
        simulate_duel(
            (TERRIK, "Arming Sword"), (THUG, "Club"), SeededDice(seed), max_rounds=30
        ).winner
        == "a"
        for seed in range(runs)
    )
    exact = float(odds.p_a)
    assert abs(wins / runs - exact) <= 3.29 * (exact * (1 - exact) / runs) ** 0.5 + 1 / runs


def test_equal_duelists_are_even() -> None:
    """Identical duelists have identical chances."""
    odds = duel_odds(Duelist(pool=6, strength=1, armour=1), Duelist(pool=6, strength=1, armour=1))
    assert odds.p_a == odds.p_b


def test_duel_cli(run_cli: Any) -> None:
    """`odds cogent duel` reads sheets and statblocks."""
    out = run_cli(
        "odds",
        "cogent",
        "duel",
        "--a",
        "examples/characters/core_sir_terrik.yaml",
        "--b",
        "examples/statblocks/thug.yaml:Club",
        "--json",
    )
    assert out.status == 0, out.stderr
    assert 0.9 < out.json()["p_a_float"] < 1


def reference_duel(a: Duelist, b: Duelist, horizon: int) -> tuple[Fraction, Fraction, Fraction]:
    """The duel with plain Fractions, state by state (slow; small duels only)."""
    states = {(a.injury_penalty, a.strength, a.armour, b.injury_penalty, b.strength, b.armour):
              Fraction(1)}  # fmt: skip
    p_a = p_b = Fraction(0)
    for _ in range(horizon):
        nxt: dict[tuple[int, ...], Fraction] = {}
        for state, weight in states.items():
            pa, sa, ra, pb, sb, rb = state
            exchange = wins_distribution(max(0, a.pool - pa)) - wins_distribution(
                max(0, b.pool - pb)
            )
            for difference, p in exchange.items():
                if difference == 0:
                    key: tuple[int, ...] = state
                elif difference > 0:
                    injury, s, r = victory_after_policy(difference, sb, rb)
                    if injury >= 4:
                        p_a += weight * p
                        continue
                    key = (pa, sa, ra, pb + injury, sb - s, rb - r)
                else:
                    injury, s, r = victory_after_policy(-difference, sa, ra)
                    if injury >= 4:
                        p_b += weight * p
                        continue
                    key = (pa + injury, sa - s, ra - r, pb, sb, rb)
                nxt[key] = nxt.get(key, Fraction(0)) + weight * p
        states = nxt
    return p_a, p_b, sum(states.values(), Fraction(0))


@pytest.mark.parametrize(
    ("a", "b", "horizon"),
    [
        (Duelist(pool=5, armour=1, injury_penalty=1), Duelist(pool=7, strength=2), 12),
        (Duelist(pool=4, strength=1, armour=1), Duelist(pool=4, strength=1, armour=1), 15),
        (Duelist(pool=0), Duelist(pool=3), 5),
    ],
)
def test_integer_dynamic_programme_equals_plain_fractions(
    a: Duelist, b: Duelist, horizon: int
) -> None:
    """The fast DP (integers over one denominator per round) equals a plain Fraction DP."""
    odds = duel_odds(a, b, horizon=horizon)
    assert (odds.p_a, odds.p_b, odds.p_undecided) == reference_duel(a, b, horizon)


def test_no_dice_on_either_side_is_undecided_for_ever() -> None:
    """Penalties past the pool leave no dice: nobody can win, all mass is undecided."""
    odds = duel_odds(Duelist(pool=3, injury_penalty=4), Duelist(pool=2, injury_penalty=2))
    assert (odds.p_a, odds.p_b, odds.p_undecided) == (0, 0, 1)


def test_a_long_horizon_stays_exact() -> None:
    """150 rounds: the probabilities still sum to exactly one, and more rounds settle more."""
    a, b = Duelist(pool=8, strength=1, armour=2), Duelist(pool=10, strength=2)
    long, short = duel_odds(a, b, horizon=150), duel_odds(a, b, horizon=30)
    assert long.p_a + long.p_b + long.p_undecided == 1
    assert long.p_undecided < short.p_undecided
    assert long.p_a >= short.p_a and long.p_b >= short.p_b
