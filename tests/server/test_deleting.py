"""Deleting a table (DESIGN > Principles 14): the narrator's DELETE takes every row of it in
one transaction, ends its open streams, makes it 404 everywhere and touches no other table."""

from __future__ import annotations

import time
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select

from taletable.server.cookies import cookie_name
from taletable.server.deletion import TABLE_ROWS
from tests.server.conftest import Seats, make_table, start_server
from tests.server.streams import Stream, open_stream
from tests.server.test_characters import terrik


def row_counts(database_url: str, table_id: str) -> dict[str, int]:
    """How many rows each table of the schema holds for ``table_id``."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return {
                column.table.name: int(
                    connection.execute(
                        select(func.count()).select_from(column.table).where(column == table_id)
                    ).scalar_one()
                )
                for column in TABLE_ROWS
            }
    finally:
        engine.dispose()


def played(http: httpx.Client, table: Seats) -> None:
    """Give the table a roll (under a key), a character, a whisper and a secret roll."""
    actions = f"/api/tables/{table.id}/actions"
    rolled = http.post(actions, json={"action": "cogent.check", "args": {"pool": 5, "cl": 2}},
                       headers={**table.mara, "Idempotency-Key": "roll-1"})  # fmt: skip
    assert rolled.status_code == 201, rolled.text
    made = http.post(f"/api/tables/{table.id}/characters", json={"sheet": terrik()},
                     headers=table.mara)  # fmt: skip
    assert made.status_code == 201, made.text
    whisper = {"action": "chat.say", "args": {"text": "psst", "to": [table.bram_seat]}}
    assert http.post(actions, json=whisper, headers=table.mara).status_code == 201
    secret = {"action": "cogent.check", "args": {"pool": 3, "cl": 1}, "visibility": "narrator"}
    assert http.post(actions, json=secret, headers=table.narrator).status_code == 201


def ended(stream: Stream, timeout: float = 10.0) -> bool:
    """Whether the server ended ``stream`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    thread = stream._thread
    while thread is not None and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    return thread is not None and not thread.is_alive()


def seat_cookie(http: httpx.Client, table_id: str, seat: dict[str, str]) -> dict[str, str]:
    """The ``Cookie`` header of a browser seated by the seat's link (``/t/ID/enter``)."""
    token = seat["Authorization"].removeprefix("Bearer ")
    entered = http.get(f"/t/{table_id}/enter", params={"token": token}, follow_redirects=False)
    assert entered.status_code == 303, entered.text
    value = entered.cookies[cookie_name(table_id)]
    return {"Cookie": f"{cookie_name(table_id)}={value}"}


class PageStream(Stream):
    """The table page's stream (HTML entries, kept only as raw bytes)."""

    def _take(self, block: str) -> None:
        pass


def page_stream(base: str, table_id: str, cookie: dict[str, str]) -> Stream:
    """The table page's stream held open with the seat's cookie (it is the seat's presence)."""
    return PageStream(f"{base}/t/{table_id}/stream", cookie).start()


def test_the_narrator_deletes_a_whole_table_and_nothing_else(database_url: str) -> None:
    """A table with seats, rolls, a character, a whisper, a page open (presence) and open
    streams is deleted: 200, no row of it is left in any table of the schema, its streams
    end, and it is 404 to the API, its page and its join code; another table keeps every row
    and its stream."""
    server = start_server(database_url)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            doomed, kept = make_table(http), make_table(http)
            played(http, doomed)
            played(http, kept)
            streams = [open_stream(server.url, doomed.id, doomed.mara),
                       open_stream(server.url, doomed.id, doomed.narrator)]  # fmt: skip
            cookie = seat_cookie(http, doomed.id, doomed.narrator)
            streams.append(page_stream(server.url, doomed.id, cookie))
            other = open_stream(server.url, kept.id, kept.bram)
            before = row_counts(database_url, doomed.id)
            assert all(before[name] for name in ("seats", "events", "things", "presence"))
            assert before["recipients"] == 1 and before["scenes"] == 1
            assert before["idempotency_keys"] == 1
            kept_before = row_counts(database_url, kept.id)
            gone = http.delete(f"/api/tables/{doomed.id}", headers=doomed.narrator)
            assert gone.status_code == 200, gone.text
            assert gone.json()["rows"]["events"] == before["events"]
            assert all(ended(stream) for stream in streams)
            assert row_counts(database_url, doomed.id) == dict.fromkeys(before, 0)
            _gone_everywhere(http, doomed, cookie)
            assert not ended(other, timeout=0.5)
            assert row_counts(database_url, kept.id) == kept_before
            assert http.get(f"/api/tables/{kept.id}", headers=kept.bram).status_code == 200
            other.close()
    finally:
        server.stop()


def _gone_everywhere(http: httpx.Client, table: Seats, cookie: dict[str, str]) -> None:
    """The deleted table is 404 to each seat's token, its page, its join code and a stream."""
    for seat in (table.narrator, table.mara, table.observer):
        answer = http.get(f"/api/tables/{table.id}", headers=seat)
        assert answer.status_code == 404 and answer.json()["error"]["field"] == "id"
    assert http.get(f"/api/tables/{table.id}/stream", headers=table.mara).status_code == 404
    page = http.get(f"/t/{table.id}", headers=cookie)
    assert page.status_code == 404 and "no such table" in page.text
    assert http.get("/join", params={"code": table.join_code}).status_code == 404
    again = http.delete(f"/api/tables/{table.id}", headers=table.narrator)
    assert again.status_code == 404


def test_only_the_narrator_deletes_a_table(database_url: str) -> None:
    """A player's and an observer's DELETE are 403 naming the narrator, and change no row;
    a table that is not there is 404; no token is 401."""
    from fastapi.testclient import TestClient

    from taletable.server import create_app
    from tests.server.conftest import TEST_LIMITS

    with TestClient(create_app(database_url, limits=TEST_LIMITS)) as client:
        table = make_table(client)
        played(client, table)  # type: ignore[arg-type]
        before = row_counts(database_url, table.id)
        for seat in (table.mara, table.observer):
            refused = client.delete(f"/api/tables/{table.id}", headers=seat)
            assert refused.status_code == 403, refused.text
            error: dict[str, Any] = refused.json()["error"]
            assert error["field"] == "authorization" and "narrator" in error["message"]
        assert row_counts(database_url, table.id) == before
        assert client.delete(f"/api/tables/{table.id}").status_code == 401
        unknown = client.delete("/api/tables/no-such-table", headers=table.narrator)
        assert unknown.status_code == 404 and unknown.json()["error"]["field"] == "id"
        assert client.get(f"/api/tables/{table.id}", headers=table.mara).status_code == 200


def test_the_narrator_deletes_the_table_from_its_page_by_typing_its_name(
    database_url: str,
) -> None:
    """The narrator's tools link to the delete page; a wrong name is 422 and deletes nothing;
    a post from another site is 403; a player is refused; the name typed (in any case)
    deletes every row, forgets the cookie and the table page is 404 after."""
    from fastapi.testclient import TestClient

    from taletable.server import create_app
    from tests.server.conftest import SAME_ORIGIN, TEST_LIMITS

    with TestClient(create_app(database_url, limits=TEST_LIMITS)) as client:
        table = make_table(client)
        played(client, table)  # type: ignore[arg-type]
        before = row_counts(database_url, table.id)
        player = seat_cookie(client, table.id, table.mara)  # type: ignore[arg-type]
        client.cookies.clear()
        narrator = seat_cookie(client, table.id, table.narrator)  # type: ignore[arg-type]
        client.cookies.clear()
        assert f'href="/t/{table.id}/delete"' in client.get(f"/t/{table.id}", headers=narrator).text
        url = f"/t/{table.id}/delete"
        assert "Type the table" in client.get(url, headers=narrator).text
        assert client.get(url, headers=player).status_code == 403
        wrong = client.post(url, data={"confirm": "Tavern?"}, headers={**narrator, **SAME_ORIGIN})
        assert wrong.status_code == 422 and "nothing was deleted" in wrong.text
        cross = client.post(url, data={"confirm": "Tavern"},
                            headers={**narrator, "Origin": "https://evil.example"})  # fmt: skip
        assert cross.status_code == 403
        refused = client.post(url, data={"confirm": "Tavern"}, headers={**player, **SAME_ORIGIN})
        assert refused.status_code == 403 and "narrator may delete it" in refused.text
        assert row_counts(database_url, table.id) == before
        done = client.post(url, data={"confirm": " tavern "}, headers={**narrator, **SAME_ORIGIN},
                           follow_redirects=False)  # fmt: skip
        assert done.status_code == 303 and done.headers["location"] == "/tables?deleted=1"
        assert f'{cookie_name(table.id)}=""' in done.headers["set-cookie"]
        assert row_counts(database_url, table.id) == dict.fromkeys(before, 0)
        assert client.get(f"/t/{table.id}", headers=narrator).status_code == 404
        assert "is deleted" in client.get("/tables?deleted=1").text
