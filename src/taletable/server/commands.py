"""`taletable backup`, `restore`, `migrate`, `delete-table` and `prune`: the operator's
commands (need the ``server`` extra).

Like ``serve`` (:mod:`taletable.server.serve`), these live with the server and are named by
the CLI's lazy map; this module imports only click and the standard library at the top, so
``taletable --help`` loads no SQLAlchemy or Alembic. Each takes the database as ``--database``
or ``TALETABLE_DATABASE_URL`` (the server's settings, read and checked as ``serve`` reads
them), and each bad input is one line and exit 2, with nothing changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from taletable.errors import InputError
from taletable.server.serve import not_installed, open_error, read_settings

__all__ = ["MOST_IDLE_DAYS", "backup", "delete_table", "migrate", "prune", "restore"]

#: The most days ``prune --idle-days`` takes (a hundred years).
MOST_IDLE_DAYS = 36_500
_DATABASE_HELP = (
    "SQLAlchemy URL (default $TALETABLE_DATABASE_URL, else sqlite:///taletable.db here), "
    "e.g. postgresql+psycopg://user@host/db."
)


def database_url(database: str | None) -> str:
    """``--database``, else the server's setting (``TALETABLE_DATABASE_URL`` or the default)."""
    settings = read_settings(overridden=("database_url",) if database else ())
    return database or settings.database_url


def shown(url: str) -> str:
    """``url`` as printed: its password hidden."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL at all: shown as given (it holds no password to hide)
        return url


@click.command("migrate")
@click.option("--database", default=None, help=_DATABASE_HELP)
@click.option("--dry-run", is_flag=True, help="List the pending migrations; change nothing.")
def migrate(database: str | None, dry_run: bool) -> None:
    """Apply the database's pending migrations (serve applies them at start too; back up first)."""
    url = database_url(database)
    try:
        from taletable.server.db import Database
        from taletable.server.db import migrate as apply
        from taletable.server.revisions import head, pending_at
    except ImportError as error:
        raise not_installed(error) from None
    try:
        if dry_run:
            at, todo = pending_at(url)
        else:
            opened = Database(url)
            try:
                todo = apply(opened)
            finally:
                opened.dispose()
    except InputError:  # a schema newer than this build: what to do, in one line
        raise
    except Exception as error:  # not a database, or one that cannot be reached: one line
        raise open_error(shown(url), error) from None
    for revision in todo:
        click.echo(f"{'pending' if dry_run else 'applied'} {revision.id}: {revision.what}")
    if dry_run:
        where = f"at revision {at}" if at else "without a schema yet"
        click.echo(f"{shown(url)} is {where}; {len(todo)} pending (newest {head()})")
    else:
        click.echo(f"{shown(url)} is at revision {head()}, the newest this build knows")


@click.command("backup")
@click.argument("dest", type=click.Path(dir_okay=True, path_type=Path))
@click.option("--database", default=None, help=_DATABASE_HELP)
def backup(dest: Path, database: str | None) -> None:
    """Copy the database to the new file DEST while it serves (SQLite: its online backup;
    PostgreSQL: pg_dump --format=custom, restored with pg_restore)."""
    url = database_url(database)
    try:
        from taletable.server.backup import backup as copy
    except ImportError as error:
        raise not_installed(error) from None
    try:
        how = copy(url, dest)
    except InputError:
        raise
    except Exception as error:  # not a database, or one that cannot be reached: one line
        raise open_error(shown(url), error) from None
    click.echo(f"backed up {shown(url)} to {dest} ({how})")


@click.command("restore")
@click.argument("backup_file", metavar="BACKUP", type=click.Path(path_type=Path))
@click.option("--database", default=None, help=_DATABASE_HELP)
def restore(backup_file: Path, database: str | None) -> None:
    """Put a backup into a new database (SQLite: a file that does not exist yet; PostgreSQL:
    an empty database), to serve instead of the old one."""
    url = database_url(database)
    try:
        from taletable.server.backup import restore as put_back
    except ImportError as error:
        raise not_installed(error) from None
    try:
        how = put_back(backup_file, url)
    except InputError:
        raise
    except Exception as error:  # a database that cannot be reached: one line
        raise open_error(shown(url), error) from None
    click.echo(f"restored {backup_file} into {shown(url)} ({how}); serve it to use it")


def _opened(url: str) -> Any:
    """The database of ``url``, which must be at this build's newest revision (else one line
    saying to migrate it, nothing changed, and a SQLite file that does not exist not made)."""
    try:
        from taletable.server.db import Database
        from taletable.server.revisions import pending_at
    except ImportError as error:
        raise not_installed(error) from None
    try:
        at, todo = pending_at(url)
    except InputError:
        raise
    except Exception as error:  # not a database, or one that cannot be reached: one line
        raise open_error(shown(url), error) from None
    if at is None or todo:
        where = f"at revision {at}" if at else "without a schema"
        raise InputError(
            "--database", f"{shown(url)} is {where}; run 'taletable migrate' on it first"
        )
    return Database(url)


@click.command("delete-table")
@click.argument("table_id", metavar="ID")
@click.option("--database", default=None, help=_DATABASE_HELP)
def delete_table(table_id: str, database: str | None) -> None:
    """Delete the table ID whole: every row of it, in one transaction (on PostgreSQL every
    worker serving it forgets it and ends its streams)."""
    try:
        from taletable.server.cookies import is_table_id
    except ImportError as error:
        raise not_installed(error) from None
    if not is_table_id(table_id):
        raise InputError("ID", f"{table_id[:80]!r} is no table's id (the id in its links /t/ID)")
    url = database_url(database)
    opened = _opened(url)
    try:
        from taletable.server.deletion import delete_table as delete
        from taletable.server.errors import NotFound

        try:
            rows = delete(opened, table_id) or {}
        except NotFound:
            raise InputError(
                "ID", f"no table {table_id} in {shown(url)}; nothing deleted"
            ) from None
    finally:
        opened.dispose()
    counted = ", ".join(f"{count} {name}" for name, count in rows.items())
    click.echo(f"deleted table {table_id} from {shown(url)} ({counted})")


@click.command("prune")
@click.option(
    "--idle-days",
    type=click.IntRange(1, MOST_IDLE_DAYS),
    required=True,
    help=f"Delete the tables nobody has used for this many days (a whole number, 1 to "
    f"{MOST_IDLE_DAYS}): no event written and no page open since.",
)
@click.option("--dry-run", is_flag=True, help="List the tables it would delete; delete none.")
@click.option("--database", default=None, help=_DATABASE_HELP)
def prune(idle_days: int, dry_run: bool, database: str | None) -> None:
    """Delete the tables nobody has used for --idle-days days, each whole, listing each."""
    url = database_url(database)
    opened = _opened(url)
    try:
        from taletable.server import deletion

        idle = deletion.idle_tables(opened, idle_days)
        done = idle if dry_run else deletion.prune(opened, idle)
    finally:
        opened.dispose()
    verb = "would delete" if dry_run else "deleted"
    for table in done:
        used = table.last_used.strftime("%Y-%m-%d %H:%M UTC")
        click.echo(f"{verb} table {table.id} {table.name!r} (last used {used})")
    click.echo(f"{len(done)} table(s) {verb}, idle for {idle_days} days or more, in {shown(url)}")
