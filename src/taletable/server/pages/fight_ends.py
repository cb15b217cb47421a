"""Fights left without an ending, for the narrator's page (issue 34 point 5; RULINGS.md "a
fight's end").

A fight is in progress from its start until ``cogent.combat.end``; only the newest fight is the
table's current one (the tracker, the card). Every other fight started and never ended was
left: the narrator's fight card lists them, newest first, each with the button that ends it
(its injuries written on the sheets then). The starts are read by an indexed query of the
table's ``cogent.combat.start`` events (the newest :data:`MOST_LISTED`), each fight from the
store; the log is never replayed.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from taletable.errors import TaletableError
from taletable.log_entry import read_entry
from taletable.server.combat_seats import encounter_key
from taletable.server.schema import EVENTS
from taletable.server.session import TableSession

__all__ = ["MOST_LISTED", "abandoned"]

#: The most fights started that the narrator's list looks back over (the newest).
MOST_LISTED = 20


def _started(connection: Any, table_id: str) -> list[str]:
    """The keys of the table's newest fights started, newest first, each once."""
    rows = connection.execute(
        select(EVENTS.c.event)
        .where(
            EVENTS.c.table_id == table_id,
            EVENTS.c.kind == "cogent.combat.start",
            EVENTS.c.visibility == "public",  # as the tracker's current fight is
        )
        .order_by(EVENTS.c.seq.desc())
        .limit(MOST_LISTED)
    )
    keys: list[str] = []
    for row in rows:
        key = encounter_key(read_entry(row.event).args)
        if key and key not in keys:
            keys.append(key)
    return keys


def abandoned(session: TableSession, current: str | None) -> list[dict[str, Any]]:
    """The fights this table started and never ended, but the current one: each one's key,
    name and round (the narrator's page lists them with a button to end each)."""
    from taletable.play.encounters import read_encounter

    left = []
    with session.reading() as reading:
        for key in _started(reading.connection, session.table_id):
            if key == current:
                continue
            try:
                stored = read_encounter(reading.table, key)
            except TaletableError:
                continue  # a fight the store no longer holds, or one that does not replay
            if not stored.ended:
                encounter = stored.encounter
                left.append({"key": key, "name": encounter.name, "round": encounter.round})
    return left
