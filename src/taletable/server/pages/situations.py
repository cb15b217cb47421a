"""The narrator's boons tools: Let it Ride's situations and the group challenge.

Let it Ride (003 > Additional Mechanics; RULINGS.md "let it ride"): the narrator marks that a
situation's circumstances changed (``boons.circumstances-changed``: its checks may be rolled
again) or takes such a mark back (``boons.bind-again``). A group challenge (003 > Group
Challenges) is run here with its members, one a line, and its situation, which binds it: its
outcome is final. Each form becomes one action taken through the API's own
:meth:`~taletable.server.session.TableSession.act`; the refusals (a player's mark, a challenge
run again, nothing to bind) are the server's, shown beside the form.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.server.pages.common import fragment
from taletable.server.pages.rolls import tool_result
from taletable.server.session import PageSession

__all__ = ["MARKS", "router"]

router = APIRouter(include_in_schema=False)

#: The narrator's two marks on a situation, by the form's button.
MARKS = {"changed": "boons.circumstances-changed", "bind-again": "boons.bind-again"}
#: The most members one form sends (the engine's own limit refuses more, naming ``members``).
MAX_LINES = 60


@router.post("/t/{table_id}/situation", response_class=HTMLResponse)
async def situation(request: Request, session: PageSession) -> Response:
    """Mark a situation's circumstances changed, or bind it again (the narrator's)."""
    form = await request.form()
    action = MARKS.get(str(form.get("mark", "")))
    if action is None:
        return fragment("_tool_result.html", error="mark: choose changed or bind-again")
    args = {name: str(form.get(name, "")).strip() for name in ("situation", "character")}
    args = {name: value for name, value in args.items() if value}
    return await asyncio.to_thread(tool_result, session, action, args, "public")


@router.post("/t/{table_id}/group", response_class=HTMLResponse)
async def group(request: Request, session: PageSession) -> Response:
    """Run a group challenge: its members one a line, the rerolls by name, its situation."""
    form = await request.form()
    lines = [line.strip() for line in str(form.get("members", "")).splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        return fragment("_tool_result.html", error=f"members: at most {MAX_LINES} lines")
    args: dict[str, Any] = {"difficulty": str(form.get("difficulty", "")), "members": lines}
    rerolls = [name.strip() for name in str(form.get("rerolls", "")).split(",") if name.strip()]
    if rerolls:
        args["rerolls"] = rerolls
    for name in ("situation", "failures"):
        value = str(form.get(name, "")).strip()
        if value:
            args[name] = value
    visibility = str(form.get("visibility", "narrator"))
    return await asyncio.to_thread(tool_result, session, "boons.group", args, visibility)
