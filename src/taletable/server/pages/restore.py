"""A sheet's last change taken back, on its page (issue 24.7): "Restore previous version", the
narrator's only, calling the API's own function (:mod:`taletable.server.routes.restore`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.errors import ConflictError, TaletableError
from taletable.server.errors import ActionError
from taletable.server.pages.common import PAGE_ERRORS, error_text, fragment, message
from taletable.server.routes.restore import restore_character
from taletable.server.session import PageSession, TableSession

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/t/{table_id}/c/{character_id}/restore", response_class=HTMLResponse)
def restore_form(session: PageSession, character_id: str) -> Response:
    """The restore button, for the narrator, at the sheet's current version (nothing for
    another seat, or for a sheet at its first version)."""
    if not session.narrator:
        return HTMLResponse("")
    with session.reading() as reading:
        try:
            version = reading.store.read("character", character_id).version
        except TaletableError:
            return HTMLResponse("")
    if version < 2:
        return HTMLResponse("")
    context = {"table_id": session.table_id, "character_id": character_id, "version": version}
    return fragment("_sheet_restore.html", **context)


@router.post("/t/{table_id}/c/{character_id}/restore", response_class=HTMLResponse)
async def restore(request: Request, session: PageSession, character_id: str) -> Response:
    """Restore the sheet's version before the one the page read (a newer save: refused)."""
    form = await request.form()
    return await asyncio.to_thread(_restore, session, character_id, form)


def _restore(session: TableSession, character_id: str, form: Any) -> Response:
    try:
        restored = restore_character(session, character_id, int(str(form.get("version", "0"))))
    except ActionError as error:
        if isinstance(error.error, ConflictError):
            return message(
                error=f"Someone saved this sheet since you read it (it is at version "
                f"{error.error.current} now): look at it again before you restore."
            )
        return message(error=error_text(error))
    except (*PAGE_ERRORS, ValueError) as error:
        return message(error=error_text(error))
    answer = message(
        text=f"The sheet is back as it was at version {restored.restored} "
        f"(saved as version {restored.version}; every version stays in the log)."
    )
    answer.headers["HX-Trigger"] = "sheet-saved, sheet-restored"  # the read view and the editor
    return answer
