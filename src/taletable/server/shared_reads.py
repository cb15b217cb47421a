"""The streams of one table woken together read the log together: one statement for all.

Every stream of a table (the API's and the pages') is woken at once when the log grows, and each
reads the events after the last it sent, as its seat may see them. Read one by one that is a
statement per stream per action; :class:`SharedReads` gathers the reads asked in the same turn of
the event loop for one table and runs them as one ``UNION ALL`` statement, one branch per
stream. Each branch is the seat's own view, filtered in SQL exactly as
:func:`taletable.server.log.visible_events` filters it (DESIGN > Principles 11: what a seat may
not see never leaves the database for it), and each stream gets back only its own branch's rows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import (
    Boolean,
    CompoundSelect,
    Integer,
    String,
    bindparam,
    case,
    literal,
    select,
    union_all,
)

from taletable.server.log import whispered_to
from taletable.server.schema import EVENTS, TABLES

__all__ = ["SharedReads", "read_views", "read_views_at"]

#: The most streams one statement reads for; more are read in several statements.
MOST_BRANCHES = 32
_HEAD = select(TABLES.c.head_seq).where(TABLES.c.id == bindparam("table_id"))


@cache
def _statement(branches: int) -> CompoundSelect[tuple[int, int, str]]:
    """``branches`` seat views of one table in one statement, built once per size: branch ``i``
    is the view of seat ``seat_i`` (a narrator's when ``narrator_i``) after ``after_i``, at most
    ``limit`` events, tagged ``i``."""
    parts = []
    for i in range(branches):
        narrator = bindparam(f"narrator_{i}", type_=Boolean)
        seat = bindparam(f"seat_{i}", type_=String)
        whole = narrator | (EVENTS.c.visibility == "public") | whispered_to(seat)
        own_blind = (EVENTS.c.visibility == "blind") & (EVENTS.c.actor == seat)
        view = (
            select(
                literal(i, Integer).label("branch"),
                EVENTS.c.seq,
                case((whole, EVENTS.c.event), else_=EVENTS.c.stub).label("body"),
            )
            .where(
                (EVENTS.c.table_id == bindparam("table_id"))
                & (EVENTS.c.seq > bindparam(f"after_{i}", type_=Integer))
                & (whole | own_blind)
            )
            .order_by(EVENTS.c.seq)
            .limit(bindparam("limit", type_=Integer))
            .subquery(f"view_{i}")
        )
        parts.append(select(view.c.branch, view.c.seq, view.c.body))
    return union_all(*parts)


def read_views(
    database: Any, table_id: str, views: Sequence[tuple[str, bool, int]], limit: int
) -> list[list[tuple[int, str]]]:
    """For each ``(seat, narrator, after)``: ``(seq, event JSON)`` of the events after ``after``
    that seat may see, in order, at most ``limit`` (as ``visible_events`` gives them)."""
    return read_views_at(database, table_id, views, limit)[0]


def read_views_at(
    database: Any, table_id: str, views: Sequence[tuple[str, bool, int]], limit: int
) -> tuple[list[list[tuple[int, str]]], int]:
    """:func:`read_views`, and the table's newest seq read just before them: every event up to
    it that a seat may see is in that seat's rows (unless its ``limit`` was reached)."""
    found: list[list[tuple[int, str]]] = [[] for _ in views]
    with database.read() as connection:
        head = connection.execute(_HEAD, {"table_id": table_id}).scalar() or 0
        for start in range(0, len(views), MOST_BRANCHES):
            chunk = views[start : start + MOST_BRANCHES]
            values: dict[str, Any] = {"table_id": table_id, "limit": limit}
            for i, (seat, narrator, after) in enumerate(chunk):
                values.update({f"seat_{i}": seat, f"narrator_{i}": narrator, f"after_{i}": after})
            for branch, seq, body in connection.execute(_statement(len(chunk)), values):
                found[start + int(branch)].append((int(seq), str(body)))
    for rows in found:
        rows.sort()
    return found, int(head)


class SharedReads:
    """Reads of one table asked in the same turn of the event loop, run as one statement."""

    def __init__(self, database: Any) -> None:
        self.database = database
        self._asked: dict[tuple[str, int], list[tuple[tuple[str, bool, int], Any]]] = {}
        self._running: set[asyncio.Task[None]] = set()

    async def read(
        self, table_id: str, seat: str, narrator: bool, after: int, limit: int
    ) -> list[tuple[int, str]]:
        """The events after ``after`` that ``seat`` may see, at most ``limit``: read with the
        other streams of the table woken in this turn."""
        return (await self.read_at(table_id, seat, narrator, after, limit))[0]

    async def read_at(
        self, table_id: str, seat: str, narrator: bool, after: int, limit: int
    ) -> tuple[list[tuple[int, str]], int]:
        """:meth:`read`, and the table's newest seq read just before (:func:`read_views_at`)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[list[tuple[int, str]], int]] = loop.create_future()
        asked = self._asked.setdefault((table_id, limit), [])
        asked.append(((seat, narrator, after), answer))
        if len(asked) == 1:  # the first asks; the streams woken with it join before it runs
            loop.call_soon(self._run, table_id, limit)
        return await answer

    def _run(self, table_id: str, limit: int) -> None:
        asked = self._asked.pop((table_id, limit), [])
        task = asyncio.ensure_future(self._answer(table_id, asked, limit))
        self._running.add(task)  # kept until done: the loop holds tasks only weakly
        task.add_done_callback(self._running.discard)

    async def _answer(
        self,
        table_id: str,
        asked: list[tuple[tuple[str, bool, int], asyncio.Future[Any]]],
        limit: int,
    ) -> None:
        views = [view for view, _ in asked]
        try:
            found, head = await asyncio.to_thread(
                read_views_at, self.database, table_id, views, limit
            )
        except Exception as error:  # each stream sees the failure its own read would have
            for _, answer in asked:
                if not answer.done():
                    answer.set_exception(error)
            return
        for (_, answer), rows in zip(asked, found, strict=True):
            if not answer.done():
                answer.set_result((rows, head))
