"""Streams woken together read together (server/shared_reads.py): one statement for all the
streams of a table, each stream's rows exactly its seat's view, filtered in SQL as
``visible_events`` filters them (DESIGN > Principles 11)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event, select

from taletable.server.log import visible_events
from taletable.server.schema import SEATS
from taletable.server.shared_reads import MOST_BRANCHES, SharedReads, read_views
from tests.server.conftest import Seats


def _act(client: TestClient, table: Seats, headers: dict[str, str], visibility: str) -> None:
    body = {"action": "cogent.check", "args": {"pool": 5, "cl": 2}, "visibility": visibility}
    made = client.post(f"/api/tables/{table.id}/actions", json=body, headers=headers)
    assert made.status_code == 201, made.text


def _seats(database: Any, table_id: str) -> list[tuple[str, bool]]:
    with database.read() as connection:
        rows = connection.execute(
            select(SEATS.c.id, SEATS.c.role).where(SEATS.c.table_id == table_id)
        )
        return [(str(seat), role == "narrator") for seat, role in rows]


def _mixed_log(client: TestClient, table: Seats) -> None:
    """Public, narrator-only and blind rolls by the narrator and by Mara."""
    for headers, visibility in (
        (table.narrator, "public"), (table.narrator, "narrator"), (table.mara, "blind"),
        (table.mara, "public"), (table.narrator, "blind"), (table.bram, "public"),
    ):  # fmt: skip
        _act(client, table, headers, visibility)


def test_each_seat_reads_exactly_its_own_view(client: TestClient, table: Seats) -> None:
    """For every seat (narrator, two players, an observer) and every starting point, the shared
    statement gives the rows ``visible_events`` gives: a player never a narrator-only event,
    a blind roll only to its roller and then as its stub."""
    _mixed_log(client, table)
    database = client.app.state.world.database  # type: ignore[attr-defined]
    seats = _seats(database, table.id)
    assert len(seats) == 4
    views = [(seat, narrator, after) for seat, narrator in seats for after in (0, 2, 5)]
    shared = read_views(database, table.id, views, 500)
    with database.read() as connection:
        for (seat, narrator, after), rows in zip(views, shared, strict=True):
            alone = visible_events(
                connection, table.id, seat=seat, narrator=narrator, after=after, limit=500
            )
            assert rows == alone, (seat, narrator, after)
    by_seat = {seat: shared[i * 3] for i, (seat, _) in enumerate(seats)}
    narrator = next(seat for seat, is_narrator in seats if is_narrator)
    mara = by_seat[table.mara_seat]
    assert len(by_seat[narrator]) > len(mara)  # the narrator also sees the narrator-only roll
    assert not any('"visibility":"narrator"' in body for _seq, body in mara)
    assert sum('"hidden"' in body for _seq, body in mara) == 1  # her own blind roll, a stub


def test_a_page_limit_and_many_streams_hold(client: TestClient, table: Seats) -> None:
    """More streams than one statement reads for are read in several; each keeps its limit."""
    _mixed_log(client, table)
    database = client.app.state.world.database  # type: ignore[attr-defined]
    seats = _seats(database, table.id)
    views = [seats[i % len(seats)] + (i % 3,) for i in range(MOST_BRANCHES + 5)]
    shared = read_views(database, table.id, views, 2)
    with database.read() as connection:
        for (seat, narrator, after), rows in zip(views, shared, strict=True):
            alone = visible_events(
                connection, table.id, seat=seat, narrator=narrator, after=after, limit=2
            )
            assert rows == alone and len(rows) <= 2


def test_streams_woken_together_run_one_statement(client: TestClient, table: Seats) -> None:
    """Eight reads asked in one turn of the event loop are one statement on the database."""
    _mixed_log(client, table)
    database = client.app.state.world.database  # type: ignore[attr-defined]
    seats = _seats(database, table.id)
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "UNION ALL" in statement or "events" in statement:
            statements.append(statement)

    event.listen(database.engine, "before_cursor_execute", count)
    try:
        reads = SharedReads(database)

        async def woken() -> list[list[tuple[int, str]]]:
            asked = [reads.read(table.id, seat, narrator, 0, 500) for seat, narrator in (seats * 2)]
            return await asyncio.gather(*asked)

        answers = asyncio.run(woken())
    finally:
        event.remove(database.engine, "before_cursor_execute", count)
    assert len(statements) == 1 and "UNION ALL" in statements[0]
    with database.read() as connection:
        for (seat, narrator), rows in zip(seats * 2, answers, strict=True):
            assert rows == visible_events(connection, table.id, seat=seat, narrator=narrator)
