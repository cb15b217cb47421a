"""The live table's web application: :func:`create_app` makes it for one database."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from importlib import resources

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.types import Receive, Scope, Send

from taletable import __version__
from taletable.server.access import AccessLog
from taletable.server.db import SQLITE_BUSY_SECONDS, Database, default_url, migrate
from taletable.server.drain import Drain, RefuseWhileDraining
from taletable.server.errors import install_error_handlers
from taletable.server.headers import SecurityHeaders
from taletable.server.limits import IMPORT_PATH, BodyLimit, Limits
from taletable.server.listen import PostgresListener
from taletable.server.log import NOTIFY_CHANNEL
from taletable.server.metrics import MetricsAccess, worker_stopped
from taletable.server.settings import Settings
from taletable.server.stream import SERVER_SEND
from taletable.server.world import make_world

__all__ = ["TableApp", "app_from_environment", "create_app"]

DESCRIPTION = """The live table of taletable: seats, characters, actions rolled with the
server's checkable dice, and the table's hash-chained log as JSON and as a server-sent event
stream. Every error is a 4xx with `{"error": {"field", "message"}}`."""


class TableApp(FastAPI):
    """The FastAPI application, keeping the HTTP server's own ``send`` in each request's scope
    (``SERVER_SEND``), where an event stream sends its chunks once its start has gone through
    the middlewares (:class:`taletable.server.stream.EventStream`)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope[SERVER_SEND] = send
        await super().__call__(scope, receive, send)


def create_app(
    database_url: str | None = None,
    *,
    limits: Limits | None = None,
    migrate_schema: bool = True,
    sqlite_busy_seconds: float = SQLITE_BUSY_SECONDS,
    freeze_heap: bool = False,
    telemetry: bool = False,
    drain_seconds: float | None = None,
    metrics_allow: tuple[str, ...] = (),
) -> FastAPI:
    """The application serving the tables of ``database_url`` (SQLite or PostgreSQL); a SQLite
    write waits ``sqlite_busy_seconds`` for another's lock, then answers 503. ``freeze_heap``
    (a served worker's, the process its own): what start-up made is frozen out of the garbage
    collector's reach once the app has started. ``telemetry``: FastAPI's OpenTelemetry, sent
    where the ``OTEL_*`` variables say (:data:`OTLP_FROM_ENVIRONMENT`); off, it is not looked
    for at every request (~2% of an action's instructions). ``drain_seconds`` (a served
    worker's): on SIGTERM the worker drains (:mod:`taletable.server.drain`) and stops that much
    later; None takes no signal.
    ``metrics_allow``: the networks that may read ``/metrics`` (none: off;
    :mod:`taletable.server.metrics`)."""
    database = Database(database_url or default_url(), busy_seconds=sqlite_busy_seconds)
    if migrate_schema:
        migrate(database)
    world = make_world(database, limits or Limits.from_environment())
    hub = world.hub
    drain = Drain(hub, drain_seconds) if drain_seconds is not None else None

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.attach(asyncio.get_running_loop())
        if drain is not None:
            drain.install()
        await asyncio.to_thread(_warm_up)
        if freeze_heap:
            # what start-up made (modules, rules tables, schemas: most of the heap) is kept
            # out of the collector's reach: under load, with many requests in flight, its
            # collections of the older generations walked all of it (~6% of an action's
            # instructions at 32 in flight). Only for a worker of its own: in a process that
            # makes many apps (the tests), a frozen app's cycles would never be collected
            gc.collect()
            gc.freeze()
        listener = None
        if database.is_postgresql:
            listener = world.listener = PostgresListener(database.listen_url(), NOTIFY_CHANNEL, hub)
            await listener.start()
        try:
            yield
        finally:
            if drain is not None:
                drain.uninstall()
            if listener is not None:
                await listener.stop()
                world.listener = None
            database.dispose()
            worker_stopped()

    app = TableApp(
        title="taletable",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        telemetry=OTLP_FROM_ENVIRONMENT if telemetry else NO_TELEMETRY,
    )
    app.state.world = world
    world.metrics = MetricsAccess(metrics_allow)
    install_error_handlers(app)
    _include_routes(app)
    app.add_middleware(
        BodyLimit,
        max_body=world.limits.max_body,
        streamed={IMPORT_PATH: world.limits.max_import},
    )
    app.add_middleware(RefuseWhileDraining, hub=hub)
    app.add_middleware(SecurityHeaders)  # its headers go on the 413 and the 503 too
    app.add_middleware(AccessLog)  # the outermost: every answer logged, with its request id
    return app


#: FastAPI's telemetry, off (``TALETABLE_OPENTELEMETRY``, unset).
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
#: On: FastAPI's traces, metrics and logs, each sent by OTLP over HTTP where the standard
#: ``OTEL_*`` variables say (``OTEL_EXPORTER_OTLP_ENDPOINT`` or a signal's own endpoint), to
#: providers the process made already or, if none, made by FastAPI (its ``auto_configure``).
OTLP_FROM_ENVIRONMENT: TelemetryConfig = {"auto_configure": True}


def _warm_up() -> None:
    """Import every action now, so the table's first roll does not wait a second for them."""
    from taletable.play import all_actions

    all_actions()


def _include_routes(app: FastAPI) -> None:
    from taletable.server.routes import (
        actions,
        characters,
        events,
        health,
        metrics,
        restore,
        scenes,
        tables,
        transfer,
    )

    # the routes are matched in order: the busiest first (an action, a stream), even before
    # FastAPI's own (its API description and docs: four routes tried in vain), then scenes
    # and transfer before tables (/api/tables/import is not a table's id). The busiest are the
    # app's own routes, as they are (their paths are whole): an included router is matched, and its
    # route matched again, at every request (~2% of an action's instructions)
    app.router.routes[:0] = [*actions.router.routes, *events.router.routes]
    for module in (scenes, transfer, tables, characters, restore, health, metrics):
        app.include_router(module.router)
    from taletable.server.pages import routers
    from taletable.server.pages.common import install

    install(app)
    for router in routers():
        app.include_router(router)
    static = resources.files("taletable.server").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")


def app_from_environment() -> FastAPI:
    """The application for ``$TALETABLE_DATABASE_URL`` (what each uvicorn worker runs)."""
    settings = Settings.from_environment()  # the server's settings, read once per worker
    return create_app(
        settings.database_url,
        limits=Limits.from_settings(settings),
        sqlite_busy_seconds=settings.sqlite_busy_seconds,
        freeze_heap=True,
        telemetry=settings.opentelemetry,
        drain_seconds=settings.drain_seconds,
        metrics_allow=settings.metrics_allow,
    )
