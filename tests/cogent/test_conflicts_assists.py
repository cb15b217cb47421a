"""Conflicts, powerless targets, assists, collaborations, scale and the destiny roll."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.assists import (
    assist_bonus,
    convert_assist,
    roll_assist,
    roll_collaboration,
)
from taletable.systems.cogent.conflicts import (
    MAX_TIE_REROLLS,
    powerless_challenge_level,
    roll_conflict,
)
from taletable.systems.cogent.destiny_roll import chance_to_challenge_level, roll_destiny
from taletable.systems.cogent.pools import pool_of
from taletable.systems.cogent.rules import CORE, TIERED, Rules
from taletable.systems.cogent.scale import scale_adjustment


def test_conflict_most_wins_wins() -> None:
    """002 > Conflicts: the difference in wins is the victory level."""
    result = roll_conflict(pool_of(4), pool_of(3), GivenFaces([4, 5, 6, 1]), GivenFaces([4, 1, 1]))
    assert (result.a_wins, result.b_wins, result.winner, result.victory_level) == (3, 1, "a", 2)
    assert result.rerolls == 0


def test_conflict_ties_are_rerolled_and_recorded() -> None:
    """Ties between aware, active parties are rerolled; each reroll is recorded."""
    result = roll_conflict(
        pool_of(3), pool_of(3),
        GivenFaces([4, 1, 1, 4, 4, 1, 1, 1, 1]), GivenFaces([4, 1, 1, 4, 4, 1, 4, 1, 1]),
    )  # fmt: skip
    assert result.rerolls == 2
    assert [exchange.tied for exchange in result.exchanges] == [True, True, False]
    assert (result.winner, result.victory_level) == ("b", 1)


def test_conflict_tie_stands_when_not_aware() -> None:
    """When a party is not aware and active, a tie stands with no winner."""
    result = roll_conflict(
        pool_of(3), pool_of(3), GivenFaces([4, 1, 1]), GivenFaces([4, 1, 1]), aware_and_active=False
    )
    assert (result.winner, result.victory_level, result.rerolls) == (None, 0, 0)


def test_conflict_with_no_dice_on_either_side_stands() -> None:
    """Two empty pools cannot break a tie: it stands rather than looping."""
    result = roll_conflict(pool_of(0), pool_of(-1), GivenFaces([]))
    assert (result.winner, result.rerolls) == (None, 0)


def test_tiered_destiny_disadvantage_goes_to_the_other_side() -> None:
    """000 > Before a Dice Roll: a point gives the target of an opposed roll Disadvantage, so b's
    5s and 6s win and its 4s do not; a's own dice still win on 4-6."""
    result = roll_conflict(
        pool_of(3), pool_of(3), GivenFaces([4, 4, 1]), GivenFaces([4, 4, 5]),
        rules=TIERED, destiny_before_a=["disadvantage"],
    )  # fmt: skip
    assert (result.win_on_a, result.win_on_b) == (4, 5)
    assert (result.a_wins, result.b_wins, result.winner) == (2, 1, "a")
    assert [spend.mode for spend in result.destiny_a] == ["disadvantage"]
    plain = roll_conflict(
        pool_of(3), pool_of(3), GivenFaces([4, 4, 1]), GivenFaces([4, 4, 5]), rules=TIERED
    )
    assert (plain.a_wins, plain.b_wins, plain.winner) == (2, 3, "b")


def test_destiny_before_in_a_conflict_by_edition() -> None:
    """Each side's spends: core advantage (3-6); tiered +1D6 and half the pool (no roll)."""
    core = roll_conflict(
        pool_of(2), pool_of(2), GivenFaces([3, 3]), GivenFaces([4, 1]),
        destiny_before_a=["advantage"],
    )  # fmt: skip
    assert (core.win_on_a, core.a_wins, core.b_wins, core.winner) == (3, 2, 1, "a")
    die = roll_conflict(
        pool_of(2), pool_of(3), GivenFaces([4, 4, 4]), GivenFaces([4, 4, 1]),
        rules=TIERED, destiny_before_a=["die"],
    )  # fmt: skip
    assert (die.pool_a, die.a_wins, die.b_wins) == (3, 3, 2)
    half = roll_conflict(
        pool_of(7), pool_of(4), GivenFaces([]), GivenFaces([4, 4, 4, 1, 4, 4, 1, 1]),
        rules=TIERED, destiny_before_a=["half"],
    )  # fmt: skip
    # a takes 7 // 2 = 3 wins without rolling; b's 3 ties, so b rerolls against the same 3
    assert [(ex.a.faces, ex.a.wins, ex.b.wins) for ex in half.exchanges] == [((), 3, 3), ((), 3, 2)]
    assert (half.rerolls, half.winner, half.victory_level) == (1, "a", 1)
    both_half = roll_conflict(
        pool_of(6), pool_of(6), GivenFaces([]), rules=TIERED,
        destiny_before_a=["half"], destiny_before_b=["half"],
    )  # fmt: skip
    assert (both_half.winner, both_half.rerolls) == (None, 0)  # nobody rolls: the tie stands


def test_conflict_destiny_refusals() -> None:
    """Core has no narrator Advantage nor tiered spends; Disadvantage is given once."""
    with pytest.raises(RulesError, match="no narrator Advantage"):
        roll_conflict(pool_of(2), pool_of(2), GivenFaces([4, 4]), GivenFaces([4, 1]),
                      advantage_a=True)  # fmt: skip
    with pytest.raises(RulesError, match="no destiny spend 'die'"):
        roll_conflict(pool_of(2), pool_of(2), GivenFaces([4, 4]), destiny_before_a=["die"])
    with pytest.raises(RulesError, match="already has Disadvantage"):
        roll_conflict(
            pool_of(2), pool_of(2), GivenFaces([4, 4, 4, 4]), rules=TIERED,
            disadvantage_b=True, destiny_before_a=["disadvantage"],
        )  # fmt: skip


def test_given_faces_running_out_on_a_tie_reroll_say_so() -> None:
    """Physical dice that tie need more faces: the error says a tie reroll asked for them."""
    with pytest.raises(InputError, match="the roll tied, so tie reroll 1 is rolled: .*add 3 more"):
        roll_conflict(pool_of(3), pool_of(2), GivenFaces([1, 1, 1]), GivenFaces([1, 1]))


def test_conflict_reroll_limit() -> None:
    """Ties are rerolled at most MAX_TIE_REROLLS times, then the tie stands."""
    faces = [1] * (MAX_TIE_REROLLS + 1)
    result = roll_conflict(pool_of(1), pool_of(1), GivenFaces(faces), GivenFaces(faces))
    assert result.rerolls == MAX_TIE_REROLLS
    assert result.winner is None


@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32))
def test_conflict_victory_level_is_difference(pool_a: int, pool_b: int, seed: int) -> None:
    """For any pools: victory level = |a - b|, the winner has more wins, ties only when standing."""
    result = roll_conflict(pool_of(pool_a), pool_of(pool_b), SeededDice(seed))
    assert result.victory_level == abs(result.a_wins - result.b_wins)
    if result.winner == "a":
        assert result.a_wins > result.b_wins
    elif result.winner == "b":
        assert result.b_wins > result.a_wins
    else:
        assert result.rerolls == MAX_TIE_REROLLS


@pytest.mark.parametrize(
    ("pool", "level"), [(0, 0), (1, 0), (2, 0), (3, 1), (6, 2), (7, 3), (8, 3)]
)
def test_powerless_target_cl_is_lower_than_half(pool: int, level: int) -> None:
    """002 > Conflicts: a powerless target's CL is lower than half its pool."""
    assert powerless_challenge_level(pool) == level
    assert level < pool / 2 or pool == 0


def test_powerless_target_only_for_players_on_npcs() -> None:
    """Never the other way around."""
    with pytest.raises(RulesError, match="only for players acting on NPCs"):
        powerless_challenge_level(6, actor="npc", target="player")


@given(st.integers(0, 50), st.integers(3, 20))
def test_assist_bonus_never_exceeds_cl(wins: int, level: int) -> None:
    """The bonus is wins - CL, within ±CL."""
    bonus, capped = assist_bonus(wins, level)
    assert -level <= bonus <= level
    assert capped is (bonus != wins - level)


def test_assist_below_cl_three_is_refused() -> None:
    """RULINGS.md: an assist's CL is at least 3."""
    with pytest.raises(RulesError, match="set the assist CL to 3 or more"):
        roll_assist(pool_of(5), 2, GivenFaces([1] * 5))
    with pytest.raises(InputError, match="helpers"):
        roll_assist(pool_of(5), 3, GivenFaces([1] * 5), helpers=-1)


def test_tiered_assist_conversions() -> None:
    """000 > Assists: destiny and dice convert 1 to 1; CL by half toward zero unless set."""
    assert convert_assist(3, "dice").modifier_dice == 3
    assert convert_assist(-2, "destiny").temporary_destiny == -2
    assert convert_assist(-3, "cl").challenge_level_change == 1
    assert convert_assist(1, "cl").challenge_level_change == 0
    assert convert_assist(4, "cl", challenge_level_change=-3).challenge_level_change == -3
    with pytest.raises(InputError, match="challenge_level_change: -1001 is out of range"):
        convert_assist(4, "cl", challenge_level_change=-1001)


def test_collaboration_limits() -> None:
    """A collaboration needs at least one character."""
    with pytest.raises(InputError, match="pools"):
        roll_collaboration([], 3, GivenFaces([]))
    single = roll_collaboration([3], 2, GivenFaces([4, 4, 1]))
    assert (single.challenge_level, single.wins, single.passed) == (2, 2, True)
    with pytest.raises(InputError, match="600 x 2 characters = 1200"):
        roll_collaboration([4, 4], 600, GivenFaces([]))


def test_scale_table_symmetric_and_bounded() -> None:
    """000 > Scale: the table reads by relative scale; past 6 apart is refused."""
    table = Rules(edition="tiered", scale_method="table")
    assert scale_adjustment(0, 6, table) == -15
    assert scale_adjustment(6, 0, table) == 15
    assert scale_adjustment(3, 3, table) == 0
    assert scale_adjustment(2, 0, Rules(edition="tiered", scale_method="difference")) == 2
    assert scale_adjustment(2, 0, TIERED) == 2  # the default is the examples' arithmetic
    with pytest.raises(InputError, match="off the table"):
        scale_adjustment(0, 7, table)
    with pytest.raises(InputError, match="off the table"):  # the same range read by difference
        scale_adjustment(10**6, 0, Rules(edition="tiered", scale_method="difference"))


@pytest.mark.parametrize(
    ("chance", "table", "level"),
    [(5, 5, 20), (100, 100, 1), (50, 50, 11), (12, 10, 19), (13, 15, 18), (1, 5, 20), (75, 75, 6)],
)
def test_destiny_roll_chance_table(chance: int, table: int, level: int) -> None:
    """000 > Destiny Rolls: the % table, other chances to the nearest 5%."""
    assert chance_to_challenge_level(chance) == (table, level)


def test_destiny_roll_edition_rules() -> None:
    """Core has no CL; tiered rolls >= CL pass, and has no criticals."""
    with pytest.raises(RulesError, match="core destiny roll has no CL"):
        roll_destiny(GivenFaces([10]), CORE, chance=50)
    with pytest.raises(InputError, match="chance"):
        roll_destiny(GivenFaces([10]), TIERED, chance=0)
    at_cl = roll_destiny(GivenFaces([16]), TIERED, challenge_level=16)
    assert (at_cl.passed, at_cl.margin) == (True, 0)
    twenty = roll_destiny(GivenFaces([20]), TIERED, chance=50)
    assert twenty.critical is None
    assert roll_destiny(GivenFaces([5]), CORE).band == "against"
    assert roll_destiny(GivenFaces([15]), CORE).band == "for"


def test_tiered_destiny_roll_criticals_switch() -> None:
    """RULINGS.md "tiered destiny roll criticals": off by default (000 names none); on, 1 and 20
    are criticals as in the core roll, and the CL still decides the pass."""
    rules = Rules(edition="tiered", tiered_destiny_criticals=True)
    assert roll_destiny(GivenFaces([20]), TIERED, chance=5).critical is None
    twenty = roll_destiny(GivenFaces([20]), rules, chance=5)
    one = roll_destiny(GivenFaces([1]), rules, chance=100)
    middle = roll_destiny(GivenFaces([19]), rules, chance=10)
    assert (twenty.critical, twenty.passed) == ("success", True)
    assert (one.critical, one.passed) == ("failure", True)  # CL 1: a 1 passes, critically
    assert middle.critical is None
