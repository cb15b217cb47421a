"""What a seat may see is one rule (server/visibility.py), applied in memory by the streams and
in SQL by the reads: for every seat and every kind of event they agree (Hypothesis, on SQLite
and PostgreSQL), and the rows a stream is handed from memory after a commit reach a player's
stream without a byte of a secret."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taletable.ledger import genesis_hash
from taletable.server.auth import new_id
from taletable.server.db import Database, migrate
from taletable.server.exports import seat_log
from taletable.server.log import Writer, lock_table, newest_events, visible_events
from taletable.server.notify import Hub
from taletable.server.schema import TABLES
from taletable.server.shared_reads import read_views
from taletable.server.visibility import VISIBILITIES, WHISPER, Row, seen_by
from tests.server.conftest import Seats

SEATS = ("narrator-seat", "mara-seat", "bram-seat", "watcher-seat")
#: An event: its visibility, its actor, and (for a whisper) the seats it is whispered to.
EVENTS = st.lists(
    st.tuples(
        st.sampled_from(VISIBILITIES),
        st.sampled_from((*SEATS, None)),
        st.lists(st.sampled_from(SEATS), min_size=1, max_size=3, unique=True).map(tuple),
    ),
    min_size=0,
    max_size=12,
)
Logged = tuple[str, str | None, tuple[str, ...]]


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    found = Database(database_url)
    migrate(found)
    yield found
    found.dispose()


def _log(database: Database, events: list[Logged]) -> tuple[str, list[Row]]:
    """A new table whose log holds ``events`` (visibility, actor, a whisper's audience),
    appended as the server does."""
    table_id = new_id()
    with database.write() as connection:
        connection.execute(
            TABLES.insert().values(
                id=table_id, name="T", system="cogent", edition="core", physical_dice=False,
                join_code_hash="-", created_at="2026-01-01", head_seq=0,
                head_hash=genesis_hash(table_id), scene=1, rules="{}", house_rules="{}",
            )
        )  # fmt: skip
        writer = Writer(connection, lock_table(connection, table_id))
        for n, (visibility, actor, audience) in enumerate(events):
            body = {"action": "cogent.check", "result": {"secret": f"faces-{n}"}}
            writer.append(
                "cogent.check", body, actor=actor, visibility=visibility, audience=audience
            )
    return table_id, writer.rows


@pytest.mark.free_entries  # the rule reads no entry's body: these bodies are bare
@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(events=EVENTS, after=st.integers(0, 12))
def test_the_rule_in_memory_is_the_rule_in_sql(
    database: Database, events: list[Logged], after: int
) -> None:
    """For every seat (narrator or not, the roller or not, a whisper's sender, recipient or
    neither) and every visibility, the rows the pure rule keeps are exactly those the SQL views
    return: the single reads, the shared reads of several streams, the table page's newest
    entries, and the whole events of the seat's export."""
    table_id, rows = _log(database, events)
    views = [(seat, seat == "narrator-seat", after) for seat in SEATS]
    shared = read_views(database, table_id, views, 500)
    for (seat, narrator, _), together in zip(views, shared, strict=True):
        expected = [
            (row.seq, seen) for row in rows
            if row.seq > after and (seen := seen_by(row, seat, narrator)) is not None
        ]  # fmt: skip
        with database.read() as connection:
            alone = visible_events(connection, table_id, seat=seat, narrator=narrator, after=after)
            newest = newest_events(connection, table_id, seat=seat, narrator=narrator, limit=3)
            exported = [] if narrator else list(seat_log(connection, table_id, seat))
        assert alone == expected and together == expected
        everything = [(row.seq, s) for row in rows if (s := seen_by(row, seat, narrator))]
        assert newest == everything[-3:]
        whole = {
            row.seq for row in rows if seen_by(row, seat, narrator) == row.event and not narrator
        }
        assert {event["seq"] for event in exported if "result" in event} == whole


@given(visibility=st.sampled_from(VISIBILITIES), actor=st.sampled_from((*SEATS, None)),
       seat=st.sampled_from(SEATS),
       audience=st.lists(st.sampled_from(SEATS), max_size=3, unique=True).map(tuple))  # fmt: skip
def test_a_seat_gets_the_event_its_stub_or_nothing(
    visibility: str, actor: str | None, seat: str, audience: tuple[str, ...]
) -> None:
    """The narrator gets every event whole; another seat a public one whole, the stub of its
    own blind roll, a whisper whole when it sent it or is named in it, and nothing of a
    narrator-only event, another's blind roll or a whisper to others."""
    row = Row(7, visibility, actor, '{"whole":1}', '{"stub":1}', audience)
    narrator = seat == "narrator-seat"
    seen = seen_by(row, seat, narrator)
    whispered = visibility == WHISPER and (actor == seat or seat in audience)
    if narrator or visibility == "public" or whispered:
        assert seen == row.event
    elif visibility == "blind" and actor == seat:
        assert seen == row.stub
    else:
        assert seen is None


def test_rows_travel_in_a_notification_or_are_read() -> None:
    """Rows that fit travel in the NOTIFY payload and come back equal on another worker; rows
    too big for one become a read of the database from the table's newest seq."""
    sender, other = Hub(), Hub()
    rows = [
        Row(3, "blind", "mara-seat", '{"a":1}', '{"s":1}'),
        Row(4, "public", None, "{}", "{}"),
        Row(5, WHISPER, "mara-seat", '{"w":1}', '{"s":1}', ("bram-seat",)),
    ]
    handed: list[Any] = []
    other.publish = lambda table_id, got: handed.append((table_id, list(got)))  # type: ignore[method-assign]
    other.received(sender.payload("t1", rows))
    assert handed == [("t1", rows)]
    sender.publish = lambda *_: handed.append("own")  # type: ignore[method-assign]
    sender.received(sender.payload("t1", rows))  # a worker's own notification: nothing again
    assert handed == [("t1", rows)]
    handed.clear()
    spoken = [Row(6, "public", "bram-seat", '{"said":"Çà va\\n—\\"oui\\""}', "{}")]
    other.received(sender.payload("t1", spoken))  # not ASCII, escapes: the texts as they were
    assert handed == [("t1", spoken)]
    woken: list[str | None] = []
    other.wake = woken.append  # type: ignore[method-assign]
    cut = sender.payload("t1", rows)[:-3]  # a text shorter than its line says: read instead
    other.received(cut)
    assert woken == [None] and len(handed) == 1
    woken.clear()
    big = [Row(5, "public", None, json.dumps({"x": "y" * 9000}), "{}")]
    assert sender.payload("t1", big) == "w:t1:5"
    other.received(sender.payload("t1", big))
    assert woken == ["t1"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_players_stream_from_memory_holds_no_secret(client: TestClient, table: Seats) -> None:
    """The narrator's secret roll and Bram's blind roll, made while Mara's stream is open and
    handed to it from memory, never reach Mara's bytes; her own blind roll reaches her as a
    stub; the public roll whole."""
    url = f"/api/tables/{table.id}/stream"
    with client.stream("GET", url, headers=table.mara) as stream:
        lines = stream.iter_lines()
        assert next(lines) == "retry: 1000"
        for who, visibility in ((table.narrator, "narrator"), (table.bram, "blind"),
                                (table.mara, "blind"), (table.bram, "public")):  # fmt: skip
            body = {"action": "roll", "args": {"notation": "3d6"}, "visibility": visibility}
            made = client.post(f"/api/tables/{table.id}/actions", json=body, headers=who)
            assert made.status_code == 201, made.text
        received = []
        for line in lines:
            if line.startswith("data: "):
                received.append(json.loads(line[6:]))
            if (
                received
                and received[-1].get("actor")
                and received[-1].get("visibility") == "public"
                and received[-1].get("kind") == "roll"
            ):
                break
    secret_seqs = {event["seq"] for event in received if event.get("visibility") == "narrator"}
    assert secret_seqs == set()
    blind = [event for event in received if event.get("visibility") == "blind"]
    assert len(blind) == 1 and blind[0].get("hidden") is True and "result" not in blind[0]
    assert "dice" not in blind[0] and "dice_secret" not in json.dumps(blind)
    assert received[-1]["result"]


def test_a_stream_that_falls_behind_is_dropped() -> None:
    """A stream's queue holds at most QUEUE items; one more drops the stream: its queue is
    emptied and ends with Dropped (the stream ends; its client reconnects with its last id)."""
    import asyncio

    from taletable.server.notify import QUEUE, Dropped, Rows, Subscription

    async def fill() -> Subscription:
        subscription = Subscription("t1")
        for seq in range(1, QUEUE + 2):
            subscription.put(Rows((Row(seq, "public", None, "{}", "{}"),)))
        return subscription

    subscription = asyncio.run(fill())
    assert subscription.dropped and subscription.queue.qsize() == 1
    assert isinstance(subscription.queue.get_nowait(), Dropped)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_stream_resumed_past_the_head_hears_what_comes_next(
    client: TestClient, table: Seats
) -> None:
    """A client whose Last-Event-ID names a seq the table has not reached is brought back to
    the table's head: the next action reaches it."""
    url = f"/api/tables/{table.id}/stream"
    headers = {**table.mara, "Last-Event-ID": "100000"}
    with client.stream("GET", url, headers=headers) as stream:
        lines = stream.iter_lines()
        assert next(lines) == "retry: 1000"
        body = {"action": "roll", "args": {"notation": "1d6"}}
        made = client.post(f"/api/tables/{table.id}/actions", json=body, headers=table.bram)
        assert made.status_code == 201, made.text
        seq = made.json()["seq"]
        for line in lines:
            assert not line.startswith(": keep-alive"), "the action never reached the stream"
            if line.startswith("id: "):
                assert int(line[4:]) == seq
                break
