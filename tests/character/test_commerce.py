"""Purchases with commerce points: costs by level, haggling, destiny, quirks (002)."""

from __future__ import annotations

import pytest

from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character.commerce import purchase, purchase_cost
from taletable.systems.cogent.character.sheet import CoreCharacter


def buyer(level: int, *quirks: str, destiny: int = 3) -> CoreCharacter:
    return CoreCharacter.model_validate(
        {
            "identity": {"name": "Buyer"},
            "commerce": {"assigned": 3, "points": level, "quirks": list(quirks)},
            "destiny": {"points": destiny, "maximum": 3},
        }
    )


@pytest.mark.parametrize(
    ("value", "level", "cost"),
    [(5, 5, 2), (4, 5, 1), (3, 5, 0), (0, 5, 0), (0, 0, 2), (1, 1, 2), (0, 1, 1)],
)
def test_costs_by_level(value: int, level: int, cost: int) -> None:
    """002 > Commerce Points: the buyer's level costs 2, one below 1, two or more below 0."""
    assert purchase_cost(value, level) == cost


def test_nothing_above_the_level_and_values_run_0_to_8() -> None:
    """An item above the buyer's points cannot be bought; item values are 0-8 (RULINGS.md)."""
    with pytest.raises(RulesError, match="value 4 is above commerce level 3"):
        purchase_cost(4, 3)
    with pytest.raises(InputError, match="0 to 8"):
        purchase_cost(9, 9)


def test_haggling_drops_the_value_a_level() -> None:
    """002 > Narrator Tips > Commerce: a passed persuasion or deception check vs the vendor drops
    the item's value one level: a level 3 item costs a level 3 buyer 1, not 2."""
    plain, record = purchase(buyer(3), "Horse", 3)
    assert record.cost == 2 and plain.commerce.current == 1
    haggled, record = purchase(buyer(3), "Horse", 3, haggled=True)
    assert (record.effective_value, record.cost, haggled.commerce.current) == (2, 1, 2)
    assert record.notes == ("haggled: the value drops a level",)


def test_destiny_brings_an_item_within_reach() -> None:
    """002 > Narrator Tips > Commerce: "a single destiny point for a level 3 item to be lowered to
    a cost of 2 commerce points": a level 2 buyer spends 1 destiny and pays 2."""
    bought, record = purchase(buyer(2), "Fine sword", 3, destiny=1)
    assert (record.effective_value, record.cost, record.points_after) == (2, 2, 0)
    assert bought.destiny.points == 2
    assert bought.history[-1].detail == "Fine sword (value 3) for 2"
    with pytest.raises(RulesError, match="2 destiny points asked, 1 held"):
        purchase(buyer(2, destiny=1), "Fine sword", 4, destiny=2)


def test_tight_purse_forbids_what_costs_points() -> None:
    """002 > Quirks of Wealth: Tight Purse buys only items two or more below the level."""
    with pytest.raises(RulesError, match="Tight Purse"):
        purchase(buyer(4, "Tight Purse"), "Horse", 3)
    _, record = purchase(buyer(4, "Tight Purse"), "Rope", 2)
    assert record.cost == 0


def test_away_drop_and_item_values_come_from_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Closed Trade's "two points lower" away from home is the quirks table's away_level_drop
    and the top item value is the commerce scale's (DESIGN > Principles 4): a house table that
    drops one level away, and a scale that stops at 5, are followed."""
    from taletable.systems.cogent.character import commerce
    from taletable.systems.cogent.character.tables import commerce_scale, quirk_table

    closed = buyer(3, "Closed Trade/Unique Market")
    assert purchase(closed, "Cart", 1, away=True)[1].cost == 2  # level 3 counts as 1
    quirks = quirk_table()
    house = [q.model_copy(update={"away_level_drop": 1}) if q.roll == 16 else q
             for q in quirks.core.entries]  # fmt: skip
    table = quirks.model_copy(update={"core": quirks.core.model_copy(update={"entries": house})})
    monkeypatch.setattr(commerce, "quirk_table", lambda: table)
    assert purchase(closed, "Cart", 1, away=True)[1].cost == 1  # level 3 counts as 2
    scale = commerce_scale()
    short = scale.model_copy(update={"levels": scale.levels[:6]})
    monkeypatch.setattr(commerce, "commerce_scale", lambda: short)
    with pytest.raises(InputError, match="item value 6; expected 0 to 5"):
        purchase_cost(6, 8)
