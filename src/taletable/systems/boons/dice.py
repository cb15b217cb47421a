"""The 3d8 dice pool and how boons and banes resize it (003 > The Dice Pool; Boons & Banes).

Each boon adds +1 and raises the *first* die by 2 sides, up to d12, then the next die; each bane
adds -1 and lowers the *last* die by 2 sides, down to d4, then the previous die. At most 6 of
each on a roll, declared before it.

Many boons and banes may act on the same die, and the book does not say in which order. Two
readings keep its stated average of +2 per boon and -2 per bane:

* ``sequence`` (default): boons are applied first, then banes, each on the dice as they are at
  that moment ("decrease the number of sides on the last die"), so a bane can take back a boon's
  step on the same die (6 boons, 3 banes: d12, d12, d6);
* ``per_die``: each die counts the boons and banes that reach it independently (boons from the
  front, banes from the back: 6 boons, 3 banes: d12, d10, d8).

They differ in 12 of the 49 combinations (RULINGS.md "boons and banes on the same die").
"""

from __future__ import annotations

from typing import Literal

from taletable.errors import InputError

__all__ = [
    "BASE_DICE",
    "MAX_BANES",
    "MAX_BOONS",
    "MAX_SIDES",
    "MIN_SIDES",
    "ResizeMethod",
    "check_boons_and_banes",
    "resize_dice",
]

#: The dice pool of a standard check: 3d8 (003 > The Dice Pool).
BASE_DICE = (8, 8, 8)
#: At most 6 boons and 6 banes on one roll (003 > Boons & Banes).
MAX_BOONS = 6
MAX_BANES = 6
#: Boons stop at d12, banes at d4.
MAX_SIDES = 12
MIN_SIDES = 4
STEP = 2
SOURCE = "003 > Boons & Banes"

ResizeMethod = Literal["sequence", "per_die"]


def check_boons_and_banes(boons: int, banes: int) -> None:
    """Refuse negative counts and more than 6 boons or 6 banes (003 > Boons & Banes)."""
    if not 0 <= boons <= MAX_BOONS:
        raise InputError("boons", f"{boons} boons", expected=f"0 to {MAX_BOONS} ({SOURCE})")
    if not 0 <= banes <= MAX_BANES:
        raise InputError("banes", f"{banes} banes", expected=f"0 to {MAX_BANES} ({SOURCE})")


def _in_sequence(boons: int, banes: int) -> list[int]:
    sides = list(BASE_DICE)
    for _ in range(boons):
        for index in range(len(sides)):
            if sides[index] < MAX_SIDES:
                sides[index] += STEP
                break
    for _ in range(banes):
        for index in reversed(range(len(sides))):
            if sides[index] > MIN_SIDES:
                sides[index] -= STEP
                break
    return sides


def _per_die(boons: int, banes: int) -> list[int]:
    room_up = (MAX_SIDES - BASE_DICE[0]) // STEP
    room_down = (BASE_DICE[0] - MIN_SIDES) // STEP
    ups = [0] * len(BASE_DICE)
    downs = [0] * len(BASE_DICE)
    for index in range(len(BASE_DICE)):
        ups[index] = min(room_up, max(0, boons - index * room_up))
        back = len(BASE_DICE) - 1 - index
        downs[back] = min(room_down, max(0, banes - index * room_down))
    return [base + STEP * (up - down) for base, up, down in zip(BASE_DICE, ups, downs, strict=True)]


def resize_dice(boons: int, banes: int, method: ResizeMethod = "sequence") -> tuple[int, ...]:
    """The sides of the three dice, first to last, after ``boons`` and ``banes``.

    003 > Boons & Banes: ``resize_dice(2, 0) == (12, 8, 8)`` (Albert's boarding);
    ``resize_dice(1, 2) == (10, 8, 4)`` (Dariel's herb).
    """
    check_boons_and_banes(boons, banes)
    if method == "sequence":
        return tuple(_in_sequence(boons, banes))
    if method == "per_die":
        return tuple(_per_die(boons, banes))
    raise InputError("method", f"{method!r}", expected="sequence or per_die")
