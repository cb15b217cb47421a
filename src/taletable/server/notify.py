"""The events of a table, handed to its open streams from memory, in this worker and others.

After a write commits, the writing worker hands the committed rows to its own streams of that
table (:meth:`Hub.publish`); the write's transaction also sends ``NOTIFY`` (delivered at commit)
whose payload carries the rows to the other workers (:meth:`Hub.payload`), or, when they do
not fit in a notification, only the table and its newest seq, so those streams read the rows
from the database. The hub hands each table's rows on in seq order (a row that overtook an
earlier one waits for it a moment: :class:`_Order`). Each stream has a bounded queue
(:class:`Subscription`); a stream that falls :data:`QUEUE` items behind is dropped, and its
client reconnects with ``Last-Event-ID``.

Streams filter each row with :func:`taletable.server.visibility.seen_by`, and read the database
when they open, when they see a gap in the seqs, or when told to (a payload too big, the
LISTEN connection lost and found again). The rows in the database stay the truth: a lost or
doubled notification costs a read, never an event.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from taletable.server.metrics import EVENTS_FANNED_OUT, STREAMS_DROPPED
from taletable.server.visibility import Row

__all__ = ["KEEP_ALIVE", "QUEUE", "Hub", "KeepAlive", "Reconnect", "Subscription"]

_log = logging.getLogger("taletable.server")

#: Items a stream may fall behind before it is dropped (its client reconnects and replays).
QUEUE = 1000
#: Seconds between the keep-alive ticks every stream of a worker gets (one timer for all of
#: them, rather than one armed per stream per event).
KEEP_ALIVE = 15.0
#: The longest NOTIFY payload sent with rows (PostgreSQL refuses one of 8,000 bytes or more).
MOST_PAYLOAD = 7_900
#: Rows that came before an earlier one of their table (another worker's notification overtook
#: this worker's own commit, say) are held for it this long (seconds), and at most this many:
#: then the streams get them as they are, see the gap and read the database.
HOLD_SECONDS = 0.5
MOST_HELD = 64


@dataclass(frozen=True)
class Rows:
    """Events committed to the stream's table, in seq order."""

    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Wake:
    """The table's log may have grown in a way not carried here: read it from the database."""


@dataclass(frozen=True)
class PresenceChanged:
    """A page of the table opened or closed (in any worker)."""


@dataclass(frozen=True)
class KeepAlive:
    """The worker's keep-alive tick (every :data:`KEEP_ALIVE` seconds): a stream that has sent
    nothing since the tick before sends a comment, so proxies keep its connection open."""


@dataclass(frozen=True)
class Dropped:
    """The stream fell too far behind: it ends, and its client reconnects and replays."""


@dataclass(frozen=True)
class Reconnect:
    """This worker is stopping (:mod:`taletable.server.drain`): the stream sends what it holds,
    tells its client to reconnect from the last seq it handled, and ends."""


Item = Rows | Wake | PresenceChanged | KeepAlive | Dropped | Reconnect


@dataclass(eq=False)
class Subscription:
    """One open stream's queue of what happened at its table."""

    table_id: str
    seat: str = ""
    queue: asyncio.Queue[Item] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    dropped: bool = False

    def put(self, item: Item) -> None:
        """Queue ``item`` (on the loop); a full queue drops the stream."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            STREAMS_DROPPED.inc()
            self.drop()

    def drop(self, last: Dropped | Reconnect = Dropped()) -> None:
        """End the stream (on the loop) with ``last``: a :class:`Dropped` stream lets go of what
        it holds and ends at its next item; a :class:`Reconnect` sends what it holds first
        (unless its queue is full: its client then reads that on its way back)."""
        if self.dropped:
            return
        self.dropped = True
        if isinstance(last, Reconnect) and not self.queue.full():
            self.queue.put_nowait(last)
            return
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(last)


def _carried(payload: str) -> tuple[str, str, list[Row]]:
    """The worker, table and rows of a notification that carries rows (:meth:`Hub.payload`);
    ValueError when its texts are not the lengths its first line says."""
    head, _, texts = payload.partition("\n")
    note = json.loads(head)
    rows, at = [], 0
    for seq, visibility, actor, audience, event_length, stub_length in note["r"]:
        event = texts[at : at + event_length]
        stub = texts[at + event_length + 1 : at + event_length + 1 + stub_length]
        at += event_length + stub_length + 2
        rows.append(Row(int(seq), str(visibility), actor, event, stub, tuple(audience)))
    if max(at - 1, 0) != len(texts):  # each text but the last has its newline after it
        raise ValueError("the texts are not as long as the notification says")
    return str(note["o"]), str(note["t"]), rows


@dataclass
class _Order:
    """Where one table's rows handed to this worker's streams are: the newest handed in seq
    order, and those that came before an earlier one, held for it."""

    last: int
    held: dict[int, Row] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None

    def take(self, rows: Sequence[Row]) -> list[Row]:
        """The rows to hand on now, in order: each next one, and the held ones it frees (a row
        handed already is passed over)."""
        for row in rows:
            if row.seq > self.last:
                self.held[row.seq] = row
        ready = []
        while self.last + 1 in self.held:
            self.last += 1
            ready.append(self.held.pop(self.last))
        return ready

    def flush(self) -> list[Row]:
        """Every held row, in order (the streams see the gap and read the database)."""
        ready = [self.held[seq] for seq in sorted(self.held)]
        self.held.clear()
        if ready:
            self.last = ready[-1].seq
        self.stop()
        return ready

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class Hub:
    """The streams open in this worker, by table; hands them items from any thread (each
    table's rows in seq order: :class:`_Order`)."""

    def __init__(self) -> None:
        self._streams: dict[str, set[Subscription]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._lock = threading.Lock()
        self._orders: dict[str, _Order] = {}  # by table, on the loop only
        self.forgetting: list[Callable[[str], None]] = []  # a table's caches here (forget)
        #: This worker's name in the notifications it sends (it skips its own).
        self.origin = secrets.token_hex(6)
        self._own = f'{{"o":"{self.origin}",'  # how its own notifications begin
        #: The worker is stopping: every stream, and every one opened since, ends with a
        #: :class:`Reconnect` (:meth:`drain`).
        self.draining = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Use ``loop`` (the server's) to reach the streams, and tick their keep-alives on it."""
        if self._loop is loop:
            return
        self._loop = loop
        self._loop_thread = threading.get_ident()
        loop.call_later(KEEP_ALIVE, self._tick, loop)

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._loop is not loop or loop.is_closed():
            return  # attached to another loop since (a test's server started again)
        self._deliver(None, KeepAlive())
        loop.call_later(KEEP_ALIVE, self._tick, loop)

    def subscribe(self, table_id: str, seat: str = "") -> Subscription:
        """A new stream's subscription to ``table_id``, for ``seat`` (call from the loop)."""
        if self._loop is None:
            self.attach(asyncio.get_running_loop())
        subscription = Subscription(table_id, seat)
        with self._lock:
            self._streams[table_id].add(subscription)
        if self.draining:  # it sends what its seat missed, then asks it to come back later
            subscription.drop(Reconnect())
        return subscription

    def drain(self) -> None:
        """This worker is stopping (call on the loop): every stream here sends what it holds
        and a last message telling its client to reconnect from its last seq, and ends."""
        self.draining = True
        with self._lock:
            streams = [stream for group in self._streams.values() for stream in group]
        for stream in streams:
            stream.drop(Reconnect())

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            streams = self._streams.get(subscription.table_id)
            if streams is not None:
                streams.discard(subscription)
                if not streams:
                    del self._streams[subscription.table_id]
                    self._forget_order(subscription.table_id)

    def publish(self, table_id: str, rows: Sequence[Row]) -> None:
        """Hand committed ``rows`` of ``table_id`` to its streams here. Safe from any thread."""
        self._send(table_id, Rows(tuple(rows)))

    def wake(self, table_id: str | None) -> None:
        """Have the streams of ``table_id`` (None: every stream) read the database."""
        self._send(table_id, Wake())

    def presence_changed(self, table_id: str) -> None:
        """Tell the pages of ``table_id`` that who is here changed."""
        self._send(table_id, PresenceChanged())

    def forget(self, table_id: str, seat: str | None = None) -> None:
        """``table_id`` was deleted (or ``seat`` of it left or was removed) in any worker:
        forget what this worker keeps of it and end its streams (``seat``'s only)."""
        for forget in self.forgetting:
            forget(table_id)
        self.drop_seat(table_id, seat)

    def drop_seat(self, table_id: str, seat: str | None) -> None:
        """End every stream of ``seat`` (None: every seat) here (a browser left the seat: a
        device that still holds it reconnects at once, the one left cannot). Any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return

        def drop() -> None:
            with self._lock:
                streams = [s for s in self._streams.get(table_id, ()) if seat in (None, s.seat)]
            for stream in streams:
                stream.drop()

        if threading.get_ident() == self._loop_thread:
            drop()
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(drop)

    def _send(self, table_id: str | None, item: Item) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with self._lock:
            if table_id is not None and table_id not in self._streams:
                return  # nobody listens here: no trip through the loop
        if threading.get_ident() == self._loop_thread:
            self._deliver(table_id, item)  # on the loop already: no wake-up of it
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._deliver, table_id, item)

    def _deliver(self, table_id: str | None, item: Item) -> None:
        if isinstance(item, Rows) and table_id is not None:
            if table_id not in self._streams:
                return  # its last stream left meanwhile
            item = Rows(tuple(self._in_order(table_id, item.rows)))
            if not item.rows:
                return
        elif isinstance(item, Wake):  # the streams read the database: what is held is let go
            for table in list(self._orders) if table_id is None else [table_id]:
                self._forget_order(table)
        self._hand(table_id, item)

    def _hand(self, table_id: str | None, item: Item) -> None:
        with self._lock:
            if table_id is None:
                streams = [stream for group in self._streams.values() for stream in group]
            else:
                streams = list(self._streams.get(table_id, ()))
        if isinstance(item, Rows) and streams:
            EVENTS_FANNED_OUT.inc(len(item.rows) * len(streams))
        for stream in streams:
            stream.put(item)

    def _in_order(self, table_id: str, rows: Sequence[Row]) -> list[Row]:
        """The rows of ``table_id`` to hand on now (on the loop): a row that came before an
        earlier one waits for it, at most :data:`HOLD_SECONDS` and :data:`MOST_HELD` rows."""
        if not rows:
            return []
        order = self._orders.get(table_id)
        if order is None:
            order = self._orders[table_id] = _Order(rows[0].seq - 1)
        ready = order.take(rows)
        if len(order.held) > MOST_HELD:
            ready += order.flush()
        elif not order.held:
            order.stop()
        elif order.timer is None and self._loop is not None:
            order.timer = self._loop.call_later(HOLD_SECONDS, self._flush, table_id)
        return ready

    def _flush(self, table_id: str) -> None:
        order = self._orders.get(table_id)
        if order is not None:
            order.timer = None
            if order.held:
                self._hand(table_id, Rows(tuple(order.flush())))

    def _forget_order(self, table_id: str) -> None:
        order = self._orders.pop(table_id, None)
        if order is not None:
            order.stop()

    def payload(self, table_id: str, rows: Row | Sequence[Row]) -> str:
        """The NOTIFY payload announcing ``rows``: the rows themselves when they fit, else the
        table and its newest seq (the other workers then read them). Carried rows are a line
        of JSON (this worker, the table, each row's fields and the lengths of its texts) then
        the texts one after another, as they are: an event's JSON is not escaped again inside
        another JSON document (twice its cost, and larger)."""
        if isinstance(rows, Row):
            rows = [rows]
        fields = [
            [row.seq, row.visibility, row.actor, row.audience, len(row.event), len(row.stub)]
            for row in rows
        ]
        head = json.dumps({"o": self.origin, "t": table_id, "r": fields}, separators=(",", ":"))
        carried = "\n".join((head, *(text for row in rows for text in (row.event, row.stub))))
        if len(carried.encode()) <= MOST_PAYLOAD:
            return carried
        return f"w:{table_id}:{rows[-1].seq}"

    def received(self, payload: str) -> None:
        """Act on a notification from any worker (:meth:`payload`; ``p:TABLE`` a change of
        presence, ``l:TABLE:SEAT`` a seat left, ``d:TABLE`` a table deleted: :mod:`.deletion`)."""
        if payload.startswith("{"):
            if payload.startswith(self._own):
                return  # this worker's own write: its streams have the rows already
            try:
                origin, table_id, rows = _carried(payload)
            except (ValueError, KeyError, IndexError, TypeError):
                _log.warning("an unreadable notification; every stream reads the database")
                self.wake(None)
                return
            if origin != self.origin:
                self.publish(table_id, rows)
            return
        kind, _, rest = payload.partition(":")
        table_id, _, more = rest.partition(":")
        if kind == "p":
            self.presence_changed(table_id)
        elif kind in ("l", "d"):  # a seat left or was removed; a table deleted
            self.forget(table_id, more or None)
        else:
            self.wake(table_id)
