"""Characters on the pages: import a sheet file, read it, export it, edit it.

Import and edit call the API's own functions (:mod:`taletable.server.routes.characters`), so
a sheet is checked by every creation and progression rule as ``character validate`` does, and
the problems are listed. A save made from an older version than the table's is refused (409);
the page then shows both versions and lets the person choose: keep theirs, or save theirs
over it knowingly (the other version stays in the log). Neither is ever lost.
"""

from __future__ import annotations

import asyncio
from typing import Any

import yaml
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from taletable.errors import ConflictError, TaletableError
from taletable.files import parse_structured
from taletable.server.errors import ActionError
from taletable.server.owners import character_owners
from taletable.server.pages.common import (
    PAGE_ERRORS,
    error_text,
    fragment,
    message,
    page,
)
from taletable.server.permissions import may_roll_with, taking_part
from taletable.server.routes import characters as api
from taletable.server.session import (
    PageSession,
    PageSessionOrJoin,
    TableSession,
    page_session_or_none,
)

__all__ = ["character_list", "router", "sheet_of"]

router = APIRouter(include_in_schema=False)

#: The largest sheet a page posts (characters); the API's body limit holds too.
MAX_SHEET_TEXT = 200_000


def _stored(session: TableSession, character_id: str) -> tuple[dict[str, Any], int]:
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
        data, _version = _stored(session, character_id)
        return character_from_data(data, source="sheet")
    except (TaletableError, ValidationError):
        return None


def as_yaml(sheet: dict[str, Any]) -> str:
    """A sheet as the YAML of a sheet file."""
    return yaml.safe_dump(sheet, sort_keys=False, allow_unicode=True)


def _parse(text: str) -> dict[str, Any]:
    if len(text) > MAX_SHEET_TEXT:
        raise TaletableError(f"the sheet is over {MAX_SHEET_TEXT:,} characters")
    data = parse_structured(text, source="sheet")
    if not isinstance(data, dict):
        raise TaletableError("a sheet file holds a mapping of fields (name: value)")
    return data


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
        body = api.NewCharacter(sheet=_parse(text))
        saved = await asyncio.to_thread(api.add_character, session, body.sheet)
    except PAGE_ERRORS as error:
        return message(error=error_text(error))
    name = body.sheet.get("identity", {}).get("name", saved.id)
    return message(text=f"{name} joined the table (version {saved.version}).")


def _read_view(session: TableSession, character_id: str) -> dict[str, Any] | None:
    """What the sheet's read view shows: the stored sheet and its pools as built."""
    from taletable.systems.cogent.character.pool_summary import sheet_pools

    try:
        data, version = _stored(session, character_id)
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
    }


@router.get("/t/{table_id}/c/{character_id}", response_class=HTMLResponse)
def sheet_page(session: PageSessionOrJoin, character_id: str) -> Response:
    """The character sheet: read view (live), pools as built, and the editor."""
    shown = _read_view(session, character_id)
    if shown is None:
        return page("_message.html", status=404, error="No such character at this table.")
    text = as_yaml(shown["data"])
    return page(
        "sheet.html",
        head=session.head(),
        seat=session.seat,
        character_id=character_id,
        text=text,
        **shown,
    )


@router.get("/t/{table_id}/c/{character_id}/read", response_class=HTMLResponse)
def sheet_read(session: PageSession, character_id: str) -> Response:
    """The read view alone, as saved now (refreshed after a save here or anywhere)."""
    shown = _read_view(session, character_id)
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
        data, _version = await asyncio.to_thread(_stored, session, character_id)
    except TaletableError:
        return Response("no such character", status_code=404)
    return Response(
        as_yaml(data),
        media_type="application/yaml",
        headers={"Content-Disposition": f'attachment; filename="{character_id}.yaml"'},
    )


@router.post("/t/{table_id}/c/{character_id}", response_class=HTMLResponse)
async def save_sheet(request: Request, session: PageSession, character_id: str) -> Response:
    """Save the edited sheet read at ``version``; a newer save shows both versions to choose."""
    form = await request.form()
    return await asyncio.to_thread(_save_sheet, session, character_id, form)


def _save_sheet(session: TableSession, character_id: str, form: Any) -> Response:
    text, version = str(form.get("text", "")), str(form.get("version", ""))
    context = {"table_id": session.table_id, "character_id": character_id, "text": text}
    try:
        taking_part(session.seat)
        body = api.EditedCharacter(sheet=_parse(text), version=int(version or 0))
        saved = api.edit_character(session, character_id, body)
    except ActionError as error:
        if not isinstance(error.error, ConflictError):
            return fragment("_editor.html", version=version, error=error_text(error), **context)
        theirs, current = _stored(session, character_id)
        return fragment(
            "_conflict.html", mine=text, theirs=as_yaml(theirs), current=current, **context
        )
    except (*PAGE_ERRORS, ValidationError, ValueError) as error:
        return fragment("_editor.html", version=version, error=error_text(error), **context)
    answer = fragment("_editor.html", version=saved["version"], saved=saved["version"], **context)
    answer.headers["HX-Trigger"] = "sheet-saved"  # the read view shows the sheet as saved
    return answer


@router.get("/t/{table_id}/c/{character_id}/editor", response_class=HTMLResponse)
def editor(session: PageSession, character_id: str) -> Response:
    """The editor holding the table's current version (the "keep theirs" choice)."""
    data, version = _stored(session, character_id)
    return fragment(
        "_editor.html",
        table_id=session.table_id,
        character_id=character_id,
        text=as_yaml(data),
        version=version,
    )
