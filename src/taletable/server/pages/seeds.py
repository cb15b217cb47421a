"""The table page gives this seat's own seed for each scene (DESIGN > Principles 10;
:mod:`taletable.server.seeds`): ``static/table.js`` makes 32 random bytes with
``crypto.getRandomValues`` when the page opens and at each new scene, keeps them in the
browser (``localStorage``) so the seat can check its dice after the close, and posts them
here. A seed the scene has already fixed (given from another tab, or the seat rolled first)
is a 409 the page ignores: the seat's dice then come from the seed it gave first."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response

from taletable.server.errors import ApiError
from taletable.server.log import table_write
from taletable.server.permissions import taking_part
from taletable.server.seeds import give_seat_seed
from taletable.server.session import PageSession, TableSession

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _give(session: TableSession, seed: str) -> None:
    world = session.world
    with table_write(world.database, world.hub, session.table_id) as writer:
        give_seat_seed(writer, session.seat.id, seed)


@router.post("/t/{table_id}/seed")
async def page_seed(request: Request, session: PageSession) -> Response:
    """Take this seat's own seed for the open scene (204), from the page's script."""
    taking_part(session.seat)
    seed = str((await request.form()).get("seed", ""))
    if len(seed) > 64:
        raise ApiError("seed", "a seat's seed is 32 bytes as 64 lower-case hex digits")
    await asyncio.to_thread(_give, session, seed)
    return Response(status_code=204)
