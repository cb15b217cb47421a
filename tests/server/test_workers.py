"""Several server processes on one PostgreSQL, and a server killed in the middle of its work."""

from __future__ import annotations

import json
import signal
import threading
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select

from taletable.ledger import verify_export
from taletable.log_entry import read_entry
from taletable.server.schema import EVENTS, TABLES, THINGS
from taletable.server.state import state_from_log
from tests.server.conftest import LiveServer, make_table, start_server
from tests.server.streams import head_seq, open_stream
from tests.server.test_characters import terrik

CHECK = {"action": "cogent.check", "args": {"pool": 5, "cl": 2}}


@pytest.mark.postgresql
def test_an_action_on_one_worker_reaches_a_stream_on_another(postgresql_url: str) -> None:
    """Two server processes on one PostgreSQL: actions posted to the first reach a stream held
    open on the second, in order, each within a second (LISTEN/NOTIFY wakes it; the rows are
    what it sends)."""
    first, second = start_server(postgresql_url), start_server(postgresql_url)
    try:
        with httpx.Client(base_url=first.url, timeout=10) as http:
            table = make_table(http)
            start = head_seq(http, table.id, table.narrator)
            stream = open_stream(second.url, table.id, table.bram, after=start)
            sent = []
            for _ in range(20):
                moment = time.monotonic()
                answer = http.post(
                    f"/api/tables/{table.id}/actions", json=CHECK, headers=table.mara
                )
                assert answer.status_code == 201, answer.text
                sent.append((moment, answer.json()))
                time.sleep(0.02)
            received = stream.wait_for(len(sent), timeout=10)
            assert [m.id for m in received] == [event["seq"] for _, event in sent]
            for (moment, event), message in zip(sent, received, strict=True):
                assert message.data["result"] == event["result"]
                assert message.arrived - moment < 1.0, message.id
            stream.close()
    finally:
        first.stop()
        second.stop()


@pytest.mark.postgresql
def test_serve_with_two_workers_answers_and_streams(postgresql_url: str) -> None:
    """`taletable serve --workers 2` on PostgreSQL: whichever worker takes a request, every
    stream hears every action."""
    server = start_server(postgresql_url, workers=2)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            table = make_table(http)
            start = head_seq(http, table.id, table.narrator)
            streams = [open_stream(server.url, table.id, table.bram, after=start) for _ in range(4)]
            posted = [
                http.post(f"/api/tables/{table.id}/actions", json=CHECK, headers=table.mara)
                for _ in range(10)
            ]
            seqs = [answer.json()["seq"] for answer in posted]
            for stream in streams:
                assert [m.id for m in stream.wait_for(10, timeout=10)] == seqs
                stream.close()
    finally:
        server.stop()


def _hammer(
    server: LiveServer, table: Any, cid: str, acked: list[int], stop: threading.Event
) -> None:
    """Post actions and sheet edits until stopped (or the server dies); keep each acked seq."""
    version = 1
    with httpx.Client(base_url=server.url, timeout=5) as http:
        while not stop.is_set():
            try:
                answer = http.post(
                    f"/api/tables/{table.id}/actions", json=CHECK, headers=table.mara
                )
                if answer.status_code == 201:
                    acked.append(answer.json()["seq"])
                sheet = terrik()
                sheet["identity"]["name"] = f"Terrik {version}"
                edited = http.put(
                    f"/api/tables/{table.id}/characters/{cid}",
                    json={"sheet": sheet, "version": version}, headers=table.bram,
                )  # fmt: skip
                if edited.status_code == 200:
                    version = edited.json()["version"]
            except httpx.HTTPError:
                return


def test_a_worker_killed_mid_write_leaves_a_whole_log(database_url: str) -> None:
    """SIGKILL while two clients post actions and edits: after a restart the chain holds and
    has no gap, every event a client was answered for is there, the table's head is its last
    event, the stored state is what the log rebuilds, and the scene's dice verify."""
    server = start_server(database_url)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        table = make_table(http)
        made = http.post(f"/api/tables/{table.id}/characters", json={"sheet": terrik()},
                         headers=table.mara)  # fmt: skip
        cid = made.json()["id"]
    acked: list[int] = []
    stop = threading.Event()
    workers = [threading.Thread(target=_hammer, args=(server, table, cid, acked, stop))
               for _ in range(2)]  # fmt: skip
    for worker in workers:
        worker.start()
    deadline = time.monotonic() + 20
    while len(acked) < 30 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    stop.set()
    for worker in workers:
        worker.join()
    assert len(acked) >= 30, "the clients made progress before the kill"
    again = start_server(database_url)
    try:
        with httpx.Client(base_url=again.url, timeout=10) as http:
            closed = http.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
            assert closed.status_code == 201, closed.text
            export = http.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    finally:
        again.stop()
    checked = verify_export(export)
    assert checked.ok and checked.dice_checked > 0, checked.summary()
    seqs = [event["seq"] for event in export["events"]]
    assert seqs == list(range(1, len(seqs) + 1))
    assert set(acked) <= set(seqs)
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            head = connection.execute(select(TABLES.c.head_seq).where(TABLES.c.id == table.id))
            assert head.scalar_one() == seqs[-1]
            count = connection.execute(select(EVENTS.c.seq).where(EVENTS.c.table_id == table.id))
            assert len(count.all()) == len(seqs)
            rows = connection.execute(select(THINGS).where(THINGS.c.scope == table.id)).all()
    finally:
        engine.dispose()
    stored = {(row.kind, row.key): (row.version, json.loads(row.data)) for row in rows}
    entries = map(read_entry, export["events"])
    rebuilt = {key: (t.version, t.data) for key, t in state_from_log(entries).items()}
    assert stored == rebuilt
