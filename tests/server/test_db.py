"""The database layer: a pooled PostgreSQL connection that the server dropped while it sat
idle is replaced before a request uses it (no pre-ping on every checkout of a busy pool)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from taletable.server import db
from taletable.server.db import Database


@pytest.mark.postgresql
def test_a_connection_dropped_while_idle_is_replaced(
    postgresql_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's one connection is terminated by PostgreSQL between two reads; the second
    read still answers, on a new connection."""
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.0)
    database = Database(postgresql_url)
    try:
        with database.read() as connection:
            first = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
        admin = create_engine(postgresql_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as other:
            other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        admin.dispose()
        with database.read() as connection:
            second = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
        assert second != first
    finally:
        database.dispose()
