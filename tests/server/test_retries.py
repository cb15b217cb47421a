"""Safe retries (issue 34.7; server/retries.py): an action sent again under the same
``Idempotency-Key`` by the same seat gets the first answer (status and body, byte for byte) and
writes nothing, on SQLite and PostgreSQL, on another worker and after a restart; the same key
with another body is a 422 naming the header; a key is the seat's own; a bad key is refused
before any work; keys older than 24 hours go."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select, update

from taletable.server.retries import HEADER, KEEP_SECONDS
from taletable.server.schema import EVENTS, RETRIES
from tests.server.conftest import Seats, make_table, start_server

CHECK = {"action": "cogent.check", "args": {"pool": 5, "cl": 2}}
ANOTHER = {"action": "cogent.check", "args": {"pool": 6, "cl": 2}}


def keyed(seat: dict[str, str], key: str) -> dict[str, str]:
    return {**seat, HEADER: key}


def head(http: Any, table: Seats) -> int:
    return int(http.get(f"/api/tables/{table.id}", headers=table.narrator).json()["head_seq"])


def events_of(database_url: str, table_id: str) -> int:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            counted = select(func.count()).select_from(EVENTS).where(EVENTS.c.table_id == table_id)
            return int(connection.execute(counted).scalar_one())
    finally:
        engine.dispose()


def test_a_retry_gets_the_first_answer_and_writes_nothing(client: TestClient, table: Seats) -> None:
    """The same key and body three times: one event; each answer is the first's, status and
    bytes (its seq, its dice); a new key takes a new roll."""
    actions = f"/api/tables/{table.id}/actions"
    before = head(client, table)
    first = client.post(actions, json=CHECK, headers=keyed(table.mara, "roll-1"))
    assert first.status_code == 201, first.text
    for _ in range(2):
        again = client.post(actions, json=CHECK, headers=keyed(table.mara, "roll-1"))
        assert (again.status_code, again.content) == (201, first.content)
    assert head(client, table) == before + 1 == first.json()["seq"]
    fresh = client.post(actions, json=CHECK, headers=keyed(table.mara, "roll-2"))
    assert fresh.status_code == 201 and fresh.json()["seq"] == before + 2
    plain = [client.post(actions, json=CHECK, headers=table.mara) for _ in range(2)]
    assert [answer.json()["seq"] for answer in plain] == [before + 3, before + 4]


def test_a_blind_rolls_retry_gets_the_stub_it_got_first(client: TestClient, table: Seats) -> None:
    """What the seat was first answered is what a retry answers: a blind roll's stub."""
    blind = {**CHECK, "visibility": "blind"}
    actions = f"/api/tables/{table.id}/actions"
    first = client.post(actions, json=blind, headers=keyed(table.mara, "blind-1"))
    again = client.post(actions, json=blind, headers=keyed(table.mara, "blind-1"))
    assert first.status_code == 201 and "result" not in first.json()
    assert again.content == first.content


def test_the_same_key_with_another_body_is_refused_and_changes_nothing(
    client: TestClient, table: Seats
) -> None:
    actions = f"/api/tables/{table.id}/actions"
    client.post(actions, json=CHECK, headers=keyed(table.mara, "k-1"))
    before = head(client, table)
    for other in (ANOTHER, {**CHECK, "visibility": "blind"}):
        refused = client.post(actions, json=other, headers=keyed(table.mara, "k-1"))
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["field"] == HEADER and "used for another request" in error["message"]
    assert head(client, table) == before


def test_a_key_is_its_seats_own(client: TestClient, table: Seats) -> None:
    """Two seats sending the same key take two actions, each its own, and each retry gets its
    own seat's first answer."""
    actions = f"/api/tables/{table.id}/actions"
    mara = client.post(actions, json=CHECK, headers=keyed(table.mara, "same"))
    bram = client.post(actions, json=ANOTHER, headers=keyed(table.bram, "same"))
    assert mara.status_code == bram.status_code == 201
    assert bram.json()["seq"] == mara.json()["seq"] + 1
    assert client.post(actions, json=CHECK, headers=keyed(table.mara, "same")).content == (
        mara.content
    )
    assert client.post(actions, json=ANOTHER, headers=keyed(table.bram, "same")).content == (
        bram.content
    )


@pytest.mark.parametrize(
    "key", ["", "x" * 129, "has space", "naïve".encode(), "a;b", "line\nbreak"]
)
def test_a_key_too_long_or_of_other_characters_is_refused_before_any_work(
    client: TestClient, table: Seats, key: str | bytes
) -> None:
    before = head(client, table)
    headers: dict[str, Any] = {**table.mara, HEADER: key}
    try:
        refused = client.post(f"/api/tables/{table.id}/actions", json=CHECK, headers=headers)
    except httpx.LocalProtocolError:  # a header httpx will not send is no request at all
        return
    assert refused.status_code == 422, refused.text
    assert refused.json()["error"]["field"] == HEADER and "1 to 128" in refused.text
    assert head(client, table) == before


def test_the_longest_key_is_taken(client: TestClient, table: Seats) -> None:
    key = "A1._:+/=-" * 14 + "ab"  # 128 characters
    answer = client.post(f"/api/tables/{table.id}/actions", json=CHECK,
                         headers=keyed(table.mara, key))  # fmt: skip
    assert len(key) == 128 and answer.status_code == 201, answer.text


def test_a_refused_action_keeps_no_key_and_a_read_none(
    client: TestClient, table: Seats, database_url: str
) -> None:
    """An action refused (here a pool that is no number) wrote nothing, so its key is free:
    the corrected request under it is taken. A read with a key is answered, nothing kept."""
    actions = f"/api/tables/{table.id}/actions"
    wrong = {"action": "cogent.check", "args": {"pool": "five", "cl": 2}}
    assert client.post(actions, json=wrong, headers=keyed(table.mara, "k")).status_code == 422
    taken = client.post(actions, json=CHECK, headers=keyed(table.mara, "k"))
    assert taken.status_code == 201, taken.text
    odds = {"action": "odds.cogent", "args": {"pool": 5, "cl": 2}}
    for _ in range(2):
        read = client.post(actions, json=odds, headers=keyed(table.mara, "odds"))
        assert read.status_code == 200, read.text
    assert set(kept_keys(database_url, table.id)) == {"k"}


def kept_keys(database_url: str, table_id: str) -> list[str]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(select(RETRIES.c.key).where(RETRIES.c.table_id == table_id))
            return [row.key for row in rows]
    finally:
        engine.dispose()


def test_keys_are_kept_a_day_and_pruned_after(
    client: TestClient, table: Seats, database_url: str
) -> None:
    """A key a day old (and one second) goes with the table's next keyed action; one younger
    than a day is kept, and its retry still gets its first answer."""
    actions = f"/api/tables/{table.id}/actions"
    old = client.post(actions, json=CHECK, headers=keyed(table.mara, "old"))
    young = client.post(actions, json=CHECK, headers=keyed(table.bram, "young"))
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            for key, age in (("old", KEEP_SECONDS + 1), ("young", KEEP_SECONDS - 60)):
                connection.execute(
                    update(RETRIES).where((RETRIES.c.table_id == table.id) & (RETRIES.c.key == key))
                    .values(made_at=time.time() - age)
                )  # fmt: skip
    finally:
        engine.dispose()
    assert client.post(actions, json=CHECK, headers=keyed(table.mara, "next")).status_code == 201
    assert sorted(kept_keys(database_url, table.id)) == ["next", "young"]
    assert client.post(actions, json=CHECK, headers=keyed(table.bram, "young")).content == (
        young.content
    )
    assert old.status_code == 201


def test_a_retry_after_a_restart_gets_the_first_answer(database_url: str) -> None:
    """The key is in the database: a server stopped and started again answers the retry with
    the first answer and writes nothing."""
    server = start_server(database_url)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            table = make_table(http)
            first = http.post(f"/api/tables/{table.id}/actions", json=CHECK,
                              headers=keyed(table.mara, "before-restart"))  # fmt: skip
            assert first.status_code == 201, first.text
    finally:
        server.stop()
    events = events_of(database_url, table.id)
    server = start_server(database_url)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            again = http.post(f"/api/tables/{table.id}/actions", json=CHECK,
                              headers=keyed(table.mara, "before-restart"))  # fmt: skip
            assert (again.status_code, again.content) == (201, first.content)
    finally:
        server.stop()
    assert events_of(database_url, table.id) == events


@pytest.mark.postgresql
def test_retries_on_two_workers_log_one_event(postgresql_url: str) -> None:
    """Two server processes on one PostgreSQL: a retry sent to the other worker gets the first
    answer; the same keyed request sent to both at once, ten times over, logs one event each
    time, and both answers are the same."""
    first, second = start_server(postgresql_url), start_server(postgresql_url)
    try:
        with httpx.Client(base_url=first.url, timeout=10) as one, \
                httpx.Client(base_url=second.url, timeout=10) as two:  # fmt: skip
            table = make_table(one)
            actions = f"/api/tables/{table.id}/actions"
            taken = one.post(actions, json=CHECK, headers=keyed(table.mara, "lost"))
            retried = two.post(actions, json=CHECK, headers=keyed(table.mara, "lost"))
            assert (retried.status_code, retried.content) == (201, taken.content)
            before = events_of(postgresql_url, table.id)
            for attempt in range(10):
                answers = _at_once([one, two], actions, keyed(table.mara, f"race-{attempt}"))
                assert [a.status_code for a in answers] == [201, 201]
                assert answers[0].content == answers[1].content
            assert events_of(postgresql_url, table.id) == before + 10
    finally:
        first.stop()
        second.stop()


def _at_once(clients: list[httpx.Client], path: str, headers: dict[str, str]) -> list[Any]:
    """The same request sent by each client at the same moment (one thread each)."""
    answers: list[Any] = [None] * len(clients)
    start = threading.Barrier(len(clients))

    def send(index: int) -> None:
        start.wait()
        answers[index] = clients[index].post(path, json=CHECK, headers=headers)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    return answers


def test_a_page_request_of_several_actions_keeps_each_under_its_own_slot() -> None:
    """The wizard takes several actions in one request: the first is kept under the key, the
    next under KEY#2, KEY#3, so a retry of the request replays each in turn; the fingerprint
    is the request's (the same for each)."""
    from taletable.server.retries import retry_key

    retry = retry_key("abc", {"path": "/t/x/wizard", "form": [["step", "review"]]})
    assert retry is not None
    assert [retry.next_slot() for _ in range(3)] == ["abc", "abc#2", "abc#3"]
    again = retry_key("abc", {"path": "/t/x/wizard", "form": [["step", "review"]]})
    other = retry_key("abc", {"path": "/t/x/wizard", "form": [["step", "identity"]]})
    assert again is not None and other is not None
    assert again.fingerprint == retry.fingerprint != other.fingerprint
    assert retry_key(None, {}) is None
