"""Exact odds of a Cogent conflict (002 > How to Play > Conflicts).

The victory level is the difference in wins. Between aware, active parties ties are rerolled,
so the outcome is the difference conditioned on not being a tie; otherwise a tie stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from taletable._model import Record
from taletable.prob.distribution import exact_fraction, fraction_text, point, probability_rows
from taletable.systems.cogent.conflicts import plan_conflict
from taletable.systems.cogent.destiny import DestinyBeforeMode
from taletable.systems.cogent.odds.checks import wins_distribution
from taletable.systems.cogent.rules import CORE, Rules

__all__ = ["ConflictOdds", "conflict_odds", "rolled_conflict_odds"]


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
) -> ConflictOdds:
    """The exact odds of ``roll_conflict`` with the same options (002 > Conflicts): planned by
    :func:`~taletable.systems.cogent.conflicts.plan_conflict`, so it refuses what the roll does."""
    legal = plan_conflict(
        pool_a, pool_b, rules=rules, advantage_a=advantage_a, disadvantage_a=disadvantage_a,
        advantage_b=advantage_b, disadvantage_b=disadvantage_b,
        destiny_before_a=destiny_before_a, destiny_before_b=destiny_before_b,
    )  # fmt: skip
    return conflict_odds(
        legal.size_a, legal.size_b, win_on_a=legal.win_on_a, win_on_b=legal.win_on_b,
        aware_and_active=aware_and_active, half_a=legal.before_a.half, half_b=legal.before_b.half,
    )  # fmt: skip
