"""The table page's chat box: say something to the table, in or out of character, whispered
to chosen seats, with inline rolls (``chat.say``; the log shows the message as
:mod:`.present_chat` renders it).

The form answers with itself: emptied after a message is sent (the speaker and the whisper's
seats kept), or with the text kept and the reason beside it when the message is refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.server.pages.characters import character_list
from taletable.server.pages.common import PAGE_ERRORS, error_text, fragment, seats_of
from taletable.server.permissions import characters_to_speak_as
from taletable.server.session import PageSession, TableSession
from taletable.store import Store

__all__ = ["chat_context", "router"]

router = APIRouter(include_in_schema=False)


def chat_context(
    session: TableSession,
    *,
    text: str = "",
    speaker: str = "",
    to: Sequence[str] = (),
    error: str = "",
    sent: str = "",
) -> dict[str, Any]:
    """What the chat box shows: the characters this seat may speak as (the narrator: every
    character and the table's NPCs), the other seats it may whisper to, and what the form
    held."""
    npcs: list[dict[str, str]] = []
    with session.reading() as reading:
        mine = characters_to_speak_as(reading.connection, session.table_id, session.seat)
        if mine is None:
            npcs = _npcs(reading.store)
    characters = [c for c in character_list(session) if mine is None or c["id"] in mine]
    seats = [seat for seat in seats_of(session) if seat.id != session.seat.id]
    return {
        "chat_characters": characters + npcs,
        "chat_seats": seats,
        "chat_text": text,
        "chat_as": speaker,
        "chat_to": set(to),
        "chat_error": error,
        "chat_sent": sent,
    }


def _npcs(store: Store) -> list[dict[str, str]]:
    """The table's NPCs (statblocks), by name: the narrator may speak as any of them."""
    found = []
    for key in store.keys("statblock"):
        name = store.read("statblock", key).data.get("name")
        found.append({"id": key, "name": f"{name or key} (NPC)"})
    return sorted(found, key=lambda npc: (npc["name"].lower(), npc["id"]))


def _say(session: TableSession, text: str, speaker: str, to: list[str]) -> Response:
    args: dict[str, Any] = {"text": text}
    if speaker:
        args["as"] = speaker
    if to:
        args["to"] = to
    try:
        event = session.act("chat.say", args)
    except PAGE_ERRORS as error:
        context = chat_context(session, text=text, speaker=speaker, to=to, error=error_text(error))
    else:
        done = f"{'Whispered' if to else 'Said'} (#{event.seq})."
        context = chat_context(session, speaker=speaker, to=to, sent=done)
    return fragment("_chat_form.html", head=session.head(), seat=session.seat, **context)


@router.post("/t/{table_id}/chat", response_class=HTMLResponse)
async def say(request: Request, session: PageSession) -> Response:
    """Send the chat box's message (``chat.say``) as this seat."""
    form = await request.form()
    text = str(form.get("text", ""))
    speaker = str(form.get("as", "")).strip()
    to = [str(seat) for seat in form.getlist("to") if str(seat).strip()]
    return await asyncio.to_thread(_say, session, text, speaker, to)
