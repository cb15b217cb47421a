"""A :class:`Note`: one rule that applied, or one line of a log, as structured data."""

from __future__ import annotations

from pydantic import Field

from taletable._model import Record, kept

__all__ = ["Note", "Value", "note"]

#: What a note may carry: a number, a word, a list of them (faces, names), or notes of its own
#: (the parts of a combat roll: ``3-6 win: destiny; assist +1``).
Value = int | str | tuple[int, ...] | tuple[str, ...] | tuple["Note", ...] | None

#: Kinds are dotted lowercase words: ``system.topic.what`` (``cogent.check.pass``).
KIND = r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$"


class Note(Record):
    """One rule that applied (or one event of a fight): its kind, its values, its source.

    ``cite`` is the rulebook passage (``002 > How to Play > Assists``) or ruling
    (``RULINGS.md "conflict ties"``) the rule comes from; empty where the line reports a fact.
    """

    kind: str = Field(pattern=KIND, max_length=80)
    values: dict[str, Value] = Field(default_factory=dict)
    cite: str = Field(default="", max_length=200)


Note.model_rebuild()


@kept
def note(kind: str, cite: str = "", **values: Value) -> Note:
    """A note of ``kind`` citing ``cite``, with ``values`` by name.

    A note of plain values (numbers, words) is made once and kept: most of a check's notes are
    the same few (``cogent.check.pass``), and a note is never changed once made."""
    return Note(kind=kind, values=values, cite=cite)
