"""Characters and statblocks read from and saved to the table's store, by version."""

from __future__ import annotations

from dataclasses import dataclass

from taletable.errors import DataError, InputError
from taletable.play.context import Table
from taletable.play.events import Event
from taletable.systems.cogent.character import CoreCharacter, TieredCharacter
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.statblock import Statblock

__all__ = [
    "Sheet",
    "StoredSheet",
    "create_statblock",
    "read_character",
    "save_character",
    "save_sheet",
]

Sheet = CoreCharacter | TieredCharacter


@dataclass(frozen=True)
class StoredSheet:
    """A sheet as read from the store: its key, the version read, and the validated sheet."""

    key: str
    version: int
    sheet: Sheet


def read_character(table: Table, key: str) -> StoredSheet:
    """The character saved under ``key`` (a file's path at the CLI, an id at a live table)."""
    stored = table.store.read("character", key)
    return StoredSheet(key, stored.version, character_from_data(dict(stored.data), source=key))


def save_character(table: Table, read: StoredSheet, sheet: Sheet) -> Event:
    """Save ``sheet`` over the version ``read``; a save that landed since is a ConflictError."""
    saved = table.store.save(
        "character", read.key, sheet.model_dump(mode="json"), version=read.version
    )
    return Event(kind="character.saved", subject=read.key, version=saved.version)


def save_sheet(table: Table, read: StoredSheet, sheet: Sheet, out: str | None) -> Event:
    """Save over the sheet read, or to ``out`` (replacing what is there, at its version)."""
    if out is None or out == read.key:
        return save_character(table, read, sheet)
    try:
        version: int | None = table.store.read("character", out).version
    except (InputError, DataError):
        version = None
    saved = table.store.save("character", out, sheet.model_dump(mode="json"), version=version)
    return Event(kind="character.saved", subject=out, version=saved.version)


def create_statblock(table: Table, key: str, block: Statblock) -> Event:
    """Save a new statblock under ``key``; a key already taken, even by a save that landed a
    moment ago in another process, is a ConflictError and nothing is written."""
    saved = table.store.save("statblock", key, block.model_dump(mode="json"), version=None)
    return Event(kind="statblock.saved", subject=key, version=saved.version)
