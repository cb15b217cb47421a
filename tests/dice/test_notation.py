"""Standard dice notation, rolled through our dice sources."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.cli.main import main
from taletable.dice import GivenFaces, SeededDice
from taletable.dice.notation import roll_notation
from taletable.dice.sources import MAX_DICE_PER_ROLL
from taletable.errors import InputError


@pytest.mark.parametrize(
    ("notation", "faces", "total"),
    [
        ("d20", [17], 17),
        ("3d8+5", [1, 8, 4], 18),
        ("4d6kh3", [5, 4, 1, 3], 12),
        ("2d20kl1", [15, 3], 3),
        ("4d6pl1", [6, 2, 3, 2], 11),
        ("4d6p2", [6, 2, 3, 2], 9),
        ("2d6*2-1", [3, 4], 13),
        ("1d6e6", [6, 6, 2], 14),
        ("4d6rr1", [1, 1, 4, 5, 6, 2], 17),
        ("2d6ro<3", [1, 5, 1], 6),
        ("2d6ra6", [6, 2, 3], 11),
        ("3d6mi2", [1, 1, 5], 9),
        ("3d6ma4", [6, 1, 5], 9),
        ("(1d6, 1d8)kh1", [2, 7], 7),
        ("(d20)kh1", [7], 7),
        ("(1d6, 1d8, 1d10)pl1", [2, 7, 9], 16),
        ("10 // 3", [], 3),
    ],
)
def test_totals_from_given_faces(notation: str, faces: list[int], total: int) -> None:
    """Given faces give exact totals, each operator applied as in d20."""
    source = GivenFaces(faces)
    result = roll_notation(notation, source)
    assert result.total == total
    assert result.faces == tuple(faces)
    source.ensure_all_used()


def test_success_counting() -> None:
    """8d6>=4 counts the dice showing 4 or more."""
    result = roll_notation("8d6>=4", GivenFaces([1, 2, 3, 4, 5, 6, 4, 1]))
    assert (result.total, result.successes) == (4, 4)
    assert result.terms[0].successes == 4
    assert roll_notation("1d20>=15", GivenFaces([15])).successes == 1


@pytest.mark.parametrize(
    ("notation", "successes"),
    [("6d6>=4", 3), ("6d6>4", 2), ("6d6<=2", 2), ("6d6<2", 1), ("6d6=6", 1), ("6d6 = 3", 1)],
)
def test_every_success_comparison(notation: str, successes: int) -> None:
    """Each trailing comparison on a dice term counts the dice it selects (faces 1..6)."""
    result = roll_notation(notation, GivenFaces([1, 2, 3, 4, 5, 6]))
    assert (result.total, result.successes) == (successes, successes)
    assert result.notation == notation


def test_success_breakdown_and_lone_equals_in_annotations() -> None:
    """The breakdown reads like d20's; an `=` inside an annotation is left alone."""
    result = roll_notation("4d6>=5", GivenFaces([6, 1, 5, 2]))
    assert result.breakdown == "4d6 (6, 1, 5, 2) >= 5 = 2"
    assert roll_notation("1d20 [to hit=yes]", GivenFaces([7])).total == 7
    assert roll_notation("2d6+1>=4", GivenFaces([1, 1])).successes is None


def test_comparison_of_totals() -> None:
    """A comparison of a non-dice expression is 1 or 0, as in d20."""
    assert roll_notation("(2d6) > 7", GivenFaces([4, 4])).total == 1
    assert roll_notation("1+1 == 3", GivenFaces([])).total == 0


def test_breakdown_shows_dropped_dice() -> None:
    """The breakdown marks dropped dice like d20."""
    assert roll_notation("4d6kh3", GivenFaces([5, 4, 1, 3])).breakdown == (
        "4d6kh3 (5, 4, ~~1~~, 3) = 12"
    )


def test_limits_and_errors() -> None:
    """Past the dice limit, a never-ending reroll, bad notation: clear InputErrors."""
    with pytest.raises(InputError, match="at most 1000 dice"):
        roll_notation(f"{MAX_DICE_PER_ROLL + 1}d6", SeededDice(1))
    with pytest.raises(InputError, match="never stop"):
        roll_notation("1d6rr>0", SeededDice(1))
    with pytest.raises(InputError, match="not dice notation"):
        roll_notation("3q6", SeededDice(1))
    with pytest.raises(InputError, match="rerolls and explosions count"):
        roll_notation("1000d6e6", SeededDice(1))
    with pytest.raises(InputError, match="d0 cannot be rolled"):
        roll_notation("1d0", SeededDice(1))


def test_seeded_rolls_are_reproducible(run_cli: Any) -> None:
    """The same seed gives the same roll, in the engine and on the command line."""
    assert roll_notation("10d10kh3", SeededDice(9)) == roll_notation("10d10kh3", SeededDice(9))
    first = run_cli("roll", "8d6>=4", "--seed", "42", "--json").json()
    again = run_cli("roll", "8d6>=4", "--seed", "42", "--json").json()
    assert first == again
    assert len(first["faces"]) == 8
    assert first["successes"] == sum(face >= 4 for face in first["faces"])


def test_cli_roll_json(run_cli: Any) -> None:
    """`taletable roll --json` prints total and faces."""
    out = run_cli("roll", "4d6kh3", "--faces", "5,4,1,3", "--json")
    assert out.status == 0, out.stderr
    assert (out.json()["total"], out.json()["faces"]) == (12, [5, 4, 1, 3])
    bad = run_cli("roll", "4d6", "--faces", "1,2")
    assert bad.status == 2 and "needs 2 more" in bad.stderr
    nonsense = run_cli("roll", "3q6")
    assert nonsense.status == 2
    assert "NOTATION" in nonsense.stderr and "e.g. d20" in nonsense.stderr
    readable = run_cli("roll", "4d6kh3", "--faces", "5,4,1,3")
    assert "4d6kh3 (5, 4, ~~1~~, 3) = 12" in readable.stdout


def test_cli_notation_may_start_with_a_minus(run_cli: Any) -> None:
    """`taletable roll -1d4+3` is a roll, not an unknown option; a real unknown option still
    exits 2 with one line."""
    out = run_cli("roll", "-1d4+3", "--faces", "2", "--json")
    assert out.status == 0, out.stderr
    assert (out.json()["total"], out.json()["faces"]) == (1, [2])
    assert run_cli("roll", "-5", "--json").json()["total"] == -5
    bad = run_cli("roll", "d4", "--bogus")
    assert bad.status == 2 and bad.stderr.count("\n") == 1


_TOKENS = ["d20", "3d8", "4d6", "kh3", "kl1", "rr1", "ro<3", "ra6", "e6", "mi2", "ma4", "p1",
           "k>2", "+", "-", "*", "/", "//", "%", "(", ")", ",", ">=4", "<2", "=6", "!=1", "5",
           "0", "1000d6", "d%", "rrh1", ")kh1", ")p1", "1.5", "[x]", " "]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=10).map("".join))
def test_no_notation_of_tokens_crashes(text: str) -> None:
    """Strings built from notation pieces: a result or an InputError naming NOTATION."""
    try:
        result = roll_notation(text, SeededDice(7))
    except InputError as error:
        assert error.field == "NOTATION"
    else:
        assert len(result.faces) <= MAX_DICE_PER_ROLL


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789dkhlpre<>=!+-*/%(), .mia", max_size=24))
def test_no_notation_crashes(text: str) -> None:
    """Any string gives a result or exit status 2, never a traceback."""
    assert main(["roll", text, "--seed", "1"]) in (0, 2)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_no_unicode_string_crashes(text: str) -> None:
    """Any text at all, to the engine: a result or an InputError naming NOTATION."""
    try:
        roll_notation(text, SeededDice(1))
    except InputError as error:
        assert error.field in {"NOTATION", "dice", "--faces"}
