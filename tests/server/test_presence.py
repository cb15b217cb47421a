"""Presence (who has the table open) is kept in the database: every worker sees every seat,
a closed page goes away, and a page left behind by a killed worker goes stale."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from taletable.server.db import Database, migrate
from taletable.server.presence import STALE_SECONDS, Presence
from tests.server.conftest import make_table, start_server


def test_two_workers_share_one_presence(database_url: str, monkeypatch: Any) -> None:
    """Two Presence objects over one database (two workers): each sees the other's streams;
    closing a stream removes it; a stream that stops beating goes stale."""
    database = Database(database_url)
    migrate(database)
    first, second = Presence(database), Presence(database)
    mara = first.connect("t1", "mara")
    bram = second.connect("t1", "bram")
    second.connect("t2", "owl")
    assert first.online("t1") == second.online("t1") == {"mara", "bram"}
    first.disconnect("t1", mara)
    assert second.online("t1") == {"bram"}
    later = time.time() + STALE_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)
    assert first.online("t1") == frozenset()  # bram's worker stopped beating: stale
    second.beat(bram)
    assert first.online("t1") == {"bram"}
    database.dispose()


class PageStream:
    """A seat's page stream (``/t/{id}/stream``, seated by its cookie) read in a thread over a
    plain socket, which :meth:`close` shuts as a closed tab does; keeps the HTML of every
    ``presence`` message."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        with httpx.Client(base_url=base) as client:
            entered = client.get(f"/t/{table_id}/enter", params={"token": token})
            assert entered.status_code == 303, entered.text
            cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        address = httpx.URL(base)
        self.socket = socket.create_connection((address.host, address.port), timeout=5)
        self.socket.settimeout(None)  # a stream may be quiet for a keep-alive's 15 s
        self.socket.sendall(
            f"GET /t/{table_id}/stream HTTP/1.0\r\nHost: {address.host}\r\n"
            f"Cookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.presence: list[str] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        pending = ""
        with contextlib.suppress(OSError):
            while chunk := self.socket.recv(65536):
                pending += chunk.decode()
                while "\n\n" in pending:
                    block, pending = pending.split("\n\n", 1)
                    lines = block.splitlines()
                    if "event: presence" in lines:
                        data = [line[6:] for line in lines if line.startswith("data: ")]
                        self.presence.append("\n".join(data))

    def wait_for(self, test: Callable[[str], bool], timeout: float = 3.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.presence and test(self.presence[-1]):
                return self.presence[-1]
            time.sleep(0.02)
        raise AssertionError(f"no presence as wanted within {timeout} s: {self.presence[-1:]}")

    def close(self) -> None:
        """Close the page: its connection ends, as when a tab is closed."""
        with contextlib.suppress(OSError):
            self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()
        self.thread.join(timeout=5)


def _online(name: str) -> Callable[[str], bool]:
    return lambda html: f'<li class="online">{name} ' in html


def _away(name: str) -> Callable[[str], bool]:
    return lambda html: f'<li class="offline">{name} ' in html


@pytest.mark.postgresql
def test_a_seat_on_one_worker_is_seen_online_on_another(postgresql_url: str) -> None:
    """The narrator's page on the second server shows Mara online within a second of her page
    opening on the first, and away within a second of it closing (NOTIFY wakes it)."""
    first, second = start_server(postgresql_url), start_server(postgresql_url)
    pages: list[PageStream] = []
    try:
        with httpx.Client(base_url=first.url, timeout=10) as http:
            table = make_table(http)
        seats = {"narrator": table.narrator, "mara": table.mara}
        token = {name: headers["Authorization"].split()[1] for name, headers in seats.items()}
        narrator = PageStream(second.url, table.id, token["narrator"])
        pages.append(narrator)
        narrator.wait_for(_away("Mara"))
        mara = PageStream(first.url, table.id, token["mara"])
        pages.append(mara)
        narrator.wait_for(_online("Mara"), timeout=1.0)
        mara.wait_for(_online("Mara"))
        mara.close()
        narrator.wait_for(_away("Mara"), timeout=1.0)
    finally:
        for page in pages:
            page.close()
        first.stop()
        second.stop()
