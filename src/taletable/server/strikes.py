"""A log entry struck by the narrator (issue 24.7): which entry, and who sees the strike.

The strike (``log.strike``, :mod:`taletable.play.undo`) names an entry by its seq. The server
reads that entry from the table's log, refuses an entry there is none of, one already struck
and a strike itself, and decides the strike's visibility: a seat that could not see the entry
learns nothing from its strike, so the strike of an entry that is not public is narrator-only
(a public entry's strike is as the narrator chose). The entry itself is never changed: it
keeps its place and its hash in the chain, and the pages show it struck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, select

from taletable.log_entry import read_entry
from taletable.play.undo import MAX_SEQ
from taletable.server.errors import ApiError
from taletable.server.schema import EVENTS

__all__ = ["STRIKE", "is_struck", "strike_visibility", "struck_seq"]

#: The action that strikes an entry.
STRIKE = "log.strike"
_ENTRY = select(EVENTS.c.kind, EVENTS.c.visibility).where(
    (EVENTS.c.table_id == bindparam("table_id")) & (EVENTS.c.seq == bindparam("seq"))
)
_STRIKES = select(EVENTS.c.event).where(
    (EVENTS.c.table_id == bindparam("table_id")) & (EVENTS.c.kind == STRIKE)
)


def struck_seq(args: Mapping[str, Any]) -> int | None:
    """The seq of the entry a strike asked with ``args`` strikes (None: none)."""
    seq = args.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int | str):
        return None
    try:
        return int(seq)
    except ValueError:
        return None


def is_struck(connection: Connection, table_id: str, seq: int) -> bool:
    """Whether the narrator struck the entry ``seq``."""
    strikes = connection.execute(_STRIKES, {"table_id": table_id}).scalars()
    return any(struck_seq(read_entry(text).args) == seq for text in strikes)


def strike_visibility(
    connection: Connection, table_id: str, action: str, args: Mapping[str, Any], chosen: str
) -> str:
    """The visibility of ``action`` (``chosen`` for any but a strike); a strike's entry must be
    in the log, not struck already and no strike (422 ``args.seq`` otherwise). Its number is
    bounded before the log is read (1 to the request's ``MAX_SEQ``, a database integer)."""
    if action != STRIKE:
        return chosen
    seq = struck_seq(args)
    if seq is None or not 1 <= seq <= MAX_SEQ:
        raise ApiError(
            "args.seq",
            f"an entry's number (#) is 1 to {MAX_SEQ}; give the # of an entry of the log",
        )
    entry = connection.execute(_ENTRY, {"table_id": table_id, "seq": seq}).first()
    if entry is None:
        raise ApiError("args.seq", f"no entry #{args.get('seq')} in this table's log")
    if entry.kind == STRIKE:
        raise ApiError("args.seq", f"#{seq} is a strike; write what was meant in a new entry")
    if is_struck(connection, table_id, seq):
        raise ApiError("args.seq", f"entry #{seq} is struck already")
    return chosen if entry.visibility == "public" else "narrator"
