"""The table format, the roller, exact entry chances and loading tables."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import DataError, InputError, RulesError
from taletable.library import load_package_table
from taletable.systems.cogent.narrator import narrator_tables, shipped_tables
from taletable.tables import (
    RandomTable,
    entry_chances,
    load_table_file,
    load_table_folder,
    roll_table,
    total_weights,
)

PRINTED = [
    "weather_spring",
    "weather_summer",
    "weather_autumn",
    "weather_winter",
    "encounter_country_day",
    "encounter_country_night",
    "encounter_city_day",
    "encounter_city_night",
]


@pytest.mark.parametrize("name", PRINTED)
def test_chances_equal_the_printed_percentages(name: str) -> None:
    """Each entry's exact chance, computed from the file, is the percentage the book prints."""
    table = shipped_tables().get(name)
    chances = entry_chances(table)
    assert all(chance.printed_percent is not None for chance in chances)
    for chance in chances:
        assert chance.chance == Fraction(str(chance.printed_percent)) / 100, chance.result
    assert sum(chance.chance for chance in chances) == 1


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("quirks_of_wealth", 20),
        ("disabling_characteristics", 20),
        ("undead_kind", 4),
        ("natural_disaster", 7),
    ],
)
def test_one_entry_per_face_tables_are_uniform(name: str, size: int) -> None:
    """The d20, d4 and d7 tables give each entry one face in ``size``."""
    chances = entry_chances(shipped_tables().get(name))
    assert len(chances) == size
    assert {chance.chance for chance in chances} == {Fraction(1, size)}


def test_severity_roll_is_a_third_each() -> None:
    """002 > Severity roll: 1-2 mild, 3-4 average, 5-6 heavy: one in three each."""
    chances = entry_chances(shipped_tables().get("severity"))
    assert [(c.result, c.chance) for c in chances] == [
        ("Mild", Fraction(1, 3)),
        ("Average", Fraction(1, 3)),
        ("Heavy", Fraction(1, 3)),
    ]


def test_destiny_roll_bands() -> None:
    """The destiny bands: 1 critical, 2-5 against, 6-14 neutral, 15-19 for, 20 critical."""
    chances = {c.result: c.chance for c in entry_chances(shipped_tables().get("destiny_roll"))}
    assert chances["Critical failure"] == Fraction(1, 20)
    assert chances["Against the players"] == Fraction(4, 20)
    assert chances["Neutral"] == Fraction(9, 20)
    assert chances["For the players"] == Fraction(5, 20)
    assert chances["Critical success"] == Fraction(1, 20)


def test_destiny_roll_table_matches_the_engines_bands() -> None:
    """Every face of the destiny_roll table falls in the same band as the engine's destiny roll."""
    from taletable.systems.cogent.tables import destiny_roll_table

    bands = destiny_roll_table().core.bands
    table = shipped_tables().get("destiny_roll")
    side = {"against": "Against", "neutral": "Neutral", "for": "For"}
    for face in range(1, 21):
        band = next(b for b in bands if b.low <= face <= b.high)
        result = table.entry_for(face).result
        if face in (1, 20):
            assert result.startswith("Critical"), face
        else:
            assert result.startswith(side[band.name]), (face, result, band.name)


def test_d20_tables_match_the_character_engine() -> None:
    """The d20 tables list the same names, by face, as the character engine's data."""
    from pydantic import BaseModel, ConfigDict

    class Loose(BaseModel):
        model_config = ConfigDict(extra="allow")

    quirks = load_package_table("taletable.systems.cogent", "data/quirks_of_wealth.yaml", Loose)
    disabling = load_package_table(
        "taletable.systems.cogent", "data/disabling_characteristics.yaml", Loose
    )
    for name, data in (
        ("quirks_of_wealth", quirks.model_extra["core"]["entries"]),  # type: ignore[index]
        ("disabling_characteristics", disabling.model_extra["entries"]),  # type: ignore[index]
    ):
        table = shipped_tables().get(name)
        assert [(e.low, e.result) for e in table.entries] == [(d["roll"], d["name"]) for d in data]


def test_shifted_weather_chances() -> None:
    """Spring at +20: Hot is naturals 70-99 (30%), no blizzard, natural disaster still 1%."""
    chances = {
        c.result: c.chance
        for c in entry_chances(shipped_tables().get("weather_spring"), modifier=20)
    }
    assert chances["Hot"] == Fraction(30, 100)
    assert chances["Blizzard"] == 0
    assert chances["Natural disaster"] == Fraction(1, 100)


def test_cold_shift_piles_up_at_one() -> None:
    """Spring at -20: naturals 1-21 clamp or fall to Blizzard (21%); 100 stays a disaster."""
    chances = {
        c.result: c.chance
        for c in entry_chances(shipped_tables().get("weather_spring"), modifier=-20)
    }
    assert chances["Blizzard"] == Fraction(21, 100)
    assert chances["Hot"] == 0
    assert chances["Natural disaster"] == Fraction(1, 100)


@given(
    name=st.sampled_from(["weather_spring", "weather_summer", "weather_autumn", "weather_winter"]),
    modifier=st.sampled_from([0, *range(-20, -9), *range(10, 21)]),
)
def test_shifted_chances_sum_to_one(name: str, modifier: int) -> None:
    """Under any allowed shift the chances sum to one and natural disaster stays at 1%."""
    chances = entry_chances(shipped_tables().get(name), modifier=modifier)
    assert sum(c.chance for c in chances) == 1
    assert chances[-1].chance == Fraction(1, 100)


def test_natural_hundred_ignores_the_modifier_both_ways() -> None:
    """A natural 100 is a natural disaster at -20 and at +20."""
    table = shipped_tables().get("weather_summer")
    for shift in (-20, 20):
        roll = roll_table(
            table, GivenFaces([100, 1]), modifier=shift, tables=shipped_tables().tables
        )
        assert (roll.total, roll.result) == (100, "Natural disaster")


def test_modified_totals_clamp_to_one_and_ninety_nine() -> None:
    """95 + 20 counts as 99 (Hot, not a disaster); 5 - 20 counts as 1 (Blizzard)."""
    table = shipped_tables().get("weather_autumn")
    hot = roll_table(table, GivenFaces([95, 1]), modifier=20, tables=shipped_tables().tables)
    assert (hot.total, hot.result) == (99, "Hot")
    cold = roll_table(table, GivenFaces([5, 1]), modifier=-20, tables=shipped_tables().tables)
    assert (cold.total, cold.result) == (1, "Blizzard")


def test_modifier_limits_and_tables_without_one() -> None:
    """A shift past ±20 is refused, and so is any modifier on a table without a rule."""
    library = shipped_tables()
    with pytest.raises(InputError, match="\\+10 to \\+20"):
        roll_table(library.get("weather_spring"), GivenFaces([50]), modifier=21)
    source = GivenFaces([3])
    with pytest.raises(RulesError, match="takes no modifier"):
        roll_table(library.get("severity"), source, modifier=1)
    assert source.used == 0


@pytest.mark.parametrize(
    "name", ["weather_spring", "weather_summer", "weather_autumn", "weather_winter"]
)
@pytest.mark.parametrize("shift", [1, 5, 9, -1, -9])
def test_weather_tables_refuse_a_shift_the_book_does_not_give(name: str, shift: int) -> None:
    """002 > Weather: "add 10 to 20 ... subtract 10 to 20": the table file itself refuses 1-9."""
    source = GivenFaces([50, 1])
    with pytest.raises(InputError, match="-20 to -10, 0, \\+10 to \\+20"):
        roll_table(shipped_tables().get(name), source, modifier=shift)
    assert source.used == 0
    with pytest.raises(InputError):
        entry_chances(shipped_tables().get(name), modifier=shift)


@pytest.mark.parametrize("shift", [-20, -10, 10, 20])
def test_weather_tables_take_the_ends_of_the_shift(shift: int) -> None:
    """The ends of the book's ranges (10 and 20, either way) are taken."""
    library = shipped_tables()
    roll = roll_table(
        library.get("weather_spring"), GivenFaces([50, 1]), modifier=shift, tables=library.tables
    )
    assert roll.total == 50 + shift


@pytest.mark.parametrize(
    ("allowed", "message"),
    [(["5-1"], "backwards"), (["10-30"], "outside"), (["ten"], "range like")],
)
def test_allowed_modifier_ranges_are_checked(allowed: list[object], message: str) -> None:
    """A table's allowed modifier ranges run forwards and stay within its limits."""
    data = {
        "name": "t",
        "title": "T",
        "die": "d6",
        "modifier": {"lowest": -20, "highest": 20, "allowed": allowed},
        "entries": [{"roll": "1-6", "result": "x"}],
    }
    with pytest.raises(ValueError, match=message):
        RandomTable.model_validate(data)


def test_follow_up_and_entry_follow_up() -> None:
    """Undead at night roll the kind (d4) after the severity; Nothing rolls no severity."""
    library = shipped_tables()
    roll = roll_table(
        library.get("encounter_country_night"), GivenFaces([70, 6, 4]), tables=library.tables
    )
    assert roll.result == "Undead"
    assert [(f.table, f.result) for f in roll.follow_ups] == [
        ("severity", "Heavy"),
        ("undead_kind", "Wraith"),
    ]
    nothing = roll_table(
        library.get("encounter_country_night"), GivenFaces([2]), tables=library.tables
    )
    assert nothing.follow_ups == ()


def test_sum_of_dice_weights() -> None:
    """2d6 makes 7 in 6 of 36 throws."""
    table = RandomTable.model_validate(
        {
            "name": "t",
            "title": "T",
            "die": "2d6",
            "entries": [
                {"roll": "2-6", "result": "low"},
                {"roll": 7, "result": "seven"},
                {"roll": "8-12", "result": "high"},
            ],
        }
    )
    assert total_weights(table.die)[7] == 6
    assert entry_chances(table)[1].chance == Fraction(1, 6)
    assert roll_table(table, GivenFaces([3, 4])).result == "seven"


def _write(folder: Path, name: str, data: object) -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _write_tavern(folder: Path) -> Path:
    """A narrator's d2 tavern table followed by Cogent's shipped severity roll."""
    return _write(
        folder,
        "tavern.yaml",
        {
            "title": "Tavern",
            "die": "d2",
            "follow_up": ["severity"],
            "entries": [{"roll": 1, "result": "Brawl"}, {"roll": 2, "result": "Song"}],
        },
    )


@pytest.mark.parametrize(
    ("entries", "die", "message"),
    [
        ([{"roll": "1-3", "result": "a"}, {"roll": "5-6", "result": "b"}], "d6", "gap"),
        ([{"roll": "1-4", "result": "a"}, {"roll": "4-6", "result": "b"}], "d6", "overlaps"),
        ([{"roll": "1-4", "result": "a"}], "d6", "end at 4"),
        ([{"roll": "1-6", "result": "a"}], "6x", "die expression"),
        ([{"roll": "6-1", "result": "a"}], "d6", "backwards"),
        ([{"roll": True, "result": "a"}], "d6", "write a number"),
        ([{"roll": 1.5, "result": "a"}], "d6", "write a number"),
    ],
)
def test_broken_tables_are_data_errors(
    tmp_path: Path, entries: list[object], die: str, message: str
) -> None:
    """A table with a gap, an overlap, a short range or a bad die names its problem."""
    path = _write(tmp_path, "broken.yaml", {"title": "Broken", "die": die, "entries": entries})
    with pytest.raises(DataError, match=message):
        load_table_file(path)


def test_a_narrators_folder_adds_and_replaces_tables(tmp_path: Path) -> None:
    """A folder's tables join the shipped ones; one named like a shipped table replaces it."""
    _write(
        tmp_path,
        "severity.yaml",
        {"title": "Always heavy", "die": "d6", "entries": [{"roll": "1-6", "result": "Heavy"}]},
    )
    _write_tavern(tmp_path)
    library = narrator_tables(tmp_path)
    assert library.origins["tavern"].endswith("tavern.yaml")
    roll = roll_table(library.get("tavern"), GivenFaces([1, 2]), tables=library.tables)
    assert (roll.result, roll.follow_ups[0].result) == ("Brawl", "Heavy")
    assert shipped_tables().get("severity").title == "Severity roll"


def test_a_file_name_with_spaces_names_its_table_as_lookups_do(tmp_path: Path) -> None:
    """``Tavern Brawls.yaml`` with no ``name`` is the table ``tavern_brawls``, the key that
    ``get("Tavern Brawls")`` looks up (a space made the default name invalid before)."""
    _write(
        tmp_path,
        "Tavern Brawls.yaml",
        {"title": "Brawls", "die": "d2", "entries": [{"roll": "1-2", "result": "Chairs"}]},
    )
    library = load_table_folder(tmp_path)
    assert list(library.tables) == ["tavern_brawls"]
    assert library.get("Tavern Brawls").title == "Brawls"


def test_a_folder_table_may_follow_up_with_a_shipped_table(tmp_path: Path) -> None:
    """A narrator's tavern table alone in its folder rolls Cogent's shipped severity after it."""
    _write_tavern(tmp_path)
    library = narrator_tables(tmp_path)
    roll = roll_table(library.get("tavern"), GivenFaces([2, 6]), tables=library.tables)
    assert (roll.result, roll.follow_ups[0].result) == ("Song", "Heavy")
    assert library.origins["severity"].endswith("(shipped)")
    with pytest.raises(DataError, match="'severity', not loaded"):
        load_table_folder(tmp_path)


def test_missing_follow_up_and_cycles_are_refused(tmp_path: Path) -> None:
    """A follow-up that names no table, or a cycle of follow-ups, is a DataError."""
    _write(
        tmp_path,
        "a.yaml",
        {
            "title": "A",
            "die": "d2",
            "follow_up": ["b"],
            "entries": [{"roll": "1-2", "result": "x"}],
        },
    )
    with pytest.raises(DataError, match="'b', not loaded"):
        load_table_folder(tmp_path)
    _write(
        tmp_path,
        "b.yaml",
        {
            "title": "B",
            "die": "d2",
            "follow_up": ["a"],
            "entries": [{"roll": "1-2", "result": "y"}],
        },
    )
    with pytest.raises(DataError, match="cycle"):
        load_table_folder(tmp_path)


def test_seeded_rolls_repeat() -> None:
    """The same seed gives the same roll."""
    library = shipped_tables()
    first = roll_table(library.get("encounter_city_night"), SeededDice(9), tables=library.tables)
    again = roll_table(library.get("encounter_city_night"), SeededDice(9), tables=library.tables)
    assert first == again
