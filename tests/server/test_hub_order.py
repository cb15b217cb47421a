"""A worker hands each table's rows to its streams in seq order (``notify.Hub``): a row that
came before an earlier one (another worker's notification overtaking this worker's own
commit) waits for it, so the streams need not read the database for a gap that fills."""

from __future__ import annotations

import asyncio

import pytest

from taletable.server import notify
from taletable.server.notify import Hub, Rows
from taletable.server.visibility import Row


def _row(seq: int) -> Row:
    return Row(seq, "public", None, f'{{"seq":{seq}}}', "{}")


def _seqs(items: list[object]) -> list[object]:
    """What a stream's queue held: each Rows as its seqs, anything else by its kind."""
    return [[row.seq for row in item.rows] if isinstance(item, Rows) else type(item).__name__
            for item in items]  # fmt: skip


def _drain(subscription: notify.Subscription) -> list[object]:
    items: list[object] = []
    while not subscription.queue.empty():
        items.append(subscription.queue.get_nowait())
    return items


def test_a_row_that_overtook_an_earlier_one_waits_for_it() -> None:
    async def run() -> list[object]:
        hub = Hub()
        subscription = hub.subscribe("t1", "seat")
        hub.publish("t1", [_row(10)])
        hub.publish("t1", [_row(12)])  # 11 is on its way: held
        hub.publish("t1", [_row(11)])  # 11, then the held 12
        hub.publish("t1", [_row(11)])  # handed already: passed over
        hub.publish("t1", [_row(13), _row(14)])
        return _drain(subscription)

    assert _seqs(asyncio.run(run())) == [[10], [11, 12], [13, 14]]


def test_a_gap_that_does_not_fill_is_handed_on_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """After HOLD_SECONDS the held rows go to the streams, which see the gap and read the
    database; the missing row, come late, is passed over (the read had it)."""
    monkeypatch.setattr(notify, "HOLD_SECONDS", 0.05)

    async def run() -> tuple[list[object], list[object]]:
        hub = Hub()
        subscription = hub.subscribe("t1", "seat")
        hub.publish("t1", [_row(1)])
        hub.publish("t1", [_row(3)])
        before = _drain(subscription)
        assert _seqs(before) == [[1]]  # 3 is held
        await asyncio.sleep(0.1)
        hub.publish("t1", [_row(2)])
        hub.publish("t1", [_row(4)])
        return before, _drain(subscription)

    before, after = asyncio.run(run())
    assert _seqs(before) == [[1]] and _seqs(after) == [[3], [4]]


def test_too_many_held_rows_are_handed_on_at_once() -> None:
    async def run() -> list[object]:
        hub = Hub()
        subscription = hub.subscribe("t1", "seat")
        hub.publish("t1", [_row(1)])
        for seq in range(3, 3 + notify.MOST_HELD + 1):
            hub.publish("t1", [_row(seq)])
        return _drain(subscription)

    items = _seqs(asyncio.run(run()))
    assert items == [[1], list(range(3, 3 + notify.MOST_HELD + 1))]


def test_a_wake_lets_the_held_rows_go_and_starts_the_order_again() -> None:
    """A wake (rows too big for a notification, a LISTEN connection found again) has the
    streams read the database: what was held is let go, and the next row starts the order."""

    async def run() -> list[object]:
        hub = Hub()
        subscription = hub.subscribe("t1", "seat")
        hub.publish("t1", [_row(1)])
        hub.publish("t1", [_row(3)])  # held
        hub.wake("t1")
        hub.publish("t1", [_row(9)])
        return _drain(subscription)

    assert _seqs(asyncio.run(run())) == [[1], "Wake", [9]]


def test_tables_are_ordered_apart_and_forgotten_with_their_last_stream() -> None:
    async def run() -> tuple[list[object], list[object], list[str]]:
        hub = Hub()
        one, two = hub.subscribe("t1", "seat"), hub.subscribe("t2", "seat")
        hub.publish("t1", [_row(5)])
        hub.publish("t2", [_row(1)])
        hub.publish("t2", [_row(3)])  # held for t2 only
        hub.publish("t1", [_row(6)])
        hub.unsubscribe(two)
        orders = list(hub._orders)
        return _drain(one), _drain(two), orders

    first, second, orders = asyncio.run(run())
    assert _seqs(first) == [[5], [6]] and _seqs(second) == [[1]]
    assert orders == ["t1"]
