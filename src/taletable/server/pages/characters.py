"""Characters on the pages: import a sheet file, read it, export it (editing it, as a form
or as YAML, is :mod:`.sheet_edit`).

Import calls the API's own function (:mod:`taletable.server.routes.characters`), so a sheet
is checked by every creation and progression rule as ``character validate`` does, and the
problems are listed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import yaml
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from taletable.errors import TaletableError
from taletable.files import parse_structured
from taletable.names import fold
from taletable.server.owners import character_owners
from taletable.server.pages.common import (
    PAGE_ERRORS,
    error_text,
    fragment,
    message,
    seats_of,
)
from taletable.server.permissions import may_roll_with, taking_part
from taletable.server.routes import characters as api
from taletable.server.session import (
    PageSession,
    TableSession,
    page_session_or_none,
)

__all__ = [
    "as_yaml",
    "character_list",
    "parse_sheet",
    "read_view",
    "router",
    "sheet_of",
    "stored_sheet",
]

router = APIRouter(include_in_schema=False)

#: The largest sheet a page posts (characters); the API's body limit holds too.
MAX_SHEET_TEXT = 200_000


def stored_sheet(session: TableSession, character_id: str) -> tuple[dict[str, Any], int]:
    with session.reading() as reading:
        stored = reading.store.read("character", character_id)
    return dict(stored.data), stored.version


def character_list(session: TableSession) -> list[dict[str, Any]]:
    """Every character of the table: id, name, edition and version, by name."""
    with session.reading() as reading:
        store = reading.store
        rows = []
        for key in store.keys("character"):
            stored = store.read("character", key)
            identity = stored.data.get("identity") or {}
            name = identity.get("name") if isinstance(identity, dict) else None
            rows.append(
                {
                    "id": key,
                    "name": str(name or stored.data.get("name") or key),
                    "edition": stored.data.get("edition"),
                    "version": stored.version,
                }
            )
    return sorted(rows, key=lambda row: (row["name"].lower(), row["id"]))


def sheet_of(session: TableSession, character_id: str) -> Any:
    """The character's Cogent sheet as the engine reads it, or None when it is not one."""
    from taletable.systems.cogent.character.files import character_from_data

    try:
        data, _version = stored_sheet(session, character_id)
        return character_from_data(data, source="sheet")
    except (TaletableError, ValidationError):
        return None


def as_yaml(sheet: dict[str, Any]) -> str:
    """A sheet as the YAML of a sheet file."""
    return yaml.safe_dump(sheet, sort_keys=False, allow_unicode=True)


def parse_sheet(text: str) -> dict[str, Any]:
    if len(text) > MAX_SHEET_TEXT:
        raise TaletableError(f"the sheet is over {MAX_SHEET_TEXT:,} characters")
    data = parse_structured(text, source="sheet")
    if not isinstance(data, dict):
        raise TaletableError("a sheet file holds a mapping of fields (name: value)")
    return data


def _same_name(session: TableSession, sheet: dict[str, Any]) -> str | None:
    """Why a sheet is not imported when a character of its name is at the table already (the
    same sheet imported twice, most often), or None; names compared as
    :func:`taletable.names.fold` compares them."""
    identity = sheet.get("identity")
    name = identity.get("name") if isinstance(identity, dict) else sheet.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    for row in character_list(session):
        if fold(row["name"]) == fold(name):
            return (
                f"{row['name']} is at the table already, so this sheet was not imported again. "
                f"Open {row['name']}'s sheet to change it, or give this sheet another name to "
                "add a second character."
            )
    return None


@router.get("/t/{table_id}/characters", response_class=HTMLResponse)
def characters_panel(session: PageSession) -> Response:
    """The list of the table's characters (refreshed live when one is added or edited)."""
    return fragment(
        "_characters.html", table_id=session.table_id, characters=character_list(session)
    )


@router.post("/t/{table_id}/characters", response_class=HTMLResponse)
async def import_sheet(request: Request, session: PageSession) -> Response:
    """Import a sheet file (pasted or uploaded): checked by every rule, then added."""
    form = await request.form()
    upload, text = form.get("file"), str(form.get("text", ""))
    if upload is not None and not isinstance(upload, str) and upload.filename:
        text = (await upload.read(MAX_SHEET_TEXT + 1)).decode("utf-8", errors="replace")
    try:
        taking_part(session.seat)
        body = api.NewCharacter(sheet=parse_sheet(text))
        twin = await asyncio.to_thread(_same_name, session, body.sheet)
        if twin is not None:
            return message(error=twin)
        saved = await asyncio.to_thread(api.add_character, session, body.sheet)
    except PAGE_ERRORS as error:
        return message(error=error_text(error))
    name = body.sheet.get("identity", {}).get("name", saved.id)
    return message(text=f"{name} joined the table (version {saved.version}).")


def read_view(session: TableSession, character_id: str) -> dict[str, Any] | None:
    """What the sheet's read view shows: the stored sheet and its pools as built, whether this
    seat may roll with it and change it (``may_roll``), and whose it is (``owner_name``)."""
    from taletable.systems.cogent.character.pool_summary import sheet_pools

    try:
        data, version = stored_sheet(session, character_id)
    except TaletableError:
        return None
    sheet = sheet_of(session, character_id)
    pools = sheet_pools(sheet) if sheet is not None else None
    with session.world.database.read() as connection:
        owner = character_owners(connection, session.table_id).get(character_id)
    return {
        "data": data,
        "version": version,
        "pools": pools,
        "table_id": session.table_id,
        "sheet_id": character_id,
        "may_roll": may_roll_with(session.seat, owner),
        "owner_name": _owner_name(session, owner),
    }


def _owner_name(session: TableSession, owner: str | None) -> str:
    """Whose a character is, in words: "the narrator" for the narrator's (or no seat's)."""
    seat = next((row for row in seats_of(session) if row.id == owner), None)
    if seat is None or seat.role == "narrator":
        return "the narrator"
    return str(seat.name)


@router.get("/t/{table_id}/c/{character_id}/read", response_class=HTMLResponse)
def sheet_read(session: PageSession, character_id: str) -> Response:
    """The read view alone, as saved now (refreshed after a save here or anywhere)."""
    shown = read_view(session, character_id)
    if shown is None:
        return message(error="No such character at this table.")
    return fragment("_sheet_read.html", **shown)


@router.get("/t/{table_id}/c/{character_id}.yaml")
async def export_sheet(request: Request, table_id: str, character_id: str) -> Response:
    """The sheet file, to keep or to use with the ``taletable`` command."""
    session = await page_session_or_none(request, table_id)
    if session is None:
        return Response("no seat at this table", status_code=401)
    try:
        data, _version = await asyncio.to_thread(stored_sheet, session, character_id)
    except TaletableError:
        return Response("no such character", status_code=404)
    return Response(
        as_yaml(data),
        media_type="application/yaml",
        headers={"Content-Disposition": f'attachment; filename="{character_id}.yaml"'},
    )
