"""Exact odds of a Cogent conflict (002 > How to Play > Conflicts).

The victory level is the difference in wins. Between aware, active parties ties are rerolled,
so the outcome is the difference conditioned on not being a tie; otherwise a tie stands.
"""

from __future__ import annotations

from fractions import Fraction

from taletable._model import Record
from taletable.prob.distribution import exact_fraction, fraction_text, probability_rows
from taletable.systems.cogent.odds.checks import wins_distribution

__all__ = ["ConflictOdds", "conflict_odds"]


class ConflictOdds(Record):
    """Who wins a conflict and by how much: P(a), P(b), P(tie stands), victory levels."""

    pool_a: int
    pool_b: int
    p_a: Fraction
    p_b: Fraction
    p_tie: Fraction
    #: Signed difference a - b and its probability (ties removed when rerolled).
    difference: tuple[tuple[int, Fraction], ...]

    def to_contract(self) -> dict[str, object]:
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
) -> ConflictOdds:
    """The distribution of a - b wins, ties rerolled when both are aware and active."""
    difference = wins_distribution(pool_a, win_on_a) - wins_distribution(pool_b, win_on_b)
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
