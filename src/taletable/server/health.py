"""Is this worker ready to serve? The answer ``GET /readyz`` gives (``server/routes/health.py``).

A worker is ready when its database answers a one-row read of the schema's revision
(``SELECT 1 FROM alembic_version``) within :data:`READY_SECONDS`, and, on PostgreSQL, its
LISTEN connection (:class:`taletable.server.listen.PostgresListener`) is in place, without
which its streams would miss other workers' events. Probes asked for at the same time share
one read (a flood of ``/readyz`` costs the database one query at a time), and a read that
hangs is answered for at the bound, never waited out. The reasons say what is wrong in words
fit for strangers: no address, no database name, no driver's message (those go to the log).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from taletable.server.db import Database
from taletable.server.listen import PostgresListener

__all__ = ["READY_SECONDS", "NotReady", "Readiness"]

_log = logging.getLogger("taletable.server")

#: The longest a readiness probe waits for the database (seconds).
READY_SECONDS = 2.0
#: The probe: one row, and it needs the schema to be there.
_PROBE = "SELECT 1 FROM alembic_version"


@dataclass(frozen=True)
class NotReady:
    """Why a worker is not ready: the part that is not (``database``, ``listen``) and why."""

    field: str
    message: str


class Readiness:
    """The readiness probe of one worker's database (one read in flight at a time)."""

    def __init__(self, database: Database, seconds: float = READY_SECONDS) -> None:
        self.database = database
        self.seconds = seconds
        self._probe: asyncio.Future[None] | None = None

    async def problem(self, listener: PostgresListener | None) -> NotReady | None:
        """What keeps this worker from being ready, or None when it is ready."""
        if self.database.is_postgresql and (listener is None or not listener.listening):
            return NotReady(
                "listen",
                "this worker's LISTEN connection to PostgreSQL is down (it reconnects by "
                "itself); its event streams would miss other workers' events",
            )
        probe = self._probe
        if probe is None or probe.done():
            probe = self._probe = asyncio.ensure_future(asyncio.to_thread(self._read))
            probe.add_done_callback(_retrieved)  # its failure is reported by its waiters
        try:
            async with asyncio.timeout(self.seconds):
                await asyncio.shield(probe)
        except TimeoutError:
            return NotReady("database", f"the database did not answer within {self.seconds:g} s")
        except Exception as error:  # any failure of the read: not ready, and why in the log
            _log.warning("readiness: the database's read failed (%s)", error)
            return NotReady(
                "database", f"the database cannot be read right now ({type(error).__name__})"
            )
        return None

    def _read(self) -> None:
        with self.database.read() as connection:
            connection.exec_driver_sql(_PROBE).all()


def _retrieved(probe: asyncio.Future[None]) -> None:
    """Take a finished probe's exception, so asyncio does not log it as never retrieved (a
    probe that ends after its waiters gave up at the bound)."""
    if not probe.cancelled():
        probe.exception()
