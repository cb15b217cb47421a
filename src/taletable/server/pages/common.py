"""What every page route shares: the templates, answers to a browser without a seat, the
table's seats, errors as text."""

from __future__ import annotations

import inspect
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from sqlalchemy import select

from taletable.errors import TaletableError
from taletable.explain import render_data
from taletable.server.cookies import is_same_origin_or_htmx
from taletable.server.errors import DATABASE_ERRORS, ActionError, ApiError, database_unavailable
from taletable.server.links import link, root, route_path
from taletable.server.schema import SEATS
from taletable.server.session import CrossSitePost, NoSeat, TableSession

__all__ = [
    "NO_SEAT",
    "error_text",
    "fragment",
    "install",
    "page",
    "percent",
    "retry_after",
    "same_site_only",
    "seat_names",
    "seats_of",
    "take",
]

TEMPLATES = Environment(
    loader=PackageLoader("taletable.server", "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
#: ``{{ note | english }}``: a note (or a line saved before notes existed) in English.
TEMPLATES.filters["english"] = render_data
_BOOK_FILE = re.compile(r"\b\d{3} > ")
_RULING = re.compile(r'RULINGS\.md "([^"]+)"')


def plain_cite(cite: Any) -> str:
    """A citation as a person reads it: the book's sections without the rulebooks' file
    numbers (``002 > Attributes`` -> ``Attributes``), a ruling by its name."""
    return _RULING.sub(r'the ruling "\1"', _BOOK_FILE.sub("", str(cite)))


#: ``{{ cite | plain_cite }}``: beside a field or an option (``Rules applied`` keeps them whole).
TEMPLATES.filters["plain_cite"] = plain_cite
#: ``{{ root() }}/t/...``: every link of a page starts with the site's root path (:mod:`.links`).
TEMPLATES.globals["root"] = root


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


CROSS_SITE = (
    "This change was sent from another site (or not by this table's own page), so it was "
    "refused to keep your seat safe. Nothing was changed: open the table from its own link "
    "and try again there."
)
#: What a page answers while its database is unreachable or busy (the JSON API: 503).
RECONNECTING = "The table is reconnecting to its database; try again in a moment."
#: What a page of a table that is not here (never was, or deleted) answers.
NO_TABLE = "There is no such table here: check the link (its narrator may have deleted it)."
#: What a page's form or fragment answers a browser with no seat at its table.
NO_SEAT = "This browser has no seat at this table; join it first."


def retry_after(answer: HTMLResponse, error: ApiError) -> HTMLResponse:
    """``answer`` (a page saying ``error``) with the ``Retry-After`` of a 429 (RFC 9110
    10.2.3: whole seconds, at least one), as the API's answer has it."""
    wait = error.extra.get("retry_after")
    if error.status == 429 and wait is not None:
        answer.headers["Retry-After"] = str(max(1, round(float(wait) + 0.5)))
    return answer


def same_site_only(request: Request) -> None:
    """Refuse (:class:`CrossSitePost`: the page saying so, 403) a form post that would seat this
    browser (make a table, join one, recover the narrator's seat) unless the server's own page
    sent it: htmx's ``HX-Request`` or the server's own ``Origin``, the rule every change sent
    with a seat cookie is held to (:func:`~taletable.server.cookies.is_same_origin_or_htmx`).
    Another site's form would otherwise seat the browser as the seat it made or joined (a
    login CSRF: what the person then does is done as that seat). Checked before any work."""
    if not is_same_origin_or_htmx(request):
        raise CrossSitePost


def install(app: FastAPI) -> None:
    """Answer a refused cross-site change to a page in words, as a page (403), a browser
    with no seat at the table with the join page (a whole page) or a line (a fragment), and a
    database that is unreachable or busy with a line saying the table is reconnecting: 200 to
    htmx (which swaps no 5xx) and 503 to a whole page, both with ``Retry-After``; the JSON API
    keeps its 503 (:func:`~taletable.server.errors.database_unavailable`)."""

    async def _database(request: Request, error: Exception) -> Response:
        answer = database_unavailable(error)  # a bug is raised again; an outage is logged
        if route_path(request).startswith("/api/"):
            return answer
        if request.headers.get("HX-Request") == "true":
            reconnecting = message(error=RECONNECTING)
        else:
            reconnecting = page("_message.html", status=503, error=RECONNECTING)
        reconnecting.headers["Retry-After"] = answer.headers["Retry-After"]
        return reconnecting

    for kind in DATABASE_ERRORS:
        app.add_exception_handler(kind, _database)

    answer_json = app.exception_handlers[ApiError]

    @app.exception_handler(ApiError)
    async def _no_table(request: Request, error: ApiError) -> Response:
        if error.status == 404 and not route_path(request).startswith("/api/"):
            return page("notice.html", status=404, error=NO_TABLE)  # none, or deleted
        answered = answer_json(request, error)
        return await answered if inspect.isawaitable(answered) else answered

    @app.exception_handler(CrossSitePost)
    async def _cross_site(_request: Request, _error: CrossSitePost) -> HTMLResponse:
        return page("_message.html", status=403, error=CROSS_SITE)

    @app.exception_handler(NoSeat)
    async def _no_seat(_request: Request, error: NoSeat) -> Response:
        if error.join:
            return RedirectResponse(link(f"/join/{error.table_id}"), status_code=303)
        return message(error=NO_SEAT)


def seats_of(session: TableSession) -> list[Any]:
    """Every seat of the session's table (id, name, role), by name."""
    with session.world.database.read() as connection:
        return list(
            connection.execute(
                select(SEATS.c.id, SEATS.c.name, SEATS.c.role)
                .where(SEATS.c.table_id == session.table_id)
                .order_by(SEATS.c.name, SEATS.c.id)
            )
        )


def seat_names(session: TableSession) -> dict[str, str]:
    """Seat id -> name, for the log's "who"."""
    return {row.id: row.name for row in seats_of(session)}


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
#: Who sees a roll made from a page: a player may roll blind (the narrator alone sees the
#: result, the player that it was made); only the narrator may roll secret.
VISIBILITIES = ("public", "narrator", "blind")
_SHOWN = {
    "public": "everyone sees it",
    "narrator": "only you see it",
    "blind": "made blind (only the narrator sees the result)",
}
#: What a page says it did, for what is no roll.
_DONE = {"log.strike": "Struck", "cogent.combat.take-back": "Taken back"}


def take(session: TableSession, action: str, args: dict[str, Any], visibility: str) -> Response:
    """Take ``action`` from a page's form as the session's seat; one line says what was done
    (or, role=alert, why not)."""
    if visibility not in (VISIBILITIES if session.narrator else ("public", "blind")):
        return message(error="Only the narrator rolls secret: choose everyone or blind.")
    try:
        event = session.act(action, args, visibility)
    except PAGE_ERRORS as error:
        return message(error=error_text(error))
    shown = event.visibility  # a follow-up keeps its roll's
    done = _DONE.get(action, "Rolled")
    return message(text=f"{done} (#{event.seq}): {_SHOWN.get(shown, shown)} in the log.")


def percent(chance: Fraction) -> str:
    """``chance`` as a percentage to two places, halves rounded up (21/32 -> 65.63 %)."""
    exact = Decimal(chance.numerator) * 100 / Decimal(chance.denominator)
    return f"{exact.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)} %"
