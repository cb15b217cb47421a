"""Deleting a table (its narrator, or an operator's ``delete-table`` and ``prune``), a seat
removed by its own player, and which tables nobody has used lately (DESIGN > Principles 14).

A table is deleted whole, in one transaction, its row locked first (so no write of it is
half-way): every row that is the table's, :data:`TABLE_ROWS` in that order (the rows that
refer to the table before the table). Then every worker forgets it: the writer's own at once
(:meth:`taletable.server.notify.Hub.forget`), the others by a ``d:TABLE`` NOTIFY sent in the
deleting transaction (PostgreSQL; delivered only if it commits): its cached seats and head,
its scene seeds, and its open streams end. Afterwards the table is 404 everywhere.

A table is idle after ``days`` when its newest event (its log's head: every change of a table
appends one) was written before then, and no page of it has had a stream open since
(``presence``, which a page's open stream renews every 15 s). A table whose log holds only its
opening is judged by that opening (its ``created_at``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, delete, func, select, text

from taletable.log_entry import read_entry
from taletable.server.db import Database
from taletable.server.errors import NotFound
from taletable.server.log import NOTIFY_CHANNEL, lock_table, read_table
from taletable.server.notify import Hub
from taletable.server.owners import character_owners
from taletable.server.presence import STALE_SECONDS
from taletable.server.schema import (
    EVENTS,
    PRESENCE,
    RECIPIENTS,
    RETRIES,
    SCENES,
    SEATS,
    TABLES,
    THINGS,
)

__all__ = [
    "TABLE_ROWS",
    "IdleTable",
    "delete_table",
    "idle_tables",
    "missing_table",
    "prune",
    "remove_seat",
]

#: Every row of a table, by the column naming it, in the order they are deleted.
TABLE_ROWS: tuple[Column[Any], ...] = (
    RETRIES.c.table_id,
    RECIPIENTS.c.table_id,
    EVENTS.c.table_id,
    SCENES.c.table_id,
    THINGS.c.scope,
    PRESENCE.c.table_id,
    SEATS.c.table_id,
    TABLES.c.id,
)
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


@dataclass(frozen=True)
class IdleTable:
    """A table nobody has used since ``last_used``: its id, name and head."""

    id: str
    name: str
    last_used: datetime.datetime
    head_seq: int


def _delete_rows(connection: Connection, table_id: str) -> dict[str, int]:
    """Delete every row of ``table_id`` (:data:`TABLE_ROWS`); how many of each table went."""
    counts = {}
    for column in TABLE_ROWS:
        gone = connection.execute(delete(column.table).where(column == table_id))
        counts[column.table.name] = int(gone.rowcount)
    return counts


def delete_table(
    database: Database, table_id: str, hub: Hub | None = None, *, head_seq: int | None = None
) -> dict[str, int] | None:
    """Delete ``table_id`` whole in one transaction (404, NotFound ``id``, when there is none)
    and have every worker forget it; the rows deleted, by table. With ``head_seq`` (prune) the
    table is deleted only if its log's head is still there and no page of it opened since it
    was found idle; None when it was not. ``hub``: this worker's, which forgets it at once."""
    with database.table_lock(table_id), database.write() as connection:
        head = lock_table(connection, table_id)
        if head_seq is not None and (head.head_seq != head_seq or _present(connection, table_id)):
            return None
        counts = _delete_rows(connection, table_id)
        if database.is_postgresql:  # every worker's hub, this one's too, at commit
            connection.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "payload": f"d:{table_id}"})
    if hub is not None:
        hub.forget(table_id)
    return counts


def remove_seat(database: Database, hub: Hub, table_id: str, seat_id: str) -> list[str]:
    """Remove ``seat_id`` from ``table_id`` with the characters it owns (:mod:`.owners`), in one
    transaction: its seat row, those characters' rows and its presence go; the log keeps every
    entry (it is the truth, and hash-chained), so an export still verifies and still shows
    what the seat did. Every worker forgets the table's cached seats and ends the seat's
    streams (an ``l:TABLE:SEAT`` NOTIFY on PostgreSQL). The keys of the characters removed."""
    with database.table_lock(table_id), database.write() as connection:
        lock_table(connection, table_id)
        owned = character_owners(connection, table_id)
        keys = sorted(key for key, owner in owned.items() if owner == seat_id)
        if keys:
            connection.execute(
                delete(THINGS).where(
                    (THINGS.c.scope == table_id)
                    & (THINGS.c.kind == "character")
                    & THINGS.c.key.in_(keys)
                )
            )
        connection.execute(
            delete(PRESENCE).where(
                (PRESENCE.c.table_id == table_id) & (PRESENCE.c.seat_id == seat_id)
            )
        )
        connection.execute(
            delete(SEATS).where((SEATS.c.table_id == table_id) & (SEATS.c.id == seat_id))
        )
        if database.is_postgresql:
            payload = f"l:{table_id}:{seat_id}"
            connection.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "payload": payload})
    hub.forget(table_id, seat_id)
    return keys


def missing_table(database: Database, table_id: str) -> None:
    """404 (NotFound ``id``) when there is no table ``table_id`` (none ever, or deleted)."""
    with database.read() as connection:
        read_table(connection, table_id)


def _present(connection: Connection, table_id: str) -> bool:
    """Whether a page of ``table_id`` has a stream open (beating lately) in any worker."""
    since = datetime.datetime.now(datetime.UTC).timestamp() - STALE_SECONDS
    found = connection.execute(
        select(PRESENCE.c.stream).where(
            (PRESENCE.c.table_id == table_id) & (PRESENCE.c.seen_at >= since)
        )
    ).first()
    return found is not None


def _moment(text: str) -> datetime.datetime:
    """An ISO 8601 time as written (UTC when it names no zone)."""
    moment = datetime.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


def idle_tables(
    database: Database, days: int, now: datetime.datetime | None = None
) -> list[IdleTable]:
    """The tables nobody has used for ``days`` days before ``now``: no event written and no
    page's stream open since (see the module's docstring), oldest use first."""
    now = now or datetime.datetime.now(datetime.UTC)
    before = now - datetime.timedelta(days=days)
    seen = (
        select(PRESENCE.c.table_id, func.max(PRESENCE.c.seen_at).label("seen_at"))
        .group_by(PRESENCE.c.table_id)
        .subquery()
    )
    query = (
        select(TABLES.c.id, TABLES.c.name, TABLES.c.created_at, TABLES.c.head_seq)
        .add_columns(EVENTS.c.event, seen.c.seen_at)
        .outerjoin(EVENTS, (EVENTS.c.table_id == TABLES.c.id) & (EVENTS.c.seq == TABLES.c.head_seq))
        .outerjoin(seen, seen.c.table_id == TABLES.c.id)
    )
    idle = []
    with database.read() as connection:
        for row in connection.execute(query):
            used = [_moment(row.created_at)]
            if row.event is not None:
                used.append(_moment(read_entry(row.event).at))
            if row.seen_at is not None:
                used.append(datetime.datetime.fromtimestamp(row.seen_at, datetime.UTC))
            if max(used) < before:
                idle.append(IdleTable(row.id, row.name, max(used), int(row.head_seq)))
    return sorted(idle, key=lambda table: (table.last_used, table.id))


def prune(database: Database, tables: Iterable[IdleTable]) -> list[IdleTable]:
    """Delete each of ``tables`` (found by :func:`idle_tables`), each in its own transaction,
    unless it was used since; the ones deleted."""
    deleted = []
    for table in tables:
        try:
            counts = delete_table(database, table.id, head_seq=table.head_seq)
        except NotFound:  # deleted meanwhile
            continue
        if counts is not None:
            deleted.append(table)
    return deleted
