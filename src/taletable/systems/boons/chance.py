"""Random chance: twists of fate and scatter dice (003 > Random Chance)."""

from __future__ import annotations

from typing import Literal

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.systems.boons.tables import scatter_table, twist_table

__all__ = ["ScatterResult", "TwistResult", "roll_scatter", "roll_twist"]

Grid = Literal["square", "hex"]


class TwistResult(Record):
    """A twist of fate: the d100 roll and its consequence."""

    roll: int
    name: str
    kind: str
    text: str
    dice_source: str


def roll_twist(source: DiceSource) -> TwistResult:
    """Roll 1d100 on the twists of fate table (003 > Twists of Fate)."""
    table = twist_table()
    (face,) = source.roll(table.die, 1)
    entry = table.entry(face)
    return TwistResult(
        roll=face, name=entry.name, kind=entry.kind, text=entry.text, dice_source=source.kind
    )


class ScatterResult(Record):
    """Scatter dice: the direction and distance dice, and where the thing lands."""

    grid: str
    direction_roll: int
    distance_roll: int
    direct_hit: bool
    direction: str | None
    distance: int
    dice_source: str


def roll_scatter(grid: Grid, source: DiceSource) -> ScatterResult:
    """Roll the scatter die and the d8 distance die (003 > Scatter Dice).

    Square grids use a d10 (1 and 10 direct hits, 2-9 clockwise from North); hexagonal grids a
    d8 (1 and 8 direct hits, 2-7 clockwise from North, RULINGS.md). Distance: 8 is a direct
    hit, 3-7 one space, 1-2 two spaces. Either die's direct hit means no movement.
    """
    table = scatter_table()
    if grid not in table.grids:
        raise InputError("grid", f"{grid!r}", expected=" or ".join(table.grids))
    chosen = table.grids[grid]
    (direction_roll,) = source.roll(chosen.die, 1)
    (distance_roll,) = source.roll(table.distance.die, 1)
    spaces = table.distance.spaces[distance_roll]
    direct = direction_roll in chosen.direct_hits or spaces == 0
    direction = None
    if direction_roll not in chosen.direct_hits:
        direction = chosen.directions[direction_roll - 2]
    return ScatterResult(
        grid=grid,
        direction_roll=direction_roll,
        distance_roll=distance_roll,
        direct_hit=direct,
        direction=None if direct else direction,
        distance=0 if direct else spaces,
        dice_source=source.kind,
    )
