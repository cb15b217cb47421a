"""Follow-ups: destiny spent after a Cogent check that is already in a table's log.

The roll followed is never the person's to give: the shell that keeps the log (the live table)
reads the entry named by ``follows`` and passes it as ``roll`` (the roll as it stands after any
earlier follow-ups, who rolled it and who now spends). The rules decided here are the book's:
who may spend (their own roll), what (the edition's after-roll spends) and from which points
(the sheet's, as for the check).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.registry import action
from taletable.play.requests import Request
from taletable.play.results import read_result
from taletable.play.sheets import debit_destiny, read_character
from taletable.systems.cogent.checks import CheckResult
from taletable.systems.cogent.destiny import DestinyPurse, parse_after_modes, source_for
from taletable.systems.cogent.destiny_after import DestinyFollowUp, spend_after_roll

__all__ = ["FOLLOWED_ACTIONS", "DestinyAfterRequest", "FollowedRoll", "check_of", "destiny_after"]

#: The actions whose log entries a destiny follow-up may follow.
FOLLOWED_ACTIONS = ("cogent.check",)


class FollowedRoll(Record):
    """A logged roll, as the log's keeper read it: its action and args, its result as it
    stands now, the seat that rolled it and the seat that now spends."""

    action: str
    args: dict[str, Any]
    result: dict[str, Any]
    roller: str | None
    spender: str | None


class DestinyAfterRequest(Request):
    """Destiny spent after a logged check: the entry it follows and the spends."""

    follows: int = Field(ge=1)
    destiny_after: int | str | tuple[str, ...] = 1
    character: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Whose sheet the points come off, for a roll made with a typed pool",
    )
    destiny_points: int | None = Field(default=None, ge=0)
    faces: Faces = None
    roll: FollowedRoll | None = None


def check_of(result: Mapping[str, Any]) -> CheckResult:
    """A check's record back from its logged data (:func:`~taletable.play.results.read_result`:
    its computed ``outcome`` and ``summary`` dropped, older rules applied read as notes)."""
    check = read_result("cogent.check", result)
    if not isinstance(check, CheckResult):
        raise InputError("follows", "the entry holds no check's result",
                         expected="the entry of a Cogent check")  # fmt: skip
    return check


def _followed(request: DestinyAfterRequest) -> FollowedRoll:
    roll = request.roll
    if roll is None:
        raise InputError(
            "follows", f"entry #{request.follows} was not read from a table's log",
            expected="a live table's entry of a Cogent check",
        )  # fmt: skip
    if roll.action not in FOLLOWED_ACTIONS:
        raise InputError(
            "follows", f"entry #{request.follows} is a {roll.action}, not a check",
            expected="the entry of a Cogent check",
        )  # fmt: skip
    return roll


def _payer(request: DestinyAfterRequest, roll: FollowedRoll) -> str | None:
    """Whose sheet pays: the roll's character, else the one the request names; a roll of a
    typed pool with neither (nor the points said) is refused, as no sheet would pay
    (002 > Destiny Points: the points are the character's)."""
    rolled_with = roll.args.get("character")
    if rolled_with is not None:
        if request.character is not None and request.character != rolled_with:
            raise InputError(
                "character",
                f"entry #{request.follows} was rolled with {rolled_with!r}, whose sheet pays",
                expected="no {character}",
            )
        return str(rolled_with)
    if request.character is None and request.destiny_points is None:
        raise InputError(
            "character",
            f"entry #{request.follows} was rolled with a typed pool, so no sheet holds its "
            "destiny points: say whose sheet they come off",
            expected="{character}: the character whose destiny points are spent",
        )
    if request.character is not None and request.destiny_points is not None:
        raise InputError("destiny_points", "the character's sheet holds the points",
                         expected="no {destiny_points}")  # fmt: skip
    return request.character


@action("cogent.destiny-after", DestinyAfterRequest)
def destiny_after(request: DestinyAfterRequest, table: Table) -> Played[DestinyFollowUp]:
    """Spend destiny after a logged check: core +1 win a point (002 > Destiny Points > After any
    roll of a dice pool); tiered reroll, raise or lower (000 > Destiny Points > After a Dice
    Roll). Only the roller spends on their roll ("for as many Destiny Points as they have";
    000 > Destiny Points > Restrictions: "only [...] on Dice Pools initiated by the Player")."""
    roll = _followed(request)
    check = check_of(roll.result)
    rules = table.rules.model_copy(update={"edition": check.edition})
    if roll.roller != roll.spender:
        raise RulesError(
            f"{source_for(rules)} > After a Dice Roll",
            f"entry #{request.follows} is another seat's roll: destiny is spent by the roller",
            fix="spend destiny only after your own rolls",
        )
    character = _payer(request, roll)
    points, read = request.destiny_points, None
    if character is not None:
        if points is not None:
            raise InputError("destiny_points", "the roll's character holds the points",
                             expected="no {destiny_points}")  # fmt: skip
        read = read_character(table, str(character))
        points = read.sheet.destiny.points
    source = dice_for(table, request.faces)
    result = spend_after_roll(
        check,
        parse_after_modes(request.destiny_after, rules),
        source,
        rules=rules,
        purse=DestinyPurse(points=points),
        player_initiated=not roll.args.get("npc"),
    )
    finish(source)
    spent = sum(1 for spend in result.spent if not spend.temporary)
    what = f"after the check of entry #{request.follows}"
    debited = debit_destiny(table, read, spent, what)
    return Played(result, (Event(kind="cogent.destiny-after", subject=character), *debited))
