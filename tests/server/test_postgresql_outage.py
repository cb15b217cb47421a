"""PostgreSQL stopped and started under load (issue 22 point 7), on a cluster of the test's own.

The test makes a PostgreSQL cluster with Debian's tools (``pg_createcluster``, on a free port,
owned by ``postgres``, never the machine's shared cluster), serves a table from it with a real
``taletable serve``, keeps two players rolling, stops the cluster, starts it again, and drops
it. Every answer is a 201 or a 503 with ``Retry-After`` and the JSON error shape (never a
500), the server takes actions again by itself once the cluster is back, and every action it
acknowledged is in the log, whose export verifies whole.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from taletable.audit import verify_table
from tests.server.conftest import Seats, free_port, make_table, start_server

#: The machine's PostgreSQL version (the clusters of /etc/postgresql), as .ci/run finds it.
VERSION = max(
    (path.name for path in Path("/etc/postgresql").glob("*") if path.name.isdigit()),
    key=int,
    default="15",
)
#: Started and stopped here, not through systemd (as .ci/run starts the shared cluster).
CTL = ("pg_ctlcluster", "--skip-systemctl-redirect")
CHECK = {"action": "cogent.check", "args": {"pool": 3, "cl": 1}}

pytestmark = [
    pytest.mark.postgresql,
    pytest.mark.skipif(
        shutil.which("pg_createcluster") is None or shutil.which("pg_ctlcluster") is None,
        reason="needs Debian's postgresql-common (pg_createcluster, pg_ctlcluster)",
    ),
]


def _cluster(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=120)


@dataclass
class Cluster:
    """A PostgreSQL cluster of this test's own."""

    name: str
    port: int

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        _cluster(*CTL, VERSION, self.name, "stop", "-m", "fast")

    def start(self) -> None:
        _cluster(*CTL, VERSION, self.name, "start")


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A new cluster on a free port (trusting local connections), started; dropped at the end."""
    cluster = Cluster(f"taletable_outage_{secrets.token_hex(4)}", free_port())
    _cluster(
        "pg_createcluster", "--user", "postgres", VERSION, cluster.name, "--port",
        str(cluster.port), "--", "--auth-local=trust", "--auth-host=trust",
    )  # fmt: skip
    try:
        cluster.start()
        yield cluster
    finally:
        _cluster("pg_dropcluster", "--stop", VERSION, cluster.name)


@dataclass
class Load:
    """Players rolling in threads; every answer kept."""

    url: str
    table: Seats
    answers: list[httpx.Response] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, headers: dict[str, str]) -> None:
        with httpx.Client(base_url=self.url, timeout=30) as http:
            while not self._stop.is_set():
                try:
                    answer = http.post(
                        f"/api/tables/{self.table.id}/actions", json=CHECK, headers=headers
                    )
                except httpx.HTTPError as error:  # the server itself must stay up
                    with self._lock:
                        self.failures.append(repr(error))
                    continue
                with self._lock:
                    self.answers.append(answer)
                time.sleep(0.02)

    def count(self, status: int) -> int:
        with self._lock:
            return sum(1 for answer in self.answers if answer.status_code == status)

    def wait_for(self, status: int, more_than: int, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.count(status) <= more_than:
            assert time.monotonic() < deadline, f"no {status} within {seconds} s"
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()


def _unavailable(answer: httpx.Response) -> None:
    assert answer.headers["Retry-After"] == "2"
    error = answer.json()["error"]
    assert error["field"] == "database" and "unreachable or busy" in error["message"]


def test_a_stopped_cluster_is_a_503_and_the_server_recovers_losing_nothing(
    own_cluster: Cluster,
) -> None:
    server = start_server(own_cluster.url)
    threads: list[threading.Thread] = []
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            table = make_table(http)
            load = Load(server.url, table)
            threads = [
                threading.Thread(target=load.run, args=(headers,), daemon=True)
                for headers in (table.mara, table.bram)
            ]
            for thread in threads:
                thread.start()
            load.wait_for(201, 5, 30)
            own_cluster.stop()
            load.wait_for(503, 2, 30)
            acknowledged_during_stop = load.count(201)
            own_cluster.start()
            load.wait_for(201, acknowledged_during_stop + 5, 60)
            load.stop()
            for thread in threads:
                thread.join(30)
            export = http.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    finally:
        server.stop()
    assert load.failures == []
    statuses = {answer.status_code for answer in load.answers}
    assert statuses == {201, 503}, statuses
    for answer in load.answers:
        if answer.status_code == 503:
            _unavailable(answer)
    logged = {event["seq"]: event for event in export["events"]}
    acknowledged = [answer.json() for answer in load.answers if answer.status_code == 201]
    for event in acknowledged:
        kept = logged[event["seq"]]  # each one kept, as it was answered
        assert (kept["at"], kept["actor"], kept["result"]) == (
            event["at"],
            event["actor"],
            event["result"],
        )
    checks = [e for e in export["events"] if e.get("kind") == "cogent.check"]
    assert len(checks) == len(acknowledged)
    checked = verify_table(export)
    assert checked.ok and checked.replayed == len(acknowledged), checked.summary()

