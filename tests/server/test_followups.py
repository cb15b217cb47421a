"""Follow-ups at a live table: destiny spent after a logged check, read from the log (never
from the client), attached to its entry, and refused when the rules or the seat forbid it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import Seats, make_table
from tests.server.test_characters import terrik

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _act(client: TestClient, seats: Seats, who: dict[str, str], action: str, **args: Any) -> Any:
    return client.post(
        f"/api/tables/{seats.id}/actions", json={"action": action, "args": args}, headers=who
    )


def _terrik_check(client: TestClient, seats: Seats) -> tuple[str, dict[str, Any]]:
    made = client.post(
        f"/api/tables/{seats.id}/characters", json={"sheet": terrik()}, headers=seats.mara
    )
    character = made.json()["id"]
    rolled = _act(
        client, seats, seats.mara, "cogent.check", character=character, skill="Athletics", cl=9
    )
    assert rolled.status_code == 201, rolled.text
    return character, rolled.json()


def test_destiny_after_follows_the_logged_roll_until_none_is_left(
    client: TestClient, table: Seats
) -> None:
    """Mara's 6D6 check at CL 9 cannot pass on dice alone; each point adds a win to the logged
    result (002 > Destiny Points); the sheet's 3 points run out and a 4th spend is refused."""
    character, check = _terrik_check(client, table)
    wins = check["result"]["wins"]
    first = _act(client, table, table.mara, "cogent.destiny-after", follows=check["seq"])
    assert first.status_code == 201, first.text
    event = first.json()
    assert event["follows"] == check["seq"] and event["args"] == {"follows": check["seq"]}
    assert event["result"]["check"]["wins"] == wins + 1
    second = _act(
        client, table, table.mara, "cogent.destiny-after", follows=check["seq"], destiny_after=2
    )
    assert second.json()["result"]["check"]["wins"] == wins + 3  # from the first follow-up on
    sheet = client.get(f"/api/tables/{table.id}/characters/{character}", headers=table.mara)
    assert sheet.json()["sheet"]["destiny"]["points"] == 0
    refused = _act(client, table, table.mara, "cogent.destiny-after", follows=check["seq"])
    assert refused.status_code == 422
    assert "only 0 are available" in refused.json()["error"]["message"]


@SQLITE
def test_a_follow_up_is_refused_for_another_seat_a_wrong_mode_or_a_forged_roll(
    client: TestClient, table: Seats
) -> None:
    """Bram may not spend on Mara's roll; core has no 'reroll'; the roll is never the client's;
    an entry that is not a check, or that does not exist, is refused."""
    _character, check = _terrik_check(client, table)
    seq = check["seq"]
    theirs = _act(client, table, table.bram, "cogent.destiny-after", follows=seq)
    assert theirs.status_code == 422 and "another seat's roll" in theirs.text
    mode = _act(
        client, table, table.mara, "cogent.destiny-after", follows=seq, destiny_after="reroll"
    )
    assert mode.status_code == 422 and "core edition has no destiny-after 'reroll'" in mode.text
    forged = _act(
        client, table, table.mara, "cogent.destiny-after", follows=seq,
        roll={"action": "cogent.check", "args": {}, "result": {}, "roller": "x", "spender": "x"},
    )  # fmt: skip
    assert forged.status_code == 422 and forged.json()["error"]["field"] == "args.roll"
    notation = _act(client, table, table.mara, "roll", notation="1d6").json()["seq"]
    other = _act(client, table, table.mara, "cogent.destiny-after", follows=notation)
    assert other.status_code == 422 and "not a check" in other.text
    missing = _act(client, table, table.mara, "cogent.destiny-after", follows=999)
    assert missing.status_code == 422 and missing.json()["error"]["field"] == "args.follows"


@SQLITE
def test_a_tiered_follow_up_of_a_secret_roll_stays_secret(client: TestClient) -> None:
    """The narrator's secret tiered check is followed by a reroll the players never receive
    (a typed pool: the narrator says the points held, as no sheet holds them)."""
    seats = make_table(client, edition="tiered")
    rolled = client.post(
        f"/api/tables/{seats.id}/actions",
        json={"action": "cogent.check", "args": {"pool": 5, "cl": 4}, "visibility": "narrator"},
        headers=seats.narrator,
    ).json()
    spend = "raise" if rolled["result"]["passed"] else "reroll"
    after = _act(
        client, seats, seats.narrator, "cogent.destiny-after", follows=rolled["seq"],
        destiny_after=spend, destiny_points=1,
    )  # fmt: skip
    assert after.status_code == 201, after.text
    assert after.json()["visibility"] == "narrator"
    seen = client.get(f"/api/tables/{seats.id}/events", headers=seats.mara).json()
    assert all(event["seq"] < rolled["seq"] for event in seen["events"])
    blind = _act(client, seats, seats.mara, "cogent.destiny-after", follows=rolled["seq"])
    assert blind.status_code == 422 and "that you can see" in blind.text


@SQLITE
def test_a_follow_up_of_an_impossible_entry_number_is_refused(
    client: TestClient, table: Seats
) -> None:
    """Entry numbers out of range or not numbers are refused, naming args.follows."""
    for follows in (0, -3, 10**30, "x", 2.5, True):
        answer = _act(client, table, table.mara, "cogent.destiny-after", follows=follows)
        assert answer.status_code == 422, (follows, answer.text)
        assert answer.json()["error"]["field"] == "args.follows"
