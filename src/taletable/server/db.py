"""The live table's database: engines for SQLite and PostgreSQL, transactions, migrations.

SQLite (the embedded default) runs in WAL mode with foreign keys on; a write transaction
starts with ``BEGIN IMMEDIATE`` so two writers queue for the lock instead of failing halfway.
PostgreSQL (hosted, several workers) takes a row lock on the table before each write
(:func:`taletable.server.log.lock_table`). Both: a write is one transaction, all or nothing.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

from alembic import command
from sqlalchemy import Connection, Engine, create_engine, event, exc, text
from sqlalchemy.engine import make_url

from taletable.server.revisions import Revision, alembic_config, pending
from taletable.server.settings import DEFAULT_DATABASE_URL

__all__ = ["DATABASE_VARIABLE", "Database", "default_url", "is_unavailable", "migrate"]

#: The environment variable naming the database when ``--database`` is not given.
DATABASE_VARIABLE = "TALETABLE_DATABASE_URL"
#: How long a SQLite writer waits for another's lock before giving up (seconds; the default of
#: ``TALETABLE_SQLITE_BUSY_SECONDS``).
SQLITE_BUSY_SECONDS = 30.0
#: What SQLite says when another connection holds the lock past the busy timeout.
_SQLITE_BUSY = ("database is locked", "database is busy", "database table is locked")
#: A number PostgreSQL's advisory lock uses so two workers never migrate at once.
_MIGRATION_LOCK = 7_243_511


def default_url() -> str:
    """The SQLite file ``taletable.db`` in the current folder."""
    return DEFAULT_DATABASE_URL


def is_unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached or is busy right now (a retry
    shortly may succeed: 503), not that the request or the code is wrong (a bug: 500).

    Unavailable: the pool's timeout; a connection SQLAlchemy found dropped
    (``connection_invalidated``); an ``InterfaceError`` (the driver's connection is closed);
    PostgreSQL's ``OperationalError`` (cannot connect, terminated, shutting down, deadlock or
    serialization failure); SQLite's ``OperationalError`` only when the database is locked or
    busy (SQLite also says "no such table" and syntax errors so, and those are bugs).
    Never an integrity or programming error."""
    if isinstance(error, exc.TimeoutError):
        return True
    if not isinstance(error, exc.DBAPIError):
        return False
    if error.connection_invalidated or isinstance(error, exc.InterfaceError):
        return True
    if not isinstance(error, exc.OperationalError):
        return False
    if type(error.orig).__module__.startswith("sqlite3"):
        text_ = str(error.orig).lower()
        return any(busy in text_ for busy in _SQLITE_BUSY)
    return True


def _sqlite_engine(url: str, busy_seconds: float) -> Engine:
    # LIFO: the connection used last is used next, so its page cache is current (with FIFO each
    # write took the pooled connection idle longest, whose cache another's writes had made
    # stale: SQLite read the table's pages again, eight reads per action)
    engine = create_engine(
        url,
        connect_args={"timeout": busy_seconds, "check_same_thread": False},
        pool_use_lifo=True,
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


#: A pooled PostgreSQL connection idle longer than this is tested before use (seconds).
IDLE_PING_SECONDS = 10.0


def _ping_when_idle(engine: Engine) -> None:
    """Test a pooled connection before use only when it has been idle a while: a busy server
    spends no round trip per checkout (``pool_pre_ping`` would), and a connection the database
    dropped while idle (a restart) is replaced before a request sees it. A connection that
    fails at any other time is invalidated by SQLAlchemy when it raises, and the pool makes a
    new one for the next request."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since < IDLE_PING_SECONDS:
            return
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            dbapi_connection.rollback()
        except Exception as error:  # the pool retries with a new connection
            raise exc.DisconnectionError(str(error)) from error


def _writing(connection: Connection) -> Connection:
    """``connection``, its next transaction a write (``BEGIN IMMEDIATE`` on SQLite)."""
    return connection.execution_options(taletable_write=True)


class Database:
    """One database: an engine, and transactions for reading and for writing."""

    def __init__(self, url: str, *, busy_seconds: float = SQLITE_BUSY_SECONDS) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.is_postgresql = self.url.get_backend_name() == "postgresql"
        self.busy_seconds = busy_seconds  # SQLite only: how long a writer waits for the lock
        self._table_locks: weakref.WeakValueDictionary[str, threading.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._locks_lock = threading.Lock()
        #: What never changes of a table once made (its name, system, rules...), by id, kept
        #: by :func:`taletable.server.log.lock_table` for the writes that follow.
        self.tables: dict[str, Any] = {}
        if self.is_sqlite:
            self.engine = _sqlite_engine(url, busy_seconds)
        else:
            # LIFO here too: the writes reuse the few connections used last, whose backends
            # have the statements prepared and the pages cached (PostgreSQL's CPU per action
            # 0.36-0.50 -> 0.32-0.35 ms at 1,100 actions/s, benchmarks/bench_server.py)
            self.engine = create_engine(url, pool_size=10, max_overflow=20, pool_use_lifo=True)
            _ping_when_idle(self.engine)

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction (a consistent snapshot of the log)."""
        with self.engine.connect() as connection, connection.begin():
            yield connection

    def table_lock(self, table_id: str) -> threading.Lock:
        """The lock this process's writers of ``table_id`` queue on before taking a connection:
        writes to one table are serial anyway (its row lock; SQLite's one writer), so waiting
        here holds no pooled connection and spins no busy handler. SQLite has one lock for
        every table (the database has one writer)."""
        key = "" if self.is_sqlite else table_id
        with self._locks_lock:
            lock = self._table_locks.get(key)
            if lock is None:
                lock = self._table_locks[key] = threading.Lock()
            return lock

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        # the option on this connection alone makes its BEGIN ``BEGIN IMMEDIATE`` (an engine
        # of options would join its listeners to the engine's at every statement: ~5% of an
        # action's instructions)
        with self.engine.connect() as connection, _writing(connection).begin():
            yield connection

    def listen_url(self) -> str:
        """The libpq address of a PostgreSQL database (for LISTEN)."""
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def dispose(self) -> None:
        self.engine.dispose()


def migrate(database: Database) -> list[Revision]:
    """Bring the schema up to the newest revision (Alembic), once even with many workers;
    return the migrations applied, oldest first. A database at a revision this build does not
    know (a newer taletable migrated it) is refused, untouched (InputError, ``database``)."""
    config = alembic_config()
    with database.write() as connection:
        if database.is_postgresql:
            connection.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
        applied = pending(connection)
        if applied:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    return applied
