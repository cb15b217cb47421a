"""Counting wins on Cogent's six-sided dice (002 > How to Play > Introduction to Dice Pools).

A die "wins" when it shows the pool's win threshold or more: 4-6 normally, 3-6 with the tiered
edition's Advantage or the core edition's destiny-before, 5-6 with tiered Disadvantage.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["DIE_SIDES", "WIN_ON", "WIN_ON_ADVANTAGE", "WIN_ON_DISADVANTAGE", "count_wins"]

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
