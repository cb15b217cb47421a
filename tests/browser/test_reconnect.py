"""A player's page that loses its connection catches up by itself (issue 15: "after a dropped
connection the page catches up by itself"): the server goes away and comes back on the same
port; meanwhile the narrator acts; the page shows that it is reconnecting, then every missed
entry exactly once, in order."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import _free_port


class Server:
    """``taletable serve`` on one port and one SQLite file, stopped and started again."""

    def __init__(self, database: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = f"sqlite:///{database}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "taletable.cli.main",
                "serve",
                "--port",
                str(self.port),
                "--database",
                self.database,
            ],
            env={
                **os.environ,
                "TALETABLE_RATE_LIMIT": "10000,10000",
                "TALETABLE_DRAIN_SECONDS": "0",
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{self.url}/", timeout=1).raise_for_status()
                return
            except httpx.HTTPError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("taletable serve did not start") from None
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "taletable.db")
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _entries(page: Any) -> list[str]:
    return list(page.locator("#log li.entry").evaluate_all("els => els.map(e => e.id)"))


def test_a_dropped_page_catches_up_with_exactly_what_it_missed(
    browser: Any, server: Server
) -> None:
    made = httpx.post(f"{server.url}/api/tables", json={"name": "Keep", "system": "cogent"})
    table, narrator = (
        made.json()["id"],
        {"Authorization": f"Bearer {made.json()['narrator_token']}"},
    )
    joined = httpx.post(
        f"{server.url}/api/tables/{table}/join",
        json={"code": made.json()["join_code"], "name": "Mara", "role": "player"},
    )
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/t/{table}/enter?token={joined.json()['token']}")
    page.wait_for_selector("#connection[data-state=live]", timeout=5000)
    before = _entries(page)
    server.stop()
    page.wait_for_selector("#connection[data-state=down]", timeout=5000)
    page.route("**/stream*", lambda route: route.abort())  # still away while the table moves on
    server.start()
    roll = {"action": "cogent.check", "args": {"pool": 4, "cl": 2}}
    missed = []
    for _ in range(3):
        done = httpx.post(f"{server.url}/api/tables/{table}/actions", json=roll, headers=narrator)
        assert done.status_code == 201, done.text
        missed.append(f"ev-{done.json()['seq']}")
    page.unroute("**/stream*")
    page.wait_for_selector("#connection[data-state=live]", timeout=10000)
    page.locator(f"#{missed[-1]}").wait_for(timeout=5000)
    after = _entries(page)
    assert after[: len(before)] == before
    assert after[len(before) :] == missed, (before, after)
    assert len(set(after)) == len(after)
    page.context.close()
