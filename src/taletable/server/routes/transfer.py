"""A table carried out and in: its export, streamed from the database to the client, and an
export imported, streamed from the client to disk, checked whole and written (its work:
:mod:`taletable.server.importing`). Neither holds a campaign's log in memory."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from sqlalchemy import select

from taletable.ledger import EXPORT_FORMAT
from taletable.ledger.export_file import (
    DocumentExport,
    ExportFile,
    ExportLimits,
    ExportSource,
    LimitExceeded,
    export_chunks,
)
from taletable.server.errors import ApiError
from taletable.server.exports import full_log, seat_log
from taletable.server.log import read_table
from taletable.server.metrics import EXPORT_BYTES
from taletable.server.responses import ERRORS
from taletable.server.routes.tables import MadeTable
from taletable.server.schema import SCENES
from taletable.server.session import SessionDep, TableSession
from taletable.server.world import World, world_of

__all__ = ["router"]

router = APIRouter(prefix="/api/tables", tags=["scenes"])

#: Bytes of the export sent at a time.
CHUNK_BYTES = 64 * 1024
#: An imported body up to this size is read whole (as it always was); a larger one as a stream.
WHOLE_BYTES = 256 * 1024
_NOT_JSON = "the body is not JSON in UTF-8; send a JSON document"


class PayloadTooLarge(ApiError):
    status = 413


@router.get("/{table_id}/export", responses={200: {"content": {"application/json": {}}}, **ERRORS})
def export(session: SessionDep) -> StreamingResponse:
    """The table, every event with ``prev_hash`` and ``hash``, and each scene's commitment and
    (once closed) seed: what ``taletable verify`` checks. Streamed from the database, each
    event on a line of its own; one export at a time per seat and two per table (429 with
    ``Retry-After`` past it).

    Every seat exports its own view: the narrator's is whole; a player's or observer's holds
    each event it may not see (narrator-only, a blind roll, its own too) as its stub, marked
    ``hidden``, with its ``seq``, ``prev_hash`` and ``hash``, so the chain still links."""
    world, table_id = session.world, session.table_id
    with world.database.read() as connection:
        read_table(connection, table_id)  # 404 before the answer starts
    seat = world.exports.take(session.seat.id)
    try:
        table = world.exports.take(f"table:{table_id}")
    except ApiError:
        seat.release()
        raise

    def chunks() -> Iterator[bytes]:
        try:
            for chunk in _batched(_export_text(session)):
                EXPORT_BYTES.inc(len(chunk))
                yield chunk
        finally:
            table.release()
            seat.release()

    return StreamingResponse(chunks(), media_type="application/json")


def _export_text(session: TableSession) -> Iterator[str]:
    table_id = session.table_id
    with session.world.database.read() as connection:
        head = read_table(connection, table_id)
        scenes = connection.execute(
            select(SCENES).where(SCENES.c.table_id == table_id).order_by(SCENES.c.number)
        ).all()
        header = {
            "format": EXPORT_FORMAT,
            "table": {
                "id": head.id,
                "name": head.name,
                "system": head.system,
                "edition": head.edition,
                "physical_dice": head.physical_dice,
                "created_at": head.created_at,
                "rules": head.rules,
                "house_rules": head.house_rules,
            },
            "scenes": [
                {
                    "number": row.number,
                    "commitment": row.commitment,
                    "seed": row.seed if row.revealed else None,
                }
                for row in scenes
            ],
        }
        events = (
            full_log(connection, table_id)
            if session.narrator
            else seat_log(connection, table_id, session.seat.id)
        )
        yield from export_chunks(header, events)


def _batched(texts: Iterator[str]) -> Iterator[bytes]:
    """The texts joined into chunks of about :data:`CHUNK_BYTES` (one thread hop each)."""
    held: list[str] = []
    size = 0
    for text in texts:
        held.append(text)
        size += len(text)
        if size >= CHUNK_BYTES:
            yield "".join(held).encode()
            held, size = [], 0
    if held:
        yield "".join(held).encode()


@router.post(
    "/import",
    status_code=201,
    responses=ERRORS,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}}},
            "description": "A table's export (``GET /api/tables/{id}/export``), streamed: up to "
            "TALETABLE_MAX_IMPORT bytes (1 GiB), 2,000,000 events, 1 MiB an event",
        }
    },
)
async def import_table(request: Request) -> MadeTable:
    """Make a table from an export that verifies whole (``taletable verify``: the chain, the
    dice, the settings it opened with, every result replayed), its state rebuilt from the log.

    The table keeps its id (the chain starts from it); seats are not carried over (tokens never
    leave the server), so a new narrator token and join code are made, and a new scene opens.
    An export whose open scene has rolled is refused: its dice cannot be checked until its seed
    is revealed (close the scene first). The body is streamed to disk as it arrives (413 past
    ``TALETABLE_MAX_IMPORT``) and read from there as a stream: a campaign's export is never
    held whole.
    """
    world = world_of(request)
    world.limiter.check(f"address:{request.client.host if request.client else ''}")
    handle, path = tempfile.mkstemp(prefix="taletable-import-", suffix=".json")
    try:
        with os.fdopen(handle, "wb") as spool:
            size = await _spool(request, spool, world.limits.max_import)
        return await asyncio.to_thread(_import_file, world, path, size)
    finally:
        os.unlink(path)


async def _spool(request: Request, spool: Any, most: int) -> int:
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise PayloadTooLarge("body", f"the request body is over {most} bytes; send less")
        spool.write(chunk)
    return size


def _import_file(world: World, path: str, size: int) -> MadeTable:
    from taletable.server.importing import import_export

    return import_export(world, _source(path, size))


def _source(path: str, size: int) -> ExportSource:
    """The spooled body as an export: read whole when small, as a stream otherwise."""
    if size <= WHOLE_BYTES:
        try:
            with open(path, "rb") as file:
                document = json.loads(file.read().decode("utf-8"))
        except (ValueError, RecursionError):
            raise ApiError("body", _NOT_JSON) from None
        if not isinstance(document, dict):
            raise ApiError("body", "the body is not a JSON object; send a table's export")
        return DocumentExport(document)
    try:
        return ExportFile(path, ExportLimits(max_bytes=size))
    except LimitExceeded as limit:
        raise ApiError("body", f"the export is past a limit: {limit}") from None
    except ValueError as error:
        raise ApiError("body", f"{_NOT_JSON} ({error})") from None

