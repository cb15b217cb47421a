"""Let it ride: a check's result binds its situation (003 > Additional Mechanics > Let it Ride).

An immutable record: each call returns the new record, so a live table can rebuild it from its
log (accumulation checks, the other rule that remembers, are :mod:`.accumulation`).
"""

from __future__ import annotations

from taletable._model import Record
from taletable.errors import InputError, RulesError

__all__ = ["LetItRide"]

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
