"""Combat encounters read from and saved to the table's store, by version."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from taletable.errors import DataError, RulesError, TaletableError
from taletable.files import load_model
from taletable.play.context import Table
from taletable.play.events import Event
from taletable.play.seal import check_seal, seal
from taletable.systems.cogent.combat import Encounter
from taletable.systems.cogent.combat.replay import verify_replay

__all__ = [
    "ENDED",
    "StoredEncounter",
    "create_encounter",
    "end_encounter",
    "playing_encounter",
    "read_encounter",
    "save_encounter",
]

#: Where a fight's end is ruled (nothing is played in an ended fight).
ENDED = 'RULINGS.md "a fight\'s end"'


@dataclass(frozen=True)
class StoredEncounter:
    """An encounter as read from the store: its key, the version read, and the encounter."""

    key: str
    version: int
    encounter: Encounter
    #: The fighters that came from a stored character, with its key (play.combat_sheets).
    sheets: Mapping[str, str] = field(default_factory=dict)
    #: The fight was ended (``cogent.combat.end``): it is read, never played on.
    ended: bool = False


def read_encounter(table: Table, key: str) -> StoredEncounter:
    """The encounter saved under ``key`` (a file's path at the CLI, an id at a live table),
    verified before anything acts on it: its seal (where the table seals encounters) and its
    state, which must be what its own steps make (13.2: no forged fight is played on)."""
    stored = table.store.read("encounter", key)
    data = dict(stored.data)
    if table.seal_key is not None:
        data = check_seal(data, table.seal_key, source=key)
    sheets = _sheet_keys(data.pop("sheets", {}), key)
    ended = data.pop("ended", False) is True
    encounter = load_model(data, Encounter, source=key)
    if encounter.opening:
        try:
            encounter = verify_replay(encounter)  # a schema-1 log comes back as notes
        except TaletableError as error:
            raise DataError(key, f"does not replay: {error}") from None
    return StoredEncounter(key, stored.version, encounter, sheets, ended)


def playing_encounter(table: Table, key: str) -> StoredEncounter:
    """The encounter saved under ``key``, to play a step in: one that has ended is refused
    before anything is done (RULINGS.md "a fight's end")."""
    read = read_encounter(table, key)
    _refuse_ended(read)
    return read


def _refuse_ended(read: StoredEncounter) -> None:
    if read.ended:
        raise RulesError(
            ENDED,
            f"the fight {read.key!r} has ended: nothing more is played in it",
            fix="start a new fight",
        )


def _sheet_keys(value: Any, source: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise DataError(source, "sheets: a mapping of fighter ids to character keys")
    return value


def _document(
    table: Table, encounter: Encounter, sheets: Mapping[str, str], *, ended: bool = False
) -> dict[str, Any]:
    data = encounter.model_dump(mode="json")
    if sheets:
        data["sheets"] = dict(sheets)
    if ended:
        data["ended"] = True
    return seal(data, table.seal_key) if table.seal_key is not None else data


def save_encounter(table: Table, read: StoredEncounter, encounter: Encounter) -> Event:
    """Save ``encounter`` over the version ``read``; one saved since is a ConflictError, and a
    fight that has ended is played on no more (RULINGS.md "a fight's end")."""
    _refuse_ended(read)
    saved = table.store.save(
        "encounter", read.key, _document(table, encounter, read.sheets), version=read.version
    )
    return Event(kind="encounter.saved", subject=read.key, version=saved.version)


def create_encounter(
    table: Table, key: str, encounter: Encounter, sheets: Mapping[str, str]
) -> Event:
    """Save a new encounter under ``key`` with the keys of its fighters' stored characters; a
    key already taken is a ConflictError."""
    document = _document(table, encounter, sheets)
    saved = table.store.save("encounter", key, document, version=None)
    return Event(kind="encounter.saved", subject=key, version=saved.version)


def end_encounter(table: Table, read: StoredEncounter) -> Event:
    """Save the encounter ``read`` as ended, over the version read (a fight ended already is
    refused: RULINGS.md "a fight's end")."""
    if read.ended:
        raise RulesError(ENDED, f"the fight {read.key!r} has ended already", fix="nothing to do")
    document = _document(table, read.encounter, read.sheets, ended=True)
    saved = table.store.save("encounter", read.key, document, version=read.version)
    return Event(kind="encounter.saved", subject=read.key, version=saved.version)
