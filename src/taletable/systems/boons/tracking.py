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

__all__ = [
    "GROUP_CHALLENGES",
    "GROUP_WORDS",
    "LET_IT_RIDE",
    "PARTY",
    "PER_SCENE_SWITCH",
    "RULE_WORDS",
    "LetItRide",
    "same",
]

LET_IT_RIDE = "003 > Additional Mechanics > Let it Ride"
#: The rule's own words, quoted by a refusal.
RULE_WORDS = (
    "when a roll is made, the result of that roll is binding for the specific situation and "
    "the check cannot be repeated for the same situation unless the circumstances around the "
    "attempt meaningfully change"
)
MAX_SITUATIONS = 10_000
#: The table switch that frees every situation at a new scene, as a live table offers it (its
#: label, what it does and its passage; RULINGS.md "let it ride"). Off, the book's reading: a
#: situation stays bound across scenes until the narrator marks that its circumstances changed.
PER_SCENE_SWITCH = {
    "name": "let_it_ride_per_scene",
    "label": "Let it Ride frees every situation at a new scene",
    "help": "A new scene frees every situation, as if the narrator marked each changed; "
    "switched off (the book's reading), a roll binds its situation across scenes (\"even the "
    "next day\") until the narrator marks that the circumstances meaningfully changed.",
    "cite": '003 > Additional Mechanics > Let it Ride; RULINGS.md "let it ride"',
}
Key = tuple[str, str, str]


def same(text: str | None) -> str:
    """A name as compared (RULINGS.md "let it ride"): :func:`taletable.names.fold`, without
    case, spaces, invisible characters, accents, full-width forms or look-alike letters."""
    return fold(text or "")


GROUP_CHALLENGES = "003 > Group Challenges"
#: The group challenge rule's own words, quoted by a refusal.
GROUP_WORDS = (
    "Once the outcome of the challenge has been determined it is final and cannot be modified "
    "by any further rolls or abilities."
)
#: Who makes a group challenge, in a Let it Ride key: the whole party (a check's character is
#: never blank: where it names none, its seat stands for it).
PARTY = ""


class LetItRide(Record):
    """Which checks have been made in which situations, by whom (003 > Let it Ride), and which
    of them the narrator has freed (so that they may be bound again)."""

    attempted: frozenset[Key] = frozenset()
    freed: frozenset[Key] = frozenset()

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
                f"{who}already rolled this check{tested} in {situation.strip()!r}; "
                f'"{RULE_WORDS}"',
                fix="find another way forward, or the narrator marks that the circumstances "
                "changed (boons.circumstances-changed)",
            )
        return self._bound(key)

    def run_group(self, situation: str) -> LetItRide:
        """Record the party's group challenge in ``situation``; refuse it again until the
        narrator marks that the circumstances changed (003 > Group Challenges: its outcome "is
        final")."""
        key = (PARTY, same(situation), "")
        if not key[1]:
            raise InputError("situation", "cannot be empty", expected="a situation's name")
        if key in self.attempted:
            raise RulesError(
                GROUP_CHALLENGES,
                f"the group challenge in {situation.strip()!r} was already run; "
                f'"{GROUP_WORDS}"',
                fix="describe what its outcome means, or the narrator marks that the "
                "circumstances changed (boons.circumstances-changed)",
            )
        return self._bound(key)

    def _bound(self, key: Key) -> LetItRide:
        if len(self.attempted) + len(self.freed) >= MAX_SITUATIONS:
            raise InputError("situation", "too many situations tracked", expected="fewer")
        return LetItRide(attempted=self.attempted | {key}, freed=self.freed - {key})

    def mark_changed(self, situation: str, character: str | None = None) -> LetItRide:
        """The circumstances of ``situation`` changed (for ``character``, or for everyone): its
        checks may be attempted again."""
        chosen = self._matching(self.attempted, situation, character)
        return LetItRide(attempted=self.attempted - chosen, freed=self.freed | chosen)

    def bind_again(self, situation: str, character: str | None = None) -> LetItRide:
        """The narrator takes back a mark that the circumstances of ``situation`` changed (for
        ``character``, or for everyone): the checks it freed bind again. Refused when none was
        freed (there is nothing to bind)."""
        chosen = self._matching(self.freed, situation, character)
        if not chosen:
            who = f" for {character.strip()}" if character and character.strip() else ""
            raise InputError(
                "situation",
                f"no check in {situation.strip()!r}{who} was freed, so none can be bound again",
                expected="a situation whose checks were rolled and then freed",
            )
        return LetItRide(attempted=self.attempted | chosen, freed=self.freed - chosen)

    def new_scene(self) -> LetItRide:
        """A new scene, where the table frees every situation at one (RULINGS.md "let it
        ride", the switch ``let_it_ride_per_scene``): each may be bound again."""
        return LetItRide(attempted=frozenset(), freed=self.freed | self.attempted)

    @staticmethod
    def _matching(keys: frozenset[Key], situation: str, character: str | None) -> frozenset[Key]:
        name, who = same(situation), same(character) if character else None
        return frozenset(key for key in keys if key[1] == name and (who is None or key[0] == who))
