"""A live table's seeds (DESIGN > Principles 10; the format: :mod:`taletable.ledger.seats`):
each scene's seed and hidden seed, made and committed when it opens and revealed when it
closes; each seat's own seed for a scene, given before it rolls; each seat's rolls numbered.
A table of chain version 1 (made before) keeps its scene seeds alone."""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from sqlalchemy import Connection, bindparam, select, text

from taletable.ledger import CHAIN_BODY, LedgerDice, commitment, hidden_dice_fields
from taletable.ledger.seats import (
    SEAT_SEED_TEXT,
    hidden_secret,
    is_seat_seed,
    roll_prefix,
    seat_key,
    seed_commitment,
)
from taletable.server.errors import ApiError, Conflict
from taletable.server.log import TableHead, Writer
from taletable.server.schema import SCENES, SEATS, TABLES

__all__ = [
    "action_dice",
    "close_scene",
    "give_seat_seed",
    "hidden_seed",
    "next_roll",
    "open_scene",
]

_SCENE = (SCENES.c.table_id == bindparam("table_id")) & (SCENES.c.number == bindparam("scene"))
_HIDDEN_SEED = select(SCENES.c.hidden_seed).where(_SCENE)
#: A seat's next roll: its count moved on, and its seed for the scene fixed (none, unless it
#: gave one before this roll).
_NEXT_ROLL = text(
    "UPDATE seats SET rolls = rolls + 1, seed_scene = :scene, scene_seed = CASE WHEN "
    "seed_scene = :scene THEN scene_seed ELSE '' END WHERE id = :seat "
    "RETURNING rolls, scene_seed"
)
_GIVE_SEED = text(
    "UPDATE seats SET seed_scene = :scene, scene_seed = :seed WHERE id = :seat AND "
    "(seed_scene IS NULL OR seed_scene <> :scene)"
)
_SEEDS_OF_SCENE = select(SEATS.c.id, SEATS.c.scene_seed).where(
    (SEATS.c.table_id == bindparam("table_id")) & (SEATS.c.seed_scene == bindparam("scene"))
)


def open_scene(writer: Writer, number: int) -> str:
    """Make scene ``number``'s secret seed (and, in chain 2, its hidden seed); log their
    commitments; return the seed's commitment."""
    seed, hidden = secrets.token_hex(32), secrets.token_hex(32)
    promised = commitment(seed)
    chained = writer.head.chain == CHAIN_BODY
    row = {"table_id": writer.head.id, "number": number, "seed": seed,
           "commitment": promised, "revealed": False}  # fmt: skip
    if chained:
        row |= {"hidden_seed": hidden, "hidden_commitment": commitment(hidden)}
    writer.connection.execute(SCENES.insert().values(**row))
    writer.connection.execute(
        TABLES.update().where(TABLES.c.id == writer.head.id).values(scene=number)
    )
    writer.head = dataclasses.replace(writer.head, scene=number)
    body = {"commitment": promised}
    if chained:
        body["hidden_commitment"] = commitment(hidden)
    writer.append("scene.open", body, actor=None)
    return promised


def close_scene(writer: Writer, actor: str) -> str:
    """Close the open scene: its seed (and, in chain 2, every seat's seed for it) revealed to
    every seat, its hidden seed to the narrator; return the scene's seed."""
    closing, connection = writer.head.scene, writer.connection
    where = {"table_id": writer.head.id, "scene": closing}
    row = connection.execute(select(SCENES).where(_SCENE), where).one()
    this_scene = (SCENES.c.table_id == writer.head.id) & (SCENES.c.number == closing)
    connection.execute(SCENES.update().where(this_scene).values(revealed=True))
    body: dict[str, Any] = {"seed": row.seed}
    if writer.head.chain == CHAIN_BODY:
        given = connection.execute(_SEEDS_OF_SCENE, where)
        body["seat_seeds"] = {seat: seed for seat, seed in given if seed}
    writer.append("scene.close", body, actor=actor)
    if writer.head.chain == CHAIN_BODY:
        revealed = {"hidden_seed": row.hidden_seed}
        writer.append("scene.hidden-seed", revealed, actor=actor, visibility="narrator")
    return str(row.seed)


def give_seat_seed(writer: Writer, seat: str, seed: str) -> None:
    """Take ``seat``'s own seed for the open scene (64 hex digits) and log its commitment:
    422 for one that is not, 409 when the seat has given one or rolled in this scene."""
    if writer.head.chain != CHAIN_BODY:
        raise ApiError("seed", "this table was made before seats' seeds: its scenes' seeds alone")
    if not is_seat_seed(seed):
        raise ApiError("seed", SEAT_SEED_TEXT)
    scene = writer.head.scene
    taken = writer.connection.execute(_GIVE_SEED, {"scene": scene, "seed": seed, "seat": seat})
    if taken.rowcount != 1:
        raise Conflict("seed", f"this seat's seed for scene {scene} is fixed already "
                       "(given, or the seat rolled first): give one at the next scene")  # fmt: skip
    writer.append("seat.seed", {"seat": seat, "commitment": seed_commitment(seed)}, actor=seat)


def next_roll(connection: Connection, seat: str, scene: int) -> tuple[int, str]:
    """The seat's next roll number and its seed for ``scene`` ("" when it gave none), in the
    write's transaction (the table's lock orders a seat's rolls)."""
    roll, seed = connection.execute(_NEXT_ROLL, {"scene": scene, "seat": seat}).one()
    return int(roll), str(seed or "")


def action_dice(
    connection: Connection, head: TableHead, seed: bytes, seat: str, hidden: bool
) -> tuple[LedgerDice, dict[str, Any]]:
    """The dice of the action ``seat`` is about to log at ``head`` (``seed``: the scene's), and
    what its entry says of them. A hidden roll's dice need a secret of their own (the seed is
    revealed at the close). Chain 2 (:mod:`taletable.ledger.seats`): the seat's next roll,
    drawn with the seat's own seed for the scene; a hidden roll's secret drawn from the
    scene's hidden seed, never picked by the server."""
    seq, scene, table_id = head.head_seq + 1, head.scene, head.id
    if head.chain != CHAIN_BODY:
        secret = secrets.token_hex(32) if hidden else None
        fields = hidden_dice_fields(secret) if secret is not None else {}
        return LedgerDice(seed, table_id, seq, secret), fields
    roll, given = next_roll(connection, seat, scene)
    secret = None
    if hidden:
        secret = hidden_secret(
            hidden_seed(connection, table_id, scene), table_id, scene, seat, roll
        )
    fields = {"roll": roll, **(hidden_dice_fields(secret) if secret is not None else {})}
    prefix = roll_prefix(table_id, scene, seat, roll)
    return LedgerDice(seat_key(seed, seat, given), table_id, seq, secret, prefix=prefix), fields


def hidden_seed(connection: Connection, table_id: str, scene: int) -> bytes:
    """Scene ``scene``'s hidden seed (chain 2), whose hidden rolls' secrets it draws."""
    found = connection.execute(_HIDDEN_SEED, {"table_id": table_id, "scene": scene}).scalar()
    return bytes.fromhex(str(found))
