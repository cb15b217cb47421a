"""A fight ended: what each fighter takes away written onto its character's sheet (002 >
Combat > Victory Levels; RULINGS.md "a fight's end").

Each fighter that came from a stored character (:mod:`taletable.play.combat_sheets`) gets the
injuries it took and the states it keeps as a new version of its sheet, saved over the version
read now (so a sheet changed during the fight, its destiny spent, keeps those changes); a
statblock or a bestiary creature has no sheet of its own, so the end only reports it. The
encounter is saved as ended: nothing more is played in it.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import computed_field

from taletable._model import ComputedRecord
from taletable.explain import Note, note
from taletable.play.combat import CombatRequest
from taletable.play.context import Table
from taletable.play.encounters import ENDED, end_encounter, read_encounter
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.sheets import read_character, save_character
from taletable.systems.cogent.combat.ending import FighterEnd, fighter_ends, written

__all__ = ["FightEnded", "combat_end"]


class FightEnded(ComputedRecord):
    """A fight ended: its key, name and last round, and each fighter's end."""

    encounter: str
    name: str
    round: int
    fighters: tuple[FighterEnd, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The end in one line (``Ambush ends after round 2: 1 sheet written``)."""
        sheets = sum(1 for fighter in self.fighters if fighter.version is not None)
        return note(
            "cogent.combat.ended", ENDED, fight=self.name, round=self.round, sheets=sheets
        )


def _write(
    table: Table, sheets: Mapping[str, str], ends: tuple[FighterEnd, ...], fight: str
) -> tuple[tuple[FighterEnd, ...], list[Event]]:
    """Each character's sheet with its fighters' ends, saved once over the version read now."""
    by_key: dict[str, list[FighterEnd]] = {}
    for end in ends:
        key = sheets.get(end.id)
        if key is not None:
            by_key.setdefault(key, []).append(end)
    versions: dict[str, int | None] = {}
    events: list[Event] = []
    for key, theirs in by_key.items():
        read = read_character(table, key)
        sheet = read.sheet
        for end in theirs:
            sheet = written(sheet, end, fight)
        if sheet == read.sheet:
            continue
        saved = save_character(table, read, sheet)
        versions[key] = saved.version
        events.append(saved)
    marked = tuple(
        end.model_copy(update={"character": key, "version": versions.get(key or "")})
        for end in ends
        for key in (sheets.get(end.id),)
    )
    return marked, events


@action("cogent.combat.end", CombatRequest)
def combat_end(request: CombatRequest, table: Table) -> Played[FightEnded]:
    """End a fight: each character's injuries and lasting states written onto its sheet as a
    new version; statblocks and creatures reported; the fight played on no more (002 > Combat >
    Victory Levels; RULINGS.md "a fight's end")."""
    read = read_encounter(table, request.encounter)
    if read.ended:
        end_encounter(table, read)  # refuses: ended already, before a sheet is touched
    encounter = read.encounter
    ends = fighter_ends(encounter)  # refuses a fight with an outcome still to choose
    marked, saves = _write(table, read.sheets, ends, encounter.name)
    saved = end_encounter(table, read)
    result = FightEnded(
        encounter=read.key, name=encounter.name, round=encounter.round, fighters=marked
    )
    ended = Event(kind="cogent.combat.end", subject=read.key, data={"sheets": len(saves)})
    return Played(result, (ended, saved, *saves))
