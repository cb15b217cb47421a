"""Server test fixtures: an app on SQLite and (when given) PostgreSQL, tables with seats, and
real uvicorn servers on 127.0.0.1.

PostgreSQL tests run when ``TALETABLE_TEST_DATABASE_URL`` names a server (``.ci/run`` sets
it); each test session makes its own fresh database there and drops it at the end. When the
variable is set and the server cannot be reached, those tests fail. Without it they are not
run, and the run's summary says so in one line.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from taletable.server import create_app
from taletable.server.limits import Limits
from tests.server.entry_shapes import check_shape

TEST_DATABASE_VARIABLE = "TALETABLE_TEST_DATABASE_URL"
#: Limits generous enough for the tests that do not test them.
TEST_LIMITS = Limits(
    rate=10_000, burst=10_000, guess_rate=10_000, guess_burst=10_000,
    table_guess_rate=10_000, table_guess_burst=10_000,
    tables_per_address=100_000, tables_overall=100_000,
)  # fmt: skip
#: What a browser sends with a form the server's own page posts (its origin): the pages refuse
#: a post that would seat a browser without it (``pages.common.same_site_only``).
SAME_ORIGIN = {"Origin": "http://testserver"}
_not_run: list[str] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without a PostgreSQL URL, leave out the PostgreSQL tests (reported in the summary)."""
    if os.environ.get(TEST_DATABASE_VARIABLE):
        return
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        (dropped if _wants_postgresql(item) else kept).append(item)
    if dropped:
        _not_run.extend(item.nodeid for item in dropped)
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _wants_postgresql(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    by_param = callspec is not None and callspec.params.get("database_url") == "postgresql"
    return bool(item.get_closest_marker("postgresql")) or by_param


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _not_run:
        terminalreporter.write_line(
            f"PostgreSQL tests not run ({len(_not_run)}): set {TEST_DATABASE_VARIABLE} "
            "to a PostgreSQL URL to run them",
            yellow=True,
        )


@pytest.fixture(autouse=True)
def entries_of_their_declared_shape(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every entry a server test writes is held to its kind's declared shape as it is written
    (``entry_shapes.check_shape``; Zulip's tests do so for every event its server sends), but
    in a test marked ``free_entries``, which writes bodies of no shape on purpose."""
    from taletable.server import log

    if request.node.get_closest_marker("free_entries"):
        return
    written = log.append

    def append(*args: Any, **kwargs: Any) -> Any:
        entry, row = written(*args, **kwargs)
        check_shape(entry)
        return entry, row

    monkeypatch.setattr(log, "append", append)


@contextmanager
def fresh_postgresql_database() -> Iterator[str]:
    """A new, empty PostgreSQL database on the server of the test URL (dropped afterwards)."""
    base = os.environ.get(TEST_DATABASE_VARIABLE)
    if not base:
        pytest.fail(f"{TEST_DATABASE_VARIABLE} is not set")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"taletable_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:  # fails (never skips) when the server is unreachable
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def postgresql_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session (dropped at its end)."""
    with fresh_postgresql_database() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The database of one test: a SQLite file, or the session's PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'taletable.db'}"
    return str(request.getfixturevalue("postgresql_url"))


@pytest.fixture
def empty_database_url(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A second, empty database of the same kind as ``database_url`` (another server's)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'other.db'}"
        return
    with fresh_postgresql_database() as url:
        yield url


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(database_url, limits=TEST_LIMITS)
    with TestClient(app) as test_client:
        yield test_client


@dataclass
class Seats:
    """A table made through the API, with a narrator, two players and an observer."""

    id: str
    join_code: str
    narrator: dict[str, str]
    mara: dict[str, str]
    mara_seat: str
    bram: dict[str, str]
    observer: dict[str, str]
    bram_seat: str = ""
    observer_seat: str = ""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_table(http: Any, *, system: str = "cogent", **extra: Any) -> Seats:
    """Make a table and seat two players and an observer (``http``: a TestClient or httpx)."""
    made = http.post("/api/tables", json={"name": "Tavern", "system": system, **extra})
    assert made.status_code == 201, made.text
    table = made.json()
    seats = {}
    for name, role in (("Mara", "player"), ("Bram", "player"), ("Owl", "observer")):
        joined = http.post(
            f"/api/tables/{table['id']}/join",
            json={"code": table["join_code"], "name": name, "role": role},
        )
        assert joined.status_code == 201, joined.text
        seats[name] = joined.json()
    return Seats(
        id=table["id"], join_code=table["join_code"], narrator=bearer(table["narrator_token"]),
        mara=bearer(seats["Mara"]["token"]), mara_seat=seats["Mara"]["seat"],
        bram=bearer(seats["Bram"]["token"]), observer=bearer(seats["Owl"]["token"]),
        bram_seat=seats["Bram"]["seat"], observer_seat=seats["Owl"]["seat"],
    )  # fmt: skip


@pytest.fixture
def table(client: TestClient) -> Seats:
    return make_table(client)


#: How long a test waits for ``taletable serve`` to answer (a loaded machine starts it slowly).
START_SECONDS = 90


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LiveServer:
    """A ``taletable serve`` process on 127.0.0.1; what it writes to stderr (its log) goes to
    a file (a pipe nobody reads would stop it once full), read by :meth:`log`."""

    process: subprocess.Popen[bytes]
    url: str
    errors: Any = None

    def log(self) -> str:
        """Everything the server has written to stderr so far."""
        if self.errors is None:
            return ""
        self.errors.seek(0)
        return str(self.errors.read().decode())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_server(
    database: str,
    *,
    workers: int = 1,
    rate: str = "10000,10000",
    environment: dict[str, str] | None = None,
) -> LiveServer:
    """Start ``taletable serve`` on a free port and wait until it answers (``environment``:
    variables set for it beside the tests' own; a test's server stops at once on SIGTERM
    unless it sets ``TALETABLE_DRAIN_SECONDS``)."""
    port = free_port()
    environment = {
        **os.environ, "TALETABLE_RATE_LIMIT": rate, "TALETABLE_DRAIN_SECONDS": "0",
        "TALETABLE_TABLE_LIMIT": "100000,100000", **(environment or {}),
    }  # fmt: skip
    errors = tempfile.TemporaryFile()  # noqa: SIM115 (read by LiveServer.log)
    process = subprocess.Popen(
        [sys.executable, "-m", "taletable.cli.main", "serve", "--port", str(port),
         "--database", database, "--workers", str(workers)],
        env=environment, stdout=subprocess.DEVNULL, stderr=errors,
    )  # fmt: skip
    server = LiveServer(process, f"http://127.0.0.1:{port}", errors)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited: {server.log()}")
        try:
            httpx.get(f"{server.url}/openapi.json", timeout=1).raise_for_status()
            return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"serve did not answer within {START_SECONDS} s")


@pytest.fixture
def live_server(database_url: str) -> Iterator[LiveServer]:
    server = start_server(database_url)
    try:
        yield server
    finally:
        server.stop()
