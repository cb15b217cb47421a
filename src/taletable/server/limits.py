"""The server's documented limits (DESIGN > Principles 8), checked before any work.

============================  =============================  ==================================
limit                         default                        past it
============================  =============================  ==================================
request body                  256 KiB (``max_body``)         413, field ``body``
an export imported            1 GiB (``max_import``),        413, field ``body``; each past
                              2,000,000 events, 1 MiB an     the others: 422 naming it
                              event, 16 MiB of header
exports in flight             1 per seat, 2 per table, in    429, field ``authorization``, and
                              each worker                    ``Retry-After``
requests per seat             20 a second, bursts of 60      429, field ``authorization``, and
                              (``rate``, ``burst``)          ``Retry-After``
requests without a seat       the same, per client address   429
(making a table, joining)
wrong codes tried at a table  6 a minute, bursts of 10       429, field ``code``, and
(a join code, by its id)      (``table_guess_*``)            ``Retry-After``, before the code
                                                             is tried
wrong codes tried in all      1 a second, bursts of 60       the same
(join and recovery codes)     (``guess_*``)
tables made from one address  30 an hour (``tables_per_``    429, field ``tables``, and
                              ``address``)                   ``Retry-After``
tables made in all            600 an hour                    the same
                              (``tables_overall``)
events in one answer          500 (``?after=`` pages on)     the next page
a stream's queue              1,000 events behind            the stream closes; its client
                                                             reconnects with Last-Event-ID
open streams per seat         8 in each worker               429, field ``authorization``, and
                              (``streams_per_seat``)         ``Retry-After``; a stream that
                                                             ends frees its place
actions that take minutes     ``odds.cogent.fight`` (a       422, field ``action``
                              Monte Carlo run of whole
                              fights: seconds per 100)
============================  =============================  ==================================

An action's own arguments are limited by the engine before any work (a Cogent pool of at most
200 dice, at most 1,000 dice in one roll, 4,000 in a collaboration, CL 0 to 1,000):
each past it is a 422 naming the argument (``args.pool``).

Wrong codes are counted whatever address tries them (:class:`Guesses`): guessing from many
addresses is as slow as from one, so the bound on guessing a join code (``README.md``,
"Live table limits"; :mod:`.codes`) holds whatever the number of addresses. Under such an
attack a person typing a code waits too (429 with ``Retry-After``); seats already held, their
links and tokens are untouched.

The request counts are kept per worker process (a token bucket per seat): with N workers a
seat may reach N times the rate. ``TALETABLE_RATE_LIMIT=RATE,BURST`` and
``TALETABLE_MAX_BODY=BYTES`` change them for a server (:mod:`taletable.server.settings`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from taletable.server.errors import ApiError, error_body
from taletable.server.metrics import RATE_LIMIT_REFUSALS
from taletable.server.settings import Settings

__all__ = [
    "IMPORT_PATH",
    "SLOW_ACTIONS",
    "BodyLimit",
    "Guesses",
    "Limits",
    "OpenStreams",
    "RateLimiter",
    "StreamPlace",
    "TablesMade",
    "TooManyRequests",
]

#: Actions a live table does not run, each with what to do instead: one request would hold a
#: worker for minutes.
SLOW_ACTIONS = {
    "odds.cogent.fight": "a simulation of whole fights takes minutes; run "
    "'taletable odds cogent fight' on your own machine, or 'odds.cogent.duel' here",
}


class TooManyRequests(ApiError):
    """429: a limit was reached (counted by its field: :mod:`.metrics`)."""

    status = 429

    def __init__(self, field: str | None, message: str, **extra: Any) -> None:
        super().__init__(field, message, **extra)
        RATE_LIMIT_REFUSALS.labels(field or "").inc()


@dataclass(frozen=True)
class Limits:
    """The limits one server applies."""

    max_body: int = 256 * 1024
    #: The largest export ``POST /api/tables/import`` takes (streamed to disk as it arrives).
    max_import: int = 1 << 30
    #: Exports streaming at once from one seat, and from one table (in each worker).
    exports_per_seat: int = 1
    exports_per_table: int = 2
    rate: float = 20.0
    burst: int = 60
    streams_per_seat: int = 8
    #: Wrong codes tried in all (join codes by code alone or at a table, recovery codes): a
    #: second's worth, and the burst.
    guess_rate: float = 1.0
    guess_burst: int = 60
    #: Wrong join codes tried at one table (named by its id).
    table_guess_rate: float = 0.1
    table_guess_burst: int = 10
    #: Tables made an hour from one client address, and from all of them together.
    tables_per_address: int = 30
    tables_overall: int = 600

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        """The limits ``settings`` give (``TALETABLE_MAX_BODY``, ``TALETABLE_RATE_LIMIT``,
        ``TALETABLE_TABLE_LIMIT``)."""
        rate, made = settings.rate_limit, settings.table_limit
        return cls(max_body=settings.max_body, max_import=settings.max_import,
                   rate=rate.rate, burst=rate.burst,
                   tables_per_address=made.per_address, tables_overall=made.overall)  # fmt: skip

    @classmethod
    def from_environment(cls) -> Limits:
        """The defaults, changed by ``TALETABLE_RATE_LIMIT`` and ``TALETABLE_MAX_BODY`` (read
        through :class:`~taletable.server.settings.Settings`: a bad value is an InputError)."""
        return cls.from_settings(Settings.from_environment())


class RateLimiter:
    """A token bucket per key (a seat's id, or a client's address): ``rate``/s, ``burst`` deep."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, key: str) -> None:
        """Take one request from ``key``'s bucket; 429 when it is empty."""
        wait = self.wait(key, take=True)
        if wait:
            raise TooManyRequests(
                "authorization",
                f"more than {self.rate:g} requests a second from this seat; "
                f"wait {wait:.1f} s and slow down",
                retry_after=round(wait, 2),
            )

    def wait(self, key: str, *, take: bool) -> float:
        """Seconds until ``key``'s bucket holds a token (0: it holds one now, taken if
        ``take``)."""
        moment = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), moment))
            tokens = min(float(self.burst), tokens + (moment - last) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, moment)
                return (1.0 - tokens) / self.rate
            if take:
                self._buckets[key] = (tokens - 1.0, moment)
            if len(self._buckets) > 100_000:  # forget idle buckets (they would be full again)
                idle = moment - self.burst / self.rate
                self._buckets = {k: v for k, v in self._buckets.items() if v[1] > idle}
            return 0.0


class Guesses:
    """Wrong codes tried, counted whatever address tries them: one bucket per table (a join
    code tried at a table named by its id) and one for all (every wrong join or recovery
    code). A try is refused (429, before the code is compared) while a bucket it would take
    from is empty; only a wrong code takes from them."""

    def __init__(self, limits: Limits) -> None:
        self.tables = RateLimiter(limits.table_guess_rate, limits.table_guess_burst)
        self.overall = RateLimiter(limits.guess_rate, limits.guess_burst)

    def check(self, table_id: str | None, field: str = "code") -> None:
        """Refuse (429 ``field``, with ``Retry-After``) a code tried at ``table_id`` (None: a
        code alone) while too many wrong ones were tried there or in all."""
        at_table = self.tables.wait(table_id, take=False) if table_id else 0.0
        wait = max(at_table, self.overall.wait("", take=False))
        if wait:
            where = "at this table" if at_table else "at this server"
            raise TooManyRequests(
                field,
                f"too many wrong codes were tried {where} lately; wait {wait:.0f} s and try "
                "again (check the code with the narrator)",
                retry_after=round(wait, 2),
            )

    def wrong(self, table_id: str | None) -> None:
        """Count a wrong code tried at ``table_id`` (None: a code alone)."""
        if table_id:
            self.tables.wait(table_id, take=True)
        self.overall.wait("", take=True)


class TablesMade:
    """Tables made, per client address and in all: each a bucket of an hour's worth, refilled
    over the hour (``tables_per_address`` at once from one address, then one each
    3600/``tables_per_address`` s; the same for all addresses with ``tables_overall``).
    Checked before a table is made (429, field ``tables``, with ``Retry-After``)."""

    def __init__(self, limits: Limits) -> None:
        self.per_address, self.in_all = limits.tables_per_address, limits.tables_overall
        self.addresses = RateLimiter(self.per_address / 3600, self.per_address)
        self.overall = RateLimiter(self.in_all / 3600, self.in_all)
        self._lock = threading.Lock()

    def take(self, address: str) -> None:
        """Count one table made from ``address``; 429 (nothing counted) past either bound."""
        with self._lock:
            from_address = self.addresses.wait(address, take=False)
            wait = max(from_address, self.overall.wait("", take=False))
            if not wait:
                self.addresses.wait(address, take=True)
                self.overall.wait("", take=True)
                return
        where = (
            f"{self.per_address} tables an hour were made from this address"
            if from_address
            else f"{self.in_all} tables an hour were made on this server"
        )
        raise TooManyRequests(
            "tables",
            f"more than {where}; wait {wait:.0f} s and make it then (or use a table you have)",
            retry_after=round(wait, 2),
        )


#: Seconds a client refused another stream is told to wait (a stream may end any moment).
STREAM_RETRY = 5


class StreamPlace:
    """One open stream's place in its seat's count: freed once, however often it is let go."""

    def __init__(self, streams: OpenStreams, seat: str) -> None:
        self._streams, self._seat = streams, seat
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._streams._release(self._seat)


class OpenStreams:
    """How many streams each seat holds open in this worker: at most ``most`` (a stream holds
    a queue, a task and a socket; hundreds from one seat would crowd out the table). Used for
    exports too, with their own ``refusal`` and a bound per key prefix (``{"table:": 2}``)."""

    def __init__(
        self, most: int, refusal: str = "", most_by_prefix: dict[str, int] | None = None
    ) -> None:
        self.most = most
        self.refusal = refusal
        self.most_by_prefix = most_by_prefix or {}
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def _most(self, key: str) -> int:
        return next((n for p, n in self.most_by_prefix.items() if key.startswith(p)), self.most)

    def take(self, seat: str) -> StreamPlace:
        """A place for one more stream of ``seat``; 429 when it holds ``most`` already."""
        with self._lock:
            count, most = self._open.get(seat, 0), self._most(seat)
            if count >= most:
                raise TooManyRequests(
                    "authorization",
                    self.refusal or f"this seat has {most} streams open here already; close "
                    "one (a tab of the table) and try again",
                    retry_after=STREAM_RETRY,
                )
            self._open[seat] = count + 1
        return StreamPlace(self, seat)

    def held(self, seat: str) -> int:
        """How many streams ``seat`` holds open in this worker."""
        with self._lock:
            return self._open.get(seat, 0)

    def _release(self, seat: str) -> None:
        with self._lock:
            count = self._open.get(seat, 0) - 1
            if count > 0:
                self._open[seat] = count
            else:
                self._open.pop(seat, None)


#: The path of an export imported: its body is streamed, with a limit of its own.
IMPORT_PATH = "/api/tables/import"
#: The headers that say how long a request's body is.
_FRAMING = (b"content-length", b"transfer-encoding")


class BodyLimit:
    """ASGI middleware: a request body over ``max_body`` bytes is refused with 413, unread.
    A path of ``streamed`` has its own limit, and reads its body as a stream, counting it
    itself (an export imported: :mod:`taletable.server.routes.transfer`)."""

    def __init__(self, app: Any, max_body: int, streamed: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.streamed = streamed or {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        framing = {name: value for name, value in scope["headers"] if name in _FRAMING}
        declared = framing.get(b"content-length")
        most = self.streamed.get(scope["path"], self.max_body)
        if declared is not None and (not declared.isdigit() or int(declared) > most):
            await self._refuse(send, most)
            return
        if b"transfer-encoding" not in framing or scope["path"] in self.streamed:
            # a body of the length declared, or none: the HTTP server delivers no more (or
            # a streamed path counts its own)
            await self.app(scope, receive, send)
            return
        body = bytearray()  # chunked: counted as it arrives
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                await self._refuse(send, self.max_body)
                return
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Any, most: int) -> None:
        import json

        payload = json.dumps(
            error_body("body", f"the request body is over {most} bytes; send less")
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
