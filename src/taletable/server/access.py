"""The access log: one line per request, and the request's id carried into every log line.

:class:`AccessLog` is the outermost ASGI middleware. It takes the request's id from
``X-Request-ID`` (at most :data:`MOST_ID` characters of letters, digits and ``._:-``; anything
else is replaced) or makes one, keeps it in :data:`REQUEST_ID` (a context variable: every line
logged while the request is served, in its threads too, names it; :mod:`.logs`), echoes it in
the answer's ``X-Request-ID``, and when the answer is done logs ``METHOD PATH STATUS MS`` on
the ``taletable.access`` logger, with the worker's pid and the request's id.

Nothing secret is logged: the path is the one the client sent, still percent-encoded (so no
line breaks), cut at :data:`MOST_PATH` characters, and it holds only table and character ids;
of the query string only the names are kept, and the values of the few names known to be
harmless (:data:`SHOWN`); every other value (``?code=``, ``?token=``, any name not known) is
``***``. No header (cookie, authorization) and no body is read.

It is on the hot path: the record is made once (no logger looked up, no caller's frame found,
which ``Logger.info`` does), and an event stream's chunks never pass through it (they go
straight to the HTTP server: :data:`taletable.server.stream.SERVER_SEND`); a stream's line is
logged when it ends. Measured: 20,000 calls of this middleware around an app that answers at
once, with and without it, the line written to a file: 11 to 20 us a request on the shared
machine it was written on (noisy), against ~2 ms of CPU for an action, so under 1%;
``LogRecord()`` was a third of it (it looks up the thread's, process's and task's names), so the
record is made from fields kept once. ``benchmarks/floor_app.py`` logs through it too.
"""

from __future__ import annotations

import itertools
import logging
import re
import secrets
import time
from contextvars import ContextVar
from typing import Any
from urllib.parse import parse_qsl

from taletable.server.links import ROOT_PATH
from taletable.server.metrics import HTTP_ERRORS, REQUEST_STARTED

__all__ = ["ACCESS_LOGGER", "MOST_ID", "REQUEST_ID", "SHOWN", "AccessLog", "request_id", "target"]

ACCESS_LOGGER = "taletable.access"
#: The id of the request being served ("" outside a request).
REQUEST_ID: ContextVar[str] = ContextVar("taletable_request_id", default="")
#: The longest request id taken from a client.
MOST_ID = 64
#: The longest path logged (the rest is cut, marked ``...``).
MOST_PATH = 200
#: The query parameters whose values are logged: numbers and ids, never a code or a token.
SHOWN = frozenset({"after", "pool", "cl", "skill", "character", "left", "mode", "step"})
_GOOD_ID = re.compile(rb"[A-Za-z0-9._:-]{1,%d}" % MOST_ID)
#: Made ids: this worker's random prefix, then a counter (unique, and cheap to make).
_PREFIX = secrets.token_hex(4)
_COUNTER = itertools.count(1)


def request_id(headers: list[tuple[bytes, bytes]]) -> str:
    """The client's ``X-Request-ID`` when it is a fit one, else a new id."""
    for name, value in headers:
        if name == b"x-request-id":
            if _GOOD_ID.fullmatch(value):
                return value.decode()
            break
    return f"{_PREFIX}-{next(_COUNTER):x}"


def target(scope: Any) -> str:
    """The request's path as sent (percent-encoded, cut at :data:`MOST_PATH`) and its query
    with every value but those of :data:`SHOWN` masked."""
    raw = scope.get("raw_path")
    path = raw.decode("latin-1") if raw else str(scope["path"]).encode("unicode_escape").decode()
    if len(path) > MOST_PATH:
        path = path[:MOST_PATH] + "..."
    query = scope.get("query_string")
    if not query:
        return path
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    shown = "&".join(
        f"{name[:40]}={value[:40] if name in SHOWN and value.isalnum() else '***'}"
        for name, value in pairs[:20]
    )
    return f"{path}?{shown.encode('unicode_escape').decode()}"


class AccessLog:
    """ASGI middleware: the request's id, and one access line per request (module doc)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.logger = logging.getLogger(ACCESS_LOGGER)  # looked up once
        self._started = time.time()
        self._fixed = vars(logging.LogRecord(ACCESS_LOGGER, logging.INFO, "", 0, "", (), None))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        rid = request_id(scope["headers"])
        echoed = (b"x-request-id", rid.encode())
        token = REQUEST_ID.set(rid)
        REQUEST_STARTED.set(began)
        ROOT_PATH.set(scope.get("root_path", ""))  # the links it makes: :mod:`.links`
        status = 500  # what the client gets when the app raises (Starlette answers 500)

        async def send_with_id(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), echoed]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if status >= 400:
                HTTP_ERRORS.labels(str(status)).inc()
            if self.logger.isEnabledFor(logging.INFO):
                self._line(scope, status, (time.perf_counter() - began) * 1000, rid)
            REQUEST_ID.reset(token)

    def _line(self, scope: Any, status: int, ms: float, rid: str) -> None:
        method, path = scope["method"], target(scope)
        now = time.time()
        # a record made from the fields that never change in this worker, not by LogRecord():
        # it looks for the thread's, the process's and the task's names at every record
        # (a third of the line's cost); every attribute a formatter may name is there
        record = logging.LogRecord.__new__(logging.LogRecord)
        record.__dict__.update(
            self._fixed,
            msg=f"{method} {path} {status} {ms:.1f}ms",
            created=now,
            msecs=(now - int(now)) * 1000,
            relativeCreated=(now - self._started) * 1000,
            access={"method": method, "path": path, "status": status, "ms": round(ms, 1)},
            request_id=rid,
        )
        self.logger.handle(record)
