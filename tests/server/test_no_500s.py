"""Inputs that were 500s (issue "Trust, round two"): each is a 422 naming its field, on SQLite
and PostgreSQL, and the log does not move."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import Seats

LONE_SURROGATE = '"\\ud800"'  # JSON's spelling of half a character (no UTF-8 has it)


def _raw(client: TestClient, url: str, body: dict[str, Any], **headers: str) -> Any:
    """POST ``body`` as JSON whose ``"SURROGATE"`` strings are a lone surrogate."""
    text = json.dumps(body).replace('"SURROGATE"', LONE_SURROGATE)
    return client.post(url, content=text, headers={"content-type": "application/json", **headers})


def _head(client: TestClient, table: Seats) -> int:
    return int(client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["head_seq"])


@pytest.mark.parametrize("seq", [10**30, -(10**30), 2**31, 0])
def test_a_strike_of_a_seq_out_of_range_is_a_422(
    client: TestClient, table: Seats, seq: int
) -> None:
    """``log.strike`` with a seq no database integer holds (or none the log can have) is 422
    ``args.seq`` saying the range, not a 500; a seq past the log's end is 422 too."""
    head = _head(client, table)
    answer = client.post(
        f"/api/tables/{table.id}/actions",
        headers=table.narrator,
        json={"action": "log.strike", "args": {"seq": seq, "reason": "no"}},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "args.seq"
    assert "1 to 2147483647" in answer.json()["error"]["message"]
    past = client.post(
        f"/api/tables/{table.id}/actions",
        headers=table.narrator,
        json={"action": "log.strike", "args": {"seq": head + 5, "reason": "no"}},
    )
    assert past.status_code == 422 and past.json()["error"]["field"] == "args.seq"
    assert _head(client, table) == head


def test_a_lone_surrogate_in_a_name_is_a_422_naming_it(client: TestClient, table: Seats) -> None:
    """A table's name, a seat's name and a join code holding a lone surrogate are 422 naming
    the field (it cannot be stored in either database); nothing is made."""
    made = _raw(client, "/api/tables", {"name": "SURROGATE", "system": "cogent"})
    assert made.status_code == 422, made.text
    assert made.json()["error"]["field"] == "name"
    assert "surrogate" in made.json()["error"]["message"]
    join = f"/api/tables/{table.id}/join"
    seat = _raw(client, join, {"code": table.join_code, "name": "SURROGATE", "role": "player"})
    assert seat.status_code == 422 and seat.json()["error"]["field"] == "name", seat.text
    code = _raw(client, join, {"code": "SURROGATE", "name": "Mara", "role": "player"})
    assert code.status_code == 422 and code.json()["error"]["field"] == "code", code.text
    seats = client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["seats"]
    assert len(seats) == 4


@pytest.mark.parametrize(
    ("action", "args"),
    [
        ("cogent.check", {"challenge_level": 2}),
        ("cogent.cast", {"spell": "Fireball", "challenge_level": 2}),
        ("cogent.summon", {"school": "fire", "challenge_level": 2}),
    ],
)
@pytest.mark.parametrize("name", ["", "   ", "\u200b"])
def test_a_part_with_no_name_is_a_422_naming_parts(
    client: TestClient, table: Seats, action: str, args: dict[str, Any], name: str
) -> None:
    """A pool's part named by nothing visible (empty, blank, a zero-width space) is 422
    ``args.parts``, not the engine's validation error as a 500; the log does not move."""
    head = _head(client, table)
    answer = client.post(
        f"/api/tables/{table.id}/actions",
        headers=table.narrator,
        json={"action": action, "args": {**args, "parts": [[name, 2]]}},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "args.parts"
    assert "name each part" in answer.json()["error"]["message"]
    assert _head(client, table) == head
