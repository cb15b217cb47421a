"""A table's exports read from its log: the narrator's (every event whole) and a seat's (what
it may see whole, its own blind rolls as stubs, every other event a bare link), each event
with its hashes so the chain links (DESIGN > Principles 11; :mod:`taletable.server.log`
holds the one SQL rule of who sees what, used here)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, case, select

from taletable.server.log import OF_TABLE, OWN_BLIND, SEES_WHOLE
from taletable.server.schema import EVENTS

__all__ = ["full_log", "seat_log"]


#: Rows fetched at a time while an export streams (never the whole log in memory).
BATCH = 500


def full_log(connection: Connection, table_id: str) -> Iterator[dict[str, Any]]:
    """Every event of the table with its ``prev_hash`` and ``hash`` (the narrator's export),
    read from the database :data:`BATCH` rows at a time."""
    rows = connection.execution_options(yield_per=BATCH).execute(
        select(EVENTS.c.event, EVENTS.c.prev_hash, EVENTS.c.hash)
        .where(EVENTS.c.table_id == table_id)
        .order_by(EVENTS.c.seq)
    )
    for row in rows:
        yield {**json.loads(row.event), "prev_hash": row.prev_hash, "hash": row.hash}


#: Every event as a player or observer exports it: a public event and its whispers whole, its
#: own blind rolls as their stubs, every other event as a bare link.
_SEAT_LOG = (
    select(
        EVENTS.c.seq,
        case((SEES_WHOLE, EVENTS.c.event), (OWN_BLIND, EVENTS.c.stub), else_=None).label(
            "event"
        ),
        EVENTS.c.prev_hash,
        EVENTS.c.hash,
        EVENTS.c.body_hash,
    )
    .where(OF_TABLE)
    .order_by(EVENTS.c.seq)
)


def seat_log(connection: Connection, table_id: str, seat: str) -> Iterator[dict[str, Any]]:
    """Every event of the table as a player's or observer's export holds it: public events and
    the whispers it sent or received whole, the seat's own blind rolls as their stubs (what it
    saw of them), and every other event (narrator-only, another's blind roll, a whisper not
    for it) as a bare link: its ``seq`` and ``hidden``,
    nothing of its kind, author or time. Each keeps its ``prev_hash`` and ``hash``, so the
    chain still links.

    The choice is made in the SQL: a secret event's content never leaves the database here.
    """
    rows = connection.execution_options(yield_per=BATCH).execute(
        _SEAT_LOG, {"table_id": table_id, "seat": seat}
    )
    for row in rows:
        yield {
            **(json.loads(row.event) if row.event is not None else _bare_link(row)),
            "prev_hash": row.prev_hash,
            "hash": row.hash,
        }


def _bare_link(row: Any) -> dict[str, Any]:
    """What a seat's export holds of an event it may not see at all: its place, hidden, and
    (chain version 2) its body's hash, so the seat recomputes its link."""
    link: dict[str, Any] = {"seq": int(row.seq), "hidden": True}
    if row.body_hash is not None:
        link["body_hash"] = row.body_hash
    return link
