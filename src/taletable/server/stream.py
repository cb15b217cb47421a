"""One stream of a seat's events, for the API (JSON) and the pages (HTML) alike.

:func:`seat_stream` subscribes to the table in this worker's hub, reads from the database what
the seat missed (after ``Last-Event-ID`` or ``?after=``, parsed by :func:`start_after`), then
sends each event handed over from memory after a commit, filtered for the seat by
:func:`taletable.server.visibility.seen_by`. It reads the database again only on a gap in the
seqs, or when the hub says the rows were not carried (a payload too big, a LISTEN connection
found again). A renderer turns what happens into server-sent-event messages: the API's sends
each event's JSON, the table page's the HTML of its log entry (:mod:`.pages.table`). The answer
is an ASGI response of its own (:class:`EventStream`); its keep-alive comes from the worker's
tick (:class:`taletable.server.notify.KeepAlive`), sent after a whole tick of quiet.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Annotated

from fastapi import Header, Query
from fastapi.responses import Response
from starlette.types import Receive, Scope, Send

from taletable.server.auth import Seat
from taletable.server.errors import ApiError
from taletable.server.limits import StreamPlace
from taletable.server.metrics import OPEN_STREAMS
from taletable.server.notify import (
    Dropped,
    KeepAlive,
    PresenceChanged,
    Reconnect,
    Rows,
    Subscription,
    Wake,
)
from taletable.server.visibility import seen_by
from taletable.server.world import World

__all__ = [
    "PAGE",
    "RECONNECT_MS",
    "SERVER_SEND",
    "AfterQuery",
    "EventStream",
    "LastEventId",
    "Renderer",
    "seat_stream",
    "start_after",
]

#: How many events one read of the database holds.
PAGE = 500
#: The highest seq a client may name.
MOST_SEQ = 2**62
#: How long a client told to reconnect waits first (milliseconds; the ``retry:`` field).
RECONNECT_MS = 1000
#: The scope key of the HTTP server's own ``send`` (kept there by the app,
#: :class:`taletable.server.app.TableApp`): a stream's chunks go straight to it.
SERVER_SEND = "taletable.server_send"

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


#: The API's messages of the newest rows, by (seq, text): every stream of a table that sees a
#: row whole sends the same bytes, written and encoded once.
_SENT: dict[tuple[int, str], bytes] = {}


class Renderer:
    """How a stream's messages are written; this one is the API's (each event as JSON)."""

    async def opening(self) -> str:
        return "retry: 1000\n\n"

    def entry(self, seq: int, text: str) -> str:
        return f"id: {seq}\ndata: {text}\n\n"

    def entry_bytes(self, seq: int, text: str) -> bytes:
        """:meth:`entry`, encoded: the API's once for all its streams; a renderer with an
        ``entry`` of its own (the seat's own HTML) encodes its own, never shared."""
        if type(self).entry is not Renderer.entry:
            return self.entry(seq, text).encode()
        message = _SENT.get((seq, text))
        if message is None:
            if len(_SENT) > 1024:
                _SENT.clear()
            message = _SENT[(seq, text)] = self.entry(seq, text).encode()
        return message

    async def tick(self, quiet: bool) -> str:
        """The worker's keep-alive tick: a comment when nothing was sent since the one before."""
        return ": keep-alive\n\n" if quiet else ""

    async def presence(self) -> str:
        return ""

    def reconnect(self, last: int) -> bytes:
        """The last message of a stream whose worker is stopping: come back after ``last``.
        Its ``id:`` is ``last``, so a browser's EventSource reconnects (after ``retry:``) with
        ``Last-Event-ID: last`` by itself; an API client reads the ``reconnect`` event's
        ``after``. Nothing after ``last`` was sent, so nothing is lost or shown twice."""
        data = f'{{"reconnect":true,"after":{last},"retry_ms":{RECONNECT_MS}}}'
        return f"retry: {RECONNECT_MS}\nevent: reconnect\nid: {last}\ndata: {data}\n\n".encode()

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


def seat_stream(world: World, seat: Seat, after: int, renderer: Renderer) -> EventStream:
    """The answer that streams every event of the seat's table that the seat may see, after
    ``after``, live; 429 (before any answer starts) when the seat holds its most open streams
    in this worker already (:class:`taletable.server.limits.OpenStreams`). The stream's place
    is freed when it ends, or, should it never start (its client gone before), when the answer
    is collected."""
    return EventStream(world, seat, after, renderer, world.streams.take(seat.id))


class EventStream(Response):
    """A seat's server-sent events, written straight to the connection: each wake-up sends
    what is waiting as one chunk (one write to the socket however many events a busy table
    made meanwhile). A task of its own waits for the client to leave, and ends the stream."""

    media_type = "text/event-stream"

    def __init__(
        self, world: World, seat: Seat, after: int, renderer: Renderer, place: StreamPlace
    ) -> None:  # no body and no Content-Length: the answer is chunked
        self.world, self.seat, self.renderer, self.place = world, seat, renderer, place
        self.cursor = _Cursor(seat, renderer, after)
        self.status_code, self.background = 200, None
        self.init_headers({"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        weakref.finalize(self, place.release)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        hub = self.world.hub
        subscription = hub.subscribe(self.seat.table_id, self.seat.id)
        watcher = asyncio.create_task(_until_gone(receive, subscription))
        OPEN_STREAMS.inc()
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            # the start went through the middlewares (their headers are on it); the chunks go
            # to the server itself: every middleware passes a body's part on as it is, and
            # each layer's hop, for every chunk of every open stream, was ~3% of an action
            await self._pump(subscription, scope.get(SERVER_SEND, send))
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the client left while a chunk was on its way
        finally:
            OPEN_STREAMS.dec()
            watcher.cancel()
            self.place.release()
            hub.unsubscribe(subscription)
            self.renderer.closed()

    async def _pump(self, subscription: Subscription, send: Send) -> None:
        """Send the stream's messages until it is dropped (a client gone, or one too slow)."""

        async def out(parts: list[bytes]) -> None:
            if body := b"".join(parts):
                await send({"type": "http.response.body", "body": body, "more_body": True})

        world, seat, cursor, queue = self.world, self.seat, self.cursor, subscription.queue
        await out([(await self.renderer.opening()).encode()])
        quiet = False  # nothing sent since the last keep-alive tick (the opening counts)
        while True:
            if cursor.reading:
                rows, handled = await _missed(world, seat, cursor.last)
                if rows:
                    await out([self.renderer.entry_bytes(seq, text) for seq, text in rows])
                    quiet = False
                cursor.last, cursor.reading = handled, len(rows) == PAGE
                continue
            item = await queue.get()
            parts: list[bytes] = []
            while True:
                if isinstance(item, Rows):  # the common case, first
                    if taken := cursor.rows(item):
                        parts += taken
                        quiet = False
                elif isinstance(item, Dropped | Reconnect):
                    if isinstance(item, Reconnect):  # the worker is stopping
                        parts.append(self.renderer.reconnect(cursor.last))
                    await out(parts)
                    return
                elif isinstance(item, KeepAlive):  # a keep-alive after a whole tick of quiet
                    parts.append((await self.renderer.tick(quiet)).encode())
                    quiet = True
                elif taken := await cursor.take(item):
                    parts += taken
                    quiet = False
                if cursor.reading or queue.empty():
                    break
                item = queue.get_nowait()
            if body := b"".join(parts):  # sent here, not by out(): no coroutine per event
                await send({"type": "http.response.body", "body": body, "more_body": True})


async def _until_gone(receive: Receive, subscription: Subscription) -> None:
    """Wait for the client to leave; then end its stream."""
    while (await receive())["type"] != "http.disconnect":
        pass
    subscription.drop()


class _Cursor:
    """Where a stream is in its table's log, and what it makes of each item."""

    def __init__(self, seat: Seat, renderer: Renderer, after: int) -> None:
        self.seat, self.renderer = seat, renderer
        self.last = after  # the newest seq of the table handled (seen by the seat or not)
        self.reading = True  # the database has events the stream has not sent

    async def take(self, item: Wake | PresenceChanged) -> list[bytes]:
        """The messages ``item`` makes (none, when it asks for a read of the database)."""
        if isinstance(item, Wake):
            self.reading = True
            return []
        changed = await self.renderer.presence()
        return [changed.encode()] if changed else []

    def rows(self, item: Rows) -> list[bytes]:
        """The messages of the rows this seat may see, in seq order (a gap: read instead)."""
        out = []
        seat, narrator, entry = self.seat.id, self.seat.narrator, self.renderer.entry_bytes
        for row in item.rows:
            if row.seq <= self.last:
                continue  # read already (a gap's read, or a doubled notification)
            if row.seq != self.last + 1:
                self.reading = True  # a gap: the database has what came between
                break
            self.last = row.seq
            seen = seen_by(row, seat, narrator)
            if seen is not None:
                out.append(entry(row.seq, seen))
        return out
