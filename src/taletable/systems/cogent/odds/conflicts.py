"""Exact odds of a Cogent conflict (002 > How to Play > Conflicts).

The victory level is the difference in wins. Between aware, active parties ties are rerolled,
so the outcome is the difference conditioned on not being a tie; otherwise a tie stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from taletable._model import Record
from taletable.prob.distribution import (
    Distribution,
    exact_fraction,
    fraction_text,
    point,
    probability_rows,
)
from taletable.systems.cogent.conflicts import ConflictPlan, after_roll_wins, plan_conflict
from taletable.systems.cogent.destiny import DestinyBeforeMode
from taletable.systems.cogent.odds.checks import wins_distribution
from taletable.systems.cogent.rules import CORE, Rules

__all__ = ["ConflictOdds", "conflict_odds", "conflict_odds_after", "rolled_conflict_odds"]


class ConflictOdds(Record):
    """Who wins a conflict and by how much: P(a), P(b), P(tie stands), victory levels."""

    pool_a: int
    pool_b: int
    p_a: Fraction
    p_b: Fraction
    p_tie: Fraction
    #: Signed difference a - b and its probability (ties removed when rerolled).
    difference: tuple[tuple[int, Fraction], ...]

    def to_data(self) -> dict[str, object]:
        """The CLI's JSON: exact chances as "a/b" with floats, and the victory levels."""
        return {
            "pool_a": self.pool_a,
            "pool_b": self.pool_b,
            "p_a": fraction_text(self.p_a),
            "p_b": fraction_text(self.p_b),
            "p_tie": fraction_text(self.p_tie),
            "p_a_float": float(self.p_a),
            "p_b_float": float(self.p_b),
            "distribution": probability_rows(self.difference, "difference"),
        }


def conflict_odds(
    pool_a: int,
    pool_b: int,
    *,
    win_on_a: int = 4,
    win_on_b: int = 4,
    aware_and_active: bool = True,
    half_a: bool = False,
    half_b: bool = False,
) -> ConflictOdds:
    """The distribution of a - b wins, ties rerolled when both are aware and active.

    ``half_a``/``half_b``: that side took half its pool as wins instead of rolling (tiered
    destiny, 000 > Destiny Points > Before a Dice Roll). Which conflicts may be asked is
    :func:`~taletable.systems.cogent.conflicts.plan_conflict`'s, as for the roll.
    """
    side_a = point(max(0, pool_a) // 2) if half_a else wins_distribution(pool_a, win_on_a)
    side_b = point(max(0, pool_b) // 2) if half_b else wins_distribution(pool_b, win_on_b)
    difference = side_a - side_b
    weights, offset = difference.weights, difference.offset
    tie = weights[-offset] if difference.low <= 0 <= difference.high else 0
    total = difference.denominator
    rerolled = aware_and_active and tie != total
    denominator = total - tie if rerolled else total
    ahead = sum(weights[max(0, 1 - offset) :])
    items = tuple(
        (offset + i, exact_fraction(w, denominator))
        for i, w in enumerate(weights)
        if w and not (rerolled and offset + i == 0)
    )
    return ConflictOdds(
        pool_a=pool_a,
        pool_b=pool_b,
        p_a=exact_fraction(ahead, denominator),
        p_b=exact_fraction(total - tie - ahead, denominator),
        p_tie=Fraction(0) if rerolled else exact_fraction(tie, denominator),
        difference=items,
    )


def _outcomes(side_a: Distribution, side_b: Distribution) -> dict[tuple[int, int], int]:
    """Each throw's (a's wins, b's wins) and its weight over both sides' denominators."""
    return {
        (side_a.offset + i, side_b.offset + j): weight_a * weight_b
        for i, weight_a in enumerate(side_a.weights) if weight_a
        for j, weight_b in enumerate(side_b.weights) if weight_b
    }  # fmt: skip


def conflict_odds_after(
    legal: ConflictPlan, rules: Rules, *, aware_and_active: bool, points_a: int, points_b: int
) -> ConflictOdds:
    """A conflict's exact odds with destiny spent after the roll (002 > Destiny Points > After
    any roll of a dice pool), as ``roll_conflict`` spends it: the throw that settles the
    conflict (tied throws rerolled between aware, active parties, so conditioned on not tying
    on the dice), then each side's points added a win each (:func:`after_roll_wins`, with the
    cap), and a tie they make stands (RULINGS.md "destiny after the roll in a conflict")."""
    plan_a, plan_b = legal.before_a, legal.before_b
    side_a = point(legal.size_a // 2) if plan_a.half else wins_distribution(legal.size_a,
                                                                            legal.win_on_a)
    side_b = point(legal.size_b // 2) if plan_b.half else wins_distribution(legal.size_b,
                                                                            legal.win_on_b)
    throws = _outcomes(side_a, side_b)
    total = sum(throws.values())
    tied = sum(weight for (a, b), weight in throws.items() if a == b)
    rerolled = aware_and_active and tied != total
    denominator = total - tied if rerolled else total
    differences: dict[int, int] = {}
    for (a, b), weight in throws.items():
        if rerolled and a == b:
            continue
        a_final = a + after_roll_wins(points_a, a, legal.size_a, rules, half=plan_a.half)
        b_final = b + after_roll_wins(points_b, b, legal.size_b, rules, half=plan_b.half)
        differences[a_final - b_final] = differences.get(a_final - b_final, 0) + weight
    ahead = sum(weight for difference, weight in differences.items() if difference > 0)
    behind = sum(weight for difference, weight in differences.items() if difference < 0)
    return ConflictOdds(
        pool_a=legal.size_a, pool_b=legal.size_b,
        p_a=exact_fraction(ahead, denominator), p_b=exact_fraction(behind, denominator),
        p_tie=exact_fraction(differences.get(0, 0), denominator),
        difference=tuple((difference, exact_fraction(weight, denominator))
                         for difference, weight in sorted(differences.items())),
    )  # fmt: skip


def rolled_conflict_odds(
    pool_a: int,
    pool_b: int,
    *,
    rules: Rules = CORE,
    advantage_a: bool = False,
    disadvantage_a: bool = False,
    advantage_b: bool = False,
    disadvantage_b: bool = False,
    destiny_before_a: Sequence[DestinyBeforeMode] = (),
    destiny_before_b: Sequence[DestinyBeforeMode] = (),
    aware_and_active: bool = True,
    destiny_after_a: int = 0,
    destiny_after_b: int = 0,
) -> ConflictOdds:
    """The exact odds of ``roll_conflict`` with the same options (002 > Conflicts): planned by
    :func:`~taletable.systems.cogent.conflicts.plan_conflict`, so it refuses what the roll does;
    with destiny after the roll, :func:`conflict_odds_after`."""
    legal = plan_conflict(
        pool_a, pool_b, rules=rules, advantage_a=advantage_a, disadvantage_a=disadvantage_a,
        advantage_b=advantage_b, disadvantage_b=disadvantage_b,
        destiny_before_a=destiny_before_a, destiny_before_b=destiny_before_b,
        destiny_after_a=destiny_after_a, destiny_after_b=destiny_after_b,
    )  # fmt: skip
    if destiny_after_a or destiny_after_b:
        return conflict_odds_after(legal, rules, aware_and_active=aware_and_active,
                                   points_a=destiny_after_a, points_b=destiny_after_b)  # fmt: skip
    return conflict_odds(
        legal.size_a, legal.size_b, win_on_a=legal.win_on_a, win_on_b=legal.win_on_b,
        aware_and_active=aware_and_active, half_a=legal.before_a.half, half_b=legal.before_b.half,
    )  # fmt: skip
