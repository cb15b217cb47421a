"""Tracked values at a live boons table (003 > Accumulation Checks): part of the character,
saved as a new version like any sheet change; the bounds are the narrator's."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import Seats, make_table


def _act(client: TestClient, table: Seats, headers: dict[str, str], **body: Any) -> Any:
    return client.post(f"/api/tables/{table.id}/actions", json=body, headers=headers)


def _irzi(client: TestClient) -> tuple[Seats, str]:
    table = make_table(client, system="boons")
    made = client.post(f"/api/tables/{table.id}/characters",
                       json={"sheet": {"name": "Irzi"}}, headers=table.mara)  # fmt: skip
    assert made.status_code == 201, made.text
    return table, made.json()["id"]


def test_an_accumulation_check_is_a_new_version_of_the_character(client: TestClient) -> None:
    """The narrator sets the track; Mara's check saves Irzi anew; a page's edit from the version
    it read before is refused with 409 and changes nothing."""
    table, irzi = _irzi(client)
    url = f"/api/tables/{table.id}/characters/{irzi}"
    set_up = _act(client, table, table.narrator, action="boons.track",
                  args={"character": irzi, "track": "strain", "low": 0, "high": 10})  # fmt: skip
    assert set_up.status_code == 201, set_up.text
    read = client.get(url, headers=table.mara).json()
    rolled = _act(client, table, table.mara, action="boons.accumulate",
                  args={"character": irzi, "track": "strain", "formula": "2d6"})  # fmt: skip
    assert rolled.status_code == 201, rolled.text
    event = rolled.json()
    step = event["result"]["step"]
    assert step["faces"] == [die["face"] for die in event["dice"]]
    assert step["after"] == min(10, sum(step["faces"])) == event["result"]["value"]
    now = client.get(url, headers=table.mara).json()
    assert now["version"] == read["version"] + 1
    assert now["sheet"]["tracks"]["strain"]["history"] == [step]
    stale = client.put(url, json=read, headers=table.mara)
    assert stale.status_code == 409 and stale.json()["error"]["field"] == "version"
    assert client.get(url, headers=table.mara).json() == now


def test_only_the_narrator_sets_a_track(client: TestClient) -> None:
    """A player's boons.track is 403 naming ``action``; the sheet stays at its version."""
    table, irzi = _irzi(client)
    refused = _act(client, table, table.mara, action="boons.track",
                   args={"character": irzi, "track": "strain", "value": 99})  # fmt: skip
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "action"
    sheet = client.get(f"/api/tables/{table.id}/characters/{irzi}", headers=table.mara).json()
    assert sheet == {"sheet": {"name": "Irzi"}, "version": 1}


def test_errors_name_the_field_and_change_nothing(client: TestClient) -> None:
    """An unknown track and a bad formula: 422 naming ``args.track`` / ``args.formula``."""
    table, irzi = _irzi(client)
    _act(client, table, table.narrator, action="boons.track",
         args={"character": irzi, "track": "strain"})  # fmt: skip
    for args, field in (({"track": "stress"}, "args.track"), ({"formula": "2q6"}, "args.formula")):
        answer = _act(client, table, table.mara, action="boons.accumulate",
                      args={"character": irzi, "track": "strain", **args})  # fmt: skip
        assert answer.status_code == 422 and answer.json()["error"]["field"] == field, answer.text
    assert client.get(f"/api/tables/{table.id}/characters/{irzi}",
                      headers=table.mara).json()["version"] == 2  # fmt: skip


def test_a_sheet_whose_track_breaks_its_bounds_is_refused(client: TestClient) -> None:
    """A boons sheet is kept as given, but its tracks are checked: 422 naming the track."""
    table = make_table(client, system="boons")
    sheet = {"name": "Irzi", "tracks": {"strain": {"value": 12, "high": 10}}}
    made = client.post(f"/api/tables/{table.id}/characters", json={"sheet": sheet},
                       headers=table.narrator)  # fmt: skip
    assert made.status_code == 422
    assert made.json()["error"]["field"].startswith("sheet.tracks.strain")


def test_the_odds_of_a_stored_track_are_a_read(client: TestClient) -> None:
    """odds.boons.accumulate answers 200 with the distribution and makes no event."""
    table, irzi = _irzi(client)
    _act(client, table, table.narrator, action="boons.track",
         args={"character": irzi, "track": "strain", "value": 1, "low": 0})  # fmt: skip
    answer = _act(client, table, table.mara, action="odds.boons.accumulate",
                  args={"character": irzi, "track": "strain", "formula": "1d4",
                        "subtract": True})  # fmt: skip
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["distribution"] == [[0, "1"]]


def test_a_player_may_not_set_bounds_by_editing_the_sheet(client: TestClient) -> None:
    """The bounds are the narrator's: Mara's edit that lifts Irzi's high bound, or adds a track,
    is 403 naming the track's field; her edit of the rest of the sheet stands; the narrator's
    edit of the bounds stands too."""
    table, irzi = _irzi(client)
    url = f"/api/tables/{table.id}/characters/{irzi}"
    _act(client, table, table.narrator, action="boons.track",
         args={"character": irzi, "track": "strain", "high": 10})  # fmt: skip
    read = client.get(url, headers=table.mara).json()
    lifted = {**read["sheet"], "tracks": {"strain": {**read["sheet"]["tracks"]["strain"],
                                                     "high": 99}}}  # fmt: skip
    refused = client.put(url, json={"sheet": lifted, "version": read["version"]},
                         headers=table.mara)  # fmt: skip
    assert refused.status_code == 403
    assert refused.json()["error"]["field"] == "sheet.tracks.strain.high"
    added = {**read["sheet"], "tracks": {**read["sheet"]["tracks"], "luck": {"value": 9}}}
    refused = client.put(url, json={"sheet": added, "version": read["version"]},
                         headers=table.mara)  # fmt: skip
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "sheet.tracks.luck"
    renamed = {**read["sheet"], "name": "Irzi the Bold"}
    assert client.put(url, json={"sheet": renamed, "version": read["version"]},
                      headers=table.mara).status_code == 200  # fmt: skip
    assert client.put(url, json={"sheet": {**lifted, "name": "Irzi the Bold"},
                                 "version": read["version"] + 1},
                      headers=table.narrator).status_code == 200  # fmt: skip
