"""The operator's ``taletable delete-table`` and ``prune`` (DESIGN > Principles 14): a table
deleted whole from the command line (its streams ended in a serving PostgreSQL worker), and
the tables nobody used for N days listed (``--dry-run``) or deleted, and only those."""

from __future__ import annotations

import datetime
import json
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, select, update

from taletable.server import create_app
from taletable.server.schema import EVENTS, PRESENCE, TABLES
from tests.server.conftest import TEST_LIMITS, Seats, make_table, start_server
from tests.server.streams import open_stream
from tests.server.test_deleting import ended, played, row_counts

POSTGRESQL = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


def made_tables(database_url: str, count: int) -> list[Seats]:
    """``count`` tables with seats and a few events each, made through the API."""
    with TestClient(create_app(database_url, limits=TEST_LIMITS)) as client:
        tables = [make_table(client) for _ in range(count)]
        for table in tables:
            played(client, table)  # type: ignore[arg-type]
    return tables


def age(database_url: str, table_id: str, days: float) -> None:
    """Make ``table_id`` look last used ``days`` ago: its creation and every event's time
    (what prune reads; the chain's hashes do not matter to it)."""
    then = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=days)
    when = then.isoformat(timespec="milliseconds")
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                update(TABLES).where(TABLES.c.id == table_id).values(created_at=when)
            )
            rows = connection.execute(
                select(EVENTS.c.seq, EVENTS.c.event).where(EVENTS.c.table_id == table_id)
            ).all()
            for row in rows:
                event = {**json.loads(row.event), "at": when}
                connection.execute(
                    update(EVENTS)
                    .where((EVENTS.c.table_id == table_id) & (EVENTS.c.seq == row.seq))
                    .values(event=json.dumps(event, separators=(",", ":")))
                )
    finally:
        engine.dispose()


def open_page(database_url: str, table_id: str, seat: str) -> None:
    """A page of ``table_id`` open now (its presence row, as a page's stream keeps it)."""
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(insert(PRESENCE).values(
                stream=f"s{time.time_ns()}", table_id=table_id, seat_id=seat, seen_at=time.time()
            ))  # fmt: skip
    finally:
        engine.dispose()


def test_prune_deletes_only_the_tables_nobody_used(database_url: str, run_cli: Any) -> None:
    """Of a table idle 40 days, one whose events are as old but whose page is open now, and
    one used today, ``prune --idle-days 30 --dry-run`` lists the first and deletes nothing;
    ``prune --idle-days 30`` deletes it whole (listed) and leaves the others every row."""
    idle, watched, used = made_tables(database_url, 3)
    age(database_url, idle.id, 40)
    age(database_url, watched.id, 40)
    open_page(database_url, watched.id, watched.mara_seat)
    before = {table.id: row_counts(database_url, table.id) for table in (idle, watched, used)}
    listed = run_cli("prune", "--idle-days", "30", "--dry-run", "--database", database_url)
    assert listed.status == 0, listed.stderr
    assert f"would delete table {idle.id} 'Tavern'" in listed.stdout
    assert watched.id not in listed.stdout and used.id not in listed.stdout
    after = {table.id: row_counts(database_url, table.id) for table in (idle, watched, used)}
    assert after == before
    later = run_cli("prune", "--idle-days", "41", "--dry-run", "--database", database_url)
    assert later.status == 0 and idle.id not in later.stdout
    pruned = run_cli("prune", "--idle-days", "30", "--database", database_url)
    assert pruned.status == 0, pruned.stderr
    assert f"deleted table {idle.id}" in pruned.stdout and used.id not in pruned.stdout
    assert row_counts(database_url, idle.id) == dict.fromkeys(before[idle.id], 0)
    assert row_counts(database_url, watched.id) == before[watched.id]
    assert row_counts(database_url, used.id) == before[used.id]


@pytest.mark.parametrize("days", ["0", "-3", "abc", "1.5", "", "1000000000000"])
def test_a_bad_idle_days_is_one_line_and_deletes_nothing(
    database_url: str, run_cli: Any, days: str
) -> None:
    """--idle-days must be a whole number from 1 to 36,500: anything else is one line on
    stderr naming it, exit 2, and every table is kept."""
    (table,) = made_tables(database_url, 1)
    age(database_url, table.id, 400)
    before = row_counts(database_url, table.id)
    refused = run_cli("prune", "--idle-days", days, "--database", database_url)
    assert refused.status == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "--idle-days" in refused.stderr, refused.stderr
    assert row_counts(database_url, table.id) == before


def test_delete_table_deletes_one_table_whole(database_url: str, run_cli: Any) -> None:
    """``taletable delete-table ID`` deletes that table's every row and no other's; an id of
    no table, or no id at all, is one line, exit 2, nothing deleted."""
    doomed, kept = made_tables(database_url, 2)
    kept_before = row_counts(database_url, kept.id)
    for wrong in ("0123456789abcdef", "../etc"):
        refused = run_cli("delete-table", wrong, "--database", database_url)
        assert refused.status == 2 and refused.stderr.count("\n") == 1, refused.stderr
        assert "ID" in refused.stderr
    deleted = run_cli("delete-table", doomed.id, "--database", database_url)
    assert deleted.status == 0, deleted.stderr
    assert f"deleted table {doomed.id}" in deleted.stdout
    assert all(count == 0 for count in row_counts(database_url, doomed.id).values())
    assert row_counts(database_url, kept.id) == kept_before


def test_delete_table_refuses_a_database_without_the_schema(tmp_path: Any, run_cli: Any) -> None:
    """A SQLite file that is not there is not made: one line saying to migrate, exit 2."""
    url = f"sqlite:///{tmp_path / 'none.db'}"
    refused = run_cli("delete-table", "0123456789abcdef", "--database", url)
    assert refused.status == 2 and "taletable migrate" in refused.stderr
    assert not (tmp_path / "none.db").exists()


@POSTGRESQL
def test_delete_table_ends_the_streams_of_a_serving_worker(database_url: str, run_cli: Any) -> None:
    """Deleted from the command line, a table's streams held by a server's two workers end
    (the ``d:TABLE`` NOTIFY), and its seats' tokens, kept by the workers, are 404 after."""
    server = start_server(database_url, workers=2)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            table = make_table(http)
            seats = (table.mara, table.bram, table.narrator, table.observer)
            streams = [open_stream(server.url, table.id, seat) for seat in seats]
            for seat in seats:
                assert http.get(f"/api/tables/{table.id}", headers=seat).status_code == 200
            deleted = run_cli("delete-table", table.id, "--database", database_url)
            assert deleted.status == 0, deleted.stderr
            assert all(ended(stream) for stream in streams)
            for seat in seats:
                assert http.get(f"/api/tables/{table.id}", headers=seat).status_code == 404
    finally:
        server.stop()
