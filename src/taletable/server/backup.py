"""A consistent copy of a live table's database, taken while it serves (``taletable backup``),
and the copy put back into a new database (``taletable restore``).

SQLite: the ``sqlite3`` online backup API copies one snapshot of the file (WAL lets the server
write meanwhile), the copy is checked (``PRAGMA quick_check``) and left as one file, in the
rollback-journal mode (no ``-wal`` beside it). PostgreSQL: ``pg_dump --format=custom`` (one
snapshot; ``pg_restore`` reads it back). Either way the copy is written to a new file beside
``DEST`` and only then given its name, which must be new: a backup never overwrites a file,
and a failed one leaves nothing behind.

A restore never writes over a database either: SQLite's goes to a file that does not exist
yet, PostgreSQL's (``pg_restore --single-transaction``) into a database that holds no tables
(``createdb`` a new one). The restored database is migrated when served, as any other.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from taletable.errors import InputError

__all__ = ["backup", "libpq_command", "new_file", "restore"]

#: How long the SQLite copy waits for a writer's lock (seconds), as the server's writers do.
SQLITE_WAIT_SECONDS = 30.0


def backup(url: str, dest: Path) -> str:
    """Copy the database of ``url`` to the new file ``dest``; say what was copied."""
    parsed = make_url(url)
    with new_file(dest) as partial:
        if parsed.get_backend_name() == "sqlite":
            _sqlite_backup(_sqlite_path(parsed), partial)
            return "SQLite online backup, checked"
        if parsed.get_backend_name() == "postgresql":
            pg_dump = _tool("pg_dump")
            _run([pg_dump, "--format=custom", f"--file={partial}"], parsed)
            return "pg_dump --format=custom (restore it with pg_restore)"
        raise InputError("--database", f"cannot back up a {parsed.get_backend_name()} database")


def restore(source: Path, url: str) -> str:
    """Put the backup ``source`` into the new database of ``url``; say how."""
    parsed = make_url(url)
    if not source.is_file():
        raise InputError("BACKUP", f"no backup at {source}; name the file taletable backup made")
    if parsed.get_backend_name() == "sqlite":
        target = _sqlite_target(parsed)
        with new_file(target, field="--database") as partial:
            _sqlite_backup(source, partial, field="BACKUP")
        return "SQLite online backup, checked"
    if parsed.get_backend_name() == "postgresql":
        pg_restore = _tool("pg_restore")
        _refuse_tables(url)
        options = ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
        _run([pg_restore, *options, str(source)], parsed)
        return "pg_restore, in one transaction"
    raise InputError("--database", f"cannot restore into a {parsed.get_backend_name()} database")


def _sqlite_target(url: URL) -> Path:
    """The new file a SQLite restore writes (refused if it or its journal exists)."""
    if url.database in (None, "", ":memory:"):
        raise InputError("--database", "name a SQLite file to restore into")
    path = Path(str(url.database))
    for taken in (path, path.with_name(f"{path.name}-wal")):
        if taken.exists():
            raise InputError(
                "--database",
                f"{taken} exists; restore into a new file (stop the server and move the old "
                "database and its -wal and -shm files away first)",
            )
    return path


def _refuse_tables(url: str) -> None:
    """Refuse a PostgreSQL database that holds any table: a restore goes into a new one."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            tables = connection.execute(
                text(
                    "SELECT count(*) FROM pg_catalog.pg_tables "
                    "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
                )
            ).scalar_one()
    finally:
        engine.dispose()
    if tables:
        raise InputError(
            "--database",
            f"the database holds {tables} tables; restore into a new, empty one "
            "(createdb NAME, then --database naming it)",
        )


@contextlib.contextmanager
def new_file(dest: Path, field: str = "DEST") -> Iterator[Path]:
    """A new, empty file beside ``dest`` to write into; named ``dest`` when the block ends
    (refused if ``dest`` exists by then), removed if it raises. Refused at once, before any
    work, when ``dest`` exists or its folder cannot be written."""
    if dest.exists() or dest.is_symlink():
        raise InputError(
            field, f"{dest} already exists; taletable never overwrites a file: name a new one"
        )
    partial = dest.with_name(f".{dest.name}.partial-{secrets.token_hex(4)}")
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as error:
        raise InputError(
            field,
            f"cannot write in {dest.parent} ({(error.strerror or str(error)).lower()}); name a "
            "file in a folder that exists and that you may write to",
        ) from None
    try:
        yield partial
        try:
            os.link(partial, dest)
        except FileExistsError:
            raise InputError(field, f"{dest} appeared meanwhile; name a new file") from None
    finally:
        partial.unlink(missing_ok=True)


def _sqlite_path(url: URL) -> Path:
    """The file of a SQLite URL, which must exist (SQLite would make an empty one)."""
    if url.database in (None, "", ":memory:"):
        raise InputError("--database", "an in-memory SQLite database has nothing to back up")
    path = Path(str(url.database))
    if not path.is_file():
        raise InputError("--database", f"no SQLite database at {path}; check --database")
    return path


def _sqlite_backup(source_path: Path, partial: Path, field: str = "--database") -> None:
    """One snapshot of ``source_path`` into ``partial``, checked, as a single file (a bad
    source is an InputError naming ``field``)."""
    source = sqlite3.connect(source_path, timeout=SQLITE_WAIT_SECONDS)
    target = sqlite3.connect(partial)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
        verdict = target.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":  # pragma: no cover - a copy that SQLite itself finds damaged
            raise InputError(field, f"the copy of {source_path} is damaged: {verdict}")
    except sqlite3.DatabaseError as error:
        raise InputError(field, f"cannot copy {source_path}: {error}") from None
    finally:
        target.close()
        source.close()


def _tool(name: str) -> str:
    """The path of one of PostgreSQL's client tools, or the one line saying to install it."""
    found = shutil.which(name)
    if found is None:
        raise InputError(
            "--database",
            f"{name} is not on PATH; install PostgreSQL's client tools (the server's major "
            "version or newer: apt install postgresql-client)",
        )
    return found


def libpq_command(url: URL) -> tuple[str, dict[str, str]]:
    """The libpq address of a PostgreSQL URL, without its password, and the environment
    that carries the password (``PGPASSWORD``), so it never shows in a process list."""
    address = url.set(drivername="postgresql", password=None)
    environment = dict(os.environ)
    if url.password is not None:
        environment["PGPASSWORD"] = str(url.password)
    return address.render_as_string(hide_password=False), environment


def _run(command: list[str], url: URL) -> None:
    """Run a PostgreSQL client tool on ``url``'s database; its failure is one line."""
    address, environment = libpq_command(url)
    done = subprocess.run(
        [*command, "--no-password", f"--dbname={address}"],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        reason = said[0] if said else f"exit status {done.returncode}"
        raise InputError("--database", f"{Path(command[0]).name} failed: {reason}")
