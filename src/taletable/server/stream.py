"""One stream of a seat's events, for the API (JSON) and the pages (HTML) alike.

:func:`seat_stream` subscribes to the table in this worker's hub, reads from the database what
the seat missed (after ``Last-Event-ID`` or ``?after=``, parsed by :func:`start_after`), then
sends each event handed over from memory after a commit, filtered for the seat by
:func:`taletable.server.visibility.seen_by`. It reads the database again only on a gap in the
seqs, or when the hub says the rows were not carried (a payload too big, a LISTEN connection
found again). A renderer turns what happens into server-sent-event messages: the API's sends
each event's JSON, the table page's the HTML of its log entry (:mod:`.pages.table`).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Header, Query

from taletable.server.auth import Seat
from taletable.server.errors import ApiError
from taletable.server.limits import StreamPlace
from taletable.server.notify import Dropped, PresenceChanged, Rows, Subscription, Wake
from taletable.server.visibility import seen_by
from taletable.server.world import World

__all__ = [
    "KEEP_ALIVE",
    "PAGE",
    "AfterQuery",
    "LastEventId",
    "Renderer",
    "seat_stream",
    "start_after",
]

#: How many events one read of the database holds.
PAGE = 500
#: Seconds between keep-alive comments on a quiet stream.
KEEP_ALIVE = 15.0
#: The highest seq a client may name.
MOST_SEQ = 2**62

AfterQuery = Annotated[int | None, Query(ge=0, le=MOST_SEQ)]
LastEventId = Annotated[str | None, Header(max_length=40)]


def start_after(last_event_id: str | None, after: int | None) -> int:
    """The seq a stream resumes after: ``Last-Event-ID`` (a reconnect) wins over ``?after=``;
    either must be a whole number from 0 to 2**62 (422 naming it)."""
    if last_event_id is None:
        return after or 0
    text = last_event_id.strip()
    if not text.isdigit() or len(text) > 19 or int(text) > MOST_SEQ:
        raise ApiError("last-event-id", "Last-Event-ID must be the seq of an event (a number)")
    return int(text)


class Renderer:
    """How a stream's messages are written; this one is the API's (each event as JSON)."""

    async def opening(self) -> str:
        return "retry: 1000\n\n"

    def entry(self, seq: int, text: str) -> str:
        return f"id: {seq}\ndata: {text}\n\n"

    async def idle(self) -> str:
        return ": keep-alive\n\n"

    async def presence(self) -> str:
        return ""

    def closed(self) -> None:
        """The stream ended (the client left, or it fell behind)."""


async def _missed(world: World, seat: Seat, last: int) -> tuple[list[tuple[int, str]], int]:
    """What the seat may see after ``last``, read from the database (one page), and the seq
    it has then handled: the table's head at the read (or the page's last, when full). A
    client that named a seq past the head is brought back to the head, so it hears what
    comes next."""
    rows, head = await world.shared_reads.read_at(seat.table_id, seat.id, seat.narrator, last, PAGE)
    if len(rows) == PAGE:
        return rows, rows[-1][0]
    return rows, max(head, rows[-1][0] if rows else 0)


def seat_stream(world: World, seat: Seat, after: int, renderer: Renderer) -> AsyncIterator[str]:
    """Every event of the seat's table that the seat may see, after ``after``, live; 429 (before
    any answer starts) when the seat holds its most open streams in this worker already
    (:class:`taletable.server.limits.OpenStreams`). The stream's place is freed when it ends,
    or, should it never start (its client gone before), when it is collected."""
    place = world.streams.take(seat.id)
    stream = _seat_stream(world, seat, after, renderer, place)
    weakref.finalize(stream, place.release)
    return stream


async def _seat_stream(
    world: World, seat: Seat, after: int, renderer: Renderer, place: StreamPlace
) -> AsyncIterator[str]:
    """:func:`seat_stream`'s events. What is waiting in the stream's queue when it wakes is
    sent as one chunk (one write to the socket however many events a busy table made
    meanwhile)."""
    subscription = world.hub.subscribe(seat.table_id, seat.id)
    try:
        yield await renderer.opening()
        cursor = _Cursor(seat, renderer, after)
        while True:
            if cursor.reading:
                rows, handled = await _missed(world, seat, cursor.last)
                if rows:
                    yield "".join(renderer.entry(seq, text) for seq, text in rows)
                cursor.last, cursor.reading = handled, len(rows) == PAGE
                continue
            item = await _next(subscription)
            if item is None:
                yield await renderer.idle()
                continue
            out: list[str] = []
            while True:
                if isinstance(item, Dropped):
                    if out:
                        yield "".join(out)
                    return
                out += await cursor.take(item)
                if cursor.reading or subscription.queue.empty():
                    break
                item = subscription.queue.get_nowait()
            if out:
                yield "".join(out)
    finally:
        place.release()
        world.hub.unsubscribe(subscription)
        renderer.closed()


class _Cursor:
    """Where a stream is in its table's log, and what it makes of each item."""

    def __init__(self, seat: Seat, renderer: Renderer, after: int) -> None:
        self.seat, self.renderer = seat, renderer
        self.last = after  # the newest seq of the table handled (seen by the seat or not)
        self.reading = True  # the database has events the stream has not sent

    async def take(self, item: Rows | Wake | PresenceChanged) -> list[str]:
        """The messages ``item`` makes (none, when it asks for a read of the database)."""
        if isinstance(item, Wake):
            self.reading = True
            return []
        if isinstance(item, PresenceChanged):
            changed = await self.renderer.presence()
            return [changed] if changed else []
        out = []
        for row in item.rows:
            if row.seq <= self.last:
                continue  # read already (a gap's read, or a doubled notification)
            if row.seq != self.last + 1:
                self.reading = True  # a gap: the database has what came between
                break
            self.last = row.seq
            seen = seen_by(row, self.seat.id, self.seat.narrator)
            if seen is not None:
                out.append(self.renderer.entry(row.seq, seen))
        return out


async def _next(subscription: Subscription) -> Rows | Wake | PresenceChanged | Dropped | None:
    """The stream's next item, or None when a keep-alive is due (an item already waiting is
    taken without arming a timer)."""
    queue = subscription.queue
    if not queue.empty():
        return queue.get_nowait()
    try:
        async with asyncio.timeout(KEEP_ALIVE):
            return await queue.get()
    except TimeoutError:
        return None
