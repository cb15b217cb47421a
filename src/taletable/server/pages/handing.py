"""A character handed to a seat, on its sheet's page (issue 34.6): the narrator picks the seat
that plays it from now on (a player coming back on a new seat, a character made for someone),
through the API's own function (:func:`taletable.server.routes.characters.hand_character`: a
``character.owner`` event). Every seat sees whose the character is."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.errors import TaletableError
from taletable.server.owners import owner_of
from taletable.server.pages.common import PAGE_ERRORS, error_text, fragment, message, seats_of
from taletable.server.routes.characters import hand_character
from taletable.server.session import PageSession, TableSession

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

#: What the page answers a seat that is not the narrator.
ONLY_THE_NARRATOR_HANDS = "Only the narrator hands a character to another seat; nothing changed."


def _context(session: TableSession, character_id: str, **said: str) -> dict[str, Any] | None:
    """Whose the character is and, for the narrator, the seats it may be handed to (those
    that play: an observer may not roll); None when there is no such character."""
    with session.reading() as reading:
        try:
            stored = reading.store.read("character", character_id)
        except TaletableError:
            return None
        owner = owner_of(reading.connection, session.table_id, character_id)
    identity = stored.data.get("identity")
    name = identity.get("name") if isinstance(identity, dict) else None
    seats = [row for row in seats_of(session) if row.role != "observer"]
    return {"table_id": session.table_id, "character_id": character_id,
            "character": str(name or character_id), "owner": owner,
            "seats": seats if session.narrator else [], **said}  # fmt: skip


@router.get("/t/{table_id}/c/{character_id}/owner", response_class=HTMLResponse)
def owner_box(session: PageSession, character_id: str) -> Response:
    """Whose the character is; for the narrator, the form that hands it to another seat."""
    context = _context(session, character_id)
    return fragment("_owner.html", **context) if context else HTMLResponse("")


@router.post("/t/{table_id}/c/{character_id}/owner", response_class=HTMLResponse)
async def hand_over(request: Request, session: PageSession, character_id: str) -> Response:
    """Hand the character to the seat the form names: the narrator's only, and only to a seat
    that plays; otherwise the box says why in words, naming the field (as the pages' other
    answers to htmx, which swaps no 4xx), and nothing changes."""
    form = await request.form()
    return await asyncio.to_thread(_hand, session, character_id, str(form.get("seat", "")))


def _hand(session: TableSession, character_id: str, seat: str) -> Response:
    if not session.narrator:
        return _answer(session, character_id, error=ONLY_THE_NARRATOR_HANDS)
    if not seat.strip():
        return _answer(session, character_id, error="seat: choose the seat to hand it to.")
    try:
        handed = hand_character(session, character_id, seat)
    except PAGE_ERRORS as error:
        return _answer(session, character_id, error=f"seat: {error_text(error)}; nothing changed.")
    return _answer(session, character_id, done=f"Handed to {handed.name}.")


def _answer(session: TableSession, character_id: str, **said: str) -> Response:
    context = _context(session, character_id, **said)
    if context is None:
        return message(error=f"character_id: no character {character_id!r} at this table.")
    return fragment("_owner.html", **context)
