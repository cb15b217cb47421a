"""A player or an observer leaves for good: its seat and the characters it owns are removed,
the log keeps every entry (it is the truth, and hash-chained), and its streams end."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from taletable.audit import verify_table
from taletable.server import create_app
from taletable.server.cookies import cookie_name
from taletable.server.schema import SEATS, THINGS
from tests.server.conftest import SAME_ORIGIN, TEST_LIMITS, make_table, start_server
from tests.server.streams import open_stream
from tests.server.test_characters import terrik
from tests.server.test_deleting import ended, played, row_counts, seat_cookie


def rows(database_url: str, query: Any) -> list[Any]:
    """The rows ``query`` reads."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(query))
    finally:
        engine.dispose()


def test_a_player_removes_its_seat_and_its_characters(database_url: str) -> None:
    """Mara's DELETE .../seat removes her seat and her character, not Bram's; every log entry
    stays and the narrator's export still verifies; her stream ends and her token seats no
    one (401); the narrator's own seat is 403 (delete the table instead)."""
    server = start_server(database_url)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            table = make_table(http)
            played(http, table)  # Mara's roll, character and whisper to Bram
            brams = http.post(f"/api/tables/{table.id}/characters", json={"sheet": terrik()},
                              headers=table.bram).json()["id"]  # fmt: skip
            stream = open_stream(server.url, table.id, table.mara)
            before = row_counts(database_url, table.id)
            narrator = http.delete(f"/api/tables/{table.id}/seat", headers=table.narrator)
            assert narrator.status_code == 403 and "delete" in narrator.json()["error"]["message"]
            gone = http.delete(f"/api/tables/{table.id}/seat", headers=table.mara)
            assert gone.status_code == 200, gone.text
            assert gone.json()["seat"] == table.mara_seat and len(gone.json()["characters"]) == 1
            assert ended(stream)
            after = row_counts(database_url, table.id)
            assert after["seats"] == before["seats"] - 1 and after["things"] == before["things"] - 1
            assert after["events"] == before["events"] and after["recipients"] == 1
            seats = rows(database_url, select(SEATS.c.id).where(SEATS.c.table_id == table.id))
            assert table.mara_seat not in {row.id for row in seats}
            kept = rows(database_url, select(THINGS.c.key).where(THINGS.c.scope == table.id))
            assert [row.key for row in kept] == [brams]
            assert http.get(f"/api/tables/{table.id}", headers=table.mara).status_code == 401
            assert http.get(f"/api/tables/{table.id}", headers=table.bram).status_code == 200
            export = http.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
            assert verify_table(export).ok
    finally:
        server.stop()


def test_leaving_from_the_tables_page_may_remove_the_seat(database_url: str) -> None:
    """The tables page offers a player to remove its seat and characters when leaving; the
    post (from the page's own origin) removes them and forgets the cookie; from another site
    it is 403 and removes nothing."""
    with TestClient(create_app(database_url, limits=TEST_LIMITS)) as client:
        table = make_table(client)
        played(client, table)  # type: ignore[arg-type]
        cookie = seat_cookie(client, table.id, table.mara)  # type: ignore[arg-type]
        client.cookies.clear()
        assert 'name="remove"' in client.get("/tables", headers=cookie).text
        before = row_counts(database_url, table.id)
        url = f"/t/{table.id}/leave"
        cross = client.post(url, data={"remove": "true"},
                            headers={**cookie, "Origin": "https://evil.example"})  # fmt: skip
        assert cross.status_code == 403 and row_counts(database_url, table.id) == before
        left = client.post(url, data={"remove": "true"}, headers={**cookie, **SAME_ORIGIN},
                           follow_redirects=False)  # fmt: skip
        assert left.status_code == 303 and "removed=1" in left.headers["location"]
        assert f'{cookie_name(table.id)}=""' in left.headers["set-cookie"]
        after = row_counts(database_url, table.id)
        assert after["seats"] == before["seats"] - 1 and after["things"] == before["things"] - 1
        assert client.get(f"/api/tables/{table.id}", headers=table.mara).status_code == 401
