"""Destiny points before and after a roll, both editions."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.tables import tier_resources
from taletable.systems.cogent.checks import roll_check
from taletable.systems.cogent.destiny import DestinyPurse, parse_after_modes, parse_before_modes
from taletable.systems.cogent.pools import pool_of
from taletable.systems.cogent.rules import CORE, TIERED, Edition, Rules
from taletable.systems.cogent.tables import destiny_limit


def test_core_destiny_before_wins_on_three() -> None:
    """002 > Destiny Points: a point before the roll makes 3-6 wins."""
    result = roll_check(pool_of(4), 3, GivenFaces([3, 3, 4, 1]), destiny_before=["advantage"])
    assert (result.win_on, result.wins, result.passed) == (3, 3, True)
    assert [(spend.when, spend.mode) for spend in result.destiny] == [("before", "advantage")]


def test_core_destiny_before_only_once() -> None:
    """A second advantage point gains nothing and is refused."""
    with pytest.raises(RulesError, match="only be gained once"):
        roll_check(pool_of(4), 3, GivenFaces([1] * 4), destiny_before=["advantage", "advantage"])


def test_core_destiny_after_adds_wins_uncapped_and_capped() -> None:
    """002 > Destiny Points: +1 win per point; the cap option stops at the dice rolled."""
    free = roll_check(pool_of(3), 4, GivenFaces([4, 5, 6]), destiny_after=2)
    assert (free.dice_wins, free.wins, free.passed) == (3, 5, True)
    capped = roll_check(
        pool_of(3), 4, GivenFaces([4, 5, 6]), destiny_after=2, rules=Rules(destiny_after_cap=True)
    )
    assert (capped.wins, capped.passed) == (3, False)


def test_destiny_win_saves_a_critical_failure() -> None:
    """A destiny win after a roll of no wins means the result has a win: not critical."""
    result = roll_check(pool_of(3), 2, GivenFaces([1, 1, 1]), destiny_after=1)
    assert (result.wins, result.critical_failure) == (1, False)


def test_tiered_destiny_die_and_half() -> None:
    """000 > Before a Dice Roll: +1D6 per point; 'half' takes half the pool without rolling."""
    die = roll_check(
        pool_of(4), 3, GivenFaces([4, 4, 4, 1, 1]), rules=TIERED, destiny_before=["die"]
    )
    assert (die.pool, die.wins, die.passed) == (5, 3, True)
    half = roll_check(pool_of(7), 3, GivenFaces([]), rules=TIERED, destiny_before=["half"])
    assert (half.rolls, half.wins, half.passed, half.critical_failure) == ((), 3, True, False)
    both = roll_check(pool_of(7), 4, GivenFaces([]), rules=TIERED, destiny_before=["die", "half"])
    assert both.wins == 4


def test_tiered_destiny_disadvantage_needs_an_opposed_roll() -> None:
    """Disadvantage is given to the target of an opposed roll, not a CL."""
    with pytest.raises(RulesError, match="opposed roll"):
        roll_check(
            pool_of(4), 3, GivenFaces([1] * 4), rules=TIERED, destiny_before=["disadvantage"]
        )


def test_engine_refuses_the_other_editions_spends() -> None:
    """Called as a library (no CLI parsing), a spend the edition lacks is still refused."""
    with pytest.raises(RulesError, match="core edition has no destiny spend 'die'"):
        roll_check(pool_of(3), 2, GivenFaces([4] * 4), destiny_before=["die"])
    with pytest.raises(RulesError, match="core edition has no destiny spend 'reroll'"):
        roll_check(pool_of(3), 2, GivenFaces([1] * 6), destiny_after=["reroll"])
    with pytest.raises(RulesError, match="tiered edition has no destiny spend 'win'"):
        roll_check(pool_of(3), 2, GivenFaces([1] * 3), rules=TIERED, destiny_after=["win"])
    with pytest.raises(InputError, match="0 to 50"):
        roll_check(pool_of(3), 2, GivenFaces([1] * 3), destiny_after=10**9)


def test_half_with_advantage_is_refused() -> None:
    """Taking half the pool replaces the roll, so advantage cannot join it."""
    with pytest.raises(RulesError, match="replaces the roll"):
        roll_check(
            pool_of(4), 3, GivenFaces([]), rules=TIERED, destiny_before=["half", "advantage"]
        )


def test_tiered_after_by_count_rerolls_then_raises() -> None:
    """RULINGS.md: a number of tiered points rerolls while failing, then raises a success."""
    result = roll_check(
        pool_of(3), 2, GivenFaces([1, 1, 1, 4, 4, 1]), rules=TIERED, destiny_after=2
    )
    assert [spend.mode for spend in result.destiny] == ["reroll", "raise"]
    assert [roll.faces for roll in result.rolls] == [(1, 1, 1), (4, 4, 1)]
    assert (result.wins, result.margin) == (3, 1)


def test_tiered_lower_never_turns_failure_into_success() -> None:
    """000 > After a Dice Roll: lower a failure, but never past -1."""
    lowered = roll_check(
        pool_of(4), 3, GivenFaces([4, 1, 1, 1]), rules=TIERED, destiny_after=["lower"]
    )
    assert (lowered.margin, lowered.passed) == (-1, False)
    with pytest.raises(RulesError, match="cannot be lowered"):
        roll_check(
            pool_of(4), 3, GivenFaces([4, 1, 1, 1]), rules=TIERED, destiny_after=["lower", "lower"]
        )


def test_tiered_raise_needs_a_success() -> None:
    """'raise' on a failure is refused."""
    with pytest.raises(RulesError, match="needs a narrative success"):
        roll_check(pool_of(3), 3, GivenFaces([1, 1, 1]), rules=TIERED, destiny_after=["raise"])


def test_temporary_destiny_pays_only_for_dice_and_lowering() -> None:
    """000 > Restrictions: temporary points add dice or lower a failure; not advantage."""
    ok = roll_check(
        pool_of(3), 2, GivenFaces([4, 4, 1, 1]), rules=TIERED, destiny_before=["die"],
        purse=DestinyPurse(points=0, temporary=1),
    )  # fmt: skip
    assert ok.destiny[0].temporary
    with pytest.raises(RulesError, match="only 0 are available"):
        roll_check(
            pool_of(3), 2, GivenFaces([4, 4, 1]), rules=TIERED, destiny_before=["advantage"],
            purse=DestinyPurse(points=0, temporary=1),
        )  # fmt: skip


def test_temporary_destiny_out_of_range_is_refused() -> None:
    """Temporary destiny is an assist's result (within ±200): 10^20 points is an InputError."""
    with pytest.raises(InputError, match="temporary_destiny: 100000000000000000000 is out"):
        roll_check(
            pool_of(3), 2, GivenFaces([1] * 3), rules=TIERED,
            purse=DestinyPurse(points=0, temporary=10**20),
        )  # fmt: skip


def test_destiny_only_on_player_pools_in_tiered() -> None:
    """000 > Restrictions: destiny is spent only on pools the player initiated."""
    with pytest.raises(RulesError, match="initiated by the player"):
        roll_check(
            pool_of(3), 2, GivenFaces([1] * 4), rules=TIERED, destiny_before=["die"],
            player_initiated=False,
        )  # fmt: skip


def test_spends_beyond_points_held_are_refused() -> None:
    """Spending more points than held is refused and says how many are available."""
    with pytest.raises(RulesError, match="only 1 are available"):
        roll_check(
            pool_of(3), 2, GivenFaces([1] * 3), destiny_after=2, purse=DestinyPurse(points=1)
        )


def test_parsing_modes_by_edition() -> None:
    """Each edition's modes are accepted; others are refused with the allowed list."""
    assert parse_before_modes("die,advantage", TIERED) == ("die", "advantage")
    assert parse_after_modes("3", CORE) == 3
    assert parse_after_modes("reroll,lower", TIERED) == ("reroll", "lower")
    with pytest.raises(RulesError, match="no destiny-before 'die'"):
        parse_before_modes("die", CORE)
    with pytest.raises(
        InputError,
        match="'luck' is not a destiny spend; expected die or advantage or disadvantage or half$",
    ):
        parse_before_modes("luck", TIERED)
    with pytest.raises(InputError, match="'luck' is not a destiny spend; expected advantage$"):
        parse_before_modes("luck", CORE)
    with pytest.raises(InputError, match="expected a number of points or win$"):
        parse_after_modes("+x", CORE)
    assert parse_after_modes(" +2 ", CORE) == 2
    with pytest.raises(RulesError, match="no destiny-after 'reroll'"):
        parse_after_modes("reroll", CORE)
    with pytest.raises(InputError, match="cannot spend -1"):
        parse_after_modes("-1", CORE)
    with pytest.raises(RulesError, match="use a number of points or win$"):
        parse_after_modes("lower", CORE)
    with pytest.raises(InputError, match="cannot spend 51 points; expected 0 to 50"):
        parse_before_modes(",".join(["die"] * 51), TIERED)


@pytest.mark.parametrize(
    ("edition", "mode", "start", "maximum"),
    [
        ("core", "fast_play", 3, 3),  # 002 > Awarding Destiny Points: 3, also the maximum
        ("core", "initiate", 3, 3),
        ("core", "adept", 3, 3),
        ("core", "veteran", 3, 3),
        ("core", "veteran_glory_days", 1, 1),  # 002 > Veteran Tier > Glory Days: a maximum of ONE
        ("tiered", "tier_0", 0, 1),  # 000 > Finishing Touches: 0 1 2 3 4 5 ...
        ("tiered", "tier_1", 0, 2),
        ("tiered", "tier_2", 1, 3),
        ("tiered", "tier_3", 2, 4),
        ("tiered", "tier_4", 3, 5),
        ("tiered", "tier_5", 5, 5),
    ],
)
def test_destiny_start_and_maximum(edition: Edition, mode: str, start: int, maximum: int) -> None:
    """Destiny at the start and at most, by edition and mode or tier, as the books give them."""
    limit = destiny_limit(edition, mode)
    assert (limit.start, limit.maximum) == (start, maximum)


def test_tiered_destiny_limits_agree_with_the_tier_resources() -> None:
    """000 gives destiny twice (Finishing Touches, Tier Resources "0/1"...): the tables agree."""
    for tier in range(6):
        row = tier_resources().of(tier)
        limit = destiny_limit("tiered", f"tier_{tier}")
        assert (limit.start, limit.maximum) == (row.destiny_start, row.destiny_max)


def test_unknown_destiny_mode_is_refused() -> None:
    """A mode the edition lacks: an InputError that lists the modes there are."""
    with pytest.raises(InputError, match="tier_0 or tier_1"):
        destiny_limit("tiered", "veteran")
