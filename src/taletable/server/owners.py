"""Who owns each character of a live table, read from its log (the log is the truth).

A character belongs to the seat that added it: the actor of its ``character.create`` event, or
of the action whose saves first stored it (``cogent.character.new`` with a ``key``, a change
saved to a new ``out``). The narrator may hand a character to another seat: a
``character.owner`` event (``{"character": KEY, "seat": SEAT}``), the latest of which wins.
A character no seat added (none yet) is the narrator's to act for.

What a seat may do with a character is decided in :mod:`taletable.server.permissions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, bindparam, select

from taletable.log_entry import read_entry
from taletable.server.schema import EVENTS, SEATS

__all__ = ["CHARACTER_OWNER", "CREATES", "Owner", "character_owners", "owner_of"]

#: The event the narrator appends to hand a character to a seat.
CHARACTER_OWNER = "character.owner"
#: The kinds of event that may store a new character: an added sheet, and the actions that
#: save a character under a key the request names.
CREATES = (
    "character.create",
    "cogent.character.new",
    "cogent.character.raise",
    "cogent.character.commerce",
    "cogent.character.quirk",
    "cogent.character.destiny",
    "cogent.character.advance",
    "cogent.buy",
)

_OWNING = (
    select(EVENTS.c.kind, EVENTS.c.actor, EVENTS.c.event)
    .where(
        (EVENTS.c.table_id == bindparam("table_id"))
        & EVENTS.c.kind.in_((*CREATES, CHARACTER_OWNER))
    )
    .order_by(EVENTS.c.seq)
)
_SEAT = select(SEATS.c.name, SEATS.c.role).where(
    (SEATS.c.table_id == bindparam("table_id")) & (SEATS.c.id == bindparam("seat"))
)


def character_owners(connection: Connection, table_id: str) -> dict[str, str]:
    """Character key -> the seat that owns it at this table now."""
    owners: dict[str, str] = {}
    for row in connection.execute(_OWNING, {"table_id": table_id}):
        entry = read_entry(row.event)
        if row.kind == CHARACTER_OWNER:
            if entry.character is not None and entry.seat is not None:
                owners[entry.character] = entry.seat
            continue
        if not row.actor:
            continue
        for save in entry.saves:
            if save.kind == "character":
                owners.setdefault(save.key, str(row.actor))
    return owners


@dataclass(frozen=True)
class Owner:
    """The seat a character belongs to: its id (None: no seat added it), name and role."""

    seat: str | None
    name: str
    role: str

    @property
    def narrator(self) -> bool:
        return self.seat is None or self.role == "narrator"


def owner_of(connection: Connection, table_id: str, key: str) -> Owner:
    """The owner of the character ``key`` (the narrator's when no seat added it)."""
    seat = character_owners(connection, table_id).get(key)
    row = None
    if seat is not None:
        row = connection.execute(_SEAT, {"table_id": table_id, "seat": seat}).first()
    if row is None:
        return Owner(seat, "the narrator", "narrator")
    return Owner(seat, str(row.name), str(row.role))
