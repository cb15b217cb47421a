"""The boons system's rules: resizing, checks, contests, group challenges, chance, tracking."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.cli.main import main
from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.systems.boons.chance import roll_scatter, roll_twist
from taletable.systems.boons.checks import BoonsCheck, enchantment_bonus, roll_check, roll_contest
from taletable.systems.boons.dice import resize_dice
from taletable.systems.boons.group import (
    check_successes,
    start_group_challenge,
    successes_for_margin,
    successes_required,
)
from taletable.systems.boons.tables import twist_table
from taletable.systems.boons.tracking import LetItRide

COUNTS = st.integers(0, 6)


@given(COUNTS, COUNTS, st.sampled_from(["sequence", "per_die"]))
def test_resizing_keeps_the_stated_average(boons: int, banes: int, method: Any) -> None:
    """003: each boon raises the average by 2 and each bane lowers it by 2, dice stay d4-d12."""
    dice = resize_dice(boons, banes, method)
    assert len(dice) == 3
    assert all(4 <= sides <= 12 and sides % 2 == 0 for sides in dice)
    mean = sum(Fraction(sides + 1, 2) for sides in dice) + boons - banes
    assert mean == Fraction(27, 2) + 2 * boons - 2 * banes


def test_the_two_resizing_readings_differ_in_twelve_combinations() -> None:
    """RULINGS.md: sequence and per-die counting differ in 12 of the 49 combinations."""
    differing = [
        (boons, banes)
        for boons in range(7)
        for banes in range(7)
        if resize_dice(boons, banes) != resize_dice(boons, banes, "per_die")
    ]
    assert len(differing) == 12
    assert resize_dice(6, 3) == (12, 12, 6)
    assert resize_dice(6, 3, "per_die") == (12, 10, 8)


def test_boons_fill_from_the_first_banes_from_the_last() -> None:
    """003: boons upgrade the first die to d12, then the next; banes the last to d4, then back."""
    assert resize_dice(3, 0) == (12, 10, 8)
    assert resize_dice(0, 3) == (8, 6, 4)
    assert resize_dice(6, 0) == (12, 12, 12)
    assert resize_dice(0, 6) == (4, 4, 4)


def test_limits_of_boons_and_banes() -> None:
    """At most 6 of each on a roll."""
    with pytest.raises(InputError, match="^boons"):
        resize_dice(7, 0)
    with pytest.raises(InputError, match="banes"):
        resize_dice(0, -1)


def test_a_declared_check_holds_at_most_six_boons_and_banes() -> None:
    """003 > Boons & Banes: the limit holds for passive checks too, which resize no dice."""
    with pytest.raises(ValueError, match="boons"):
        BoonsCheck(bonus=0, boons=7, passive=True)
    with pytest.raises(ValueError, match="banes"):
        BoonsCheck(bonus=0, banes=7, passive=True)


def test_enchantment_is_capped_at_six() -> None:
    """003 > Bonuses: the enchantment sum is at most +6; negative sums stand."""
    assert enchantment_bonus([4, 3]) == 6
    assert enchantment_bonus([2, -5]) == -3


@given(st.integers(0, 6), st.integers(0, 6), st.integers(-20, 20), st.integers(0, 2**32))
def test_check_total_is_faces_plus_modifier(boons: int, banes: int, bonus: int, seed: int) -> None:
    """For any check: faces fit their dice, total = faces + bonus + boons - banes."""
    check = BoonsCheck(bonus=bonus, boons=boons, banes=banes)
    result = roll_check(check, 20, SeededDice(seed))
    assert all(1 <= face <= sides for face, sides in zip(result.faces, result.dice, strict=True))
    assert result.total == sum(result.faces) + bonus + boons - banes
    assert result.passed is (result.total >= 20)


def test_contest_tie_rules_in_order() -> None:
    """003 > Resolving Contest Ties: defender, then higher bonus, then stalemate, then reroll."""
    tie = ([4, 4, 4], [4, 4, 4])
    defended = roll_contest(
        BoonsCheck(bonus=3),
        BoonsCheck(bonus=3),
        GivenFaces(tie[0]),
        GivenFaces(tie[1]),
        defender="b",
    )
    assert (defended.winner, defended.tie_rule) == ("b", "1: the defender wins a tie")
    bonus = roll_contest(
        BoonsCheck(bonus=4), BoonsCheck(bonus=2), GivenFaces([4, 4, 4]), GivenFaces([5, 5, 4])
    )
    assert (bonus.winner, bonus.tie_rule) == ("a", "2: the higher bonus wins a tie")
    stalemate = roll_contest(
        BoonsCheck(bonus=3),
        BoonsCheck(bonus=3),
        GivenFaces(tie[0]),
        GivenFaces(tie[1]),
        stalemate_possible=True,
    )
    assert (stalemate.winner, stalemate.tie_rule) == (None, "3: stalemate, neither side succeeds")
    rerolled = roll_contest(
        BoonsCheck(bonus=3),
        BoonsCheck(bonus=3),
        GivenFaces([4, 4, 4, 8, 8, 8]),
        GivenFaces([4, 4, 4, 1, 1, 1]),
    )
    assert (rerolled.winner, rerolled.rerolls) == ("a", 1)


@pytest.mark.parametrize(
    ("difficulty", "party", "required"),
    [("easy", 4, 1), ("easy", 5, 2), ("moderate", 5, 3), ("challenging", 4, 3),
     ("formidable", 4, 4), ("impossible", 4, 5), ("easy", 1, 0)],
)  # fmt: skip
def test_successes_required(difficulty: Any, party: int, required: int) -> None:
    """003 > Group Challenge Difficulty Table, rounded up."""
    assert successes_required(difficulty, party) == required


def test_group_challenge_counts_and_fixes() -> None:
    """One success at the target, two beyond +5, two failures below -5, one failure for a
    closer miss (RULINGS.md "group challenge failures"); final once fixed."""
    challenge = start_group_challenge(
        "moderate",
        [("Ann", BoonsCheck(bonus=0), 10), ("Bob", BoonsCheck(bonus=0), 10),
         ("Cy", BoonsCheck(bonus=0), 20)],
        GivenFaces([4, 4, 8, 1, 1, 1, 8, 8, 1]),
    )  # fmt: skip
    assert [check_successes(r) for r in challenge.results] == [2, -2, -1]
    assert challenge.counts() == (2, -2, -1)
    rerolled = challenge.reroll("Bob", GivenFaces([4, 4, 2]))
    fixed = rerolled.fix()
    assert (fixed.successes, fixed.required, fixed.passed) == (2, 2, True)
    with pytest.raises(RulesError, match="fixed and final"):
        fixed.reroll("Ann", GivenFaces([1, 1, 1]))


@pytest.mark.parametrize(
    ("margin", "successes"), [(6, 2), (5, 1), (0, 1), (-1, -1), (-5, -1), (-6, -2)]
)
def test_successes_at_the_edges_of_five(margin: int, successes: int) -> None:
    """003 > Group Challenges: "more than 5" above is 2, below is two failures; 5 itself is not."""
    assert successes_for_margin(margin) == successes


def test_twist_table_covers_the_d100() -> None:
    """Every face 1-100 has a consequence; 41-50 is the side effect (RULINGS.md)."""
    table = twist_table()
    assert table.entry(41).name == "A side effect"
    assert table.entry(5).name == "A disastrous complication"
    assert roll_twist(GivenFaces([100])).name == "A wondrous boon"


def test_hex_scatter_and_direct_hits() -> None:
    """Hex grid: 1 and 8 are direct hits, 2-7 clockwise from North; distance 8 is a hit."""
    assert roll_scatter("hex", GivenFaces([2, 4])).direction == "north"
    assert roll_scatter("hex", GivenFaces([7, 1])).direction == "northwest"
    assert roll_scatter("hex", GivenFaces([8, 1])).direct_hit
    assert roll_scatter("square", GivenFaces([3, 8])).direct_hit
    assert roll_scatter("square", GivenFaces([9, 5])).distance == 1


def test_let_it_ride() -> None:
    """003 > Let it Ride: a repeat check in the same situation is refused until it changes."""
    ledger = LetItRide().attempt("magistrate", "Deception", character="Silarn")
    with pytest.raises(RulesError, match="binding"):
        ledger.attempt(" Magistrate", "deception", character="silarn")
    ledger.attempt("magistrate", "Deception", character="Irzi")  # another character
    ledger.attempt("magistrate", "Persuasion", character="Silarn")  # another test
    ledger.attempt("magistrate", "Deception", character="Silarn", reroll=True)  # an ability's
    with pytest.raises(RulesError):
        ledger.mark_changed("magistrate", "Irzi").attempt("magistrate", "Deception",
                                                          character="Silarn")  # fmt: skip
    again = ledger.mark_changed("magistrate").attempt("magistrate", "Deception", character="Silarn")
    assert ("silarn", "magistrate", "deception") in again.attempted


def test_cli_check_contract(run_cli: Any) -> None:
    """`boons check --json` prints the contract's keys."""
    out = run_cli("boons", "check", "--bonus", "9", "--banes", "2", "--target", "25",
                  "--faces", "6,8,3", "--json")  # fmt: skip
    data = out.json()
    assert (data["dice"], data["faces"], data["modifier"]) == ([8, 8, 4], [6, 8, 3], 7)
    assert (data["total"], data["target"], data["margin"], data["passed"]) == (24, 25, -1, False)
    scatter = run_cli("boons", "scatter", "--grid", "square", "--faces", "5,2", "--json").json()
    assert (scatter["direction"], scatter["distance"]) == ("southeast", 2)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        (["check", "--bonus", "99999"], "--bonus: 99999 is out of range; expected -1000 to 1000"),
        (["check", "--bonus", "1", "--boons", "7"], "--boons: 7 is out of range"),
        (["check", "--bonus", "1", "--banes", "-1"], "--banes: -1 is out of range"),
        (["contest", "--a-bonus", "-5000"], "--a-bonus: -5000 is out of range"),
        (["contest", "--b-banes", "8"], "--b-banes: 8 is out of range"),
        (["group", "--difficulty", "easy", "--member", "Irzi:9:25:9:0"], "--member BOONS: 9"),
        (["group", "--difficulty", "easy", "--member", "Irzi:9:5000"], "--member TARGET: 5000"),
        (["check", "--skill", "99999"], "--ability + --skill + --enchantment: 99999 is out"),
        (["odds", "--target", "9", "--against-bonus", "2000"], "--against-bonus: 2000 is out"),
    ],
)
def test_out_of_range_options_name_the_option(
    run_cli: Any, arguments: list[str], field: str
) -> None:
    """A bonus past ±1000 or more than 6 boons or banes is one line naming the option, exit 2."""
    command = ["odds", "boons", *arguments[1:]] if arguments[0] == "odds" else ["boons", *arguments]
    out = run_cli(*command, *([] if arguments[0] == "odds" else ["--seed", "1"]))
    assert out.status == 2
    assert out.stdout == ""
    assert field in out.stderr
    assert out.stderr.count("\n") == 1


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["check", "contest", "group", "twist", "scatter"]),
    st.lists(st.one_of(st.sampled_from(["--bonus", "--boons", "--banes", "--target", "7", "-1",
        "--passive", "--grid", "hex", "--member", "A:1:10", "--difficulty", "easy", "--json",
        "--faces", "1,2,3", "--face", "--defender", "a", "99",
        "99999"]), st.text(max_size=8)), max_size=8),
)  # fmt: skip
def test_no_input_crashes_the_cli(command: str, arguments: list[str]) -> None:
    """Any arguments end with status 0 or 2: never a traceback."""
    if "--faces" not in arguments and "--face" not in arguments:
        arguments = [*arguments, "--seed", "1"]
    assert main(["boons", command, *arguments]) in (0, 2)


def test_a_tie_that_runs_out_of_given_faces_says_it_tied(run_cli: Any) -> None:
    """One roll of faces each and a tie: the error says the contest tied, so a reroll needs dice."""
    out = run_cli("boons", "contest", "--faces-a", "4,4,4", "--faces-b", "4,4,4")
    assert out.status == 2
    assert "--faces-a: the contest tied, so reroll 1 is rolled" in out.stderr
    assert out.stderr.count("\n") == 1
    short = run_cli("boons", "contest", "--faces-a", "4,4", "--faces-b", "4,4,4")
    assert "tied" not in short.stderr and "needs 1 more" in short.stderr
