"""The database's schema revision against this build's migrations (Alembic, ``migrations/``).

:func:`pending` lists what ``taletable migrate`` (and every start) would apply, oldest first;
a database at a revision this build does not know was migrated by a newer taletable, and is
refused (:func:`newer_than_this_build`) before anything touches it: an older build would
otherwise serve a schema it does not understand.
"""

from __future__ import annotations

import functools
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine
from sqlalchemy.engine import make_url

from taletable import __version__
from taletable.errors import InputError

__all__ = [
    "Revision",
    "alembic_config",
    "current",
    "head",
    "newer_than_this_build",
    "pending",
    "pending_at",
]


@dataclass(frozen=True)
class Revision:
    """One migration: its id (``0006``) and what it does (its docstring's first line)."""

    id: str
    what: str


def alembic_config() -> Config:
    """Alembic's configuration: the package's own migrations, no ``alembic.ini``."""
    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("taletable.server").joinpath("migrations"))
    )
    return config


@functools.cache
def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head() -> str:
    """The newest revision this build knows."""
    newest = _script().get_current_head()
    assert newest is not None  # the package ships its migrations
    return newest


def current(connection: Connection) -> str | None:
    """The revision the database is at (None: no schema yet)."""
    return MigrationContext.configure(connection).get_current_revision()


def pending(connection: Connection) -> list[Revision]:
    """The migrations the database lacks, oldest first; refused (InputError) when the
    database is at a revision this build does not know."""
    at = current(connection)
    script = _script()
    known = {migration.revision for migration in script.walk_revisions()}
    if at is not None and at not in known:
        raise newer_than_this_build(at)
    return pending_from(at)


def newer_than_this_build(at: str) -> InputError:
    """The one line for a database a newer build of taletable migrated."""
    return InputError(
        "database",
        f"its schema is at revision {at}, which this build of taletable ({__version__}, newest "
        f"revision {head()}) does not know: a newer taletable migrated it; run that newer "
        "build, or restore the backup taken before the upgrade (README: Operations)",
    )


def pending_at(url: str) -> tuple[str | None, list[Revision]]:
    """The revision the database of ``url`` is at and the migrations it lacks, read without
    changing anything: a SQLite file is opened read-only, and one that does not exist yet is
    not made (no schema: every migration is pending)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(str(parsed.database))
        if not path.exists():
            return None, pending_from(None)
        uri = f"{path.resolve().as_uri()}?mode=ro"
        engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True))
    else:
        engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return current(connection), pending(connection)
    finally:
        engine.dispose()


def pending_from(at: str | None) -> list[Revision]:
    """The migrations a database at revision ``at`` lacks (None: all of them), oldest first."""
    script = _script()
    newest_first = script.iterate_revisions(head(), at)
    return [
        Revision(migration.revision, " ".join((migration.doc or "").split("\n\n")[0].split()))
        for migration in reversed(list(newest_first))
    ]
