"""The floor: the live table's durable work and nothing else, on taletable's own stack.

``bench_server.py`` runs it beside ``taletable serve`` and drives both with the same load
(``load_clients.py``): the same URLs, bodies and bearer tokens (``POST /api/tables``, ``.../join``,
``.../actions``, ``GET .../stream``). Per action it does what taletable must do at least: one
transaction that locks the table's row (``SELECT ... FOR UPDATE`` on PostgreSQL; ``BEGIN
IMMEDIATE`` on SQLite, WAL, ``synchronous=NORMAL`` as taletable), inserts the event chained to
the one before (``sha256(prev_hash + canonical JSON)``, as :mod:`taletable.ledger`), moves the
table's head, sends ``NOTIFY`` with the event in its payload (PostgreSQL) and commits; then it
hands the event from memory to this worker's open streams of the table (a bounded queue each; a
stream a queue behind is closed). Other workers get it from their ``LISTEN`` connection.

A fast floor, not a straw man: the event is JSON-encoded once (stored, hashed, answered,
notified and streamed as those bytes); fixed SQL through SQLAlchemy 2 Core's ``exec_driver_sql``
(psycopg 3 prepares it after a few runs); PostgreSQL's insert, head move and ``NOTIFY`` in one
statement; no pool pre-ping; a seat read once, then kept in memory; one thread hop per write
(SQLite: one writer thread; written on the event loop itself, a WAL checkpoint's fsync would
stall every stream), one write per table at a time in a worker; one keep-alive timer per worker
(as taletable's), not one armed per stream per event; what start-up made frozen out of the
garbage collector's reach and FastAPI's telemetry off (as taletable's). The roll is a plain "6
dice against CL 3", shaped like taletable's result so the event is about as big; its tables are
made at start. Run: ``python benchmarks/floor_app.py --port 8001 --database URL --workers N``."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import datetime
import gc
import hashlib
import json
import os
import re
import secrets
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import Response
from sqlalchemy import Connection, Engine, create_engine, event

from taletable.ledger import canonical_json, genesis_hash
from taletable.server.access import AccessLog
from taletable.server.logs import log_config

DATABASE_VARIABLE = "FLOOR_DATABASE_URL"
CHANNEL = "floor_events"
QUEUE_SIZE = 256  # events a stream may lag behind before it is closed
MAX_HELD = 64  # events held back waiting for an earlier one (across workers) before giving up
KEEP_ALIVE = 15.0
RETRY, NO_TELEMETRY = b"retry: 1000\n\n", {"tracing": False, "metrics": False, "logs": False}
STREAM_HEADERS = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]
PG_THREADS = 3  # taletable's number (server/world.py); 10 measured no faster here
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS floor_tables (id VARCHAR(64) PRIMARY KEY, name TEXT NOT NULL, "
    "join_code_hash VARCHAR(64) NOT NULL, head_seq INTEGER NOT NULL, "
    "head_hash VARCHAR(64) NOT NULL)",
    "CREATE TABLE IF NOT EXISTS floor_seats (token_hash VARCHAR(64) PRIMARY KEY, "
    "id VARCHAR(64) NOT NULL, table_id VARCHAR(64) NOT NULL REFERENCES floor_tables (id), "
    "role VARCHAR(16) NOT NULL)",
    "CREATE TABLE IF NOT EXISTS floor_events (table_id VARCHAR(64) NOT NULL "
    "REFERENCES floor_tables (id), seq INTEGER NOT NULL, actor VARCHAR(64), event TEXT NOT NULL, "
    "prev_hash VARCHAR(64) NOT NULL, hash VARCHAR(64) NOT NULL, PRIMARY KEY (table_id, seq))",
)  # fmt: skip
CITES = {"dice_pools": "Introduction to Dice Pools", "pass": "Actions and Challenge Levels"}
RULES_APPLIED = [{"kind": f"cogent.check.{kind}", "values": {}, "cite": f"002 > Play > {cite}"}
                 for kind, cite in CITES.items()]  # fmt: skip
SQL = {
    "seat": "SELECT id, table_id, role FROM floor_seats WHERE token_hash = :token_hash",
    "code": "SELECT join_code_hash FROM floor_tables WHERE id = :id",
    "new_table": "INSERT INTO floor_tables (id, name, join_code_hash, head_seq, head_hash) "
    "VALUES (:id, :name, :code_hash, 0, :genesis)",
    "new_seat": "INSERT INTO floor_seats (token_hash, id, table_id, role) "
    "VALUES (:token_hash, :seat, :id, :role)",
    "lock": "SELECT head_seq, head_hash FROM floor_tables WHERE id = :id",
    "insert": "INSERT INTO floor_events (table_id, seq, actor, event, prev_hash, hash) "
    "VALUES (:id, :seq, :actor, :event, :prev_hash, :hash)",
    "move": "UPDATE floor_tables SET head_seq = :seq, head_hash = :hash WHERE id = :id",
}


def statements(postgresql: bool) -> dict[str, Any]:  # in the driver's parameter style
    if not postgresql:
        return {**SQL, "append": (SQL["insert"], SQL["move"])}
    sql = {name: re.sub(r":(\w+)", r"%(\1)s", text) for name, text in SQL.items()}
    sql["lock"] += " FOR UPDATE"
    notify = f"SELECT pg_notify('{CHANNEL}', %(payload)s)"  # the append: one statement
    sql["append"] = (f"WITH event AS ({sql['insert']}), head AS ({sql['move']}) {notify}",)
    return sql


def roll_event(seq: int, actor: str, action: str, args: dict[str, Any]) -> dict[str, Any]:
    """The event of a trivial check: ``pool`` dice (d6), a win on 4+, against ``cl``."""
    pool, cl = min(max(int(args.get("pool", 6)), 1), 50), int(args.get("cl", 3))
    faces = [secrets.randbelow(6) + 1 for _ in range(pool)]
    wins = sum(face >= 4 for face in faces)
    result = {
        "pool": pool, "cl": cl, "win_on": 4, "faces": faces, "wins": wins,
        "rolls": [{"reason": "roll", "faces": faces, "wins": wins}], "dice_wins": wins,
        "margin": wins - cl, "passed": wins >= cl, "critical_failure": False, "edition": "core",
        "breakdown": [{"source": "base", "dice": pool}], "adjustments": [], "scaling": False,
        "dice_source": "server", "rules_applied": RULES_APPLIED, "automatic": False,
        "outcome": f"{'success' if wins >= cl else 'failure'} by {abs(wins - cl)}",
    }  # fmt: skip
    return {
        "seq": seq, "kind": action, "actor": actor, "visibility": "public", "scene": 1,
        "at": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"),
        "action": action, "args": args, "result": result, "entered": False,
        "dice": [{"sides": 6, "face": face} for face in faces],
        "changes": [{"kind": action, "subject": None, "version": None, "data": {}}], "saves": [],
    }  # fmt: skip


def open_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_size=PG_THREADS, max_overflow=5, pool_pre_ping=False)
    engine = create_engine(url, connect_args={"timeout": 30.0, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # BEGIN IMMEDIATE below, COMMIT by SQLAlchemy
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


@dataclass(eq=False)
class Stream:
    queue: asyncio.Queue[bytes | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    overflowed: bool = False


class Fanout:
    """This worker's open streams by table; hands each event to them in seq order."""

    def __init__(self) -> None:
        self.streams: dict[str, set[Stream]] = defaultdict(set)
        self.last: dict[str, int] = {}
        self.held: dict[str, dict[int, bytes]] = defaultdict(dict)

    def deliver(self, table_id: str, seq: int, message: bytes) -> None:
        """Send event ``seq`` now if it is the next one, else hold it for the gap to fill."""
        last = self.last.get(table_id, seq - 1)
        if seq <= last:
            return
        held = self.held[table_id]
        held[seq] = message
        if seq > last + 1 and len(held) < MAX_HELD:
            return
        for number in sorted(held):
            if number > last + 1 and len(held) < MAX_HELD:
                break
            self._send(table_id, held.pop(number))
            last = number
        self.last[table_id] = last

    async def keep_alive(self) -> None:  # one timer for every stream, as taletable's
        while True:
            await asyncio.sleep(KEEP_ALIVE)
            for table_id in list(self.streams):
                self._send(table_id, b": keep-alive\n\n")

    def _send(self, table_id: str, message: bytes) -> None:
        streams = self.streams.get(table_id)
        for stream in tuple(streams or ()):
            try:
                stream.queue.put_nowait(message)
            except asyncio.QueueFull:
                stream.overflowed = True
                streams.discard(stream)  # type: ignore[union-attr]


class EventStream(Response):
    """Server-sent events of one table, as they come, batched into one chunk when queued."""

    def __init__(self, fanout: Fanout, table_id: str) -> None:  # no Content-Length: chunked
        self.fanout, self.table_id, self.status_code, self.background = fanout, table_id, 200, None
        self.raw_headers = STREAM_HEADERS

    async def __call__(self, scope: Any, receive: Callable[..., Any], send: Any) -> None:
        stream = Stream()
        self.fanout.streams[self.table_id].add(stream)
        watcher = asyncio.create_task(self._until_gone(receive, stream))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            await send({"type": "http.response.body", "body": RETRY, "more_body": True})
            while not (stream.overflowed and stream.queue.empty()):
                parts = [await stream.queue.get()]
                while not stream.queue.empty():
                    parts.append(stream.queue.get_nowait())
                if None in parts:
                    return
                await send({"type": "http.response.body", "body": b"".join(parts),  # type: ignore[arg-type]
                            "more_body": True})  # fmt: skip
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watcher.cancel()
            self.fanout.streams[self.table_id].discard(stream)

    @staticmethod
    async def _until_gone(receive: Callable[..., Any], stream: Stream) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        with contextlib.suppress(asyncio.QueueFull):
            stream.queue.put_nowait(None)


class Floor:
    """One worker's database, seats and streams."""

    def __init__(self, url: str) -> None:
        self.engine = open_engine(url)
        self.postgresql = not url.startswith("sqlite")
        self.sql = statements(self.postgresql)
        self.conninfo = self.engine.url.set(drivername="postgresql").render_as_string(False)
        self.worker = str(os.getpid())
        self.seats: dict[str, tuple[str, str, str]] = {}  # token hash: (seat, table, role)
        self.fanout = Fanout()
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        threads = PG_THREADS if self.postgresql else 1  # SQLite: one writer at a time anyway
        self.executor = concurrent.futures.ThreadPoolExecutor(threads)

    async def transaction(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(connection, *args)`` in one transaction, in a thread (the loop never waits)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, self._in_thread, work, args)

    def _in_thread(self, work: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        with self.engine.connect() as connection, connection.begin():
            return work(connection, *args)

    def append(self, connection: Connection, table_id: str, actor: str, action: str,
               args: dict[str, Any]) -> tuple[int, str]:  # fmt: skip
        """Lock the table, chain and insert its next event, move its head (and NOTIFY)."""
        head = connection.exec_driver_sql(self.sql["lock"], {"id": table_id}).first()
        if head is None:
            raise HTTPException(404, f"no table {table_id!r}")
        seq, prev_hash = int(head[0]) + 1, str(head[1])
        text = canonical_json(roll_event(seq, actor, action, args))
        digest = hashlib.sha256((prev_hash + text).encode()).hexdigest()
        values = {"id": table_id, "seq": seq, "actor": actor, "event": text,
                  "prev_hash": prev_hash, "hash": digest,
                  "payload": f"{self.worker} {table_id} {seq} {text}"}  # fmt: skip
        for statement in self.sql["append"]:
            connection.exec_driver_sql(statement, values)
        return seq, text

    async def act(self, table_id: str, actor: str, action: str, args: dict[str, Any]) -> str:
        async with self.locks[table_id]:  # one write per table at a time: in seq order here
            seq, text = await self.transaction(self.append, table_id, actor, action, args)
            self.fanout.deliver(table_id, seq, f"id: {seq}\ndata: {text}\n\n".encode())
        return text

    async def seat(self, request: Request, table_id: str) -> tuple[str, str, str]:
        """The seat of the request's bearer token, which must sit at ``table_id``."""
        header = request.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            raise HTTPException(401, "no bearer token")
        key = hashlib.sha256(header[7:].encode()).hexdigest()
        seat = self.seats.get(key)
        if seat is None:
            row = await self.transaction(self._read_seat, key)
            if row is None:
                raise HTTPException(401, "no such seat")
            seat = self.seats[key] = (str(row[0]), str(row[1]), str(row[2]))
        if seat[1] != table_id:
            raise HTTPException(403, "a seat of another table")
        return seat

    def _read_seat(self, connection: Connection, key: str) -> Any:
        return connection.exec_driver_sql(self.sql["seat"], {"token_hash": key}).first()

    def new_table(self, connection: Connection, name: str) -> dict[str, str]:
        table_id, token, code = secrets.token_hex(8), secrets.token_urlsafe(32), secrets.token_hex()
        values = {"id": table_id, "name": name, "code_hash": sha(code)}
        values["genesis"] = genesis_hash(table_id)
        connection.exec_driver_sql(self.sql["new_table"], values)
        self._new_seat(connection, table_id, token, "narrator")
        return {"id": table_id, "narrator_token": token, "join_code": code}

    def join(self, connection: Connection, table_id: str, code: str, role: str) -> dict[str, str]:
        known = connection.exec_driver_sql(self.sql["code"], {"id": table_id}).scalar()
        if known is None or not secrets.compare_digest(known, sha(code)):
            raise HTTPException(403, "wrong join code")
        token = secrets.token_urlsafe(32)
        return {"seat": self._new_seat(connection, table_id, token, role), "token": token}

    def _new_seat(self, connection: Connection, table_id: str, token: str, role: str) -> str:
        seat = secrets.token_hex(8)
        values = {"token_hash": sha(token), "seat": seat, "id": table_id, "role": role}
        connection.exec_driver_sql(self.sql["new_seat"], values)
        return seat

    async def listen(self) -> None:
        """Hand the other workers' events (``NOTIFY`` payloads) to this worker's streams."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    async for note in connection.notifies():
                        worker, table_id, seq, text = note.payload.split(" ", 3)
                        if worker != self.worker:
                            message = f"id: {seq}\ndata: {text}\n\n".encode()
                            self.fanout.deliver(table_id, int(seq), message)
            except psycopg.OperationalError:
                await asyncio.sleep(0.5)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


async def json_body(request: Request) -> dict[str, Any]:
    with contextlib.suppress(ValueError):
        if isinstance(body := json.loads(await request.body()), dict):
            return body
    raise HTTPException(422, "the body is not a JSON object")


def create_app(url: str) -> FastAPI:
    floor = Floor(url)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        gc.collect()
        gc.freeze()
        listener = asyncio.create_task(floor.listen()) if floor.postgresql else None
        ticking = asyncio.create_task(floor.fanout.keep_alive())
        yield
        ticking.cancel()
        if listener is not None:
            listener.cancel()
        floor.executor.shutdown(wait=False)

    app = FastAPI(title="floor", lifespan=lifespan, telemetry=NO_TELEMETRY)

    @app.post("/api/tables", status_code=201)
    async def make_table(request: Request) -> dict[str, str]:
        body = await json_body(request)
        return await floor.transaction(floor.new_table, str(body.get("name", "")))  # type: ignore[no-any-return]

    @app.post("/api/tables/{table_id}/join", status_code=201)
    async def join(table_id: str, request: Request) -> dict[str, str]:
        body = await json_body(request)
        code, role = str(body.get("code", "")), str(body.get("role", "player"))
        return await floor.transaction(floor.join, table_id, code, role)  # type: ignore[no-any-return]

    @app.post("/api/tables/{table_id}/actions")
    async def act(table_id: str, request: Request) -> Response:
        seat = await floor.seat(request, table_id)
        body = await json_body(request)
        action, args = body.get("action"), body.get("args", {})
        if not isinstance(action, str) or not isinstance(args, dict):
            raise HTTPException(422, "action must be a name and args an object")
        text = await floor.act(table_id, seat[0], action, args)
        return Response(text, status_code=201, media_type="application/json")

    @app.get("/api/tables/{table_id}/stream")
    async def stream(table_id: str, request: Request) -> Response:
        await floor.seat(request, table_id)
        return EventStream(floor.fanout, table_id)

    app.add_middleware(AccessLog)  # taletable's access log, as taletable serve has it
    return app


def app_from_environment() -> FastAPI:  # what each uvicorn worker runs
    return create_app(os.environ[DATABASE_VARIABLE])


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True, help="a SQLAlchemy URL (sqlite or psycopg)")
    parser.add_argument("--workers", type=int, default=1)
    options = parser.parse_args()
    engine = open_engine(options.database)
    with engine.begin() as connection:  # the schema, once, before any worker starts
        for statement in SCHEMA:
            connection.exec_driver_sql(statement)
    engine.dispose()
    os.environ[DATABASE_VARIABLE] = options.database
    # the access log as taletable's, for fairness: one line a request on stderr, through the
    # same middleware and formatter (taletable.server.access, taletable.server.logs)
    uvicorn.run("floor_app:app_from_environment", factory=True, host="127.0.0.1",
                port=options.port, workers=options.workers, log_level="warning",
                log_config=log_config("text"), access_log=False)  # fmt: skip


if __name__ == "__main__":
    main()
