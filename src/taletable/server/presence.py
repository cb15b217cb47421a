"""Who is connected: the seats with a page's stream open, per table, in every worker.

Each open page stream is a row of ``presence`` (its table, its seat, its last heartbeat): a
stream adds its row when it opens, renews it at every keep-alive tick, and removes it when it
closes. A seat is online while one of its streams has beaten within :data:`STALE_SECONDS`, so
a worker killed with its streams open lets them go stale instead of keeping them online for
ever. On PostgreSQL a change of presence is announced with ``NOTIFY`` like a new event, so
streams held by other workers wake and send the new list; the log, not presence, is the truth.
"""

from __future__ import annotations

import secrets
import time

from sqlalchemy import Connection, delete, insert, select, text, update

from taletable.server.db import Database
from taletable.server.log import NOTIFY_CHANNEL
from taletable.server.notify import Hub
from taletable.server.schema import PRESENCE

__all__ = ["STALE_SECONDS", "Presence"]

#: A stream that has not beaten for this long (it beats at the keep-alive tick, every 15 s) is gone.
STALE_SECONDS = 40.0
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class Presence:
    """Open page streams by table and seat, kept in the table's database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def _announce(self, connection: Connection, table_id: str) -> None:
        if self.database.is_postgresql:  # wakes the other workers' streams at commit
            connection.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "payload": f"p:{table_id}"})

    def connect(self, table_id: str, seat_id: str) -> str:
        """Mark ``seat_id`` present through a new stream; returns the stream's id."""
        stream, now = secrets.token_hex(16), time.time()
        with self.database.write() as connection:
            connection.execute(delete(PRESENCE).where(PRESENCE.c.seen_at < now - STALE_SECONDS))
            connection.execute(
                insert(PRESENCE).values(
                    stream=stream, table_id=table_id, seat_id=seat_id, seen_at=now
                )
            )
            self._announce(connection, table_id)
        return stream

    def beat(self, stream: str) -> None:
        """The stream is still open (called at each keep-alive tick)."""
        with self.database.write() as connection:
            connection.execute(
                update(PRESENCE).where(PRESENCE.c.stream == stream).values(seen_at=time.time())
            )

    def disconnect(self, table_id: str, stream: str) -> None:
        """The stream closed."""
        with self.database.write() as connection:
            connection.execute(delete(PRESENCE).where(PRESENCE.c.stream == stream))
            self._announce(connection, table_id)

    def left(self, hub: Hub, table_id: str, seat_id: str) -> None:
        """A browser left ``seat_id``: every stream of the seat ends, in every worker (on
        PostgreSQL by ``NOTIFY``, which this worker hears too), and each stream that ends takes
        its presence with it; a device that still holds the seat reconnects at once."""
        if not self.database.is_postgresql:
            hub.drop_seat(table_id, seat_id)
            return
        with self.database.write() as connection:
            payload = f"l:{table_id}:{seat_id}"
            connection.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "payload": payload})

    def online(self, table_id: str) -> frozenset[str]:
        """The seats of ``table_id`` with a stream open in any worker, beating lately."""
        since = time.time() - STALE_SECONDS
        with self.database.read() as connection:
            rows = connection.execute(
                select(PRESENCE.c.seat_id)
                .where(PRESENCE.c.table_id == table_id, PRESENCE.c.seen_at >= since)
                .distinct()
            )
            return frozenset(row.seat_id for row in rows)
