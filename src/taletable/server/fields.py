"""Free text a client sends that the server keeps in a column (a table's or a seat's name) or
compares with one (a join code): one pydantic type, :data:`PlainText`, refusing the NUL
character and lone surrogates (its lengths given where it is used:
``Annotated[PlainText, Field(max_length=200)]``).

PostgreSQL cannot store a NUL (``\\x00``) in a text column and SQLite keeps it, so without this
check the same request was a 500 on one database and a strange name on the other; refused, it
is a 422 naming the field on both. Text kept inside JSON (a sheet, an action's arguments) needs
no check: JSON writes a NUL as ``\\u0000``.

A lone surrogate (U+D800 to U+DFFF, which JSON can spell as ``"\\ud800"``) is no character:
it has no UTF-8, so neither database can be sent it (a 500 on both); refused, it is a 422
naming the field too.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

__all__ = ["NUL_MESSAGE", "SURROGATE_MESSAGE", "PlainText", "has_nul", "has_surrogate"]

NUL_MESSAGE = "may not hold a NUL character (\\x00)"
SURROGATE_MESSAGE = (
    "may not hold a lone surrogate (U+D800 to U+DFFF: half of a character); send the whole "
    "character, as UTF-8 or as its JSON pair"
)


def has_nul(value: str) -> bool:
    """Whether ``value`` holds a character no PostgreSQL text column can keep."""
    return "\x00" in value


def has_surrogate(value: str) -> bool:
    """Whether ``value`` holds a lone surrogate, which has no UTF-8 (no database keeps it)."""
    if value.isascii():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _no_nul(value: str) -> str:
    if has_nul(value):
        raise ValueError(NUL_MESSAGE)
    if has_surrogate(value):
        raise ValueError(SURROGATE_MESSAGE)
    return value


#: A ``str`` without a NUL or a lone surrogate (a 422 naming the field otherwise).
PlainText = Annotated[str, AfterValidator(_no_nul)]
