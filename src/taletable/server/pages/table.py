"""The table page and its live stream: the shared log rendered, presence, the panels.

The stream is the API's stream rendered for a page: the same per-seat view, filtered in SQL
(:class:`taletable.server.shared_reads.SharedReads`), each event sent as the HTML of its log
entry (``event: log``, ``id:`` its seq), so a page never receives an event its seat may not see.
A reconnect with ``Last-Event-ID`` (the browser's own) or ``?after=`` (``table.js``, when the
extension opens a new stream) first replays every event after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from taletable.server.auth import Seat
from taletable.server.log import visible_events
from taletable.server.pages.common import page, render, seat_names, seats_of
from taletable.server.pages.panels import panels_for
from taletable.server.pages.present import present
from taletable.server.pages.present_rolls import attach
from taletable.server.pages.rolls import roll_panel_context
from taletable.server.routes.events import PAGE, woken
from taletable.server.session import PageSessionOrJoin, TableSession, page_session_or_none

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

#: How many of the newest entries the page shows when it opens.
SHOWN = 200


def _entries(session: TableSession) -> list[dict[str, Any]]:
    with session.world.database.read() as connection:
        rows = visible_events(
            connection,
            session.table_id,
            seat=session.seat.id,
            narrator=session.narrator,
            limit=10**6,
        )
    return [json.loads(text) for _seq, text in rows[-SHOWN:]]


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(session: PageSessionOrJoin) -> Response:
    """The table: its log, the roll panel, characters and (for the narrator) the tools."""
    head = session.head()
    names = seat_names(session)
    entries = attach([present(event, names) for event in _entries(session)])
    return page(
        "table.html",
        head=head,
        seat=session.seat,
        entries=entries,
        seats=seats_of(session),
        online=session.world.presence.online(session.table_id),
        panels=panels_for(head),
        **roll_panel_context(session, head, None),
    )


def _message(kind: str, html: str, seq: int | None = None) -> str:
    lines = [f"event: {kind}"]
    if seq is not None:
        lines.append(f"id: {seq}")
    lines += [f"data: {line}" for line in (html.splitlines() or [""])]
    return "\n".join(lines) + "\n\n"


def _entry_html(entry: Any, seat: Seat, head: Any) -> str:
    """An entry for the log's stream; a follow-up goes under the entry it follows."""
    template = "_follow_up_oob.html" if entry.follows is not None else "_entry.html"
    return render(template, e=entry, seat=seat, head=head)


def _follow_ups(event: dict[str, Any]) -> list[str]:
    """The panels a new event makes stale (their elements refresh on ``sse:NAME``)."""
    kind = str(event.get("kind", ""))
    changed = {save.get("kind") for save in event.get("saves") or ()}
    names = []
    if kind.startswith("character.") or "character" in changed:
        names.append("characters")
    if kind.startswith("seat."):
        names.append("seats")
    if kind.startswith("cogent.combat."):
        names.append("combat")
    return names


async def _messages(session: TableSession, after: int) -> AsyncIterator[str]:
    state, seat = session.world, session.seat
    wake = state.hub.subscribe(seat.table_id)
    stream = await asyncio.to_thread(state.presence.connect, seat.table_id, seat.id)
    state.hub.publish(seat.table_id)
    names = await asyncio.to_thread(seat_names, session)
    head = await asyncio.to_thread(session.head)
    last, shown_online = after, None
    try:
        yield "retry: 1000\n\n"
        while True:
            wake.clear()
            rows = await state.shared_reads.read(seat.table_id, seat.id, seat.narrator, last, PAGE)
            for seq, text in rows:
                event = json.loads(text)
                if event.get("kind") == "seat.join":
                    names[str(event.get("seat"))] = str(event.get("name"))
                yield _message("log", _entry_html(present(event, names), seat, head), seq)
                for name in _follow_ups(event):
                    yield _message(name, "")
                last = seq
            online = await asyncio.to_thread(state.presence.online, seat.table_id)
            if online != shown_online:
                seats = await asyncio.to_thread(seats_of, session)
                yield _message("presence", render("_presence.html", seats=seats, online=online))
                shown_online = online
            if len(rows) == PAGE:
                continue
            if not await woken(wake):
                await asyncio.to_thread(state.presence.beat, stream)
                yield ": keep-alive\n\n"
    finally:
        state.hub.unsubscribe(seat.table_id, wake)
        _let_go(state, seat.table_id, stream)


def _let_go(state: Any, table_id: str, stream: str) -> None:
    """Remove a closed stream's presence in a thread, without awaiting it (a generator being
    closed may not wait); the other streams here are woken when it is gone. Should it never
    run (the loop closing), the row goes stale within ``STALE_SECONDS``."""

    def gone() -> None:
        state.presence.disconnect(table_id, stream)
        state.hub.publish(table_id)

    with contextlib.suppress(RuntimeError):
        asyncio.get_running_loop().run_in_executor(None, gone)


@router.get("/t/{table_id}/stream")
async def page_stream(
    request: Request,
    table_id: str,
    after: int = 0,
    last_event_id: Annotated[str | None, Header(max_length=40)] = None,
) -> Response:
    """The table's log for this page's seat, as rendered entries (server-sent events)."""
    session = await page_session_or_none(request, table_id)
    if session is None:
        return Response("no seat at this table", status_code=401)
    start = max(0, after)
    if last_event_id and last_event_id.strip().isdigit():
        start = int(last_event_id.strip())
    return StreamingResponse(
        _messages(session, start),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
