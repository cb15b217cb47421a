"""A sheet's last change taken back (issue 24.7): the narrator restores the version before the
current one, as a new version; nothing is deleted.

The data of the version before is read from the table's log (every save is in the event that
made it: :mod:`taletable.server.state`), never from the client. The restore names the version
it was read at, like any edit: one saved since is a 409 and changes nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, select

from taletable.errors import ConflictError, TaletableError
from taletable.log_entry import read_entry
from taletable.server.errors import ActionError, ApiError, NotFound
from taletable.server.log import table_write
from taletable.server.permissions import narrator_only
from taletable.server.responses import ERRORS
from taletable.server.schema import EVENTS
from taletable.server.session import NarratorSession, TableSession
from taletable.server.state import RecordingStore, saved_version
from taletable.store.sql import SqlStore

__all__ = ["CHARACTER_RESTORE", "Restore", "restore_character", "router"]

router = APIRouter(prefix="/api/tables/{table_id}/characters", tags=["characters"])

#: The event of a sheet restored to its version before.
CHARACTER_RESTORE = "character.restore"


class Restore(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=1, description="The version the sheet was read at (its current one)")


class Restored(BaseModel):
    id: str
    version: int = Field(description="The sheet's new version")
    restored: int = Field(description="The version whose data it now holds")


def _earlier(connection: Connection, table_id: str, key: str, version: int) -> dict[str, Any]:
    """The data the sheet ``key`` was saved with at ``version``, read from the log."""
    rows = connection.execute(
        select(EVENTS.c.event)
        .where((EVENTS.c.table_id == table_id) & EVENTS.c.event.contains(key))
        .order_by(EVENTS.c.seq.desc())
    ).scalars()
    data = saved_version((read_entry(text) for text in rows), "character", key, version)
    if data is None:
        raise ApiError("version", f"version {version} of this sheet is not in the table's log")
    return dict(data)


def restore_character(session: TableSession, character_id: str, read_at: int) -> Restored:
    """Save the sheet's version before ``read_at`` (its current one) as its next version: the
    narrator's only (403); a sheet changed since ``read_at`` is a 409, a first version has no
    version before it (422)."""
    narrator_only(session.seat)
    world = session.world
    with table_write(world.database, world.hub, session.table_id) as writer:
        store = RecordingStore(SqlStore(writer.connection, session.table_id))
        try:
            current = store.read("character", character_id)
        except TaletableError:
            raise NotFound("character_id", f"no character {character_id!r} at this table") from None
        if current.version != read_at:
            error = ConflictError(character_id, version=read_at, current=current.version)
            raise ActionError(error, "version")
        if current.version == 1:
            raise ApiError("version", "this is the sheet's first version: there is none before")
        earlier = _earlier(writer.connection, session.table_id, character_id, read_at - 1)
        saved = store.save("character", character_id, earlier, version=read_at)
        body = {"character": character_id, "restored": read_at - 1, "saves": store.saves}
        writer.append(CHARACTER_RESTORE, body, actor=session.seat.id)
    return Restored(id=character_id, version=saved.version, restored=read_at - 1)


@router.post("/{character_id}/restore", responses=ERRORS)
def post_restore(session: NarratorSession, character_id: str, body: Restore) -> Restored:
    """Take back the sheet's last change (the narrator only): the version before the one it
    was read at is saved again as a new version. A change saved since is a 409."""
    return restore_character(session, character_id, body.version)
