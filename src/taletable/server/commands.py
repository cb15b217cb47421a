"""`taletable migrate`: the operator's commands (need the ``server`` extra).

Like ``serve`` (:mod:`taletable.server.serve`), these live with the server and are named by
the CLI's lazy map; this module imports only click and the standard library at the top, so
``taletable --help`` loads no SQLAlchemy or Alembic. Each takes the database as ``--database``
or ``TALETABLE_DATABASE_URL`` (the server's settings, read and checked as ``serve`` reads
them), and each bad input is one line and exit 2, with nothing changed.
"""

from __future__ import annotations

import click

from taletable.errors import InputError
from taletable.server.serve import not_installed, open_error, read_settings

__all__ = ["migrate"]

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
