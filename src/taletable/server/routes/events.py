"""The table's log as each seat may see it: a page of events, and a live event stream.

A page reads the rows through :func:`taletable.server.log.visible_events` (filtered in SQL);
the stream is :func:`taletable.server.stream.seat_stream` with the JSON renderer: what the seat
missed read from the database, then each event handed over from memory after its commit,
filtered by the same rule (DESIGN > Principles 11). It sends one event per message with
``id:`` its seq; a client that reconnects with ``Last-Event-ID`` (or ``?after=``) first
receives every event after it, then the live ones, so it never drifts.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel

from taletable.server.log import read_table, visible_events
from taletable.server.responses import ERRORS
from taletable.server.session import SessionDep, TableSession
from taletable.server.stream import (
    PAGE,
    AfterQuery,
    EventStream,
    LastEventId,
    Renderer,
    seat_stream,
    start_after,
)

__all__ = ["router"]

router = APIRouter(prefix="/api/tables/{table_id}", tags=["events"])


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


@router.get(
    "/stream",
    responses={200: {"content": {"text/event-stream": {}}}, **ERRORS},
    response_class=Response,
)
async def stream(
    session: SessionDep, after: AfterQuery = None, last_event_id: LastEventId = None
) -> EventStream:
    """Server-sent events: each event this seat may see, as it is appended (``id:`` = seq)."""
    start = start_after(last_event_id, after)
    return seat_stream(session.world, session.seat, start, Renderer())
