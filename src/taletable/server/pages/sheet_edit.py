"""Editing a sheet at the table: as a form (or, as a fallback, as YAML), checked live by the
engine, saved against the version read; a stale save shows only the fields that differ.

* ``GET .../editor`` the editor holding the sheet as saved now;
* ``POST .../form`` a row added or removed (``op``), or the form saved (``version``);
* ``POST .../form/check`` the form's sheet asked ``cogent.character.validate`` (a read: no
  event), the budget and each problem sent beside its field (htmx out-of-band swaps);
* ``POST /t/{table}/c/{character}`` the YAML text saved (the fallback, as before);
* ``POST .../resolve`` after a refused stale save: the person's choice of theirs or the
  other's value, field by field (:mod:`.sheet_diff`), saved against the newer version.

Saves go through the API's own function (``routes.characters.edit_character``), so a sheet is
checked by every rule and the ownership rules of ``permissions`` hold; nothing changes on a
refusal.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from taletable.errors import ConflictError, InputError, TaletableError
from taletable.server.errors import ActionError, ApiError
from taletable.server.pages.characters import (
    MAX_SHEET_TEXT,
    as_yaml,
    parse_sheet,
    read_view,
    stored_sheet,
)
from taletable.server.pages.common import PAGE_ERRORS, error_text, fragment, page
from taletable.server.pages.sheet_diff import differing, merged, shown, untouched
from taletable.server.pages.sheet_form import apply_op, decode, form_offers, plain_fields, slot_keys
from taletable.server.pages.wizard import beside, problem_of
from taletable.server.permissions import taking_part
from taletable.server.routes import characters as api
from taletable.server.session import PageSession, PageSessionOrJoin, TableSession

__all__ = ["editor_context", "router"]

router = APIRouter(include_in_schema=False)
COGENT = ("core", "tiered")


def _problems(error: Exception) -> list[dict[str, Any]]:
    """A refused save's problems (every broken rule), or the one error beside its field."""
    if isinstance(error, ApiError) and error.extra.get("problems"):
        return list(error.extra["problems"])
    field = error.field if isinstance(error, InputError) else ""
    return [problem_of(error, field)]


def editor_context(
    session: TableSession, character_id: str, data: dict[str, Any], version: int | str, **more: Any
) -> dict[str, Any]:
    """What the editor shows: the form drawn from ``data``, the lists it offers, the YAML."""
    cogent = data.get("edition") in COGENT
    problems = more.pop("problems", [])
    return {
        "table_id": session.table_id,
        "character_id": character_id,
        "data": data,
        "draft": json.dumps(data),
        "version": version,
        "cogent": cogent,
        "offers": form_offers(data) if cogent else {},
        "plain": [] if cogent else plain_fields(data),
        "beside": beside(problems, slot_keys(data), spent_by="skills"),
        "text": more.pop("text", None) or as_yaml(data),
        **more,
    }


def _editor(session: TableSession, character_id: str, data: dict[str, Any],
            version: int | str, **more: Any) -> HTMLResponse:  # fmt: skip
    return fragment("_sheet_editor.html", **editor_context(session, character_id, data, version,
                                                           **more))  # fmt: skip


def _draft(form: Any) -> dict[str, Any]:
    text = str(form.get("draft", ""))
    if len(text) > MAX_SHEET_TEXT:
        raise TaletableError(f"the sheet is over {MAX_SHEET_TEXT:,} characters")
    data = json.loads(text or "null")
    if not isinstance(data, dict):
        raise TaletableError("the form lost its sheet; reload the page")
    return data


@router.get("/t/{table_id}/c/{character_id}", response_class=HTMLResponse)
def sheet_page(session: PageSessionOrJoin, character_id: str) -> Response:
    """The character sheet: read view (live), pools as built, and the editor (a form)."""
    shown_now = read_view(session, character_id)
    if shown_now is None:
        return page("_message.html", status=404, error="No such character at this table.")
    edited = editor_context(session, character_id, shown_now["data"], shown_now["version"])
    read = {key: value for key, value in shown_now.items() if key not in ("data", "version")}
    return page("sheet.html", head=session.head(), seat=session.seat, **{**read, **edited})


@router.get("/t/{table_id}/c/{character_id}/editor", response_class=HTMLResponse)
def editor(session: PageSession, character_id: str) -> Response:
    """The editor holding the table's current version (also "keep theirs, all of it")."""
    data, version = stored_sheet(session, character_id)
    return _editor(session, character_id, data, version)


def _save(session: TableSession, character_id: str, mine: dict[str, Any], version: str,
          base: dict[str, Any] | None = None, **more: Any) -> HTMLResponse:  # fmt: skip
    """Save ``mine`` read at ``version``: the editor at the new version, the editor with every
    problem beside its field (nothing saved), or the conflict's differing fields."""
    try:
        taking_part(session.seat)
        body = api.EditedCharacter(sheet=mine, version=int(version or 0))
        saved = api.edit_character(session, character_id, body)
    except ActionError as error:
        if isinstance(error.error, ConflictError):
            return _conflict(session, character_id, mine, base)
        return _editor(session, character_id, mine, version, problems=_problems(error),
                       error=error_text(error), **more)  # fmt: skip
    except (*PAGE_ERRORS, ValidationError, ValueError) as error:
        return _editor(session, character_id, mine, version, problems=_problems(error),
                       error=error_text(error), **more)  # fmt: skip
    answer = _editor(session, character_id, mine, saved["version"], saved=saved["version"])
    answer.headers["HX-Trigger"] = "sheet-saved"  # the read view shows the sheet as saved
    return answer


def _conflict(session: TableSession, character_id: str, mine: dict[str, Any],
              base: dict[str, Any] | None = None) -> HTMLResponse:  # fmt: skip
    theirs, current = stored_sheet(session, character_id)
    fields = differing(mine, theirs)
    if not fields:
        same = "Someone saved the same sheet meanwhile; nothing to choose."
        return _editor(session, character_id, theirs, current, notice=same)
    return fragment("_sheet_conflict.html", table_id=session.table_id, character_id=character_id,
                    fields=fields, shown=shown, mine=json.dumps(mine), current=current,
                    untouched=untouched(fields, base),
                    base=json.dumps(base) if base is not None else "")  # fmt: skip


@router.post("/t/{table_id}/c/{character_id}/form", response_class=HTMLResponse)
async def post_form(request: Request, session: PageSession, character_id: str) -> Response:
    """A row added or removed (``op``: the form drawn again), or the form saved."""
    form = await request.form()
    return await asyncio.to_thread(_post_form, session, character_id, form)


def _post_form(session: TableSession, character_id: str, form: Any) -> HTMLResponse:
    version, op = str(form.get("version", "")), str(form.get("op", ""))
    try:
        draft = _draft(form)
    except (TaletableError, ValueError) as error:
        return _editor(session, character_id, *stored_sheet(session, character_id),
                       error=error_text(error))  # fmt: skip
    try:
        if op:
            data, focus = apply_op(decode(form, draft, keep=True), op)
            return _editor(session, character_id, data, version, focus=focus)
        mine = decode(form, draft)
    except PAGE_ERRORS as error:
        return _editor(session, character_id, draft, version, problems=_problems(error),
                       error=error_text(error))  # fmt: skip
    return _save(session, character_id, mine, version, base=draft)


@router.post("/t/{table_id}/c/{character_id}/form/check", response_class=HTMLResponse)
async def check_form(request: Request, session: PageSession, character_id: str) -> Response:
    """The form's sheet checked by every rule (no event), each problem beside its field."""
    form = await request.form()
    return await asyncio.to_thread(_check_form, session, form)


def _check_form(session: TableSession, form: Any) -> HTMLResponse:
    try:
        data = _draft(form)
    except (TaletableError, ValueError) as error:
        return fragment("_sheet_form_check.html", keys=[], beside={}, error=error_text(error))
    if data.get("edition") not in COGENT:
        return fragment("_sheet_form_check.html", keys=[], beside={}, plain=True)
    try:
        sheet = decode(form, data)
        report = session.ask("cogent.character.validate", {"sheet": sheet}).to_data()
        problems = list(report["problems"])
    except (*PAGE_ERRORS, ValueError) as error:
        problems, report = _problems(error), {"legal": False}
    keys = slot_keys(data)
    return fragment("_sheet_form_check.html", keys=keys, report=report,
                    beside=beside(problems, keys, spent_by="skills"))  # fmt: skip


@router.post("/t/{table_id}/c/{character_id}", response_class=HTMLResponse)
async def save_yaml(request: Request, session: PageSession, character_id: str) -> Response:
    """The YAML text saved (the fallback editor), read at ``version``."""
    form = await request.form()
    return await asyncio.to_thread(_save_yaml, session, character_id, form)


def _save_yaml(session: TableSession, character_id: str, form: Any) -> HTMLResponse:
    text, version = str(form.get("text", "")), str(form.get("version", ""))
    try:
        mine = parse_sheet(text)
    except (*PAGE_ERRORS, ValueError) as error:
        data, _current = stored_sheet(session, character_id)
        return _editor(session, character_id, data, version, text=text, yaml_open=True,
                       yaml_error=error_text(error))  # fmt: skip
    return _save(session, character_id, mine, version, text=text, yaml_open=True)


@router.post("/t/{table_id}/c/{character_id}/resolve", response_class=HTMLResponse)
async def resolve(request: Request, session: PageSession, character_id: str) -> Response:
    """Each differing field taken from the person's edit or the sheet as saved, then saved
    against the version shown (newer again: the fields that differ now are shown)."""
    form = await request.form()
    return await asyncio.to_thread(_resolve, session, character_id, form)


def _resolve(session: TableSession, character_id: str, form: Any) -> HTMLResponse:
    try:
        mine = _draft({"draft": form.get("mine", "")})
    except (TaletableError, ValueError) as error:
        return _editor(session, character_id, *stored_sheet(session, character_id),
                       error=error_text(error))  # fmt: skip
    version = str(form.get("version", ""))
    base = _draft({"draft": form.get("base", "")}) if form.get("base") else None
    theirs, current = stored_sheet(session, character_id)
    if str(current) != version:  # saved again since the choices were shown
        return _conflict(session, character_id, mine, base)
    taken = set()
    for field in differing(mine, theirs):
        if form.get(f"take:{field.key}") == "mine":
            taken.add(field.path)
    return _save(session, character_id, merged(theirs, mine, taken), version)
