"""Waking the streams when a table's log grows, in this worker and in the others.

A notification carries no event: it only says "table T has events up to seq N; read them".
Streams always read the rows (the truth), so a lost or doubled notification costs a query,
never an event.

* In one worker, a write calls :meth:`Hub.publish` after its commit.
* Across workers (PostgreSQL), the write's transaction sends ``NOTIFY taletable_events,
  'T:N'`` (delivered at commit); each worker's :class:`PostgresListener` thread LISTENs and
  publishes to its own hub. When the listening connection drops, it reconnects and wakes every
  stream, which re-reads from its last seq.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import defaultdict

__all__ = ["Hub", "PostgresListener"]

_log = logging.getLogger("taletable.server")


class Hub:
    """The streams waiting in this worker, by table; wakes them from any thread."""

    def __init__(self) -> None:
        self._waiting: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Use ``loop`` (the server's) to wake streams."""
        self._loop = loop

    def subscribe(self, table_id: str) -> asyncio.Event:
        """An event set whenever ``table_id``'s log may have grown (call from the loop)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        with self._lock:
            self._waiting[table_id].add(wake)
        return wake

    def unsubscribe(self, table_id: str, wake: asyncio.Event) -> None:
        with self._lock:
            waiting = self._waiting.get(table_id)
            if waiting is not None:
                waiting.discard(wake)
                if not waiting:
                    del self._waiting[table_id]

    def publish(self, table_id: str | None) -> None:
        """Wake the streams of ``table_id`` (None: every stream). Safe from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._wake, table_id)

    def _wake(self, table_id: str | None) -> None:
        with self._lock:
            if table_id is None:
                events = [wake for group in self._waiting.values() for wake in group]
            else:
                events = list(self._waiting.get(table_id, ()))
        for wake in events:
            wake.set()


class PostgresListener:
    """A thread that LISTENs on PostgreSQL and publishes each notification to a hub."""

    def __init__(self, conninfo: str, channel: str, hub: Hub) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.hub = hub
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="taletable-listen", daemon=True)
        self.ready = threading.Event()

    def start(self) -> None:
        self._thread.start()
        self.ready.wait(timeout=10)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {self.channel}")
                    self.ready.set()
                    self.hub.publish(None)  # anything sent while we were away: re-read
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            self.hub.publish(note.payload.partition(":")[0])
            except Exception as error:  # a dropped connection: try again shortly
                _log.warning("LISTEN connection lost (%s); reconnecting", error)
                time.sleep(0.5)
