"""A table's log in the database: append one event per change, read what a seat may see.

Appending happens inside the write transaction of the change it records (DESIGN >
Principles 9): :func:`lock_table` locks the table's row (PostgreSQL; SQLite's ``BEGIN
IMMEDIATE`` already holds the database), :func:`append` takes the next seq and chains the
hash, and the caller commits both together. :func:`table_write` hands the committed rows to
this worker's streams and, by ``NOTIFY`` (delivered at commit), to the other workers'
(:mod:`taletable.server.notify`); the rows in the database stay the truth.

Visibility is applied in the query (DESIGN > Principles 11): :func:`visible_events` selects,
per seat, only the events it may see, and for a blind roll the roller gets the event's stub
(that it was made), never its result or dice; a whisper reaches its sender and the seats in
its ``recipients`` rows (:data:`whispered_to`). The narrator sees everything.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, Connection, bindparam, case, exists, select

from taletable.ledger import CHAIN_BODY, CHAIN_TEXT, body_hash, canonical_json, link_hash, text_hash
from taletable.log_entry import stub_of
from taletable.server.errors import NotFound
from taletable.server.fields import has_nul
from taletable.server.schema import EVENTS, RECIPIENTS, TABLES
from taletable.server.visibility import WHISPER, Row

if TYPE_CHECKING:
    from taletable.server.db import Database
    from taletable.server.notify import Hub

__all__ = [
    "NOTIFY_CHANNEL",
    "OF_TABLE",
    "OWN_BLIND",
    "SEES_WHOLE",
    "TableHead",
    "Writer",
    "append",
    "fight_events",
    "lock_table",
    "newest_events",
    "read_table",
    "table_write",
    "visible_events",
    "whispered_to",
]

#: The PostgreSQL channel on which a commit announces ``TABLE_ID:SEQ``.
NOTIFY_CHANNEL = "taletable_events"

# The statements of every action and every stream's read are built once, their values passed as
# parameters: building a SQLAlchemy statement costs more than running it (a stream's read on
# SQLite: 0.6 ms of CPU built each time, 0.16 ms built once; see benchmarks/bench_server.py).
_TABLE_ROW = select(TABLES).where(TABLES.c.id == bindparam("table_id"))
_TABLE_COLUMNS = ", ".join(column.name for column in TABLES.columns)
#: The statements every action runs (the table locked, the event inserted, the head moved),
#: written once per database in its driver's own terms and handed to the driver as they are:
#: a SQLAlchemy Core statement costs some 50 microseconds more per action in its compiled-cache
#: lookup and result processing (``benchmarks/bench_server.py``; what they do is the Core
#: tables' in ``schema.py``, and ``tests/server/test_stream.py`` holds them to it).
_WRITE_SQL = {
    "lock": f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = :table_id",
    "lock_head": "SELECT head_seq, head_hash, scene FROM tables WHERE id = :table_id",
    "insert": "INSERT INTO events (table_id, seq, kind, actor, visibility, event, stub, prev_hash, "
    "hash, body_hash) VALUES (:table_id, :seq, :kind, :actor, :visibility, :event, :stub, "
    ":prev_hash, :hash, :body_hash)",
    "move": "UPDATE tables SET head_seq = :to_seq, head_hash = :to_hash "
    "WHERE id = :table_id AND head_seq = :from_seq",
}
#: PostgreSQL: the event inserted, the head moved and the event announced in one round trip.
_APPEND_AND_NOTIFY = (
    f"WITH new_event AS ({_WRITE_SQL['insert']}), moved AS ({_WRITE_SQL['move']} RETURNING 1) "
    "SELECT (SELECT count(*) FROM moved), pg_notify(:channel, :payload)"
)


@functools.cache
def _driver_sql(postgresql: bool) -> dict[str, str]:
    """The write statements in the driver's parameter style: sqlite3 reads ``:name`` itself,
    psycopg wants ``%(name)s`` (and the lock is ``FOR UPDATE``)."""
    if not postgresql:
        return dict(_WRITE_SQL)
    written = {**_WRITE_SQL, "append": _APPEND_AND_NOTIFY}
    written["lock"] += " FOR UPDATE"
    written["lock_head"] += " FOR UPDATE"
    return {name: re.sub(r":(\w+)", r"%(\1)s", sql) for name, sql in written.items()}


def _sql(connection: Connection, name: str) -> str:
    return _driver_sql(connection.dialect.name == "postgresql")[name]


_AFTER = (EVENTS.c.table_id == bindparam("table_id")) & (EVENTS.c.seq > bindparam("after"))
_PUBLIC = EVENTS.c.visibility == "public"
OWN_BLIND = (EVENTS.c.visibility == "blind") & (EVENTS.c.actor == bindparam("seat"))
_NEW_RECIPIENT = RECIPIENTS.insert()


def whispered_to(seat: ColumnElement[Any]) -> ColumnElement[bool]:
    """SQL: the event is a whisper ``seat`` receives whole: it sent it, or is one of its
    ``recipients`` (the rule of :func:`taletable.server.visibility.seen_by`)."""
    named = exists().where(
        (RECIPIENTS.c.table_id == EVENTS.c.table_id)
        & (RECIPIENTS.c.seq == EVENTS.c.seq)
        & (RECIPIENTS.c.seat_id == seat)
    )
    return (EVENTS.c.visibility == WHISPER) & ((EVENTS.c.actor == seat) | named)


SEES_WHOLE = _PUBLIC | whispered_to(bindparam("seat"))
#: What the narrator sees: every event.
_NARRATOR_VIEW = (
    select(EVENTS.c.seq, EVENTS.c.event)
    .where(_AFTER)
    .order_by(EVENTS.c.seq)
    .limit(bindparam("limit"))
)
#: What a player or observer sees: public events and its whispers, and the stub of its own
#: blind ones.
_SEAT_VIEW = (
    select(EVENTS.c.seq, case((SEES_WHOLE, EVENTS.c.event), else_=EVENTS.c.stub))
    .where(_AFTER & (SEES_WHOLE | OWN_BLIND))
    .order_by(EVENTS.c.seq)
    .limit(bindparam("limit"))
)


OF_TABLE = EVENTS.c.table_id == bindparam("table_id")
#: The newest events a narrator sees, newest first (the table page's opening read).
_NARRATOR_NEWEST = (
    select(EVENTS.c.seq, EVENTS.c.event)
    .where(OF_TABLE)
    .order_by(EVENTS.c.seq.desc())
    .limit(bindparam("limit"))
)
#: The newest events a player or observer sees, newest first.
_SEAT_NEWEST = (
    select(EVENTS.c.seq, case((SEES_WHOLE, EVENTS.c.event), else_=EVENTS.c.stub))
    .where(OF_TABLE & (SEES_WHOLE | OWN_BLIND))
    .order_by(EVENTS.c.seq.desc())
    .limit(bindparam("limit"))
)


@dataclass(frozen=True)
class TableHead:
    """A table's row: its settings and the head of its log."""

    id: str
    name: str
    system: str
    edition: str | None
    physical_dice: bool
    head_seq: int
    head_hash: str
    scene: int
    created_at: str
    #: The table's rule options (``Rules`` switches) and house rules (``SYSTEM/TABLE.yaml`` ->
    #: the table's data), as chosen when it was made.
    rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    house_rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    #: Its log's chain version (:mod:`taletable.ledger`).
    chain: int = CHAIN_TEXT

    def moved(self, head_seq: int, head_hash: str, scene: int) -> TableHead:
        """This table with its log's head (and scene) where they are now."""
        return TableHead(self.id, self.name, self.system, self.edition, self.physical_dice,
                         head_seq, head_hash, scene, self.created_at, self.rules,
                         self.house_rules, self.chain)  # fmt: skip


def _head(row: Any) -> TableHead:
    return TableHead(
        id=row.id,
        name=row.name,
        system=row.system,
        edition=row.edition,
        physical_dice=bool(row.physical_dice),
        head_seq=int(row.head_seq),
        head_hash=row.head_hash,
        scene=int(row.scene),
        created_at=row.created_at,
        rules=json.loads(row.rules or "{}"),
        house_rules=json.loads(row.house_rules or "{}"),
        chain=int(row.chain),
    )


def _named(table_id: str) -> None:
    """404 for an id no table can have, before the database is asked (PostgreSQL refuses a
    NUL in a parameter: a 500, were it sent)."""
    if has_nul(table_id):
        raise NotFound("id", f"no table {table_id!r}")


def read_table(connection: Connection, table_id: str) -> TableHead:
    """The table ``table_id`` (404 when there is none)."""
    _named(table_id)
    row = connection.execute(_TABLE_ROW, {"table_id": table_id}).first()
    if row is None:
        raise NotFound("id", f"no table {table_id!r}")
    return _head(row)


def lock_table(
    connection: Connection, table_id: str, known: dict[str, TableHead] | None = None
) -> TableHead:
    """The table's row, locked until the transaction ends (writes to one table queue here).
    With ``known`` (a worker's tables, by id) only the columns a write moves are read: a
    table's name, system, edition, dice and rules never change once it is made, so they are
    read once and kept there."""
    _named(table_id)
    which = "lock" if known is None else "lock_head"
    row = connection.exec_driver_sql(_sql(connection, which), {"table_id": table_id}).first()
    if row is None:
        raise NotFound("id", f"no table {table_id!r}")
    if known is None:
        return _head(row)
    settled = known.get(table_id)
    if settled is None:
        settled = known[table_id] = read_table(connection, table_id)
        if len(known) > 10_000:
            known.clear()
    return settled.moved(int(row[0]), row[1], int(row[2]))


def now() -> str:
    """The current time, UTC, ISO 8601 to the millisecond."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")


def append(
    connection: Connection,
    head: TableHead,
    kind: str,
    body: Mapping[str, Any],
    *,
    actor: str | None,
    visibility: str = "public",
    announce: Callable[[Row], str] | None = None,
    audience: tuple[str, ...] = (),
) -> tuple[dict[str, Any], Row]:
    """Append the table's next event (in the caller's transaction); return it with its hashes,
    and its row as stored (what the streams are handed after the commit). With ``announce``
    (PostgreSQL), the same statement sends ``NOTIFY`` with the payload it makes of the row,
    delivered to the other workers at commit.

    ``head`` must have been read with :func:`lock_table` in this transaction. A whisper's
    ``audience`` (the seats it is for) is kept in ``recipients``, before the event is announced.
    """
    seq = head.head_seq + 1
    event = {
        "seq": seq,
        "kind": kind,
        "actor": actor,
        "visibility": visibility,
        "at": now(),
        "scene": head.scene,
        **body,
    }
    audience = audience if visibility == WHISPER else ()
    text, stub = canonical_json(event), stub_of(event)
    if head.chain == CHAIN_BODY:
        stub["body_hash"] = hashed = body_hash(text)
        digest = link_hash(head.head_hash, visibility == "public", hashed)
    else:
        hashed, digest = None, text_hash(head.head_hash, text)
    row = Row(seq, visibility, actor, text, canonical_json(stub), audience)
    if audience:
        named = [{"table_id": head.id, "seq": seq, "seat_id": seat} for seat in audience]
        connection.execute(_NEW_RECIPIENT, named)
    values = {"table_id": head.id, "seq": seq, "kind": kind, "actor": actor,
              "visibility": visibility, "event": row.event, "stub": row.stub,
              "prev_hash": head.head_hash, "hash": digest, "body_hash": hashed}  # fmt: skip
    moving = {"table_id": head.id, "from_seq": head.head_seq, "to_seq": seq, "to_hash": digest}
    if announce is not None:
        payload = {"channel": NOTIFY_CHANNEL, "payload": announce(row)}
        every = {**values, **moving, **payload}
        moved = connection.exec_driver_sql(_sql(connection, "append"), every).scalar()
    else:
        connection.exec_driver_sql(_sql(connection, "insert"), values)
        moved = connection.exec_driver_sql(_sql(connection, "move"), moving).rowcount
    if moved != 1:  # pragma: no cover - the row lock makes this impossible
        raise RuntimeError(f"table {head.id}: the log moved during a locked write")
    return {**event, "prev_hash": head.head_hash, "hash": digest}, row


class Writer:
    """One write transaction on one locked table: append events, keep the head current."""

    def __init__(
        self, connection: Connection, head: TableHead, announce: Callable[[Row], str] | None = None
    ) -> None:
        self.connection = connection
        self.head = head
        self.announce = announce
        self.rows: list[Row] = []

    def append(
        self,
        kind: str,
        body: Mapping[str, Any],
        *,
        actor: str | None,
        visibility: str = "public",
        audience: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """Append the next event (a whisper's ``audience``: the seats it is for); return it
        (with ``prev_hash`` and ``hash``)."""
        event, row = append(
            self.connection,
            self.head,
            kind,
            body,
            actor=actor,
            visibility=visibility,
            announce=self.announce,
            audience=audience,
        )
        self.head = self.head.moved(event["seq"], event["hash"], self.head.scene)
        self.rows.append(row)
        return event


@contextlib.contextmanager
def table_write(
    database: Database, hub: Hub, table_id: str, *, publish: bool = True
) -> Iterator[Writer]:
    """A write transaction on ``table_id``, locked. At its end the rows it appended go, with the
    commit, to the other workers (PostgreSQL ``NOTIFY``, delivered at commit, carrying the rows
    when they fit) and, after it, to this worker's streams from memory (unless ``publish`` is
    false: the caller hands ``writer.rows`` over itself, from the event loop)."""
    announce = functools.partial(hub.payload, table_id) if database.is_postgresql else None
    with database.table_lock(table_id), database.write() as connection:
        writer = Writer(connection, lock_table(connection, table_id, database.tables), announce)
        yield writer
    if writer.rows and publish:
        hub.publish(table_id, writer.rows)


def visible_events(
    connection: Connection,
    table_id: str,
    *,
    seat: str,
    narrator: bool,
    after: int = 0,
    limit: int = 500,
) -> list[tuple[int, str]]:
    """``(seq, event JSON)`` of the events after ``after`` that this seat may see, in order.

    The filter is in the SQL: a player or observer never receives a narrator-only event's row,
    and receives a blind event only if it made it, and then only its stub.
    """
    query = _NARRATOR_VIEW if narrator else _SEAT_VIEW
    values = {"table_id": table_id, "after": after, "limit": limit}
    rows = connection.execute(query, values if narrator else {**values, "seat": seat})
    return [(int(seq), str(body)) for seq, body in rows]


#: Where a fight's steps are: the events of the ``cogent.combat.*`` actions (a range of kinds,
#: which the ``events_by_kind`` index serves; a LIKE would not use it on SQLite).
_FIGHT_KINDS = (EVENTS.c.kind >= "cogent.combat.") & (EVENTS.c.kind < "cogent.combat/")


def fight_events(
    connection: Connection, table_id: str, *, seat: str, narrator: bool, after: int, limit: int
) -> list[tuple[int, str]]:
    """``(seq, event JSON)`` of the combat steps after ``after`` that this seat may see, in
    order: :func:`visible_events`'s filter, narrowed to the ``cogent.combat.*`` kinds."""
    query = (_NARRATOR_VIEW if narrator else _SEAT_VIEW).where(_FIGHT_KINDS)
    values = {"table_id": table_id, "after": after, "limit": limit}
    rows = connection.execute(query, values if narrator else {**values, "seat": seat})
    return [(int(seq), str(body)) for seq, body in rows]


def newest_events(
    connection: Connection, table_id: str, *, seat: str, narrator: bool, limit: int
) -> list[tuple[int, str]]:
    """``(seq, event JSON)`` of the newest ``limit`` events this seat may see, oldest first:
    one bounded statement (the same filter as :func:`visible_events`)."""
    query = _NARRATOR_NEWEST if narrator else _SEAT_NEWEST
    values: dict[str, Any] = {"table_id": table_id, "limit": limit}
    if not narrator:
        values["seat"] = seat
    rows = connection.execute(query, values)
    return [(int(seq), str(body)) for seq, body in rows][::-1]
