"""Making a character, step by step: what both shells call to create and check a sheet.

A shell walks the steps of its edition (``cogent.character.step`` checks each one as it is
filled), makes the choices that are rules through the table (a disabling characteristic or a
quirk of wealth rolled with the table's dice, the commerce level and its consequences, the
starting destiny), and finishes with ``cogent.character.new``, which refuses a sheet that is not
a legal new character with every problem and saves a legal one under its key.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from taletable._model import Record
from taletable.errors import DataError, InputError
from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.requests import Request
from taletable.play.sheets import read_character
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.budget import Budget
from taletable.systems.cogent.character.creation import (
    CreationRefused,
    StepCheck,
    check_step,
    creation_report,
)
from taletable.systems.cogent.character.creation_choices import (
    choose_disabling,
    choose_quirk,
    commerce_needs,
    with_commerce,
    with_starting_destiny,
)
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.character.report import Problem, Report
from taletable.systems.cogent.character.sheet import DisablingChoice

__all__ = [
    "CommerceRequest",
    "CreatedCharacter",
    "DisablingRequest",
    "NewCharacterRequest",
    "QuirkPicked",
    "QuirkRequest",
    "SheetDraft",
    "StartingDestinyRequest",
    "StepRequest",
    "ValidateRequest",
    "character_step",
    "commerce",
    "disabling",
    "new_character",
    "quirk",
    "starting_destiny",
    "validate_character",
]

CostIncrease = Field(default=1, ge=0, le=5)


class StepRequest(Request):
    """A sheet filled up to a creation step, to be checked."""

    sheet: dict[str, Any]
    step: str
    cost_increase: int = CostIncrease


@action("cogent.character.new.step", StepRequest, reads=True)
def character_step(request: StepRequest, table: Table) -> Played[StepCheck]:
    """Check one creation step of a sheet being made (002 > Character Creation; 000)."""
    checked = check_step(request.sheet, request.step, cost_increase=request.cost_increase)
    return Played(checked, (Event(kind="cogent.character.new.step"),))


class DisablingRequest(Request):
    """A disabling characteristic: a table name, ``roll``, or a custom one."""

    answer: str
    custom: bool = False
    skill: str | None = None


@action("cogent.character.new.disabling", DisablingRequest)
def disabling(request: DisablingRequest, table: Table) -> Played[DisablingChoice]:
    """Choose or roll a disabling characteristic (002 > Disabling Characteristics)."""
    choice = choose_disabling(
        request.answer, table.dice, custom=request.custom, skill=request.skill
    )
    return Played(choice, (Event(kind="cogent.character.new.disabling"),))


class QuirkRequest(Request):
    """A quirk of wealth: a table name, blank or ``roll`` (core), or a custom one."""

    answer: str = ""
    edition: Literal["core", "tiered"] = "core"
    held: tuple[str, ...] = ()
    custom: bool = False


class QuirkPicked(Record):
    """A quirk of wealth taken: its name, and whether it was agreed instead of the table's."""

    name: str
    custom: bool


@action("cogent.character.new.quirk", QuirkRequest)
def quirk(request: QuirkRequest, table: Table) -> Played[QuirkPicked]:
    """Roll or choose a quirk of wealth (002 > Quirks of Wealth Table; 000 > Equipment)."""
    name, custom = choose_quirk(
        request.answer, table.dice, edition=request.edition, held=request.held,
        custom=request.custom,
    )  # fmt: skip
    picked = QuirkPicked(name=name, custom=custom)
    return Played(picked, (Event(kind="cogent.character.new.quirk"),))


class SheetDraft(Record):
    """A sheet's data as creation has filled it so far, and what its step still needs."""

    sheet: dict[str, Any]
    quirks_needed: int = 0
    bonus_skills_needed: int = 0


class CommerceRequest(Request):
    """The narrator's commerce level, the player's step, and what they brought."""

    sheet: dict[str, Any]
    assigned: int = Field(ge=0, le=8)
    adjustment: int = Field(default=0, ge=-1, le=1)
    quirks: tuple[QuirkPicked, ...] = ()
    bonus_skills: tuple[str, ...] = ()


@action("cogent.character.new.commerce", CommerceRequest, reads=True)
def commerce(request: CommerceRequest, table: Table) -> Played[SheetDraft]:
    """Assign commerce at creation (002 > Assigning Commerce Points): the sheet with its level,
    quirks and bonus points placed, and how many quirks and bonus points the level needs."""
    quirks, bonus = commerce_needs(request.assigned, request.adjustment)
    updated = with_commerce(
        request.sheet,
        assigned=request.assigned,
        adjustment=request.adjustment,
        quirks=tuple((q.name, q.custom) for q in request.quirks),
        bonus_skills=request.bonus_skills,
    )
    draft = SheetDraft(sheet=updated, quirks_needed=quirks, bonus_skills_needed=bonus)
    return Played(draft, (Event(kind="cogent.character.new.commerce"),))


class StartingDestinyRequest(Request):
    """A sheet that takes its starting destiny."""

    sheet: dict[str, Any]


@action("cogent.character.new.starting-destiny", StartingDestinyRequest, reads=True)
def starting_destiny(request: StartingDestinyRequest, table: Table) -> Played[SheetDraft]:
    """Give a new sheet its starting destiny (002 > Destiny Points; 000 > Finishing Touches)."""
    draft = SheetDraft(sheet=with_starting_destiny(request.sheet))
    return Played(draft, (Event(kind="cogent.character.new.starting-destiny"),))


class NewCharacterRequest(Request):
    """A finished sheet to create, and where to save it (nothing saved without a key)."""

    sheet: dict[str, Any]
    key: str | None = None
    #: Replace what is saved under the key (the CLI's --force).
    replace: bool = False
    cost_increase: int = CostIncrease


class CreatedCharacter(Record):
    """A legal new character: its sheet, where it was saved, and what is left to spend."""

    sheet: dict[str, Any]
    saved: str | None
    legal: bool
    problems: tuple[Problem, ...]
    budget: Budget


def _current_version(table: Table, key: str) -> int | None:
    try:
        return table.store.read("character", key).version
    except (InputError, DataError):
        return None


@action("cogent.character.new", NewCharacterRequest)
def new_character(request: NewCharacterRequest, table: Table) -> Played[CreatedCharacter]:
    """Create a character: refuse a sheet that breaks a creation rule (every problem), else
    save it under the key (002 > Character Creation; 000 > Character Creation)."""
    sheet = character_from_data(dict(request.sheet), source="sheet")
    report = creation_report(sheet, cost_increase=request.cost_increase)
    if report.problems:
        raise CreationRefused(report.problems)
    data = sheet.model_dump(mode="json")
    events = [Event(kind="cogent.character.new")]
    if request.key is not None:
        version = _current_version(table, request.key) if request.replace else None
        saved = table.store.save("character", request.key, data, version=version)
        events.append(Event(kind="character.saved", subject=request.key, version=saved.version))
    created = CreatedCharacter(
        sheet=data, saved=request.key, legal=True, problems=(), budget=report.budget
    )
    return Played(created, tuple(events))


class ValidateRequest(Request):
    """A sheet to check: given as data, or by its key in the store."""

    sheet: dict[str, Any] | None = None
    key: str | None = None
    cost_increase: int = CostIncrease


@action("cogent.character.validate", ValidateRequest, reads=True)
def validate_character(request: ValidateRequest, table: Table) -> Played[Report]:
    """Check a sheet against every creation rule of its edition and mode; every problem."""
    if (request.sheet is None) == (request.key is None):
        raise InputError("sheet/key", "give either a sheet or a key", expected="one of them")
    if request.sheet is not None:
        sheet = character_from_data(dict(request.sheet), source="sheet")
    else:
        assert request.key is not None
        sheet = read_character(table, request.key).sheet
    report = validate(sheet, cost_increase=request.cost_increase)
    return Played(report, (Event(kind="cogent.character.validate"),))
