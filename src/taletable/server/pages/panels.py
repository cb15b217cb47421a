"""The roll panels besides the check: conflicts, assists, collaborations, boons and labcats.

Each panel is a form whose fields are the args of one action of :mod:`taletable.play` (its
roll) and of the ``odds.*`` action that gives its exact chance before the roll; the chance is
asked again whenever a field changes. The table's system (and a Cogent table's edition) picks
the panels; the faces of physical dice are offered only where the table allows them (and the
API refuses them anyway where it does not). Nothing here decides a rule: the odds and the roll
are the engine's, and so are their refusals.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.server.log import TableHead
from taletable.server.pages.common import PAGE_ERRORS, error_text, fragment, message, percent, take
from taletable.server.session import PageSession, TableSession

__all__ = ["Panel", "PanelField", "panels_for", "router"]

router = APIRouter(include_in_schema=False)

Chances = Callable[[Mapping[str, Any]], list[tuple[str, str]]]


@dataclass(frozen=True)
class PanelField:
    """A field of a panel: its arg in the roll (``roll``) and in the odds (``odds``)."""

    name: str
    label: str
    kind: str = "number"
    default: str = ""
    roll: str | None = None
    odds: str | None = None
    options: tuple[str, ...] = ()


def _both(
    name: str, label: str, default: str = "", kind: str = "number", **more: Any
) -> PanelField:
    return PanelField(name, label, kind, default, roll=name, odds=more.pop("odds", name), **more)


@dataclass(frozen=True)
class Panel:
    """A roll with its fields, its odds and the faces a person may enter for it."""

    name: str
    title: str
    action: str
    odds_action: str
    fields: tuple[PanelField, ...]
    chances: Chances
    faces: tuple[tuple[str, str], ...] = (("faces", "Faces of the physical dice"),)


def _nonzero(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(label, chance) for label, chance in rows if chance and Fraction(chance) != 0]


CONFLICT = Panel(
    "conflict", "Conflict (opposed)", "cogent.conflict", "odds.cogent.conflict",
    (_both("pool_a", "Side A's pool (dice)", "5"), _both("pool_b", "Side B's pool (dice)", "5"),
     _both("not_aware", "Side B is caught unawares (a tie is not rolled again)", kind="checkbox")),
    lambda data: _nonzero([("side A wins", data["p_a"]), ("side B wins", data["p_b"]),
                           ("a tie", data["p_tie"])]),
    (("faces_a", "Side A's faces"), ("faces_b", "Side B's faces")),
)  # fmt: skip
#: A core conflict also takes each side's destiny after the roll, a win a point (002 > Destiny
#: Points; the tiered edition's after-roll spends need a CL: RULINGS.md).
CORE_CONFLICT = replace(CONFLICT, fields=(
    *CONFLICT.fields,
    _both("destiny_after_a", "Side A's destiny after the roll (a win a point)", "0"),
    _both("destiny_after_b", "Side B's destiny after the roll (a win a point)", "0"),
))  # fmt: skip
CORE_ASSIST = Panel(
    "assist", "Assist (core)", "cogent.assist", "odds.cogent.assist",
    (PanelField("assist_pool", "The helper's pool", default="4", roll="pool", odds="assist_pool"),
     PanelField("assist_cl", "The assist's CL", default="3", roll="cl", odds="assist_cl"),
     _both("helpers", "More helpers (+1D6 each)", "0"),
     PanelField("pool", "The assisted check's pool (for the odds)", default="5", odds="pool"),
     PanelField("cl", "The assisted CL (for the odds)", default="4", odds="challenge_level")),
    lambda data: [("the check alone", data["p_pass_alone"]),
                  ("the check, assisted", data["p_pass"])],
)  # fmt: skip
TIERED_ASSIST = Panel(
    "assist", "Assist (tiered)", "cogent.assist", "odds.cogent",
    (_both("pool", "The helper's pool (dice)", "4"),
     _both("cl", "The assist's CL", "3", odds="challenge_level")),
    lambda data: [("the assist is a narrative success", data["p_pass"])],
)  # fmt: skip
COLLABORATION = Panel(
    "collaborate", "Collaboration (tiered)", "cogent.collaborate", "odds.cogent.collaborate",
    (_both("pools", "Each character's pool (4,5,3)", "4,4", kind="text"),
     _both("cl", "The individual CL", "2", odds="challenge_level")),
    lambda data: [("the group succeeds", data["p_pass"])],
)  # fmt: skip
BOONS_CHECK = Panel(
    "boons-check", "Boons check (3d8)", "boons.check", "odds.boons",
    (_both("bonus", "Bonus", "3"), _both("boons", "Boons", "0"), _both("banes", "Banes", "0"),
     _both("target", "Target", "15"),
     PanelField("situation", "Situation (optional: Let it Ride)", "text", roll="situation")),
    lambda data: [("the total reaches the target", data["p_pass"])],
)  # fmt: skip
BOONS_CONTEST = Panel(
    "boons-contest", "Boons contest (opposed)", "boons.contest", "odds.boons",
    (_both("a_bonus", "Side A's bonus", "3", odds="bonus"),
     _both("a_boons", "Side A's boons", "0", odds="boons"),
     _both("a_banes", "Side A's banes", "0", odds="banes"),
     _both("b_bonus", "Side B's bonus", "3", odds="against_bonus"),
     _both("b_boons", "Side B's boons", "0", odds="against_boons"),
     _both("b_banes", "Side B's banes", "0", odds="against_banes"),
     _both("defender", "Who defends (wins ties)", kind="select", options=("", "a", "b")),
     PanelField("situation", "Situation (optional: Let it Ride)", "text", roll="situation")),
    lambda data: _nonzero([("side A wins", data["contest"]["p_a"]),
                           ("side B wins", data["contest"]["p_b"]),
                           ("a stalemate", data["contest"]["p_stalemate"])]),
    (("faces_a", "Side A's faces"), ("faces_b", "Side B's faces")),
)  # fmt: skip
LABCATS = Panel(
    "labcats", "Labcats roll", "labcats.roll", "odds.labcats",
    (_both("pool", "The pool (d8,d6,d6)", "d8,d6,d6", kind="text"),
     _both("resources", "Resources (d6)", kind="text"),
     _both("add", "Plot points spent to add dice", "0"),
     PanelField("target", "The total to reach (for the odds)", default="8", odds="target")),
    lambda data: [("the total reaches the target", data["p_pass"])],
    (("faces", "Faces of the pool's dice"), ("resource_faces", "Faces of the resource dice")),
)  # fmt: skip

#: The panels each system shows (a Cogent table's by its edition).
PANELS: dict[tuple[str, str | None], tuple[Panel, ...]] = {
    ("cogent", "core"): (CORE_CONFLICT, CORE_ASSIST),
    ("cogent", "tiered"): (CONFLICT, TIERED_ASSIST, COLLABORATION),
    ("boons", None): (BOONS_CHECK, BOONS_CONTEST),
    ("labcats", None): (LABCATS,),
}


def panels_for(head: TableHead) -> tuple[Panel, ...]:
    """The panels of this table's system (and edition)."""
    edition = (head.edition or "core") if head.system == "cogent" else None
    return PANELS.get((head.system, edition), ())


def _panel(session: TableSession, name: str) -> tuple[TableHead, Panel | None]:
    head = session.head()
    return head, next((panel for panel in panels_for(head) if panel.name == name), None)


def _args(form: Mapping[str, Any], panel: Panel, which: str) -> dict[str, Any]:
    """The args of the panel's roll (``which="roll"``) or odds from its form."""
    args: dict[str, Any] = {}
    for field in panel.fields:
        target = getattr(field, which)
        value = str(form.get(field.name, "")).strip()
        if target is not None and value:
            args[target] = value
    if which == "roll":
        for name, _label in panel.faces:
            value = str(form.get(name, "")).strip()
            if value:
                args[name] = value
    return args


@router.get("/t/{table_id}/panel/{name}/odds", response_class=HTMLResponse)
def panel_odds(request: Request, session: PageSession, name: str) -> Response:
    """The exact chance of the panel's roll as set up, before it is rolled."""
    _head, panel = _panel(session, name)
    if panel is None:
        return fragment("_panel_odds.html", error=f"this table has no {name} panel")
    try:
        data = session.ask(panel.odds_action, _args(request.query_params, panel, "odds"))
        chances = panel.chances(data.to_data())
    except PAGE_ERRORS as error:
        return fragment("_panel_odds.html", error=error_text(error))
    shown = [(label, percent(Fraction(chance)), chance) for label, chance in chances]
    return fragment("_panel_odds.html", chances=shown)


@router.post("/t/{table_id}/panel/{name}", response_class=HTMLResponse)
async def panel_roll(request: Request, session: PageSession, name: str) -> Response:
    """Roll the panel's roll (the faces, if entered, are checked by the API like any)."""
    form = await request.form()
    _head, panel = await asyncio.to_thread(_panel, session, name)
    if panel is None:
        return message(error=f"this table has no {name} panel")
    visibility = str(form.get("visibility", "public"))
    args = _args(form, panel, "roll")
    return await asyncio.to_thread(take, session, panel.action, args, visibility)
