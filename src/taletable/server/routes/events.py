"""The table's log as each seat may see it: a page of events, and a live event stream.

A page reads the rows through :func:`taletable.server.log.visible_events`, the stream through
:class:`taletable.server.shared_reads.SharedReads` (the same view, read with the other streams
of the table woken at once); both filter in SQL what the seat may not see (DESIGN > Principles
11). The stream sends one event per message
with ``id:`` its seq; a client that reconnects with ``Last-Event-ID`` (or ``?after=``) first
receives every event after it, then the live ones, so it never drifts.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel

from taletable.server.errors import ApiError
from taletable.server.log import read_table, visible_events
from taletable.server.responses import ERRORS
from taletable.server.session import SessionDep, TableSession

__all__ = ["router", "woken"]

router = APIRouter(prefix="/api/tables/{table_id}", tags=["events"])

#: How many events one page (or one read of the stream) holds.
PAGE = 500
#: Seconds between keep-alive comments on a quiet stream.
KEEP_ALIVE = 15.0


class EventsPage(BaseModel):
    events: list[dict[str, Any]]


def _page(session: TableSession, after: int) -> list[tuple[int, str]]:
    """The seat's next page of events (a table that does not exist is a 404)."""
    seat = session.seat
    with session.world.database.read() as connection:
        read_table(connection, seat.table_id)
        return visible_events(
            connection,
            seat.table_id,
            seat=seat.id,
            narrator=seat.narrator,
            after=after,
            limit=PAGE,
        )


@router.get("/events", responses={200: {"model": EventsPage}, **ERRORS})
def events(
    session: SessionDep,
    after: Annotated[int, Query(ge=0, le=2**62)] = 0,
) -> Response:
    """The events after ``after`` that this seat may see, in order (at most 500 a page)."""
    rows = _page(session, after)
    body = '{"events":[' + ",".join(text for _seq, text in rows) + "]}"
    return Response(body, media_type="application/json")


def _start(last_event_id: str | None, after: int | None) -> int:
    if last_event_id is None:
        return after or 0
    text = last_event_id.strip()
    if not text.isdigit() or len(text) > 18:
        raise ApiError("last-event-id", "Last-Event-ID must be the seq of an event (a number)")
    return int(text)


async def woken(wake: asyncio.Event) -> bool:
    """Wait until the table's log may have grown (True), or a keep-alive is due (False)."""
    try:
        await asyncio.wait_for(wake.wait(), timeout=KEEP_ALIVE)
    except TimeoutError:
        return False
    return True


async def _messages(session: TableSession, after: int) -> AsyncIterator[str]:
    seat, hub = session.seat, session.world.hub
    wake = hub.subscribe(seat.table_id)
    last = after
    try:
        yield "retry: 1000\n\n"
        while True:
            wake.clear()
            rows = await session.world.shared_reads.read(
                seat.table_id, seat.id, seat.narrator, last, PAGE
            )
            for seq, text in rows:
                yield f"id: {seq}\ndata: {text}\n\n"
                last = seq
            if len(rows) == PAGE:
                continue
            if not await woken(wake):
                yield ": keep-alive\n\n"
    finally:
        hub.unsubscribe(seat.table_id, wake)


@router.get(
    "/stream",
    responses={200: {"content": {"text/event-stream": {}}}, **ERRORS},
    response_class=StreamingResponse,
)
async def stream(
    session: SessionDep,
    after: Annotated[int | None, Query(ge=0, le=2**62)] = None,
    last_event_id: Annotated[str | None, Header(max_length=40)] = None,
) -> StreamingResponse:
    """Server-sent events: each event this seat may see, as it is appended (``id:`` = seq)."""
    start = _start(last_event_id, after)
    return StreamingResponse(
        _messages(session, start),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
