"""Physical dice in a tiered conflict where a side takes half its pool (issue 23.3).

000 > Destiny > Destiny Points > Before a Dice Roll: "Do not roll, instead take 1/2 (round
down) of your Dice Pool as your roll". The side that takes half rolls nothing, so only the
rolling side's faces are entered; faces for the half side are refused, naming the field.
"""

from __future__ import annotations

from typing import Any

import pytest

from taletable.dice import SeededDice
from taletable.errors import InputError
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.rules import TIERED


def _conflict(**args: Any) -> Any:
    table = Table(rules=TIERED, dice=SeededDice(7), store=MemoryStore())
    return perform("cogent.conflict", args, table).result


def test_the_rolling_sides_faces_alone_against_half_a_pool() -> None:
    """Side b's 7D6 taken as half, round down: 3 wins; a's 5D6 show 1, 4, 5, 6, 6: 4 wins."""
    result = _conflict(pool_a=5, pool_b=7, destiny_before_b="half", faces_a=[1, 4, 5, 6, 6])
    assert (result.a_wins, result.b_wins, result.winner, result.victory_level) == (4, 3, "a", 1)
    assert result.exchanges[0].b.faces == ()
    assert result.dice_source == "given"


def test_side_a_takes_half_and_side_b_gives_its_faces_with_a_tie_reroll() -> None:
    """a's 4D6 as half: 2 wins, kept through the tie; b rolls 4, 5, 1 (a tie), then 4, 1, 1."""
    result = _conflict(pool_a=4, pool_b=3, destiny_before_a="half", faces_b=[4, 5, 1, 4, 1, 1])
    assert [(ex.a.wins, ex.b.wins) for ex in result.exchanges] == [(2, 2), (2, 1)]
    assert (result.winner, result.victory_level, result.rerolls) == ("a", 1, 1)
    assert result.dice_source == "given"


def test_half_on_both_sides_needs_no_faces() -> None:
    """Neither side rolls: 5D6 and 4D6 are 2 wins each, and the tie stands."""
    result = _conflict(pool_a=5, pool_b=4, destiny_before_a="half", destiny_before_b="half")
    assert (result.a_wins, result.b_wins, result.winner) == (2, 2, None)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"destiny_before_b": "half", "faces_a": [1, 4, 5], "faces_b": [4, 4]}, "faces_b"),
        ({"destiny_before_b": "half", "faces_b": [4, 4]}, "faces_b"),
        ({"destiny_before_a": "half", "faces_a": [4, 4, 4]}, "faces_a"),
        ({"destiny_before_a": "half", "destiny_before_b": "half", "faces_a": [4]}, "faces_a"),
    ],
)
def test_faces_for_a_side_that_takes_half_are_refused(args: dict[str, Any], field: str) -> None:
    """The half side rolls no dice: its faces are an error naming its field."""
    side = field[-1]
    with pytest.raises(InputError, match=f"^{field}: side {side} takes half its pool") as error:
        _conflict(pool_a=3, pool_b=2, **args)
    assert error.value.field == field


@pytest.mark.parametrize(("given", "missing"), [("faces_a", "faces_b"), ("faces_b", "faces_a")])
def test_when_both_sides_roll_each_gives_faces_or_neither(given: str, missing: str) -> None:
    """Two rolling sides: one side's faces alone are refused, naming the missing field."""
    with pytest.raises(InputError, match=f"^{missing}: {given} were given") as error:
        _conflict(pool_a=2, pool_b=2, **{given: [4, 1]})
    assert error.value.field == missing


def test_cli_enters_only_the_rolling_sides_faces(run_cli: Any) -> None:
    """`cogent conflict` takes --faces-a alone when b takes half; --faces-b is refused."""
    base = ("cogent", "conflict", "--edition", "tiered", "--pool-a", "5", "--pool-b", "7",
            "--destiny-before-b", "half")  # fmt: skip
    out = run_cli(*base, "--faces-a", "1,4,5,6,6", "--json")
    assert out.status == 0, out.stderr
    data = out.json()
    assert (data["a_wins"], data["b_wins"], data["winner"]) == (4, 3, "a")
    refused = run_cli(*base, "--faces-a", "1,4,5,6,6", "--faces-b", "4,4,4")
    assert refused.status == 2
    assert refused.stderr.startswith("taletable: error: --faces-b: side b takes half its pool")
    alone = run_cli(*base[:-2], "--faces-a", "1,4,5,6,6")
    assert alone.status == 2
    assert "--faces-b: --faces-a were given and this side rolls too" in alone.stderr
