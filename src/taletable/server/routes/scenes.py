"""Scenes: a scene closed (its seed revealed) and the next opened; a seat's own seed for the
open scene (a table's export and import: :mod:`.transfer`)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from taletable.ledger.seats import SEAT_SEED_PATTERN, seed_commitment
from taletable.server.log import table_write
from taletable.server.responses import ERRORS
from taletable.server.seeds import close_scene, give_seat_seed, open_scene
from taletable.server.session import NarratorSession, PlayerSession, TableSession

__all__ = ["router"]

router = APIRouter(prefix="/api/tables", tags=["scenes"])


class NextScene(BaseModel):
    closed: int
    seed: str
    scene: int
    commitment: str


@router.post("/{table_id}/scenes", status_code=201, responses=ERRORS)
def post_scene(session: NarratorSession) -> NextScene:
    """Close the open scene (its seed is revealed in the log) and open the next one."""
    return next_scene(session)


def next_scene(session: TableSession) -> NextScene:
    """Close the session's table's open scene (its seed revealed) and open the next one."""
    table_id, seat, world = session.table_id, session.seat, session.world
    with table_write(world.database, world.hub, table_id) as writer:
        closing = writer.head.scene
        seed = close_scene(writer, seat.id)
        promised = open_scene(writer, closing + 1)
    return NextScene(closed=closing, seed=seed, scene=closing + 1, commitment=promised)


class SeatSeed(BaseModel):
    """A seat's own seed for the open scene (DESIGN > Principles 10)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seed: str = Field(
        min_length=64, max_length=64, pattern=SEAT_SEED_PATTERN,
        description="32 random bytes the seat's client made, as 64 lower-case hex digits: "
        "with the scene's seed they draw this seat's dice, so no one steers them; keep it to "
        "check them after the scene closes (taletable verify --seat-seed)",
    )  # fmt: skip


class GivenSeed(BaseModel):
    scene: int
    commitment: str = Field(description="The SHA-256 of the seed, as the log records it")


@router.post("/{table_id}/seeds", status_code=201, responses=ERRORS)
def post_seed(session: PlayerSession, body: SeatSeed) -> GivenSeed:
    """Give this seat's own seed for the open scene, before it rolls there (409 once it has
    given one or rolled in the scene): its dice are drawn with it and the scene's seed, which
    the server committed before, so not even the server steers them. The log records its
    commitment; the scene's close reveals it."""
    world = session.world
    with table_write(world.database, world.hub, session.table_id) as writer:
        give_seat_seed(writer, session.seat.id, body.seed)
        scene = writer.head.scene
    return GivenSeed(scene=scene, commitment=seed_commitment(body.seed))
