"""Counting wins on Cogent's six-sided dice (002 > How to Play > Introduction to Dice Pools).

A die "wins" when it shows the pool's win threshold or more: 4-6 normally, 3-6 with the tiered
edition's Advantage or the core edition's destiny-before, 5-6 with tiered Disadvantage.
"""

from __future__ import annotations

from collections.abc import Sequence

from taletable._model import Record
from taletable.dice import DiceSource

__all__ = [
    "DIE_SIDES",
    "WIN_ON",
    "WIN_ON_ADVANTAGE",
    "WIN_ON_DISADVANTAGE",
    "Roll",
    "WinAdjustment",
    "count_wins",
    "roll_pool",
    "win_threshold",
]

#: Cogent rolls six-sided dice only.
DIE_SIDES = 6
#: A die wins on 4, 5 or 6 (002 > How to Play > Introduction to Dice Pools).
WIN_ON = 4
#: Advantage (000 > Advantage and Disadvantage) and core destiny-before (002 > Destiny Points).
WIN_ON_ADVANTAGE = 3
#: Disadvantage (000 > Advantage and Disadvantage).
WIN_ON_DISADVANTAGE = 5


def count_wins(faces: Sequence[int], win_on: int = WIN_ON) -> int:
    """How many ``faces`` show ``win_on`` or more (002 > How to Play > Dice Pools)."""
    return sum(1 for face in faces if face >= win_on)


class Roll(Record):
    """One throw of a pool: its faces and wins (``reason``: first roll, destiny reroll...)."""

    reason: str
    faces: tuple[int, ...]
    wins: int


class WinAdjustment(Record):
    """Wins added to or taken from the dice's wins, and why (destiny, an assist)."""

    source: str
    wins: int


def win_threshold(*, advantage: bool, disadvantage: bool) -> int:
    """The face a die must show to win (002 > Dice Pools; 000 > Advantage and Disadvantage).

    Advantage (or core destiny-before) wins on 3-6, Disadvantage on 5-6; both at once cancel
    to the usual 4-6 (RULINGS.md "advantage and disadvantage together").
    """
    if advantage and not disadvantage:
        return WIN_ON_ADVANTAGE
    if disadvantage and not advantage:
        return WIN_ON_DISADVANTAGE
    return WIN_ON


def roll_pool(size: int, source: DiceSource, win_on: int = WIN_ON, reason: str = "roll") -> Roll:
    """Roll ``size`` d6 and count the wins (002 > How to Play > Dice Pools); a pool of zero or
    fewer dice rolls nothing and has no wins (RULINGS.md "pools of zero or fewer dice")."""
    faces = source.roll(DIE_SIDES, size) if size > 0 else ()
    return Roll(reason=reason, faces=faces, wins=count_wins(faces, win_on))
