"""Where an action's faces come from: a person's physical dice, or the table's source."""

from __future__ import annotations

from collections.abc import Sequence

from taletable.dice import DiceSource, GivenFaces
from taletable.play.context import Table

__all__ = ["dice_for", "finish"]


def dice_for(table: Table, faces: Sequence[int] | None, *, field: str = "faces") -> DiceSource:
    """``faces`` typed in by a person (used in order, rerolls included), else the table's dice."""
    if faces is None:
        return table.dice
    return GivenFaces(faces, field=field)


def finish(*sources: DiceSource | None) -> None:
    """After a roll: faces a person gave must all have been used."""
    for source in sources:
        if isinstance(source, GivenFaces):
            source.ensure_all_used()
