"""Health and readiness for the operator's load balancer or orchestrator.

``GET /healthz``: the process answers (200 ``{"status": "ok"}``), nothing else is asked.
``GET /readyz``: this worker can serve (:mod:`taletable.server.health`): 200
``{"status": "ok"}``, else 503 ``{"status": "unavailable", "error": {"field", "message"}}``
with ``Retry-After``. Neither takes a seat, so neither is rate-limited; neither says anything
secret. They are left out of the OpenAPI document (they are the operator's, not the tables'
API) and documented in the README's "Operations".
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from taletable.server.errors import DATABASE_RETRY_SECONDS, error_body
from taletable.server.health import NotReady
from taletable.server.world import world_of

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

_OK = {"status": "ok"}
#: Why a worker told to stop is not ready (:mod:`taletable.server.drain`).
DRAINING = "this worker is stopping (SIGTERM): send new requests to another"


@router.get("/healthz")
async def healthz() -> JSONResponse:
    """The process is up and answering."""
    return JSONResponse(_OK)


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """The database answers within the bound and (PostgreSQL) this worker's LISTEN is up, and
    the worker is not stopping."""
    world = world_of(request)
    if world.hub.draining:
        problem: NotReady | None = NotReady("server", DRAINING)
    else:
        problem = await world.readiness.problem(world.listener)
    if problem is None:
        return JSONResponse(_OK)
    return JSONResponse(
        {"status": "unavailable", **error_body(problem.field, problem.message)},
        status_code=503,
        headers={"Retry-After": str(DATABASE_RETRY_SECONDS)},
    )
