"""Join a table: by its code alone (read aloud, typed in any case, spaces or dashes) or by the
join link; the page names the table and its game before the person joins. A name already
seated there is asked about (that person coming back takes the seat back with their recovery
code), never made a second seat by accident; the new seat's recovery code is shown once, on
the table's page (:func:`~taletable.server.cookies.show_seat_code`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from taletable.server.cookies import is_table_id, set_seat_cookie, show_seat_code
from taletable.server.errors import ApiError, Conflict
from taletable.server.links import link
from taletable.server.pages.common import error_text, page, retry_after, same_site_only
from taletable.server.pages.start import NO_SUCH_TABLE, SYSTEMS, not_found
from taletable.server.routes import tables
from taletable.server.routes.tables import Join, TablePreview

__all__ = ["router"]

router = APIRouter(include_in_schema=False)

#: What a code that opens no table is answered with.
NO_TABLE_FOR_CODE = (
    "No table here has this join code. Check it with your narrator (the code has nine "
    "letters and digits, such as KX7-M4Q-9PD); a narrator may have made a new one."
)


def _join_page(status: int = 200, **context: Any) -> HTMLResponse:
    return page("join.html", status=status, systems=dict(SYSTEMS), **context)


@router.get("/join", response_class=HTMLResponse)
def join_by_code(request: Request, code: str = "") -> Response:
    """The join page by code alone: the code finds its table (then the join page names it)."""
    if not code.strip():
        return _join_page(code="")
    try:
        found = tables.preview(request, None, code)
    except ApiError as error:
        return retry_after(_join_page(error.status, code=code, error=error_text(error)), error)
    if found is None:
        return _join_page(404, code=code, error=NO_TABLE_FOR_CODE)
    return _join_page(table=found, table_id=found.id, code=code)


@router.get("/join/{table_id}", response_class=HTMLResponse)
def join_page(request: Request, table_id: str, code: str = "") -> HTMLResponse:
    """The join form of one table (the join link fills in the code, and the page then names
    the table; a wrong code learns nothing of it)."""
    if not is_table_id(table_id):
        return not_found(NO_SUCH_TABLE)
    try:
        found = tables.preview(request, table_id, code) if code.strip() else None
    except ApiError as error:
        answer = _join_page(error.status, table_id=table_id, code=code, error=error_text(error))
        return retry_after(answer, error)
    return _join_page(table=found, table_id=table_id, code=code)


def _seen(request: Request, table_id: str, code: str) -> TablePreview | None:
    try:
        return tables.preview(request, table_id, code) if code.strip() else None
    except ApiError:
        return None


@router.post("/join/{table_id}", response_class=HTMLResponse)
def join(
    request: Request,
    table_id: str,
    code: Annotated[str, Form()] = "",
    name: Annotated[str, Form()] = "",
    role: Annotated[str, Form()] = "player",
    again: Annotated[bool, Form()] = False,
) -> Response:
    """Take a seat through the API's own function; keep its token in the cookie, and its
    recovery code for the table page to show once (a post from another site is refused:
    :func:`~taletable.server.pages.common.same_site_only`). A name already seated is a 409
    asking whether this is that person coming back, unless ``again`` (a new seat all the same)."""
    same_site_only(request)
    if not is_table_id(table_id):
        return not_found(NO_SUCH_TABLE)
    context = {"table_id": table_id, "code": code, "name": name, "role": role}
    try:
        body = Join(code=code.strip(), name=name.strip(), role=role)
        joined = tables.take_seat(request, table_id, body, new_name=not again)
    except Conflict as error:
        seated = str(error.extra.get("seated", name))
        return _join_page(409, error=error.message + ".", seated=seated,
                          table=_seen(request, table_id, code), **context)  # fmt: skip
    except ValidationError as error:
        problem = error.errors()[0]
        text = f"{'.'.join(map(str, problem['loc']))}: {problem['msg']}"
        return _join_page(422, error=text, table=_seen(request, table_id, code), **context)
    except ApiError as error:
        return retry_after(_join_page(error.status, error=error_text(error), **context), error)
    response = RedirectResponse(link(f"/t/{table_id}"), status_code=303)
    set_seat_cookie(request, response, table_id, joined.token)
    show_seat_code(request, response, table_id, joined.recovery_code)
    return response
