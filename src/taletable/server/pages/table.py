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
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from taletable.log_entry import LogEntry, read_entry
from taletable.server.auth import Seat
from taletable.server.cookies import read_seat_code
from taletable.server.log import TableHead, newest_events
from taletable.server.pages.chat import chat_context
from taletable.server.pages.combat import card_view
from taletable.server.pages.common import page, render, seat_names, seats_of
from taletable.server.pages.entries import mark_struck
from taletable.server.pages.panels import panels_for
from taletable.server.pages.present import present
from taletable.server.pages.present_rolls import attach
from taletable.server.pages.rolls import roll_panel_context
from taletable.server.session import PageSessionOrJoin, TableSession, page_session_or_none
from taletable.server.stream import AfterQuery, LastEventId, Renderer, seat_stream, start_after
from taletable.server.world import World

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

#: How many of the newest entries the page shows when it opens.
SHOWN = 200


def _entries(session: TableSession) -> list[LogEntry]:
    """The newest entries this seat may see (one bounded read), oldest first."""
    seat = session.seat
    with session.world.database.read() as connection:
        rows = newest_events(
            connection, seat.table_id, seat=seat.id, narrator=seat.narrator, limit=SHOWN
        )
    return [read_entry(text) for _seq, text in rows]


def _roll_asked(context: dict[str, Any], pool: int | None, cl: int | None) -> dict[str, Any]:
    """The roll panel as a sheet's skill or combat pool opened it (``?character=&skill=`` or
    ``&pool=``, with ``&cl=``): that pool in its mode, the CL, the panel shown at once."""
    from_sheet = context["chosen_skill"] is not None or pool is not None
    mode = "pool" if pool is not None or not context["characters"] else "character"
    return {"roll_mode": mode, "roll_pool": pool, "roll_cl": cl, "open_roll": from_sheet}


@router.get("/t/{table_id}", response_class=HTMLResponse)
def table_page(
    request: Request,
    session: PageSessionOrJoin,
    character: str = "",
    skill: str = "",
    pool: Annotated[int | None, Query(ge=0, le=200)] = None,
    cl: Annotated[int | None, Query(ge=0, le=1000)] = None,
) -> Response:
    """The table: its log, the roll panel, characters and (for the narrator) the tools; a
    sheet's skill opens it with the roll panel set for that skill; a seat just joined, its
    recovery code (shown on this browser for a few minutes only)."""
    head = session.head()
    names = seat_names(session)
    entries = attach(mark_struck([present(entry, names) for entry in _entries(session)]))
    rolls = roll_panel_context(session, head, character or None, skill or None)
    fight = card_view(session) if head.system == "cogent" else {"fight": None}
    return page(
        "table.html",
        head=head,
        seat=session.seat,
        entries=entries,
        seats=seats_of(session),
        online=session.world.presence.online(session.table_id),
        panels=panels_for(head),
        **rolls,
        **_roll_asked(rolls, pool, cl),
        fight=fight["fight"],
        acts_for=fight.get("acts_for", []),
        abandoned=fight.get("abandoned", []),
        **chat_context(session),
        seat_code=read_seat_code(request, session.table_id),
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
    html = render(template, e=entry, seat=seat, head=head)
    if entry.strikes is not None:  # the entry it strikes, where the page shows it, struck
        html += render("_struck.html", seq=entry.strikes, reason=entry.struck_reason, oob=True)
    return html


def _scene_html(entry: LogEntry) -> str:
    """A scene opened: the header's scene number, swapped out of band (the header is outside
    the element that holds the stream)."""
    if entry.kind != "scene.open" or entry.scene is None:
        return ""
    return render("_scene_number.html", scene=entry.scene, oob=True)


def _follow_ups(entry: LogEntry) -> list[str]:
    """The panels a new entry makes stale (their elements refresh on ``sse:NAME``)."""
    kind = entry.kind
    names = []
    if kind.startswith("character.") or "character" in entry.saved_kinds():
        names.append("characters")
    if kind.startswith("seat."):
        names.append("seats")
    if kind.startswith("cogent.combat."):
        names.append("combat")
    return names


class PageRenderer(Renderer):
    """The table page's stream: each event as the HTML of its log entry (``event: log``), the
    panels it makes stale, and who is here (presence) whenever that changes."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.names: dict[str, str] = {}
        self.head: TableHead | None = None
        self.stream = ""
        self.shown_online: frozenset[str] | None = None

    async def opening(self) -> str:
        world, seat = self.session.world, self.session.seat
        self.stream = await asyncio.to_thread(world.presence.connect, seat.table_id, seat.id)
        world.hub.presence_changed(seat.table_id)
        self.names = await asyncio.to_thread(seat_names, self.session)
        self.head = await asyncio.to_thread(self.session.head)
        return "retry: 1000\n\n" + await self.presence()

    def entry(self, seq: int, text: str) -> str:
        entry = read_entry(text)
        if entry.kind == "seat.join":
            self.names[str(entry.seat)] = str(entry.name)
        html = _entry_html(present(entry, self.names), self.session.seat, self.head)
        return _message("log", html + _scene_html(entry), seq) + "".join(
            _message(name, "") for name in _follow_ups(entry)
        )

    async def tick(self, quiet: bool) -> str:
        # the page is here: its presence beats at every tick, however busy the table
        await asyncio.to_thread(self.session.world.presence.beat, self.stream)
        return await super().tick(quiet)

    async def presence(self) -> str:
        world, table_id = self.session.world, self.session.table_id
        online = await asyncio.to_thread(world.presence.online, table_id)
        if online == self.shown_online:
            return ""
        self.shown_online = online
        seats = await asyncio.to_thread(seats_of, self.session)
        return _message("presence", render("_presence.html", seats=seats, online=online))

    def closed(self) -> None:
        # a worker stopping leaves its pages' presence to go stale (STALE_SECONDS): each page
        # is back at once on another worker, and no write races the database's closing
        if self.stream and not self.session.world.hub.draining:
            _let_go(self.session.world, self.session.table_id, self.stream)


def _let_go(world: World, table_id: str, stream: str) -> None:
    """Remove a closed stream's presence in a thread, without awaiting it (a generator being
    closed may not wait); the other streams here are told when it is gone. Should it never
    run (the loop closing), the row goes stale within ``STALE_SECONDS``."""

    def gone() -> None:
        world.presence.disconnect(table_id, stream)
        world.hub.presence_changed(table_id)

    with contextlib.suppress(RuntimeError):
        asyncio.get_running_loop().run_in_executor(None, gone)


@router.get("/t/{table_id}/stream")
async def page_stream(
    request: Request,
    table_id: str,
    after: AfterQuery = None,
    last_event_id: LastEventId = None,
) -> Response:
    """The table's log for this page's seat, as rendered entries (server-sent events)."""
    session = await page_session_or_none(request, table_id)
    if session is None:
        return Response("no seat at this table", status_code=401)
    start = start_after(last_event_id, after)
    return seat_stream(session.world, session.seat, start, PageRenderer(session))
