"""Let it ride and accumulation checks: rules that remember (003 > Let it Ride; Accumulation).

Both are immutable records: each call returns the new record, so a table (or the later live
server) keeps the history and can save it.
"""

from __future__ import annotations

from math import ceil

from taletable._model import Record
from taletable.dice import DiceSource, NotationResult, roll_notation
from taletable.errors import InputError, RulesError

__all__ = ["Accumulation", "AccumulationStep", "LetItRide"]

LET_IT_RIDE = "003 > Additional Mechanics > Let it Ride"
MAX_SITUATIONS = 10_000


class LetItRide(Record):
    """Which checks have been made in which situations (003 > Let it Ride).

    A check's result is binding for its situation: the same check in the same situation is
    refused until the Game Master marks the circumstances as meaningfully changed.
    """

    attempted: frozenset[tuple[str, str]] = frozenset()

    def attempt(self, situation: str, check: str) -> LetItRide:
        """Record an attempt at ``check`` in ``situation``; refuse a repeat."""
        key = (situation.strip().lower(), check.strip().lower())
        if not all(key):
            raise InputError("situation/check", "names cannot be empty", expected="two names")
        if key in self.attempted:
            raise RulesError(
                LET_IT_RIDE,
                f"{check!r} was already rolled in {situation!r}; the result is binding",
                fix="change the circumstances meaningfully (mark_changed) or find another way",
            )
        if len(self.attempted) >= MAX_SITUATIONS:
            raise InputError("situation", "too many situations tracked", expected="fewer")
        return LetItRide(attempted=self.attempted | {key})

    def mark_changed(self, situation: str) -> LetItRide:
        """The circumstances of ``situation`` changed: its checks may be attempted again."""
        name = situation.strip().lower()
        return LetItRide(attempted=frozenset(k for k in self.attempted if k[0] != name))


class AccumulationStep(Record):
    """One accumulation check: the value before, the roll, what it adds, and the value after."""

    before: int
    roll: NotationResult
    subtract: bool
    change: int
    after: int


class Accumulation(Record):
    """A value tracked for a character and changed by accumulation checks (003 > Accumulation)."""

    character: str
    name: str
    value: int = 0
    history: tuple[AccumulationStep, ...] = ()

    def check(self, formula: str, source: DiceSource, *, subtract: bool = False) -> Accumulation:
        """Roll ``formula`` and add it to (or subtract it from) the tracked value.

        A formula that gives a fraction (``1d6/2``) is rounded up before it is recorded
        (003 > Additional Mechanics > Round Up).
        """
        roll = roll_notation(formula, source)
        change = -ceil(roll.total) if subtract else ceil(roll.total)
        after = self.value + change
        step = AccumulationStep(
            before=self.value, roll=roll, subtract=subtract, change=change, after=after
        )
        return self.model_copy(update={"value": after, "history": (*self.history, step)})
