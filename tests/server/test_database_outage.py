"""A database that is unreachable or busy is a 503 with ``Retry-After`` naming ``database``
(a page: a line saying the table is reconnecting), never a 500; nothing is changed, and the
same request succeeds once the database is back, the log's chain whole (issue 22, point 7).

PostgreSQL is made to fail here by terminating every backend of the test database (as a
restart does) and by pointing an app at a port where nothing listens; a cluster of the test's
own is stopped and started under load in ``test_postgresql_outage.py``."""

from __future__ import annotations

import re
import sqlite3
import sqlite3 as sqlite
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, exc, text

from taletable.ledger import verify_export
from taletable.server import create_app
from taletable.server.db import is_unavailable
from tests.server.conftest import SAME_ORIGIN, TEST_LIMITS, Seats, free_port, make_table

HTMX = {"HX-Request": "true"}
CHECK = {"action": "cogent.check", "args": {"pool": 3, "cl": 1}}
#: How long a SQLite write waits for the lock in these tests (seconds).
SHORT_BUSY = 0.3


def act(client: TestClient, table: Seats) -> Any:
    return client.post(f"/api/tables/{table.id}/actions", json=CHECK, headers=table.mara)


def head_seq(client: TestClient, table_id: str, headers: dict[str, str] | None = None) -> int:
    return int(client.get(f"/api/tables/{table_id}", headers=headers).json()["head_seq"])


def assert_chain_holds(client: TestClient, table: Seats) -> None:
    export = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    assert verify_export(export).ok


def assert_database_unavailable(answer: Any) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == "2"
    error = answer.json()["error"]
    assert error["field"] == "database"
    assert "unreachable or busy" in error["message"] and "try again" in error["message"]


@contextmanager
def sqlite_locked(path: Path) -> Iterator[None]:
    """Another connection holds SQLite's write lock (``BEGIN IMMEDIATE``) on ``path``."""
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
        holder.execute("ROLLBACK")
    finally:
        holder.close()


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "taletable.db"


@pytest.fixture
def short_busy_client(sqlite_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{sqlite_path}", limits=TEST_LIMITS, sqlite_busy_seconds=SHORT_BUSY)
    with TestClient(app) as client:
        yield client


def test_sqlite_locked_past_the_busy_timeout_is_a_503_and_changes_nothing(
    short_busy_client: TestClient, sqlite_path: Path
) -> None:
    client = short_busy_client
    table = make_table(client)
    assert act(client, table).status_code == 201
    before = head_seq(client, table.id, table.narrator)
    with sqlite_locked(sqlite_path):
        assert_database_unavailable(act(client, table))
        assert head_seq(client, table.id, table.narrator) == before  # WAL: reads still work
    again = act(client, table)
    assert again.status_code == 201, again.text
    assert again.json()["seq"] == before + 1
    assert_chain_holds(client, table)


def test_a_page_form_while_sqlite_is_locked_says_the_table_is_reconnecting(
    short_busy_client: TestClient, sqlite_path: Path
) -> None:
    client = short_busy_client
    made = client.post(
        "/start",
        data={"name": "Tavern", "system": "cogent", "edition": "core"},
        headers=SAME_ORIGIN,
    )
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None
    table_id = found.group(1)
    before = head_seq(client, table_id)
    form = {"mode": "pool", "pool": "3", "cl": "1"}
    with sqlite_locked(sqlite_path):
        rolled = client.post(f"/t/{table_id}/roll", data=form, headers=HTMX)
        assert rolled.status_code == 200, rolled.text  # htmx swaps no 5xx
        assert "reconnecting" in rolled.text and 'role="alert"' in rolled.text
        assert rolled.headers["Retry-After"] == "2"
        assert head_seq(client, table_id) == before
    rolled = client.post(f"/t/{table_id}/roll", data=form, headers=HTMX)
    assert f"Rolled (#{before + 1})" in rolled.text


@pytest.mark.postgresql
def test_postgresql_backends_terminated_is_a_503_then_the_server_recovers(
    postgresql_url: str,
) -> None:
    app = create_app(postgresql_url, limits=TEST_LIMITS)
    admin = create_engine(postgresql_url, isolation_level="AUTOCOMMIT")
    try:
        with TestClient(app) as client:
            table = make_table(client)
            assert act(client, table).status_code == 201
            before = head_seq(client, table.id, table.narrator)
            with admin.connect() as connection:
                killed = connection.execute(
                    text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                ).scalar_one()
            assert killed >= 1
            assert_database_unavailable(act(client, table))
            again = act(client, table)
            assert again.status_code == 201, again.text
            assert again.json()["seq"] == before + 1
            assert_chain_holds(client, table)
    finally:
        admin.dispose()


@pytest.mark.postgresql
def test_an_unreachable_postgresql_is_a_503(postgresql_url: str) -> None:
    from sqlalchemy.engine import make_url

    nowhere = make_url(postgresql_url).set(host="127.0.0.1", port=free_port())
    app = create_app(
        nowhere.render_as_string(hide_password=False), limits=TEST_LIMITS, migrate_schema=False
    )
    client = TestClient(app)  # no lifespan: its LISTEN would wait for the database
    assert_database_unavailable(client.post("/api/tables", json={"name": "T", "system": "cogent"}))


def _dbapi(error: Exception, kind: type[exc.DBAPIError] = exc.OperationalError) -> Any:
    return kind.instance("SELECT 1", {}, error, sqlite.Error)


def test_only_an_unreachable_or_busy_database_counts_as_unavailable() -> None:
    assert is_unavailable(_dbapi(sqlite.OperationalError("database is locked")))
    assert is_unavailable(exc.TimeoutError("QueuePool limit of size 10 overflow 20 reached"))
    assert is_unavailable(_dbapi(sqlite.InterfaceError("closed"), exc.InterfaceError))
    assert not is_unavailable(_dbapi(sqlite.OperationalError("no such table: events")))
    assert not is_unavailable(_dbapi(sqlite.IntegrityError("UNIQUE"), exc.IntegrityError))
    assert not is_unavailable(_dbapi(sqlite.ProgrammingError("syntax"), exc.ProgrammingError))
    assert not is_unavailable(ValueError("database is locked"))
