"""Injuries treated and rested on a stored character (002 > Combat > Victory Levels; 002 >
Core Skills > Survival; RULINGS.md "healing"), each a new version of the sheet with a line of
its history.

Treating is a check of the healer's skill of first aid (Survival; a tiered table may name
another) against a CL of the injury's level, rolled with the table's dice; resting is the
narrator's word that days passed. Each reads the sheet at a version and saves over it.
"""

from __future__ import annotations

from pydantic import AliasChoices, computed_field

from taletable._model import ComputedRecord
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.play.sheets import read_character, save_character
from taletable.systems.cogent.character.healing import (
    HEAL_DAYS,
    MAX_REST_DAYS,
    injury_name,
    rest,
    treat,
    treatment_level,
)
from taletable.systems.cogent.character.sheet import Injury
from taletable.systems.cogent.checks import CheckResult, roll_check

__all__ = ["RestRequest", "Rested", "TreatRequest", "Treatment", "rest_character", "treat_injury"]

#: The ruling a one-line summary cites (it cites the book's words in turn).
HEALING_RULING = 'RULINGS.md "healing"'


class TreatRequest(Request):
    """First aid on one injury of a stored character, by itself or another character."""

    character: str = described(text="The injured character.", min_length=1, max_length=4096)
    injury: int | None = described(
        None, "The injury's number on the sheet (1 is the first); default: the most severe "
        "untreated one.", ge=1, le=1000,
    )  # fmt: skip
    healer: str | None = described(
        None, "The character who treats (default: the injured one).", max_length=4096
    )
    skill: str = described(
        "Survival", "The skill of first aid (002 > Survival: basic first aid).", min_length=1,
        max_length=80,
    )  # fmt: skip
    challenge_level: int | None = described(
        None, "The CL (default: the injury's level).", ge=0, le=100,
        validation_alias=AliasChoices("challenge_level", "cl"),
    )  # fmt: skip
    faces: Faces = None


class Treatment(ComputedRecord):
    """First aid given: the injury as it was, the check, and whether it is now treated."""

    character: str
    healer: str
    injury: Injury
    treated: bool
    check: CheckResult
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The treatment in one line (``Mara's minor injury treated by Ansel``)."""
        kind = "cogent.heal.treated" if self.treated else "cogent.heal.untreated"
        return note(kind, HEALING_RULING, injury=injury_name(self.injury), by=self.healer)


@action("cogent.character.treat", TreatRequest)
def treat_injury(request: TreatRequest, table: Table) -> Played[Treatment]:
    """Treat an injury: a check of the healer's first aid at a CL of the injury's level; a pass
    marks it treated (002 > Victory Levels; 002 > Core Skills > Survival; RULINGS.md
    "healing")."""
    from taletable.systems.cogent.character import check_pool

    read = read_character(table, request.character)
    index, injury = treatment_level(read.sheet, request.injury)
    healer_sheet = read.sheet
    if request.healer not in (None, request.character):
        try:
            healer_sheet = read_character(table, str(request.healer)).sheet
        except InputError as error:
            raise InputError("healer", error.problem, expected=error.expected) from None
    pool = check_pool(healer_sheet, request.skill)
    level = injury.level if request.challenge_level is None else request.challenge_level
    source = dice_for(table, request.faces)
    result = roll_check(pool, level, source, rules=table.rules, player_initiated=False)
    finish(source)
    by = healer_sheet.identity.name
    updated, line = treat(read.sheet, index, result.passed, by)
    events = [Event(kind="cogent.character.treat", subject=request.character)]
    if updated != read.sheet:
        events.append(save_character(table, read, updated))
    treatment = Treatment(
        character=read.sheet.identity.name, healer=by, injury=injury, treated=result.passed,
        check=result, rules_applied=(line,),
    )  # fmt: skip
    return Played(treatment, tuple(events))


class RestRequest(Request):
    """Days a stored character rests (the narrator's word), and the days a level takes."""

    character: str = described(text="The character who rests.", min_length=1, max_length=4096)
    days: int = described(text="Days of rest.", ge=1, le=MAX_REST_DAYS)
    heal_days: int = described(
        HEAL_DAYS, "Days of rest an untreated minor injury takes to heal, and a treated injury "
        "a level ('a few days'; RULINGS.md \"healing\").", ge=1, le=MAX_REST_DAYS,
    )  # fmt: skip


class Rested(ComputedRecord):
    """A rest taken: the days, the injuries left, and what healed, lowered or still waits."""

    character: str
    days: int
    injuries: tuple[Injury, ...]
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The rest in one line (``Mara rests 3 days: 1 injury left``)."""
        return note(
            "cogent.heal.rested", HEALING_RULING, character=self.character, days=self.days,
            left=len(self.injuries),
        )  # fmt: skip


@action("cogent.character.rest", RestRequest)
def rest_character(request: RestRequest, table: Table) -> Played[Rested]:
    """Rest: minor injuries heal in a few days (a treated one faster), treated ones lose a level
    every few days, untreated serious ones wait for treatment (002 > Victory Levels; RULINGS.md
    "healing")."""
    read = read_character(table, request.character)
    updated, notes = rest(read.sheet, request.days, request.heal_days)
    saved = save_character(table, read, updated)
    rested = Rested(
        character=read.sheet.identity.name, days=request.days, injuries=updated.injuries,
        rules_applied=notes,
    )  # fmt: skip
    return Played(rested, (Event(kind="cogent.character.rest", subject=request.character), saved))
