"""Every error the API answers: a 4xx with ``{"error": {"field": ..., "message": ...}}``.

=====================  ======  ==============================================================
error                  status  ``field``
=====================  ======  ==============================================================
InputError             422     the JSON path of the input (``args.cl``, ``sheet``)
RulesError             422     the input the rule refused (``args`` for an action)
DataError              422     what was read (``sheet``, ``args``)
ConflictError          409     ``version``; the body also carries ``"version": CURRENT``
request validation     422     the JSON path pydantic names (``name``, ``args``)
body not JSON          422     ``body`` (not UTF-8 JSON at all)
no or unknown token    401     ``authorization``
another table's token  403     ``authorization``
wrong join code        403     ``code``
no such thing          404     the path parameter
body too large         413     ``body`` (:mod:`taletable.server.limits`)
too many requests      429     ``authorization`` (:mod:`taletable.server.limits`)
database unreachable   503     ``database``, with ``Retry-After`` (:func:`database_unavailable`)
=====================  ======  ==============================================================

A 500 is a bug; its answer has the same shape and no traceback. A database that cannot be
reached or is busy (PostgreSQL restarting, SQLite locked past its busy timeout) is not a bug:
503: the request was not carried out (unless the connection was lost during the commit itself;
the log tells), and the same request may be sent again shortly (the pool replaces dropped
connections by itself). An integrity or programming error of the database stays a bug.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from taletable.errors import ConflictError, InputError, RulesError, TaletableError
from taletable.server.db import is_unavailable
from taletable.server.headers import security_headers
from taletable.server.metrics import DATABASE_FAILURES

__all__ = [
    "DATABASE_ERRORS",
    "ApiError",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Unauthorized",
    "database_unavailable",
    "error_body",
    "install_error_handlers",
]

_log = logging.getLogger("taletable.server")
#: The answer to a body that is not JSON (or not UTF-8 at all).
NOT_JSON = "the body is not JSON in UTF-8; send a JSON document"
#: The answer to a database that cannot be reached or is busy.
DATABASE_UNAVAILABLE = "the table's database is unreachable or busy right now; try again shortly"
#: Seconds a client waits before sending again to a database that was unreachable or busy.
DATABASE_RETRY_SECONDS = 2
#: The database's errors: :func:`is_unavailable` tells an outage (503) from a bug.
DATABASE_ERRORS: tuple[type[Exception], ...] = (exc.DBAPIError, exc.TimeoutError)


def error_body(field: str | None, message: str, **extra: Any) -> dict[str, Any]:
    """The JSON body of an error."""
    return {"error": {"field": field, "message": message}, **extra}


class ApiError(Exception):
    """An error the API answers with ``status``."""

    status = 422

    def __init__(self, field: str | None, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.extra = extra


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class Conflict(ApiError):
    status = 409


def _json_path(location: Sequence[Any]) -> str:
    parts = [str(part) for part in location if part not in ("body",)]
    return ".".join(parts) or "body"


def _prefix(prefix: str, field: str) -> str:
    return field if not prefix or field.startswith(prefix + ".") else f"{prefix}.{field}"


def taletable_error_response(error: TaletableError, *, prefix: str = "") -> JSONResponse:
    """The answer to an engine error; ``prefix`` places its field in the request (``args``)."""
    if isinstance(error, ConflictError):
        body = error_body("version", str(error), version=error.current)
        return JSONResponse(body, status_code=409)
    field: str | None = prefix or None
    if isinstance(error, InputError):
        name = error.field.lstrip("-").replace("-", "_")
        field = _prefix(prefix, name.lower() if name.isupper() else name)  # NOTATION: notation
        error = error.renamed(field, {name: _prefix(prefix, name) for name in error.mentions})
    elif isinstance(error, RulesError):
        error = error.renamed({name: _prefix(prefix, name) for name in error.mentions})
    return JSONResponse(error_body(field, str(error)), status_code=422)


class ActionError(Exception):
    """An engine error raised while handling the request part ``prefix`` (``args``, ``sheet``)."""

    def __init__(self, error: TaletableError, prefix: str, **extra: Any) -> None:
        super().__init__(str(error))
        self.error = error
        self.prefix = prefix
        self.extra = extra


def database_unavailable(error: Exception) -> JSONResponse:
    """The answer to a database that is unreachable or busy: 503, ``database``, Retry-After.
    ``error`` must be one (:func:`~taletable.server.db.is_unavailable`); anything else is a bug
    and is raised again, for the bug's answer."""
    if not is_unavailable(error):
        raise error
    DATABASE_FAILURES.inc()
    _log.warning("database unavailable: %s", str(error).splitlines()[0] if str(error) else error)
    return JSONResponse(
        error_body("database", DATABASE_UNAVAILABLE),
        status_code=503,
        headers={"Retry-After": str(DATABASE_RETRY_SECONDS)},
    )


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error in the one shape."""

    @app.exception_handler(ApiError)
    async def _api(_request: Request, error: ApiError) -> JSONResponse:
        wait = error.extra.get("retry_after")
        headers = {"Retry-After": str(max(1, round(wait + 0.5)))} if wait is not None else None
        return JSONResponse(
            error_body(error.field, error.message, **error.extra),
            status_code=error.status,
            headers=headers,
        )

    @app.exception_handler(ActionError)
    async def _action(_request: Request, error: ActionError) -> JSONResponse:
        return taletable_error_response(error.error, prefix=error.prefix)

    @app.exception_handler(TaletableError)
    async def _engine(_request: Request, error: TaletableError) -> JSONResponse:
        return taletable_error_response(error)

    async def _database(_request: Request, error: Exception) -> JSONResponse:
        return database_unavailable(error)

    for kind in DATABASE_ERRORS:
        app.add_exception_handler(kind, _database)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {"loc": ("body",), "msg": "invalid request"}
        if first.get("type") == "json_invalid":
            return JSONResponse(error_body("body", NOT_JSON), status_code=422)
        field = _json_path(first.get("loc", ("body",)))
        message = "; ".join(f"{_json_path(p.get('loc', ()))}: {p.get('msg')}" for p in problems)
        return JSONResponse(error_body(field, message or "invalid request"), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 400:  # FastAPI's answer to a body it cannot decode
            return JSONResponse(error_body("body", NOT_JSON), status_code=422)
        return JSONResponse(
            error_body(None, str(error.detail)),
            status_code=error.status_code,
            headers=getattr(error, "headers", None),
        )

    @app.exception_handler(Exception)
    async def _bug(request: Request, error: Exception) -> JSONResponse:
        # answered outside the application's middleware: the security headers come with it
        _log.exception("unhandled error (a bug)", exc_info=error)
        return JSONResponse(
            error_body(None, "internal error (a bug)"),
            status_code=500,
            headers=security_headers(request.url.path),
        )
