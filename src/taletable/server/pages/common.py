"""What every page route shares: the templates, the seat of the cookie, errors as text."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from sqlalchemy import select

from taletable.errors import TaletableError
from taletable.explain import render_data
from taletable.server.auth import Seat, seat_of
from taletable.server.cookies import cookie_token, is_same_origin_or_htmx
from taletable.server.errors import ActionError, ApiError
from taletable.server.schema import SEATS

__all__ = [
    "CrossSitePost",
    "error_text",
    "fragment",
    "install",
    "page",
    "seat_names",
    "seat_or_none",
    "seats_of",
]

TEMPLATES = Environment(
    loader=PackageLoader("taletable.server", "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
#: ``{{ note | english }}``: a note (or a line saved before notes existed) in English.
TEMPLATES.filters["english"] = render_data


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


class CrossSitePost(Exception):
    """A change to a page sent by another site (or without the page's own header): refused
    with a page that says so (:func:`install`), never taken as the seat's."""


CROSS_SITE = (
    "This change was sent from another site (or not by this table's own page), so it was "
    "refused to keep your seat safe. Nothing was changed: open the table from its own link "
    "and try again there."
)


def seat_or_none(request: Request, table_id: str) -> Seat | None:
    """The seat this browser's cookie holds at ``table_id``, or None; a change the CSRF check
    refuses raises :class:`CrossSitePost`."""
    try:
        return seat_of(request, table_id, None)
    except ApiError:
        if cookie_token(request, table_id) and not is_same_origin_or_htmx(request):
            raise CrossSitePost from None
        return None


def install(app: FastAPI) -> None:
    """Answer a refused cross-site change to a page in words, as a page (403)."""

    @app.exception_handler(CrossSitePost)
    async def _cross_site(_request: Request, _error: CrossSitePost) -> HTMLResponse:
        return page("_message.html", status=403, error=CROSS_SITE)


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
