"""Characters at a live table: the sheet document by version; stale edits are 409."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.server.conftest import Seats

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def terrik() -> dict[str, Any]:
    """Sir Terrik's sheet, legal under the core rules, as the JSON of its file."""
    data = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def named(name: str) -> dict[str, Any]:
    """Sir Terrik's sheet under another name."""
    sheet = terrik()
    sheet["identity"]["name"] = name
    return sheet


def test_create_read_and_edit_by_version(client: TestClient, table: Seats) -> None:
    """201 with an id at version 1; GET returns it; PUT from version 1 makes version 2."""
    base = f"/api/tables/{table.id}/characters"
    made = client.post(base, json={"sheet": terrik()}, headers=table.mara)
    assert made.status_code == 201 and made.json()["version"] == 1
    url = f"{base}/{made.json()['id']}"
    read = client.get(url, headers=table.bram).json()
    assert read == {"sheet": terrik(), "version": 1}
    edited = client.put(
        url, json={"sheet": named("Sir Terrik the Bold"), "version": 1}, headers=table.mara
    )
    assert edited.json() == {"version": 2}
    shown = client.get(url, headers=table.observer).json()["sheet"]
    assert shown["identity"]["name"] == "Sir Terrik the Bold"


def test_a_stale_edit_is_409_with_the_current_version(client: TestClient, table: Seats) -> None:
    """Two seats read version 1; the first edit lands, the second gets 409 and writes nothing."""
    base = f"/api/tables/{table.id}/characters"
    url = f"{base}/{client.post(base, json={'sheet': terrik()}, headers=table.mara).json()['id']}"
    first = client.put(url, json={"sheet": named("A"), "version": 1}, headers=table.mara)
    second = client.put(url, json={"sheet": named("B"), "version": 1}, headers=table.narrator)
    assert first.status_code == 200
    assert second.status_code == 409
    assert second.json()["version"] == 2 and second.json()["error"]["field"] == "version"
    assert client.get(url, headers=table.mara).json() == {
        "sheet": named("A"),
        "version": 2,
    }


def test_an_illegal_sheet_is_422_listing_every_problem(client: TestClient, table: Seats) -> None:
    """A sheet over its attribute points is refused, each broken rule listed, nothing saved."""
    sheet = terrik()
    sheet["attributes"] = {name: 5 for name in sheet["attributes"]}
    refused = client.post(
        f"/api/tables/{table.id}/characters", json={"sheet": sheet}, headers=table.mara
    )
    assert refused.status_code == 422
    body = refused.json()
    assert body["error"]["field"] == "sheet" and body["problems"]
    assert all({"rule", "found", "fix"} <= set(problem) for problem in body["problems"])
    events = client.get(f"/api/tables/{table.id}/events", headers=table.narrator).json()["events"]
    assert not [event for event in events if event["kind"].startswith("character")]


def test_a_malformed_sheet_and_a_missing_character(client: TestClient, table: Seats) -> None:
    """A sheet that is no sheet is 422 naming ``sheet``; an unknown id is 404."""
    base = f"/api/tables/{table.id}/characters"
    bad = client.post(base, json={"sheet": {"name": 3}}, headers=table.mara)
    assert (bad.status_code, bad.json()["error"]["field"]) == (422, "sheet")
    assert client.get(f"{base}/nobody", headers=table.mara).status_code == 404
    put = client.put(f"{base}/nobody", json={"sheet": terrik(), "version": 1}, headers=table.mara)
    assert put.status_code == 404
