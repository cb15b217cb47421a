"""What a person does to a character sheet in the store: advance it, buy with it.

Each reads the sheet at a version and saves it over that version, so a save that landed in
between (another person, another process) is refused with a ConflictError, never overwritten.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field

from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.requests import HardcoreRequest, Request, described, rule_field
from taletable.play.sheets import read_character, read_sheet_or_statblock, save_sheet
from taletable.systems.cogent.character.commerce import Purchase, purchase
from taletable.systems.cogent.character.pool_summary import SheetPools, sheet_pools
from taletable.systems.cogent.character.progression import advance as advance_sheet
from taletable.systems.cogent.character.sheet import Award

__all__ = ["AdvanceRequest", "BuyRequest", "PoolsRequest", "advance", "buy", "character_pools"]


class AdvanceRequest(Request):
    """A campaign event for a stored sheet."""

    character: str
    event: Literal[
        "chapter", "arc", "final-arc", "first-session", "milestone", "growth", "tier"
    ] = described(text="The campaign event (002 > Campaign Progression; 000 > Tier Progression).")
    vocation: str = described("*", "For a career milestone: the vocation (default all).")
    story_destiny: Literal["at_least", "reset"] = rule_field("story_destiny")
    out: str | None = None


@action("cogent.character.advance", AdvanceRequest)
def advance(request: AdvanceRequest, table: Table) -> Played[Award]:
    """Apply a campaign event, recorded in the sheet's history (002 > Campaign Progression;
    000 > Tier Progression), and save the sheet."""
    read = read_character(table, request.character)
    rules = table.rules.model_copy(update={"story_destiny": request.story_destiny})
    updated = advance_sheet(read.sheet, request.event, vocation=request.vocation, rules=rules)
    saved = save_sheet(table, read, updated, request.out)
    return Played(updated.history[-1], (Event(kind="cogent.character.advance"), saved))


class BuyRequest(Request):
    """A purchase with a stored sheet's commerce points."""

    character: str
    item: str = described(text="What is bought.")
    value: int = described(text="Its item value (0-8).", ge=0, le=8)
    quantity: bool = described(False, "Bought in quantity or regularly.")
    haggled: bool = described(False, "A passed persuasion/deception check dropped the value.")
    destiny: int = described(
        0, "Destiny points the narrator lets lower the value, a level each.", ge=0, le=50
    )
    away: bool = described(False, "Bought away from home (Closed Trade: level counts 2 lower).")
    #: 002 > Quirks of Wealth: Scrooge, Loan Shark, Hidden Price.
    for_other: str | None = described(
        None, "Who it is bought for (Scrooge, Loan Shark...).",
        validation_alias=AliasChoices("for_other", "for"),
    )  # fmt: skip
    approved: bool = described(False, "Family Ties: the spending was approved.")
    out: str | None = None


@action("cogent.buy", BuyRequest)
def buy(request: BuyRequest, table: Table) -> Played[Purchase]:
    """Buy an item with commerce points (002 > Commerce Points), recorded on the sheet."""
    read = read_character(table, request.character)
    updated, record = purchase(
        read.sheet,
        request.item,
        request.value,
        quantity=request.quantity,
        haggled=request.haggled,
        destiny=request.destiny,
        away=request.away,
        for_other=request.for_other,
        approved=request.approved,
    )
    saved = save_sheet(table, read, updated, request.out)
    return Played(record, (Event(kind="cogent.buy"), saved))


class PoolsRequest(HardcoreRequest):
    """A stored sheet or statblock whose pools to show, by the standard or hardcore rules."""

    character: str = Field(min_length=1)


@action("cogent.character.pools", PoolsRequest, reads=True)
def character_pools(request: PoolsRequest, table: Table) -> Played[SheetPools]:
    """Every check and combat pool of a sheet or a statblock, each with how it is built
    (002 > How to Play > Dice Pools; Combat Fundamentals; Hardcore Combat when switched on)."""
    sheet, block = read_sheet_or_statblock(table, request.character)
    rough = block.rough_pools if block is not None else None
    pools = sheet_pools(sheet, rough_pools=rough, rules=request.rules_at(table.rules))
    return Played(pools, (Event(kind="cogent.character.pools", subject=request.character),))
