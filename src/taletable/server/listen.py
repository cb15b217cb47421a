"""This worker's LISTEN on PostgreSQL: every notification of the channel handed to its hub
(:class:`taletable.server.notify.Hub`), from the server's event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from taletable.server.notify import Hub

__all__ = ["PostgresListener"]

_log = logging.getLogger("taletable.server")


class PostgresListener:
    """LISTENs on PostgreSQL from the server's event loop (an async connection: no thread,
    no hand-over between threads per notification) and hands each notification to a hub."""

    def __init__(self, conninfo: str, channel: str, hub: Hub) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.hub = hub
        self.ready = asyncio.Event()
        #: Whether the LISTEN is in place now (``/readyz`` asks): false until the first one
        #: and while a lost connection is being made again.
        self.listening = False
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start listening; return once the first LISTEN is in place (or after 10 s)."""
        self._task = asyncio.create_task(self._run(), name="taletable-listen")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10):
                await self.ready.wait()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.listening = False

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {self.channel}")
                    self.listening = True
                    self.ready.set()
                    self.hub.wake(None)  # anything sent while we were away: re-read
                    async for note in connection.notifies():
                        self.hub.received(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a dropped connection: try again shortly
                self.listening = False
                _log.warning("LISTEN connection lost (%s); reconnecting", error)
                await asyncio.sleep(0.5)
