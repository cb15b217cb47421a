"""What one server process holds for every request: its database, its hub of streams, its
presence, its limits and its per-worker caches, as one typed value (``app.state.world``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from fastapi import Request

from taletable.server.db import Database
from taletable.server.limits import Limits, RateLimiter
from taletable.server.notify import Hub
from taletable.server.presence import Presence

if TYPE_CHECKING:
    from taletable.server.session import SeatCache
    from taletable.server.shared_reads import SharedReads

__all__ = ["World", "make_world", "world_of"]


@dataclass
class World:
    """The server's state: made once by :func:`taletable.server.app.create_app`."""

    database: Database
    hub: Hub
    presence: Presence
    limits: Limits
    limiter: RateLimiter
    shared_reads: SharedReads
    seats: SeatCache
    #: Scene seeds read so far, by (table id, scene number): a seed never changes.
    seeds: dict[tuple[str, int], bytes] = field(default_factory=dict)
    #: The key that signs the pages' seat cookies (read from the database once).
    cookie_key: bytes | None = None


def world_of(request: Request) -> World:
    """The server state of the app answering ``request``."""
    return cast(World, request.app.state.world)


def make_world(database: Database, limits: Limits | None = None) -> World:
    """The state of a server on ``database`` (its streams woken on this process's loop)."""
    from taletable.server.session import SeatCache
    from taletable.server.shared_reads import SharedReads

    limits = limits or Limits()
    return World(
        database=database,
        hub=Hub(),
        presence=Presence(database),
        limits=limits,
        limiter=RateLimiter(limits.rate, limits.burst),
        shared_reads=SharedReads(database),
        seats=SeatCache(),
    )
