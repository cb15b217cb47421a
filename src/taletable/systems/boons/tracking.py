"""Let it ride: a check's result binds its situation (003 > Additional Mechanics > Let it Ride).

An immutable record: each call returns the new record, so a live table rebuilds it from its
log (the scene's checks and the narrator's marks that circumstances changed). Accumulation
checks, the other rule that remembers, are :mod:`.accumulation`.

What counts as "the same situation" (RULINGS.md "let it ride"): the same character (or, where
the check names none, the same seat), the same situation's name and the same test (a skill's or
ability's name, where given), each compared as :func:`taletable.names.fold` compares names:
without case, extra spaces, invisible (format) characters, combining accents, full-width forms
or letters of other scripts drawn as Latin ones (a Cyrillic ``а`` for a Latin ``a``).
"""

from __future__ import annotations

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.names import fold

__all__ = ["LET_IT_RIDE", "RULE_WORDS", "LetItRide", "same"]

LET_IT_RIDE = "003 > Additional Mechanics > Let it Ride"
#: The rule's own words, quoted by a refusal.
RULE_WORDS = (
    "when a roll is made, the result of that roll is binding for the specific situation and "
    "the check cannot be repeated for the same situation unless the circumstances around the "
    "attempt meaningfully change"
)
MAX_SITUATIONS = 10_000
Key = tuple[str, str, str]


def same(text: str | None) -> str:
    """A name as compared (RULINGS.md "let it ride"): :func:`taletable.names.fold`, without
    case, spaces, invisible characters, accents, full-width forms or look-alike letters."""
    return fold(text or "")


class LetItRide(Record):
    """Which checks have been made in which situations, by whom (003 > Let it Ride)."""

    attempted: frozenset[Key] = frozenset()

    def attempt(
        self, situation: str, check: str = "", *, character: str = "", reroll: bool = False
    ) -> LetItRide:
        """Record ``character``'s attempt at ``check`` in ``situation``; refuse a repeat, unless
        an ability grants the re-roll ("such specific cases are exceptions to this overall
        ruling")."""
        key = (same(character), same(situation), same(check))
        if not key[1]:
            raise InputError("situation", "cannot be empty", expected="a situation's name")
        if key in self.attempted and not reroll:
            who = f"{character.strip()} " if character.strip() else ""
            tested = f" ({check.strip()})" if check.strip() else ""
            raise RulesError(
                LET_IT_RIDE,
                f"{who}already rolled this check{tested} in {situation.strip()!r} "
                f'this scene; "{RULE_WORDS}"',
                fix="find another way forward, or the narrator marks that the circumstances "
                "changed (boons.circumstances-changed)",
            )
        if len(self.attempted) >= MAX_SITUATIONS:
            raise InputError("situation", "too many situations tracked", expected="fewer")
        return LetItRide(attempted=self.attempted | {key})

    def mark_changed(self, situation: str, character: str | None = None) -> LetItRide:
        """The circumstances of ``situation`` changed (for ``character``, or for everyone): its
        checks may be attempted again."""
        name, who = same(situation), same(character) if character else None
        return LetItRide(attempted=frozenset(
            key for key in self.attempted if key[1] != name or (who is not None and key[0] != who)
        ))  # fmt: skip
