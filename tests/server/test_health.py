"""Health and readiness (``GET /healthz``, ``GET /readyz``): 200 from a real server on both
databases, never rate-limited, and 503 with a reason (no secret in it) when the database is
gone, hangs past the bound, or this worker's LISTEN on PostgreSQL is down."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from taletable.server import create_app
from tests.server.conftest import (
    TEST_LIMITS,
    free_port,
    fresh_postgresql_database,
    start_server,
)

OK = {"status": "ok"}


def assert_not_ready(answer: Any, field: str, words: str) -> None:
    assert answer.status_code == 503, answer.text
    body = answer.json()
    assert body["status"] == "unavailable" and body["error"]["field"] == field, body
    assert words in body["error"]["message"], body
    assert answer.headers["Retry-After"] == "2"


def test_a_served_database_is_healthy_and_ready_and_never_rate_limited(database_url: str) -> None:
    """A real `taletable serve` at a rate of one request a second: both answer 200 every
    time, and neither is in the API's OpenAPI document."""
    server = start_server(database_url, rate="1,1")
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            for _ in range(20):
                assert (http.get("/healthz").status_code, http.get("/healthz").json()) == (200, OK)
                ready = http.get("/readyz")
                assert (ready.status_code, ready.json()) == (200, OK), ready.text
            paths = http.get("/openapi.json").json()["paths"]
            assert "/healthz" not in paths and "/readyz" not in paths
    finally:
        server.stop()


@pytest.mark.postgresql
def test_a_dropped_postgresql_database_is_not_ready_and_says_nothing_secret() -> None:
    """The database dropped under a running server: /readyz is 503 naming no host or
    database, while /healthz (the process) still answers 200."""
    with fresh_postgresql_database() as url:
        server = start_server(url)
        try:
            with httpx.Client(base_url=server.url, timeout=10) as http:
                assert http.get("/readyz").status_code == 200
                name = make_url(url).database
                admin = create_engine(make_url(url).set(database="postgres"))
                with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
                    c.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
                admin.dispose()
                answer = http.get("/readyz")
                assert answer.status_code == 503, answer.text
                assert answer.json()["error"]["field"] in ("database", "listen")
                assert str(name) not in answer.text and "127.0.0.1" not in answer.text
                assert http.get("/healthz").json() == OK
        finally:
            server.stop()


@pytest.mark.postgresql
def test_a_worker_whose_listen_is_down_is_not_ready_until_it_is_back(postgresql_url: str) -> None:
    """Its LISTEN connection killed and (for a while) unable to come back: 503 naming
    ``listen``; once it reconnects, 200 again."""
    app = create_app(postgresql_url, limits=TEST_LIMITS)
    admin = create_engine(postgresql_url, isolation_level="AUTOCOMMIT")
    try:
        with TestClient(app) as client:
            assert client.get("/readyz").json() == OK
            listener = app.state.world.listener
            reachable = listener.conninfo
            nowhere = make_url(reachable).set(port=free_port())
            listener.conninfo = nowhere.render_as_string(hide_password=False)
            with admin.connect() as connection:
                connection.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND query LIKE 'LISTEN%'"
                    )
                )
            answer = _wait_for(client, 503)
            assert_not_ready(answer, "listen", "LISTEN connection to PostgreSQL is down")
            listener.conninfo = reachable
            assert _wait_for(client, 200).json() == OK
    finally:
        admin.dispose()


def _wait_for(client: TestClient, status: int, seconds: float = 10) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        answer = client.get("/readyz")
        if answer.status_code == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def test_a_sqlite_database_whose_folder_is_gone_is_not_ready(tmp_path: Path) -> None:
    """A SQLite file that cannot be opened (its folder gone): 503 naming ``database``."""
    url = f"sqlite:///{tmp_path / 'gone' / 'taletable.db'}"
    with TestClient(create_app(url, limits=TEST_LIMITS, migrate_schema=False)) as client:
        assert_not_ready(client.get("/readyz"), "database", "cannot be read right now")
        assert client.get("/healthz").json() == OK


@pytest.mark.postgresql
def test_a_database_that_hangs_is_not_ready_at_the_bound(postgresql_url: str) -> None:
    """Another session holds the schema's revision table locked (the probe's read waits for
    it): /readyz answers 503 at its 2 s bound, not after the wait; released, 200 again."""
    app = create_app(postgresql_url, limits=TEST_LIMITS)
    holder = create_engine(postgresql_url)
    try:
        with TestClient(app) as client:
            assert client.get("/readyz").json() == OK
            with holder.connect() as connection, connection.begin():
                connection.execute(text("LOCK TABLE alembic_version IN ACCESS EXCLUSIVE MODE"))
                started = time.monotonic()
                answer = client.get("/readyz")
                took = time.monotonic() - started
                assert_not_ready(answer, "database", "did not answer within 2 s")
                assert 1.9 < took < 4, took
            assert _wait_for(client, 200).json() == OK
    finally:
        holder.dispose()
