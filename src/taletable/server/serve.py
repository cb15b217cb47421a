"""`taletable serve`: run the live table (needs the ``server`` extra).

The command lives with the server it starts, so the CLI never imports the server: the CLI's
lazy command map names it (``taletable.server.serve:serve``) and loads it only when asked.
This module imports only click and the standard library at the top (``taletable.server``'s
``__init__`` is light), so ``taletable serve --help`` and ``taletable --help`` load no FastAPI
or SQLAlchemy, and a missing ``server`` extra is one line when the command runs."""

from __future__ import annotations

import contextlib
import errno
import logging.config
import os
import socket
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from taletable.errors import InputError

if TYPE_CHECKING:
    from taletable.server.settings import Settings

__all__ = ["not_installed", "open_error", "read_settings", "serve"]

#: On SIGTERM, once its drain's wait is over (``TALETABLE_DRAIN_SECONDS``), how long a worker
#: gives the requests in flight before it cancels them (its streams have ended already:
#: :mod:`taletable.server.drain`). A worker exits within the drain's wait and this, plus a
#: second for the rest of its shutdown: 3 + 5 + 1 = 9 s by default.
GRACE_SECONDS = 5


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--database",
    default=None,
    help="SQLAlchemy URL (default $TALETABLE_DATABASE_URL, else sqlite:///taletable.db here), "
    "e.g. postgresql+psycopg://user@host/db.",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes (PostgreSQL only above 1).",
)
@click.option(
    "--sample",
    is_flag=True,
    help="Have a sample table ready (made once, with the sample characters of both editions) "
    "and print its narrator's link and join code.",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default=None,
    help="The log's lines on stderr: plain text with timestamps, or JSON lines (default "
    "$TALETABLE_LOG_FORMAT, else text).",
)
def serve(
    host: str, port: int, database: str | None, workers: int, sample: bool, log_format: str | None
) -> None:
    """Serve the live table: its pages, the JSON API, the event stream and the log."""
    given = (("database_url",) if database else ()) + (("log_format",) if log_format else ())
    settings = read_settings(overridden=given)
    url = database or settings.database_url
    if workers > 1 and url.startswith("sqlite"):
        raise InputError(
            "--workers", "SQLite serves one worker; use --workers 1 or a PostgreSQL --database"
        )
    _check_address(host, port)
    if settings.opentelemetry:
        _check_opentelemetry()
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from taletable.server.db import Database, migrate
        from taletable.server.logs import SERVE_LOGGER, log_config
    except ImportError as error:
        raise not_installed(error) from None
    try:
        migrate(Database(url))
    except InputError:  # a schema newer than this build: what to do, in one line
        raise
    except Exception as error:  # a database that cannot be reached or migrated: one line
        raise open_error(url, error) from None
    os.environ["TALETABLE_DATABASE_URL"] = url
    base = f"http://{host}:{port}"
    if sample:
        _print_sample(url, base)
    logging_config = log_config("json" if (log_format or settings.log_format) == "json" else "text")
    logging.config.dictConfig(logging_config)  # this process's lines; uvicorn's workers' too
    shown = make_url(url).render_as_string(hide_password=True)  # no password in the log
    logging.getLogger(SERVE_LOGGER).info("taletable: serving %s (database %s)", base, shown)
    with _metrics_folder(settings, workers):
        uvicorn.run(
            "taletable.server.app:app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            log_config=logging_config,
            access_log=False,  # taletable's own (server/access.py), with request ids, no secrets
            timeout_graceful_shutdown=GRACE_SECONDS,
            # uvicorn's own default believes 127.0.0.1's X-Forwarded-For: given explicitly
            proxy_headers=bool(settings.trusted_proxies),
            forwarded_allow_ips=",".join(settings.trusted_proxies),
            root_path=settings.root_path,
        )


@contextlib.contextmanager
def _metrics_folder(settings: Settings, workers: int) -> Iterator[None]:
    """With metrics on and several workers, a new empty folder for prometheus-client's
    multiprocess mode (unless the operator names one), removed when the server stops."""
    from taletable.server.metrics import MULTIPROCESS_DIR

    if not settings.metrics_allow or workers == 1 or os.environ.get(MULTIPROCESS_DIR):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="taletable-metrics-") as folder:
        os.environ[MULTIPROCESS_DIR] = folder
        try:
            yield
        finally:
            del os.environ[MULTIPROCESS_DIR]


def not_installed(error: ImportError) -> InputError:
    """The one line for a missing ``server`` extra."""
    return InputError(
        "serve", f"the server is not installed ({error.name}); pip install 'taletable[server]'"
    )


def open_error(url: str, error: Exception) -> InputError:
    """The one line for a database that cannot be opened (``--database``)."""
    return InputError("--database", f"cannot open {url}: {error}".splitlines()[0])


def read_settings(overridden: tuple[str, ...]) -> Settings:
    """The server's settings, read once, before any work: a bad ``TALETABLE_*`` variable is one
    line naming it (exit 2), and the workers then read the same environment (``overridden``:
    the settings an option gives instead)."""
    try:
        from taletable.server.settings import Settings
    except ImportError as error:
        raise not_installed(error) from None
    return Settings.from_environment(overridden)


def _check_opentelemetry() -> None:
    """With ``TALETABLE_OPENTELEMETRY=on``, refuse to start without the exporter installed
    (one line, exit 2), rather than fail in every worker's start."""
    try:
        import opentelemetry.exporter.otlp.proto.http
        import opentelemetry.sdk  # noqa: F401
    except ImportError:
        raise InputError(
            "TALETABLE_OPENTELEMETRY",
            "on, but OpenTelemetry's SDK and OTLP exporter are not installed; "
            "pip install 'taletable[opentelemetry]', or unset it",
        ) from None


def _check_address(host: str, port: int) -> None:
    """Refuse, before any work, an address this machine cannot listen on (one line, exit 2)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError, ValueError) as error:
        raise InputError(
            "--host",
            f"{host!r} is not an address of this machine ({error})",
            expected="e.g. --host 127.0.0.1 or --host 0.0.0.0",
        ) from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            field = "--port" if error.errno in (errno.EADDRINUSE, errno.EACCES) else "--host"
            raise InputError(
                field,
                f"cannot listen on {host}:{port} ({error.strerror})",
                expected="another --port, or --host 127.0.0.1",
            ) from None


def _print_sample(url: str, base: str) -> None:
    """Make (once) and seat the sample table; print its links."""
    from taletable.server.pages.start import join_link, narrator_link
    from taletable.server.sample import seat_sample

    table_id, token, code, added = seat_sample(url)
    if added:
        click.echo(f"taletable: made the sample table with {', '.join(added)}")
    click.echo(f"narrator's link (open it first): {narrator_link(base, table_id, token)}")
    click.echo(f"players' join link:              {join_link(base, table_id, code)}")
    click.echo(f"join code:                       {code}")
