"""Tables and seats: make a table, join it, read it, change its join code."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from taletable.audit import house_rules_digest
from taletable.ledger import CHAIN_BODY, genesis_hash
from taletable.play.results import engine
from taletable.server import deletion
from taletable.server.auth import hash_secret, new_id, secrets_match
from taletable.server.codes import (
    JOIN_GROUPS,
    RECOVERY_GROUPS,
    narrator_token,
    new_code,
    normal,
    seat_token,
)
from taletable.server.errors import ApiError, Forbidden
from taletable.server.fields import PlainText
from taletable.server.log import Writer, lock_table, now, read_table, table_write
from taletable.server.permissions import removing_own_seat
from taletable.server.responses import ERRORS
from taletable.server.schema import SCENES, SEATS, TABLES
from taletable.server.seat_names import name_not_seated
from taletable.server.seeds import open_scene
from taletable.server.session import NarratorSession, SessionDep
from taletable.server.table_rules import checked_house_rules, checked_rules
from taletable.server.world import world_of

__all__ = [
    "Deleted",
    "Removed",
    "TablePreview",
    "code_opens",
    "delete_table",
    "new_table",
    "preview",
    "remove_own_seat",
    "router",
    "table_by_code",
    "take_seat",
    "unused_join_code",
]

router = APIRouter(prefix="/api/tables", tags=["tables"])

#: A table's or a seat's name: 1 to 200 characters, no NUL (:mod:`taletable.server.fields`).
Name = Annotated[PlainText, Field(min_length=1, max_length=200)]
#: A join code as typed (compared by its hash, never kept): no NUL either.
Code = Annotated[PlainText, Field(max_length=200)]


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name
    system: Literal["cogent", "boons", "labcats"]
    edition: Literal["core", "tiered"] | None = Field(None, description="Cogent only")
    physical_dice: bool = Field(False, description="May seats type in faces they rolled?")
    rules: dict[str, bool] = Field(
        default_factory=dict,
        description="Rule options switched on or off: a Cogent table's, or a boons table's "
        "(GET /api/tables/rule-options lists them)",
    )
    house_rules: dict[str, Any] = Field(
        default_factory=dict,
        description="House-rule copies of rules tables, by key (cogent/weapons.yaml): the data",
    )


class MadeTable(BaseModel):
    id: str
    narrator_token: str
    join_code: str = Field(description="Read aloud: 'KX7-M4Q-9PD', typed in any case, spaces "
                           "or dashes")  # fmt: skip
    recovery_code: str = Field(description="Shown only now: seats the narrator in any browser "
                               "(the page /recover)")  # fmt: skip


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: Code
    name: Name
    role: Literal["player", "observer"]


class Joined(BaseModel):
    seat: str
    token: str
    recovery_code: str = Field(description="Shown only now: seats this seat again in any "
                               "browser (the page /recover)")  # fmt: skip


class JoinCode(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: Annotated[PlainText, Field(min_length=8, max_length=200)] | None = None


class SeatView(BaseModel):
    id: str
    name: str
    role: str


class TableView(BaseModel):
    id: str
    name: str
    system: str
    edition: str | None
    physical_dice: bool
    scene: int
    commitment: str
    head_seq: int
    seat: SeatView
    seats: list[SeatView]


@router.get("/rule-options", responses=ERRORS)
def rule_options() -> dict[str, Any]:
    """The rule options a Cogent table may switch (``rules``) and a boons table
    (``boons_rules``), and the rules tables house rules may replace."""
    from taletable.server.table_rules import BOONS_OPTIONS, OPTIONS, house_rule_tables

    return {"rules": OPTIONS, "boons_rules": BOONS_OPTIONS, "house_rules": house_rule_tables()}


@router.post("", status_code=201, responses=ERRORS)
def make_table(request: Request, body: NewTable) -> MadeTable:
    """Make a table; its narrator's token and the join code are shown only this once. At most
    so many an hour from one address and in all (429 ``tables``: ``limits.TablesMade``)."""
    world = world_of(request)
    world.limiter.check(_address(request))
    world.tables_made.take(_address(request))
    return new_table(world.database, body)


def new_table(database: Any, body: NewTable) -> MadeTable:
    """Make the table ``body`` describes in ``database``, with its narrator's seat."""
    if body.system != "cogent" and body.edition is not None:
        raise ApiError("edition", f"only cogent tables have an edition, not {body.system}")
    edition = (body.edition or "core") if body.system == "cogent" else None
    rules = checked_rules(body.system, edition, body.rules)
    house_rules = checked_house_rules(body.system, body.house_rules)
    table_id, recovery = new_id(), new_code(RECOVERY_GROUPS)
    token = narrator_token(recovery)
    with database.write() as connection:
        code = unused_join_code(connection)
        connection.execute(
            TABLES.insert().values(
                id=table_id,
                name=body.name,
                system=body.system,
                edition=edition,
                physical_dice=body.physical_dice,
                join_code_hash=hash_secret(normal(code)),
                recovery_hash=hash_secret(normal(recovery)),
                created_at=now(),
                head_seq=0,
                head_hash=genesis_hash(table_id),
                scene=0,
                rules=json.dumps(rules),
                house_rules=json.dumps(house_rules),
                chain=CHAIN_BODY,
            )
        )
        narrator = new_id()
        connection.execute(
            SEATS.insert().values(
                id=narrator,
                table_id=table_id,
                name="narrator",
                role="narrator",
                token_hash=hash_secret(token),
            )
        )
        writer = Writer(connection, lock_table(connection, table_id))
        opening = {"name": body.name, "system": body.system, "edition": edition, "rules": rules,
                   "house_rules": sorted(house_rules),
                   "house_rules_digest": house_rules_digest(house_rules),
                   "chain": CHAIN_BODY, "engine": engine()}  # fmt: skip
        writer.append(
            "table.open", {**opening, "physical_dice": body.physical_dice}, actor=narrator
        )
        open_scene(writer, 1)
    return MadeTable(id=table_id, narrator_token=token, join_code=code, recovery_code=recovery)


def unused_join_code(connection: Any) -> str:
    """A fresh join code no other table's code hashes to (so the code alone finds the table)."""
    while True:
        code = new_code(JOIN_GROUPS)
        taken = connection.execute(
            select(TABLES.c.id).where(TABLES.c.join_code_hash == hash_secret(normal(code)))
        ).first()
        if taken is None:
            return code


def code_opens(code: str, code_hash: str) -> bool:
    """Whether ``code`` as typed is the join code hashed as ``code_hash``: in any case, with any
    spaces and dashes (:func:`~taletable.server.codes.normal`), or exactly as typed (a code
    made before join codes were read aloud, kept hashed as it was given)."""
    return secrets_match(normal(code), code_hash) or secrets_match(code.strip(), code_hash)


def table_by_code(connection: Any, column: Any, code: str, *, as_given: bool = False) -> str | None:
    """The id of the one table whose ``column`` (a code's hash) is ``code``'s, or None (none,
    or several: a code a narrator chose may be another table's too). With ``as_given`` (the
    join code), the hash of the code exactly as typed is looked for too: a code made before
    join codes were read aloud is kept so (:func:`code_opens`)."""
    if not normal(code):
        return None
    hashes = {hash_secret(normal(code))}
    if as_given and code.strip():
        hashes.add(hash_secret(code.strip()))
    found = connection.execute(select(TABLES.c.id).where(column.in_(sorted(hashes))).limit(2)).all()
    return str(found[0].id) if len(found) == 1 else None


@router.post("/{table_id}/join", status_code=201, responses=ERRORS)
def join(request: Request, table_id: str, body: Join) -> Joined:
    """Take a seat as a player or an observer with the table's join code (a wrong one counts
    against the table's and the server's guesses: :class:`~taletable.server.limits.Guesses`).
    The answer's recovery code, shown only now, seats this seat again in any browser."""
    return take_seat(request, table_id, body)


def take_seat(request: Request, table_id: str, body: Join, *, new_name: bool = False) -> Joined:
    """Seat ``body``'s person at ``table_id`` (:func:`join`). With ``new_name`` (the join page),
    a name already seated there (compared as names are: :func:`taletable.names.fold`) is a 409
    ``name`` and no seat is made: it may be that person coming back (their recovery code seats
    them again), and a second seat of the same name is made only when asked for."""
    world = world_of(request)
    world.limiter.check(_address(request))
    world.guesses.check(table_id)
    seat, recovery = new_id(), new_code(RECOVERY_GROUPS)
    token = seat_token(recovery)
    with table_write(world.database, world.hub, table_id) as writer:
        code_hash = writer.connection.execute(
            select(TABLES.c.join_code_hash).where(TABLES.c.id == table_id)
        ).scalar_one()
        if not code_opens(body.code, code_hash):
            world.guesses.wrong(table_id)
            raise Forbidden("code", "this is not the table's join code; ask the narrator")
        if new_name:
            name_not_seated(writer.connection, table_id, body.name)
        writer.connection.execute(
            SEATS.insert().values(
                id=seat,
                table_id=table_id,
                name=body.name,
                role=body.role,
                token_hash=hash_secret(token),
            )
        )
        writer.append("seat.join", {"seat": seat, "name": body.name, "role": body.role}, actor=seat)
    return Joined(seat=seat, token=token, recovery_code=recovery)


class TablePreview(BaseModel):
    """What a person about to join is told of the table: its name and game."""

    id: str
    name: str
    system: str
    edition: str | None


def _address(request: Request) -> str:
    return f"address:{request.client.host if request.client else ''}"


def preview(request: Request, table_id: str | None, code: str) -> TablePreview | None:
    """The table ``code`` opens (the one at ``table_id``, or, given none, the one table whose
    code it is), or None: a wrong code learns nothing of a table. Each ask counts against the
    address's rate limit, and a wrong code against the guesses (the table's, when named, and
    the server's), as a join does (:mod:`taletable.server.codes`: the bound)."""
    world = world_of(request)
    world.limiter.check(_address(request))
    world.guesses.check(table_id)
    with world.database.read() as connection:
        if table_id is None:
            table_id = table_by_code(connection, TABLES.c.join_code_hash, code, as_given=True)
        row = connection.execute(
            select(TABLES.c.name, TABLES.c.system, TABLES.c.edition, TABLES.c.join_code_hash).where(
                TABLES.c.id == table_id
            )
        ).first()
    if table_id is None or row is None or not code_opens(code, row.join_code_hash):
        world.guesses.wrong(table_id)
        return None
    return TablePreview(id=table_id, name=row.name, system=row.system, edition=row.edition)


@router.put("/{table_id}/join-code", responses=ERRORS)
def change_join_code(session: NarratorSession, body: JoinCode) -> dict[str, str]:
    """The narrator sets a new join code (or has one made); the old one stops working."""
    with session.world.database.write() as connection:
        code = body.code or unused_join_code(connection)
        connection.execute(
            TABLES.update()
            .where(TABLES.c.id == session.table_id)
            .values(join_code_hash=hash_secret(normal(code)))
        )
    return {"join_code": code}


class Deleted(BaseModel):
    id: str
    rows: dict[str, int] = Field(description="The rows deleted, by the database's table")


@router.delete("/{table_id}", responses=ERRORS)
def delete_table(session: NarratorSession) -> Deleted:
    """The narrator deletes the table: every row of it (seats, scenes, the log, characters,
    presence) in one transaction; its open streams end, and it is 404 from then on."""
    world = session.world
    rows = deletion.delete_table(world.database, session.table_id, world.hub)
    return Deleted(id=session.table_id, rows=rows or {})


class Removed(BaseModel):
    seat: str
    characters: list[str] = Field(description="The keys of the seat's characters removed")


@router.delete("/{table_id}/seat", responses=ERRORS)
def remove_own_seat(session: SessionDep) -> Removed:
    """A player or an observer leaves for good: its seat and the characters it owns are
    removed (the log keeps every entry); its token seats no one from then on. The narrator's
    seat stays while the table does (403: delete the table instead)."""
    seat = removing_own_seat(session.seat)
    world = session.world
    keys = deletion.remove_seat(world.database, world.hub, session.table_id, seat.id)
    return Removed(seat=seat.id, characters=keys)


@router.get("/{table_id}", responses=ERRORS)
def show_table(session: SessionDep) -> TableView:
    """The table as every seat sees it, with the open scene's dice commitment."""
    table_id, seat = session.table_id, session.seat
    with session.world.database.read() as connection:
        head = read_table(connection, table_id)
        promised = connection.execute(
            select(SCENES.c.commitment).where(
                (SCENES.c.table_id == table_id) & (SCENES.c.number == head.scene)
            )
        ).scalar_one()
        seats = connection.execute(
            select(SEATS.c.id, SEATS.c.name, SEATS.c.role)
            .where(SEATS.c.table_id == table_id)
            .order_by(SEATS.c.name, SEATS.c.id)
        ).all()
    return TableView(
        id=head.id,
        name=head.name,
        system=head.system,
        edition=head.edition,
        physical_dice=head.physical_dice,
        scene=head.scene,
        commitment=promised,
        head_seq=head.head_seq,
        seat=SeatView(id=seat.id, name=seat.name, role=seat.role),
        seats=[SeatView(id=row.id, name=row.name, role=row.role) for row in seats],
    )
