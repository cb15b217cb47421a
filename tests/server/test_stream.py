"""The event stream as an ASGI answer (server/stream.py), driven in-process on the app's own
loop: the worker's keep-alive tick (a comment only after a whole tick of quiet), a client that
leaves ends its stream and frees its place, and the driver's write statements name exactly the
columns of the schema."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.server import notify
from taletable.server.app import create_app
from taletable.server.limits import Limits
from taletable.server.log import _driver_sql, lock_table, read_table
from taletable.server.notify import KeepAlive
from taletable.server.schema import EVENTS, TABLES
from taletable.server.stream import Renderer
from tests.server.conftest import Seats

Message = dict[str, Any]


def _scope(
    method: str, path: str, token: str, body: bytes = b"", *, cookie: str = "", query: str = ""
) -> dict[str, Any]:
    headers = [(b"host", b"test")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    return {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
        "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
        "query_string": query.encode(), "root_path": "", "headers": headers,
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip


async def _call(
    app: Any, method: str, path: str, token: str = "", body: bytes = b"", query: str = ""
) -> Message:
    """One request, whole: its status, headers and body."""
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(_scope(method, path, token, body, query=query), receive, send)
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return {"status": sent[0]["status"], "headers": sent[0]["headers"], "body": body}


class _Client:
    """One open stream: what it was sent, and a way to leave."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.leave = asyncio.Event()
        self._asked = False

    async def receive(self) -> Message:
        if not self._asked:
            self._asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            self.chunks.append(message["body"].decode())

    async def settled(self) -> list[str]:
        """What was sent, once the loop has nothing more to do for it."""
        for _ in range(20):
            await asyncio.sleep(0)
        await asyncio.sleep(0.05)
        return self.chunks


def _run(
    tmp_path: Path,
    body: Callable[[Any, dict[str, Any]], Awaitable[None]],
    middleware: type | None = None,
) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'stream.db'}", limits=Limits(rate=1e6, burst=10**6))
    if middleware is not None:
        app.add_middleware(middleware)

    async def main() -> None:
        async with app.router.lifespan_context(app):
            made = await _call(app, "POST", "/api/tables", body=b'{"name":"S","system":"cogent"}')
            await body(app, json.loads(made["body"]))

    asyncio.run(main())


def test_a_quiet_stream_gets_a_keep_alive_after_a_whole_tick_of_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ticks given by hand (the timer's set to an hour): the first tick after the opening
    sends nothing, the second a keep-alive; an event resets the count."""
    monkeypatch.setattr(notify, "KEEP_ALIVE", 3600.0)

    async def body(app: Any, table: dict[str, Any]) -> None:
        world, token = app.state.world, table["narrator_token"]
        client = _Client()
        path = f"/api/tables/{table['id']}/stream"
        task = asyncio.create_task(app(_scope("GET", path, token), client.receive, client.send))
        opened = list(await client.settled())
        assert opened[0].startswith("retry:")

        def tick() -> None:
            world.hub._deliver(None, KeepAlive())

        tick()
        assert await client.settled() == opened, "a keep-alive right after the opening"
        tick()
        assert (await client.settled())[-1] == ": keep-alive\n\n"
        action = b'{"action":"cogent.check","args":{"pool":3,"cl":1}}'
        posted = await _call(app, "POST", f"/api/tables/{table['id']}/actions", token, action)
        assert posted["status"] == 201
        seq = json.loads(posted["body"])["seq"]
        assert (await client.settled())[-1].startswith(f"id: {seq}\n")
        before = len(client.chunks)
        tick()
        assert len(await client.settled()) == before, "a keep-alive within a tick of an event"
        tick()
        assert (await client.settled())[-1] == ": keep-alive\n\n"
        client.leave.set()
        await asyncio.wait_for(task, 5)

    _run(tmp_path, body)


def test_a_busy_page_stream_beats_its_presence_at_every_tick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table page open at a busy table stays online: its presence beats at each tick even
    when an event went out since the last one (no keep-alive comment then)."""
    monkeypatch.setattr(notify, "KEEP_ALIVE", 3600.0)

    async def body(app: Any, table: dict[str, Any]) -> None:
        world, token, table_id = app.state.world, table["narrator_token"], table["id"]
        entered = await _call(app, "GET", f"/t/{table_id}/enter", query=f"token={token}")
        assert entered["status"] == 303
        cookies = [v.decode() for k, v in entered["headers"] if k == b"set-cookie"]
        cookie = "; ".join(c.split(";")[0] for c in cookies)
        beats: list[str] = []
        beat = world.presence.beat
        monkeypatch.setattr(world.presence, "beat", lambda stream: beats.append(beat(stream)))
        client = _Client()
        scope = _scope("GET", f"/t/{table_id}/stream", "", cookie=cookie)
        task = asyncio.create_task(app(scope, client.receive, client.send))
        await client.settled()
        action = b'{"action":"cogent.check","args":{"pool":3,"cl":1}}'
        for _ in range(2):
            posted = await _call(app, "POST", f"/api/tables/{table_id}/actions", token, action)
            assert posted["status"] == 201
            await client.settled()
            world.hub._deliver(None, KeepAlive())
            await client.settled()
        assert len(beats) == 2
        assert not any(chunk.startswith(": keep-alive") for chunk in client.chunks)
        assert world.presence.online(table_id)
        client.leave.set()
        await asyncio.wait_for(task, 5)

    _run(tmp_path, body)


def test_a_client_that_leaves_ends_its_stream_and_frees_its_place(tmp_path: Path) -> None:
    async def body(app: Any, table: dict[str, Any]) -> None:
        world, token = app.state.world, table["narrator_token"]
        client = _Client()
        path = f"/api/tables/{table['id']}/stream"
        task = asyncio.create_task(app(_scope("GET", path, token), client.receive, client.send))
        await client.settled()
        seat = next(iter(world.seats._seats.values())).id
        assert world.streams.held(seat) == 1
        assert len(world.hub._streams[table["id"]]) == 1
        client.leave.set()
        await asyncio.wait_for(task, 5)
        assert world.streams.held(seat) == 0
        assert table["id"] not in world.hub._streams

    _run(tmp_path, body)


def test_a_streams_chunks_go_to_the_server_past_the_middlewares(tmp_path: Path) -> None:
    """A stream's start goes through the middlewares (the security headers are on it); its
    chunks go to the HTTP server's own ``send``: a middleware sees none of them, the client
    every one."""
    passed: list[Message] = []

    class Recording:
        def __init__(self, app: Any) -> None:
            self.app = app

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            async def recorded(message: Message) -> None:
                if scope["path"].endswith("/stream"):
                    passed.append(message)
                await send(message)

            await self.app(scope, receive, recorded)

    async def body(app: Any, table: dict[str, Any]) -> None:
        token = table["narrator_token"]
        client, started = _Client(), []
        send = client.send

        async def sent(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.append(dict(message["headers"]))
            await send(message)

        path = f"/api/tables/{table['id']}/stream"
        task = asyncio.create_task(app(_scope("GET", path, token), client.receive, sent))
        await client.settled()
        action = b'{"action":"cogent.check","args":{"pool":3,"cl":1}}'
        posted = await _call(app, "POST", f"/api/tables/{table['id']}/actions", token, action)
        seq = json.loads(posted["body"])["seq"]
        assert (await client.settled())[-1].startswith(f"id: {seq}\n")
        client.leave.set()
        await asyncio.wait_for(task, 5)
        assert started[0][b"x-frame-options"] == b"DENY"
        assert b"content-security-policy" in started[0]
        assert [m["type"] for m in passed if m.get("body")] == []
        assert passed[0]["type"] == "http.response.start"

    _run(tmp_path, body, middleware=Recording)


@pytest.mark.parametrize("postgresql", [False, True])
def test_the_driver_statements_name_the_schema_columns(postgresql: bool) -> None:
    """The write path's hand-written SQL (server/log.py) reads every column of ``tables`` and
    inserts every column of ``events``, in the driver's parameter style."""
    written = _driver_sql(postgresql)
    selected = re.search(r"SELECT (.*) FROM tables", written["lock"])
    assert selected is not None
    assert selected.group(1).split(", ") == [column.name for column in TABLES.columns]
    inserted = re.search(r"INSERT INTO events \((.*?)\) VALUES \((.*)\)$", written["insert"])
    assert inserted is not None
    names = [column.name for column in EVENTS.columns]
    assert inserted.group(1).split(", ") == names
    style = "%({})s" if postgresql else ":{}"
    assert inserted.group(2).split(", ") == [style.format(name) for name in names]
    assert written["lock"].endswith("FOR UPDATE") == postgresql


def test_a_write_reads_only_what_moves_and_keeps_the_rest_of_the_table(
    client: TestClient, table: Seats
) -> None:
    """A write locks the table reading its head and scene only; what never changes (name,
    edition, rules) is read once and kept. The head it builds is the whole row's, after
    rolls and after a new scene."""
    database = client.app.state.world.database  # type: ignore[attr-defined]
    check = {"action": "cogent.check", "args": {"pool": 3, "cl": 1}}
    for step in ("roll", "scene", "roll"):
        if step == "scene":
            assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).is_success
        else:
            posted = client.post(f"/api/tables/{table.id}/actions", json=check, headers=table.mara)
            assert posted.status_code == 201, posted.text
            last = posted.json()["seq"]
        with database.write() as connection:
            assert lock_table(connection, table.id, database.tables) == read_table(
                connection, table.id
            )
    assert database.tables[table.id].name == "Tavern"
    with database.read() as connection:
        head = read_table(connection, table.id)
    assert (head.scene, head.head_seq) == (2, last)


def test_only_the_apis_messages_are_shared_between_streams() -> None:
    """The API's message of a row is encoded once for every stream; a renderer with an entry
    of its own (a page's HTML, a seat's names) encodes its own, never another's cached bytes."""

    class Shouting(Renderer):
        def entry(self, seq: int, text: str) -> str:
            return f"id: {seq}\ndata: {text.upper()}\n\n"

    api = Renderer().entry_bytes(7, '{"x":1}')
    assert api == b'id: 7\ndata: {"x":1}\n\n'
    assert Renderer().entry_bytes(7, '{"x":1}') is api  # written once
    assert Shouting().entry_bytes(7, '{"x":1}') == b'id: 7\ndata: {"X":1}\n\n'
