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
=====================  ======  ==============================================================

A 500 is a bug; its answer has the same shape and no traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from taletable.errors import ConflictError, InputError, RulesError, TaletableError

__all__ = [
    "ApiError",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Unauthorized",
    "error_body",
    "install_error_handlers",
]

_log = logging.getLogger("taletable.server")
#: The answer to a body that is not JSON (or not UTF-8 at all).
NOT_JSON = "the body is not JSON in UTF-8; send a JSON document"


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
    async def _bug(_request: Request, error: Exception) -> JSONResponse:  # pragma: no cover
        _log.exception("unhandled error (a bug)", exc_info=error)
        return JSONResponse(error_body(None, "internal error (a bug)"), status_code=500)
