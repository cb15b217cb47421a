"""Changes in play to a stored character, each recorded in its history: an awarded attribute
point spent, commerce gained, a quirk of wealth's consequence, destiny awarded.

Each reads the sheet at a version and saves it over that version (a save that landed in between
is a ConflictError), as :mod:`taletable.play.characters` does.
"""

from __future__ import annotations

from taletable.errors import InputError
from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.play.sheets import read_character, save_sheet
from taletable.systems.cogent.character.awards import gain_commerce, raise_attribute
from taletable.systems.cogent.character.destiny_awards import award_destiny, destiny_for_hours
from taletable.systems.cogent.character.sheet import Award
from taletable.systems.cogent.character.wealth import quirk_consequence

__all__ = [
    "CommerceRequest",
    "DestinyRequest",
    "QuirkRequest",
    "RaiseRequest",
    "commerce",
    "destiny",
    "quirk",
    "raise_attribute_point",
]


class RaiseRequest(Request):
    """An awarded attribute point spent on an attribute of a stored sheet."""

    character: str
    attribute: str = described(text="STR, RFL, INT (tiered: CHA too).")
    out: str | None = None


@action("cogent.character.raise", RaiseRequest)
def raise_attribute_point(request: RaiseRequest, table: Table) -> Played[Award]:
    """Spend an awarded attribute point (002 > Campaign Progression; an INT point bought so
    gives no skill points, 002 > Attributes), recorded in the sheet's history."""
    read = read_character(table, request.character)
    updated = raise_attribute(read.sheet, request.attribute)
    saved = save_sheet(table, read, updated, request.out)
    return Played(updated.history[-1], (Event(kind="cogent.character.raise"), saved))


class CommerceRequest(Request):
    """Commerce points the narrator awards a stored sheet in play."""

    character: str
    gain: int = described(text="Commerce points the narrator awards.")
    reason: str = described(text="Why: the quest, the treasure, the sale.")
    out: str | None = None


@action("cogent.character.commerce", CommerceRequest)
def commerce(request: CommerceRequest, table: Table) -> Played[Award]:
    """Commerce gained in play (002 > Assigning Commerce Points), recorded in the history."""
    read = read_character(table, request.character)
    updated = gain_commerce(read.sheet, request.gain, request.reason)
    saved = save_sheet(table, read, updated, request.out)
    return Played(updated.history[-1], (Event(kind="cogent.character.commerce"), saved))


class QuirkRequest(Request):
    """A quirk of wealth's condition came about for a stored sheet."""

    character: str
    quirk: str = described(text="The quirk of wealth (e.g. Debt).")
    reason: str = described(text="What happened (the income lost...).")
    levels: int | None = described(
        None, "Commerce levels lost, where the narrator defines them (*)."
    )
    out: str | None = None


@action("cogent.character.quirk", QuirkRequest)
def quirk(request: QuirkRequest, table: Table) -> Played[Award]:
    """Apply a quirk of wealth's consequence (002 > Quirks of Wealth Table: Debt's lost income
    takes 2 levels...; 000 > Equipment: a broken quirk loses its +1 CP), recorded."""
    read = read_character(table, request.character)
    updated = quirk_consequence(read.sheet, request.quirk, request.reason, levels=request.levels)
    saved = save_sheet(table, read, updated, request.out)
    return Played(updated.history[-1], (Event(kind="cogent.character.quirk"), saved))


class DestinyRequest(Request):
    """Destiny awarded to a stored sheet: the narrator's points, or Fast Play hours played."""

    character: str
    award: int | None = described(None, "Destiny points the narrator awards for play.")
    reason: str | None = described(None, "With {award}: what the player did to earn it.")
    hours: float | None = described(None, "Fast Play: hours played (a point per 3 in all).")
    out: str | None = None


@action("cogent.character.destiny", DestinyRequest)
def destiny(request: DestinyRequest, table: Table) -> Played[Award]:
    """Award destiny (002 > Awarding Destiny Points: the narrator's award for play, or Fast
    Play's point "roughly every three hours of play"), up to the maximum, recorded."""
    if (request.award is None) == (request.hours is None):
        raise InputError("award", "give {award} or {hours}", expected="one of them")
    read = read_character(table, request.character)
    if request.award is not None:
        updated = award_destiny(read.sheet, request.award, request.reason or "")
    else:
        if request.reason is not None:
            raise InputError("reason", "goes with {award}", expected="{hours} alone")
        assert request.hours is not None
        updated = destiny_for_hours(read.sheet, request.hours)
    saved = save_sheet(table, read, updated, request.out)
    return Played(updated.history[-1], (Event(kind="cogent.character.destiny"), saved))
