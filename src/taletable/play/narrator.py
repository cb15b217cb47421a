"""The narrator's rolls of Cogent: the weather, a random encounter, and the bestiary.

002 > Supplementary Content > Random Encounter Tables for Classic Medieval Fantasy. A narrator's
own tables come in the request as a loaded library (see :mod:`taletable.play.tables`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import computed_field

from taletable._model import ComputedRecord, Record
from taletable.explain import Note, note
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.npcs import ShownStatblock, shown_statblock
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.play.tables import tables_in_force
from taletable.systems.cogent.narrator import (
    Encounter,
    WeatherRun,
    bestiary,
    bestiary_statblock,
    roll_encounter,
    roll_weather,
)
from taletable.systems.cogent.statblock import NPCS
from taletable.tables import TableLibrary

__all__ = [
    "BestiaryEntry",
    "BestiaryListing",
    "BestiaryRequest",
    "EncounterRequest",
    "WeatherRequest",
    "encounter",
    "npc_bestiary",
    "weather",
]


class WeatherRequest(Request):
    """Days of weather in a season and climate, a check lasting ``check_every`` days."""

    season: str = described(text="The season (spring, summer, autumn, winter).")
    climate: str | int = described(
        "mild", "mild, hot (+10), cold (-10), or a shift: 0, +10..+20 hotter, -10..-20 colder."
    )
    days: int = described(1, "Days of weather to roll.")
    check_every: int = described(2, "Days a weather check lasts (1 for turbulent weather).")
    tables: TableLibrary | None = None
    faces: Faces = None


@action("cogent.weather", WeatherRequest)
def weather(request: WeatherRequest, table: Table) -> Played[WeatherRun]:
    """Roll the weather: a D100 check by season and climate, a severity roll each day
    (002 > Supplementary Content > Random Encounter Tables > Weather)."""
    source = dice_for(table, request.faces)
    run = roll_weather(
        request.season, source, climate=request.climate, days=request.days,
        check_every=request.check_every, tables=tables_in_force(request.tables),
    )  # fmt: skip
    finish(source)
    return Played(run, (Event(kind="cogent.weather"),))


class EncounterRequest(Request):
    """A random encounter: in the country or a city, by day or night."""

    where: Literal["country", "city"] = described(text="In open country or a city.")
    time: Literal["day", "night"] = described(text="By day or by night.")
    tables: TableLibrary | None = None
    faces: Faces = None


@action("cogent.encounter", EncounterRequest)
def encounter(request: EncounterRequest, table: Table) -> Played[Encounter]:
    """Roll a random encounter and its severity (002 > Supplementary Content > Random
    Encounter Tables)."""
    source = dice_for(table, request.faces)
    result = roll_encounter(
        request.where, request.time, source, tables=tables_in_force(request.tables)
    )
    finish(source)
    return Played(result, (Event(kind="cogent.encounter"),))


class BestiaryRequest(Request):
    """The bestiary, or one creature of it by key (``dire_wolf``)."""

    name: str | None = None


class BestiaryEntry(Record):
    """A creature of the bestiary: its name and guideline tier."""

    name: str
    tier: str


class BestiaryListing(ComputedRecord):
    """Every creature of the encounter tables, by key."""

    creatures: dict[str, BestiaryEntry]
    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The listing in one line, as a note (``12 creatures``)."""
        return note("cogent.bestiary.outcome", NPCS, count=len(self.creatures))


@action("cogent.npc.bestiary", BestiaryRequest)
def npc_bestiary(
    request: BestiaryRequest, table: Table
) -> Played[BestiaryListing | ShownStatblock]:
    """List the bestiary of encounter creatures, or one creature's statblock with its pools
    (002 > Narration > NPCs and Monsters; RULINGS.md "bestiary")."""
    if request.name is None:
        creatures = {
            key: BestiaryEntry(name=block.name, tier=block.tier)
            for key, block in bestiary().items()
        }
        return Played(BestiaryListing(creatures=creatures), ())
    return Played(shown_statblock(bestiary_statblock(request.name)), ())
