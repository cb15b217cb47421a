"""The load generator's clients for ``bench_server.py``: plain HTTP/1.1 on asyncio.

A POST through httpx costs about 1.7 ms of CPU here, as much as a third of what the server
spends on the action, and the load shares the machine's cores with the server: so the POSTs
go over kept-alive connections written by hand, and each seat's event stream (chunked
server-sent events) is read the same way, in a process of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections import defaultdict
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path


@dataclass
class Seat:
    table: int  # the table's index in this run
    table_id: str
    token: str


# -- plain HTTP/1.1 on asyncio -------------------------------------------------------------------
CONTENT_LENGTH = re.compile(rb"content-length: *(\d+)", re.IGNORECASE)
#: A kept-alive connection idle this long is replaced before use: uvicorn closes one idle 5 s,
#: and the servers take turns (``bench_server.py``, which reopens them all before each step).
IDLE_SECONDS = 4.0
Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter, float]  # and when last used


def request_head(method: str, path: str, token: str, body: bytes = b"") -> bytes:
    extra = f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n" if body else ""
    return (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        f"{extra}\r\n"
    ).encode() + body


class Poster:
    """``size`` kept-alive connections, one request at a time on each (replaced when idle)."""

    def __init__(self, port: int, size: int) -> None:
        self.port, self.size = port, size
        self.idle: asyncio.Queue[Streams | None] = asyncio.Queue()
        for _ in range(size):
            self.idle.put_nowait(None)  # None: to be opened when first used

    async def post(self, path: str, token: str, body: bytes) -> tuple[int, bytes]:
        """The status and body of the answer to ``POST path``."""
        streams = await self.idle.get()
        try:
            if streams is not None and time.monotonic() - streams[2] > IDLE_SECONDS:
                streams[1].close()
                streams = None
            if streams is None:
                streams = (*await asyncio.open_connection("127.0.0.1", self.port), 0.0)
            reader, writer, _ = streams
            writer.write(request_head("POST", path, token, body))
            head = await reader.readuntil(b"\r\n\r\n")
            length = CONTENT_LENGTH.search(head)
            answer = await reader.readexactly(int(length[1]) if length else 0)
        except BaseException:  # a broken or abandoned exchange: a fresh connection next time
            if streams is not None:
                streams[1].close()
            self.idle.put_nowait(None)
            raise
        self.idle.put_nowait((reader, writer, time.monotonic()))
        return int(head[9:12]), answer

    async def reopen(self) -> None:
        """Every connection opened afresh (before a step, so that none goes stale in it)."""
        self.close()
        for _ in range(self.size):
            opened = await asyncio.open_connection("127.0.0.1", self.port)
            self.idle.put_nowait((*opened, time.monotonic()))

    def close(self) -> None:
        while not self.idle.empty():
            streams = self.idle.get_nowait()
            if streams is not None:
                streams[1].close()


# -- the stream readers (a process of their own) ------------------------------------------------
async def read_stream(port: int, seat: Seat, arrivals: list[tuple[int, int, float]],
                      opened: asyncio.Event, remaining: list[int]) -> None:  # fmt: skip
    """Hold one seat's stream open; note ``(table, seq, arrival)`` for every event."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request_head("GET", f"/api/tables/{seat.table_id}/stream", seat.token))
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200") or b"chunked" not in head.lower():
        raise RuntimeError(f"the stream did not open: {head[:200]!r}")
    remaining[0] -= 1
    if not remaining[0]:
        opened.set()
    pending = b""
    while True:  # chunked transfer encoding: a hex size line, the chunk, CRLF
        size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
        if size == 0:
            return
        chunk = await reader.readexactly(size + 2)
        arrived = time.monotonic()
        pending += chunk[:-2]
        *blocks, pending = pending.split(b"\n\n")
        for block in blocks:
            if block.startswith(b"id: "):
                arrivals.append((seat.table, int(block[4 : block.index(b"\n")]), arrived))


async def read_streams(port: int, seats: list[Seat], control: Connection) -> None:
    arrivals: list[tuple[int, int, float]] = []
    opened = asyncio.Event()
    remaining = [len(seats)]
    readers = [asyncio.create_task(read_stream(port, s, arrivals, opened, remaining))
               for s in seats]  # fmt: skip
    await asyncio.wait_for(opened.wait(), timeout=30)
    control.send("open")
    while await asyncio.to_thread(control.recv) == "report":  # else "stop"
        control.send(list(arrivals))
    for task in readers:
        task.cancel()
    control.send((arrivals, time.process_time()))


def stream_process(port: int, seats: list[Seat], control: Connection) -> None:
    asyncio.run(read_streams(port, seats, control))


def cpu_seconds(root: int) -> float:
    """The CPU time so far of process ``root`` and its descendants (Linux; 0.0 elsewhere)."""
    children: dict[int, list[int]] = defaultdict(list)
    ticks: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                with contextlib.suppress(OSError):
                    fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
                    children[int(fields[1])].append(int(name))
                    ticks[int(name)] = int(fields[11]) + int(fields[12])  # utime + stime
    family = [root]
    for pid in family:
        family += children.get(pid, [])
    return sum(ticks.get(pid, 0) for pid in family) / os.sysconf("SC_CLK_TCK")
