"""``GET /metrics``: the server's metrics for Prometheus (:mod:`taletable.server.metrics`).

404 while ``TALETABLE_METRICS_ALLOW`` is unset (off), 403 naming the field ``address`` to an
address it does not list. Left out of the OpenAPI document (the operator's, not the tables'
API) and documented in the README's "Operations".
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from taletable.server.errors import error_body
from taletable.server.metrics import exposition
from taletable.server.world import world_of

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The metrics in the Prometheus text format, to an allowed address."""
    access = world_of(request).metrics
    if not access.on:
        return JSONResponse(
            error_body(None, "metrics are off on this server (TALETABLE_METRICS_ALLOW unset)"),
            status_code=404,
        )
    host = request.client.host if request.client else None
    if not access.allows(host):
        return JSONResponse(
            error_body(
                "address",
                f"{host} may not read the metrics; add it to TALETABLE_METRICS_ALLOW",
            ),
            status_code=403,
        )
    body, kind = await asyncio.to_thread(exposition)  # a worker's files read off the loop
    return Response(body, media_type=kind)
