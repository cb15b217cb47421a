"""Several hosts (issue 36.9): two separate ``taletable serve`` processes on one PostgreSQL, as
two machines behind a load balancer would run them (README, "Several hosts"). Streams open on
both and posts in flight to both; one host killed (SIGKILL): nothing it acknowledged is lost,
its clients resume on the other (posts sent there, streams reopened with their last id), and
every stream, old and resumed, holds every event once, in order, with no gap."""

from __future__ import annotations

import signal
import threading
import time

import httpx
import pytest

from taletable.ledger import verify_export
from tests.server.conftest import LiveServer, Seats, make_table, start_server
from tests.server.streams import head_seq, open_stream

CHECK = {"action": "cogent.check", "args": {"pool": 4, "cl": 2}}


def _post_until_stopped(hosts: list[LiveServer], table: Seats, seat: dict[str, str],
                        acked: list[int], stop: threading.Event) -> None:  # fmt: skip
    """Post checks to the first host until it fails, then to the next (a client's retry
    elsewhere, as a load balancer sends it once the host is gone); keep each acked seq."""
    for host in hosts:
        with httpx.Client(base_url=host.url, timeout=5) as http:
            while not stop.is_set():
                try:
                    answer = http.post(f"/api/tables/{table.id}/actions", json=CHECK,
                                       headers=seat)  # fmt: skip
                except httpx.HTTPError:
                    break  # this host is gone: on to the next
                if answer.status_code == 201:
                    acked.append(answer.json()["seq"])
        if stop.is_set():
            return


@pytest.mark.postgresql
def test_two_hosts_on_one_postgresql_lose_nothing_when_one_dies(postgresql_url: str) -> None:
    first, second = start_server(postgresql_url), start_server(postgresql_url)
    try:
        with httpx.Client(base_url=first.url, timeout=10) as http:
            table = make_table(http)
            start = head_seq(http, table.id, table.narrator)
        on_first = open_stream(first.url, table.id, table.bram, after=start)
        on_second = open_stream(second.url, table.id, table.observer, after=start)
        acked: list[int] = []
        stop = threading.Event()
        clients = (([first, second], table.mara), ([second], table.narrator))
        posters = [
            threading.Thread(target=_post_until_stopped, args=(hosts, table, seat, acked, stop))
            for hosts, seat in clients
        ]
        for poster in posters:
            poster.start()
        deadline = time.monotonic() + 30
        while len(acked) < 40 and time.monotonic() < deadline:
            time.sleep(0.01)
        first.process.send_signal(signal.SIGKILL)  # the first host dies mid-post
        first.process.wait()
        killed_at = len(acked)
        deadline = time.monotonic() + 30
        while len(acked) < killed_at + 20 and time.monotonic() < deadline:
            time.sleep(0.01)  # its poster goes on at the second host
        deadline = time.monotonic() + 10
        while not on_first.closed_by_peer and time.monotonic() < deadline:
            time.sleep(0.01)
        assert on_first.closed_by_peer
        last = on_first.messages[-1].id if on_first.messages else start
        resumed = open_stream(second.url, table.id, table.bram, after=last)
        stop.set()
        for poster in posters:
            poster.join()
        assert len(acked) >= killed_at + 20, "the clients went on at the second host"
        with httpx.Client(base_url=second.url, timeout=10) as http:
            head = head_seq(http, table.id, table.narrator)
            closed = http.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
            assert closed.status_code == 201, closed.text
            export = http.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
        actions = list(range(start + 1, head + 1))
        seen_second = [m.id for m in on_second.wait_for(len(actions), timeout=15)]
        tail = [m.id for m in resumed.wait_for(head - last, timeout=15)]
        for stream in (on_second, resumed):
            stream.close()
    finally:
        first.stop()
        second.stop()
    checked = verify_export(export)
    assert checked.ok, checked.summary()
    seqs = [event["seq"] for event in export["events"]]
    assert set(acked) <= set(seqs), "every acknowledged action is in the log"
    assert len(set(acked)) == len(acked)
    assert seen_second == actions, "the second host's stream heard both hosts' actions"
    before_kill = [m.id for m in on_first.messages]
    assert before_kill + tail == actions, "the first host's client resumed with no gap"
