"""Actions at a live table: the registry's actions, server dice, visibility, the log as truth."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from taletable.ledger import verify_export
from taletable.log_entry import read_entry
from taletable.server.state import state_from_log
from taletable.store.sql import THINGS
from tests.server.conftest import Seats, make_table
from tests.server.test_characters import terrik


def act(client: TestClient, table: Seats, headers: dict[str, str], **body: Any) -> Any:
    return client.post(f"/api/tables/{table.id}/actions", json=body, headers=headers)


def test_a_check_rolls_server_dice_and_answers_with_its_event(
    client: TestClient, table: Seats
) -> None:
    """201 with the event: seq, kind, actor, the result as ``cogent check --json`` gives it."""
    made = act(client, table, table.mara, action="cogent.check", args={"pool": 5, "cl": 2})
    assert made.status_code == 201
    event = made.json()
    assert (event["kind"], event["actor"], event["visibility"]) == (
        "cogent.check",
        table.mara_seat,
        "public",
    )
    assert event["result"]["pool"] == 5 and event["result"]["dice_source"] == "ledger"
    assert [die["face"] for die in event["dice"]] == event["result"]["faces"]


def test_a_check_from_a_stored_sheet(client: TestClient, table: Seats) -> None:
    """``{"character": CID, "skill": ..., "cl": ...}`` builds the pool from the stored sheet."""
    made = client.post(
        f"/api/tables/{table.id}/characters", json={"sheet": terrik()}, headers=table.mara
    )
    cid = made.json()["id"]
    rolled = act(
        client,
        table,
        table.mara,
        action="cogent.check",
        args={"character": cid, "skill": "Athletics", "cl": 3},
    )
    assert rolled.status_code == 201, rolled.text
    assert any(part["source"] == "Athletics" for part in rolled.json()["result"]["breakdown"])


def test_bad_actions_name_their_field(client: TestClient, table: Seats) -> None:
    """An unknown action, a malformed arg, a seed: 422 naming ``action`` or ``args.NAME``."""
    cases = [
        ({"action": "cogent.fly", "args": {}}, "action"),
        ({"action": "cogent.check", "args": {"pool": 4, "cl": "high"}}, "args.cl"),
        ({"action": "cogent.check", "args": {"pool": 4, "cl": 1, "seed": 7}}, "args.seed"),
        (
            {"action": "cogent.check", "args": {"pool": 4, "cl": 1, "faces": [4, 4, 4, 4]}},
            "args.faces",
        ),
        (
            {"action": "cogent.check", "args": {"pool": 4, "cl": 1}, "visibility": "secret"},
            "visibility",
        ),
    ]
    for body, field in cases:
        answer = act(client, table, table.mara, **body)
        assert (answer.status_code, answer.json()["error"]["field"]) == (422, field), body


def test_physical_dice_where_the_table_allows_them_are_marked_entered(client: TestClient) -> None:
    """Faces typed in are used and the event says ``entered``; the server rolled nothing."""
    table = make_table(client, physical_dice=True)
    made = act(
        client,
        table,
        table.mara,
        action="cogent.check",
        args={"pool": 4, "cl": 2, "faces": "4,5,1,2"},
    )
    event = made.json()
    assert event["entered"] is True and event["dice"] == []
    assert event["result"]["faces"] == [4, 5, 1, 2] and event["result"]["wins"] == 2


def test_secrets_never_reach_a_player(client: TestClient, table: Seats) -> None:
    """A narrator-only roll is absent from a player's events; a blind roll shows its roller a
    stub without result or faces, and other players nothing. Checked on the raw bytes."""
    secret = act(
        client,
        table,
        table.narrator,
        action="cogent.check",
        args={"pool": 7, "cl": 3},
        visibility="narrator",
    ).json()
    blind = act(
        client,
        table,
        table.mara,
        action="cogent.check",
        args={"pool": 6, "cl": 2},
        visibility="blind",
    )
    assert set(blind.json()) == {
        "seq",
        "kind",
        "actor",
        "visibility",
        "at",
        "scene",
        "action",
        "hidden",
        "dice_version",
        "dice_commitment",  # the commitment to its dice's own secret (issue 22 point 1)
        "body_hash",  # its body's hash (chain 2), unguessable: the body holds that secret
        "roll",  # its place among its seat's rolls (chain 2: no one shifts which gets which dice)
    }
    narrator_view = client.get(f"/api/tables/{table.id}/events", headers=table.narrator).json()
    full_blind = next(e for e in narrator_view["events"] if e["seq"] == blind.json()["seq"])
    assert full_blind["result"]["pool"] == 6
    assert full_blind["dice_commitment"] == blind.json()["dice_commitment"]
    for headers in (table.mara, table.bram, table.observer):
        raw = client.get(f"/api/tables/{table.id}/events", headers=headers).content
        assert b'"pool":7' not in raw and b'"result"' not in raw and b'"dice"' not in raw
        assert full_blind["dice_secret"].encode() not in raw and b'"dice_secret"' not in raw
        assert f'"seq":{secret["seq"]},'.encode() not in raw
        seqs = [event["seq"] for event in json.loads(raw)["events"]]
        assert (blind.json()["seq"] in seqs) == (headers is table.mara)


def test_the_log_is_the_truth(client: TestClient, table: Seats, database_url: str) -> None:
    """State rebuilt from the log's saves equals the stored rows; the export verifies."""
    base = f"/api/tables/{table.id}/characters"
    cid = client.post(base, json={"sheet": terrik()}, headers=table.mara).json()["id"]
    sheet = terrik()
    sheet["identity"]["name"] = "Terrik"
    client.put(f"{base}/{cid}", json={"sheet": sheet, "version": 1}, headers=table.mara)
    act(
        client,
        table,
        table.mara,
        action="cogent.check",
        args={"character": cid, "skill": "Athletics", "cl": 2},
    )
    client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
    export = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    assert verify_export(export).ok and verify_export(export).dice_checked > 0
    entries = map(read_entry, export["events"])
    rebuilt = {key: (thing.version, thing.data) for key, thing in state_from_log(entries).items()}
    database = client.app.state.world.database  # type: ignore[attr-defined]
    with database.read() as connection:
        rows = connection.execute(select(THINGS).where(THINGS.c.scope == table.id)).all()
    stored = {(row.kind, row.key): (row.version, json.loads(row.data)) for row in rows}
    assert rebuilt == stored and stored[("character", cid)][0] == 2


def test_import_rebuilds_a_table_from_its_export(
    client: TestClient, table: Seats, empty_database_url: str
) -> None:
    """An export imported into an empty server (SQLite file or PostgreSQL database) verifies
    and gives back the same sheet."""
    base = f"/api/tables/{table.id}/characters"
    cid = client.post(base, json={"sheet": terrik()}, headers=table.mara).json()["id"]
    export = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    assert client.post("/api/tables/import", json=export).status_code == 409
    tampered = json.loads(json.dumps(export))
    tampered["events"][-1]["saves"][0]["data"]["identity"]["name"] = "Forged"
    assert client.post("/api/tables/import", json=tampered).status_code == 422
    from taletable.server import create_app
    from tests.server.conftest import TEST_LIMITS

    with TestClient(create_app(empty_database_url, limits=TEST_LIMITS)) as other:
        made = other.post("/api/tables/import", json=export).json()
        headers = {"Authorization": f"Bearer {made['narrator_token']}"}
        assert other.get(f"/api/tables/{table.id}/characters/{cid}", headers=headers).json() == {
            "sheet": terrik(),
            "version": 1,
        }
        again = other.get(f"/api/tables/{table.id}/export", headers=headers).json()
        assert (
            verify_export(again).ok and again["events"][: len(export["events"])] == export["events"]
        )
