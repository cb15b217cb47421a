"""The combat tracker: the table's current fight, live for every seat (002 > Combat).

The page shows the encounter as :func:`taletable.play.combat_view.encounter_view` gives it (the
line-up, pools as built, injuries, conditions, STR and armour left, who declares next in RFL
order, the victories waiting with the outcomes the engine allows, the log), the whole of it to
the narrator and, to a player or an observer, as of the fight's last public step with the
secret steps since only counted (:mod:`taletable.server.combat_views`), and refreshes it on
the table stream's ``combat`` message, which every ``cogent.combat.*`` event sends. Its forms
are the ``cogent.combat.*`` actions, taken by the seat's table session; who may act
for which fighter is the server's (:mod:`taletable.server.combat_seats`), so a form offered or
not is only a convenience: a refused action comes back as a message.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select

from taletable.log_entry import read_entry
from taletable.server.combat_seats import encounter_key, fighters_of
from taletable.server.combat_views import seen_fight
from taletable.server.log import fight_events
from taletable.server.pages.characters import character_list
from taletable.server.pages.common import (
    PAGE_ERRORS,
    error_text,
    fragment,
    message,
    page,
    seat_names,
    take,
)
from taletable.server.pages.present import present
from taletable.server.schema import EVENTS
from taletable.server.session import PageSession, PageSessionOrJoin, TableSession

if TYPE_CHECKING:
    from taletable.systems.cogent.combat import Encounter

__all__ = ["current_encounter", "fight_view", "fighter_names", "router"]

router = APIRouter(include_in_schema=False)


def _encounter(data: Mapping[str, Any] | None) -> Encounter | None:
    """The encounter a public combat event logged, read back (None: none, or unreadable)."""
    from taletable.play.results import read_result
    from taletable.systems.cogent.combat import Encounter

    record = read_result("cogent.combat.start", data) if data is not None else None
    return record if isinstance(record, Encounter) else None


#: The bestiary rows the start form offers.
BESTIARY_ROWS = 3


def current_encounter(connection: Any, table_id: str) -> str | None:
    """The key of the table's newest fight (the last public ``cogent.combat.start``)."""
    started = _current_start(connection, table_id)
    return started[1] if started is not None else None


def _current_start(connection: Any, table_id: str) -> tuple[int, str] | None:
    """The seq of the newest fight's public start and the fight's key."""
    row = connection.execute(
        select(EVENTS.c.seq, EVENTS.c.event)
        .where(
            EVENTS.c.table_id == table_id,
            EVENTS.c.kind == "cogent.combat.start",
            EVENTS.c.visibility == "public",
        )
        .order_by(EVENTS.c.seq.desc())
        .limit(1)
    ).first()
    if row is None:
        return None
    args = read_entry(row.event).args
    key = next((args[name] for name in ("encounter", "file", "out", "key") if args.get(name)), None)
    return (int(row.seq), str(key)) if key else None


#: The most of a fight's steps its log on the tracker shows (the newest).
FIGHT_LOG = 300


def _fight_log(
    session: TableSession, connection: Any, key: str, names: Mapping[str, str]
) -> list[Any]:
    """The fight's steps as the table's log shows them to this seat (the same filter, the same
    entries: dice with the winning ones marked, a stalemate said), oldest first."""
    started = _current_start(connection, session.table_id)
    if started is None:
        return []
    seat = session.seat
    rows = fight_events(
        connection, session.table_id, seat=seat.id, narrator=seat.narrator,
        after=started[0] - 1, limit=FIGHT_LOG,
    )  # fmt: skip
    entries = [read_entry(text) for _seq, text in rows]
    return [present(entry, names) for entry in entries if encounter_key(entry.args) == key]


def fight_view(session: TableSession, *, with_log: bool = True) -> dict[str, Any]:
    """What the tracker shows this seat: the fight as this seat may see it (its secret steps
    are the narrator's: :mod:`taletable.server.combat_views`), or why none, and whom it acts
    for; read at the table's own rules (its edition, options and house rules: the fight
    replays with them)."""
    from taletable.play.combat_view import encounter_view
    from taletable.play.encounters import read_encounter

    seat = session.seat
    names = seat_names(session) if with_log else {}
    with session.reading() as reading:
        head = reading.head
        key = current_encounter(reading.connection, session.table_id)
        if key is None:
            return {"head": head, "seat": seat, "fight": None}
        try:
            stored = read_encounter(reading.table, key)
            if stored.ended:  # the newest fight has ended: none is in progress
                return {"head": head, "seat": seat, "fight": None, "ended": stored.encounter.name}
            whole = stored.encounter
            seen = seen_fight(reading.connection, session.table_id, seat, key, whole.to_data())
            shown = whole if seat.narrator else _encounter(seen.encounter)
            fight = encounter_view(shown) if shown is not None else None
        except PAGE_ERRORS as error:
            return {"head": head, "seat": seat, "fight": None, "error": error_text(error)}
        if fight is None:
            return {"head": head, "seat": seat, "fight": None}
        fight["secret_steps"] = seen.secret_steps
        fight["entries"] = _fight_log(session, reading.connection, key, names) if names else []
        mine = fighters_of(reading.connection, session.table_id, seat, key)
    ids = [fighter["id"] for fighter in fight["fighters"]]
    acts_for = ids if mine is None else [ident for ident in ids if ident in mine]
    fight["names"] = fighter_names(fight["fighters"])
    return {"head": head, "seat": seat, "fight": fight, "key": key, "acts_for": acts_for}


def fighter_names(fighters: list[dict[str, Any]]) -> dict[str, str]:
    """Each fighter's id -> the name a person reads: its sheet's name, with its id after it
    where two fighters share a name (two goblins)."""
    count: dict[str, int] = {}
    for fighter in fighters:
        count[fighter["name"]] = count.get(fighter["name"], 0) + 1
    return {
        f["id"]: f["name"] if f["name"] and count[f["name"]] == 1 else f"{f['name']} ({f['id']})"
        for f in fighters
    }


@router.get("/t/{table_id}/combat", response_class=HTMLResponse)
def combat_page(session: PageSessionOrJoin) -> Response:
    """The tracker page: the fight, the forms this seat may use, and (narrator) a new fight."""
    from taletable.play.combat_view import bestiary_names

    view = fight_view(session)
    starting: dict[str, Any] = {}
    if session.narrator and view["head"].system == "cogent":
        starting = {
            "characters": character_list(session),
            "bestiary": bestiary_names(),
            "npcs": table_npcs(session),
            "rows": range(1, BESTIARY_ROWS + 1),
            "options": start_options(),
        }
    return page("combat.html", **view, **starting)


@router.get("/t/{table_id}/combat/view", response_class=HTMLResponse)
def combat_fragment(session: PageSession) -> Response:
    """The tracker alone, fetched again whenever a combat event lands."""
    return fragment("_combat.html", **fight_view(session))


@router.get("/t/{table_id}/combat/card", response_class=HTMLResponse)
def combat_card(session: PageSession) -> Response:
    """The table page's card of the fight in progress (whose turn, what this seat must do
    next), fetched again whenever a combat event lands; empty when there is no fight. The
    narrator's has the button that ends it, and the fights left without an ending."""
    return fragment("_combat_card.html", **card_view(session))


def card_view(session: TableSession) -> dict[str, Any]:
    """What the fight card shows this seat (:func:`fight_view`), and to the narrator the
    fights started and never ended (:func:`~taletable.server.pages.fight_ends.abandoned`)."""
    from taletable.server.pages.fight_ends import abandoned

    view = fight_view(session, with_log=False)
    if session.narrator:
        view["abandoned"] = abandoned(session, view.get("key"))
    return view


#: A start-form creature that is one of the table's NPCs (``npc new`` at the table), not the
#: bestiary's.
TABLE_NPC = "table:"


def table_npcs(session: TableSession) -> list[tuple[str, str]]:
    """The table's own NPCs (statblocks made at the table): (key, name), by name."""
    with session.reading() as reading:
        store = reading.store
        found = [
            (key, str(store.read("statblock", key).data.get("name", key)))
            for key in store.keys("statblock")
        ]
    return sorted(found, key=lambda pair: pair[1])


def _slug(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "fighter"
    ident, n = base, 1
    while ident in taken:
        n += 1
        ident = f"{base}-{n}"
    taken.add(ident)
    return ident


def fighters_from(form: Mapping[str, Any], characters: list[dict[str, Any]]) -> list[str]:
    """``ID:SIDE:REF`` of each character given a side, and of each bestiary row filled."""
    taken: set[str] = set()
    fighters = []
    for character in characters:
        side = str(form.get(f"side-{character['id']}", "")).strip()
        if side:
            fighters.append(f"{_slug(character['name'], taken)}:{side}:{character['id']}")
    for row in range(1, BESTIARY_ROWS + 1):
        creature = str(form.get(f"creature-{row}", "")).strip()
        side = str(form.get(f"creature-side-{row}", "")).strip()
        count = str(form.get(f"creature-count-{row}", "1")).strip()
        if creature and side:
            kept = creature.removeprefix(TABLE_NPC)  # the table's own NPC, by its key
            reference = kept if creature.startswith(TABLE_NPC) else f"@{creature}"
            for _ in range(max(1, min(10, int(count) if count.isdigit() else 1))):
                fighters.append(f"{_slug(kept, taken)}:{side}:{reference}")
    return fighters


@router.post("/t/{table_id}/combat/start", response_class=HTMLResponse)
async def combat_start(request: Request, session: PageSession) -> Response:
    """Start a fight with the chosen characters and creatures (the narrator's)."""
    form = await request.form()
    return await asyncio.to_thread(_combat_start, session, form)


def _combat_start(session: TableSession, form: Any) -> Response:
    fighters = fighters_from(form, character_list(session))
    name = str(form.get("name", "")).strip() or "a fight"
    key = f"fight-{secrets.token_hex(4)}"
    args: dict[str, Any] = {"encounter": key, "name": name, "fighters": fighters}
    args.update(_args(form, ("faces",)))
    args.update({name: True for name in START_OPTIONS if form.get(name)})
    answer = take(session, "cogent.combat.start", args, "public")
    if b'role="alert"' not in answer.body:
        return message(text=f"{name} has started: {len(fighters)} fighters, shown above.")
    return answer


#: The rule switches the start form offers for one fight (the table's own options hold too).
START_OPTIONS = ("hardcore_armour", "hardcore_weapons", "hardcore_ranged", "no_scale_clamp")


def start_options() -> list[tuple[str, str]]:
    """Each switch of the start form and its label, as the request (and ``combat start
    --help``) takes it from ``Rules``."""
    from taletable.play.combat import CombatStartRequest
    from taletable.play.requests import label_of

    return [(name, label_of(CombatStartRequest, name)) for name in START_OPTIONS]


def _args(form: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {name: str(form[name]).strip() for name in names if str(form.get(name, "")).strip()}


#: Each step's form fields, passed on as the action's args.
STEPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "declare": ("cogent.combat.declare", ("actor", "action", "target", "pool", "cl")),
    "resolve": ("cogent.combat.resolve", ("faces",)),
    "choose": ("cogent.combat.choose", ("victory", "outcome", "strength", "armour")),
    "destiny": ("cogent.combat.destiny", ("fighter", "points")),
    "condition": ("cogent.combat.condition", ("fighter", "rounds")),
    "take-back": ("cogent.combat.take-back", ()),
    "end": ("cogent.combat.end", ()),
}

#: What each step did, in words, for the message after it.
DONE = {
    "declare": "Declared",
    "resolve": "The round is rolled",
    "choose": "The outcome is chosen",
    "destiny": "Destiny is spent",
    "condition": "The condition is applied",
    "take-back": "The fight's last step is taken back",
    "end": "The fight has ended, its injuries written on the sheets",
}


def _step_args(step: str, form: Mapping[str, Any]) -> dict[str, Any]:
    """The form's args for the step's action (a condition is set, or cleared)."""
    args = _args(form, STEPS[step][1])
    state = str(form.get("condition", "")).strip()
    if step == "condition" and state:
        args["clear" if form.get("what") == "clear" else "condition"] = state
    return args


@router.post("/t/{table_id}/combat/{step}", response_class=HTMLResponse)
async def combat_step(request: Request, session: PageSession, step: str) -> Response:
    """Declare, resolve, choose or spend destiny in the table's current fight."""
    form = await request.form()
    if step not in STEPS:
        return message(error=f"the tracker has no step {step!r}")
    return await asyncio.to_thread(_combat_step, session, step, form)


def _combat_step(session: TableSession, step: str, form: Any) -> Response:
    with session.reading() as reading:
        key = current_encounter(reading.connection, session.table_id)
    if step == "end" and str(form.get("encounter", "")).strip():  # a fight left unended
        key = str(form["encounter"]).strip()
    if key is None:
        return message(error="There is no fight at this table; the narrator starts one.")
    args = {"encounter": key, **_step_args(step, form)}
    answer = take(session, STEPS[step][0], args, "public")
    if b'role="alert"' not in answer.body:
        return message(text=f"{DONE[step]}: everyone's tracker moves with it.")
    return answer
