"""A message (``chat.say``) as the log shows it: who said it, as whom, whispered to whom, and
its inline rolls with their dice and exact odds, read back from the logged result."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from taletable.explain import render
from taletable.log_entry import LogEntry
from taletable.play.chat import ChatResult
from taletable.play.chat_rolls import InlineRoll
from taletable.play.results import read_result
from taletable.server.pages.common import percent
from taletable.server.pages.entries import ChatLine, Entry, InlineShown, marked, plain

__all__ = ["chat_entry"]


def _shown(roll: InlineRoll) -> InlineShown:
    if roll.kind == "check" and roll.win_on is not None:
        dice = marked(roll.faces, roll.win_on)
    else:
        dice = plain(roll.faces)
    if roll.summary is not None:
        outcome = render(roll.summary)
    else:
        outcome = roll.breakdown or str(roll.total)  # the breakdown ends with its total
    chance = ""
    if roll.chance is not None:
        chance = f"{percent(Fraction(roll.chance))} ({roll.chance})"
    return InlineShown(roll.text, dice, outcome, chance, roll.chance_of, roll.passed)


def _names(seats: tuple[str, ...], names: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(names.get(seat, "a seat no longer here") for seat in seats)


def chat_entry(entry: Entry, logged: LogEntry, names: Mapping[str, str]) -> None:
    """Fill ``entry`` with the message ``logged``: a sentence of who spoke (as whom, to whom)
    and the message's words with each inline roll in its place."""
    result = read_result("chat.say", logged.result or {})
    if not isinstance(result, ChatResult):
        entry.title = "said something this version cannot show"
        return
    to = _names(result.to, names)
    verb = "whispered" if to else "said"
    speaker = f", as {result.speaker_name}," if result.speaker_name else " (out of character)"
    entry.title = f"{verb}{speaker}" + (f" to {_listed(to)}" if to else "")
    parts: list[str | InlineShown] = []
    at = 0
    for roll in result.rolls:
        parts.append(result.text[at : roll.start])
        parts.append(_shown(roll))
        at = roll.end
    parts.append(result.text[at:])
    entry.chat = ChatLine(tuple(part for part in parts if part != ""), to)


def _listed(names: tuple[str, ...]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
