"""The database layer: a pooled PostgreSQL connection that the server dropped while it sat
idle is replaced before a request uses it (no pre-ping on every checkout of a busy pool); a
SQLite write takes the write lock at its begin; start-up's heap frozen for the collector."""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from taletable.server import create_app, db
from taletable.server.app import app_from_environment
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


def test_a_write_takes_sqlites_write_lock_at_its_begin(tmp_path: Path) -> None:
    """A write transaction begins ``BEGIN IMMEDIATE`` (the option is set on its connection):
    before it runs any statement, another writer is refused at once; a read takes no lock."""
    path = tmp_path / "locks.db"
    database = Database(f"sqlite:///{path}")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with database.read():
            other.execute("BEGIN IMMEDIATE")  # a read holds no write lock
            other.execute("ROLLBACK")
        with database.write(), pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        with database.read() as connection:  # the option stayed on the write's connection
            assert not connection.get_execution_options().get("taletable_write")
    finally:
        other.close()
        database.dispose()


def test_a_served_worker_freezes_what_start_up_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A served worker's app (``freeze_heap``, as ``app_from_environment`` makes it) freezes
    what start-up made out of the collector's reach; an app made in a process of many apps
    (the tests') freezes nothing."""
    gc.unfreeze()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plain.db'}")):
        assert gc.get_freeze_count() == 0
    monkeypatch.setenv("TALETABLE_DATABASE_URL", f"sqlite:///{tmp_path / 'gc.db'}")
    try:
        with TestClient(app_from_environment()):
            assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
