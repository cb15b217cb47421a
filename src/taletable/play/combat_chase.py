"""Chases (002 > Combat > Chases): opposed chase rolls from a distance, each side's pool from its
sheet (Athletics on foot, Ride/Pilot on a mount or in a vehicle) or a bare number, with assists,
until the target is caught, escapes, or the rolls asked for are made.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from taletable._model import Record
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.fighters import read_sheet
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.systems.cogent.combat.chases import CHASE_SKILLS, Chase, chase_pool, chase_round
from taletable.systems.cogent.pools import DicePool, pool_of

__all__ = ["ChaseRequest", "ChaseResult", "ChaseSide", "combat_chase"]

#: The most chase rolls one request makes.
MAX_CHASE_ROUNDS = 50
#: An assist's wins or a backfire's losses, either way (RULINGS.md "Chase assists").
MAX_ASSIST = 20
On = Literal["foot", "vehicle"]
#: A side as the API may send it: a pool as a JSON number is the same as its text.
Side = Annotated[str, BeforeValidator(lambda value: str(value) if type(value) is int else value)]
#: How a side moves, and so the skill it rolls (002 > Combat > Chases).
MOVING = "foot: Athletics; vehicle (a mount too): Ride/Pilot."


class ChaseRequest(Request):
    """A chase: the distance the narrator sets, each side as a sheet (``REF``: a stored character
    or statblock, ``@NAME``) or a bare pool (a number), how each moves, and assists."""

    distance: Literal["close", "medium", "long"] = described(
        text="The distance the narrator sets (or the chase has reached)."
    )
    pursuer: Side = described(
        text="The pursuer: a pool of N dice, or a sheet (FILE, statblock, @NAME) whose "
        "Athletics (on foot) or Ride/Pilot ({pursuer_on} vehicle) is rolled.", form="N|REF",
        min_length=1, max_length=4096,
    )  # fmt: skip
    target: Side = described(
        text="The fleeing side, likewise.", form="N|REF", min_length=1, max_length=4096
    )
    pursuer_on: On = described("foot", MOVING)
    target_on: On = described("foot", MOVING)
    pursuer_assist: int = described(
        0, "Wins an assist adds (negative: a backfire's losses; 002 > Assists).",
        ge=-MAX_ASSIST, le=MAX_ASSIST,
    )  # fmt: skip
    target_assist: int = described(
        0, "Wins an assist adds to the fleeing side (negative: losses).", ge=-MAX_ASSIST,
        le=MAX_ASSIST,
    )  # fmt: skip
    rounds: int = described(
        1, "Chase rolls to make (stops early when caught or escaped).", ge=1, le=MAX_CHASE_ROUNDS
    )
    faces: Faces = None


class ChaseSide(Record):
    """One side of the chase: who, the skill rolled, and its pool as built."""

    name: str
    skill: str
    pool: int
    breakdown: tuple[tuple[str, int], ...]
    assist: int


class ChaseResult(Chase):
    """The chase after its rolls (its distance, outcome, last margin, rolls and log) and who is
    caught, who escaped, or where it stands."""

    pursuer: ChaseSide
    target: ChaseSide
    #: The name of the side caught (the target), or that escaped; None while it goes on.
    caught: str | None
    escaped: str | None
    summary: str


def _side(table: Table, text: str, on: On, assist: int, field: str) -> tuple[ChaseSide, DicePool]:
    """A side's pool: a number is a bare pool; anything else names a sheet (002 > Chases)."""
    pool: DicePool
    if text.strip().lstrip("-").isdigit():
        pool, name, skill = pool_of(int(text), field=field), f"{field} ({text} dice)", "pool"
    else:
        sheet = read_sheet(table, text.strip(), field=field)
        pool, name, skill = chase_pool(sheet, on), sheet.identity.name, CHASE_SKILLS[on]
    side = ChaseSide(
        name=name,
        skill=skill,
        pool=pool.size,
        breakdown=tuple((c.source, c.dice) for c in pool.contributions),
        assist=assist,
    )
    return side, pool


@action("cogent.combat.chase", ChaseRequest)
def combat_chase(request: ChaseRequest, table: Table) -> Played[ChaseResult]:
    """Chase rolls from the narrator's distance until a catch, an escape, or the rolls asked for
    (002 > Combat > Chases: "If a pursuer wins the chase roll against the target at a close
    distance, the pursuer 'catches' those trying to flee")."""
    pursuer, pursuer_pool = _side(
        table, request.pursuer, request.pursuer_on, request.pursuer_assist, "pursuer"
    )
    target, target_pool = _side(
        table, request.target, request.target_on, request.target_assist, "target"
    )
    source = dice_for(table, request.faces)
    chase = Chase.model_validate({"distance": request.distance})
    for _ in range(request.rounds):
        chase = chase_round(
            chase,
            pursuer_pool,
            target_pool,
            source,
            pursuer_assist=request.pursuer_assist,
            target_assist=request.target_assist,
        )
        if chase.outcome is not None:
            break
    finish(source)
    caught = target.name if chase.outcome == "caught" else None
    escaped = target.name if chase.outcome == "escaped" else None
    if caught:
        summary = f"{target.name} caught by {pursuer.name}"
    elif escaped:
        summary = f"{target.name} escaped"
    else:
        summary = f"still on at {chase.distance} distance"
    result = ChaseResult(
        **chase.model_dump(), pursuer=pursuer, target=target, caught=caught, escaped=escaped,
        summary=summary,
    )  # fmt: skip
    return Played(result, (Event(kind="cogent.combat.chase", data={"outcome": chase.outcome}),))
