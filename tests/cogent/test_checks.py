"""Cogent checks against a CL: wins, margins, outcomes, specialty, reflex and limits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.checks import MAX_CHALLENGE_LEVEL, roll_check
from taletable.systems.cogent.pools import MAX_POOL, base_pool, pool_of
from taletable.systems.cogent.rules import CORE, TIERED, Rules


@given(
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=30),
    level=st.integers(0, 40),
    tiered=st.booleans(),
    advantage=st.booleans(),
    disadvantage=st.booleans(),
)
def test_margin_and_outcome_are_consistent(
    faces: list[int], level: int, tiered: bool, advantage: bool, disadvantage: bool
) -> None:
    """For any faces and CL: wins count the threshold, margin = wins - CL, pass iff margin >= 0."""
    rules = TIERED if tiered else CORE
    if not tiered:
        advantage = disadvantage = False
    result = roll_check(
        pool_of(len(faces)), level, GivenFaces(faces), rules=rules,
        advantage=advantage, disadvantage=disadvantage,
    )  # fmt: skip
    threshold = 3 if advantage and not disadvantage else 5 if disadvantage and not advantage else 4
    assert result.win_on == threshold
    assert result.wins == sum(face >= threshold for face in faces)
    assert result.margin == result.wins - level
    assert result.passed is (result.wins >= level)
    assert result.critical_failure is (result.wins == 0 and level > 0)
    assert result.faces == tuple(faces)
    assert result.capable is ((len(faces) > level) if tiered else None)


@given(
    faces=st.lists(st.integers(1, 6), max_size=20),
    level=st.integers(0, 25),
    destiny_after=st.integers(0, 4),
    assist=st.integers(-5, 5),
    cap=st.booleans(),
    advantage=st.booleans(),
    reflex=st.booleans(),
)
def test_core_adjusted_outcomes_are_consistent(
    faces: list[int], level: int, destiny_after: int, assist: int, cap: bool, advantage: bool,
    reflex: bool,
) -> None:  # fmt: skip
    """Core, any faces, CL, destiny (before and after, capped or not), assist and reflex:
    wins = the dice's wins + assist + destiny (never below 0; with the cap, destiny lifts the
    wins no higher than the dice rolled, while an assist's bonus may),
    margin = wins - CL, pass iff margin >= 0, critical iff dice rolled, no wins and a fail,
    and a reflex failure's injury level is the missed margin."""
    result = roll_check(
        pool_of(len(faces)), level, GivenFaces(faces), rules=Rules(destiny_after_cap=cap),
        destiny_before=["advantage"] if advantage else [], destiny_after=destiny_after,
        assist_bonus=assist, reflex=reflex,
    )  # fmt: skip
    dice_wins = sum(face >= (3 if advantage else 4) for face in faces)
    room = max(0, len(faces) - max(0, dice_wins + assist))
    wins = max(0, dice_wins + assist + (min(destiny_after, room) if cap else destiny_after))
    assert (result.dice_wins, result.wins) == (dice_wins, wins)
    assert result.margin == wins - level
    assert result.passed is (wins >= level)
    assert result.critical_failure is (bool(faces) and wins == 0 and wins < level)
    assert result.injury_level == (level - wins if reflex and wins < level else None)


@pytest.mark.parametrize("size", [0, -1, -5])
def test_pool_of_zero_or_fewer_rolls_nothing(size: int) -> None:
    """A pool of zero or fewer dice rolls nothing: 0 wins, passes only CL 0, never critical."""
    at_zero = roll_check(pool_of(size), 0, GivenFaces([]))
    at_one = roll_check(pool_of(size), 1, GivenFaces([]))
    assert (at_zero.faces, at_zero.wins, at_zero.passed) == ((), 0, True)
    assert (at_one.wins, at_one.passed, at_one.critical_failure) == (0, False, False)


def test_pools_beyond_the_limit_either_way_are_refused() -> None:
    """A pool past ±MAX_POOL, however built (a named part of -10^14 dice), is an InputError."""
    with pytest.raises(InputError, match=f"pool: a pool of {-MAX_POOL - 1} dice is under"):
        roll_check(base_pool([("curse", -MAX_POOL - 4)]), 1, GivenFaces([]))
    with pytest.raises(InputError, match=f"pool: a pool of {MAX_POOL + 1} dice is over"):
        roll_check(pool_of(MAX_POOL).plus("luck", 1), 1, GivenFaces([]))
    lowest = roll_check(base_pool([("curse", -MAX_POOL - 3)]), 0, GivenFaces([]))
    assert (lowest.pool, lowest.wins, lowest.passed) == (-MAX_POOL, 0, True)


def test_skill_specialty_passes_routine_low_cl_without_rolling() -> None:
    """002 > Skill Specialty: pool 8+, CL 3 or less, routine: automatic pass, no dice."""
    result = roll_check(pool_of(8), 3, GivenFaces([]), routine=True)
    assert (result.automatic, result.passed, result.faces, result.wins) == (True, True, (), None)
    assert result.outcome == "automatic pass (skill specialty)"


@pytest.mark.parametrize(
    ("pool", "level", "routine", "reflex"),
    [(7, 3, True, False), (8, 4, True, False), (8, 3, False, False), (8, 3, True, True)],
)
def test_skill_specialty_does_not_apply(pool: int, level: int, routine: bool, reflex: bool) -> None:
    """Under 8 dice, above CL 3, under duress or contested, or reflexive: the dice are rolled."""
    result = roll_check(
        pool_of(pool), level, GivenFaces([1] * pool), routine=routine, reflex=reflex
    )
    assert not result.automatic
    assert not result.passed


def test_critical_failure_only_when_no_die_wins() -> None:
    """002 > Narrative Failure: only losses and no wins is a critical failure."""
    assert roll_check(pool_of(3), 2, GivenFaces([1, 2, 3])).critical_failure
    assert not roll_check(pool_of(3), 2, GivenFaces([1, 2, 4])).critical_failure


def test_an_assist_penalty_leaving_no_wins_is_critical() -> None:
    """RULINGS.md "critical failure": the result's wins decide, so a -2 assist that takes a
    roll's one win away leaves only losses (critical), while a +1 assist saves a roll of none."""
    penalised = roll_check(pool_of(3), 2, GivenFaces([4, 1, 1]), assist_bonus=-2)
    assert (penalised.dice_wins, penalised.wins, penalised.critical_failure) == (1, 0, True)
    helped = roll_check(pool_of(3), 2, GivenFaces([1, 1, 1]), assist_bonus=1)
    assert (helped.dice_wins, helped.wins, helped.critical_failure) == (0, 1, False)


def test_challenge_level_range() -> None:
    """CLs outside 0..MAX are refused naming the field."""
    with pytest.raises(InputError, match="cl: a CL of -1"):
        roll_check(pool_of(3), -1, GivenFaces([1, 1, 1]))
    with pytest.raises(InputError, match="out of range"):
        roll_check(pool_of(3), MAX_CHALLENGE_LEVEL + 1, GivenFaces([1, 1, 1]))


def test_core_has_no_narrator_advantage() -> None:
    """The core edition refuses narrator Advantage, pointing at destiny-before."""
    with pytest.raises(RulesError, match="destiny_before advantage"):
        roll_check(pool_of(3), 1, GivenFaces([1, 1, 1]), advantage=True)


def test_advantage_and_disadvantage_cancel() -> None:
    """Tiered Advantage and Disadvantage together: dice win on 4-6 (RULINGS.md)."""
    result = roll_check(
        pool_of(3), 1, GivenFaces([3, 4, 5]), rules=TIERED, advantage=True, disadvantage=True
    )
    assert (result.win_on, result.wins) == (4, 2)


def test_scale_is_tiered_only_and_clamps() -> None:
    """Scale adjusts the margin in the tiered edition and keeps a success a success: by the
    book's arithmetic (the default) a target two scales larger takes 2, by the table 3."""
    result = roll_check(pool_of(3), 1, GivenFaces([4, 1, 1]), rules=TIERED, scale=(-1, 1))
    assert result.scale is not None
    assert (result.scale.adjustment, result.margin, result.passed) == (-2, 0, True)
    table = Rules(edition="tiered", scale_method="table")
    result = roll_check(pool_of(3), 1, GivenFaces([4, 1, 1]), rules=table, scale=(-1, 1))
    assert result.scale is not None
    assert (result.scale.adjustment, result.margin, result.passed) == (-3, 0, True)
    with pytest.raises(RulesError, match="tiered-edition rule"):
        roll_check(pool_of(3), 1, GivenFaces([4, 1, 1]), scale=(0, 1))
    free = roll_check(
        pool_of(3), 1, GivenFaces([4, 1, 1]),
        rules=Rules(edition="tiered", scale_clamp=False, scale_method="table"), scale=(-1, 1),
    )  # fmt: skip
    assert (free.margin, free.passed) == (-3, False)


def test_seeded_checks_are_reproducible() -> None:
    """The same seed gives the same check, faces and all."""
    first = roll_check(pool_of(9), 4, SeededDice(2026))
    again = roll_check(pool_of(9), 4, SeededDice(2026))
    assert first == again
    assert first.dice_source == "seeded"


def test_result_serialises_with_contract_keys() -> None:
    """The JSON record carries the CLI contract's keys (cl, not challenge_level)."""
    data = roll_check(pool_of(4), 2, GivenFaces([4, 4, 1, 1])).to_data()
    for key in ("edition", "pool", "cl", "faces", "win_on", "wins", "margin", "passed"):
        assert key in data
    assert data["critical_failure"] is False
    assert data["breakdown"] == [{"source": "base", "dice": 3}, {"source": "other", "dice": 1}]


def test_scale_adjusts_the_final_result_after_destiny() -> None:
    """RULINGS.md "scale", Order: 'raise' is judged on the unscaled success (0 -> +1), then the
    target two scales larger takes 3 by the table (unclamped: -2), and the reflex injury is that
    margin."""
    rules = Rules(edition="tiered", scale_clamp=False, scale_method="table")
    result = roll_check(
        pool_of(3), 1, GivenFaces([4, 1, 1]), rules=rules,
        destiny_after=["raise"], scale=(-1, 1), reflex=True,
    )  # fmt: skip
    assert result.scale is not None
    assert (result.wins, result.scale.margin_before, result.margin) == (2, 1, -2)
    assert (result.passed, result.injury_level) == (False, 2)
