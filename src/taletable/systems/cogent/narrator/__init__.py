"""The narrator's tools of Cogent: random tables, weather and encounters (002 > Supplementary)."""

from taletable.systems.cogent.narrator.bestiary import bestiary, bestiary_statblock
from taletable.systems.cogent.narrator.encounters import PLACES, TIMES, Encounter, roll_encounter
from taletable.systems.cogent.narrator.library import narrator_tables, shipped_tables
from taletable.systems.cogent.narrator.weather import (
    CLIMATE_SHIFTS,
    MAX_WEATHER_DAYS,
    SEASONS,
    WeatherDay,
    WeatherRun,
    climate_shift,
    roll_weather,
)

__all__ = [
    "CLIMATE_SHIFTS",
    "MAX_WEATHER_DAYS",
    "PLACES",
    "SEASONS",
    "TIMES",
    "Encounter",
    "WeatherDay",
    "WeatherRun",
    "bestiary",
    "bestiary_statblock",
    "climate_shift",
    "narrator_tables",
    "roll_encounter",
    "roll_weather",
    "shipped_tables",
]
