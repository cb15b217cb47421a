"""Talk at the table: a message in or out of character, whispered or not, with inline rolls.

``chat.say`` takes the message's ``text`` (1 to :data:`MAX_MESSAGE` characters, plain text, no
NUL), ``as`` (the character who speaks; none: out of character) and ``to`` (seat ids: a
whisper). The engine rolls the message's inline rolls (:mod:`taletable.play.chat_rolls`) with
the table's dice; who may speak as whom, and who receives a whisper, are the live table's
rules (:mod:`taletable.server.permissions`, :mod:`taletable.server.visibility`).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, AliasChoices, Field

from taletable._model import Record
from taletable.errors import TaletableError
from taletable.play.chat_rolls import InlineRoll, roll_inline
from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.requests import Request

__all__ = ["MAX_MESSAGE", "MAX_WHISPERED", "ChatRequest", "ChatResult", "say"]

#: The longest message, in characters.
MAX_MESSAGE = 2000
#: The most seats one whisper names.
MAX_WHISPERED = 50


def _plain(value: str) -> str:
    if "\x00" in value:
        raise ValueError("may not hold a NUL character (\\x00)")
    if not value.strip():
        raise ValueError("says nothing: write at least one character that is not a space")
    return value


def _seats(value: tuple[str, ...] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    for seat in value:
        _plain(seat)
    return tuple(dict.fromkeys(value))


class ChatRequest(Request):
    """A message to the table: its text, who speaks (``as``), and to whom it is whispered."""

    text: Annotated[str, AfterValidator(_plain)] = Field(
        min_length=1,
        max_length=MAX_MESSAGE,
        description="The message (plain text); inline rolls in double brackets: [[2d6+1]], "
        "[[cogent 5 cl 3]], [[check SKILL cl 3]], [[boons +2 1 boon vs 15]], "
        "[[labcats d8 d6 vs 7]].",
    )
    speaker: Annotated[str, AfterValidator(_plain)] | None = Field(
        None,
        max_length=200,
        validation_alias=AliasChoices("as", "speaker"),
        description="The character who speaks (a character id of yours); none: out of character.",
    )
    to: Annotated[
        tuple[Annotated[str, Field(max_length=64)], ...] | None, AfterValidator(_seats)
    ] = Field(
        None,
        min_length=1,
        max_length=MAX_WHISPERED,
        description="Seat ids to whisper to (only they and the narrator receive it).",
    )


class ChatResult(Record):
    """A message said at the table, its speaker's name, and its inline rolls rolled."""

    text: str
    speaker: str | None = None
    speaker_name: str | None = None
    to: tuple[str, ...] = ()
    rolls: tuple[InlineRoll, ...] = ()


def _speaker_name(table: Table, key: str) -> str:
    """The name on the sheet or statblock stored as ``key``; ``key`` itself when there is none
    (the narrator speaking as a passer-by)."""
    for kind in ("character", "statblock"):
        try:
            data = table.store.read(kind, key).data
        except TaletableError:
            continue
        identity = data.get("identity")
        name = identity.get("name") if isinstance(identity, dict) else data.get("name")
        if name:
            return str(name)
    return key


@action("chat.say", ChatRequest)
def say(request: ChatRequest, table: Table) -> Played[ChatResult]:
    """Say something at the table, in or out of character, rolling its inline rolls."""
    rolls = roll_inline(request.text, table, request.speaker)
    name = None if request.speaker is None else _speaker_name(table, request.speaker)
    result = ChatResult(
        text=request.text,
        speaker=request.speaker,
        speaker_name=name,
        to=request.to or (),
        rolls=rolls,
    )
    return Played(result, (Event(kind="chat.say", subject=request.speaker),))
