"""Where an action's faces come from: a person's physical dice, or the table's source."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from taletable.dice import DiceSource, GivenFaces
from taletable.errors import InputError
from taletable.play.context import Table

__all__ = ["Side", "dice_for", "finish", "sides_dice"]


def dice_for(table: Table, faces: Sequence[int] | None, *, field: str = "faces") -> DiceSource:
    """``faces`` typed in by a person (used in order, rerolls included), else the table's dice."""
    if faces is None:
        return table.dice
    return GivenFaces(faces, field=field)


class Side(NamedTuple):
    """One side of an opposed roll: the field of its faces, the faces given, and why it rolls
    no dice (``"side b takes half its pool"``), or None when it rolls."""

    field: str
    faces: Sequence[int] | None
    idle: str | None = None


def sides_dice(table: Table, sides: Sequence[Side]) -> tuple[DiceSource, ...]:
    """Each side's dice: the sides that roll give their faces all or none; a side that rolls
    no dice takes none (its source is then another side's, so the roll says who gave faces)."""
    for side in sides:
        if side.idle is not None and side.faces is not None:
            raise InputError(
                side.field, f"{side.idle}, so it rolls no dice", expected="no faces for it"
            )
    rolling = [side for side in sides if side.idle is None]
    given = [side for side in rolling if side.faces is not None]
    if given and len(given) < len(rolling):
        missing = next(side for side in rolling if side.faces is None)
        raise InputError(
            missing.field,
            f"{{{given[0].field}}} were given and this side rolls too: give its faces as well",
            expected="faces for every side that rolls, or none",
        )
    sources = {side.field: dice_for(table, side.faces, field=side.field) for side in given}
    first = next(iter(sources.values()), table.dice)
    return tuple(sources.get(side.field, first) for side in sides)


def finish(*sources: DiceSource | None) -> None:
    """After a roll: faces a person gave must all have been used."""
    for source in sources:
        if isinstance(source, GivenFaces):
            source.ensure_all_used()
