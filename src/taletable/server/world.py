"""What one server process holds for every request: its database, its hub of streams, its
presence, its limits and its per-worker caches, as one typed value (``app.state.world``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from fastapi import Request
from sqlalchemy import Connection, bindparam, select

from taletable.server.auth import Seat
from taletable.server.db import Database
from taletable.server.health import Readiness
from taletable.server.limits import Guesses, Limits, OpenStreams, RateLimiter, TablesMade
from taletable.server.listen import PostgresListener
from taletable.server.metrics import MetricsAccess
from taletable.server.notify import Hub
from taletable.server.presence import Presence
from taletable.server.schema import SCENES
from taletable.server.shared_reads import SharedReads

__all__ = ["SeatCache", "World", "make_world", "world_of"]

T = TypeVar("T")
#: Threads for the API's writes on PostgreSQL (SQLite: one). Few: each write holds its table's
#: row lock until it commits, and a thread back from the database waits for the interpreter's
#: lock while the others and the loop run, holding the row lock longer; with 3 threads a worker
#: delivered 650 actions/s where 10 fell behind (benchmarks/bench_server.py, 2 workers).
WRITER_THREADS = 3

_SCENE_SEED = select(SCENES.c.seed).where(
    (SCENES.c.table_id == bindparam("table_id")) & (SCENES.c.number == bindparam("scene"))
)


class SeatCache:
    """Seats by the SHA-256 of their token, kept per worker (at most ``size``, the least used
    forgotten first). A seat's token never changes, so a kept seat stays right; a token that
    names no seat is never kept, so a seat that joins on another worker is found at once."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._seats: OrderedDict[str, Seat] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, token_hash: str) -> Seat | None:
        with self._lock:
            seat = self._seats.get(token_hash)
            if seat is not None:
                self._seats.move_to_end(token_hash)
            return seat

    def keep(self, token_hash: str, seat: Seat) -> None:
        with self._lock:
            self._seats[token_hash] = seat
            while len(self._seats) > self.size:
                self._seats.popitem(last=False)

    def forget_table(self, table_id: str) -> None:
        """Forget every seat of ``table_id`` (for a change that removes seats)."""
        with self._lock:
            for key in [key for key, seat in self._seats.items() if seat.table_id == table_id]:
                del self._seats[key]


@dataclass
class World:
    """The server's state: made once by :func:`taletable.server.app.create_app`."""

    database: Database
    hub: Hub
    presence: Presence
    limits: Limits
    limiter: RateLimiter
    #: Wrong join and recovery codes tried, per table and in all, whatever the address.
    guesses: Guesses
    #: Tables made per client address and in all (an hour's worth each).
    tables_made: TablesMade
    shared_reads: SharedReads
    seats: SeatCache
    #: The streams each seat holds open in this worker (at most ``limits.streams_per_seat``).
    streams: OpenStreams
    #: The exports streaming in this worker, by seat and by table (``limits.exports_per_*``).
    exports: OpenStreams
    #: The readiness probe of this worker (``GET /readyz``).
    readiness: Readiness
    #: Who may read ``/metrics`` (:mod:`.metrics`; off unless the operator allows some).
    metrics: MetricsAccess = field(default_factory=MetricsAccess)
    #: This worker's LISTEN on PostgreSQL while the app runs (None on SQLite).
    listener: PostgresListener | None = None
    #: Scene seeds read so far, by (table id, scene number): a seed never changes.
    seeds: dict[tuple[str, int], bytes] = field(default_factory=dict)
    #: The key that signs the pages' seat cookies (read from the database once).
    cookie_key: bytes | None = None
    #: The API's writers of one table queue here, on the loop, holding no thread meanwhile.
    write_locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    #: The threads the API's writes run in: few (one on SQLite, whose database has one
    #: writer), so that threads do not crowd the interpreter's lock while they wait on the
    #: database.
    writers: concurrent.futures.ThreadPoolExecutor = field(
        default_factory=lambda: concurrent.futures.ThreadPoolExecutor(WRITER_THREADS)
    )

    async def in_writer(self, work: Callable[..., T], *args: Any, **named: Any) -> T:
        """``work(*args, **named)`` in one of the writers' threads (one hop from the loop), in
        a copy of the caller's context (the request's id and arrival: :mod:`.access`)."""
        loop = asyncio.get_running_loop()
        run = functools.partial(contextvars.copy_context().run, work, *args, **named)
        return await loop.run_in_executor(self.writers, run)

    def scene_seed(self, connection: Connection, table_id: str, scene: int) -> bytes:
        """The secret seed of a table's scene (never sent to a seat while the scene is open),
        kept once read: a scene's seed never changes."""
        key = (table_id, scene)
        seed = self.seeds.get(key)
        if seed is None:
            text = connection.execute(_SCENE_SEED, {"table_id": table_id, "scene": scene})
            seed = self.seeds[key] = bytes.fromhex(text.scalar_one())
            if len(self.seeds) > 10_000:
                self.seeds.clear()
                self.seeds[key] = seed
        return seed

    def forget_table(self, table_id: str) -> None:
        """Forget what this worker keeps of ``table_id`` (deleted, or a seat of it gone:
        :mod:`.deletion`): its seats by token, its head (``Database.tables``), its scene seeds
        and its write lock when free (each read again when next needed)."""
        self.seats.forget_table(table_id)
        self.database.tables.pop(table_id, None)
        for key in [key for key in list(self.seeds) if key[0] == table_id]:
            self.seeds.pop(key, None)
        lock = self.write_locks.get(table_id)
        if lock is not None and not lock.locked():
            del self.write_locks[table_id]

    def write_lock(self, table_id: str) -> asyncio.Lock:
        """The lock the API's writes to ``table_id`` take in turn, so a table's writers wait on
        the loop, holding no thread. (On SQLite the writers' pool has one thread, so writes to
        different tables queue there, one at a time, and the next is ready as one commits.)"""
        key = table_id
        lock = self.write_locks.get(key)
        if lock is None:
            if len(self.write_locks) > 10_000:  # forget the idle ones
                for idle in [k for k, held in self.write_locks.items() if not held.locked()]:
                    del self.write_locks[idle]
            lock = self.write_locks[key] = asyncio.Lock()
        return lock


def world_of(request: Request) -> World:
    """The server state of the app answering ``request``."""
    return cast(World, request.app.state.world)


def make_world(database: Database, limits: Limits | None = None) -> World:
    """The state of a server on ``database`` (its streams woken on this process's loop)."""
    limits = limits or Limits()
    world = World(
        database=database,
        hub=Hub(),
        presence=Presence(database),
        limits=limits,
        limiter=RateLimiter(limits.rate, limits.burst),
        guesses=Guesses(limits),
        tables_made=TablesMade(limits),
        shared_reads=SharedReads(database),
        seats=SeatCache(),
        streams=OpenStreams(limits.streams_per_seat),
        exports=OpenStreams(
            limits.exports_per_seat,
            "an export of this table is being made here already; wait for it to end",
            {"table:": limits.exports_per_table},
        ),
        readiness=Readiness(database),
        writers=concurrent.futures.ThreadPoolExecutor(
            1 if database.is_sqlite else WRITER_THREADS, thread_name_prefix="taletable-write"
        ),
    )
    world.hub.forgetting.append(world.forget_table)
    return world
