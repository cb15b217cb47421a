"""Start a table (its links and codes shown once), the narrator's link, a new join code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from taletable.errors import TaletableError
from taletable.files import parse_structured
from taletable.server.codes import narrator_token
from taletable.server.cookies import (
    is_table_id,
    read_shown_once,
    set_seat_cookie,
    show_once,
)
from taletable.server.errors import ApiError
from taletable.server.links import link
from taletable.server.pages.common import (
    error_text,
    fragment,
    message,
    page,
    retry_after,
    same_site_only,
)
from taletable.server.routes import tables
from taletable.server.routes.tables import JoinCode, NewTable
from taletable.server.session import PageSession, seat_of_table
from taletable.server.table_rules import (
    BOONS_OPTIONS,
    OPTIONS,
    SYSTEM_NAMES,
    house_rule_tables,
)
from taletable.server.world import world_of

__all__ = ["SYSTEMS", "join_link", "narrator_link", "not_found", "router"]

router = APIRouter(include_in_schema=False)

#: The most text of house rules the Start page takes (the tables of a whole rulebook fit).
MAX_HOUSE_TEXT = 500_000

SYSTEMS = tuple(SYSTEM_NAMES.items())


def narrator_link(base: str, table_id: str, token: str) -> str:
    """The link that seats a browser as the table's narrator (it holds the token)."""
    return f"{base.rstrip('/')}/t/{table_id}/enter?token={token}"


def join_link(base: str, table_id: str, code: str) -> str:
    """The link players open to join, with the code filled in."""
    return f"{base.rstrip('/')}/join/{table_id}?code={code}"


def _start_page(status: int = 200, **context: Any) -> HTMLResponse:
    return page(
        "start.html",
        status=status,
        systems=SYSTEMS,
        options=OPTIONS,
        boons_options=BOONS_OPTIONS,
        tables=house_rule_tables(),
        **{"form": {}, **context},
    )


@router.get("/", response_class=HTMLResponse)
def start_page(system: str = "cogent") -> HTMLResponse:
    """The start page: make a table, with its system's options (``?system=boons`` opens it
    with that system chosen; a Cogent table's edition, rule options and house rules show only
    for Cogent)."""
    chosen = system if system in dict(SYSTEMS) else "cogent"
    return _start_page(form={"system": chosen})


def _house_rules(text: str) -> dict[str, Any]:
    """The pasted house rules: a YAML mapping of rules-table keys to their tables."""
    if not text.strip():
        return {}
    try:
        data = parse_structured(text, source="house rules")
    except TaletableError as error:
        raise ApiError("house_rules", str(error)) from None
    if not isinstance(data, dict):
        raise ApiError("house_rules", "a mapping of rules tables (cogent/weapons.yaml: ...)")
    return data


def _chosen_rules(submitted: Mapping[str, Any], system: str = "cogent") -> dict[str, bool]:
    """The rule options of ``system`` the form sets apart from their defaults: with the page's
    Cogent boxes shown (each pre-checked as its rule's default), an unchecked box turns its rule
    off; a form without them (``rules_shown`` missing) switches on only the boxes it sends (a
    boons table's one option is off by default, so its box is sent only to switch it on)."""
    shown = submitted.get("rules_shown") == "true" and system == "cogent"
    offered = OPTIONS if system == "cogent" else BOONS_OPTIONS if system == "boons" else {}
    rules = {}
    for name, rule in offered.items():
        checked = submitted.get(f"rule_{name}") == "true"
        if checked != rule.default and (shown or checked):
            rules[name] = checked
    return rules


@router.get("/start", response_class=HTMLResponse)
def start_page_again() -> HTMLResponse:
    """``/start`` asked for as a page (a reload, a bookmark): the start page."""
    return _start_page()


@router.post("/start", response_class=HTMLResponse)
async def start(
    request: Request,
    name: Annotated[str, Form()] = "",
    system: Annotated[str, Form()] = "cogent",
    edition: Annotated[str, Form()] = "core",
    physical_dice: Annotated[bool, Form()] = False,
    house_rules: Annotated[str, Form(max_length=MAX_HOUSE_TEXT)] = "",
) -> Response:
    """Make the table through the API's own function, seat the narrator, and send the browser
    to the page that shows the links (post/redirect/get: a reload makes no second table). A
    post from another site is refused (:func:`~taletable.server.pages.common.same_site_only`)."""
    same_site_only(request)
    submitted = await request.form()
    rules = _chosen_rules(submitted, system)
    form = {
        "name": name,
        "system": system,
        "edition": edition,
        "physical_dice": physical_dice,
        "rules": rules,
        "house_rules": house_rules,
    }
    cogent = system == "cogent"
    try:
        body = NewTable(
            name=name.strip(),
            system=system,
            edition=edition if cogent else None,
            physical_dice=physical_dice,
            rules=rules,
            house_rules=_house_rules(house_rules) if cogent else {},
        )
        made = tables.make_table(request, body)
    except ValidationError as error:
        problem = error.errors()[0]
        text = f"{'.'.join(map(str, problem['loc']))}: {problem['msg']}"
        return _start_page(422, form=form, error=text)
    except ApiError as error:
        return retry_after(_start_page(error.status, form=form, error=error_text(error)), error)
    response = RedirectResponse(link(f"/t/{made.id}/made"), status_code=303)
    set_seat_cookie(request, response, made.id, made.narrator_token)
    show_once(request, response, made.id, made.join_code, made.recovery_code)
    return response


@router.get("/t/{table_id}/made", response_class=HTMLResponse)
def made_page(request: Request, session: PageSession) -> HTMLResponse:
    """The links and codes of a table just made, for its narrator: the join code and the
    recovery code while :func:`~taletable.server.cookies.show_once` keeps them (15 minutes)."""
    if not session.narrator:
        return not_found(NOT_A_SEAT_LINK)
    base, head = str(request.base_url), session.head()
    shown = read_shown_once(request, session.table_id)
    join_code, recovery_code = [*shown, "", ""][:2]
    return page(
        "made.html",
        name=head.name,
        table_id=head.id,
        narrator_link=narrator_link(base, head.id, narrator_token(recovery_code))
        if recovery_code
        else "",
        join_link=join_link(base, head.id, join_code) if join_code else "",
        join_code=join_code,
        recovery_code=recovery_code,
    )


#: What a seat link that names no seat of its table answers (a link made by another site
#: would otherwise seat the browser as whoever made it).
NOT_A_SEAT_LINK = (
    "This link is not valid: it names no seat at this table. Nothing was changed; ask the "
    "table's narrator for the link again."
)
#: What a path naming no table can be answered with (its id holds what no id holds).
NO_SUCH_TABLE = "There is no such table here: check the link."


def not_found(text: str) -> HTMLResponse:
    """A whole page that says ``text`` (404)."""
    return page("notice.html", status=404, error=text)


@router.get("/t/{table_id}/enter")
async def enter(request: Request, table_id: str, token: str = "") -> Response:
    """The narrator's link: when the token names a seat of this table, keep it in this
    browser's cookie and open the table; otherwise say the link is not valid (no cookie)."""
    if not is_table_id(table_id):
        return not_found(NO_SUCH_TABLE)
    token = token.strip()
    if await seat_of_table(world_of(request), table_id, token) is None:
        return not_found(NOT_A_SEAT_LINK)
    response = RedirectResponse(link(f"/t/{table_id}"), status_code=303)
    set_seat_cookie(request, response, table_id, token)
    return response


@router.post("/t/{table_id}/join-code", response_class=HTMLResponse)
def new_join_code(request: Request, session: PageSession) -> Response:
    """The narrator's button: a new join code through the API's own function; shown once."""
    if not session.narrator:
        return message(error="Only the table's narrator may change the join code.")
    code = tables.change_join_code(session, JoinCode())["join_code"]
    link = join_link(str(request.base_url), session.table_id, code)
    return fragment("_join_code.html", join_code=code, join_link=link)
