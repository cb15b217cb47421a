"""Group challenge failures (issue 23.6; 003 > Group Challenges; RULINGS.md "group challenge
failures"): how a missed check counts, by reading, in the roll, the request, the CLI and the
exact odds.

The book: "each check which surpassed its target Difficulty Rating counts as one success, a roll
which exceeds the target by more than 5 counts as 2 successes, a roll which is more than 5 below
the target counts as two failures. Count the total number of successes and compare that number
to the following Group Challenge table".
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError
from taletable.play import Table, perform
from taletable.play.results import read_result
from taletable.store import MemoryStore
from taletable.systems.boons.checks import BoonsCheck, roll_check
from taletable.systems.boons.group import (
    GroupChallenge,
    check_successes,
    start_group_challenge,
    successes_for_margin,
    successes_required,
)
from taletable.systems.boons.odds import group_challenge_odds

READINGS = ("offset", "none", "big-only")
DIFFICULTIES = ("easy", "moderate", "challenging", "formidable", "impossible")
#: The book's counts, written out once for the tests: (reached, beaten by more than 5) and, by
#: reading, (missed within 5, missed by more than 5).
MISSES = {"offset": (-1, -2), "none": (0, 0), "big-only": (0, -2)}


def _count(margin: int, failures: str) -> int:
    """The book's words as a test's own table (not the engine's function)."""
    near, wide = MISSES[failures]
    if margin >= 0:
        return 2 if margin > 5 else 1
    return wide if margin < -5 else near


def _table() -> Table:
    return Table(dice=SeededDice(1), store=MemoryStore())


@pytest.mark.parametrize(
    ("margin", "offset", "none", "big_only"),
    [(9, 2, 2, 2), (6, 2, 2, 2), (5, 1, 1, 1), (1, 1, 1, 1), (0, 1, 1, 1),
     (-1, -1, 0, 0), (-5, -1, 0, 0), (-6, -2, 0, -2), (-20, -2, 0, -2)],
)  # fmt: skip
def test_the_books_counts_under_each_reading(
    margin: int, offset: int, none: int, big_only: int
) -> None:
    """003: a roll "which exceeds the target by more than 5 counts as 2 successes", "more than 5
    below the target counts as two failures": by default an ordinary miss is one failure, each
    failure taking a success away; ``none`` counts no failure; ``big-only`` only the two of a
    miss beyond 5."""
    assert successes_for_margin(margin) == offset
    counted = [successes_for_margin(margin, reading) for reading in READINGS]
    assert counted == [offset, none, big_only]


def test_exactly_meeting_the_target_is_a_success_as_for_a_single_check() -> None:
    """003: each check "which surpassed its target": a total equal to the target is a success
    of the group, as it is for a single check (RULINGS.md "success at the target", Irzi's "25
    or higher"); one below is a miss, and a failure by default."""
    at = roll_check(BoonsCheck(bonus=9), 25, GivenFaces([6, 6, 4]))
    below = roll_check(BoonsCheck(bonus=9), 25, GivenFaces([6, 6, 3]))
    assert (at.total, at.margin, at.passed) == (25, 0, True)
    assert (below.total, below.margin, below.passed) == (24, -1, False)
    for reading in READINGS:
        assert check_successes(at, reading) == 1
    assert [check_successes(below, reading) for reading in READINGS] == [-1, 0, 0]


def test_the_switch_can_turn_the_outcome() -> None:
    """Three members against 15, moderate (2 of 3 needed): 17 (+1), 18 (+1) and 12 (missed by
    3). Failures offsetting: 1 success, the party fails; not counted: 2, it succeeds."""
    members = [(name, BoonsCheck(bonus=0), 15) for name in ("Ann", "Bob", "Cy")]
    faces = [8, 8, 1, 8, 8, 2, 4, 4, 4]
    fixed = {
        reading: start_group_challenge("moderate", members, GivenFaces(faces), reading).fix()
        for reading in READINGS
    }
    assert fixed["offset"].counts() == (1, 1, -1)
    assert [(f.successes, f.required, f.passed) for f in fixed.values()] == [
        (1, 2, False), (2, 2, True), (2, 2, True)
    ]  # fmt: skip


def _faces(check: BoonsCheck) -> Iterator[tuple[int, ...]]:
    return product(*(range(1, sides + 1) for sides in check.dice))


def _brute_force(members: list[tuple[BoonsCheck, int]], failures: str) -> dict[int, Fraction]:
    """Every face of every member's dice, one by one: P(the party's tally = t)."""
    rolls = [
        [sum(faces) + check.modifier - target for faces in _faces(check)]
        for check, target in members
    ]
    outcomes = 1
    for margins in rolls:
        outcomes *= len(margins)
    tallies: dict[int, int] = {}
    for margins in product(*rolls):
        tally = sum(_count(margin, failures) for margin in margins)
        tallies[tally] = tallies.get(tally, 0) + 1
    return {tally: Fraction(ways, outcomes) for tally, ways in tallies.items()}


SMALL_GROUPS = [
    [(BoonsCheck(bonus=3), 15)],
    [(BoonsCheck(bonus=3), 15), (BoonsCheck(bonus=0, boons=1, banes=2), 14)],
    [(BoonsCheck(bonus=6, boons=2), 25), (BoonsCheck(bonus=-2, banes=3), 9)],
]


@pytest.mark.parametrize("members", SMALL_GROUPS)
@pytest.mark.parametrize("failures", READINGS)
def test_group_odds_equal_enumerating_every_face(members: Any, failures: Any) -> None:
    """The exact group odds, each difficulty, equal counting every face of the 3d8 (resized
    by boons and banes) of a party of one or two."""
    tallies = _brute_force(members, failures)
    for difficulty in DIFFICULTIES:
        needed = successes_required(difficulty, len(members))
        expected = sum((p for tally, p in tallies.items() if tally >= needed), Fraction(0))
        assert group_challenge_odds(members, difficulty, failures) == expected


@pytest.mark.parametrize("failures", READINGS)
def test_the_engines_roll_agrees_with_its_odds(failures: Any) -> None:
    """One member, easy (0 successes needed), rolled on each of the 512 faces of 3d8: the
    share of faces the engine's challenge passes is the exact odds (3d8 + 4 against 18:
    half reach it; 56 faces, 3d8 of 8 or less, miss it by more than 5)."""
    member = ("Tam", BoonsCheck(bonus=4), 18)
    passed = sum(
        bool(start_group_challenge("easy", [member], GivenFaces(faces), failures).fix().passed)
        for faces in _faces(member[1])
    )
    odds = group_challenge_odds([member[1:]], "easy", failures)
    assert Fraction(passed, 512) == odds
    assert odds == {"offset": Fraction(1, 2), "none": 1, "big-only": Fraction(57, 64)}[failures]


def test_the_request_the_cli_and_the_odds_take_the_switch(run_cli: Any) -> None:
    """``failures`` on the request is ``--failures`` on the command line; the odds follow it."""
    args = {"difficulty": "moderate", "members": ["Ann:0:15", "Bob:0:15"], "faces": "8,8,1,4,4,4"}
    counted = perform("boons.group", args, _table()).result
    assert (counted.failures, counted.counts(), counted.passed) == ("offset", (1, -1), False)
    uncounted = perform("boons.group", args | {"failures": "none"}, _table()).result
    assert (uncounted.counts(), uncounted.passed) == ((1, 0), True)
    shown = run_cli(
        "boons", "group", "--difficulty", "moderate", "--member", "Ann:0:15", "--member",
        "Bob:0:15", "--faces", "8,8,1,4,4,4", "--failures", "big-only", "--json",
    ).json()  # fmt: skip
    assert (shown["failures"], shown["successes"], shown["passed"]) == ("big-only", 1, True)
    with pytest.raises(InputError, match="^failures"):
        perform("boons.group", args | {"failures": "some"}, _table())
    for reading in READINGS:
        odds = perform(
            "odds.boons",
            {"bonus": 5, "target": 18, "party": 3, "difficulty": "easy", "failures": reading},
            _table(),
        ).result
        members = [(BoonsCheck(bonus=5), 18)] * 3
        assert odds.failures == reading
        assert odds.p_group == group_challenge_odds(members, "easy", reading)


def test_a_challenge_logged_before_the_switch_reads_as_big_only() -> None:
    """A result logged without ``failures`` was counted the old way (a miss within 5 counted
    nothing), and reads back saying so."""
    members = [("Ann", BoonsCheck(bonus=0), 15)]
    logged = start_group_challenge("easy", members, GivenFaces([4, 4, 4])).fix().to_data()
    del logged["failures"]
    read = read_result("boons.group", logged)
    assert isinstance(read, GroupChallenge)
    assert (read.failures, read.counts()) == ("big-only", (0,))
