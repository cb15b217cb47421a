"""Dice pools: base three plus named contributions (002 > How to Play > Dice Pools).

A pool is a list of named contributions (``base 3``, ``STR +1``, ``Athletics +2``,
``medium injury -2``); negative points subtract dice. The pool's size is their sum.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from taletable._model import Record, kept
from taletable.errors import InputError

__all__ = [
    "BASE_DICE",
    "MAX_POOL",
    "Contribution",
    "DicePool",
    "base_pool",
    "check_pool_size",
    "pool_of",
]

#: Every pool starts with three dice, the "base three" (002 > How to Play > Dice Pools, Step 1).
BASE_DICE = 3
#: The largest pool the engine rolls (DESIGN > Principles 8); past it: InputError.
MAX_POOL = 200


class Contribution(Record):
    """One named part of a dice pool: ``source`` gives ``dice`` (negative subtracts)."""

    source: str = Field(min_length=1)
    dice: int


class DicePool(Record):
    """A dice pool as the sum of its named contributions."""

    contributions: tuple[Contribution, ...]

    @property
    def size(self) -> int:
        """Dice the contributions add up to (may be zero or negative before rolling)."""
        return sum(part.dice for part in self.contributions)

    def plus(self, source: str, dice: int) -> DicePool:
        """This pool with one more named contribution."""
        return DicePool(contributions=(*self.contributions, Contribution(source=source, dice=dice)))


def base_pool(parts: Iterable[tuple[str, int]] = ()) -> DicePool:
    """Base three plus the ``(source, dice)`` parts, in order (002 > How to Play > Dice Pools)."""
    contributions = [Contribution(source="base", dice=BASE_DICE)]
    contributions.extend(Contribution(source=source, dice=dice) for source, dice in parts)
    return DicePool(contributions=tuple(contributions))


def check_pool_size(size: int, *, field: str = "pool") -> None:
    """Refuse a pool beyond ±:data:`MAX_POOL` dice (DESIGN > Principles 8); negative pools
    within it are allowed (002 > Dice Pools: negative points subtract dice)."""
    if size > MAX_POOL:
        raise InputError(
            field, f"a pool of {size} dice is over the limit", expected=f"at most {MAX_POOL}"
        )
    if size < -MAX_POOL:
        raise InputError(
            field, f"a pool of {size} dice is under the limit", expected=f"at least {-MAX_POOL}"
        )


@kept
def pool_of(size: int, *, field: str = "pool") -> DicePool:
    """A pool given only as its size (``--pool 6``): base three plus the rest, unnamed
    (002 > How to Play > Dice Pools, Step 1 and the note on negative points)."""
    check_pool_size(size, field=field)
    if size == BASE_DICE:
        return base_pool()
    return base_pool([("other", size - BASE_DICE)])
