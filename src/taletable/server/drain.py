"""A worker's drain when it is told to stop (SIGTERM; Ctrl-C without the wait).

uvicorn, on SIGTERM, stops listening, closes idle connections, waits up to its
``timeout_graceful_shutdown`` for the others and then cancels them: an open event stream never
ends by itself, so each was cancelled mid-chunk (its client read an incomplete chunked body,
and the log a ``CancelledError`` traceback per stream). So the app takes the signal first
(:meth:`Drain.install`, from its lifespan: uvicorn has put its own handler in place with
``signal.signal`` by then, and puts back the one before it when it is done):

1. at once: ``/readyz`` answers 503 (a load balancer stops sending this worker traffic), a new
   change (any POST, PUT, PATCH or DELETE) is refused with 503 and ``Retry-After``
   (:class:`RefuseWhileDraining`), and every open stream sends what it holds, then a
   ``reconnect`` event whose ``id:`` is the last seq it handled, and ends its body properly
   (:meth:`taletable.server.notify.Hub.drain`); a stream opened meanwhile sends what its
   seat missed and the same event;
2. after ``seconds`` (``TALETABLE_DRAIN_SECONDS``: the time a load balancer takes to see the
   503; none on Ctrl-C, or at a second signal), uvicorn's own handler: it stops listening and
   waits for the requests in flight (their answers sent) up to its grace
   (:data:`taletable.server.serve.GRACE_SECONDS`), then the process exits.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from taletable.server.errors import DATABASE_RETRY_SECONDS, error_body
from taletable.server.notify import Hub

__all__ = ["STOPPING", "Drain", "RefuseWhileDraining"]

_log = logging.getLogger("taletable.server")

#: What a change sent to a stopping worker is answered (nothing was done).
STOPPING = "this server is restarting and took no new changes; nothing was done: send it again"
#: The methods that change nothing, served while draining.
_READS = frozenset({"GET", "HEAD", "OPTIONS"})
_Handler = Callable[[int, FrameType | None], Any]


class Drain:
    """Takes SIGTERM and SIGINT in a served worker, drains it (:mod:`taletable.server.drain`),
    then hands the signal to the handler that was there before (uvicorn's)."""

    def __init__(self, hub: Hub, seconds: float) -> None:
        self.hub = hub
        self.seconds = seconds
        self._previous: dict[int, _Handler] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def install(self) -> None:
        """Take the signals (call on the loop, in the main thread: elsewhere, as in the tests'
        clients, there is no signal to take and nothing is done)."""
        if threading.current_thread() is not threading.main_thread():
            return
        self._loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(number)
            if callable(previous):
                self._previous[number] = previous
                signal.signal(number, self._signalled)

    def uninstall(self) -> None:
        """Put back the handlers taken (the app's lifespan has ended)."""
        for number, previous in self._previous.items():
            if signal.getsignal(number) == self._signalled:
                signal.signal(number, previous)
        self._previous.clear()

    def _signalled(self, number: int, frame: FrameType | None) -> None:
        # a signal handler: it runs between two bytecodes of the loop's thread, so it only
        # schedules the work on the loop (asyncio's advice for signals)
        previous, loop = self._previous[number], self._loop
        if self.hub.draining or loop is None or loop.is_closed():
            previous(number, frame)  # a second signal: stop waiting
            return
        wait = self.seconds if number == signal.SIGTERM else 0.0
        # in a context of its own: the signal may come while a request's is current (its id)
        loop.call_soon_threadsafe(self._begin, number, wait, context=contextvars.Context())

    def _begin(self, number: int, wait: float) -> None:
        assert self._loop is not None
        if not self.hub.draining:
            _log.warning(
                "%s: draining (readiness 503, changes refused, streams told to reconnect); "
                "stopping in %g s",
                signal.Signals(number).name,
                wait,
            )
            self.hub.drain()
        self._loop.call_later(wait, self._previous[number], number, None)


class RefuseWhileDraining:
    """ASGI middleware: while the worker drains, a change is answered 503 with ``Retry-After``
    (the API: ``{"error": {"field": "server", ...}}``; a page: the message, as a page, or as
    a line for htmx, which swaps no 5xx, with 200 as the pages answer a database outage) and
    not carried out. Reads, and requests begun before, go on."""

    def __init__(self, app: Any, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not self.hub.draining or scope["type"] != "http" or scope["method"] in _READS:
            await self.app(scope, receive, send)
            return
        status, kind, body = _refusal(scope)
        headers = [
            (b"content-type", kind),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(DATABASE_RETRY_SECONDS).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _refusal(scope: Any) -> tuple[int, bytes, bytes]:
    """The status, content type and body refusing a change to a stopping worker."""
    if scope["path"].startswith("/api/"):
        return 503, b"application/json", json.dumps(error_body("server", STOPPING)).encode()
    from taletable.server.pages.common import message, page

    sentence = "The table's server is restarting; nothing was done. Send it again in a moment."
    if (b"hx-request", b"true") in scope["headers"]:
        return 200, b"text/html; charset=utf-8", bytes(message(error=sentence).body)
    answer = page("_message.html", status=503, error=sentence)
    return 503, b"text/html; charset=utf-8", bytes(answer.body)
