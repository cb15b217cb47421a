"""SIGTERM drains a real `taletable serve` (``server/drain.py``): readiness turns 503 at once,
new changes are refused with 503 and ``Retry-After``, actions in flight are answered, every
open stream ends its body with a ``reconnect`` event naming its last seq, the process exits
within the documented bound with no traceback in its log, and every client resumes on a new
server over the same database from that seq, missing nothing and seeing nothing twice."""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi.testclient import TestClient

from taletable.server.drain import STOPPING
from tests.server.conftest import SAME_ORIGIN, LiveServer, Seats, make_table, start_server
from tests.server.streams import Stream, head_seq, open_stream

CHECK = {"action": "cogent.check", "args": {"pool": 5, "cl": 2}}
#: The drain's wait in these tests, and the bound the README gives with it (3 + 5 + 1 s
#: by default: the wait, the grace of requests in flight, the rest of the shutdown).
DRAIN = 1.5
BOUND = DRAIN + 5 + 1


@dataclass
class Posts:
    """What one client posting actions without pause was answered."""

    acked: list[int] = field(default_factory=list)
    refused: list[httpx.Response] = field(default_factory=list)
    #: A request the server never read: sent on a connection the kernel took into the
    #: listening socket's backlog as it closed (reset unread; no server can answer those)
    cut: list[str] = field(default_factory=list)


def _post_until_gone(url: str, table: Seats, posts: Posts, stop: threading.Event) -> None:
    with httpx.Client(base_url=url, timeout=15) as http:
        while not stop.is_set():
            try:
                answer = http.post(f"/api/tables/{table.id}/actions", json=CHECK,
                                   headers=table.mara)  # fmt: skip
            except httpx.ConnectError:
                return  # the server stopped listening: nothing was sent
            except (httpx.RemoteProtocolError, httpx.ReadError) as error:
                posts.cut.append(repr(error))
                return
            if answer.status_code == 201:
                posts.acked.append(answer.json()["seq"])
            else:
                posts.refused.append(answer)


def _page_stream(url: str, table: Seats, token: str, after: int) -> Stream:
    """The table page's stream of ``token``'s seat (seated by the page's cookie)."""
    with httpx.Client(base_url=url) as client:
        entered = client.get(f"/t/{table.id}/enter", params={"token": token})
        assert entered.status_code == 303, entered.text
        cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    headers = {"Cookie": cookie, "Last-Event-ID": str(after)}
    return Stream(f"{url}/t/{table.id}/stream", headers).start()


def _ready_turns(server: LiveServer, within: float) -> httpx.Response:
    """The first /readyz answer that is not 200, asked for until ``within`` seconds pass."""
    deadline = time.monotonic() + within
    while True:
        answer = httpx.get(f"{server.url}/readyz", timeout=2)
        if answer.status_code != 200 or time.monotonic() > deadline:
            return answer
        time.sleep(0.02)


def test_sigterm_drains_streams_and_actions_and_loses_nothing(database_url: str) -> None:
    """Two clients post actions without pause while three API streams and a table page's
    stream are open (two workers on PostgreSQL); then SIGTERM."""
    workers = 1 if database_url.startswith("sqlite") else 2
    server = start_server(database_url, workers=workers,
                          environment={"TALETABLE_DRAIN_SECONDS": str(DRAIN)})  # fmt: skip
    with httpx.Client(base_url=server.url, timeout=10) as http:
        table = make_table(http)
        start = head_seq(http, table.id, table.narrator)
    seats = [table.narrator, table.bram, table.observer]
    streams = [open_stream(server.url, table.id, seat, after=start) for seat in seats]
    token = table.bram["Authorization"].removeprefix("Bearer ")
    page = _page_stream(server.url, table, token, start)
    posts, stop = [Posts(), Posts()], threading.Event()
    threads = [threading.Thread(target=_post_until_gone, args=(server.url, table, p, stop))
               for p in posts]  # fmt: skip
    for thread in threads:
        thread.start()
    while sum(len(p.acked) for p in posts) < 20:
        time.sleep(0.01)
    signalled = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    not_ready = _ready_turns(server, within=1.0)  # the supervisor passes it on within 0.5 s
    assert not_ready.status_code == 503, not_ready.text
    assert not_ready.json()["error"]["field"] == "server"
    assert not_ready.headers["Retry-After"] == "2"
    server.process.wait(timeout=BOUND + 5)
    exited = time.monotonic() - signalled
    stop.set()
    for thread in threads:
        thread.join()
    assert DRAIN <= exited < BOUND, exited
    log = server.log()
    assert "Traceback" not in log and "CancelledError" not in log, log
    # new changes were refused while it drained, saying so
    refused = [answer for p in posts for answer in p.refused]
    assert refused, "the clients posted during the drain's wait"
    for answer in refused:
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "2", answer.text
        assert answer.json()["error"]["field"] == "server", answer.text
    # every stream ended its body properly, its last message the reconnect event
    for stream in [*streams, page]:
        assert stream.ended_cleanly and not stream.closed_by_peer, stream.raw[-300:]
        assert stream.reconnect is not None, stream.raw[-300:]
        last = bytes(stream.raw).removesuffix(b"\n\n").rsplit(b"\n\n", 1)[-1]
        assert last.startswith(b"retry: 1000\nevent: reconnect\nid: "), stream.raw[-300:]
        assert stream.reconnect.data["after"] == stream.reconnect.id
    _resume_on_a_new_server(database_url, table, start, seats, streams, page, posts)


def _resume_on_a_new_server(
    database_url: str, table: Seats, start: int, seats: list[dict[str, str]],
    streams: list[Stream], page: Stream, posts: list[Posts],
) -> None:  # fmt: skip
    """A fresh server over the same database: every acknowledged seq is in the log, and each
    stream, resumed from its reconnect's id, gets exactly what its seat missed, then more."""
    again = start_server(database_url)
    try:
        with httpx.Client(base_url=again.url, timeout=10) as http:
            events = http.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
            # every action answered 201 is in the log, and every action in the log was answered
            # (a request cut off unread was never carried out)
            logged = [event["seq"] for event in events["events"] if event["seq"] > start]
            acked = [seq for p in posts for seq in p.acked]
            assert sorted(acked) == logged, (sorted(acked), logged)
            resumed = [open_stream(again.url, table.id, seat, after=stream.reconnect.id)
                       for seat, stream in zip(seats, streams, strict=True)
                       if stream.reconnect is not None]  # fmt: skip
            later = http.post(f"/api/tables/{table.id}/actions", json=CHECK, headers=table.mara)
            assert later.status_code == 201, later.text
            for seat, before, after in zip(seats, streams, resumed, strict=True):
                seen = _seen(http, table, seat, start)
                got = after.wait_for(len(seen) - len(before.messages), timeout=10)
                ids = [m.id for m in before.messages] + [m.id for m in got]
                assert ids == seen, (ids, seen)
                after.close()
            assert later.json()["seq"] in ids
            assert page.reconnect is not None
            page_seen = [seq for event, seq in page.named if event == "log"]
            bram = _seen(http, table, table.bram, start)
            assert page_seen == [seq for seq in bram if seq <= page.reconnect.id]
    finally:
        again.stop()


def _seen(http: httpx.Client, table: Seats, seat: dict[str, str], start: int) -> list[int]:
    """The seqs of the events ``seat`` may see after ``start``, in order."""
    answer: Any = http.get(f"/api/tables/{table.id}/events", params={"after": start},
                           headers=seat).json()  # fmt: skip
    return [event["seq"] for event in answer["events"]]


def test_a_draining_worker_refuses_changes_in_words_and_serves_reads(
    client: TestClient, table: Seats
) -> None:
    """While it drains, a page's post and an API change are refused with Retry-After, saying
    so (htmx, which swaps no 5xx, gets the line with 200), nothing is done, and reads go on."""
    before = head_seq(client, table.id, table.narrator)  # type: ignore[arg-type]
    client.app.state.world.hub.draining = True  # type: ignore[attr-defined]
    api = client.post(f"/api/tables/{table.id}/actions", json=CHECK, headers=table.mara)
    assert api.status_code == 503 and api.headers["Retry-After"] == "2", api.text
    assert api.json()["error"] == {"field": "server", "message": STOPPING}
    form = {"pool": "5", "cl": "2", "mode": "pool"}
    whole = client.post(f"/t/{table.id}/roll", data=form, headers=SAME_ORIGIN)
    assert whole.status_code == 503 and whole.headers["Retry-After"] == "2"
    assert 'role="alert"' in whole.text and "restarting" in whole.text
    htmx = client.post(f"/t/{table.id}/roll", data=form, headers={"HX-Request": "true"})
    assert htmx.status_code == 200 and htmx.headers["Retry-After"] == "2"
    assert 'role="alert"' in htmx.text and "restarting" in htmx.text
    assert head_seq(client, table.id, table.narrator) == before  # type: ignore[arg-type]
    assert client.get("/readyz").json()["error"]["field"] == "server"
