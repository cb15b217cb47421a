"""The live table's database: engines for SQLite and PostgreSQL, transactions, migrations.

SQLite (the embedded default) runs in WAL mode with foreign keys on; a write transaction
starts with ``BEGIN IMMEDIATE`` so two writers queue for the lock instead of failing halfway.
PostgreSQL (hosted, several workers) takes a row lock on the table before each write
(:func:`taletable.server.log.lock_table`). Both: a write is one transaction, all or nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url

__all__ = ["DATABASE_VARIABLE", "Database", "default_url", "migrate"]

#: The environment variable naming the database when ``--database`` is not given.
DATABASE_VARIABLE = "TALETABLE_DATABASE_URL"
#: How long a SQLite writer waits for another's lock before giving up (seconds).
SQLITE_BUSY_SECONDS = 30.0
#: A number PostgreSQL's advisory lock uses so two workers never migrate at once.
_MIGRATION_LOCK = 7_243_511


def default_url() -> str:
    """The SQLite file ``taletable.db`` in the current folder."""
    return "sqlite:///taletable.db"


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(
        url, connect_args={"timeout": SQLITE_BUSY_SECONDS, "check_same_thread": False}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy issues BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("taletable_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


class Database:
    """One database: an engine, and transactions for reading and for writing."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.is_postgresql = self.url.get_backend_name() == "postgresql"
        if self.is_sqlite:
            self.engine = _sqlite_engine(url)
        else:
            self.engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction (a consistent snapshot of the log)."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        with self.engine.connect() as connection:
            connection = connection.execution_options(taletable_write=True)
            with connection.begin():
                yield connection

    def listen_url(self) -> str:
        """The libpq address of a PostgreSQL database (for LISTEN)."""
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def dispose(self) -> None:
        self.engine.dispose()


def migrate(database: Database) -> None:
    """Bring the schema up to the newest revision (Alembic), once even with many workers."""
    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("taletable.server").joinpath("migrations"))
    )
    with database.write() as connection:
        if database.is_postgresql:
            connection.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
