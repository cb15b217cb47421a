"""Tables and seats: making, joining, tokens, the join code."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import Seats, bearer, make_table


def test_a_table_opens_with_its_first_scene_committed(client: TestClient) -> None:
    """A new table answers 201 with its id, the narrator's token and a join code; every seat
    reads the open scene's commitment."""
    seats = make_table(client, edition="tiered")
    for headers in (seats.narrator, seats.mara, seats.observer):
        shown = client.get(f"/api/tables/{seats.id}", headers=headers).json()
        assert (shown["system"], shown["edition"], shown["scene"]) == ("cogent", "tiered", 1)
        assert len(shown["commitment"]) == 64
    assert {seat["name"] for seat in shown["seats"]} == {"narrator", "Mara", "Bram", "Owl"}


def test_tokens_of_no_seat_or_another_table_are_refused(client: TestClient, table: Seats) -> None:
    """No token is 401; a token of another table is 403; a made-up token is 401."""
    other = make_table(client)
    assert client.get(f"/api/tables/{table.id}").status_code == 401
    assert client.get(f"/api/tables/{table.id}", headers=other.mara).status_code == 403
    refused = client.get(f"/api/tables/{table.id}", headers=bearer("not-a-token"))
    assert refused.status_code == 401
    assert refused.json()["error"]["field"] == "authorization"


def test_a_wrong_join_code_is_403_and_the_narrator_can_change_it(
    client: TestClient, table: Seats
) -> None:
    """Joining with another code is refused; after a change the old code stops working."""
    join = f"/api/tables/{table.id}/join"
    wrong = client.post(join, json={"code": "guess", "name": "Eve", "role": "player"})
    assert (wrong.status_code, wrong.json()["error"]["field"]) == (403, "code")
    assert (
        client.put(f"/api/tables/{table.id}/join-code", json={}, headers=table.mara).status_code
        == 403
    )
    changed = client.put(f"/api/tables/{table.id}/join-code", json={}, headers=table.narrator)
    new_code = changed.json()["join_code"]
    old = client.post(join, json={"code": table.join_code, "name": "Eve", "role": "player"})
    assert old.status_code == 403
    new = client.post(join, json={"code": new_code, "name": "Eve", "role": "observer"})
    assert new.status_code == 201


def test_bad_tables_name_their_field(client: TestClient) -> None:
    """An edition for a system without editions, an unknown system, an empty name: 422."""
    cases = [
        ({"name": "x", "system": "boons", "edition": "core"}, "edition"),
        ({"name": "x", "system": "chess"}, "system"),
        ({"name": "", "system": "boons"}, "name"),
    ]
    for body, field in cases:
        answer = client.post("/api/tables", json=body)
        assert (answer.status_code, answer.json()["error"]["field"]) == (422, field), body


def test_an_unknown_table_is_404_for_a_real_seat(client: TestClient, table: Seats) -> None:
    """A seat asking about an id no table has gets 404 naming ``id`` (none, or deleted); about
    another table that is there, 403 (its token is for its own table)."""
    unknown = client.get("/api/tables/nope", headers=table.mara)
    assert unknown.status_code == 404 and unknown.json()["error"]["field"] == "id"
    other = make_table(client)
    assert client.get(f"/api/tables/{other.id}", headers=table.mara).status_code == 403
