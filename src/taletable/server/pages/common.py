"""What every page route shares: the templates, the seat of the cookie, errors as text."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from sqlalchemy import select

from taletable.errors import TaletableError
from taletable.server.auth import Seat, seat_of
from taletable.server.errors import ActionError, ApiError
from taletable.server.schema import SEATS

__all__ = ["error_text", "fragment", "page", "seat_names", "seat_or_none", "seats_of"]

TEMPLATES = Environment(
    loader=PackageLoader("taletable.server", "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(template: str, **context: Any) -> str:
    """The template rendered with ``context``."""
    return TEMPLATES.get_template(template).render(**context)


def page(template: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    """A whole page."""
    return HTMLResponse(render(template, **context), status_code=status)


def fragment(template: str, **context: Any) -> HTMLResponse:
    """A piece of a page, for htmx to swap in."""
    return HTMLResponse(render(template, **context))


def message(*, error: str = "", text: str = "") -> HTMLResponse:
    """A one-line answer to a form: what went wrong (role=alert) or what was done."""
    return fragment("_message.html", error=error, message=text)


def seat_or_none(request: Request, table_id: str) -> Seat | None:
    """The seat this browser's cookie holds at ``table_id``, or None."""
    try:
        return seat_of(request, table_id, None)
    except ApiError:
        return None


def seats_of(request: Request, table_id: str) -> list[Any]:
    """Every seat of the table (id, name, role), by name."""
    with request.app.state.database.read() as connection:
        return list(
            connection.execute(
                select(SEATS.c.id, SEATS.c.name, SEATS.c.role)
                .where(SEATS.c.table_id == table_id)
                .order_by(SEATS.c.name, SEATS.c.id)
            )
        )


def seat_names(request: Request, table_id: str) -> dict[str, str]:
    """Seat id -> name, for the log's "who"."""
    return {row.id: row.name for row in seats_of(request, table_id)}


def error_text(error: Exception) -> str:
    """The one line (or the list of problems) a person reads for ``error``."""
    if isinstance(error, ApiError):
        problems = error.extra.get("problems")
        if problems:
            return "; ".join(f"{p.get('found')} ({p.get('rule')})" for p in problems)
        return error.message
    if isinstance(error, ActionError):
        return str(error.error)
    return str(error)


PAGE_ERRORS = (ApiError, ActionError, TaletableError)
