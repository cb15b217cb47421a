"""Exact chances of each entry of a random table, computed from the file."""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction

from taletable._model import Record
from taletable.tables.model import DieExpression, RandomTable
from taletable.tables.roller import apply_modifier

__all__ = ["EntryChance", "entry_chances", "total_weights"]


class EntryChance(Record):
    """An entry's exact chance (``numerator/denominator``) beside the chance the source prints."""

    result: str
    entry_range: str
    numerator: int
    denominator: int
    printed_percent: float | None

    @property
    def chance(self) -> Fraction:
        """The exact chance as a fraction."""
        return Fraction(self.numerator, self.denominator)

    @property
    def percent(self) -> float:
        """The exact chance in percent."""
        return float(self.chance * 100)


def total_weights(die: DieExpression) -> dict[int, int]:
    """How many of the ``sides**count`` equally likely throws give each total.

    Each further die is added with a sliding window sum (linear in the number of totals).
    """
    weights = [1] * die.sides  # weights[i]: throws giving the total (dice so far) + i
    for _ in range(die.count - 1):
        window = 0
        step = []
        for index in range(len(weights) + die.sides - 1):
            if index < len(weights):
                window += weights[index]
            if index >= die.sides:
                window -= weights[index - die.sides]
            step.append(window)
        weights = step
    return {die.count + index: weight for index, weight in enumerate(weights)}


def entry_chances(table: RandomTable, *, modifier: int = 0) -> tuple[EntryChance, ...]:
    """Each entry's exact chance with ``modifier`` applied (natural and clamp rules included)."""
    weights = total_weights(table.die)
    denominator = table.die.sides**table.die.count
    counts = {entry.span: 0 for entry in table.entries}
    ordered = sorted(table.entries, key=lambda entry: entry.low)
    lows = [entry.low for entry in ordered]
    for natural, weight in weights.items():
        total, _ = apply_modifier(table, natural, modifier)
        counts[ordered[bisect_right(lows, total) - 1].span] += weight
    chances = []
    for entry in table.entries:
        exact = Fraction(counts[entry.span], denominator)
        chances.append(
            EntryChance(
                result=entry.result,
                entry_range=entry.span,
                numerator=exact.numerator,
                denominator=exact.denominator,
                printed_percent=entry.percent if modifier == 0 else None,
            )
        )
    return tuple(chances)
