"""Everyday dice rolls in standard notation (``d20``, ``3d8+5``, ``4d6kh3``, ``8d6>=4``)."""

from __future__ import annotations

from taletable.dice.notation import NotationResult, roll_notation
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.registry import action
from taletable.play.requests import Request

__all__ = ["RollRequest", "roll"]


class RollRequest(Request):
    """A roll of a notation, with the faces of physical dice if they were rolled at the table."""

    notation: str
    faces: Faces = None


@action("roll", RollRequest)
def roll(request: RollRequest, table: Table) -> Played[NotationResult]:
    """Roll dice in standard notation, every die from the table's dice or the given faces."""
    source = dice_for(table, request.faces)
    result = roll_notation(request.notation, source)
    finish(source)
    return Played(result, (Event(kind="roll", data={"notation": request.notation}),))
