"""Properties: rolling agrees with the exact chances; any table data loads or fails cleanly."""

from __future__ import annotations

from collections import Counter
from contextlib import suppress
from fractions import Fraction
from itertools import pairwise
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import DataError
from taletable.files import load_model
from taletable.systems.cogent.narrator import shipped_tables
from taletable.tables import RandomTable, entry_chances, roll_table


def test_rolling_agrees_with_the_exact_chances() -> None:
    """20,000 seeded winter rolls at -15 fit the exact chances (chi-squared, 99.9% level)."""
    table = shipped_tables().get("weather_winter").model_copy(update={"follow_up": ()})
    chances = {c.result: c.chance for c in entry_chances(table, modifier=-15)}
    source = SeededDice(2026)
    rolls = 20_000
    counts = Counter(roll_table(table, source, modifier=-15).result for _ in range(rolls))
    statistic = 0.0
    cells = 0
    for result, chance in chances.items():
        if chance == 0:
            assert counts[result] == 0
            continue
        expected = float(chance) * rolls
        statistic += (counts[result] - expected) ** 2 / expected
        cells += 1
    # 99.9% critical values of chi-squared for up to 9 degrees of freedom are below 28.
    assert cells - 1 <= 9
    assert statistic < 28


@st.composite
def partitioned_tables(draw: st.DrawFn) -> dict[str, Any]:
    """A table over dN split into random consecutive ranges."""
    sides = draw(st.integers(1, 60))
    cuts = sorted(draw(st.sets(st.integers(1, sides - 1), max_size=10))) if sides > 1 else []
    bounds = [0, *cuts, sides]
    entries = [
        {"roll": f"{low + 1}-{high}", "result": f"r{index}"}
        for index, (low, high) in enumerate(pairwise(bounds))
    ]
    return {"name": "t", "title": "T", "die": f"d{sides}", "entries": entries}


@given(partitioned_tables(), st.data())
@settings(max_examples=60)
def test_any_partition_rolls_into_its_entry(data: dict[str, Any], draw: st.DataObject) -> None:
    """Chances sum to one, each entry's chance is its width, and a face lands in its entry."""
    table = load_model(data, RandomTable, source="test")
    chances = entry_chances(table)
    assert sum(c.chance for c in chances) == 1
    for entry, chance in zip(table.entries, chances, strict=True):
        assert chance.chance * table.die.sides == entry.high - entry.low + 1
    face = draw.draw(st.integers(1, table.die.sides))
    roll = roll_table(table, GivenFaces([face]))
    assert table.entry_for(face).result == roll.result


VALUES = st.one_of(
    st.none(), st.text(max_size=5), st.integers(), st.lists(st.integers(), max_size=3)
)
KEYS = st.sampled_from(["name", "title", "die", "entries", "modifier"])


@given(st.dictionaries(KEYS, VALUES))
def test_any_data_loads_or_is_a_data_error(data: dict[str, Any]) -> None:
    """Malformed table data is a DataError, never a crash."""
    with suppress(DataError):
        load_model(data, RandomTable, source="fuzz")


@given(st.integers(1, 4), st.integers(1, 6))
def test_total_weights_match_brute_force(count: int, sides: int) -> None:
    """The sliding-window sum of NdS equals counting every throw."""
    from itertools import product

    from taletable.tables import DieExpression, total_weights

    brute = Counter(sum(throw) for throw in product(range(1, sides + 1), repeat=count))
    assert total_weights(DieExpression(count=count, sides=sides)) == dict(brute)


def test_largest_die_is_fast_enough() -> None:
    """10d1000, the largest die a table may use, gets exact chances (bounded work)."""
    entries = [{"roll": "10-5004", "result": "low"}, {"roll": 5005, "result": "middle"},
               {"roll": "5006-10000", "result": "high"}]  # fmt: skip
    table = load_model(
        {"name": "big", "title": "Big", "die": "10d1000", "entries": entries},
        RandomTable,
        source="test",
    )
    low, middle, high = (chance.chance for chance in entry_chances(table))
    assert low == high  # the sum of dice is symmetric about its mean, 5005
    assert low + middle + high == 1 and Fraction(0) < middle < Fraction(1, 100)
