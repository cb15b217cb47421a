"""Browser test fixtures: Debian's Chromium driven by Playwright, and a real ``taletable serve``.

Playwright cannot download its own browser here; it drives ``/usr/bin/chromium`` (``apt-get
install chromium``). When ``TALETABLE_REQUIRE_BROWSER=1`` (``.ci/run`` sets it) a missing
browser fails these tests; otherwise they are not run, and the run's summary says so in one
line. Screenshots go to ``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path(os.environ.get("TALETABLE_CHROMIUM", "/usr/bin/chromium"))
REQUIRE_VARIABLE = "TALETABLE_REQUIRE_BROWSER"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
_not_run: list[str] = []


def _is_browser_test(item: pytest.Item) -> bool:
    return Path(str(item.fspath)).parent == Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without a browser (and unless one is required), leave out the browser tests."""
    if CHROMIUM.exists() or os.environ.get(REQUIRE_VARIABLE) == "1":
        return
    dropped = [item for item in items if _is_browser_test(item)]
    if dropped:
        _not_run.extend(item.nodeid for item in dropped)
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if not _is_browser_test(item)]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _not_run:
        terminalreporter.write_line(
            f"Browser tests not run ({len(_not_run)}): no {CHROMIUM} "
            f"(apt-get install chromium; {REQUIRE_VARIABLE}=1 makes this a failure)",
            yellow=True,
        )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, headless (fails, never skips, when it cannot start)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"{REQUIRE_VARIABLE}=1 but there is no browser at {CHROMIUM}")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield launched
        finally:
            launched.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``taletable serve`` on SQLite on a free port, stopped at the end of the module."""
    port = _free_port()
    folder = tmp_path_factory.mktemp("browser")
    database = f"sqlite:///{folder / 'taletable.db'}"
    # The server's output goes to a file: a pipe nobody reads fills up and hangs a chatty server.
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "taletable.cli.main", "serve", "--port", str(port),
         "--database", database],
        env={**os.environ, "TALETABLE_RATE_LIMIT": "10000,10000"},
        stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{url}/", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"taletable serve did not start (see {log.name})") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="module")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
