"""Weather runs by season and climate, and encounters by place and time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces, SeededDice
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.narrator import (
    climate_shift,
    narrator_tables,
    roll_encounter,
    roll_weather,
)


def test_climate_words_and_shifts() -> None:
    """hot/cold are ±10; numbers must be 0 or 10-20 either way."""
    assert [climate_shift(c) for c in ("mild", "hot", "cold", "+15", "-20", 0)] == [
        0,
        10,
        -10,
        15,
        -20,
        0,
    ]
    for bad in (5, -25, 21):
        with pytest.raises(RulesError, match="10 to \\+20"):
            climate_shift(bad)
    with pytest.raises(InputError, match="^climate"):
        climate_shift("tropical")


def test_check_lasts_two_days_and_severity_is_daily() -> None:
    """Four days: checks on days 1 and 3, a severity roll every day."""
    source = GivenFaces([60, 1, 2, 75, 5, 6])
    run = roll_weather("spring", source, days=4)
    assert [d.weather for d in run.days] == ["Mildly cloudy"] * 2 + ["Sunshine"] * 2
    assert [d.new_check for d in run.days] == [True, False, True, False]
    assert [d.severity for d in run.days] == ["Mild", "Mild", "Heavy", "Heavy"]
    assert source.remaining == 0


def test_turbulent_weather_checks_daily() -> None:
    """check_every=1 makes a new check each day."""
    run = roll_weather("summer", GivenFaces([1, 1, 100, 1]), days=2, check_every=1)
    assert [d.weather for d in run.days] == ["Blizzard", "Natural disaster"]
    assert run.days[1].natural_disaster
    assert "Volcano" in run.disaster_kinds


def test_snow_lingers_through_cold_and_melts_otherwise() -> None:
    """Snow, then cold, then cold: snow stays; then rain: it is gone."""
    faces = [10, 1, 50, 1, 60, 1, 80, 1]  # winter: snow, cold, cold, rain (shift 0)
    run = roll_weather("winter", GivenFaces(faces), days=4, check_every=1)
    assert [d.weather for d in run.days] == ["Snow", "Cold", "Cold", "Rain"]
    assert [d.snow_on_ground for d in run.days] == [True, True, True, False]


def test_cold_without_snow_before_has_none_on_the_ground() -> None:
    """Cold weather alone leaves no snow on the ground."""
    run = roll_weather("winter", GivenFaces([50, 1]), days=1)
    assert not run.days[0].snow_on_ground


def test_weather_input_limits() -> None:
    """Unknown seasons and too many days are refused before any die is rolled."""
    source = GivenFaces([1])
    with pytest.raises(InputError, match="^season"):
        roll_weather("monsoon", source)
    with pytest.raises(InputError, match="days"):
        roll_weather("spring", source, days=0)
    assert source.used == 0


def test_encounters() -> None:
    """A city night roll of 97 is a vampire with its severity; open land at night can be undead."""
    vampire = roll_encounter("city", "night", GivenFaces([97, 3]))
    assert (vampire.encounter, vampire.severity, vampire.kind) == ("Vampire", "Average", None)
    undead = roll_encounter("country", "night", GivenFaces([67, 1, 2]))
    assert (undead.encounter, undead.severity, undead.kind) == ("Undead", "Mild", "Skeleton")
    quiet = roll_encounter("country", "day", GivenFaces([16]))
    assert (quiet.encounter, quiet.severity) == ("Nothing", None)
    with pytest.raises(InputError, match="^where"):
        roll_encounter("sea", "day", SeededDice(1))


def test_weather_cli(run_cli: Any) -> None:
    """`cogent weather` rolls a seeded run and prints JSON."""
    result = run_cli("cogent", "weather", "--season", "autumn", "--climate", "-20", "--days", "3",
                     "--seed", "5", "--json")  # fmt: skip
    assert result.status == 0, result.stderr
    data = result.json()
    assert data["climate_shift"] == -20 and len(data["days"]) == 3
    readable = run_cli("cogent", "weather", "--season", "winter", "--faces", "10,1")
    assert "Snow" in readable.stdout and "snow on the ground" in readable.stdout
    bad = run_cli("cogent", "weather", "--season", "winter", "--climate", "+30")
    assert bad.status == 2 and "+30" in bad.stderr


def test_encounter_cli(run_cli: Any) -> None:
    """`cogent encounter` with given faces."""
    result = run_cli("cogent", "encounter", "--where", "country", "--time", "day",
                     "--faces", "100,6", "--json")  # fmt: skip
    assert result.status == 0, result.stderr
    assert (result.json()["encounter"], result.json()["severity"]) == ("Dragon", "Heavy")


def test_a_narrators_weather_table_without_a_shift_rule_refuses_a_climate(
    tmp_path: Path,
) -> None:
    """A narrator's own spring table with no modifier rule: --climate hot is refused by the
    --climate option (it named --modifier, which `cogent weather` does not have), before any
    die is taken; a mild climate rolls it."""
    (tmp_path / "weather_spring.yaml").write_text(
        yaml.safe_dump({"title": "My spring", "die": "d2",
                        "entries": [{"roll": 1, "result": "Snow"}, {"roll": 2, "result": "Sun"}]}),
        encoding="utf-8",
    )  # fmt: skip
    library = narrator_tables(tmp_path)
    source = GivenFaces([2, 1])
    with pytest.raises(InputError, match="climate: \\+10, but table weather_spring .* no shift"):
        roll_weather("spring", source, climate="hot", tables=library)
    assert source.used == 0
    assert roll_weather("spring", source, tables=library).days[0].weather == "Sun"
