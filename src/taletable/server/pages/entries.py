"""What one line of the shared log shows (:class:`Entry`), and its dice.

The presenters (:mod:`.present`, :mod:`.present_rolls`, :mod:`.present_combat`) fill an entry
from an event; each imports this module, and :mod:`.present` imports the other two, so they
form no circle.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from taletable.systems.cogent.dice import Roll, count_wins

__all__ = [
    "ChatLine", "DiceRow", "Die", "Entry", "InlineShown", "mark_struck", "marked", "plain",
    "rows",
]  # fmt: skip


@dataclass(frozen=True)
class Die:
    face: int
    won: bool


@dataclass(frozen=True)
class DiceRow:
    """One throw: why it was rolled (``roll``, a reroll...), its dice and how many won."""

    label: str
    dice: tuple[Die, ...]
    wins: int | None = None


@dataclass(frozen=True)
class InlineShown:
    """An inline roll as a message shows it: what was written, its dice, what it came to and
    its exact chance (``"58.33 % (7/12)"``) of what (``"8 or more"``)."""

    text: str
    dice: tuple[Die, ...]
    outcome: str
    chance: str
    chance_of: str
    passed: bool | None = None


@dataclass(frozen=True)
class ChatLine:
    """A message as the log shows it: its words and inline rolls in order, and to whom it was
    whispered (their names; empty: said to the table)."""

    parts: tuple[str | InlineShown, ...]
    to: tuple[str, ...] = ()


@dataclass
class Entry:
    """What one line of the shared log shows."""

    seq: int
    who: str
    at: str
    visibility: str
    title: str
    hidden: bool = False
    outcome: str = ""
    passed: bool | None = None
    parts: list[tuple[str, int]] = field(default_factory=list)
    rows: list[DiceRow] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    entered: bool = False
    detail: str = ""
    actor: str | None = None
    follows: int | None = None
    follow_ups: list[Entry] = field(default_factory=list)
    after_modes: tuple[str, ...] = ()
    chat: ChatLine | None = None
    #: Why the narrator struck this entry ("": not struck).
    struck: str = ""
    #: The entry this one strikes (a strike), if any, and why.
    strikes: int | None = None
    struck_reason: str = ""
    #: Rolled with a typed pool: destiny spent after it asks whose sheet pays.
    sheetless: bool = False


def marked(faces: Iterable[int], win_on: int) -> tuple[Die, ...]:
    """Cogent dice, each marked as won by the engine's ``count_wins`` with the roll's ``win_on``."""
    return tuple(Die(face, count_wins([face], win_on) == 1) for face in faces)


def plain(faces: Iterable[int]) -> tuple[Die, ...]:
    """Dice no face of which is marked."""
    return tuple(Die(face, False) for face in faces)


def rows(rolls: Iterable[Roll], win_on: int) -> list[DiceRow]:
    """A row for each throw of a Cogent pool, its winning dice marked."""
    return [DiceRow(roll.reason, marked(roll.faces, win_on), roll.wins) for roll in rolls]


def mark_struck(entries: list[Entry]) -> list[Entry]:
    """The entries with each one struck by a strike among them marked with its reason."""
    reasons = {entry.strikes: entry.struck_reason for entry in entries if entry.strikes}
    for entry in entries:
        entry.struck = reasons.get(entry.seq, entry.struck)
    return entries
