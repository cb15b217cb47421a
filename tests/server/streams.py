"""A server-sent event reader for the live-server tests: one thread per open stream."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Message:
    """One SSE message as received: its ``id:``, its data parsed, and when it arrived."""

    id: int
    data: dict[str, Any]
    arrived: float


@dataclass
class Stream:
    """``GET /api/tables/{id}/stream`` held open in a thread; every raw byte is kept."""

    url: str
    headers: dict[str, str]
    messages: list[Message] = field(default_factory=list)
    raw: bytearray = field(default_factory=bytearray)
    opened: threading.Event = field(default_factory=threading.Event)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    closed_by_peer: bool = False
    #: The body ended as HTTP says (its last chunk), not cut off or closed by this side.
    ended_cleanly: bool = False
    #: The ``event: reconnect`` a stopping server sent last (its id: where to resume).
    reconnect: Message | None = None
    #: The ids of named events other than ``reconnect`` (the table page's ``log``), in order.
    named: list[tuple[str, int]] = field(default_factory=list)

    def start(self) -> Stream:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self.opened.wait(10):
            raise RuntimeError(f"the stream {self.url} did not open within 10 s")
        return self

    def _run(self) -> None:
        try:
            self._read()
        except httpx.HTTPError:  # the server went away (the end of a test, or a kill)
            self.closed_by_peer = True

    def _read(self) -> None:
        with (
            httpx.Client(timeout=httpx.Timeout(5, read=None)) as client,
            client.stream("GET", self.url, headers=self.headers) as answer,
        ):
            assert answer.status_code == 200, answer.read()
            self.opened.set()
            pending = ""
            for chunk in answer.iter_bytes():
                self.raw += chunk
                pending += chunk.decode()
                while "\n\n" in pending:
                    block, pending = pending.split("\n\n", 1)
                    self._take(block)
                if self._stop.is_set():
                    return
            self.ended_cleanly = True

    def _take(self, block: str) -> None:
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            fields[name] = value
        event = fields.get("event", "message")
        if event == "reconnect":
            data = json.loads(fields["data"])
            self.reconnect = Message(int(fields["id"]), data, time.monotonic())
        elif event != "message":
            if "id" in fields:
                self.named.append((event, int(fields["id"])))
        elif "id" in fields and "data" in fields:
            self.messages.append(
                Message(int(fields["id"]), json.loads(fields["data"]), time.monotonic())
            )

    def wait_for(self, count: int, timeout: float = 5.0) -> list[Message]:
        """The first ``count`` messages, waiting up to ``timeout`` seconds for them."""
        deadline = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.messages[:count]

    def close(self) -> None:
        self._stop.set()


def head_seq(http: httpx.Client, table_id: str, headers: dict[str, str]) -> int:
    """The seq of the table's newest event."""
    return int(http.get(f"/api/tables/{table_id}", headers=headers).json()["head_seq"])


def open_stream(
    base: str, table_id: str, headers: dict[str, str], *, after: int | None = None
) -> Stream:
    """Open a seat's stream; with ``after``, as a reconnect would (``Last-Event-ID``)."""
    extra = {} if after is None else {"Last-Event-ID": str(after)}
    return Stream(f"{base}/api/tables/{table_id}/stream", {**headers, **extra}).start()
