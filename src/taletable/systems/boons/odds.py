"""Exact odds of the boons system (003), built on ``taletable.prob``.

The total of a check is the sum of its resized dice plus its modifier; a passive check is 12
plus the modifier. Contests compare two totals with the four tie rules; group challenges
convolve what each member adds (+2, +1, or a miss's count under the ``failures`` reading)
against the party's requirement.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Literal

from taletable._model import Record
from taletable.errors import InputError
from taletable.prob import Distribution, die, point
from taletable.systems.boons.checks import PASSIVE_RESULT, BoonsCheck, check_target
from taletable.systems.boons.dice import ResizeMethod, resize_dice
from taletable.systems.boons.group import (
    GroupDifficulty,
    GroupFailures,
    successes_for_margin,
    successes_required,
)

__all__ = [
    "BoonsContestOdds",
    "check_total",
    "contest_odds",
    "dice_sum",
    "group_challenge_odds",
    "pass_probability",
]


@cache
def dice_sum(boons: int, banes: int, method: ResizeMethod = "sequence") -> Distribution:
    """The sum of the three resized dice (003 > Boons & Banes)."""
    first, *rest = resize_dice(boons, banes, method)
    total = die(first)
    for sides in rest:
        total = total + die(sides)
    return total


def check_total(check: BoonsCheck) -> Distribution:
    """The distribution of a check's total (003 > Standard Checks; Passive Checks)."""
    if check.passive:
        return point(PASSIVE_RESULT + check.modifier)
    return dice_sum(check.boons, check.banes, check.method) + check.modifier


def pass_probability(check: BoonsCheck, target: int, *, field: str = "target") -> Fraction:
    """P(total >= target) (003 > Standard Checks); the target is limited as for the roll."""
    check_target(target, field=field)
    return check_total(check).at_least(target)


class BoonsContestOdds(Record):
    """Who wins an opposed contest, after the tie rules."""

    p_a: Fraction
    p_b: Fraction
    p_stalemate: Fraction
    p_tie_roll: Fraction


def contest_odds(
    a: BoonsCheck,
    b: BoonsCheck,
    *,
    defender: Literal["a", "b"] | None = None,
    stalemate_possible: bool = False,
) -> BoonsContestOdds:
    """Exact contest odds with the four tie rules in order (003 > Resolving Contest Ties)."""
    difference = check_total(a) - check_total(b)
    p_a = difference.probability(lambda d: d > 0)
    p_b = difference.probability(lambda d: d < 0)
    tie = difference.probability(lambda d: d == 0)
    stalemate = Fraction(0)
    if defender == "a" or (defender is None and a.modifier > b.modifier):
        p_a += tie
    elif defender == "b" or (defender is None and b.modifier > a.modifier):
        p_b += tie
    elif stalemate_possible:
        stalemate = tie
    elif tie != 1:
        p_a, p_b = p_a / (1 - tie), p_b / (1 - tie)
    else:
        stalemate = tie
    return BoonsContestOdds(p_a=p_a, p_b=p_b, p_stalemate=stalemate, p_tie_roll=tie)


def group_challenge_odds(
    members: Sequence[tuple[BoonsCheck, int]],
    difficulty: GroupDifficulty,
    failures: GroupFailures = "offset",
) -> Fraction:
    """P(the party's successes reach the requirement) (003 > Group Challenges), misses counted
    as ``failures`` says (RULINGS.md "group challenge failures")."""
    if not members:
        raise InputError("members", "no members", expected="one check per member")
    successes_for_margin(-1, failures)  # the reading, checked even where no check can miss
    total = point(0)
    for check, target in members:
        margins = check_total(check) - target
        total = total + margins.map(lambda margin: successes_for_margin(margin, failures))
    return total.at_least(successes_required(difficulty, len(members)))
