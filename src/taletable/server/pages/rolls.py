"""The roll panel (a check, with its exact odds before the roll), other rolls, narrator tools.

Every form becomes the args of an action of :mod:`taletable.play`, taken through the API's own
:meth:`~taletable.server.session.TableSession.act`; the odds are the ``odds.cogent`` action
performed on a read of the table (no event: asking the odds changes nothing). The options
offered are the engine's: the destiny spends of the edition (``BEFORE_MODES``) and whether
it has the narrator's Advantage (``has_narrator_advantage``).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.server.log import TableHead
from taletable.server.owners import character_owners
from taletable.server.pages.characters import character_list, sheet_of
from taletable.server.pages.common import (
    PAGE_ERRORS,
    VISIBILITIES,
    error_text,
    fragment,
    message,
    percent,
    render,
    seat_names,
    take,
)
from taletable.server.pages.present import present
from taletable.server.permissions import acts_for, may_roll_with
from taletable.server.routes import scenes
from taletable.server.session import PageSession, TableSession, free_table

__all__ = ["roll_characters", "roll_panel_context", "router"]

router = APIRouter(include_in_schema=False)

#: The actions the pages' small forms may take (the roll panel's check has its own route).
PAGE_ACTIONS = (
    "roll",
    "cogent.conflict",
    "table.roll",
    "cogent.weather",
    "cogent.encounter",
    "cogent.npc.bestiary",
    "cogent.npc.new",
    "cogent.destiny-after",
    "log.strike",
)
#: The narrator's tools: each answers with its result, shown beside its form.
TOOLS = (
    "table.roll",
    "cogent.weather",
    "cogent.encounter",
    "cogent.npc.bestiary",
    "cogent.npc.new",
)
#: Form fields that are not args of the action.
NOT_ARGS = ("action", "visibility", "mode")


def roll_characters(session: TableSession) -> list[dict[str, Any]]:
    """The characters this seat may roll with (``permissions.may_roll_with``), its own first,
    each with its owner's name (``owner``: None for the seat's own)."""
    with session.world.database.read() as connection:
        owners = character_owners(connection, session.table_id)
    names = seat_names(session)
    seat = session.seat
    mine, others = [], []
    for row in character_list(session):
        owner = owners.get(row["id"])
        if not may_roll_with(seat, owner):
            continue
        if owner == seat.id or (seat.narrator and owner is None):
            mine.append({**row, "owner": None})
        else:
            others.append({**row, "owner": names.get(str(owner), "the narrator")})
    return mine + others


def roll_panel_context(
    session: TableSession, head: TableHead, character: str | None, skill: str | None = None
) -> dict[str, Any]:
    """What the roll panel offers: the characters the seat may roll with (its own first), the
    chosen one's skills (``skill`` preselected), the edition's options."""
    from taletable.systems.cogent.character.pools import pool_names
    from taletable.systems.cogent.checks import has_narrator_advantage
    from taletable.systems.cogent.destiny import BEFORE_MODES
    from taletable.systems.cogent.narrator import SEASONS
    from taletable.systems.cogent.rules import Rules

    edition = head.edition or "core"
    skills: list[str] = []
    characters = roll_characters(session)
    ids = [row["id"] for row in characters]
    chosen = character if character in ids else (ids[0] if ids else None)
    if chosen is not None:
        sheet = sheet_of(session, chosen)
        if sheet is not None:
            edition, skills = sheet.edition, pool_names(sheet)
    rules = Rules(edition=edition)
    return {
        "characters": characters,
        "random_tables": _random_tables(),
        "seasons": SEASONS,
        "edition": edition,
        "chosen": chosen,
        "skills": skills,
        "chosen_skill": skill if skill in skills else None,
        "before_modes": BEFORE_MODES[edition],
        "narrator_advantage": has_narrator_advantage(rules),
        "visibilities": VISIBILITIES,
    }


def _random_tables() -> list[Any]:
    """The random tables the table may roll on (``table.list``: name, die, title), picked from
    a list by their titles."""
    from taletable.play import perform

    listing = perform("table.list", {}, free_table()).result
    return sorted(listing.tables, key=lambda row: row.title.casefold())


def check_args(form: Mapping[str, Any]) -> dict[str, Any]:
    """The args of ``cogent.check`` / ``odds.cogent`` from the roll panel's fields."""
    wanted = ("pool",) if form.get("mode") == "pool" else ("character", "skill")
    names = (*wanted, "cl", "destiny_before", "destiny_after", "advantage", "disadvantage", "faces")
    args = {name: str(form[name]).strip() for name in names if str(form.get(name, "")).strip()}
    if args.get("destiny_after") == "0":
        del args["destiny_after"]
    return args


@router.get("/t/{table_id}/roll-options", response_class=HTMLResponse)
def roll_options(session: PageSession, character: str = "") -> Response:
    """The skills and options of the chosen character (the panel swaps them in)."""
    response = fragment(
        "_roll_options.html", **roll_panel_context(session, session.head(), character)
    )
    response.headers["HX-Trigger"] = "options-changed"
    return response


@router.get("/t/{table_id}/roll-characters", response_class=HTMLResponse)
def roll_character_list(session: PageSession, character: str = "") -> Response:
    """The roll panel's character list as the table holds it now (on ``sse:characters``: an
    import, a new character), the one chosen kept; when it is gone (or none was), the skills
    and options of the one now chosen come along."""
    head = session.head()
    context = roll_panel_context(session, head, character or None)
    first = not character and context["chosen"] is not None  # the seat's first character
    html = render("_roll_character.html", head=head, first_character=first, **context)
    changed = context["chosen"] != (character or None)
    if changed:
        html += render("_roll_options.html", oob=True, **context)
    response = HTMLResponse(html)
    if changed:
        response.headers["HX-Trigger"] = "options-changed"
    return response


@router.get("/t/{table_id}/odds", response_class=HTMLResponse)
def odds(request: Request, session: PageSession) -> Response:
    """The exact chance the check as set up passes, before it is rolled (``odds.cogent``)."""
    args = check_args(request.query_params)
    if "cl" not in args:
        return fragment("_odds.html", hint="Set a CL to see the chance of success.")
    try:
        result = session.ask("odds.cogent", args).result
    except PAGE_ERRORS as error:
        return fragment("_odds.html", error=error_text(error))
    chance = Fraction(result.odds.p_pass)
    return fragment(
        "_odds.html",
        percent=percent(chance),
        fraction=str(chance),
        odds=result.odds,
        character_pool="character" in args,
        breakdown=result.breakdown or (),
        notes=result.rules_applied,  # why the sheet's pool lost dice (its injuries)
    )


@router.post("/t/{table_id}/roll", response_class=HTMLResponse)
async def roll(request: Request, session: PageSession) -> Response:
    """Roll the check the panel holds (``cogent.check``)."""
    form = await request.form()
    visibility = str(form.get("visibility", "public"))
    return await asyncio.to_thread(take, session, "cogent.check", check_args(form), visibility)


@router.post("/t/{table_id}/act", response_class=HTMLResponse)
async def act(request: Request, session: PageSession) -> Response:
    """Take one of the small forms' actions (dice notation, a conflict, the narrator's tables)."""
    form = await request.form()
    action = str(form.get("action", ""))
    if action not in PAGE_ACTIONS:
        return message(error=f"the pages do not take {action!r}")
    args = {
        name: str(value).strip()
        for name, value in form.items()
        if name not in NOT_ARGS and str(value).strip()
    }
    if action == "cogent.npc.new":  # kept at the table, to drop into a fight
        args["out"] = f"npc-{secrets.token_hex(4)}"
    visibility = str(form.get("visibility", "public"))
    if action in TOOLS:
        return await asyncio.to_thread(tool_result, session, action, args, visibility)
    return await asyncio.to_thread(take, session, action, args, visibility)


def tool_result(
    session: TableSession, action: str, args: dict[str, Any], visibility: str
) -> Response:
    """Take a narrator's tool; its result as its log entry says it, for the place beside the
    tool's form (the log has it too, for those who may see it)."""
    if not (session.narrator and visibility in VISIBILITIES):
        visibility = "public"
    try:
        event = session.act(action, args, visibility)
    except PAGE_ERRORS as error:
        return fragment("_tool_result.html", error=error_text(error))
    shown = {"public": "everyone sees it", "narrator": "only you see it"}
    entry = present(event, seat_names(session))
    kept = event.visibility
    return fragment("_tool_result.html", e=entry, shown=shown.get(kept, kept))


@router.get("/t/{table_id}/payers", response_class=HTMLResponse)
def payers(session: PageSession, seq: int = 0) -> Response:
    """Whose sheet may pay for destiny spent after roll ``seq``, made with a typed pool: the
    characters this seat acts for (:func:`~taletable.server.permissions.acts_for`)."""
    characters = character_list(session)
    with session.reading() as reading:
        keys = acts_for(reading.connection, session.table_id, session.seat,
                        [c["id"] for c in characters])  # fmt: skip
    return fragment("_payers.html", payers=[c for c in characters if c["id"] in keys], seq=seq)


@router.post("/t/{table_id}/scene", response_class=HTMLResponse)
def next_scene(session: PageSession) -> Response:
    """The scene button: close the scene (its seed is revealed in the log), open the next."""
    if not session.narrator:
        return message(error="Only the table's narrator may close a scene.")
    opened = scenes.next_scene(session)
    text = f"Scene {opened.closed} closed, its seed revealed; scene {opened.scene} is open."
    return message(text=text)
