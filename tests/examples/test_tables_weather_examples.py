"""The weather passages of 002 > Supplementary Content > Random Encounter Tables, as tests."""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.systems.cogent.narrator import roll_weather


def test_hotter_climate_hundred_by_adding_is_ninety_nine() -> None:
    """Hot climate, +10 added to a 90: "effectively 99, not 100" - Hot, not a disaster."""
    run = roll_weather("spring", GivenFaces([90, 3]), climate="hot")
    check = run.days[0].check
    assert check is not None
    assert (check.natural, check.total, check.result) == (90, 99, "Hot")
    assert not run.days[0].natural_disaster


def test_hotter_climate_natural_hundred_is_a_disaster() -> None:
    """Hot climate, a natural 100: the natural disaster applies."""
    run = roll_weather("summer", GivenFaces([100, 3]), climate=10)
    assert run.days[0].natural_disaster


def test_colder_climate_natural_hundred_subtraction_does_not_count() -> None:
    """Cold climate, 100 rolled: "the subtraction doesn't count" - a natural disaster."""
    run = roll_weather("winter", GivenFaces([100, 6]), climate="cold")
    check = run.days[0].check
    assert check is not None and check.total == 100
    assert run.days[0].natural_disaster and run.days[0].severity == "Heavy"


def test_snow_remains_on_the_ground_when_the_following_roll_is_cold() -> None:
    """Snow, and the following weather roll is cold: the snow remains on the ground."""
    run = roll_weather("autumn", GivenFaces([5, 2, 2, 10, 4, 4]), days=4)
    assert [d.weather for d in run.days] == ["Snow", "Snow", "Cold", "Cold"]
    assert all(d.snow_on_ground for d in run.days)
