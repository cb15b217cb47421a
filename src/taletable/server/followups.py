"""Follow-ups: an action that refers to an earlier entry of the log (destiny spent after a roll).

An action whose request has a ``follows`` field names the entry it follows by its seq; the
server, not the client, reads that entry from the table's log and passes it to the action as
``roll``: the roll as it stands after any earlier follow-ups, the seat that rolled it and the
seat that now acts. A follow-up is logged with the visibility of the entry it follows (a
secret roll's follow-up is as secret), and carries ``follows`` so the pages attach it under
that entry. Whether the follow-up is legal is the action's to decide (:mod:`taletable.play`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, select

from taletable.log_entry import LogEntry, read_entry
from taletable.play import all_actions
from taletable.server.auth import Seat
from taletable.server.errors import ApiError
from taletable.server.schema import EVENTS
from taletable.server.strikes import is_struck

__all__ = ["FOLLOWS", "Followed", "followed"]

#: The argument that names the entry a follow-up follows.
FOLLOWS = "follows"
#: The highest entry number a follow-up may name (the log's seq is a 32-bit integer).
MAX_SEQ = 2**31 - 1
#: The argument the server fills with that entry; a client never sends it.
READ_FROM_LOG = "roll"

_EVENT = select(EVENTS.c.event).where(
    (EVENTS.c.table_id == bindparam("table_id")) & (EVENTS.c.seq == bindparam("seq"))
)
_LATER_OF_KIND = (
    select(EVENTS.c.event)
    .where(
        (EVENTS.c.table_id == bindparam("table_id"))
        & (EVENTS.c.seq > bindparam("seq"))
        & (EVENTS.c.kind == bindparam("kind"))
    )
    .order_by(EVENTS.c.seq.desc())
)


class Followed:
    """The args a follow-up is played with, and what its log entry records."""

    def __init__(self, args: dict[str, Any], seq: int | None, visibility: str | None) -> None:
        self.args = args
        self.seq = seq
        self.visibility = visibility


def _seq(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ApiError(f"args.{FOLLOWS}", "not an entry's number; give the seq of a roll")
    try:
        seq = int(value)
    except ValueError:
        raise ApiError(f"args.{FOLLOWS}", f"{value!r} is not an entry's number") from None
    if not 1 <= seq <= MAX_SEQ:
        raise ApiError(f"args.{FOLLOWS}", f"no entry #{seq}; entries are numbered from 1")
    return seq


def _seen(entry: LogEntry, seat: Seat) -> bool:
    """Whether ``seat`` sees the entry whole (a player never follows a secret or blind roll)."""
    return seat.narrator or entry.visibility == "public"


def followed(connection: Connection, table_id: str, seat: Seat, action: str, args: Any) -> Followed:
    """``args`` with the entry they follow read from the log (or unchanged for another action)."""
    if not isinstance(args, dict) or FOLLOWS not in all_actions()[action].request.model_fields:
        return Followed(args, None, None)
    if READ_FROM_LOG in args:
        raise ApiError(
            f"args.{READ_FROM_LOG}", f"the roll is read from the table's log; send only {FOLLOWS}"
        )
    if args.get(FOLLOWS) is None:
        raise ApiError(f"args.{FOLLOWS}", "which entry does this follow? give its seq")
    seq = _seq(args[FOLLOWS])
    text = connection.execute(_EVENT, {"table_id": table_id, "seq": seq}).scalar()
    entry = read_entry(text) if text is not None else None
    if entry is None or not _seen(entry, seat) or entry.is_follow_up or entry.action is None:
        raise ApiError(f"args.{FOLLOWS}", f"no roll #{seq} in this table's log that you can see")
    if is_struck(connection, table_id, seq):
        raise ApiError(f"args.{FOLLOWS}", f"roll #{seq} is struck by the narrator: roll again")
    result = entry.result
    for later in connection.execute(
        _LATER_OF_KIND, {"table_id": table_id, "seq": seq, "kind": action}
    ).scalars():  # the newest first: the roll as its latest follow-up left it
        follow_up = read_entry(later)
        if follow_up.follows == seq:
            result = (follow_up.result or {}).get("check", result)
            break
    roll = {
        "action": entry.action,
        "args": entry.args,
        "result": result or {},
        "roller": entry.actor,
        "spender": seat.id,
    }
    return Followed({**args, FOLLOWS: seq, READ_FROM_LOG: roll}, seq, entry.visibility)
