"""Weather by season, with the climate shift, natural disasters and lingering snow.

002 > Supplementary Content > Random Encounter Tables for Classic Medieval Fantasy > Weather.
A weather check is a D100 on the season's chart (a mild climate) and lasts about two days; the
severity roll (D6) is made every day. A hotter climate adds 10 to 20, a colder one subtracts 10
to 20; a natural 100 is a natural disaster either way, and a shifted total stays within 1-99.
Snow that fell stays on the ground while the following weather is cold.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, computed_field

from taletable._model import ComputedRecord, Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.narrator.library import shipped_tables
from taletable.tables import RandomTable, TableLibrary, TableRoll, roll_table

__all__ = [
    "CLIMATE_SHIFTS",
    "MAX_WEATHER_DAYS",
    "SEASONS",
    "WeatherDay",
    "WeatherRun",
    "climate_shift",
    "roll_weather",
]

WEATHER = "002 > Supplementary Content > Random Encounter Tables > Weather"
Season = Literal["spring", "summer", "autumn", "winter"]
SEASONS: tuple[Season, ...] = ("spring", "summer", "autumn", "winter")
#: ``hot`` and ``cold`` as words: the book's own example adds 10 (RULINGS.md "climate words").
CLIMATE_SHIFTS = {"mild": 0, "hot": 10, "cold": -10}
#: The longest weather run one call makes (DESIGN > Principles 8).
MAX_WEATHER_DAYS = 366
#: Results that are snow falling, and the result snow lingers through (RULINGS.md).
SNOW = frozenset({"snow", "blizzard"})
COLD = "cold"


class WeatherDay(Record):
    """One day: the weather (a new check, or the last one lasting) and its severity."""

    day: int = Field(ge=1)
    weather: str
    new_check: bool
    severity: str
    snow_on_ground: bool
    natural_disaster: bool
    check: TableRoll | None
    severity_roll: TableRoll


class WeatherRun(ComputedRecord):
    """A run of days of weather in one season and climate."""

    season: Season
    climate_shift: int
    check_every: int
    days: tuple[WeatherDay, ...]
    disaster_kinds: tuple[str, ...]
    rules_applied: tuple[Note, ...]
    dice_source: str
    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The run in one line, as a note (``3 days of summer weather``)."""
        return note(
            "cogent.weather.outcome",
            WEATHER,
            days=len(self.days),
            season=self.season,
            disasters=sum(day.natural_disaster for day in self.days) or None,
        )

    @property
    def day_notes(self) -> tuple[Note, ...]:
        """Each day in one line, as a note (``day 2: rain, light``)."""
        return tuple(
            note(
                "cogent.weather.day",
                WEATHER,
                day=day.day,
                weather=day.weather,
                severity=day.severity,
                disaster="natural disaster" if day.natural_disaster else None,
            )
            for day in self.days
        )


def climate_shift(climate: str | int) -> int:
    """The D100 shift of a climate: ``mild``/``hot``/``cold`` or a number (0, or 10-20 either way).

    002 > Weather: "add 10 to 20 ... if the climate is hotter ... subtract 10 to 20 if ... colder".
    """
    if isinstance(climate, str):
        word = climate.strip().lower()
        if word in CLIMATE_SHIFTS:
            return CLIMATE_SHIFTS[word]
        try:
            climate = int(word)
        except ValueError:
            raise InputError(
                "climate", f"{climate!r}", expected="hot, cold, mild or a shift like +15 or -20"
            ) from None
    if climate != 0 and not 10 <= abs(climate) <= 20:
        raise RulesError(
            WEATHER,
            f"a climate shift of {climate:+d} is not one the book gives",
            fix="use 0 for a mild climate, +10 to +20 for hotter, -10 to -20 for colder",
        )
    return climate


def roll_weather(
    season: str,
    source: DiceSource,
    *,
    climate: str | int = 0,
    days: int = 1,
    check_every: int = 2,
    tables: TableLibrary | None = None,
) -> WeatherRun:
    """Roll ``days`` of weather: a check every ``check_every`` days, severity every day.

    002 > Supplementary Content > Random Encounter Tables > Weather.
    """
    season_name = season.strip().lower()
    if season_name not in SEASONS:
        raise InputError("season", f"{season!r}", expected=", ".join(SEASONS))
    shift = climate_shift(climate)
    if not 1 <= days <= MAX_WEATHER_DAYS:
        raise InputError("days", f"{days}", expected=f"1 to {MAX_WEATHER_DAYS}")
    if not 1 <= check_every <= 7:
        raise InputError("check_every", f"{check_every}", expected="1 (turbulent) to 7 days")
    library = tables or shipped_tables()
    weather_table = library.get(f"weather_{season_name}")
    severity_table = library.get("severity")
    rule = weather_table.modifier
    if shift and (rule is None or not rule.allows(shift)):
        raise InputError(
            "climate",
            f"{shift:+d}, but table {weather_table.name} ({library.origins[weather_table.name]}) "
            "takes " + (rule.describe() if rule else "no shift"),
            expected="a shift the table takes, or give the table a modifier rule",
        )
    applied = [note("cogent.weather.check", WEATHER, days=check_every)]
    if shift:
        applied.append(note("cogent.weather.climate", WEATHER, shift=shift))
    result: list[WeatherDay] = []
    check: TableRoll | None = None
    snow_on_ground = False
    for day in range(1, days + 1):
        new_check = (day - 1) % check_every == 0
        if new_check:
            check = _without_follow_ups(weather_table, source, shift, library)
            if check.key in SNOW:
                snow_on_ground = True
            elif check.key == COLD and snow_on_ground:
                applied.append(note("cogent.weather.snow_stays", WEATHER, day=day))
            else:
                snow_on_ground = False
        assert check is not None
        severity = roll_table(severity_table, source, tables=library.tables)
        result.append(
            WeatherDay(
                day=day,
                weather=check.result,
                new_check=new_check,
                severity=severity.result,
                snow_on_ground=snow_on_ground,
                natural_disaster=check.key == "natural_disaster",
                check=check if new_check else None,
                severity_roll=severity,
            )
        )
    disaster = library.tables.get("natural_disaster")
    return WeatherRun(
        season=season_name,
        climate_shift=shift,
        check_every=check_every,
        days=tuple(result),
        disaster_kinds=tuple(entry.result for entry in disaster.entries) if disaster else (),
        rules_applied=tuple(applied),
        dice_source=source.kind,
    )


def _without_follow_ups(
    table: RandomTable, source: DiceSource, shift: int, library: TableLibrary
) -> TableRoll:
    """The weather check alone: the daily severity is rolled separately, once a day."""
    bare = table.model_copy(update={"follow_up": ()})
    return roll_table(bare, source, modifier=shift, tables=library.tables)
