"""The error answers every route documents in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["ERRORS", "ErrorBody"]


class ErrorDetail(BaseModel):
    field: str | None
    message: str


class ErrorBody(BaseModel):
    """Every 4xx: ``{"error": {"field", "message"}}`` (409 adds ``version``)."""

    error: ErrorDetail
    version: int | None = None


_ANSWER: dict[str, Any] = {"model": ErrorBody}
ERRORS: dict[int | str, dict[str, Any]] = {
    status: _ANSWER for status in (401, 403, 404, 409, 413, 422, 429)
}
