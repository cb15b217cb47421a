"""Scenes and the table's export: seeds revealed when a scene closes; the whole log to check."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from taletable.audit import verify_table
from taletable.ledger import CHAIN_TEXT, EXPORT_FORMAT, genesis_hash
from taletable.ledger.seats import seed_commitment
from taletable.log_entry import LogEntry, MalformedEntry, read_entry, stored_forms
from taletable.server.auth import hash_secret, new_id
from taletable.server.codes import RECOVERY_GROUPS, narrator_token, new_code, normal
from taletable.server.cookies import TABLE_ID_TEXT, is_table_id
from taletable.server.errors import ApiError, Conflict
from taletable.server.exports import full_log, seat_log
from taletable.server.fields import NUL_MESSAGE, has_nul
from taletable.server.log import read_table, table_write
from taletable.server.responses import ERRORS
from taletable.server.routes.tables import MadeTable, unused_join_code
from taletable.server.schema import EVENTS, SCENES, SEATS, TABLES, THINGS
from taletable.server.seeds import close_scene, give_seat_seed, open_scene
from taletable.server.session import NarratorSession, PlayerSession, SessionDep, TableSession
from taletable.server.state import state_from_log
from taletable.server.table_rules import checked_house_rules, checked_rules
from taletable.server.visibility import VISIBILITIES
from taletable.server.world import world_of
from taletable.store.base import KINDS

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
        min_length=64, max_length=64, pattern="^[0-9a-f]{64}$",
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


@router.get("/{table_id}/export", responses={200: {"content": {"application/json": {}}}, **ERRORS})
def export(session: SessionDep) -> JSONResponse:
    """The table, every event with ``prev_hash`` and ``hash``, and each scene's commitment and
    (once closed) seed: what ``taletable verify`` checks.

    Every seat exports its own view: the narrator's is whole; a player's or observer's holds
    each event it may not see (narrator-only, a blind roll, its own too) as its stub, marked
    ``hidden``, with its ``seq``, ``prev_hash`` and ``hash``, so the chain still links."""
    table_id = session.table_id
    with session.world.database.read() as connection:
        head = read_table(connection, table_id)
        scenes = connection.execute(
            select(SCENES).where(SCENES.c.table_id == table_id).order_by(SCENES.c.number)
        ).all()
        events = (
            full_log(connection, table_id)
            if session.narrator
            else seat_log(connection, table_id, session.seat.id)
        )
    document = {
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
        "events": events,
    }
    return JSONResponse(document)


def _table_of(document: dict[str, Any]) -> dict[str, Any]:
    table = document["table"]
    system = table.get("system")
    if system not in ("cogent", "boons", "labcats"):
        raise ApiError("table.system", f"{system!r} is not a system this server plays")
    name = table.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 200 or has_nul(name):
        raise ApiError("table.name", f"a table's name is 1 to 200 characters and {NUL_MESSAGE}")
    if not isinstance(table.get("id"), str) or not is_table_id(table["id"]):
        raise ApiError("table.id", f"a table's id is {TABLE_ID_TEXT}")
    rules, house_rules = table.get("rules") or {}, table.get("house_rules") or {}
    if not isinstance(rules, dict) or not isinstance(house_rules, dict):
        raise ApiError("table.rules", "rule options and house rules are mappings")
    edition = table.get("edition")
    return {**table, "rules": checked_rules(system, edition, rules),
            "house_rules": checked_house_rules(system, house_rules)}  # fmt: skip


@router.post("/import", status_code=201, responses=ERRORS)
def import_table(request: Request, document: dict[str, Any]) -> MadeTable:
    """Make a table from an export that verifies whole (``taletable verify``: the chain, the
    dice, the settings it opened with, every result replayed), its state rebuilt from the log.

    The table keeps its id (the chain starts from it); seats are not carried over (tokens never
    leave the server), so a new narrator token and join code are made, and a new scene opens.
    An export whose open scene has rolled is refused: its dice cannot be checked until its seed
    is revealed (close the scene first).
    """
    state = world_of(request)
    state.limiter.check(f"address:{request.client.host if request.client else ''}")
    checked = verify_table(document)
    if not checked.ok:
        where = f"events.{checked.failed_seq}" if checked.failed_seq else "table"
        raise ApiError(where, f"the export does not verify: {checked.summary()}")
    entries = _entries(document["events"])
    if checked.hidden:
        seq = next(entry.seq for entry in entries if entry.hidden)
        raise ApiError(
            f"events.{seq}",
            f"event {seq} is hidden: a seat's view of a table cannot rebuild it "
            "(import the narrator's export)",
        )
    if checked.waiting:
        seq = checked.waiting[0]
        raise ApiError(
            f"events.{seq}",
            f"event {seq} rolled in a scene still open, whose seed is secret: its dice cannot "
            "be checked yet (close the scene, then export and import)",
        )
    table = _table_of(document)
    for entry in entries:
        _check_entry(entry)
    recovery = new_code(RECOVERY_GROUPS)
    token = narrator_token(recovery)
    with state.database.write() as connection:
        if connection.execute(select(TABLES.c.id).where(TABLES.c.id == table["id"])).first():
            raise Conflict("table.id", f"a table {table['id']!r} is here already")
        code = unused_join_code(connection)
        _insert(connection, table, document["events"], entries, hash_secret(normal(code)))
        connection.execute(
            TABLES.update()
            .where(TABLES.c.id == table["id"])
            .values(recovery_hash=hash_secret(normal(recovery)))
        )
        narrator = new_id()
        connection.execute(
            SEATS.insert().values(
                id=narrator,
                table_id=table["id"],
                name="narrator",
                role="narrator",
                token_hash=hash_secret(token),
            )
        )
    with table_write(state.database, state.hub, table["id"]) as writer:
        open_scene(writer, writer.head.scene + 1)
    return MadeTable(
        id=table["id"], narrator_token=token, join_code=code, recovery_code=recovery
    )


def _entries(events: list[Any]) -> list[LogEntry]:
    """The export's events as entries (422 naming ``events.SEQ.FIELD`` for one that is not)."""
    try:
        return [read_entry(event) for event in events]
    except MalformedEntry as malformed:
        raise ApiError(f"events.{malformed.seq}", f"not a log entry: {malformed}") from None


def _check_entry(entry: LogEntry) -> None:
    seq = entry.seq
    if entry.visibility not in VISIBILITIES:
        raise ApiError(f"events.{seq}.visibility", f"one of {', '.join(VISIBILITIES)}")
    if not 1 <= len(entry.kind) <= 40 or has_nul(entry.kind):
        raise ApiError(f"events.{seq}.kind", "an event's kind is 1 to 40 characters, no NUL")
    actor = entry.actor
    if actor is not None and (len(actor) > 64 or has_nul(actor)):
        raise ApiError(f"events.{seq}.actor", "an actor is a seat's id, at most 64 characters")
    if entry.kind == "scene.open" and entry.scene is None:
        raise ApiError(f"events.{seq}.scene", "a scene is numbered")
    for save in entry.saves:
        if save.kind not in KINDS:
            raise ApiError(f"events.{seq}.saves", f"each save has a kind: {', '.join(KINDS)}")


def _insert(
    connection: Any,
    table: dict[str, Any],
    events: list[dict[str, Any]],
    entries: list[LogEntry],
    code: str,
) -> None:
    last = entries[-1] if entries else None
    chain = (entries[0].chain if entries else None) or CHAIN_TEXT
    opened = [entry for entry in entries if entry.kind == "scene.open"]
    revealed = {entry.scene: entry.seed for entry in entries if entry.kind == "scene.close"}
    connection.execute(
        TABLES.insert().values(
            id=table["id"],
            name=table["name"],
            system=table["system"],
            edition=table.get("edition"),
            physical_dice=bool(table.get("physical_dice")),
            join_code_hash=code,
            created_at=str(table.get("created_at", "")),
            head_seq=last.seq if last else 0,
            head_hash=last.hash if last else genesis_hash(table["id"]),
            scene=opened[-1].scene if opened else 0,
            rules=json.dumps(table["rules"]),
            house_rules=json.dumps(table["house_rules"]),
            chain=chain,
        )
    )
    for entry in opened:  # an unrevealed seed stays unknown: that scene can roll no more
        connection.execute(
            SCENES.insert().values(
                table_id=table["id"],
                number=entry.scene,
                seed=revealed.get(entry.scene) or "00" * 32,
                commitment=entry.commitment,
                revealed=entry.scene in revealed,
            )
        )
    for event, entry in zip(events, entries, strict=True):
        stored, stub, hashed = stored_forms(event, chain)
        connection.execute(
            EVENTS.insert().values(
                table_id=table["id"],
                seq=entry.seq,
                kind=entry.kind[:40],
                actor=entry.actor,
                visibility=entry.visibility,
                event=stored,
                stub=stub,
                prev_hash=entry.prev_hash,
                hash=entry.hash,
                body_hash=hashed,
            )
        )
    for (kind, key), thing in state_from_log(entries).items():
        connection.execute(
            THINGS.insert().values(
                scope=table["id"],
                kind=kind,
                key=key,
                version=thing.version,
                data=json.dumps(thing.data, sort_keys=True, separators=(",", ":")),
            )
        )
