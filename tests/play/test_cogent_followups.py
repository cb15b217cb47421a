"""Destiny spent after a logged check (``cogent.destiny-after``): the same outcome as the spend
named before the roll, refused when the rules refuse it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.checks import roll_check
from taletable.systems.cogent.destiny import DestinyPurse
from taletable.systems.cogent.destiny_after import spend_after_roll
from taletable.systems.cogent.pools import pool_of
from taletable.systems.cogent.rules import Rules

TERRIK = Path("examples/characters/core_sir_terrik.yaml")


def _table(edition: str = "core") -> Table:
    return Table(rules=Rules(edition=edition), dice=SeededDice(1), store=MemoryStore())


@pytest.mark.parametrize(
    ("edition", "faces", "after", "cl"),
    [
        ("core", (1, 2, 3, 4), 2, 3),  # 1 win + 2 destiny = 3: a pass at 0
        ("core", (1, 2, 3, 4), 4, 2),  # the cap stops destiny at the dice rolled
        ("tiered", (1, 2, 3, 4, 1, 5, 6, 6), ("reroll",), 2),  # 1 win, rerolled to 3
        ("tiered", (1, 2, 5, 6), ("raise", "raise"), 2),
        ("tiered", (1, 1, 1, 4), ("lower",), 3),
    ],
)
def test_a_follow_up_ends_as_the_same_spend_made_with_the_roll(
    edition: str, faces: tuple[int, ...], after: Any, cl: int
) -> None:
    """Spending after the roll is logged gives exactly the check that naming the spends with
    the roll gives, for the same dice (002 > Destiny Points; 000 > After a Dice Roll)."""
    rules = Rules(edition=edition, destiny_after_cap=True)
    together = roll_check(pool_of(4), cl, GivenFaces(faces), rules=rules, destiny_after=after)
    first = roll_check(pool_of(4), cl, GivenFaces(faces[:4]), rules=rules)
    later = spend_after_roll(
        first, after, GivenFaces(faces[4:] or (1,)), rules=rules, purse=DestinyPurse(points=5)
    )
    for name in ("wins", "margin", "passed", "adjustments", "rolls", "destiny", "outcome"):
        assert getattr(later.check, name) == getattr(together, name), name
    assert later.outcome_before == first.outcome


def _roll(table: Table, **args: Any) -> dict[str, Any]:
    return perform("cogent.check", args, table).result.to_data()


def _after(table: Table, result: dict[str, Any], roll_args: dict[str, Any], **args: Any) -> Any:
    followed = {
        "action": "cogent.check", "args": roll_args, "result": result,
        "roller": "s1", "spender": args.pop("spender", "s1"),
    }  # fmt: skip
    return perform("cogent.destiny-after", {"follows": 3, **args, "roll": followed}, table)


def test_core_destiny_after_debits_the_sheet_until_none_is_left() -> None:
    """Sir Terrik holds 3 points: three follow-ups of a win each pass, a fourth is refused."""
    table = _table()
    table.store.save("character", "terrik", yaml.safe_load(TERRIK.read_text()), version=None)
    args = {"character": "terrik", "skill": "Athletics", "cl": 5, "faces": "1,1,1,1,4,5"}
    result = _roll(table, **args)
    assert result["wins"] == 2
    played = _after(table, result, args, destiny_after=3)
    assert played.result.check.wins == 5 and played.result.check.passed
    assert played.result.outcome_before == "narrative failure of -3"
    assert table.store.read("character", "terrik").data["destiny"]["points"] == 0
    with pytest.raises(RulesError, match="only 0 are available"):
        _after(table, played.result.check.to_data(), args, destiny_after=1)


def test_follow_ups_the_rules_refuse() -> None:
    """Another seat's roll; a tiered spend at a core table; raising a failure; no roll given."""
    core, tiered = _table(), _table("tiered")
    args = {"pool": 4, "cl": 3, "faces": "1,2,3,4"}
    result = _roll(core, **args)
    with pytest.raises(RulesError, match="another seat's roll"):
        _after(core, result, args, spender="s2")
    with pytest.raises(RulesError, match="core edition has no destiny-after 'reroll'"):
        _after(core, result, args, destiny_after="reroll", destiny_points=3)
    failed = _roll(tiered, **args)
    with pytest.raises(RulesError, match="'raise' needs a narrative success"):
        _after(tiered, failed, args, destiny_after="raise", destiny_points=3)
    with pytest.raises(InputError, match="not read from a table's log"):
        perform("cogent.destiny-after", {"follows": 3}, core)


def test_a_typed_pool_roll_asks_whose_sheet_pays() -> None:
    """A check of a typed pool names no sheet: a spend after it that says neither whose sheet
    pays nor the points held is refused naming ``character`` (002 > Destiny Points: the points
    are the character's); named, Sir Terrik's sheet pays; a roll made with a character pays
    from that character's sheet only."""
    table = _table()
    table.store.save("character", "terrik", yaml.safe_load(TERRIK.read_text()), version=None)
    args = {"pool": 4, "cl": 5, "faces": "1,1,4,5"}
    result = _roll(table, **args)
    with pytest.raises(InputError, match="typed pool, so no sheet holds its destiny points"):
        _after(table, result, args)
    played = _after(table, result, args, character="terrik", destiny_after=2)
    assert played.result.check.wins == 4
    assert table.store.read("character", "terrik").data["destiny"]["points"] == 1
    with pytest.raises(InputError, match="the character's sheet holds the points"):
        _after(table, result, args, character="terrik", destiny_points=3)
    own = {"character": "terrik", "skill": "Athletics", "cl": 5, "faces": "1,1,1,1,4,5"}
    rolled = _roll(table, **own)
    with pytest.raises(InputError, match="whose sheet pays"):
        _after(table, rolled, own, character="someone-else")
