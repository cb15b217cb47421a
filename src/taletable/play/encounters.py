"""Combat encounters read from and saved to the table's store, by version."""

from __future__ import annotations

from dataclasses import dataclass

from taletable.files import load_model
from taletable.play.context import Table
from taletable.play.events import Event
from taletable.systems.cogent.combat import Encounter

__all__ = ["StoredEncounter", "create_encounter", "read_encounter", "save_encounter"]


@dataclass(frozen=True)
class StoredEncounter:
    """An encounter as read from the store: its key, the version read, and the encounter."""

    key: str
    version: int
    encounter: Encounter


def read_encounter(table: Table, key: str) -> StoredEncounter:
    """The encounter saved under ``key`` (a file's path at the CLI, an id at a live table)."""
    stored = table.store.read("encounter", key)
    encounter = load_model(dict(stored.data), Encounter, source=key)
    return StoredEncounter(key, stored.version, encounter)


def save_encounter(table: Table, read: StoredEncounter, encounter: Encounter) -> Event:
    """Save ``encounter`` over the version ``read``; one saved since is a ConflictError."""
    saved = table.store.save(
        "encounter", read.key, encounter.model_dump(mode="json"), version=read.version
    )
    return Event(kind="encounter.saved", subject=read.key, version=saved.version)


def create_encounter(table: Table, key: str, encounter: Encounter) -> Event:
    """Save a new encounter under ``key``; a key already taken is a ConflictError."""
    saved = table.store.save("encounter", key, encounter.model_dump(mode="json"), version=None)
    return Event(kind="encounter.saved", subject=key, version=saved.version)
