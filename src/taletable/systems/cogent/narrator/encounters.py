"""Random encounters in open land and in the city, by day and by night, with their severity.

002 > Supplementary Content > Random Encounter Tables for Classic Medieval Fantasy: roll every
1 to 10 km in open land, once every city block in a city; each encounter has a severity roll.
An encounter with a creature names its statblock in the bestiary (``bestiary.py``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import computed_field

from taletable._model import ComputedRecord
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.systems.cogent.narrator.library import shipped_tables
from taletable.tables import TableLibrary, TableRoll, roll_table

__all__ = ["PLACES", "TIMES", "Encounter", "roll_encounter"]

Place = Literal["country", "city"]
Time = Literal["day", "night"]
PLACES: tuple[Place, ...] = ("country", "city")
TIMES: tuple[Time, ...] = ("day", "night")


#: Where the encounter tables are.
ENCOUNTERS = "002 > Supplementary Content > Random Encounter Tables"


class Encounter(ComputedRecord):
    """An encounter: what was met, how severe, and the rolls behind it."""

    where: Place
    time: Time
    encounter: str
    severity: str | None
    kind: str | None
    statblock: str | None
    roll: TableRoll
    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The encounter in one line, as a note (``a pack of wolves (dangerous)``)."""
        return note(
            "cogent.encounter.outcome", ENCOUNTERS, encounter=self.encounter,
            severity=self.severity,
        )  # fmt: skip


def roll_encounter(
    where: str, time: str, source: DiceSource, *, tables: TableLibrary | None = None
) -> Encounter:
    """Roll an encounter (002 > Supplementary Content > Random Encounter Tables)."""
    place = where.strip().lower()
    if place in {"open", "open-land", "land"}:
        place = "country"
    if place not in PLACES:
        raise InputError("where", f"{where!r}", expected="country or city")
    when = time.strip().lower()
    if when not in TIMES:
        raise InputError("time", f"{time!r}", expected="day or night")
    library = tables or shipped_tables()
    roll = roll_table(library.get(f"encounter_{place}_{when}"), source, tables=library.tables)
    severity = roll.follow("severity")
    kind = next((follow for follow in roll.follow_ups if follow.table != "severity"), None)
    return Encounter(
        where=place,
        time=when,
        encounter=roll.result,
        severity=severity.result if severity else None,
        kind=kind.result if kind else None,
        statblock=(kind.tags if kind else {}).get("statblock") or roll.tags.get("statblock"),
        roll=roll,
    )
