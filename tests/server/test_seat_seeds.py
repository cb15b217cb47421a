"""Dice no one steers, not even the host (issue 35.2; ``taletable.ledger.seats``): each seat
gives a seed of its own for each scene, committed in the log and revealed at the close; each
seat's rolls are numbered; hidden rolls' secrets come from a committed hidden seed. A server
altered to steer the dice (here, the real server with one part swapped, as its operator could)
is caught by the seat's verify."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.audit import verify_table
from taletable.server import seeds
from tests.server.conftest import Seats
from tests.server.test_actions import act


def _give(client: TestClient, table: Seats, who: dict[str, str], seed: str) -> Any:
    return client.post(f"/api/tables/{table.id}/seeds", json={"seed": seed}, headers=who)


def _export(client: TestClient, table: Seats, who: dict[str, str]) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table.id}/export", headers=who)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _close(client: TestClient, table: Seats) -> None:
    assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).status_code == 201


def _face(key: bytes, message: str, sides: int) -> int:
    """A die as the ledger's page documents it (rejection sampling over 8 bytes)."""
    span, attempt = 2**64, 0
    while True:
        mac = hmac.new(key, f"{message}:{attempt}".encode(), hashlib.sha256).digest()
        value = int.from_bytes(mac[:8], "big")
        if value < span - span % sides:
            return value % sides + 1
        attempt += 1


def test_a_seats_seed_is_committed_revealed_and_draws_its_dice(
    client: TestClient, table: Seats
) -> None:
    """Mara gives her seed; the log commits to it; Bram's rolls interleave with hers; at the
    close her seed is revealed, and each of her rolls' faces is the documented formula's, with
    her roll numbers 1, 2, 3 whatever came between."""
    mine = secrets.token_hex(32)
    given = _give(client, table, table.mara, mine)
    assert given.status_code == 201, given.text
    assert given.json()["commitment"] == hashlib.sha256(bytes.fromhex(mine)).hexdigest()
    for who in (table.mara, table.bram, table.mara, table.bram, table.bram, table.mara):
        rolled = act(client, table, who, action="cogent.check", args={"pool": 4, "cl": 2})
        assert rolled.status_code == 201
    _close(client, table)
    whole = _export(client, table, table.narrator)
    closed = next(e for e in whole["events"] if e["kind"] == "scene.close")
    assert closed["seat_seeds"] == {table.mara_seat: mine}  # Bram gave none
    scene_seed = bytes.fromhex(closed["seed"])
    key = hmac.new(scene_seed, f"seat:{table.mara_seat}:{mine}".encode(), hashlib.sha256).digest()
    hers = [e for e in whole["events"] if e.get("actor") == table.mara_seat and "action" in e]
    assert [e["roll"] for e in hers] == [1, 2, 3]
    for event in hers:
        prefix = f"{table.id}:{event['scene']}:{table.mara_seat}:{event['roll']}"
        faces = [_face(key, f"{prefix}:{n}", die["sides"]) for n, die in enumerate(event["dice"])]
        assert faces == [die["face"] for die in event["dice"]]
    assert verify_table(whole, own_seeds=[mine]).ok
    assert verify_table(_export(client, table, table.mara), own_seeds=[mine]).ok


def test_a_seat_gives_one_seed_a_scene_before_it_rolls(client: TestClient, table: Seats) -> None:
    """A second seed in the scene, or one after the seat rolled there, is 409; a malformed one
    422 naming ``seed``; an observer 403; the next scene takes a new one."""
    assert _give(client, table, table.mara, "ab" * 32).status_code == 201
    again = _give(client, table, table.mara, "cd" * 32)
    assert again.status_code == 409 and again.json()["error"]["field"] == "seed"
    act(client, table, table.bram, action="cogent.check", args={"pool": 2, "cl": 1})
    late = _give(client, table, table.bram, "ef" * 32)
    assert late.status_code == 409 and "rolled first" in late.json()["error"]["message"]
    for bad in ("AB" * 32, "ab" * 31, 7):
        refused = client.post(f"/api/tables/{table.id}/seeds", json={"seed": bad},
                              headers=table.mara)  # fmt: skip
        assert refused.status_code == 422 and "seed" in refused.text
    assert _give(client, table, table.observer, "12" * 32).status_code == 403
    _close(client, table)
    assert _give(client, table, table.mara, "cd" * 32).status_code == 201
    assert verify_table(_export(client, table, table.narrator)).ok


def _altered(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """The server altered by its operator to steer the dice, one way at a time."""
    if how == "another seed for the seat":  # grinds a seed of its own in place of the seat's
        real = seeds.next_roll

        def next_roll(connection: Any, seat: str, scene: int) -> tuple[int, str]:
            roll, _given = real(connection, seat, scene)
            return roll, "99" * 32

        monkeypatch.setattr(seeds, "next_roll", next_roll)
    elif how == "a number skipped":  # tries the next roll's faces when this one's do not suit
        real = seeds.next_roll

        def skipping(connection: Any, seat: str, scene: int) -> tuple[int, str]:
            real(connection, seat, scene)
            return real(connection, seat, scene)

        monkeypatch.setattr(seeds, "next_roll", skipping)
    else:  # "a seat's seed swapped in the log": commits to its own and tells the seat nothing
        real_give = seeds.give_seat_seed

        def give(writer: Any, seat: str, seed: str) -> None:
            real_give(writer, seat, "77" * 32)

        monkeypatch.setattr(seeds, "give_seat_seed", give)


@pytest.mark.parametrize(
    "how", ["another seed for the seat", "a number skipped", "a seat's seed swapped in the log"]
)
def test_a_server_altered_to_steer_the_dice_is_caught(
    client: TestClient, table: Seats, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Mara's verify (her export, or the narrator's, with the seed her client kept) fails."""
    from taletable.server.routes import scenes

    _altered(monkeypatch, how)
    monkeypatch.setattr(scenes, "give_seat_seed", seeds.give_seat_seed)
    mine = secrets.token_hex(32)
    assert _give(client, table, table.mara, mine).status_code == 201
    for _ in range(3):
        act(client, table, table.mara, action="cogent.check", args={"pool": 5, "cl": 2})
    _close(client, table)
    caught = [
        verify_table(_export(client, table, who), own_seeds=[mine])
        for who in (table.mara, table.narrator)
    ]
    assert not any(checked.ok for checked in caught), [c.summary() for c in caught]
