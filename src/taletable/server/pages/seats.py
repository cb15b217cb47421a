"""Coming back: the tables this browser holds a seat at, leaving one, and recovery codes: the
narrator's, which seats the narrator again in a browser that lost the link, and a player's or
observer's (shown once as it joined), which seats that seat again, its characters with it."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from taletable.names import fold
from taletable.server.cookies import forget_seat, set_seat_cookie
from taletable.server.deletion import remove_seat
from taletable.server.errors import ApiError
from taletable.server.links import link
from taletable.server.pages.common import error_text, page, retry_after, same_site_only
from taletable.server.pages.start import SYSTEMS
from taletable.server.permissions import removing_own_seat
from taletable.server.recovery import recover as recovered
from taletable.server.recovery import wrong_recovery
from taletable.server.routes import tables
from taletable.server.session import PageSession, browser_sessions, seat_of_table
from taletable.server.world import world_of

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

#: What a recovery code of no table is answered with (nothing changed).
NOT_A_RECOVERY_CODE = (
    "This is not the recovery code of a table or a seat here. Check it (twenty letters and "
    "digits in four groups, shown once when the table was made or you joined); nothing was "
    "changed."
)


@router.get("/tables", response_class=HTMLResponse)
async def seats_page(request: Request) -> HTMLResponse:
    """The tables this browser holds a seat at (its seat cookies), each with a way in and a way
    to leave."""
    sessions = await browser_sessions(request)
    heads = await asyncio.to_thread(lambda: [session.head() for session in sessions])
    systems = dict(SYSTEMS)
    pairs = sorted(zip(sessions, heads, strict=True), key=lambda p: (p[1].name.casefold(), p[1].id))
    seated = [
        {"head": head, "seat": session.seat, "system": systems.get(head.system, head.system)}
        for session, head in pairs
    ]
    query = request.query_params
    return page("tables.html", seated=seated, left=query.get("left", ""),
                removed=query.get("removed"), deleted=query.get("deleted"))  # fmt: skip


@router.post("/t/{table_id}/leave")
def leave(
    request: Request, session: PageSession, remove: Annotated[bool, Form()] = False
) -> Response:
    """This browser leaves the table: it forgets the seat (its cookie is deleted). The seat
    stays at the table (its characters, its log); its open streams end, so a page of it this
    browser still has open goes offline (it cannot reconnect without the cookie), and the
    seat's other devices reconnect at once. With ``remove`` (a player or an observer) the
    seat and the characters it owns are removed too (:func:`.deletion.remove_seat`)."""
    same_site_only(request)
    head, world = session.head(), session.world
    if remove:
        try:
            removing_own_seat(session.seat)
        except ApiError as error:
            return page("_message.html", status=error.status, error=error.message)
        remove_seat(world.database, world.hub, session.table_id, session.seat.id)
    else:
        world.presence.left(world.hub, session.table_id, session.seat.id)
    removed = "&removed=1" if remove else ""
    response = RedirectResponse(link(f"/tables?left={head.id}{removed}"), status_code=303)
    forget_seat(request, response, session.table_id)
    return response


#: What the delete page answers a seat that is not the narrator.
ONLY_THE_NARRATOR_DELETES = "Only the table's narrator may delete it; nothing was deleted."


@router.get("/t/{table_id}/delete", response_class=HTMLResponse)
def delete_page(session: PageSession) -> HTMLResponse:
    """The narrator's page to delete the table: the table's name typed to confirm."""
    if not session.narrator:
        return page("_message.html", status=403, error=ONLY_THE_NARRATOR_DELETES)
    head = session.head()
    return page("delete.html", name=head.name, table_id=head.id, typed="")


@router.post("/t/{table_id}/delete", response_class=HTMLResponse)
def delete(
    request: Request, session: PageSession, confirm: Annotated[str, Form(max_length=200)] = ""
) -> Response:
    """Delete the table when its narrator typed its name (compared as names are:
    :func:`taletable.names.fold`), through the API's own function; then forget its cookie and
    say so on the tables page. A post from another site is refused (``same_site_only``)."""
    same_site_only(request)
    if not session.narrator:
        return page("_message.html", status=403, error=ONLY_THE_NARRATOR_DELETES)
    head = session.head()
    if fold(confirm) != fold(head.name):
        error = f"Type the table's name, {head.name}, to delete it; nothing was deleted."
        return page("delete.html", status=422, name=head.name, table_id=head.id, typed=confirm,
                    error=error)  # fmt: skip
    tables.delete_table(session)
    response = RedirectResponse(link("/tables?deleted=1"), status_code=303)
    forget_seat(request, response, session.table_id)
    return response


@router.get("/recover", response_class=HTMLResponse)
def recover_page() -> HTMLResponse:
    """The recovery form: a narrator who lost the link types the table's recovery code, a
    player or observer in a new browser the code it was shown when it joined."""
    return page("recover.html", code="")


@router.post("/recover", response_class=HTMLResponse)
async def recover(request: Request, code: Annotated[str, Form(max_length=200)] = "") -> Response:
    """Seat this browser as the narrator of the table whose recovery code this is, or as the
    player or observer whose code it is (the same seat, its characters with it: its other
    browsers keep theirs), then open the table. A post from another site is refused
    (:func:`~taletable.server.pages.common.same_site_only`)."""
    same_site_only(request)
    try:
        found = await asyncio.to_thread(recovered, request, code)
    except ApiError as error:
        answer = page("recover.html", status=error.status, code=code, error=error_text(error))
        return retry_after(answer, error)
    seat = None
    if found is not None:
        seat = await seat_of_table(world_of(request), found[0], found[1])
    if found is None or seat is None or (found[0] is not None and not seat.narrator):
        if found is not None:
            wrong_recovery(request)
        return page("recover.html", status=403, code=code, error=NOT_A_RECOVERY_CODE)
    response = RedirectResponse(link(f"/t/{seat.table_id}"), status_code=303)
    set_seat_cookie(request, response, seat.table_id, found[1])
    return response
