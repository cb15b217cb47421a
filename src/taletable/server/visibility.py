"""What a seat may see of an event: the one rule (DESIGN > Principles 11).

A committed event is a :class:`Row`: its seq, its visibility, who made it, its whole JSON and
its stub's JSON. :func:`seen_by` says what one seat receives of it: the narrator everything;
every seat a public event; the seat that made a blind roll its stub (that it was made, never
its result or dice); a whisper (a chat message sent ``to`` chosen seats) whole to its sender
and to each seat it names (its ``audience``, kept in the ``recipients`` table); nothing else.
The SQL reads (:mod:`taletable.server.log`, :mod:`taletable.server.shared_reads`) apply the
same rule in their ``WHERE`` and ``CASE``, and the streams apply this function to the rows
handed to them from memory after a commit; ``tests/server/test_visibility.py`` holds the two
equal for every seat and every kind of event.

A seat's export (:func:`taletable.server.exports.seat_log`) is the one place a player or observer
receives something of an event it may not see: its stub (``hidden: true``) with its hashes, so
its view of the chain still links; never the content.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["VISIBILITIES", "WHISPER", "Row", "seen_by"]

#: A message for its sender, the seats it names and the narrator only.
WHISPER = "whisper"
#: Every visibility an event may have.
VISIBILITIES = ("public", "narrator", "blind", WHISPER)


class Row(NamedTuple):
    """One committed event of a table, as stored."""

    seq: int
    visibility: str
    actor: str | None
    event: str
    stub: str
    #: The seats a whisper is for (empty for every other event).
    audience: tuple[str, ...] = ()


def seen_by(row: Row, seat: str, narrator: bool) -> str | None:
    """The JSON ``seat`` receives of ``row``: the event, its stub, or None (nothing at all)."""
    if narrator or row.visibility == "public":
        return row.event
    if row.visibility == "blind" and row.actor == seat:
        return row.stub
    if row.visibility == WHISPER and (row.actor == seat or seat in row.audience):
        return row.event
    return None
