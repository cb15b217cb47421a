"""``GET /metrics`` (issue 36.2): off by default, only to the addresses the operator allows,
read with prometheus-client's own parser, and its counters move as actions are taken, on a
real served process (and summed across two workers on PostgreSQL)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from taletable.server import create_app
from taletable.server.notify import QUEUE, Subscription
from tests.server.conftest import TEST_LIMITS, Seats, make_table, start_server
from tests.server.streams import open_stream

CHECK = {"action": "cogent.check", "args": {"pool": 5, "cl": 2}}
ALLOWED = {"TALETABLE_METRICS_ALLOW": "127.0.0.1"}
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def read_metrics(url: str) -> Samples:
    """Every sample of ``url``'s ``/metrics``, parsed by prometheus-client, by name and labels."""
    answer = httpx.get(f"{url}/metrics", timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample ``name`` with exactly ``labels`` (0 when the series does not exist yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_metrics_are_off_unless_allowed(tmp_path: Path) -> None:
    """No TALETABLE_METRICS_ALLOW: 404. An address it does not list: 403 naming ``address``."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'off.db'}", limits=TEST_LIMITS)) as off:
        answer = off.get("/metrics")
        assert answer.status_code == 404
        assert "TALETABLE_METRICS_ALLOW" in answer.json()["error"]["message"]
    app = create_app(
        f"sqlite:///{tmp_path / 'on.db'}", limits=TEST_LIMITS, metrics_allow=("10.0.0.0/8",)
    )
    with TestClient(app, client=("192.168.1.9", 4000)) as outside:
        refused = outside.get("/metrics")
        assert refused.status_code == 403
        assert refused.json()["error"]["field"] == "address"
    with TestClient(app, client=("10.1.2.3", 4000)) as inside:
        assert inside.get("/metrics").status_code == 200
        assert "/metrics" not in inside.get("/openapi.json").text  # the operator's, not the API


def test_the_counters_move_as_actions_are_taken(tmp_path: Path) -> None:
    """A served process: actions taken, read and refused, their latency, an open stream and
    the events fanned out to it, a 404, 429s by limit, and the bytes of an export."""
    server = start_server(
        f"sqlite:///{tmp_path / 'metrics.db'}", rate="0.5,30", environment=ALLOWED
    )
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            table = make_table(http)
            before = read_metrics(server.url)
            reader = httpx.Client(base_url=server.url, timeout=10)
            stream = reader.stream("GET", f"/api/tables/{table.id}/stream", headers=table.bram)
            chunks = stream.__enter__().iter_bytes()
            assert next(chunks)  # open: its opening came
            for _ in range(3):
                taken = http.post(f"/api/tables/{table.id}/actions", json=CHECK,
                                  headers=table.mara)  # fmt: skip
                assert taken.status_code == 201, taken.text
            odds = {"action": "odds.cogent", "args": {"pool": 5, "cl": 2}}
            assert http.post(f"/api/tables/{table.id}/actions", json=odds,
                             headers=table.mara).status_code == 200  # fmt: skip
            bad = {"action": "cogent.check", "args": {"pool": 5000, "cl": 2}}
            assert http.post(f"/api/tables/{table.id}/actions", json=bad,
                             headers=table.mara).status_code == 422  # fmt: skip
            made_up = {"action": "no.such.thing", "args": {}}
            assert http.post(f"/api/tables/{table.id}/actions", json=made_up,
                             headers=table.mara).status_code >= 400  # fmt: skip
            export = http.get(f"/api/tables/{table.id}/export", headers=table.narrator)
            assert http.get("/api/tables/nosuchtable", headers=table.mara).status_code in (
                401, 404)  # fmt: skip
            during = read_metrics(server.url)
            refused = [http.get(f"/api/tables/{table.id}", headers=table.bram)
                       for _ in range(50)]  # fmt: skip
            assert any(answer.status_code == 429 for answer in refused)
            stream.__exit__(None, None, None)
            reader.close()
            deadline = time.monotonic() + 5  # the server sees the client gone
            while value(after := read_metrics(server.url), "taletable_open_streams") and (
                time.monotonic() < deadline
            ):
                time.sleep(0.1)
    finally:
        server.stop()

    def moved(name: str, samples: Samples = during, **labels: str) -> float:
        return value(samples, name, **labels) - value(before, name, **labels)

    assert moved("taletable_actions_total", action="cogent.check", outcome="taken") == 3
    assert moved("taletable_actions_total", action="odds.cogent", outcome="read") == 1
    assert moved("taletable_actions_total", action="cogent.check", outcome="refused") == 1
    assert moved("taletable_actions_total", action="other", outcome="refused") == 1
    assert moved("taletable_action_seconds_count") == 3
    assert moved("taletable_action_seconds_sum") > 0
    assert moved("taletable_action_seconds_bucket", le="+Inf") == 3
    assert value(during, "taletable_open_streams") == 1
    assert value(after, "taletable_open_streams") == 0
    assert moved("taletable_events_fanned_out_total") >= 3  # to the one stream open
    assert moved("taletable_export_bytes_total") == len(export.content)
    assert moved("taletable_http_errors_total", status="422") >= 1
    assert moved("taletable_http_errors_total", after, status="429") >= 1
    assert moved("taletable_rate_limit_refusals_total", after, limit="authorization") >= 1
    assert value(after, "process_cpu_seconds_total") > 0  # one worker: the process's own


@pytest.mark.postgresql
def test_two_workers_are_summed(postgresql_url: str) -> None:
    """``serve --workers 2`` (prometheus-client's multiprocess mode): whichever worker answers,
    /metrics counts every action taken by both, and the streams open in both."""
    server = start_server(postgresql_url, workers=2, environment=ALLOWED)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            table = make_table(http)
            before = read_metrics(server.url)
            streams = [open_stream(server.url, table.id, table.bram, after=0) for _ in range(4)]
            for _ in range(10):  # new connections: the kernel spreads them over both workers
                answer = httpx.post(f"{server.url}/api/tables/{table.id}/actions", json=CHECK,
                                    headers=table.mara, timeout=10)  # fmt: skip
                assert answer.status_code == 201, answer.text
            readings = [read_metrics(server.url) for _ in range(4)]
            for stream in streams:
                stream.close()
    finally:
        server.stop()
    for samples in readings:
        taken = value(samples, "taletable_actions_total", action="cogent.check", outcome="taken")
        assert taken - value(
            before, "taletable_actions_total", action="cogent.check", outcome="taken"
        ) == 10
        assert value(samples, "taletable_open_streams") == 4


def test_a_stream_too_slow_is_counted_dropped(tmp_path: Path) -> None:
    """A stream whose client falls a whole queue behind is dropped, and counted."""
    from prometheus_client import REGISTRY

    def dropped() -> float:
        return REGISTRY.get_sample_value("taletable_streams_dropped_total") or 0.0

    async def overflow() -> bool:
        subscription = Subscription("t1")
        for _ in range(QUEUE + 1):
            subscription.put(None)  # type: ignore[arg-type]  # what is queued does not matter
        return subscription.dropped

    first = dropped()
    assert asyncio.run(overflow())
    assert dropped() == first + 1


def test_a_database_away_is_counted(tmp_path: Path) -> None:
    """A write answered 503 because the SQLite database is locked counts a database error."""
    from prometheus_client import REGISTRY

    path = tmp_path / "busy.db"
    app = create_app(f"sqlite:///{path}", limits=TEST_LIMITS, sqlite_busy_seconds=0.2)
    with TestClient(app) as client:
        table: Seats = make_table(client)
        first = REGISTRY.get_sample_value("taletable_database_errors_total") or 0.0
        holder = sqlite3.connect(path, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            answer = client.post(f"/api/tables/{table.id}/actions", json=CHECK,
                                 headers=table.mara)  # fmt: skip
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert answer.status_code == 503
    assert REGISTRY.get_sample_value("taletable_database_errors_total") == first + 1
