"""Characters and statblocks read from and saved to the table's store, by version.

The character system (sheets, their models and rules tables) is imported when a sheet is read
or saved, not with this module: a check from a plain pool (``cogent check --pool 6``) imports
this module and never loads it (CLI start-up; tests/test_import_budget.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from taletable.errors import DataError, InputError
from taletable.play.context import Table
from taletable.play.events import Event

if TYPE_CHECKING:
    from taletable.explain import Note
    from taletable.systems.cogent.character import CoreCharacter, TieredCharacter
    from taletable.systems.cogent.pools import DicePool
    from taletable.systems.cogent.statblock import Statblock

__all__ = [
    "Sheet",
    "StoredSheet",
    "debit_destiny",
    "injury_notes",
    "read_character",
    "read_sheet_or_statblock",
    "read_statblock",
    "save_character",
    "save_sheet",
    "save_statblock",
]

Sheet: TypeAlias = "CoreCharacter | TieredCharacter"


def _sheet_from_data(data: dict[str, Any], *, source: str) -> Sheet:
    """A sheet of either edition from saved data, checked (the character system, loaded now)."""
    from taletable.systems.cogent.character.files import character_from_data as from_data

    return from_data(data, source=source)


def _statblock_from_data(data: dict[str, Any], source: str) -> Statblock:
    """A statblock from saved data, checked (002 > NPCs and Monsters)."""
    from taletable.systems.cogent.statblock import statblock_from_data as from_data

    return from_data(data, source)


@dataclass(frozen=True)
class StoredSheet:
    """A sheet as read from the store: its key, the version read, and the validated sheet."""

    key: str
    version: int
    sheet: Sheet


def read_character(table: Table, key: str) -> StoredSheet:
    """The character saved under ``key`` (a file's path at the CLI, an id at a live table)."""
    stored = table.store.read("character", key)
    return StoredSheet(key, stored.version, _sheet_from_data(dict(stored.data), source=key))


def _checked(sheet: Sheet, key: str) -> dict[str, Any]:
    """The sheet as saved data, read back first: a change that took a value past the sheet's
    own limits (a commerce gain past 100) is refused here, before a file no command could read
    is written."""
    data = sheet.model_dump(mode="json")
    _sheet_from_data(copy.deepcopy(data), source=key)
    return data


def save_character(table: Table, read: StoredSheet, sheet: Sheet) -> Event:
    """Save ``sheet`` over the version ``read``; a save that landed since is a ConflictError."""
    saved = table.store.save("character", read.key, _checked(sheet, read.key), version=read.version)
    return Event(kind="character.saved", subject=read.key, version=saved.version)


def save_sheet(table: Table, read: StoredSheet, sheet: Sheet, out: str | None) -> Event:
    """Save over the sheet read, or to ``out`` (replacing what is there, at its version)."""
    if out is None or out == read.key:
        return save_character(table, read, sheet)
    try:
        version: int | None = table.store.read("character", out).version
    except (InputError, DataError):
        version = None
    saved = table.store.save("character", out, _checked(sheet, out), version=version)
    return Event(kind="character.saved", subject=out, version=saved.version)


def debit_destiny(table: Table, read: StoredSheet | None, spent: int, what: str) -> list[Event]:
    """Take ``spent`` destiny points off the sheet ``read`` (spent on ``what``), saved over the
    version read; the saved event says how many and what is left. Nothing without a sheet or a
    spend (002 > Destiny Points: "for as many Destiny Points as they have")."""
    if read is None or not spent:
        return []
    from taletable.systems.cogent.character.destiny_awards import spend_destiny

    updated = spend_destiny(read.sheet, spent, what)
    saved = save_character(table, read, updated)
    facts = {"destiny_spent": spent, "destiny": updated.destiny.points}
    return [saved.model_copy(update={"data": facts})]


def injury_notes(read: StoredSheet | None, pool: DicePool) -> tuple[Note, ...]:
    """Why the pool built from the sheet ``read`` lost dice to its injuries (002 > Victory
    Levels: "-1D6 to all physical-based dice checks" per level), said with the check or its
    odds; none for a pool given without a sheet."""
    if read is None:
        return ()
    from taletable.systems.cogent.character.pools import injury_notes as notes_of

    return notes_of(read.sheet, pool)


def read_statblock(table: Table, key: str) -> Statblock:
    """The statblock saved under ``key`` (002 > NPCs and Monsters), checked."""
    return _statblock_from_data(dict(table.store.read("statblock", key).data), key)


def read_sheet_or_statblock(table: Table, key: str) -> tuple[Sheet, Statblock | None]:
    """A character's sheet, or a statblock's sheet and the statblock (``kind: statblock``): what
    is saved under ``key`` as a character, else as a statblock."""
    try:
        data = dict(table.store.read("character", key).data)
    except InputError:  # no character of that key: a store that keeps kinds apart
        try:
            data = dict(table.store.read("statblock", key).data)
        except InputError:
            raise InputError(
                "character", f"no character or statblock is saved as {key!r}",
                expected="a saved key",
            ) from None  # fmt: skip
        block = _statblock_from_data(data, key)
        return block.as_character(), block
    if data.get("kind") == "statblock":
        block = _statblock_from_data(data, key)
        return block.as_character(), block
    return _sheet_from_data(data, source=key), None


def save_statblock(table: Table, key: str, block: Statblock) -> Event:
    """Save a new statblock under ``key`` (the request's ``out``); one already there is refused,
    never overwritten, and a key the store cannot write is named as ``out``."""
    try:
        table.store.read("statblock", key)
    except (InputError, DataError):
        pass  # nothing there yet
    else:
        raise InputError("out", f"{key} exists", expected="a new path")
    try:
        saved = table.store.save("statblock", key, block.model_dump(mode="json"), version=None)
    except DataError as error:
        raise InputError("out", f"{key}: {error.problem}") from None
    return Event(kind="statblock.saved", subject=key, version=saved.version)
